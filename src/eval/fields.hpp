// src/eval/fields.hpp — small text helpers shared by the truth and alignment parsers.
#pragma once

#include <charconv>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

namespace agatha::eval {

// The tab-separated fields of LINE (views into it).
inline std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> f;
  size_t start = 0;
  for (;;) {
    const size_t tab = line.find('\t', start);
    f.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
    if (tab == std::string_view::npos) return f;
    start = tab + 1;
  }
}

// The whitespace-separated fields of LINE (MAF separates its columns by runs of spaces).
inline std::vector<std::string_view> split_spaces(std::string_view line) {
  std::vector<std::string_view> f;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const size_t s = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > s) f.push_back(line.substr(s, i - s));
  }
  return f;
}

// How a field read as a non-negative decimal integer turned out. Too large for int64 is
// told apart from not a number so that messages can say which.
enum class Num { kOk, kNotNumber, kOutOfRange };

// Reads S, a whole non-negative decimal integer, into V.
inline Num read_nonneg(std::string_view s, int64_t& v) {
  if (s.empty() || s[0] < '0' || s[0] > '9') return Num::kNotNumber;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (p != s.data() + s.size()) return Num::kNotNumber;
  if (ec == std::errc::result_out_of_range) return Num::kOutOfRange;
  return ec == std::errc() ? Num::kOk : Num::kNotNumber;
}

// True when S is a whole non-negative decimal integer that fits in int64; stores it in V.
inline bool parse_nonneg(std::string_view s, int64_t& v) { return read_nonneg(s, v) == Num::kOk; }

// A + B for non-negative A and B; false when the sum would not fit in int64. Positions
// come from files, so a sum near 2^63 is bad input, not something to wrap.
inline bool add_nonneg(int64_t a, int64_t b, int64_t& sum) {
  if (a < 0 || b < 0 || b > std::numeric_limits<int64_t>::max() - a) return false;
  sum = a + b;
  return true;
}

}  // namespace agatha::eval
