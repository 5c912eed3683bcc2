// src/cli/map_options.hpp — the indexing options of `agatha index` (CLI11), bound to the
// fields of AlignOptions (the one place their defaults live): the preset (-x) first,
// whatever its position on the command line, then every other option given. (`agatha
// align` and `agatha minimap2` read every minimap2 option with minimap2's own rules:
// minimap2_args.hpp.)
//
// How CLI11 keeps that order: -x is applied as it is parsed (trigger_on_parse), every
// other option's value is stored once the whole command line is parsed.
#pragma once

#include <CLI/CLI.hpp>
#include <agatha/options.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>

namespace agatha::cli {

// -x -k -w -H -I --bucket-bits -t of agatha index: what shapes the index and how it is built.
void add_index_options(CLI::App& sub, AlignOptions& opt);

// A validator that accepts exactly `values` and otherwise throws OptionError(message):
// main reports it in minimap2's words as "[E::COMMAND] MESSAGE" (exit code 1), where a
// CLI11 ValidationError would be worded by CLI11.
[[nodiscard]] CLI::Validator one_of(std::initializer_list<const char*> values, std::string message);

// minimap2's mm_parse_num: a decimal number with an optional K/M/G suffix (x1e3, 1e6,
// 1e9), rounded to the nearest integer. `end` receives the rest of the text; throws
// OptionError naming `option` when no number starts the text.
[[nodiscard]] int64_t parse_num(const std::string& text, const std::string& option, size_t* end = nullptr);

// parse_num for a size that cannot be negative (-I): a negative number is an invalid
// value (minimap2 would wrap it around to an unsigned one), and one beyond 2^64 - 1
// saturates there.
[[nodiscard]] uint64_t parse_size(const std::string& text, const std::string& option);

}  // namespace agatha::cli
