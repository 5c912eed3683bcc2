// kernels/gpu/policy.hpp — the tuning of the tiled GPU engine in one place, as CUB keeps
// its per-architecture tuning policies: the CUDA kernel (dp_cuda.cu) is compiled with
// kTilePolicy, and gpu-sim simulates the schedule it implies by default, so what the
// host-side tests check is the schedule the device runs. Results never depend on these
// values (gpu-sim's tests run other schedules to show it); only speed does.
//
// Each value says what chose it. None has been measured on a device by this project yet:
// scripts/gpu-check.sh is the measurement to redo them with.
#pragma once

#include <cstdint>

namespace agatha::gpu {

struct TilePolicy {
  // Lanes of a warp: the hardware's (every architecture from sm_75 on).
  int32_t warp = 32;
  // Lanes that start on one task. AGAThA (Park et al., PPoPP 2024) runs one alignment on
  // a subwarp of 8 lanes, each owning a strip of tile columns, and found it the best
  // trade between lanes idle on short tasks and warps per task.
  int32_t subwarp = 8;
  // Tile anti-diagonals computed between two termination (Z-drop) checks: AGAThA's sweep
  // of the slice width found 3 best. A longer slice checks less often but computes more
  // run-ahead tiles past a Z-drop.
  int32_t slice = 3;
  // Warps in a thread block: 4 (128 threads) is the usual occupancy-neutral default; the
  // kernel keeps its warp state in shared memory, one entry per warp, so nothing else
  // depends on it.
  int32_t warps_per_block = 4;

  // Tasks a warp starts with.
  constexpr int32_t slots() const { return warp / subwarp; }
};

inline constexpr TilePolicy kTilePolicy{};

}  // namespace agatha::gpu
