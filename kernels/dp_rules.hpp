// kernels/dp_rules.hpp — the rules applied once per anti-diagonal after its cells are
// computed, written once for every backend (host and device): the Z-drop test on the
// anti-diagonal's best cell, and the greedy path that APPROX_MAX follows instead.
#pragma once

#include "hd.hpp"

#include <cstdint>

namespace agatha::kernels {

// S has max, max_t, max_q. A better cell becomes the maximum; otherwise, for a cell
// below-right of the maximum, stop (return true) when
//   max - h > zdrop + e2 * |(t - max_t) - (j - max_q)|.
// The right side is computed in 64 bits: zdrop may be any int (INT_MAX means "never"),
// and the comparison is then exact where 32-bit arithmetic would wrap.
template <class S>
AGATHA_HD bool zdrop_rule(S& s, int32_t h, int32_t r, int32_t t, int32_t zdrop, int32_t e2) {
  // Evaluated without branches on h: whether the anti-diagonal's best cell beats the
  // maximum is data that arrives with the last of its cells, and a mispredicted branch
  // on it would discard the work already started on the next anti-diagonal.
  const int32_t tl = t - s.max_t, ql = (r - t) - s.max_q;
  const int32_t l = tl > ql ? tl - ql : ql - tl;
  const bool below = (t >= s.max_t) & (r - t >= s.max_q);
  const bool drop = below & (zdrop >= 0) & (int64_t{s.max} - h > int64_t{zdrop} + int64_t{l} * e2);
  const bool better = h > s.max;
  s.max_t = better ? t : s.max_t;
  s.max_q = better ? r - t : s.max_q;
  s.max = better ? h : s.max;
  return !better & drop;
}

// The query index of a target-end cell that raises mte on anti-diagonal r is r minus
// this: en0, the cell's own target index (minimap2 2.31, with dp_flag::kMteQCell, whose
// value is repeated here for the device code), or en, the anti-diagonal's end rounded up
// to 16-cell blocks (2.24's ksw_extd2/ksw_extz2/ksw_exts2).
inline constexpr uint32_t kMteQCellFlag = 0x40000;
AGATHA_HD int32_t mte_q_end(uint32_t flag, int32_t en0, int32_t en) { return (flag & kMteQCellFlag) ? en0 : en; }

// ksw_extd2's end choice for an extension (EXTZ_ONLY) that was not Z-dropped: the
// traceback starts at the query end when mqe + end_bonus > max. In 64 bits, so an
// end_bonus near INT_MAX or INT_MIN (or mqe still at its -inf start) cannot wrap.
AGATHA_HD bool end_bonus_wins(int32_t mqe, int32_t end_bonus, int32_t max) { return int64_t{mqe} + end_bonus > max; }

// One step of APPROX_MAX's greedy path on an anti-diagonal with band [st0, en0]: from
// the previous path cell last_t, move to t (adding v) or t+1 (adding u), whichever
// raises H more, preferring t+1 on ties. u_at(t), v_at(t) give this anti-diagonal's
// differences at target position t.
template <class UFn, class VFn>
AGATHA_HD void approx_rule(int32_t st0, int32_t en0, UFn u_at, VFn v_at, int32_t& h0, int32_t& last_t) {
  const bool here = last_t >= st0 && last_t <= en0;
  const bool next = last_t + 1 >= st0 && last_t + 1 <= en0;
  if (here && next) {
    // Without a branch: which way the path goes is as good as random, and a mispredicted
    // branch here, which waits on the whole anti-diagonal's cells, would throw away the
    // work already started on the next one.
    const int32_t d0 = v_at(last_t), d1 = u_at(last_t + 1);
    const int32_t step = d0 > d1 ? 0 : 1;
    h0 += step ? d1 : d0;
    last_t += step;
  } else if (here) {
    h0 += v_at(last_t);
  } else {
    ++last_t;
    h0 += u_at(last_t);
  }
}

}  // namespace agatha::kernels
