// kernels/gpu/tile_profile.hpp — what the CUDA kernel does with a batch, counted per
// kind of task: by gpu-sim, which runs the kernel's schedule and decisions on the host,
// and by the host emulation of the kernel itself (`agatha dp --backend gpu-sim|gpu-emu
// --profile`; scripts/gpu-static.sh's task-mix figure).
#pragma once

#include "tile_dp.hpp"

#include <cstdint>

namespace agatha::gpu {

// Tiles by the path the CUDA kernel takes for them (tile_path; the fast path's pairs and
// single tiles, those of its calls with an APPROX_MAX edge tile or that also store u and
// v for the greedy path, and the general path's tiles by reason, a fast tile whose H
// inputs are too far apart for 16-bit lanes among them), the anti-diagonals finalized
// (the Z-drop check), the tiles the traceback recomputes, and the band cells. With the
// default schedule (slice 1) gpu-sim's counts are the device's.
struct TileProfile {
  enum Kind { kExact, kApprox, kSpliceExact, kSpliceApprox, kKinds };
  static constexpr const char* kKindName[kKinds] = {"extd2-exact", "extd2-approx", "exts2-exact", "exts2-approx"};
  struct Counts {
    uint64_t tasks = 0, cells = 0;
    uint64_t fast_pairs = 0, fast_singles = 0;  // fast-path calls: two tiles, one tile
    uint64_t fast_edge = 0;     // of those, the calls with an edge tile (TilePath::kFastEdge; APPROX_MAX)
    uint64_t fast_keep_uv = 0;  // and the other calls that store u, v (APPROX_MAX)
    uint64_t general_far = 0, general_task_edge = 0, general_band_edge = 0;
    uint64_t anti_diagonals = 0, traceback_tiles = 0;
    uint64_t traceback_fast_tiles = 0;  // of those, the tiles on the fast path (fast_dir_tile)
    void add(const Counts& o) {
      tasks += o.tasks, cells += o.cells, fast_pairs += o.fast_pairs, fast_singles += o.fast_singles;
      fast_keep_uv += o.fast_keep_uv, fast_edge += o.fast_edge;
      general_far += o.general_far, general_task_edge += o.general_task_edge;
      general_band_edge += o.general_band_edge;
      anti_diagonals += o.anti_diagonals, traceback_tiles += o.traceback_tiles;
      traceback_fast_tiles += o.traceback_fast_tiles;
    }
  };
  Counts kind[kKinds];
  void add(const TileProfile& o) {
    for (int k = 0; k < kKinds; ++k) kind[k].add(o.kind[k]);
  }
};

inline TileProfile::Kind profile_kind(const TaskParams& p) {
  if (p.splice) return p.approx_max ? TileProfile::kSpliceApprox : TileProfile::kSpliceExact;
  return p.approx_max ? TileProfile::kApprox : TileProfile::kExact;
}

}  // namespace agatha::gpu
