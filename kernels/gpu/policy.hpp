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
  // Tile anti-diagonals computed between two termination (Z-drop) checks. AGAThA's sweep
  // found 3 best for its kernel, which merged per-lane statistics through shared memory
  // once per slice. Here every lane keeps the best-cell keys of the 15 anti-diagonals
  // one tile anti-diagonal touches in registers and the task's lanes merge the 8 it
  // completes with warp shuffles right away, so a slice of one costs no extra merge and
  // computes no run-ahead tiles past a Z-drop.
  int32_t slice = 1;
  // Warps in a thread block: 4 (128 threads) is the usual occupancy-neutral default; the
  // kernel keeps its warp state in shared memory, one entry per warp, so nothing else
  // depends on it.
  int32_t warps_per_block = 4;

  // Long tasks run alone on a thread block of `block_warps` warps (the block kernel),
  // so that one of them does not keep a single warp busy long after the rest of the
  // batch is done: a task with at least `block_min_cells` cells in its tiles whose tile
  // anti-diagonals hold at least `block_min_width` tiles (enough pairs for every lane of
  // a warp; a 100 kb task with a 20,000-cell band holds 2,500). A block of 8 warps keeps
  // 8x a warp's lanes on the task; its warps merge through shared memory once per tile
  // anti-diagonal.
  int32_t block_warps = 8;
  int64_t block_min_cells = int64_t{1} << 26;
  int32_t block_min_width = 64;

  // Tasks a warp starts with.
  constexpr int32_t slots() const { return warp / subwarp; }
  constexpr int32_t block_threads() const { return warp * block_warps; }
};

inline constexpr TilePolicy kTilePolicy{};

}  // namespace agatha::gpu
