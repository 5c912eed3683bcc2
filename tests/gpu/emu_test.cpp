// The CUDA backend's own kernel and launcher (kernels/gpu/dp_cuda.cu) on the host
// emulation of CUDA (kernels/gpu/emu): how the launcher uses the device (streams,
// copies, memory budget), what it does when the device fails (allocation, launch,
// kernel and copy faults, injected), the `auto` fall-back to the CPU, and the
// emulation's own rules (collectives, memory). The golden and end-to-end suites run
// the same backend as "gpu-emu" on every task and fixture.
#include "../test_support.hpp"

#include <agatha/error.hpp>

#include "../../kernels/gpu/arch_select.hpp"
#include "../../kernels/gpu/cuda_backend.hpp"
#include "../../kernels/gpu/emu/cuda_runtime.h"
#include "../../kernels/gpu/emu/emu_control.hpp"
#include "../../src/dp/fallback.hpp"
#include "../../src/io/line_reader.hpp"
#include "../../src/io/task_file.hpp"

#include <gtest/gtest.h>

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
TEST_F(GpuEmu, ResultsComeBackInAFewAsynchronousCopiesPerChunk) {
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
  EXPECT_GE(st.launches, 1);
  EXPECT_LE(st.async_copies, 5 * st.launches) << "uploads: 3, downloads: 2 per chunk";
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

TEST_F(GpuEmu, AFailedCopyIsAnErrorAndLeavesTheBackendReusable) {
  const TaskSet s = golden(200);
  auto b = emu::make_backend();
  agatha_emu::Faults f;
  f.copy = 2;
  agatha_emu::set_faults(f);
  std::vector<DpResult> res(s.tasks.size());
  try {
    b->run(s.tasks, res);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("CUDA: upload plan"), std::string::npos) << e.what();
  }
  agatha_emu::set_faults({});
  b->run(s.tasks, res);
  EXPECT_EQ(wrong(s, res), 0u);
}

// A kernel fault is sticky, as on a device: the error names it, and under `auto` the
// batch and every later one are computed on the CPU.
TEST_F(GpuEmu, AKernelFaultFallsBackToTheCpuUnderAuto) {
  const TaskSet s = golden(300);
  agatha_emu::Faults f;
  f.kernel = 0;
  agatha_emu::set_faults(f);
  std::vector<std::string> notes;
  DpBackendOptions cpu;
  cpu.backend = "scalar";
  cpu.log = [&](const std::string& m) { notes.push_back(m); };
  auto b = make_fallback_backend(emu::make_backend(), cpu);
  std::vector<DpResult> res(s.tasks.size());
  b->run(s.tasks, res);
  EXPECT_EQ(wrong(s, res), 0u);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("unspecified launch failure"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("continuing on the cpu backend"), std::string::npos) << notes[0];
  b->run(s.tasks, res);
  EXPECT_EQ(wrong(s, res), 0u);
  EXPECT_EQ(notes.size(), 1u);
}

TEST_F(GpuEmu, ABatchTheDeviceCannotHoldFallsBackToTheCpuUnderAuto) {
  const TaskSet s = golden(100);
  agatha_emu::set_device_memory(4096);
  std::vector<std::string> notes;
  DpBackendOptions cpu;
  cpu.backend = "scalar";
  cpu.log = [&](const std::string& m) { notes.push_back(m); };
  auto b = make_fallback_backend(emu::make_backend(), cpu);
  std::vector<DpResult> res(s.tasks.size());
  b->run(s.tasks, res);
  EXPECT_EQ(wrong(s, res), 0u);
  EXPECT_EQ(notes.size(), 1u);
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
