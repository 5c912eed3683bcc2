// Option values as minimap2's main.c reads them (mm_parse_num).
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

}  // namespace agatha::cli
