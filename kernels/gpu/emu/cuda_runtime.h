// kernels/gpu/emu/cuda_runtime.h — the part of CUDA that the DP kernel and its launcher
// use, emulated on the host, so that kernels/gpu/dp_cuda.cu compiles with g++ and runs
// on the CPU unchanged apart from its launch site (see emu_launch below).
//
// A translation unit that puts this folder on its include path before including a .cu
// file gets this header for <cuda_runtime.h>. Semantics follow CUDA's, strictly where a
// GPU would misbehave silently:
//   * every lane (CUDA thread) is a fiber (AGATHA_EMU_THREADS unset) or an OS thread
//     (AGATHA_EMU_THREADS set: for ThreadSanitizer); the lanes of a block share
//     __shared__ variables;
//   * __syncwarp(mask), shuffles and votes wait until every lane named in the mask has
//     reached a collective with that mask; a lane of the mask that exits instead, a mask
//     without the calling lane, a collective of another kind met under the same mask,
//     a shuffle reading a lane outside its mask, and a deadlock are kernel faults;
//   * device and pinned memory come filled with pseudo-random bytes, not zeros; copies
//     are checked against the allocations they touch;
//   * streams are queues run lazily, at synchronisation: the host sees a kernel's
//     results only after it synchronises, and an asynchronous copy from pinned memory
//     reads that memory when it executes, not when it is enqueued. A copy from pageable
//     memory is staged at the call, a copy to pageable memory completes before the call
//     returns, as CUDA documents;
//   * a fault in a kernel is a sticky cudaErrorLaunchFailure, as on a device;
//   * faults can be injected (emu_control.hpp): allocation, launch and copy failures,
//     a smaller device;
//   * the packed 16x2 intrinsics the kernel's fast path uses (__vadd2, __vsub2, __vmaxs2,
//     __vmins2, __vcmpgts2, __vcmpges2, __vimax3_s16x2, __vimax3_s32), __byte_perm and PTX prmt.b32 with its
//     sign-replicating selectors (ptx_prmt, which the kernel reaches through inline PTX
//     on a device), CUDA's vector types (uint2, uint4, int4 ...), and events
//     (cudaEventRecord and cudaEventElapsedTime time the host's clock when the stream
//     reaches them).
//
// The types and functions live in namespace AGATHA_EMU_NS and are brought into the
// global namespace with using-declarations, so a program can link this emulation beside
// the real CUDA runtime.
#pragma once

#define AGATHA_CUDA_EMULATION 1

#include "emu_control.hpp"  // AGATHA_EMU_NS; the emulated device's controls

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <version>
#if defined(__cpp_lib_source_location)
#include <source_location>
#endif
#include <tuple>
#include <type_traits>
#include <utility>
#if defined(__SSSE3__)
#include <tmmintrin.h>
#endif

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)
#define __restrict__ __restrict
#if defined(AGATHA_EMU_THREADS)
// Lanes are OS threads and blocks run one at a time: one instance per program.
#define __shared__ static
#else
// The lanes of a block are fibers on one OS thread, and an OS thread runs one block at
// a time: one instance per block in flight.
#define __shared__ static thread_local
#endif

