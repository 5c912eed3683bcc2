// kernels/gpu/gpu_sim.hpp — the gpu-sim backend: the CUDA kernel's tile schedule and
// decision logic executed on the host (see gpu_sim.cpp).
#pragma once

#include <agatha/dp.hpp>

#include "tile_profile.hpp"
#include "tile_schedule.hpp"

#include <memory>

namespace agatha::gpu {

// `sch` sets the slice length and lane grouping; results never depend on it. With
// `profile`, each run adds its counts there.
std::unique_ptr<DpBackend> make_gpu_sim_backend(int threads, const Schedule& sch = Schedule{},
                                                TileProfile* profile = nullptr);

}  // namespace agatha::gpu
