// src/index/sketch.hpp — (w,k)-minimizers of a sequence, exactly as minimap2 2.24's
// mm_sketch computes them (sketch.c), including its quirks: palindromic k-mers are
// skipped without advancing the window, minimizers pending at an ambiguous base are
// usually lost, and equal-hash k-mers may be emitted more than once.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace agatha::index {

// One minimizer, in minimap2's 128-bit layout (mm128_t):
//   x = hash << 8 | span     (hash: 2k bits; span: bases covered, < 256, = k without HPC)
//   y = rid << 32 | pos << 1 | strand   (pos: 0-based position of the k-mer's last base;
//                                        strand 1 when the reverse complement is smaller)
struct Minimizer {
  uint64_t x, y;
  friend bool operator==(const Minimizer&, const Minimizer&) = default;
};

inline constexpr int kMaxK = 28;
inline constexpr int kMaxW = 255;

// Thomas Wang's invertible integer hash restricted to the bits of mask (sketch.c: hash64).
[[nodiscard]] inline uint64_t hash64(uint64_t key, uint64_t mask) {
  key = (~key + (key << 21)) & mask;
  key = key ^ key >> 24;
  key = ((key + (key << 3)) + (key << 8)) & mask;
  key = key ^ key >> 14;
  key = ((key + (key << 2)) + (key << 4)) & mask;
  key = key ^ key >> 28;
  key = (key + (key << 31)) & mask;
  return key;
}

// Appends the minimizers of seq (raw bases; see agatha/nt4.hpp) to out, in minimap2's emission
// order. rid fills bits 32..63 of y. hpc: homopolymer-compressed k-mers.
// Requires 0 < k <= 28 and 0 < w < 256 (validated by the options); an empty seq adds
// nothing.
void sketch(std::string_view seq, int w, int k, uint32_t rid, bool hpc, std::vector<Minimizer>& out);

// The part of sketch()'s output that its steps at positions [from, to) emit (a step is a
// base, or with hpc the last base of a homopolymer run; the minimizer pending at the end
// belongs to the piece with to == seq.size()), computed by scanning from `warm` <= from
// instead of from the start, so that the pieces of a long sequence are sketched in
// parallel; the pieces' outputs together are sketch()'s. Scanning from warm > 0 gives
// sketch()'s state at `from` when no ambiguous base lies in [warm, from) and at least
// w + 2k steps with a k-mer lead to `from` (the k-mers, spans and window then agree, the
// valid length is past every threshold of the window in both); otherwise returns false
// and appends nothing, and the caller starts further back (warm = 0 always succeeds).
[[nodiscard]] bool sketch_piece(std::string_view seq, int w, int k, uint32_t rid, bool hpc, int warm, int from,
                                int to, std::vector<Minimizer>& out);

// sketch_piece from a warm-up of `warm_bases` before `from`, then 16 times as far, then
// from the start (which always succeeds): the piece [from, to) of sketch()'s output.
void sketch_range(std::string_view seq, int w, int k, uint32_t rid, bool hpc, int warm_bases, int from, int to,
                  std::vector<Minimizer>& out);

// sketch() on up to `threads` threads for a long sequence: pieces of at least
// min_piece bases, sketched side by side (sketch_range, warm-ups of 4,096 bases) and
// appended in order, so out gets exactly sketch()'s output.
void sketch_parallel(std::string_view seq, int w, int k, uint32_t rid, bool hpc, int threads, int min_piece,
                     std::vector<Minimizer>& out);

// The hashing stage of the sketch: key[j] = hash64(key[j], mask) << 8 | span[j] for j < n,
// computed scalar (isa 0), four lanes at a time with AVX2 (1) or eight with AVX-512F (2).
// sketch() uses sketch_hash_isa(), the widest this processor runs; the others are here
// so that tests can compare them (the caller makes sure the processor has `isa`).
[[nodiscard]] int sketch_hash_isa();
void hash_keys(uint64_t* key, const uint16_t* span, int n, uint64_t mask, int isa);

}  // namespace agatha::index
