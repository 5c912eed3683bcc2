// The CUDA backend's own kernel and launcher (kernels/gpu/dp_cuda.cu) on the host
// emulation of CUDA (kernels/gpu/emu): how the launcher uses the device (streams,
// copies, memory budget), what it does when the device fails (allocation, launch,
// kernel and copy faults, injected), the `auto` fall-back to the CPU, and the
// emulation's own rules (collectives, memory). The golden and end-to-end suites run
// the same backend as "gpu-emu" on every task and fixture.
#include <agatha/error.hpp>

#include "../../kernels/gpu/arch_select.hpp"
#include "../../kernels/gpu/cuda_backend.hpp"
#include "../../kernels/gpu/emu/cuda_runtime.h"
#include "../../kernels/gpu/emu/emu_control.hpp"
#include "../../src/dp/fallback.hpp"
#include "../../src/io/line_reader.hpp"
#include "../../src/io/task_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "support/paths.hpp"

namespace agatha::gpu {
namespace {

struct TaskSet {
  std::vector<io::TaskRecord> recs;
  std::vector<DpTask> tasks;
};

// The first n tasks of the committed golden subset.
TaskSet golden(size_t n) {
  TaskSet s;
  io::LineReader in(test::source_path("tests/data/golden_subset.tsv.gz"));
  std::string line;
  while (s.recs.size() < n && in.next(line)) s.recs.push_back(io::parse_task_line(line, in.path(), in.line_number()));
  for (const auto& r : s.recs) s.tasks.push_back(r.task());
  return s;
}

size_t wrong(const TaskSet& s, const std::vector<DpResult>& res, size_t from = 0) {
  size_t bad = 0;
  for (size_t i = 0; i < s.recs.size(); ++i)
    if (io::format_answer(res[from + i]) != s.recs[i].answer) ++bad;
  return bad;
}

class GpuEmu : public ::testing::Test {
 protected:
  void SetUp() override {
    agatha_emu::reset();
    agatha_emu::set_host_threads(2);
  }
  void TearDown() override { agatha_emu::reset(); }
  // gpu-emu under `auto`'s fall-back to the scalar backend; its notes go to notes_.
  std::unique_ptr<DpBackend> with_fallback() {
    DpBackendOptions cpu;
    cpu.backend = "scalar";
    cpu.log = [this](const std::string& m) { notes_.push_back(m); };
    return make_fallback_backend(emu::make_backend(), cpu);
  }
  std::vector<std::string> notes_;
};

TEST_F(GpuEmu, DeviceInfoDescribesTheEmulatedDevice) {
  const DeviceInfo d = emu::device_info();
  EXPECT_TRUE(d.emulated);
  EXPECT_TRUE(d.usable) << d.why;
  EXPECT_EQ(d.device_count, 1);
  EXPECT_EQ(d.cc, 90);
  EXPECT_EQ(d.memory, agatha_emu::device_memory());
  EXPECT_EQ(d.image, "host emulation");
  EXPECT_EQ(emu::make_backend()->name(), "gpu-emu");
}

// Defect: each task's CIGAR came back with its own synchronous cudaMemcpy on the legacy
// default stream, which also waits for the other stage's kernel.
// A chunk goes up in one asynchronous copy from pinned memory and comes back in one;
// the host waits for it on an event, not by polling the stream.
TEST_F(GpuEmu, AChunkMovesInOneAsynchronousCopyEachWay) {
  const TaskSet s = golden(400);
  size_t with_cigar = 0;
  for (const auto& t : s.tasks) with_cigar += (t.flag & dp_flag::kScoreOnly) == 0;
  ASSERT_GT(with_cigar, 100u);
  auto b = emu::make_backend();
  std::vector<DpResult> res(s.tasks.size());
  b->run(s.tasks, res);
  EXPECT_EQ(wrong(s, res), 0u);
  const agatha_emu::Stats st = agatha_emu::stats();
  EXPECT_EQ(st.sync_copies, 0);
  EXPECT_EQ(st.legacy_stream_ops, 0);
  EXPECT_GE(st.launches, 2) << "the warp kernel and the traceback kernel";
  EXPECT_LE(st.launches, 3) << "one chunk: at most the warp, block and traceback kernels";
  EXPECT_EQ(st.async_copies, 2) << "one upload and one download";
  EXPECT_EQ(st.event_syncs, 1) << "the host sleeps on the chunk's event";
}

// Defect: the budget was taken from free memory, which excludes the buffers the backend
// keeps from its previous call, so a task that fitted once was refused the next time.
TEST_F(GpuEmu, TheMemoryBudgetDoesNotShrinkFromCallToCall) {
  const TaskSet s = golden(3000);
  size_t big = 0;
  for (size_t i = 0; i < s.tasks.size(); ++i)
    if (s.tasks[i].query.size() * s.tasks[i].target.size() >
        s.tasks[big].query.size() * s.tasks[big].target.size())
      big = i;
  TaskSet one;
  one.recs.push_back(s.recs[big]);
  one.tasks.push_back(s.tasks[big]);
  std::vector<DpResult> res(1);
  emu::make_backend()->run(one.tasks, res);
  const size_t need = agatha_emu::stats().peak_device_bytes;
  ASSERT_GT(need, 100000u);
  // A device on which this task takes a little under 40% of the memory.
  agatha_emu::reset();
  agatha_emu::set_device_memory(need * 26 / 10);
  auto b = emu::make_backend();
  for (int call = 0; call < 3; ++call) {
    res[0] = DpResult{};
    ASSERT_NO_THROW(b->run(one.tasks, res)) << "call " << call;
    EXPECT_EQ(wrong(one, res), 0u) << "call " << call;
  }
}

// A device too small for some chunks: allocations fail, the launcher halves the chunk
// and retries; every answer is still right.
TEST_F(GpuEmu, AFailedAllocationSplitsTheChunk) {
  const TaskSet s = golden(300);
  agatha_emu::Faults f;
  f.malloc = 1;  // the second cudaMalloc: the first chunk's work buffer
  agatha_emu::set_faults(f);
  auto b = emu::make_backend();
  std::vector<DpResult> res(s.tasks.size());
  ASSERT_NO_THROW(b->run(s.tasks, res));
  EXPECT_EQ(wrong(s, res), 0u);
  EXPECT_GE(agatha_emu::stats().launches, 2) << "the chunk was split";
}

TEST_F(GpuEmu, ATaskLargerThanTheDeviceIsAnError) {
  const TaskSet s = golden(50);
  agatha_emu::set_device_memory(4096);
  auto b = emu::make_backend();
  std::vector<DpResult> res(s.tasks.size());
  try {
    b->run(s.tasks, res);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bytes of device memory"), std::string::npos) << e.what();
  }
}

// Splits a batch into several chunks: a device a fifth the size of the whole batch.
void small_device_for(const TaskSet& s) {
  agatha_emu::reset();
  std::vector<DpResult> res(s.tasks.size());
  emu::make_backend()->run(s.tasks, res);
  const size_t whole = agatha_emu::stats().peak_device_bytes;
  agatha_emu::reset();
  agatha_emu::set_host_threads(2);
  agatha_emu::set_device_memory(whole / 2);
}

// Defect: a throw left the other stage busy, and the next call harvested that stale
// chunk into its own results (past their end when the new batch is smaller).
TEST_F(GpuEmu, AFailedLaunchLeavesTheBackendReusable) {
  const TaskSet s = golden(400);
  small_device_for(s);
  auto b = emu::make_backend();
  agatha_emu::Faults f;
  f.launch = 1;  // the second chunk's launch is refused
  agatha_emu::set_faults(f);
  std::vector<DpResult> res(s.tasks.size());
  EXPECT_THROW(b->run(s.tasks, res), Error);
  agatha_emu::set_faults({});
  // A smaller batch next: results beyond its end must stay untouched.
  const TaskSet few = golden(5);
  std::vector<DpResult> out(s.tasks.size());
  for (auto& r : out) r.score = 12345;
  b->run(few.tasks, std::span(out).first(few.tasks.size()));
  EXPECT_EQ(wrong(few, out), 0u);
  for (size_t i = few.tasks.size(); i < out.size(); ++i) ASSERT_EQ(out[i].score, 12345) << "result " << i;
  // And a full batch again.
  b->run(s.tasks, res);
  EXPECT_EQ(wrong(s, res), 0u);
}

// A chunk's copies are its upload (copy 0) and its download (copy 1).
TEST_F(GpuEmu, AFailedCopyIsAnErrorAndLeavesTheBackendReusable) {
  const TaskSet s = golden(200);
  auto b = emu::make_backend();
  for (const auto& [copy, what] : {std::pair<long, const char*>{0, "CUDA: upload"}, {1, "CUDA: download"}}) {
    agatha_emu::Faults f;  // counted from here
    f.copy = copy;
    agatha_emu::set_faults(f);
    std::vector<DpResult> res(s.tasks.size());
    try {
      b->run(s.tasks, res);
      ADD_FAILURE() << "no error at copy " << copy;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
    agatha_emu::set_faults({});
    b->run(s.tasks, res);
    EXPECT_EQ(wrong(s, res), 0u) << "after a failed copy " << copy;
  }
}

// A kernel fault is sticky, as on a device: the error names it, and under `auto` the
// batch and every later one are computed on the CPU.
TEST_F(GpuEmu, AKernelFaultFallsBackToTheCpuUnderAuto) {
  const TaskSet s = golden(300);
  agatha_emu::Faults f;
  f.kernel = 0;
  agatha_emu::set_faults(f);
  auto b = with_fallback();
  std::vector<DpResult> res(s.tasks.size());
  b->run(s.tasks, res);
  EXPECT_EQ(wrong(s, res), 0u);
  ASSERT_EQ(notes_.size(), 1u);
  EXPECT_NE(notes_[0].find("unspecified launch failure"), std::string::npos) << notes_[0];
  EXPECT_NE(notes_[0].find("continuing on the cpu backend"), std::string::npos) << notes_[0];
  b->run(s.tasks, res);
  EXPECT_EQ(wrong(s, res), 0u);
  EXPECT_EQ(notes_.size(), 1u);
}

TEST_F(GpuEmu, ABatchTheDeviceCannotHoldFallsBackToTheCpuUnderAuto) {
  const TaskSet s = golden(100);
  agatha_emu::set_device_memory(4096);
  auto b = with_fallback();
  std::vector<DpResult> res(s.tasks.size());
  b->run(s.tasks, res);
  EXPECT_EQ(wrong(s, res), 0u);
  ASSERT_EQ(notes_.size(), 1u);
  EXPECT_NE(notes_[0].find("bytes of device memory"), std::string::npos) << notes_[0];
}

// The answers do not depend on how many host threads run the blocks, nor on the size
// of the device (how the batch is chunked).
TEST_F(GpuEmu, AnswersDoNotDependOnHostThreadsOrChunking) {
  const TaskSet s = golden(500);
  std::vector<DpResult> a(s.tasks.size()), c(s.tasks.size());
  agatha_emu::set_host_threads(1);
  emu::make_backend()->run(s.tasks, a);
  EXPECT_EQ(wrong(s, a), 0u);
  small_device_for(s);
  agatha_emu::set_host_threads(3);
  emu::make_backend()->run(s.tasks, c);
  EXPECT_GE(agatha_emu::stats().launches, 2);
  EXPECT_EQ(wrong(s, c), 0u);
}

// Device memory comes filled with garbage; copies are checked against allocations.
TEST_F(GpuEmu, DeviceMemoryIsGarbageAndCopiesAreChecked) {
  void* p = nullptr;
  ASSERT_EQ(cudaMalloc(&p, 4096), 0);
  std::vector<unsigned char> h(4096, 0);
  agatha_emu::Stats before = agatha_emu::stats();
  EXPECT_EQ(before.device_bytes, 4096u);
  ASSERT_EQ(cudaMemcpy(h.data(), p, 4096, cudaMemcpyDeviceToHost), 0);
  size_t zeros = 0;
  for (unsigned char x : h) zeros += x == 0;
  EXPECT_LT(zeros, 100u);
  // Past the end of the allocation, or the wrong direction: refused.
  EXPECT_NE(cudaMemcpy(h.data(), p, 4097, cudaMemcpyDeviceToHost), 0);
  EXPECT_NE(cudaMemcpy(p, h.data(), 16, cudaMemcpyDeviceToHost), 0);
  cudaGetLastError();
  EXPECT_EQ(cudaFree(p), 0);
  EXPECT_EQ(agatha_emu::stats().device_bytes, 0u);
}

// ---- the emulation's CUDA semantics, on small kernels ----

__global__ void shuffle_kernel(int* out) {
  const int lane = static_cast<int>(threadIdx.x % 32), w = static_cast<int>(threadIdx.x / 32);
  int* o = out + (blockIdx.x * blockDim.x / 32 + w) * 32 * 5 + lane * 5;
  o[0] = __shfl_xor_sync(0xffffffffu, lane * 10, 5);
  o[1] = __shfl_up_sync(0xffffffffu, lane * 10, 3);
  o[2] = __shfl_down_sync(0xffffffffu, lane * 10, 3, 16);
  o[3] = __shfl_sync(0xffffffffu, lane * 10, 7);
  o[4] = static_cast<int>(__ballot_sync(0xffffffffu, lane % 3 == 0));
}

TEST_F(GpuEmu, ShufflesAndBallotsFollowCuda) {
  int* d = nullptr;
  const int n = 2 * 64 * 5;  // two blocks of two warps
  ASSERT_EQ(cudaMalloc(&d, n * sizeof(int)), 0);
  emu_launch(shuffle_kernel, dim3(2), dim3(64), 0, nullptr, d);
  std::vector<int> h(n);
  ASSERT_EQ(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost), 0);
  unsigned ballot = 0;
  for (int l = 0; l < 32; l += 3) ballot |= 1u << l;
  for (int w = 0; w < 4; ++w)
    for (int l = 0; l < 32; ++l) {
      const int* o = &h[(w * 32 + l) * 5];
      EXPECT_EQ(o[0], (l ^ 5) * 10);
      EXPECT_EQ(o[1], (l >= 3 ? l - 3 : l) * 10);
      EXPECT_EQ(o[2], (l % 16 + 3 < 16 ? l + 3 : l) * 10);
      EXPECT_EQ(o[3], 70);
      EXPECT_EQ(static_cast<unsigned>(o[4]), ballot);
    }
  cudaFree(d);
}

__global__ void early_exit_kernel(int* out) {
  if (threadIdx.x == 5) return;  // lane 5 leaves; the others wait for it
  __syncwarp();
  out[threadIdx.x] = 1;
}

__global__ void partial_mask_kernel(int* out) {
  // Lanes 0-15 and 16-31 synchronise separately: legal.
  const unsigned half = threadIdx.x < 16 ? 0x0000ffffu : 0xffff0000u;
  __syncwarp(half);
  out[threadIdx.x] = __shfl_sync(half, static_cast<int>(threadIdx.x), 0, 16);
}

__global__ void foreign_mask_kernel(int*) {
  if (threadIdx.x == 0) __syncwarp(0x2u);  // a mask without the calling lane
}

__global__ void mismatch_kernel(int* out) {
  if (threadIdx.x % 2)
    __syncwarp();
  else
    out[0] = __shfl_xor_sync(0xffffffffu, 1, 1);
}

__global__ void syncthreads_kernel(int* out) {
  __shared__ int cell[64];
  cell[threadIdx.x] = static_cast<int>(threadIdx.x);
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = cell[63 - threadIdx.x];
}

std::string run_faulty(void (*k)(int*)) {
  agatha_emu::reset();
  int* d = nullptr;
  EXPECT_EQ(cudaMalloc(&d, 4096), 0);
  emu_launch(k, dim3(1), dim3(32), 0, nullptr, d);
  const cudaError_t e = cudaDeviceSynchronize();
  std::string fault = agatha_emu::last_fault();
  EXPECT_EQ(e == 0, fault.empty());
  agatha_emu::reset();
  cudaFree(d);
  return fault;
}

TEST_F(GpuEmu, CollectivesOfAMaskWaitForEveryLaneNamedInIt) {
  const std::string exited = run_faulty(early_exit_kernel);
  EXPECT_NE(exited.find("lane 5 of its mask has exited without reaching it"), std::string::npos) << exited;
  EXPECT_NE(exited.find("emu_test.cpp"), std::string::npos) << exited;
  EXPECT_EQ(run_faulty(partial_mask_kernel), "");
  const std::string foreign = run_faulty(foreign_mask_kernel);
  EXPECT_NE(foreign.find("the mask does not name the calling lane"), std::string::npos) << foreign;
  const std::string mixed = run_faulty(mismatch_kernel);
  EXPECT_NE(mixed.find("while lane"), std::string::npos) << mixed;
}

TEST_F(GpuEmu, AFaultIsStickyUntilTheDeviceIsReset) {
  int* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 4096), 0);
  emu_launch(early_exit_kernel, dim3(1), dim3(32), 0, nullptr, d);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
  void* p = nullptr;
  EXPECT_EQ(cudaMalloc(&p, 16), cudaErrorLaunchFailure);
  EXPECT_NE(std::string(cudaGetErrorString(cudaErrorLaunchFailure)).find("exited"), std::string::npos);
  agatha_emu::reset();
  EXPECT_EQ(cudaFree(d), 0);
}

