// src/util/radix_sort.hpp — the in-place MSD radix sort of minimap2 2.24 (ksort.h
// KRADIX_SORT_INIT as instantiated for radix_sort_128x and radix_sort_64), reproduced so
// that records with equal keys end up in exactly minimap2's order. The sort is not
// stable: ties come out in the order the cycle-leader permutation below produces, and
// chaining output depends on it.
//
//   n <= 64          : insertion sort (stable).
//   otherwise        : 8-bit digits from bits 56..63 down; count digits; permute in place
//                      bucket by bucket ("American flag": the element at a bucket's write
//                      pointer is carried to the next free slot of its own bucket, the
//                      element found there is carried on, until one for the starting bucket
//                      comes back); then, unless the digit was the lowest, recurse into
//                      buckets of > 64 records and insertion-sort buckets of 2..64.
//
// A digit that every record of a range shares puts them all in one bucket: its pass
// leaves the range as it is and recurses into the same range with the next digit. Such
// passes are skipped (the first differing bit of the range, from the AND and OR of its
// keys, gives the first digit that moves anything), which keeps minimap2's order
// exactly while sparing the passes over the constant high bits of anchor keys (strand,
// reference id, the high bits of positions that a read's anchors share).
//
// Generic over the record type and a key extractor returning uint64_t; the anchor and
// plain-value instantiations minimap2 uses are in src/map/radix_sort.hpp.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace agatha::util {

namespace radix_detail {

inline constexpr int kDigitBits = 8;
inline constexpr size_t kSmall = 64;  // insertion sort at or below this size

template <class T, class Key>
void insertion_sort(T* beg, T* end, Key key) {
  for (T* i = beg + 1; i < end; ++i) {
    if (!(key(*i) < key(*(i - 1)))) continue;
    T tmp = *i;
    T* j = i;
    for (; j > beg && key(tmp) < key(*(j - 1)); --j) *j = *(j - 1);
    *j = tmp;
  }
}

template <class T, class Key>
void msd_sort(T* beg, T* end, int shift, Key key) {
  {
    uint64_t all = ~uint64_t{0}, any = 0;
    for (const T* p = beg; p != end; ++p) all &= key(*p), any |= key(*p);
    // Bits above this digit are shared within the range (they were the digits of the
    // enclosing buckets, or skipped as shared), so the top differing bit is in this digit
    // or below it.
    const uint64_t differ = all ^ any;
    if (differ == 0) return;  // one key: every remaining pass leaves the order as it is
    shift = (63 - std::countl_zero(differ)) / kDigitBits * kDigitBits;
  }
  constexpr size_t kBuckets = size_t{1} << kDigitBits;
  constexpr uint64_t kMask = kBuckets - 1;
  // next[d]: the next unplaced slot of bucket d; stop[d]: one past its last slot.
  std::array<T*, kBuckets> next, stop;
  auto digit = [&](const T& r) { return static_cast<size_t>(key(r) >> shift & kMask); };

  std::array<size_t, kBuckets> count{};
  for (T* p = beg; p != end; ++p) ++count[digit(*p)];
  T* pos = beg;
  for (size_t d = 0; d < kBuckets; ++d) next[d] = pos, pos += count[d], stop[d] = pos;

  // Cycle-leader permutation, bucket by bucket in increasing digit order.
  for (size_t d = 0; d < kBuckets;) {
    if (next[d] == stop[d]) {
      ++d;
      continue;
    }
    size_t home = digit(*next[d]);
    if (home == d) {
      ++next[d];
      continue;
    }
    T carried = *next[d];
    do {  // drop the carried record into its bucket, pick up the one that was there
      T displaced = *next[home];
      *next[home]++ = carried;
      carried = displaced;
      home = digit(carried);
    } while (home != d);
    *next[d]++ = carried;
  }

  if (shift == 0) return;
  const int sub = shift > kDigitBits ? shift - kDigitBits : 0;
  T* b = beg;
  for (size_t d = 0; d < kBuckets; ++d) {
    const size_t n = static_cast<size_t>(stop[d] - b);
    if (n > kSmall)
      msd_sort(b, stop[d], sub, key);
    else if (n > 1)
      insertion_sort(b, stop[d], key);
    b = stop[d];
  }
}

}  // namespace radix_detail

// Sorts [beg, end) by key(record) (a uint64_t) exactly as minimap2's radix sort does.
template <class T, class Key>
void radix_sort(T* beg, T* end, Key key) {
  if (static_cast<size_t>(end - beg) <= radix_detail::kSmall) {
    radix_detail::insertion_sort(beg, end, key);
  } else {
    radix_detail::msd_sort(beg, end, 64 - radix_detail::kDigitBits, key);
  }
}

}  // namespace agatha::util