namespace AGATHA_EMU_NS {

// Where a collective was called from, for fault messages: AGATHA_EMU_NS::source_location, or the
// same from the compiler's builtins where the library lacks it (clang 14 with
// libstdc++ 12).
#if defined(__cpp_lib_source_location)
using source_location = std::source_location;
#else
struct source_location {
  static constexpr source_location current(const char* file = __builtin_FILE(), unsigned line = __builtin_LINE()) noexcept {
    source_location l;
    l.file_ = file, l.line_ = line;
    return l;
  }
  constexpr const char* file_name() const noexcept { return file_; }
  constexpr unsigned line() const noexcept { return line_; }
  const char* file_ = "";
  unsigned line_ = 0;
};
#endif


struct uint3 {
  unsigned x, y, z;
};
// CUDA's vector types with their alignment. Kernels read and write other data through
// them (16 bytes at a time), as CUDA code does: may_alias keeps the host compiler's
// type-based alias analysis from reordering those accesses.
struct __attribute__((may_alias, aligned(8))) uint2 {
  unsigned x, y;
};
struct __attribute__((may_alias, aligned(8))) int2 {
  int x, y;
};
struct __attribute__((may_alias, aligned(16))) uint4 {
  unsigned x, y, z, w;
};
struct __attribute__((may_alias, aligned(16))) int4 {
  int x, y, z, w;
};
inline uint2 make_uint2(unsigned x, unsigned y) { return uint2{x, y}; }
inline int2 make_int2(int x, int y) { return int2{x, y}; }
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return uint4{x, y, z, w}; }
inline int4 make_int4(int x, int y, int z, int w) { return int4{x, y, z, w}; }
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
};

enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorNoKernelImageForDevice = 209,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchFailure = 719,
  cudaErrorUnknown = 999,
};
using cudaError_t = cudaError;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

struct Stream;
using cudaStream_t = Stream*;
struct Event;
using cudaEvent_t = Event*;
inline constexpr unsigned cudaStreamDefault = 0, cudaStreamNonBlocking = 1;
inline constexpr unsigned cudaEventDefault = 0, cudaEventBlockingSync = 1, cudaEventDisableTiming = 2;

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock, warpSize, maxThreadsPerBlock;
  int major, minor;
  int multiProcessorCount;
  int clockRate;
};

struct cudaFuncAttributes {
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion;
};

// ---- host API (emu_runtime.cpp) ----
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t e);
const char* cudaGetErrorName(cudaError_t e);
cudaError_t cudaGetDeviceCount(int* n);
cudaError_t cudaGetDevice(int* d);
cudaError_t cudaSetDevice(int d);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int d);
cudaError_t cudaRuntimeGetVersion(int* v);
cudaError_t cudaDriverGetVersion(int* v);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaMalloc(void** p, size_t bytes);
cudaError_t cudaMallocHost(void** p, size_t bytes);
cudaError_t cudaFree(void* p);
cudaError_t cudaFreeHost(void* p);
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t n, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t n, cudaMemcpyKind kind, cudaStream_t s = nullptr);
cudaError_t cudaMemset(void* p, int value, size_t n);
cudaError_t cudaMemsetAsync(void* p, int value, size_t n, cudaStream_t s = nullptr);
cudaError_t cudaStreamCreate(cudaStream_t* s);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamQuery(cudaStream_t s);
// Events record the host's clock when their stream reaches them.
cudaError_t cudaEventCreate(cudaEvent_t* e);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned flags);  // timing off with cudaEventDisableTiming
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t func_attributes(cudaFuncAttributes* a);

template <class T>
cudaError_t cudaMalloc(T** p, size_t bytes) {
  return cudaMalloc(reinterpret_cast<void**>(p), bytes);
}
template <class T>
cudaError_t cudaMallocHost(T** p, size_t bytes) {
  return cudaMallocHost(reinterpret_cast<void**>(p), bytes);
}
// Every kernel of the emulation has an "image" for the emulated device.
template <class F>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* a, F*) {
  return func_attributes(a);
}

// ---- device side ----
struct LaneIds {
  uint3 thread, block;
  dim3 block_dim, grid_dim;
};
// The lane running on this OS thread (fibers: updated at every switch).
inline thread_local const LaneIds* current_ids = nullptr;

enum class Collective : uint8_t { kSyncwarp, kShflIdx, kShflXor, kShflUp, kShflDown, kBallot, kSyncthreads };

// Blocks the calling lane at a warp collective; returns the shuffled value or the
// ballot. `arg` is the source lane, lane mask or delta; `value` the lane's operand.
uint64_t collective(Collective kind, unsigned mask, uint64_t value, int arg, int width,
                    const AGATHA_EMU_NS::source_location& where);