TEST_F(GpuEmu, SyncthreadsOrdersTheWarpsOfABlockAndSharedIsPerBlock) {
  int* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 3 * 64 * sizeof(int)), 0);
  emu_launch(syncthreads_kernel, dim3(3), dim3(64), 0, nullptr, d);
  std::vector<int> h(3 * 64);
  ASSERT_EQ(cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost), 0);
  for (int b = 0; b < 3; ++b)
    for (int t = 0; t < 64; ++t) ASSERT_EQ(h[b * 64 + t], 63 - t);
  cudaFree(d);
}

// A stream runs when the host synchronises: a result read before that is not there.
TEST_F(GpuEmu, StreamsRunAtSynchronisation) {
  cudaStream_t s = nullptr;
  ASSERT_EQ(cudaStreamCreate(&s), 0);
  int* d = nullptr;
  int* h = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 64 * sizeof(int)), 0);
  ASSERT_EQ(cudaMallocHost(&h, 64 * sizeof(int)), 0);
  std::fill(h, h + 64, -1);
  emu_launch(syncthreads_kernel, dim3(1), dim3(64), 0, s, d);
  ASSERT_EQ(cudaMemcpyAsync(h, d, 64 * sizeof(int), cudaMemcpyDeviceToHost, s), 0);
  EXPECT_EQ(h[0], -1) << "the copy ran before the host synchronised";
  EXPECT_EQ(cudaStreamQuery(s), cudaErrorNotReady);
  ASSERT_EQ(cudaStreamSynchronize(s), 0);
  EXPECT_EQ(h[0], 63);
  EXPECT_EQ(cudaStreamQuery(s), 0);
  cudaFreeHost(h);
  cudaFree(d);
  cudaStreamDestroy(s);
}

