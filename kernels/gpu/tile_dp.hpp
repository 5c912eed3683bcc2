// kernels/gpu/tile_dp.hpp — the guided DP as the GPU computes it: 8x8-cell tiles in
// any order that respects "left before right, top before bottom", with every rule of
// the anti-diagonal reference (dp_scalar.cpp) restated as a function of the cell's
// position. Written once, __host__ __device__: the CUDA kernel runs it on the device
// and the gpu-sim backend runs the same code on the host.
//
// Why a cell-local formulation is exact. The reference sweeps anti-diagonals r = t + j
// over a range [st, en] (the band [st0, en0] rounded outward to 16-cell blocks) and
// keeps one value per target position t. Reading the arrays at r therefore sees, for
// position p, the cell (p, r-1-p) if p lay in the range of r-1, and otherwise either
// the initial constants (p was never computed: en never decreases) or the border
// written at p = r. All of that depends on (r, t) only, so a cell can resolve its
// inputs from its two neighbours — (t-1, j) on the left, (t, j-1) above — plus
// geometry, whatever order the tiles run in. Cells outside the target, the query or
// below j = 0 ("dead" cells) never feed a live cell and are skipped.
//
// Three quantities of the reference are history-dependent and get closed forms here:
//   * the substitution score of a soft-band margin cell is the one computed at the
//     last anti-diagonal whose 16-cell score refresh covered t (score_at);
//   * the 32-bit H kept per position is rebuilt per band cell from the up or left
//     neighbour, with the reference's stale read at the band's upper edge (band_h);
//   * the best cell of an anti-diagonal, with the reference's four-lane tie rule, is
//     the maximum of one 64-bit key per cell (BestKey), so tiles, lanes and warps can
//     contribute in any order and the Z-drop test still runs anti-diagonal by
//     anti-diagonal (finalize_r).
#pragma once

#include "../hd.hpp"

#include <cstdint>

