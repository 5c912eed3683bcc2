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

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "parallel_for.hpp"

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

// One pass of the sort over [beg, end) at digit `shift` (lowered first to the highest
// digit in which the keys differ): the records permuted into their buckets. Returns the
// shift of the pass, -1 when every key is the same (nothing to do); stop[d] is then one
// past bucket d.
template <class T, class Key>
int msd_pass(T* beg, T* end, int shift, Key key, std::array<T*, size_t{1} << kDigitBits>& stop) {
  {
    uint64_t all = ~uint64_t{0}, any = 0;
    for (const T* p = beg; p != end; ++p) all &= key(*p), any |= key(*p);
    // Bits above this digit are shared within the range (they were the digits of the
    // enclosing buckets, or skipped as shared), so the top differing bit is in this digit
    // or below it.
    const uint64_t differ = all ^ any;
    if (differ == 0) return -1;  // one key: every remaining pass leaves the order as it is
    shift = (63 - std::countl_zero(differ)) / kDigitBits * kDigitBits;
  }
  constexpr size_t kBuckets = size_t{1} << kDigitBits;
  constexpr uint64_t kMask = kBuckets - 1;
  // next[d]: the next unplaced slot of bucket d; stop[d]: one past its last slot.
  std::array<T*, kBuckets> next;
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
  return shift;
}

template <class T, class Key>
void msd_sort(T* beg, T* end, int shift, Key key);

// After a pass at `shift`: bucket d, [b, stop[d]), sorted on the lower digits.
template <class T, class Key>
void sort_bucket(T* b, T* e, int shift, Key key) {
  const size_t n = static_cast<size_t>(e - b);
  if (n > kSmall)
    msd_sort(b, e, shift > kDigitBits ? shift - kDigitBits : 0, key);
  else if (n > 1)
    insertion_sort(b, e, key);
}

template <class T, class Key>
void msd_sort(T* beg, T* end, int shift, Key key) {
  std::array<T*, size_t{1} << kDigitBits> stop;
  shift = msd_pass(beg, end, shift, key, stop);
  if (shift <= 0) return;  // one key, or the lowest digit done
  T* b = beg;
  for (T* e : stop) sort_bucket(b, e, shift, key), b = e;
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

namespace radix_detail {

// msd_sort of more than kSmall records on up to `threads` (> 1) threads: a pass on this
// one, then its buckets side by side; a bucket holding more than a thread's share of the
// range (the forward strand's anchors when the first digit is the strand, one reference
// sequence's) is sorted the same way first, on all of them, so that one bucket does not
// leave the others idle.
template <class T, class Key>
void msd_sort_parallel(T* beg, T* end, int shift, Key key, int threads) {
  const size_t n = static_cast<size_t>(end - beg);
  std::array<T*, size_t{1} << kDigitBits> stop;
  shift = msd_pass(beg, end, shift, key, stop);
  if (shift <= 0) return;
  const size_t share = n / static_cast<size_t>(threads);
  const int next = shift > kDigitBits ? shift - kDigitBits : 0;
  std::array<size_t, size_t{1} << kDigitBits> rest;
  size_t n_rest = 0;
  for (size_t d = 0; d < stop.size(); ++d) {
    T* const b = d == 0 ? beg : stop[d - 1];
    if (static_cast<size_t>(stop[d] - b) > std::max(share, kSmall))
      msd_sort_parallel(b, stop[d], next, key, threads);
    else
      rest[n_rest++] = d;
  }
  parallel_for(n_rest, threads, [&](size_t k, int) {
    const size_t d = rest[k];
    sort_bucket(d == 0 ? beg : stop[d - 1], stop[d], shift, key);
  });
}

}  // namespace radix_detail

// radix_sort on up to `threads` threads. Each bucket of each pass is sorted by the same
// passes as in radix_sort, so the order (of equal keys too) is radix_sort's.
template <class T, class Key>
void radix_sort_parallel(T* beg, T* end, Key key, int threads) {
  if (threads <= 1 || static_cast<size_t>(end - beg) <= radix_detail::kSmall) return radix_sort(beg, end, key);
  radix_detail::msd_sort_parallel(beg, end, 64 - radix_detail::kDigitBits, key, threads);
}

}  // namespace agatha::util
