// src/map/sdust.hpp — low-complexity intervals of a read by symmetric DUST (Morgulis et
// al. 2006) with the rules of minimap2 2.24's sdust.c (sdust_core), and the masking of
// read minimizers that fall in them (map.c: mm_dust_minier, called by
// collect_minimizers for each segment when -T is above 0).
//
// SDUST scores a stretch of triplets (3-mers) by sum over triplets of c(c-1)/2, c being
// its count, divided by the number of triplets minus one; a stretch whose score exceeds
// T/10 and whose every sub-stretch scores no more is "perfect". The window of W bases
// slides over each run of A/C/G/T (any other base ends a run); the perfect intervals of
// the window are collected, and each one that leaves the window is reported, merged
// with the previous report when they overlap or touch. minimap2's quirks are kept: the
// triplet window is not emptied at an ambiguous base (triplets before it still count
// until they are shifted out), only the leftmost of the perfect intervals leaving the
// window is reported, and the intervals pending at a run's end are flushed with a start
// stepped one base at a time.
//
// Threading: reentrant.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "../index/sketch.hpp"

namespace agatha::map {

// A reported low-complexity interval, [start, end) in bases of the sequence.
struct DustInterval {
  int32_t start = 0;
  int32_t end = 0;
  friend bool operator==(const DustInterval&, const DustInterval&) = default;
};

// minimap2's window for masking read minimizers (mm_dust_minier).
inline constexpr int kDustWindow = 64;

// The intervals SDUST reports for seq with score threshold `threshold` (T) and window
// `window` bases (W >= 3), in increasing order, disjoint and not adjacent. Bases are
// read with minimap2's table (agatha/nt4.hpp): codes 0-3 are A/C/G/T, the rest break runs.
[[nodiscard]] std::vector<DustInterval> sdust(std::string_view seq, int threshold, int window = kDustWindow);

// Drops the minimizers mv[first, end) that fall mostly in the intervals `iv` (sorted,
// disjoint): a minimizer covering [p - span + 1, p + 1), p = (uint32_t)y >> 1, span =
// x & 0xff, is dropped when more than span / 2 (rounded down) of its bases lie in
// intervals (mm_dust_minier's rule, with its scan: the intervals are passed over in one
// sweep, so minimizers are taken in order of position). The kept ones stay in order.
void drop_minimizers_in(std::vector<index::Minimizer>& mv, size_t first, std::span<const DustInterval> iv);

// The masking of one segment `seg` whose minimizers are mv[first, end): drop_minimizers_in
// with sdust(seg, threshold, kDustWindow) (mm_dust_minier). The minimizers' positions are
// those collect_minimizers gives them, offset by the lengths of the earlier segments,
// while the intervals are the segment's own: minimap2 compares them as they are.
// threshold <= 0: nothing is dropped.
void mask_low_complexity(std::vector<index::Minimizer>& mv, size_t first, std::string_view seg, int threshold);

}  // namespace agatha::map