namespace agatha::gpu {

inline constexpr int kTile = 8;    // tile side in cells (8 bases = one packed 32-bit word)
inline constexpr int kBlock = 16;  // the reference's score-refresh and band-rounding block
inline constexpr int32_t kNegInf = -0x40000000;
inline constexpr int32_t kNone = -0x7fffffff - 1;  // "no candidate" in reductions

// Everything a tile needs about its task; plain data, copied to the device as is.
struct TaskParams {
  int32_t qlen, tlen, w, zdrop, end_bonus;
  int32_t qe_row0;  // q + e of the first piece as given, for H(0,0) (see kernels::Setup)
  uint32_t flag;
  int32_t long_thres;
  int8_t q, e, q2, e2, qe, qe2;  // gap pieces ordered so that q+e <= q2+e2
  int8_t long_diff, sc_match, sc_mismatch, sc_ambi;
  bool with_cigar, approx_max, approx_drop, extz_only, rev_cigar;
  bool active;  // false: the reference returns its reset result without a DP
  // A splice task (ksw_exts2's rules; see compute_cell). Its parameters are set so that
  // every rule shared with ksw_extd2 gives ksw_exts2's answer: w = max(qlen, tlen), so
  // every matrix cell is a band cell with a fresh score; e2 = 0, so the border after
  // long_thres and the Z-drop test's gap-length term are ksw_exts2's; q2 and qe2 = q2 the
  // long-gap open.
  bool splice;
};

struct Range {
  int32_t st0, en0, st, en;
  bool ok;  // false: empty band, the run stops here
};

AGATHA_HD int32_t imin(int32_t a, int32_t b) { return a < b ? a : b; }
AGATHA_HD int32_t imax(int32_t a, int32_t b) { return a > b ? a : b; }

AGATHA_HD Range range_of(const TaskParams& p, int32_t r) {
  Range g;
  g.st0 = imax(imax(0, r - p.qlen + 1), (r - p.w + 1) >> 1);
  g.en0 = imin(imin(p.tlen - 1, r), (r + p.w) >> 1);
  g.ok = g.st0 <= g.en0;
  g.st = g.st0 / kBlock * kBlock;
  g.en = (g.en0 + kBlock) / kBlock * kBlock - 1;
  return g;
}

AGATHA_HD int8_t boundary_diff(const TaskParams& p, int32_t r) {
  if (r == 0) return static_cast<int8_t>(-p.qe);
  if (r < p.long_thres) return static_cast<int8_t>(-p.e);
  if (r == p.long_thres) return p.long_diff;
  return static_cast<int8_t>(-p.e2);
}

AGATHA_HD int8_t pair_score(const TaskParams& p, uint8_t tb, uint8_t qb) {
  if (tb == 4 || qb == 4) return p.sc_ambi;
  return tb == qb ? p.sc_match : p.sc_mismatch;
}

// Sequences are packed 4 bits a base, 8 bases to a 32-bit word (base i in bits
// 4*(i%8)..4*(i%8)+3 of word i/8): one word is one tile side.
AGATHA_HD uint8_t base_at(const uint32_t* packed, int32_t i) {
  return static_cast<uint8_t>(packed[i >> 3] >> ((i & 7) * 4) & 0xf);
}

// The score the reference uses at live cell (t, j), r = t + j, with target base tb and
// query base qb: fresh inside [st0, en0]; in the left margin, that of the last
// anti-diagonal with st0 <= t (it ends at min(t+qlen-1, 2t+w), and its refresh started
// at t); in the right margin, that of the latest anti-diagonal whose refresh
// [st0, st0 + 16*(floor((en0-st0)/16)+1)) covered t, found within the few anti-diagonals
// where t - en0 < 16; 0 if none ever did. An earlier anti-diagonal rr paired t with query
// base rr - t, or with the zero padding past the query start when rr < t.
AGATHA_HD int8_t score_at(const TaskParams& p, uint8_t tb, uint8_t qb, const uint32_t* qpack, int32_t t, int32_t j,
                          const Range& g) {
  if (t >= g.st0 && t <= g.en0) return pair_score(p, tb, qb);
  if (t < g.st0) {
    const int32_t last = imin(t + p.qlen - 1, 2 * t + p.w);
    return pair_score(p, tb, base_at(qpack, last - t));
  }
  for (int32_t rr = t + j; rr >= 0; --rr) {
    const Range h = range_of(p, rr);
    if (t - h.en0 >= kBlock) break;
    const int32_t refresh_end = h.st0 + kBlock * ((h.en0 - h.st0) / kBlock + 1);
    if (t < refresh_end) {
      const int32_t k = rr - t;
      return pair_score(p, tb, k == j ? qb : k >= 0 ? base_at(qpack, k) : 0);
    }
  }
  return 0;
}

// ---------------------------------------------------------------------------------------
// Cell state
// ---------------------------------------------------------------------------------------
// Latest computed cell of a column (what the cell below reads) and of a row (what the
// cell to the right reads); h is the reference's 32-bit H, meaningful on band cells.
struct ColState {
  int8_t u, y, y2;
  int32_t h;
};
struct RowState {
  int8_t x, v, x2;
  int32_t h;
};

// ---------------------------------------------------------------------------------------
// The best cell of an anti-diagonal as one 64-bit key
// ---------------------------------------------------------------------------------------
// The reference picks the best cell of anti-diagonal r in this order: the cell at en0
// (its starting candidate), then the cells of [st0, en1) in four lanes by (t - st0) mod
// 4, each lane keeping its first strictly larger H, merged lane 0 to 3 with strict '>',
// then the tail [en1, en0) replacing only when strictly larger. That is a total order on
// the cells — larger H first; on equal H the en0 cell, then the [st0, en1) cells by
// lane then t, then the tail by t — so the best cell is the maximum of one key per cell:
//   high word  H, biased (H ^ 0x80000000) so that unsigned order is signed order;
//   low word   priority << 29 | (2^29 - 1 - t), priority 5 for en0, 4 - lane for
//              [st0, en1), 0 for the tail.
// Keys merge with max in any order and any grouping (tiles, lanes, warps). Zero is "no
// cell". Target positions must stay below 2^29 (the launchers refuse longer targets).
using BestKey = uint64_t;
inline constexpr int32_t kKeyTBits = 29;
inline constexpr int32_t kKeyTMask = (int32_t{1} << kKeyTBits) - 1;
inline constexpr int32_t kMaxKeyTarget = kKeyTMask;  // targets shorter than this

AGATHA_HD BestKey best_key(int32_t h, uint32_t priority, int32_t t) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(h) ^ 0x80000000u) << 32) |
         (static_cast<uint64_t>(priority) << kKeyTBits) | static_cast<uint32_t>(kKeyTMask - t);
}
AGATHA_HD int32_t key_h(BestKey k) { return static_cast<int32_t>(static_cast<uint32_t>(k >> 32) ^ 0x80000000u); }
AGATHA_HD int32_t key_t(BestKey k) { return kKeyTMask - static_cast<int32_t>(static_cast<uint32_t>(k) & kKeyTMask); }
AGATHA_HD void key_max(BestKey& a, BestKey b) { a = b > a ? b : a; }