template <class T>
uint64_t to_bits(T v) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8, "shuffles move at most 8 bytes");
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <class T>
T from_bits(uint64_t b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}

// kernel<<<grid, block, smem, stream>>>(args...): the arguments are converted to the
// kernel's parameter types and captured by value when the launch is enqueued, as CUDA
// does.
void enqueue_launch(const char* kernel, dim3 grid, dim3 block, size_t smem, cudaStream_t s,
                    std::function<void()> body);

template <class... P, class... A>
cudaError_t emu_launch(void (*kernel)(P...), dim3 grid, dim3 block, size_t smem, cudaStream_t s, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "kernel launched with the wrong number of arguments");
  std::tuple<std::decay_t<P>...> bound(static_cast<std::decay_t<P>>(std::forward<A>(args))...);
  enqueue_launch("kernel", grid, block, smem, s, [kernel, bound] { std::apply(kernel, bound); });
  return cudaSuccess;
}

}  // namespace AGATHA_EMU_NS

// The CUDA names, in the global namespace where CUDA puts them.
using AGATHA_EMU_NS::cudaDeviceProp;
using AGATHA_EMU_NS::cudaError;
using AGATHA_EMU_NS::cudaError_t;
using AGATHA_EMU_NS::cudaEvent_t;
using AGATHA_EMU_NS::cudaFuncAttributes;
using AGATHA_EMU_NS::cudaMemcpyKind;
using AGATHA_EMU_NS::cudaStream_t;
using AGATHA_EMU_NS::dim3;
using AGATHA_EMU_NS::int2;
using AGATHA_EMU_NS::int4;
using AGATHA_EMU_NS::make_int2;
using AGATHA_EMU_NS::make_int4;
using AGATHA_EMU_NS::make_uint2;
using AGATHA_EMU_NS::make_uint4;
using AGATHA_EMU_NS::uint2;
using AGATHA_EMU_NS::uint3;
using AGATHA_EMU_NS::uint4;
using namespace AGATHA_EMU_NS;  // the enumerators and the cuda* functions

#define threadIdx (::AGATHA_EMU_NS::current_ids->thread)
#define blockIdx (::AGATHA_EMU_NS::current_ids->block)
#define blockDim (::AGATHA_EMU_NS::current_ids->block_dim)
#define gridDim (::AGATHA_EMU_NS::current_ids->grid_dim)
inline constexpr int warpSize = 32;

inline void __syncwarp(unsigned mask = 0xffffffffu, AGATHA_EMU_NS::source_location loc = AGATHA_EMU_NS::source_location::current()) {
  AGATHA_EMU_NS::collective(AGATHA_EMU_NS::Collective::kSyncwarp, mask, 0, 0, 32, loc);
}
inline void __syncthreads(AGATHA_EMU_NS::source_location loc = AGATHA_EMU_NS::source_location::current()) {
  AGATHA_EMU_NS::collective(AGATHA_EMU_NS::Collective::kSyncthreads, 0, 0, 0, 32, loc);
}
template <class T>
T __shfl_sync(unsigned mask, T v, int src, int width = 32, AGATHA_EMU_NS::source_location loc = AGATHA_EMU_NS::source_location::current()) {
  using namespace AGATHA_EMU_NS;
  return from_bits<T>(collective(Collective::kShflIdx, mask, to_bits(v), src, width, loc));
}
template <class T>
T __shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = 32,
                  AGATHA_EMU_NS::source_location loc = AGATHA_EMU_NS::source_location::current()) {
  using namespace AGATHA_EMU_NS;
  return from_bits<T>(collective(Collective::kShflXor, mask, to_bits(v), lane_mask, width, loc));
}
template <class T>
T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = 32,
                 AGATHA_EMU_NS::source_location loc = AGATHA_EMU_NS::source_location::current()) {
  using namespace AGATHA_EMU_NS;
  return from_bits<T>(collective(Collective::kShflUp, mask, to_bits(v), static_cast<int>(delta), width, loc));
}
template <class T>
T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32,
                   AGATHA_EMU_NS::source_location loc = AGATHA_EMU_NS::source_location::current()) {
  using namespace AGATHA_EMU_NS;
  return from_bits<T>(collective(Collective::kShflDown, mask, to_bits(v), static_cast<int>(delta), width, loc));
}
inline unsigned __ballot_sync(unsigned mask, int pred, AGATHA_EMU_NS::source_location loc = AGATHA_EMU_NS::source_location::current()) {
  using namespace AGATHA_EMU_NS;
  return static_cast<unsigned>(collective(Collective::kBallot, mask, pred != 0, 0, 32, loc));
}
inline int __any_sync(unsigned mask, int pred, AGATHA_EMU_NS::source_location loc = AGATHA_EMU_NS::source_location::current()) {
  return __ballot_sync(mask, pred, loc) != 0;
}
inline int __all_sync(unsigned mask, int pred, AGATHA_EMU_NS::source_location loc = AGATHA_EMU_NS::source_location::current()) {
  return __ballot_sync(mask, pred, loc) == mask;
}

