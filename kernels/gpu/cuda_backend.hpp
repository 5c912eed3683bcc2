// kernels/gpu/cuda_backend.hpp — the CUDA backend (dp_cuda.cu), built when nvcc is
// available. Without CUDA in the build these functions are not defined; callers test
// AGATHA_HAVE_CUDA.
#pragma once

#include <agatha/dp.hpp>

#include <memory>
#include <string>

namespace agatha::gpu {

// True when the CUDA runtime finds a usable device; otherwise *why says what failed.
bool cuda_device_available(std::string* why);

// Throws agatha::Error when no device is usable.
std::unique_ptr<DpBackend> make_cuda_backend();

}  // namespace agatha::gpu
