// kernels/gpu/tile_schedule.hpp — who computes which tile when: the schedule of one task
// over a group of lanes, the finalization of completed anti-diagonals, the tiles whose
// APPROX_MAX u, v are kept, subwarp rejoining. The CUDA kernels and the gpu-sim backend
// execute exactly this schedule.
//
// A task is swept one tile anti-diagonal D = T + J at a time; its tiles are taken in
// pairs of neighbours (T, D-T) and (T+1, D-T-1) — the unit the device's fast path
// computes — and the pairs are dealt to the task's lanes round-robin. After `slice` tile
// anti-diagonals every cell anti-diagonal r <= 8*D + 7 is complete: the lanes' best-cell
// keys of those r are merged (a maximum, in any order) and finalized in increasing r, so
// each Z-drop decision sees exactly what the sequential reference sees; tiles computed
// past the stopping point (run-ahead) are never consulted.
#pragma once

#include "policy.hpp"
#include "tile_task.hpp"

namespace agatha::gpu {

// The schedule gpu-sim runs: the device's (kTilePolicy) unless a test asks for another.
struct Schedule {
  int32_t slice = kTilePolicy.slice;      // tile anti-diagonals between termination checks
  int32_t subwarp = kTilePolicy.subwarp;  // lanes that start on one task
  int32_t warp = kTilePolicy.warp;        // lanes that can regroup among the warp's tasks
};

// Tile anti-diagonals of a task.
AGATHA_HD int32_t n_tile_diagonals(const TileLayout& l) { return l.n_t + l.n_j - 1; }

// The tile pairs of tile anti-diagonal D that lane `rank` of `n_lanes` computes:
// fn(T, J, pair) for the tiles (T, J) and, when `pair`, (T + 1, J - 1).
template <class Fn>
AGATHA_HD void for_lane_pairs(const TileLayout& l, int32_t D, int32_t rank, int32_t n_lanes, Fn&& fn) {
  const int32_t lo = diag_t_lo(l, D), hi = diag_t_hi(l, D);
  for (int32_t T = lo + 2 * rank; T <= hi; T += 2 * n_lanes) fn(T, D - T, T + 1 <= hi);
}

// The last anti-diagonal complete once tile anti-diagonal d_last is computed (`all`:
// the task's last one).
AGATHA_HD int32_t complete_through(const TaskParams& p, int32_t d_last, bool all) {
  const int32_t r_end = p.qlen + p.tlen - 2;
  return all ? r_end : imin(kTile * d_last + kTile - 1, r_end);
}

// The tiles whose u, v an APPROX_MAX task keeps while it computes tile anti-diagonals
// D0 .. D0 + slice - 1, its greedy path standing at target position last_t (after the
// anti-diagonals before 8*D0): finalizing them reads cells t in [last_t, last_t + 8*slice]
// of those anti-diagonals, and finalizing the next slice reads cells of these tiles with
// t up to last_t + 8*slice + 7.
AGATHA_HD UvWindow uv_window(const Progress& s, int32_t slice) {
  UvWindow w;
  w.lo = s.last_h0_t / kTile;
  w.hi = w.lo + slice + 1;
  return w;
}

// Subwarp rejoining: lanes freed by a finished task join the running task with the
// most tile anti-diagonals left (the lowest slot on ties); -1 when none runs.
AGATHA_HD int32_t rejoin_target(const int32_t* remaining, const bool* running, int32_t n_slots) {
  int32_t best = -1, most = 0;
  for (int32_t k = 0; k < n_slots; ++k)
    if (running[k] && (best < 0 || remaining[k] > most)) best = k, most = remaining[k];
  return best;
}

}  // namespace agatha::gpu