// ---- the emulated SIMD-in-a-word intrinsics the kernel uses, against CUDA's definitions ----

// Two 16-bit lanes of a word, as CUDA's __v*2 intrinsics see them.
int16_t lane16(unsigned x, int k) { return static_cast<int16_t>(x >> (16 * k)); }
unsigned lanes16(int lo, int hi) { return (static_cast<unsigned>(lo) & 0xffffu) | (static_cast<unsigned>(hi) & 0xffffu) << 16; }

TEST(EmuIntrinsics, SixteenBitLanesWrapAndCompareSigned) {
  std::mt19937 rng(5);
  const unsigned edges[] = {0u, 0x7fff7fffu, 0x80008000u, 0xffffffffu, 0x00017fffu, 0x8000ffffu, 0x7f00ff00u};
  for (int i = 0; i < 200000; ++i) {
    const unsigned a = i < 49 ? edges[i % 7] : static_cast<unsigned>(rng());
    const unsigned b = i < 49 ? edges[i / 7] : static_cast<unsigned>(rng());
    const unsigned c = static_cast<unsigned>(rng());
    auto per_lane = [&](auto f) { return lanes16(f(lane16(a, 0), lane16(b, 0), lane16(c, 0)), f(lane16(a, 1), lane16(b, 1), lane16(c, 1))); };
    ASSERT_EQ(__vadd2(a, b), per_lane([](int x, int y, int) { return x + y; })) << std::hex << a << " " << b;
    ASSERT_EQ(__vsub2(a, b), per_lane([](int x, int y, int) { return x - y; })) << std::hex << a << " " << b;
    ASSERT_EQ(__vmaxs2(a, b), per_lane([](int x, int y, int) { return std::max(x, y); })) << std::hex << a << " " << b;
    ASSERT_EQ(__vmins2(a, b), per_lane([](int x, int y, int) { return std::min(x, y); })) << std::hex << a << " " << b;
    ASSERT_EQ(__vcmpgts2(a, b), per_lane([](int x, int y, int) { return x > y ? 0xffff : 0; })) << std::hex << a << " " << b;
    ASSERT_EQ(__vcmpges2(a, b), per_lane([](int x, int y, int) { return x >= y ? 0xffff : 0; })) << std::hex << a << " " << b;
    ASSERT_EQ(__vimax3_s16x2(a, b, c), per_lane([](int x, int y, int z) { return std::max({x, y, z}); }));
    ASSERT_EQ(__vimax3_s32(static_cast<int>(a), static_cast<int>(b), static_cast<int>(c)),
              std::max({static_cast<int>(a), static_cast<int>(b), static_cast<int>(c)}));
  }
}