// Priority of band cell t of anti-diagonal g (st0 <= t <= en0).
AGATHA_HD uint32_t key_priority(const Range& g, int32_t t) {
  if (t == g.en0) return 5;
  const int32_t en1 = g.st0 + (g.en0 - g.st0) / 4 * 4;
  if (t < en1) return 4 - static_cast<uint32_t>((t - g.st0) & 3);
  return 0;
}

// ---------------------------------------------------------------------------------------
// One cell
// ---------------------------------------------------------------------------------------
struct CellOut {
  uint8_t dir;
  int8_t u, v;
  bool band;  // st0 <= t <= en0: h is the reference's H of the cell
  int32_t h;
};

// Computes live cell (t, j) of anti-diagonal r = t + j (which must lie in [st, en] of
// r) from the latest states of its column and row, replacing them with its own.
// Returns the direction byte, u, v (for APPROX_MAX's greedy path) and, with kH, the
// 32-bit H of a band cell. g and prev are the ranges of r and r-1 (prev is empty for
// r = 0); tb, qb the cell's bases.
//
// kSplice: ksw_exts2's cell (the task has TaskParams::splice). The row state's x2 is
// then the long-gap (intron) state E2(t+1, j) - H(t, j), which costs q2 to open and
// nothing to extend; `donor` and `acceptor` are the splice-site scores of the cell's
// target position (kernels/splice_sites.hpp). H takes E2 plus the acceptor score as a
// third gap source, E2 leaves the cell as max(E2 - (H - q2), donor) - q2, there is no
// second insertion state (y2 is not used) and H is not capped at the match score.
template <bool kH = true, bool kSplice = false>
AGATHA_HD CellOut compute_cell(const TaskParams& p, uint8_t tb, uint8_t qb, const uint32_t* qpack, int32_t t, int32_t j,
                               const Range& g, const Range& prev, ColState& col, RowState& row, int8_t donor = 0,
                               int8_t acceptor = 0) {
  const int32_t r = t + j;
  const bool right = (p.flag & 0x02) != 0;
  // Up input (position t on r-1): the border at t = r, the cell above if r-1 computed
  // t, else the initial constants.
  int8_t u_up, y_up, y2_up;
  if (t == r)
    u_up = boundary_diff(p, r), y_up = static_cast<int8_t>(-p.qe), y2_up = static_cast<int8_t>(-p.qe2);
  else if (t <= prev.en)
    u_up = col.u, y_up = col.y, y2_up = col.y2;
  else
    u_up = y_up = static_cast<int8_t>(-p.qe), y2_up = static_cast<int8_t>(-p.qe2);
  // Left input (position t-1 on r-1): at the range start the reference's carry rule.
  int8_t x_l = static_cast<int8_t>(-p.qe), v_l = static_cast<int8_t>(-p.qe), x2_l = static_cast<int8_t>(-p.qe2);
  if (t == g.st) {
    if (t == 0)
      v_l = boundary_diff(p, r);
    else if (t - 1 >= prev.st && t - 1 <= prev.en)
      x_l = row.x, v_l = row.v, x2_l = row.x2;
  } else if (t - 1 <= prev.en) {
    x_l = row.x, v_l = row.v, x2_l = row.x2;
  }
  // The recurrence in difference form (see dp_scalar.cpp), 8-bit wrapping.
  int8_t a = static_cast<int8_t>(x_l + v_l), b = static_cast<int8_t>(y_up + u_up);
  int8_t a2 = static_cast<int8_t>(x2_l + v_l), b2 = static_cast<int8_t>(y2_up + u_up);
  int8_t z = score_at(p, tb, qb, qpack, t, j, g);
  uint8_t src = 0;
  constexpr int kCand = kSplice ? 3 : 4;
  const int8_t cand[4] = {a, b, kSplice ? static_cast<int8_t>(a2 + acceptor) : a2, b2};
  for (int k = 0; k < kCand; ++k) {
    if (right ? cand[k] >= z : cand[k] > z) src = static_cast<uint8_t>(k + 1);
    if (cand[k] > z) z = cand[k];
  }
  if (!kSplice && z > p.sc_match) z = p.sc_match;
  const int8_t u = static_cast<int8_t>(z - v_l), v = static_cast<int8_t>(z - u_up);
  a = static_cast<int8_t>(a - static_cast<int8_t>(z - p.q));
  b = static_cast<int8_t>(b - static_cast<int8_t>(z - p.q));
  a2 = static_cast<int8_t>(a2 - static_cast<int8_t>(z - p.q2));
  b2 = static_cast<int8_t>(b2 - static_cast<int8_t>(z - p.q2));
  // The long-gap state carries on when it beats the open (ksw_exts2: the donor-adjusted
  // open); ksw_extd2's when it is positive.
  const int8_t floor2 = kSplice ? donor : int8_t{0};
  uint8_t dir = src;
  if (right ? a >= 0 : a > 0) dir |= 0x08;
  if (right ? b >= 0 : b > 0) dir |= 0x10;
  if (right ? a2 >= floor2 : a2 > floor2) dir |= 0x20;
  if (!kSplice && (right ? b2 >= 0 : b2 > 0)) dir |= 0x40;
  // 32-bit H of band cells, as the reference's per-position array holds it.
  int32_t h = kNegInf;
  const bool band = t >= g.st0 && t <= g.en0;
  if (kH && band && !p.approx_max) {
    if (r == 0)
      h = v - p.qe_row0;
    else if (t < g.en0 || t == 0)
      h = col.h + v;
    else if (j - t == p.w)    // (t-1, j) lies outside the band: the array still holds
      h = col.h - col.u + u;  // H(t-1, j-1) = H(t, j-1) - u(t, j-1)
    else
      h = row.h + u;
  }
  // New gap states leaving the cell: max(gap - (H - q), 0) - (q + e), as differences.
  col.u = u, col.h = h;
  col.y = static_cast<int8_t>((b > 0 ? b : 0) - p.qe);
  col.y2 = static_cast<int8_t>((b2 > 0 ? b2 : 0) - p.qe2);
  row.v = v, row.h = h;
  row.x = static_cast<int8_t>((a > 0 ? a : 0) - p.qe);
  row.x2 = static_cast<int8_t>((a2 > floor2 ? a2 : floor2) - p.qe2);
  return CellOut{dir, u, v, band, h};
}

}  // namespace agatha::gpu
