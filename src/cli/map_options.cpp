// The minimap2 options of index and align, as minimap2 2.24's main.c reads each one,
// bound to AlignOptions.
#include "map_options.hpp"

#include "getopt.hpp"

#include <agatha/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace agatha::cli {
namespace {

[[noreturn]] void bad_value(const std::string& option, const std::string& text) {
  throw OptionError("invalid value '" + text + "' for " + option);
}

// A decimal number at text[pos...]; advances pos past it.
[[nodiscard]] double parse_double(const std::string& text, size_t& pos, const std::string& option) {
  const char* start = text.c_str() + pos;
  char* end = nullptr;
  const double x = std::strtod(start, &end);
  if (end == start || !std::isfinite(x)) bad_value(option, text);
  pos += static_cast<size_t>(end - start);
  return x;
}

void expect_end(const std::string& text, size_t pos, const std::string& option) {
  if (pos != text.size()) bad_value(option, text);
}

// An option whose value minimap2 reads with its own syntax (`type`, e.g. NUM[,NUM]):
// `store` parses the text, throwing OptionError for a bad one, and writes the options
// struct. `default_text` is the default shown by --help.
CLI::Option* add_minimap2_option(CLI::App& sub, const std::string& name, const std::string& type,
                                 const std::string& default_text, std::function<void(const std::string&)> store,
                                 const std::string& help) {
  return sub.add_option_function<std::string>(name, std::move(store), help)->type_name(type)->default_str(default_text);
}


}  // namespace

namespace {

// parse_num's number before rounding.
[[nodiscard]] double parse_scaled(const std::string& text, const std::string& option, size_t* end) {
  size_t pos = 0;
  double x = parse_double(text, pos, option);
  x = apply_num_suffix(text, pos, x);
  if (end)
    *end = pos;
  else
    expect_end(text, pos, option);
  return x;
}

}  // namespace

int64_t parse_num(const std::string& text, const std::string& option, size_t* end) {
  return static_cast<int64_t>(parse_scaled(text, option, end) + .499);
}

uint64_t parse_size(const std::string& text, const std::string& option) {
  const double x = parse_scaled(text, option, nullptr);
  if (x < 0) bad_value(option, text);
  constexpr double kMax = 18446744073709551615.0;  // 2^64, as a double
  return x + .499 >= kMax ? UINT64_MAX : static_cast<uint64_t>(x + .499);
}

CLI::Validator one_of(std::initializer_list<const char*> values, std::string message) {
  std::vector<std::string> accepted(values.begin(), values.end());
  std::string names;
  for (const std::string& v : accepted) names += (names.empty() ? "" : "|") + v;
  return CLI::Validator(
      [accepted = std::move(accepted), message = std::move(message)](const std::string& text) -> std::string {
        if (std::find(accepted.begin(), accepted.end(), text) == accepted.end()) throw OptionError(message);
        return {};
      },
      names);
}

void add_index_options(CLI::App& sub, AlignOptions& opt) {
  // Applied as it is parsed, before any other option's value is stored: the preset first,
  // whatever its position, as in main.c. An unknown preset is reported at once, in
  // minimap2's words, so that `-x ref.fa reads.fq` (no preset given) names the word -x
  // took rather than the argument now missing.
  sub.add_option_function<std::string>(
         "-x", [&opt](const std::string& name) { opt.apply_preset(name); },
         "Preset: map-ont (default), map-pb, map-hifi, asm5, asm10, asm20, ava-ont, ava-pb; applied before every "
         "other option")
      ->type_name("PRESET")
      ->trigger_on_parse();
  sub.add_option("-k", opt.k, "k-mer size (no larger than 28)")->capture_default_str();
  sub.add_option("-w", opt.w, "Minimizer window size")->capture_default_str();
  sub.add_flag("-H", opt.hpc, "Use homopolymer-compressed k-mers");
  add_minimap2_option(
      sub, "-I", "NUM", "8G (minimap2 2.31; 4G with --compat 2.24)", [&opt](const std::string& text) { opt.part_bases = parse_size(text, "-I"); },
      "Index parts of ~NUM reference bases (K/M/G suffixes): align maps the reads to each part in turn; an .agi "
      "holds one part");
  sub.add_option("--bucket-bits", opt.bucket_bits,
                 "Bits of the hash that select the index's bucket (no effect on output)")
      ->capture_default_str();
  sub.add_option_function<int>(
         "-t", [&opt](int n) { opt.threads = std::max(n, 1); },
         "Number of threads (index: sketching and sorting; align: every stage)")
      ->default_str(std::to_string(opt.threads));
}

}  // namespace agatha::cli
