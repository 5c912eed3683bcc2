// src/index/nt4.hpp — nucleotide codes (spec 1.2): A/a 0, C/c 1, G/g 2, T/t/U/u 3,
// every other byte 4 (ambiguous, "N"). The complement of c < 4 is 3 - c; 4 stays 4.
#pragma once

#include <array>
#include <cstdint>

namespace agatha::index {

inline constexpr std::array<uint8_t, 256> kNt4Table = [] {
  std::array<uint8_t, 256> t{};
  t.fill(4);
  t['A'] = t['a'] = 0;
  t['C'] = t['c'] = 1;
  t['G'] = t['g'] = 2;
  t['T'] = t['t'] = t['U'] = t['u'] = 3;
  return t;
}();

inline uint8_t nt4(char c) { return kNt4Table[static_cast<uint8_t>(c)]; }

}  // namespace agatha::index
