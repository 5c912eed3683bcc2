// kernels/gpu/cuda_backend.hpp — the CUDA backend (kernels/gpu/dp_cuda.cu) and the
// same source compiled for the host emulation of CUDA (kernels/gpu/emu):
//   gpu::cuda         nvcc and the CUDA runtime; built when nvcc is available (callers
//                     test AGATHA_HAVE_CUDA);
//   gpu::emu          the CUDA emulation with one fiber per lane (the gpu-emu backend,
//                     always built; slow, for tests);
//   gpu::emu_threads  the emulation with one OS thread per lane, for ThreadSanitizer;
//                     only the TSan test builds it.
#pragma once

#include <agatha/dp.hpp>

#include "tile_profile.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace agatha::gpu {

// What the CUDA runtime reports, and which kernel image of this build the device runs.
struct DeviceInfo {
  bool emulated = false;
  int runtime_version = 0, driver_version = 0;  // 1000 * major + 10 * minor; 0 when unknown
  int device_count = 0;
  std::string name;
  int cc = 0;  // compute capability, 10 * major + minor
  size_t memory = 0;
  int multiprocessors = 0;
  std::vector<int> sass, ptx;  // the architectures this build holds images for
  std::string image;           // the image the runtime loaded for device 0 (empty: none)
  bool usable = false;
  std::string why;  // when not usable
};

#define AGATHA_DECLARE_CUDA_BACKEND                                          \
  /* True when a device is present and this build holds a kernel image it */ \
  /* can run; otherwise *why says what failed. */                            \
  bool device_available(std::string* why);                                   \
  DeviceInfo device_info();                                                  \
  /* The architectures of the kernel images this build holds. */             \
  std::vector<int> built_sass();                                             \
  std::vector<int> built_ptx();                                              \
  /* Throws agatha::Error when no device is usable. */                       \
  std::unique_ptr<DpBackend> make_backend();

namespace cuda {
AGATHA_DECLARE_CUDA_BACKEND
}
namespace emu {
AGATHA_DECLARE_CUDA_BACKEND
// The emulation counts the paths the kernel itself takes: with `out` set, every later
// run of a backend adds its counts there (`agatha dp --backend gpu-emu --profile`);
// null stops the counting.
void set_profile(TileProfile* out);
}
namespace emu_threads {
AGATHA_DECLARE_CUDA_BACKEND
void set_profile(TileProfile* out);
}

#undef AGATHA_DECLARE_CUDA_BACKEND

}  // namespace agatha::gpu
