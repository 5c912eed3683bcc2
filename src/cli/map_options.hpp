// src/cli/map_options.hpp — the command-line options shared by `agatha index` and
// `agatha align`, bound to AlignOptions the way minimap2 2.24's main.c binds them: the
// preset (-x) first, then every option given, whatever its position; then validate().
#pragma once

#include <CLI/CLI.hpp>
#include <agatha/options.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace agatha::cli {

// -x -k -w -H: what shapes the index.
struct IndexArgs {
  std::string preset;
  std::optional<int> k, w;
  bool hpc = false;

  void add_to(CLI::App& sub);
  void apply(AlignOptions& opt) const;
};

// Seeding, chaining, selection and pipeline options of `agatha align`.
struct MapArgs {
  std::optional<std::string> mid_occ;    // -f FLOAT|INT
  std::optional<std::string> occ_range;  // -U INT[,INT]
  std::optional<std::string> max_gap;    // -g NUM (K/M/G suffixes)
  std::optional<std::string> bandwidth;  // -r NUM[,NUM]
  std::optional<int> min_cnt, min_chain_score, best_n;
  std::optional<float> pri_ratio, mask_level;
  std::optional<std::string> secondary;  // yes|no
  std::optional<int> threads;
  std::optional<std::string> batch_bases;  // -K NUM

  void add_to(CLI::App& sub);
  void apply(AlignOptions& opt) const;
};

// minimap2's mm_parse_num: a decimal number with an optional K/M/G suffix (x1e3, 1e6,
// 1e9), rounded to the nearest integer. `end` receives the rest of the text; throws
// OptionError naming `option` when no number starts the text.
int64_t parse_num(const std::string& text, const std::string& option, size_t* end = nullptr);

}  // namespace agatha::cli
