// agatha/nt4.hpp — nucleotide codes as minimap2's seq_nt4_table gives them: A/a 0,
// C/c 1, G/g 2, T/t/U/u 3, the bytes 0x00-0x03 themselves (already codes), every other
// byte 4 (ambiguous, "N"). The complement of c < 4 is 3 - c; 4 stays 4. The one
// encoder of the project: the reference, the reads, task files and the DP all use it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace agatha {

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

[[nodiscard]] inline uint8_t nt4(char c) { return kNt4Table[static_cast<uint8_t>(c)]; }

// The complement of a code.
[[nodiscard]] constexpr uint8_t complement(uint8_t code) { return code > 3 ? 4 : static_cast<uint8_t>(3 - code); }

// Text to codes.
[[nodiscard]] inline std::vector<uint8_t> nt4_encode(std::string_view seq) {
  std::vector<uint8_t> out(seq.size());
  for (size_t i = 0; i < seq.size(); ++i) out[i] = nt4(seq[i]);
  return out;
}

// The reverse complement of codes `in`, written to out[0, in.size()).
inline void reverse_complement(std::span<const uint8_t> in, uint8_t* out) {
  const size_t n = in.size();
  for (size_t i = 0; i < n; ++i) out[i] = complement(in[n - 1 - i]);
}

}  // namespace agatha
