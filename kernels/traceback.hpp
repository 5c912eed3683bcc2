// kernels/traceback.hpp — the reference's traceback, shared by every backend (host and
// device). The caller supplies the direction byte of a cell and the rounded range
// [st, en] of an anti-diagonal; the walk emits CIGAR operations end to start.
//
// Direction byte: bits 0-2 the source of H (0 diagonal, 1 E, 2 F, 3 E2, 4 F2); bits 3-6
// "the state continues" for E, F, E2, F2. Outside an anti-diagonal's rounded range the
// path is forced: an insertion left of it, a deletion right of it.
#pragma once

#include <agatha/cigar.hpp>

#include "hd.hpp"

#include <cstdint>

namespace agatha::kernels {

namespace dir_bit {
inline constexpr uint8_t kSrcMask = 7;
inline constexpr uint8_t kContE = 0x08, kContF = 0x10, kContE2 = 0x20, kContF2 = 0x40;
}  // namespace dir_bit

// Appends len x op to a CIGAR held as (length << 4 | op), merging equal neighbours.
AGATHA_HD void cigar_push(uint32_t* cigar, int32_t& n, uint32_t op, uint32_t len) {
  if (n == 0 || cigar::op(cigar[n - 1]) != op)
    cigar[n++] = cigar::make(len, op);
  else
    cigar[n - 1] += cigar::make(len, 0);
}

// Walks back from (i0, j0) = (target, query). dir(i, j) returns the direction byte,
// range(r, st, en) the rounded range of anti-diagonal r. cigar needs room for
// i0 + j0 + 2 operations; returns the count, ordered start to end unless rev_cigar.
// min_intron_len > 0 is ksw_backtrack's splice mode (ksw_exts2 passes its long-gap
// threshold): the long-deletion state (3) is an intron, N; a deletion left over at the
// start is N too when it spans at least min_intron_len + 1 bases.
template <class DirFn, class RangeFn>
AGATHA_HD int32_t walk_back(int32_t i0, int32_t j0, bool rev_cigar, DirFn dir, RangeFn range, uint32_t* cigar,
                            int32_t min_intron_len = 0) {
  int32_t n = 0, i = i0, j = j0, state = 0;
  while (i >= 0 && j >= 0) {
    int32_t st, en;
    range(i + j, st, en);
    int32_t force = -1;
    if (i < st) force = 2;
    if (i > en) force = 1;
    const uint32_t d = force < 0 ? dir(i, j) : 0;
    if (state == 0)
      state = d & 7;
    else if (!(d >> (state + 2) & 1))
      state = 0;
    if (state == 0) state = d & 7;
    if (force >= 0) state = force;
    if (state == 0)
      cigar_push(cigar, n, cigar::kMatch, 1), --i, --j;
    else if (state == 1 || (state == 3 && min_intron_len <= 0))
      cigar_push(cigar, n, cigar::kDel, 1), --i;
    else if (state == 3)
      cigar_push(cigar, n, cigar::kNSkip, 1), --i;
    else
      cigar_push(cigar, n, cigar::kIns, 1), --j;
  }
  if (i >= 0)
    cigar_push(cigar, n, min_intron_len > 0 && i >= min_intron_len ? cigar::kNSkip : cigar::kDel,
               static_cast<uint32_t>(i + 1));
  if (j >= 0) cigar_push(cigar, n, cigar::kIns, static_cast<uint32_t>(j + 1));
  if (!rev_cigar) {
    for (int32_t a = 0, b = n - 1; a < b; ++a, --b) {
      const uint32_t tmp = cigar[a];
      cigar[a] = cigar[b], cigar[b] = tmp;
    }
  }
  return n;
}

}  // namespace agatha::kernels
