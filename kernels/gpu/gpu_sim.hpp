// kernels/gpu/gpu_sim.hpp — the gpu-sim backend: the CUDA kernel's tile schedule and
// decision logic executed on the host (see gpu_sim.cpp).
#pragma once

#include <agatha/dp.hpp>

#include "tile_schedule.hpp"

#include <memory>

namespace agatha::gpu {

// `sch` sets the slice length and lane grouping; results never depend on it.
std::unique_ptr<DpBackend> make_gpu_sim_backend(int threads, const Schedule& sch = Schedule{});

}  // namespace agatha::gpu