inline int __popc(unsigned x) { return std::popcount(x); }
inline int __popcll(unsigned long long x) { return std::popcount(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline unsigned __brev(unsigned x) {
  x = (x >> 1 & 0x55555555u) | (x & 0x55555555u) << 1;
  x = (x >> 2 & 0x33333333u) | (x & 0x33333333u) << 2;
  x = (x >> 4 & 0x0f0f0f0fu) | (x & 0x0f0f0f0fu) << 4;
  return __builtin_bswap32(x);
}
// ---- SIMD-in-a-word intrinsics (CUDA's __v*2 family, __byte_perm) and PTX prmt ----
// Exact CUDA semantics: each 32-bit word is two 16-bit lanes (bits 0-15 and 16-31);
// additions and subtractions wrap per lane, the s16 forms compare lanes as signed. The
// lanes are held in a 4-byte vector, which GCC keeps in SSE registers (paddw, pmaxsw)
// across a chain of intrinsics, so the emulated kernel's packed arithmetic is about as
// cheap on the host as on a device.
namespace AGATHA_EMU_NS {
// The lanes as signed (for the comparisons) or unsigned (for the wrapping additions and
// subtractions: signed vector lanes would overflow, which C++ leaves undefined).
typedef int16_t v2s16 __attribute__((vector_size(4)));
typedef uint16_t v2u16 __attribute__((vector_size(4)));
template <class V = v2s16>
inline V to_v2(unsigned x) {
  V v;
  std::memcpy(&v, &x, 4);
  return v;
}
template <class V>
inline unsigned from_v2(V v) {
  unsigned x;
  std::memcpy(&x, &v, 4);
  return x;
}
// PTX prmt.b32 d, a, b, c (default mode): byte k of d is byte (c >> 4k) & 7 of the
// 8-byte value {b, a} (a is bytes 0-3), or, when bit 3 of that nibble is set, that
// byte's sign bit replicated over the 8 bits.
inline unsigned ptx_prmt_ref(unsigned a, unsigned b, unsigned c) {
  const uint64_t v = static_cast<uint64_t>(b) << 32 | a;
  unsigned d = 0;
  for (int k = 0; k < 4; ++k) {
    const unsigned s = c >> (4 * k) & 0xf;
    unsigned byte = static_cast<unsigned>(v >> ((s & 7) * 8)) & 0xff;
    if (s & 8) byte = byte & 0x80 ? 0xff : 0;
    d |= byte << (8 * k);
  }
  return d;
}
inline unsigned ptx_prmt(unsigned a, unsigned b, unsigned c) {
#if defined(__SSSE3__)
  // One pshufb over the 8 bytes and their 8 sign replications: the kernels use prmt
  // with data-dependent selectors in their innermost loops.
  const __m128i v = _mm_set_epi32(0, 0, static_cast<int>(b), static_cast<int>(a));
  const __m128i table = _mm_unpacklo_epi64(v, _mm_cmplt_epi8(v, _mm_setzero_si128()));
  const unsigned idx = (c & 0xfu) | (c & 0xf0u) << 4 | (c & 0xf00u) << 8 | (c & 0xf000u) << 12;
  return static_cast<unsigned>(_mm_cvtsi128_si32(_mm_shuffle_epi8(table, _mm_cvtsi32_si128(static_cast<int>(idx)))));
#else
  return ptx_prmt_ref(a, b, c);
#endif
}
}  // namespace AGATHA_EMU_NS

inline unsigned __vadd2(unsigned a, unsigned b) {
  using namespace AGATHA_EMU_NS;
  return from_v2(to_v2<v2u16>(a) + to_v2<v2u16>(b));
}
inline unsigned __vsub2(unsigned a, unsigned b) {
  using namespace AGATHA_EMU_NS;
  return from_v2(to_v2<v2u16>(a) - to_v2<v2u16>(b));
}
inline unsigned __vmaxs2(unsigned a, unsigned b) {
  using namespace AGATHA_EMU_NS;
  const v2s16 x = to_v2(a), y = to_v2(b);
  return from_v2(x > y ? x : y);
}
inline unsigned __vmins2(unsigned a, unsigned b) {
  using namespace AGATHA_EMU_NS;
  const v2s16 x = to_v2(a), y = to_v2(b);
  return from_v2(x < y ? x : y);
}
// Per signed 16-bit lane: 0xffff where the comparison holds, else 0.
inline unsigned __vcmpgts2(unsigned a, unsigned b) {
  using namespace AGATHA_EMU_NS;
  const v2s16 x = to_v2(a), y = to_v2(b);
  return from_v2(static_cast<v2s16>(x > y));
}
inline unsigned __vcmpges2(unsigned a, unsigned b) {
  using namespace AGATHA_EMU_NS;
  const v2s16 x = to_v2(a), y = to_v2(b);
  return from_v2(static_cast<v2s16>(x >= y));
}
inline unsigned __vimax3_s16x2(unsigned a, unsigned b, unsigned c) { return __vmaxs2(__vmaxs2(a, b), c); }
inline unsigned __vimin3_s16x2(unsigned a, unsigned b, unsigned c) { return __vmins2(__vmins2(a, b), c); }
inline int __vimax3_s32(int a, int b, int c) {
  const int m = a > b ? a : b;
  return m > c ? m : c;
}
// CUDA's __byte_perm: like prmt but only the low 3 bits of each selector nibble count.
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  return AGATHA_EMU_NS::ptx_prmt(x, y, s & 0x7777u);
}

inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }

