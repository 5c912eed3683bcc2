// The CUDA emulation's lane stacks under AddressSanitizer (this suite runs in the ASan
// build; kernels/gpu/emu/emu_runtime.cpp). A lane stack is reused by the next block an
// OS thread runs, and its addresses by a later thread's mapping; shadow bytes left
// poisoned there — by frames that never return, such as the lane entry's, or by an
// earlier thread — must not be taken for an overflow by the next block's frames. The
// emulation clears a lane stack's shadow before each block's lanes start on it.
//
// Here block 0's lanes poison the stack below their own frame on purpose (what a frame
// left behind does), and block 1's lanes, on the same stacks (one host thread), then
// use that memory for a large local array: without the clearing, AddressSanitizer
// aborts the test. In a build without it, the poisoning is a no-op and the test checks
// the kernel's results only.
#include "../../kernels/gpu/emu/cuda_runtime.h"
#include "../../kernels/gpu/emu/emu_control.hpp"

#include <sanitizer/asan_interface.h>

#include <gtest/gtest.h>

#include <vector>

namespace {

constexpr int kArray = 2048;  // 8 KB of stack in deep_sum's frame

__device__ __noinline__ int deep_sum(int seed) {
  volatile int buf[kArray];
  for (int i = 0; i < kArray; ++i) buf[i] = seed + i;
  int s = 0;
  for (int i = 0; i < kArray; ++i) s += buf[i];
  return s;
}

__global__ void stale_poison_kernel(int* out) {
  const int lane = static_cast<int>(threadIdx.x);
  if (blockIdx.x == 0) {
    volatile char here = 0;
    char* const below = const_cast<char*>(&here) - 24 * 1024;
    ASAN_POISON_MEMORY_REGION(below, 23 * 1024);  // [here - 24 KB, here - 1 KB)
    out[lane] = here;
  } else {
    out[blockDim.x + lane] = deep_sum(lane);
  }
}

TEST(EmuStacks, StalePoisonOnAReusedLaneStackIsCleared) {
  agatha_emu::reset();
  agatha_emu::set_host_threads(1);  // both blocks on one thread's stacks, block 0 first
  const int lanes = 32;
  int* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 2 * lanes * sizeof(int)), 0);
  ASSERT_EQ(emu_launch(stale_poison_kernel, dim3(2), dim3(lanes), 0, nullptr, d), 0);
  std::vector<int> h(2 * lanes);
  ASSERT_EQ(cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost), 0);
  for (int l = 0; l < lanes; ++l) {
    EXPECT_EQ(h[l], 0);
    EXPECT_EQ(h[lanes + l], l * kArray + kArray * (kArray - 1) / 2) << "lane " << l;
  }
  EXPECT_EQ(cudaFree(d), 0);
  agatha_emu::set_host_threads(0);  // back to all cores for the suite's other tests
  agatha_emu::reset();
}

}  // namespace
