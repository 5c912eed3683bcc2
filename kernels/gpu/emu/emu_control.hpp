// kernels/gpu/emu/emu_control.hpp — what tests can set and read of the CUDA emulation
// (cuda_runtime.h beside this file): the emulated device's memory, injected faults, and
// counters of what the host asked of the "device". Plain C++: include it anywhere.
#pragma once

#if !defined(AGATHA_EMU_NS)
#if defined(AGATHA_EMU_THREADS)
#define AGATHA_EMU_NS agatha_emu_threads
#else
#define AGATHA_EMU_NS agatha_emu
#endif
#endif

#include <cstddef>
#include <string>

namespace AGATHA_EMU_NS {

// Which call fails: the n-th (0-based) of its kind counted from set_faults; -1 never.
struct Faults {
  long malloc = -1;       // cudaMalloc returns cudaErrorMemoryAllocation
  long host_malloc = -1;  // cudaMallocHost returns cudaErrorMemoryAllocation
  long launch = -1;       // the launch is refused (cudaGetLastError: cudaErrorLaunchOutOfResources)
  long kernel = -1;       // the kernel faults while it runs (sticky cudaErrorLaunchFailure)
  long copy = -1;         // cudaMemcpy/cudaMemcpyAsync returns cudaErrorUnknown
};

struct Stats {
  long mallocs = 0, host_mallocs = 0, frees = 0;
  long launches = 0;
  long async_copies = 0;       // cudaMemcpyAsync on a created stream
  long sync_copies = 0;        // cudaMemcpy (the legacy default stream, synchronous)
  long legacy_stream_ops = 0;  // any operation on the legacy default stream
  long stream_syncs = 0;       // cudaStreamSynchronize
  long event_syncs = 0;        // cudaEventSynchronize
  long device_syncs = 0;       // cudaDeviceSynchronize, cudaFree, cudaFreeHost
  size_t device_bytes = 0, peak_device_bytes = 0;
};

// Resets the emulated device: no sticky error, no faults, zero counters, the default
// memory size (4 GiB, or $AGATHA_EMU_DEVICE_MEMORY bytes). Allocations stay valid.
void reset();
void set_device_memory(size_t total_bytes);
size_t device_memory();
void set_faults(const Faults& f);
Stats stats();
// Host threads that run a grid's blocks (fiber emulation); 0: all cores.
void set_host_threads(int n);
// The description of the last kernel fault (empty when none).
std::string last_fault();

}  // namespace AGATHA_EMU_NS
