// kernels/gpu/tile_task.hpp — one DP task run tile by tile: which tiles exist, where
// their direction bytes live, how a tile is computed, and how completed anti-diagonals
// are finalized in order (the rolling window). __host__ __device__, shared by the CUDA
// kernel and the gpu-sim backend.
//
// Memory is sized per task: tiles are stored row of tiles by row of tiles, each row
// holding only the tiles the (rounded) band can reach, 64 direction bytes per tile.
#pragma once

#include "../dp_rules.hpp"
#include "tile_dp.hpp"

namespace agatha::gpu {

// Anti-diagonals whose best-cell statistics are pending at once: a slice of S tile
// anti-diagonals touches cell anti-diagonals spanning 8S + 7.
AGATHA_HD constexpr int32_t ring_size(int32_t slice) { return kTile * (slice + 1); }

struct TileLayout {
  int32_t n_t, n_j;  // tiles along the target and the query
  int32_t dlo, dhi;  // tile (T, J) may hold computed cells iff dlo <= T - J <= dhi
};

// Cells computed by the reference satisfy |t - j| <= w + 30 (band rounded to 16-cell
// blocks on both sides); a tile spans t - j within +-7 of 8(T - J).
AGATHA_HD TileLayout make_layout(const TaskParams& p) {
  TileLayout l;
  l.n_t = (p.tlen + kTile - 1) / kTile;
  l.n_j = (p.qlen + kTile - 1) / kTile;
  const int32_t reach = p.w + 30 + kTile - 1;
  l.dlo = -(reach / kTile);
  l.dhi = reach / kTile;
  return l;
}

AGATHA_HD int32_t row_t_lo(const TileLayout& l, int32_t J) { return imax(0, J + l.dlo); }
AGATHA_HD int32_t row_t_hi(const TileLayout& l, int32_t J) { return imin(l.n_t - 1, J + l.dhi); }
AGATHA_HD int32_t diag_t_lo(const TileLayout& l, int32_t D) {
  // T + J = D with 0 <= J < n_j and dlo <= T - J <= dhi
  return imax(imax(0, D - (l.n_j - 1)), (D + l.dlo + 1) >> 1);
}
AGATHA_HD int32_t diag_t_hi(const TileLayout& l, int32_t D) { return imin(imin(l.n_t - 1, D), (D + l.dhi) >> 1); }

// Where a task's state lives (device memory in the kernel, host memory in gpu-sim).
struct TaskMem {
  ColState* col;           // per target position
  RowState* row;           // per query position
  uint8_t* dir;            // 64 bytes per stored tile (with a CIGAR)
  int8_t* uv;              // u, v per cell, 128 bytes per stored tile (APPROX_MAX only)
  const int64_t* row_off;  // first stored tile of each tile row; n_j + 1 entries
  RStat* window;           // n_lanes x ring_size(slice)
};

AGATHA_HD int64_t cell_index(const TileLayout& l, const TaskMem& m, int32_t t, int32_t j) {
  const int32_t T = t / kTile, J = j / kTile;
  return (m.row_off[J] + (T - row_t_lo(l, J))) * (kTile * kTile) + (j % kTile) * kTile + t % kTile;
}

// Computes the live cells of tile (T, J); statistics go to this lane's window. The
// tile's two packed words and the states of its 8 columns and 8 rows are loaded once
// and kept in registers (no other tile of the same tile anti-diagonal shares a column or
// a row), then written back.
AGATHA_HD void compute_tile(const TaskParams& p, const TileLayout& l, const uint32_t* tpack, const uint32_t* qpack,
                            TaskMem& m, int32_t T, int32_t J, RStat* lane_window, int32_t ring) {
  const int32_t t0 = T * kTile, j0 = J * kTile;
  const int32_t nt = imin(kTile, p.tlen - t0), nj = imin(kTile, p.qlen - j0);
  const uint32_t tw = tpack[T], qw = qpack[J];
  // The tile spans anti-diagonals t0+j0 .. t0+j0+14; ranges[k] is that of t0+j0-1+k.
  Range ranges[2 * kTile];
  for (int32_t k = 0; k < 2 * kTile; ++k) {
    const int32_t r = t0 + j0 - 1 + k;
    ranges[k] = r >= 0 ? range_of(p, r) : Range{0, -1, 0, -1, false};
  }
  ColState col[kTile];
  RowState row[kTile];
  for (int32_t a = 0; a < nt; ++a) col[a] = m.col[t0 + a];
  for (int32_t b = 0; b < nj; ++b) row[b] = m.row[j0 + b];
  const int64_t base = (m.row_off[J] + (T - row_t_lo(l, J))) * (kTile * kTile);
  for (int32_t b = 0; b < nj; ++b) {
    const uint8_t qb = static_cast<uint8_t>(qw >> (4 * b) & 0xf);
    for (int32_t a = 0; a < nt; ++a) {
      const int32_t t = t0 + a, j = j0 + b;
      const Range& g = ranges[a + b + 1];
      if (!g.ok || t < g.st || t > g.en) continue;
      const uint8_t tb = static_cast<uint8_t>(tw >> (4 * a) & 0xf);
      RStat& stat = lane_window[(t + j) % ring];
      const CellOut c = compute_cell(p, tb, qb, qpack, t, j, g, ranges[a + b], col[a], row[b], stat);
      const int64_t at = base + b * kTile + a;
      if (p.with_cigar) m.dir[at] = c.dir;
      if (p.approx_max) m.uv[2 * at] = c.u, m.uv[2 * at + 1] = c.v;
    }
  }
  for (int32_t a = 0; a < nt; ++a) m.col[t0 + a] = col[a];
  for (int32_t b = 0; b < nj; ++b) m.row[j0 + b] = row[b];
}

// What a task has produced so far; the final answer once `done`.
struct Progress {
  int32_t next_r;  // first anti-diagonal not yet finalized
  int32_t score, max, max_q, max_t, mqe, mqe_t, mte, mte_q;
  int32_t h0, last_h0_t;  // APPROX_MAX greedy path
  uint64_t cells;
  bool zdropped, done;
};

AGATHA_HD void progress_init(Progress& s) {
  s.next_r = 0;
  s.score = kNegInf, s.max = 0, s.max_q = -1, s.max_t = -1;
  s.mqe = kNegInf, s.mqe_t = -1, s.mte = kNegInf, s.mte_q = -1;
  s.h0 = 0, s.last_h0_t = 0;
  s.cells = 0;
  s.zdropped = false, s.done = false;
}

AGATHA_HD int32_t uv_at(const TileLayout& l, const TaskMem& m, int32_t t, int32_t j, int k) {
  return m.uv[2 * cell_index(l, m, t, j) + k];
}

// Finalizes anti-diagonal r (all its cells computed): best cell, mqe/mte, Z-drop, or
// the greedy path of APPROX_MAX. `stat` is the merged statistics of r.
AGATHA_HD void finalize_r(const TaskParams& p, const TileLayout& l, const TaskMem& m, int32_t r, const RStat& stat,
                          Progress& s) {
  const Range g = range_of(p, r);
  if (!g.ok) {  // empty band: the reference stops before this anti-diagonal
    s.zdropped = true, s.done = true;
    return;
  }
  s.cells += static_cast<uint64_t>(g.en0 - g.st0 + 1);
  const bool last = r == p.qlen + p.tlen - 2;
  if (!p.approx_max) {
    int32_t max_h = stat.anchor_h, max_t = g.en0;
    if (stat.vec_h != kNone && stat.vec_h > max_h) max_h = stat.vec_h, max_t = stat.vec_t;
    if (stat.tail_h != kNone && stat.tail_h > max_h) max_h = stat.tail_h, max_t = stat.tail_t;
    if (g.en0 == p.tlen - 1 && stat.anchor_h > s.mte) s.mte = stat.anchor_h, s.mte_q = r - g.en;
    if (r - g.st0 == p.qlen - 1 && stat.h_st0 > s.mqe) s.mqe = stat.h_st0, s.mqe_t = g.st0;
    if (kernels::zdrop_rule(s, max_h, r, max_t, p.zdrop, p.e2)) {
      s.zdropped = true, s.done = true;
      return;
    }
    if (last && g.en0 == p.tlen - 1) s.score = stat.anchor_h;
  } else {
    if (r == 0) {
      s.h0 = uv_at(l, m, 0, 0, 1) - p.qe_row0, s.last_h0_t = 0;
    } else {
      auto u_at = [&](int32_t t) { return uv_at(l, m, t, r - t, 0); };
      auto v_at = [&](int32_t t) { return uv_at(l, m, t, r - t, 1); };
      kernels::approx_rule(g.st0, g.en0, u_at, v_at, s.h0, s.last_h0_t);
    }
    if (p.approx_drop && kernels::zdrop_rule(s, s.h0, r, s.last_h0_t, p.zdrop, p.e2)) {
      s.zdropped = true, s.done = true;
      return;
    }
    if (last && g.en0 == p.tlen - 1) s.score = s.h0;
  }
  if (last) s.done = true;
}

// Direction byte of cell (t, j) during the traceback.
AGATHA_HD uint8_t dir_at(const TileLayout& l, const TaskMem& m, int32_t t, int32_t j) {
  return m.dir[cell_index(l, m, t, j)];
}

}  // namespace agatha::gpu
