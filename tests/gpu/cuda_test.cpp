// The CUDA backend on a real device: every task of the committed golden subset, and
// the same answers as the scalar oracle on random tasks. Skipped, visibly, on machines
// without a usable GPU or builds without CUDA; the decisions the kernel takes are
// covered on the CPU by gpu_schedule_test.cpp and the gpu-sim backend.
#include <agatha/error.hpp>

#include "../../src/dp/fallback.hpp"
#include "../../src/io/line_reader.hpp"
#include "../../src/io/task_file.hpp"

#if defined(AGATHA_HAVE_CUDA)
#include "../../kernels/gpu/cuda_backend.hpp"
#endif

#include <gtest/gtest.h>

#include "support/dp.hpp"
#include "support/paths.hpp"

namespace agatha {
namespace {

std::unique_ptr<DpBackend> cuda_or_skip_reason(std::string& why) {
#if defined(AGATHA_HAVE_CUDA)
  if (gpu::cuda::device_available(&why)) return gpu::cuda::make_backend();
  return nullptr;
#else
  why = "this build has no CUDA support";
  return nullptr;
#endif
}

TEST(Cuda, GoldenSubset) {
  std::string why;
  auto gpu = cuda_or_skip_reason(why);
  if (!gpu) GTEST_SKIP() << "no GPU: " << why;
  io::LineReader in(test::source_path("tests/data/golden_subset.tsv.gz"));
  std::vector<io::TaskRecord> recs;
  std::string line;
  while (in.next(line)) recs.push_back(io::parse_task_line(line, in.path(), in.line_number()));
  std::vector<DpTask> tasks;
  for (const auto& r : recs) tasks.push_back(r.task());
  std::vector<DpResult> res(tasks.size());
  gpu->run(tasks, res);
  size_t bad = 0;
  for (size_t i = 0; i < recs.size(); ++i) {
    if (io::format_answer(res[i]) == recs[i].answer) continue;
    if (++bad <= 10) ADD_FAILURE() << "task " << recs[i].id << " differs";
  }
  EXPECT_EQ(bad, 0u);
}

// The gpu backend as the pipeline makes it (its splice, single-affine and wide-scoring
// tasks handed to the cpu backend) on every task of tests/data/dp: the sr preset and
// the non-default scorings on the device, the others on the host.
TEST(Cuda, RecordedScorings) {
  std::string why;
  if (!cuda_or_skip_reason(why)) GTEST_SKIP() << "no GPU: " << why;
  DpBackendOptions opt;
  opt.backend = "gpu", opt.threads = 2;
  auto gpu = make_dp_backend(opt);
  for (const char* name : {"sr", "scoring", "wide", "syn"}) {
    const std::string path = test::source_path(std::string("tests/data/dp/") + name + ".golden.tsv.gz");
    io::LineReader in(path);
    std::vector<io::TaskRecord> recs;
    std::string line;
    while (in.next(line)) recs.push_back(io::parse_task_line(line, in.path(), in.line_number()));
    std::vector<DpTask> tasks;
    for (const auto& r : recs) tasks.push_back(r.task());
    std::vector<DpResult> res(tasks.size());
    gpu->run(tasks, res);
    size_t bad = 0;
    for (size_t i = 0; i < recs.size(); ++i) {
      if (io::format_answer(res[i]) == recs[i].answer) continue;
      if (++bad <= 10) ADD_FAILURE() << path << " task " << recs[i].id << " differs";
    }
    EXPECT_GT(recs.size(), 1000u) << path;
    EXPECT_EQ(bad, 0u) << path;
  }
}

TEST(Cuda, AutoFallsBackToCpuWithoutADevice) {
  std::string why;
  if (cuda_or_skip_reason(why)) GTEST_SKIP() << "a GPU is present; the fall-back is not taken";
  std::vector<std::string> notes;
  DpBackendOptions opt;
  opt.backend = "auto";
  opt.log = [&](const std::string& m) { notes.push_back(m); };
  auto b = make_dp_backend(opt);
  EXPECT_EQ(b->name().rfind("cpu", 0), 0u) << b->name();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("using the cpu backend"), std::string::npos);
  opt.backend = "gpu";
  try {
    (void)make_dp_backend(opt);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    // Used by `dp --backend` and `align --dp-backend` alike: names neither option.
    EXPECT_EQ(std::string(e.what()).rfind("DP backend gpu: ", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace agatha

namespace agatha {
namespace {

// A GPU failure under --backend auto: logged, and the batch computed on the CPU.
class FailingBackend final : public DpBackend {
 public:
  std::string name() const override { return "failing"; }
  void run(std::span<const DpTask>, std::span<DpResult>) override { throw Error("CUDA: cudaMalloc: out of memory"); }
};

TEST(Cuda, AutoRecomputesAFailedGpuBatchOnTheCpu) {
  std::vector<std::string> notes;
  DpBackendOptions cpu;
  cpu.backend = "scalar";
  cpu.log = [&](const std::string& m) { notes.push_back(m); };
  auto b = make_fallback_backend(std::make_unique<FailingBackend>(), cpu);
  const auto q = test::encode("ACGTACGT");
  DpTask task;
  task.query = q, task.target = q;
  std::vector<DpResult> r(1);
  b->run(std::span(&task, 1), r);
  EXPECT_EQ(r[0].score, 16);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "GPU failed (CUDA: cudaMalloc: out of memory); continuing on the cpu backend");
  b->run(std::span(&task, 1), r);  // later batches go straight to the CPU
  EXPECT_EQ(notes.size(), 1u);
}

}  // namespace
}  // namespace agatha