// PTX prmt.b32: a selector nibble picks one of the 8 bytes {b, a}; bit 3 replicates
// that byte's sign. CUDA's __byte_perm uses the low 3 bits only.
TEST(EmuIntrinsics, PrmtPicksBytesAndReplicatesSigns) {
  const unsigned a = 0x83028100u, b = 0x07f60504u;  // bytes 0..7: 00 81 02 83 04 05 f6 07
  EXPECT_EQ(agatha_emu::ptx_prmt(a, b, 0x3210), a);
  EXPECT_EQ(agatha_emu::ptx_prmt(a, b, 0x7654), b);
  EXPECT_EQ(agatha_emu::ptx_prmt(a, b, 0x0167), 0x0081f607u);
  EXPECT_EQ(agatha_emu::ptx_prmt(a, b, 0x9999), 0xffffffffu) << "byte 1 (0x81) is negative";
  EXPECT_EQ(agatha_emu::ptx_prmt(a, b, 0xAAAA), 0x00000000u) << "byte 2 (0x02) is positive";
  EXPECT_EQ(agatha_emu::ptx_prmt(a, b, 0xE19B), 0xff81ffffu);
  EXPECT_EQ(agatha_emu::ptx_prmt(a, b, 0xFFFF3210u), a) << "only the low 16 bits select";
  EXPECT_EQ(__byte_perm(a, b, 0x9999), 0x81818181u) << "__byte_perm has no sign mode";
  EXPECT_EQ(__byte_perm(a, b, 0x7654), b);
  std::mt19937 rng(9);
  for (int i = 0; i < 100000; ++i) {
    const unsigned x = static_cast<unsigned>(rng()), y = static_cast<unsigned>(rng()), sel = static_cast<unsigned>(rng());
    ASSERT_EQ(agatha_emu::ptx_prmt(x, y, sel), agatha_emu::ptx_prmt_ref(x, y, sel)) << std::hex << x << " " << y << " " << sel;
    ASSERT_EQ(__byte_perm(x, y, sel), agatha_emu::ptx_prmt_ref(x, y, sel & 0x7777u));
  }
}