// Atomics: blocks run concurrently on host threads, so these are real atomics.
template <class T>
T atomicAdd(T* p, T v) {
  return std::atomic_ref<T>(*p).fetch_add(v);
}
template <class T>
T atomicSub(T* p, T v) {
  return std::atomic_ref<T>(*p).fetch_sub(v);
}
template <class T>
T atomicOr(T* p, T v) {
  return std::atomic_ref<T>(*p).fetch_or(v);
}
template <class T>
T atomicAnd(T* p, T v) {
  return std::atomic_ref<T>(*p).fetch_and(v);
}
template <class T>
T atomicExch(T* p, T v) {
  return std::atomic_ref<T>(*p).exchange(v);
}
template <class T>
T atomicCAS(T* p, T expected, T desired) {
  std::atomic_ref<T>(*p).compare_exchange_strong(expected, desired);
  return expected;
}
template <class T>
T atomicMax(T* p, T v) {
  std::atomic_ref<T> a(*p);
  T old = a.load();
  while (old < v && !a.compare_exchange_weak(old, v)) {
  }
  return old;
}
template <class T>
T atomicMin(T* p, T v) {
  std::atomic_ref<T> a(*p);
  T old = a.load();
  while (v < old && !a.compare_exchange_weak(old, v)) {
  }
  return old;
}
