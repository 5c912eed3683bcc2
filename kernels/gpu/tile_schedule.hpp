// kernels/gpu/tile_schedule.hpp — who computes which tile when: the slice-by-slice
// schedule of one task over a group of lanes, the rolling-window step that finalizes
// completed anti-diagonals, subwarp rejoining, and the bucketing of tasks into warps.
// The CUDA kernel and the gpu-sim backend execute exactly this schedule.
//
// A task is swept one tile anti-diagonal D = T + J at a time; its tiles are dealt to
// the task's lanes round-robin. After each slice of `slice` tile anti-diagonals, every
// cell anti-diagonal r <= 8*D + 7 is complete: the lanes' partial statistics of those r
// are merged and finalized in increasing r, so each Z-drop decision sees exactly what
// the sequential reference sees; tiles computed past the stopping point (run-ahead)
// are never consulted.
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

// The tiles of tile anti-diagonal D that lane `lane` of `n_lanes` computes.
template <class Fn>
AGATHA_HD void for_lane_tiles(const TileLayout& l, int32_t D, int32_t lane, int32_t n_lanes, Fn&& fn) {
  const int32_t lo = diag_t_lo(l, D), hi = diag_t_hi(l, D);
  for (int32_t T = lo + lane; T <= hi; T += n_lanes) fn(T, D - T);
}

// Merges the lanes' statistics of r into one and resets the lanes' slots for reuse.
AGATHA_HD RStat take_stat(RStat* window, int32_t n_lanes, int32_t ring, int32_t r) {
  RStat s;
  rstat_reset(s);
  for (int32_t k = 0; k < n_lanes; ++k) {
    RStat& slot = window[k * ring + r % ring];
    rstat_merge(s, slot);
    rstat_reset(slot);
  }
  return s;
}

// After tile anti-diagonals up to d_last are computed: finalizes every completed
// anti-diagonal in order, stopping at termination. A cell of anti-diagonal r lies in a
// tile with T + J <= r / 8, so r <= 8*d_last + 7 is complete; once the last tile
// anti-diagonal is done (`all`), every r is.
AGATHA_HD void finalize_through(const TaskParams& p, const TileLayout& l, const TaskMem& m, int32_t d_last, bool all,
                                int32_t n_lanes, int32_t ring, Progress& s) {
  const int32_t r_end = p.qlen + p.tlen - 2;
  const int32_t r_last = all ? r_end : imin(kTile * d_last + kTile - 1, r_end);
  while (!s.done && s.next_r <= r_last) {
    const RStat stat = take_stat(m.window, n_lanes, ring, s.next_r);
    finalize_r(p, l, m, s.next_r, stat, s);
    ++s.next_r;
  }
}

// Subwarp rejoining: lanes freed by a finished task join the running task with the
// most tile anti-diagonals left (the lowest slot on ties); -1 when none runs.
AGATHA_HD int32_t rejoin_target(const int32_t* remaining, const bool* running, int32_t n_slots) {
  int32_t best = -1;
  for (int32_t k = 0; k < n_slots; ++k)
    if (running[k] && (best < 0 || remaining[k] > remaining[best])) best = k;
  return best;
}

}  // namespace agatha::gpu