TEST(EmuIntrinsics, VectorTypesHaveCudasSizeAndAlignment) {
  static_assert(sizeof(uint4) == 16 && alignof(uint4) == 16 && sizeof(int4) == 16 && alignof(int4) == 16);
  static_assert(sizeof(uint2) == 8 && alignof(uint2) == 8 && sizeof(int2) == 8 && alignof(int2) == 8);
  const uint4 v = make_uint4(1, 2, 3, 4);
  EXPECT_EQ(v.x + v.y + v.z + v.w, 10u);
  const int4 w = make_int4(-1, -2, -3, -4);
  EXPECT_EQ(w.x + w.y + w.z + w.w, -10);
}

// The decision the CUDA backend makes about a fat binary, on the CPU.
TEST(KernelImage, SassRunsOnTheSameMajorAndNewerMinorPtxOnAnythingNewer) {
  const std::vector<int> sass = {75, 80, 86, 89, 90, 100, 120};
  const std::vector<int> ptx = {120};
  auto pick = [&](int cc) { return describe(pick_image(sass, ptx, cc)); };
  EXPECT_EQ(pick(90), "sm_90 SASS");
  EXPECT_EQ(pick(80), "sm_80 SASS");
  EXPECT_EQ(pick(87), "sm_86 SASS");  // Orin: the 8.6 image runs on 8.7
  EXPECT_EQ(pick(89), "sm_89 SASS");
  EXPECT_EQ(pick(103), "sm_100 SASS");
  EXPECT_EQ(pick(121), "sm_120 SASS");
  EXPECT_EQ(pick(130), "compute_120 PTX, compiled by the driver");
  EXPECT_EQ(pick(70), "none");
  // The old build: sm_75 and sm_90 SASS, no PTX. An A100, an L4 or an RTX 5090 had no image.
  const std::vector<int> old_sass = {75, 90};
  for (int cc : {80, 86, 89, 100, 120})
    EXPECT_EQ(pick_image(old_sass, {}, cc).kind, KernelImage::kNone) << cc;
  EXPECT_EQ(parse_arch_list("90,75;80 80"), (std::vector<int>{75, 80, 90}));
  EXPECT_TRUE(parse_arch_list("").empty());
}

}  // namespace
}  // namespace agatha::gpu
