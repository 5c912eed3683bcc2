// kernels/gpu/gpu_sim.hpp — the gpu-sim backend: the CUDA kernel's tile schedule and
// decision logic executed on the host (see gpu_sim.cpp).
#pragma once

#include <agatha/dp.hpp>

#include <memory>

namespace agatha::gpu {

std::unique_ptr<DpBackend> make_gpu_sim_backend(int threads);

}  // namespace agatha::gpu
