// kernels/gpu/tile_task.hpp — one DP task run tile by tile: which tiles exist, what a
// tile leaves behind for its neighbours, the general (any tile) computation of a tile,
// how completed anti-diagonals are finalized in order, and the traceback's direction
// bytes, recomputed tile by tile. __host__ __device__, shared by the CUDA kernel and the
// gpu-sim backend.
//
// Memory is sized per task: tiles are stored row of tiles by row of tiles, each row
// holding only the tiles the (rounded) band can reach. What a tile leaves is its
// boundary record: the states (u, y, y2) of its bottom row, which the tile below reads,
// and (x, v, x2) of its right column, which the tile to the right reads — 48 bytes
// where the direction bytes took 64. They are written once and never change, so the
// traceback recomputes the direction bytes of a tile from the records of the tiles
// above and to the left of it, exactly as the DP computed them. Beside the records:
// the 32-bit H of the latest cell of each target column and query row, the anchor and
// st0 H of anti-diagonals at the matrix edges (for mte, mqe and the score), and for
// APPROX_MAX the u, v of the tiles the greedy path can reach.
#pragma once

#include "../dp_rules.hpp"
#include "tile_dp.hpp"

namespace agatha::gpu {

#if defined(__CUDA_ARCH__)
#define AGATHA_UNROLL _Pragma("unroll")
#define AGATHA_NO_UNROLL _Pragma("unroll 1")
#elif defined(__CUDACC__)  // nvcc's host pass: no device code is generated there
#define AGATHA_UNROLL
#define AGATHA_NO_UNROLL
#else
#define AGATHA_UNROLL _Pragma("GCC unroll 16")
#define AGATHA_NO_UNROLL
#endif

// Cell anti-diagonals a tile spans: r0 .. r0 + 14 with r0 = 8 (T + J).
inline constexpr int32_t kTileDiagonals = 2 * kTile - 1;

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
AGATHA_HD bool tile_stored(const TileLayout& l, int32_t T, int32_t J) {
  return J >= 0 && J < l.n_j && T >= row_t_lo(l, J) && T <= row_t_hi(l, J);
}

// A tile's boundary record (see the top of this file); 16-byte aligned.
struct alignas(16) TileRecord {
  int8_t bu[kTile], by[kTile], by2[kTile];  // bottom row (j = j0 + 7), by column
  int8_t rx[kTile], rv[kTile], rx2[kTile];  // right column (t = t0 + 7), by row
};
static_assert(sizeof(TileRecord) == 48, "three 16-byte words");

// Where a task's state lives (device memory in the kernel, host memory in gpu-sim).
struct TaskMem {
  TileRecord* rec;         // one per stored tile
  int32_t* col_h;          // per target position: H of its latest band cell
  int32_t* row_h;          // per query position: H of its latest band cell
  int32_t* spec;           // per anti-diagonal r: [2r] H at en0 when en0 = tlen-1, [2r+1] H at st0 when j = qlen-1
  int8_t* uv;              // APPROX_MAX: u (64 bytes) then v (64 bytes) of a stored tile, row-major
  const int64_t* row_off;  // first stored tile of each tile row; n_j + 1 entries
  // Splice tasks: the donor and acceptor score of each target position (tlen entries;
  // kernels::splice_site_rows), read-only. Null for ksw_extd2 tasks.
  const int8_t* donor;
  const int8_t* acceptor;
};

AGATHA_HD int64_t tile_index(const TileLayout& l, const TaskMem& m, int32_t T, int32_t J) {
  return m.row_off[J] + (T - row_t_lo(l, J));
}

// The tiles of a tile anti-diagonal whose APPROX_MAX u and v are kept: the greedy path
// stands at last_t when the tiles run, and before the tiles after them are finalized it
// reads cells t in [last_t, last_t + 8 * slice + 7] (see uv_window in tile_schedule.hpp).
struct UvWindow {
  int32_t lo = 0, hi = -1;  // tile columns T
};

// Which path a tile takes on the device: the fast path (fast_pair in dp_cuda.cu, the
// 64 cells unrolled with no per-cell rule) or the general one (general_tile below), and
// why not. A tile is inside when none of its cells meets a rule of the general path: it
// is away from the matrix edges (no border input, no cell in the last row or column),
// and every cell lies strictly inside (st0, en1) of its anti-diagonal (the score is
// fresh, the neighbours were computed, H grows down the column, the cell is an ordinary
// four-lane candidate for the best cell). st0 and en0 move by at most one per
// anti-diagonal, so the tile's worst corners decide it. (An APPROX_MAX tile whose u, v
// the greedy path may read takes the fast path's variant that stores them.)
//
// kFastEdge: an APPROX_MAX tile at a task or band edge that the fast path computes all the
// same (approx_fast_tile): in APPROX_MAX mode no H, best cell or end value is kept, so a
// live cell (t, j) of anti-diagonal r needs only a fresh score — st0(r) <= t <= en0(r) —
// and its neighbours' values: (t-1, j) and (t, j-1) band cells of r-1, or the border at
// t = 0 (where st0(r) = 0) and j = 0, which a tile of the first row or column reads as a
// record (dp_cuda.cu's load_up / load_left). Those rules then resolve every input of the
// reference to the neighbour's (see compute_cell). A partial tile of the last row or
// column computes cells past the ends that no live cell reads.
enum class TilePath : uint8_t { kFast, kFastEdge, kTaskEdge, kBandEdge };

// The tile's worst cells decide it (st0 and en0 of r are max/min of terms monotone in t
// and j): with tmax, jmax its last live column and row,
//   (t-1, j) within st0 of r-1 for t >= 1: j - t <= w - 1, worst at (t0, jmax)
//     (on column 0, t = 0 needs st0(j) = 0: jmax <= w, and t = 1 the same);
//   (t, j-1) within en0 of r-1 for j >= 1: t - j + 1 <= w, worst at (tmax, max(j0, 1));
// which imply st0(r) <= t <= en0(r) for every cell; the terms of st0 and en0 in qlen and
// tlen hold for any live cell.
AGATHA_HD bool approx_fast_tile(const TaskParams& p, int32_t T, int32_t J) {
  const int32_t t0 = T * kTile, j0 = J * kTile;
  const int32_t tmax = imin(t0 + kTile - 1, p.tlen - 1), jmax = imin(j0 + kTile - 1, p.qlen - 1);
  if (T == 0 ? jmax > p.w : jmax - t0 > p.w - 1) return false;
  return tmax - imax(j0, 1) + 1 <= p.w;
}

AGATHA_HD TilePath tile_path(const TaskParams& p, int32_t T, int32_t J) {
  const int32_t t0 = T * kTile, j0 = J * kTile;
  if (T < 1 || J < 1 || t0 + kTile >= p.tlen || j0 + kTile >= p.qlen)
    return p.approx_max && approx_fast_tile(p, T, J) ? TilePath::kFastEdge : TilePath::kTaskEdge;
  const Range g = range_of(p, t0 + j0 + kTile - 1);
  if (!(g.ok && g.st0 < t0 && g.en0 >= t0 + 11))
    return p.approx_max && approx_fast_tile(p, T, J) ? TilePath::kFastEdge : TilePath::kBandEdge;
  return TilePath::kFast;
}
AGATHA_HD bool fast_path_tile(const TaskParams& p, int32_t T, int32_t J) {
  const TilePath k = tile_path(p, T, J);
  return k == TilePath::kFast || k == TilePath::kFastEdge;
}

// The per-lane best-cell keys of the anti-diagonals a tile anti-diagonal D touches:
// k[d] is anti-diagonal 8D + d.
struct Ring {
  BestKey k[kTileDiagonals];
};
AGATHA_HD void ring_clear(Ring& g) {
  for (int d = 0; d < kTileDiagonals; ++d) g.k[d] = 0;
}

// ---------------------------------------------------------------------------------------
// One tile, any tile: the cell rules of tile_dp.hpp on every live cell
// ---------------------------------------------------------------------------------------
// kRecompute = false: the DP. Reads the records of the tiles above and to the left and
// the H arrays, computes the tile's live cells, adds the best-cell keys of its band
// cells to keys[d] (anti-diagonal r0 + d), writes its record and the H arrays, the edge
// H values (spec), and u, v when T lies in `win` (APPROX_MAX).
// kRecompute = true: the traceback. The same computation from the same records without
// H, writing the 64 direction bytes (row-major, dead cells untouched) to dir and nothing
// else.
// The cells run row by row; the caller provides the eight column states (`col`: a
// device gives each lane a slot of shared memory, so this path, taken only at the edges
// of the band, costs the kernel neither registers nor a stack frame).
// kSplice: the task is a splice task (TaskParams::splice), its cells ksw_exts2's.
template <bool kRecompute, bool kSplice = false>
AGATHA_HD void general_tile(const TaskParams& p, const TileLayout& l, const uint32_t* tpack, const uint32_t* qpack,
                            const TaskMem& m, int32_t T, int32_t J, ColState* col, BestKey* keys, const UvWindow& win,
                            uint8_t* dir) {
  const int32_t t0 = T * kTile, j0 = J * kTile, r0 = t0 + j0;
  const int32_t nt = imin(kTile, p.tlen - t0), nj = imin(kTile, p.qlen - j0);
  const uint32_t tw = tpack[T], qw = qpack[J];
  // Inputs. A cell reads its column's (row's) state only if the cell above (left) was
  // computed, and such a cell lies in a stored tile.
  const bool has_up = tile_stored(l, T, J - 1), has_left = tile_stored(l, T - 1, J);
  const TileRecord* up = has_up ? &m.rec[tile_index(l, m, T, J - 1)] : nullptr;
  const TileRecord* left = has_left ? &m.rec[tile_index(l, m, T - 1, J)] : nullptr;
  AGATHA_NO_UNROLL
  for (int a = 0; a < kTile; ++a) {
    col[a] = ColState{0, 0, 0, kNegInf};
    if (has_up) col[a].u = up->bu[a], col[a].y = up->by[a], col[a].y2 = up->by2[a];
    if (!kRecompute && has_up && a < nt) col[a].h = m.col_h[t0 + a];
  }
  const bool keep_uv = !kRecompute && p.approx_max && T >= win.lo && T <= win.hi;
  int8_t* uv = keep_uv ? m.uv + tile_index(l, m, T, J) * (2 * kTile * kTile) : nullptr;
  TileRecord* out = kRecompute ? nullptr : &m.rec[tile_index(l, m, T, J)];
  AGATHA_NO_UNROLL
  for (int32_t b = 0; b < nj; ++b) {
    const int32_t j = j0 + b;
    const uint8_t qb = static_cast<uint8_t>(qw >> (4 * b) & 0xf);
    RowState row{0, 0, 0, kNegInf};
    if (has_left) row.x = left->rx[b], row.v = left->rv[b], row.x2 = left->rx2[b];
    if (!kRecompute && has_left) row.h = m.row_h[j];
    Range prev = r0 + b >= 1 ? range_of(p, r0 + b - 1) : Range{0, -1, 0, -1, false};
    AGATHA_NO_UNROLL
    for (int a = 0; a < kTile; ++a) {
      const int32_t t = t0 + a, r = r0 + a + b;
      const Range g = range_of(p, r);
      if (a < nt && g.ok && t >= g.st && t <= g.en) {
        const uint8_t tb = static_cast<uint8_t>(tw >> (4 * a) & 0xf);
        CellOut c;
        if constexpr (kSplice)
          c = compute_cell<!kRecompute, true>(p, tb, qb, qpack, t, j, g, prev, col[a], row, m.donor[t], m.acceptor[t]);
        else
          c = compute_cell<!kRecompute>(p, tb, qb, qpack, t, j, g, prev, col[a], row);
        if constexpr (kRecompute) {
          dir[b * kTile + a] = c.dir;
        } else {
          if (c.band && !p.approx_max) {
            key_max(keys[a + b], best_key(c.h, key_priority(g, t), t));
            if (t == g.en0 && g.en0 == p.tlen - 1) m.spec[2 * r] = c.h;
            if (t == g.st0 && j == p.qlen - 1) m.spec[2 * r + 1] = c.h;
          }
          if (keep_uv) uv[b * kTile + a] = c.u, uv[kTile * kTile + b * kTile + a] = c.v;
        }
      }
      prev = g;
    }
    if constexpr (!kRecompute) {
      out->rx[b] = row.x, out->rv[b] = row.v, out->rx2[b] = row.x2;
      m.row_h[j] = row.h;
    }
  }
  if constexpr (!kRecompute) {
    AGATHA_NO_UNROLL
    for (int a = 0; a < kTile; ++a) {
      out->bu[a] = col[a].u, out->by[a] = col[a].y, out->by2[a] = col[a].y2;
      if (a < nt) m.col_h[t0 + a] = col[a].h;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Finalization
// ---------------------------------------------------------------------------------------
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
  const int64_t at = tile_index(l, m, t / kTile, j / kTile) * (2 * kTile * kTile);
  return m.uv[at + k * kTile * kTile + (j % kTile) * kTile + t % kTile];
}

// Finalizes anti-diagonal r (all its cells computed): best cell, mqe/mte, Z-drop, or
// the greedy path of APPROX_MAX. `key` is the maximum of the best-cell keys of r.
AGATHA_HD void finalize_r(const TaskParams& p, const TileLayout& l, const TaskMem& m, int32_t r, BestKey key,
                          Progress& s) {
  const Range g = range_of(p, r);
  if (!g.ok) {  // empty band: the reference stops before this anti-diagonal
    s.zdropped = true, s.done = true;
    return;
  }
  s.cells += static_cast<uint64_t>(g.en0 - g.st0 + 1);
  const bool last = r == p.qlen + p.tlen - 2;
  if (!p.approx_max) {
    const int32_t max_h = key_h(key), max_t = key_t(key);
    if (g.en0 == p.tlen - 1) {
      const int32_t anchor = m.spec[2 * r];
      if (anchor > s.mte) s.mte = anchor, s.mte_q = r - kernels::mte_q_end(p.flag, g.en0, g.en);
    }
    if (r - g.st0 == p.qlen - 1) {
      const int32_t h_st0 = m.spec[2 * r + 1];
      if (h_st0 > s.mqe) s.mqe = h_st0, s.mqe_t = g.st0;
    }
    if (kernels::zdrop_rule(s, max_h, r, max_t, p.zdrop, p.e2)) {
      s.zdropped = true, s.done = true;
      return;
    }
    if (last && g.en0 == p.tlen - 1) s.score = m.spec[2 * r];
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

// ---------------------------------------------------------------------------------------
// Traceback: direction bytes recomputed a tile at a time
// ---------------------------------------------------------------------------------------
// The walk only moves up and left, so once it leaves a tile it never returns: one
// cached tile is enough.
struct DirCache {
  int32_t T = -1, J = -1;
  alignas(8) uint8_t dir[kTile * kTile];  // a row of a tile is one aligned 64-bit word
};

AGATHA_HD uint8_t dir_at(const TaskParams& p, const TileLayout& l, const uint32_t* tpack, const uint32_t* qpack,
                         const TaskMem& m, DirCache& c, int32_t t, int32_t j) {
  const int32_t T = t / kTile, J = j / kTile;
  if (T != c.T || J != c.J) {
    ColState col[kTile];
    if (p.splice)
      general_tile<true, true>(p, l, tpack, qpack, m, T, J, col, nullptr, UvWindow{}, c.dir);
    else
      general_tile<true>(p, l, tpack, qpack, m, T, J, col, nullptr, UvWindow{}, c.dir);
    c.T = T, c.J = J;
  }
  return c.dir[(j % kTile) * kTile + t % kTile];
}

}  // namespace agatha::gpu
