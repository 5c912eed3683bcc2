// src/dp/gpu_report.hpp — what `agatha gpu-info` and `agatha --version` say about the
// CUDA backend: how this binary was built, the runtime and driver, the device, and
// whether the binary holds a kernel image the device can run.
#pragma once

#include <string>

namespace agatha {

// One line: the CUDA backend's build (architectures of its kernel images), or that the
// binary was built without CUDA.
std::string cuda_build_summary();

// The full report, several lines. `emulated` reports the host emulation of CUDA
// (the gpu-emu backend) instead. *usable: whether the backend can run.
std::string gpu_report(bool emulated, bool* usable);

}  // namespace agatha
