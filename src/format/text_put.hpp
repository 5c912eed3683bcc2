// src/format/text_put.hpp — appending text fields to an output string: put(out, a, b, ...)
// appends each argument (text, a character, or an integer in decimal) in order.
#pragma once

#include <charconv>
#include <concepts>
#include <string>
#include <string_view>

namespace agatha::format {

inline void put_one(std::string& out, std::string_view s) { out += s; }
inline void put_one(std::string& out, char c) { out += c; }
inline void put_one(std::string& out, std::integral auto v) {
  char buf[24];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}
template <typename... Args>
void put(std::string& out, const Args&... args) {
  (put_one(out, args), ...);
}

}  // namespace agatha::format
