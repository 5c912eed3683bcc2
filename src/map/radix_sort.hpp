// src/map/radix_sort.hpp — minimap2 2.24's radix_sort_128x and radix_sort_64 (ksort.h
// KRADIX_SORT_INIT), on agatha's anchors and on plain values: the in-place MSD radix sort
// of src/util/radix_sort.hpp, whose tie order (the sort is not stable) is minimap2's, on
// which chaining output depends.
#pragma once

#include <cstdint>

#include "../util/radix_sort.hpp"
#include "anchor.hpp"

namespace agatha::map {

// minimap2's radix_sort_128x: anchors (or any {x, y} record) by x.
inline void radix_sort_by_x(Anchor* beg, Anchor* end) {
  util::radix_sort(beg, end, [](const Anchor& a) { return a.x; });
}

// The same on up to `threads` threads (the same order).
inline void radix_sort_by_x(Anchor* beg, Anchor* end, int threads) {
  util::radix_sort_parallel(beg, end, [](const Anchor& a) { return a.x; }, threads);
}

// minimap2's radix_sort_64: plain 64-bit values.
inline void radix_sort_u64(uint64_t* beg, uint64_t* end) {
  util::radix_sort(beg, end, [](uint64_t v) { return v; });
}

}  // namespace agatha::map
