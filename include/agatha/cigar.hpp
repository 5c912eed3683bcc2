// agatha/cigar.hpp — CIGAR operations as BAM and ksw2 pack them: one uint32_t per
// operation, length << 4 | op, where op indexes "MIDNSHP=X". The one vocabulary of every
// layer (DP kernels, region alignment, output); everything here is constexpr and usable
// in host and device code.
#pragma once

#include <charconv>
#include <cstdint>
#include <span>
#include <string>

namespace agatha::cigar {

inline constexpr uint32_t kMatch = 0;     // M: consumes query and target
inline constexpr uint32_t kIns = 1;       // I: consumes query
inline constexpr uint32_t kDel = 2;       // D: consumes target
inline constexpr uint32_t kNSkip = 3;     // N: an intron; consumes target
inline constexpr uint32_t kSoftClip = 4;  // S
inline constexpr uint32_t kHardClip = 5;  // H
inline constexpr uint32_t kPad = 6;       // P
inline constexpr uint32_t kEqual = 7;     // =: a match of equal bases
inline constexpr uint32_t kDiff = 8;      // X: a mismatch
inline constexpr uint32_t kNumOps = 9;

// The SAM letter of each op.
inline constexpr char kOpChars[] = "MIDNSHP=X";

[[nodiscard]] constexpr uint32_t op(uint32_t c) { return c & 0xfu; }
[[nodiscard]] constexpr uint32_t len(uint32_t c) { return c >> 4; }
[[nodiscard]] constexpr uint32_t make(uint32_t length, uint32_t op_code) { return length << 4 | op_code; }
// The SAM letter of an operation, '?' for a code outside "MIDNSHP=X".
[[nodiscard]] constexpr char op_char(uint32_t c) { return op(c) < kNumOps ? kOpChars[op(c)] : '?'; }

// Which sequences an op advances on (M, I, S, =, X: query; M, D, N, =, X: target).
[[nodiscard]] constexpr bool consumes_query(uint32_t op_code) {
  return op_code == kMatch || op_code == kIns || op_code == kSoftClip || op_code == kEqual || op_code == kDiff;
}
[[nodiscard]] constexpr bool consumes_target(uint32_t op_code) {
  return op_code == kMatch || op_code == kDel || op_code == kNSkip || op_code == kEqual || op_code == kDiff;
}

// The query and target bases a CIGAR spans (clips count as query, as in SAM).
struct Spans {
  int64_t query = 0, target = 0;
};
[[nodiscard]] constexpr Spans spans(std::span<const uint32_t> ops) {
  Spans s;
  for (const uint32_t c : ops) {
    if (consumes_query(op(c))) s.query += len(c);
    if (consumes_target(op(c))) s.target += len(c);
  }
  return s;
}

// Appends the SAM text of the operations ("10M2I5D"); nothing for none.
inline void append_text(std::string& out, std::span<const uint32_t> ops) {
  for (const uint32_t c : ops) {
    char buf[16];
    out.append(buf, std::to_chars(buf, buf + sizeof buf, len(c)).ptr);
    out += op_char(c);
  }
}

// The SAM text of a CIGAR, "*" for an empty one.
[[nodiscard]] inline std::string to_string(std::span<const uint32_t> ops) {
  std::string s;
  if (ops.empty()) return "*";
  append_text(s, ops);
  return s;
}

}  // namespace agatha::cigar
