// src/cli/map_options.hpp — option values as minimap2's main.c reads them: numbers with
// K/M/G suffixes (mm_parse_num). Used by agatha index's -I and agatha align's --dp-batch;
// agatha align and agatha minimap2 read minimap2's own options with minimap2_args.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace agatha::cli {

// minimap2's mm_parse_num: a decimal number with an optional K/M/G suffix (x1e3, 1e6,
// 1e9), rounded to the nearest integer. `end` receives the rest of the text; throws
// OptionError naming `option` when no number starts the text.
[[nodiscard]] int64_t parse_num(const std::string& text, const std::string& option, size_t* end = nullptr);

// parse_num for a size that cannot be negative (-I): a negative number is an invalid
// value (minimap2 would wrap it around to an unsigned one), and one beyond 2^64 - 1
// saturates there.
[[nodiscard]] uint64_t parse_size(const std::string& text, const std::string& option);

}  // namespace agatha::cli
