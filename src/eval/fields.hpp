// src/eval/fields.hpp — small text helpers shared by the truth and alignment parsers.
#pragma once

#include <charconv>
#include <cstdint>
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

// True when S is a whole non-negative decimal integer; stores it in V.
inline bool parse_nonneg(std::string_view s, int64_t& v) {
  if (s.empty() || s[0] == '-' || s[0] == '+') return false;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace agatha::eval
