// src/index/nt4.hpp — nucleotide codes as minimap2's seq_nt4_table gives them: A/a 0,
// C/c 1, G/g 2, T/t/U/u 3, the bytes 0x00-0x03 themselves (already codes), every other
// byte 4 (ambiguous, "N"). The complement of c < 4 is 3 - c; 4 stays 4.
#pragma once

#include <array>
#include <cstdint>

namespace agatha::index {

inline constexpr std::array<uint8_t, 256> kNt4Table = [] {
  std::array<uint8_t, 256> t{};
  t.fill(4);
  for (uint8_t c = 0; c < 4; ++c) t[c] = c;
  t['A'] = t['a'] = 0;
  t['C'] = t['c'] = 1;
  t['G'] = t['g'] = 2;
  t['T'] = t['t'] = t['U'] = t['u'] = 3;
  return t;
}();

inline uint8_t nt4(char c) { return kNt4Table[static_cast<uint8_t>(c)]; }

}  // namespace agatha::index
