// ThreadSanitizer over the CUDA kernel: kernels/gpu/dp_cuda.cu's kernel and launcher on
// the emulation with one OS thread per lane (AGATHA_EMU_THREADS), where a warp barrier
// is a mutex and a condition variable, so TSan sees the happens-before edges a
// __syncwarp gives and reports any access pair that no barrier orders. The whole
// executable is built with -fsanitize=thread and runs with halt_on_error: a report
// fails it. The second test breaks the kernel on purpose (one __syncwarp removed
// through the emulation) and checks that TSan reports the race.
#include "../../kernels/gpu/cuda_backend.hpp"
#include "../../kernels/gpu/emu/emu_control.hpp"
#include "../../src/io/line_reader.hpp"
#include "../../src/io/task_file.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "support/paths.hpp"
#include "support/run.hpp"

namespace agatha::gpu {
namespace {

// A few dozen small tasks of the golden subset, every flag the presets use among them.
// Counts that are not multiples of four leave empty slots in the last warp.
struct TaskSet {
  std::vector<io::TaskRecord> recs;
  std::vector<DpTask> tasks;
};

TaskSet small_tasks(size_t n, const char* file = "tests/data/golden_subset.tsv.gz") {
  TaskSet s;
  io::LineReader in(test::source_path(file));
  std::string line;
  while (s.recs.size() < n && in.next(line)) {
    io::TaskRecord r = io::parse_task_line(line, in.path(), in.line_number());
    if (r.query.size() + r.target.size() > 1200 || dp_task_on_oracle(r.task())) continue;
    s.recs.push_back(std::move(r));
  }
  for (const auto& r : s.recs) s.tasks.push_back(r.task());
  return s;
}

// 13 tasks: four warps in one block, the last with three empty slots, all running
// concurrently; 37 tasks: ten warps over three blocks.
TEST(KernelUnderTsan, GoldenTasksRaceFreeAndExact) {
  const TaskSet all = small_tasks(50);
  ASSERT_EQ(all.tasks.size(), 50u);
  agatha_emu_threads::reset();
  auto b = emu_threads::make_backend();
  for (size_t n : {13, 37}) {
    const size_t from = n == 13 ? 0 : 13;
    std::vector<DpResult> res(n);
    b->run(std::span(all.tasks).subspan(from, n), res);
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) bad += io::format_answer(res[i]) != all.recs[from + i].answer;
    EXPECT_EQ(bad, 0u) << n << " tasks";
  }
}

// The splice kernel (tile_dp_kernel<true>): small splice tasks of both releases' golden
// files, with introns among them.
TEST(KernelUnderTsan, SpliceTasksRaceFreeAndExact) {
  agatha_emu_threads::reset();
  auto b = emu_threads::make_backend();
  for (const char* file : {"tests/data/splice/drna.golden.tsv.gz", "tests/data/splice/r231-hifi.golden.tsv.gz"}) {
    const TaskSet set = small_tasks(21, file);
    ASSERT_EQ(set.tasks.size(), 21u) << file;
    std::vector<DpResult> res(set.tasks.size());
    b->run(set.tasks, res);
    size_t bad = 0;
    for (size_t i = 0; i < res.size(); ++i) bad += io::format_answer(res[i]) != set.recs[i].answer;
    EXPECT_EQ(bad, 0u) << file;
  }
}

// The __syncwarp between the lanes' step — which publishes their best-cell keys, tile
// records and H values — and the merge of those keys by other lanes of the segment:
// the line in dp_cuda.cu after `compute_step<kSplice>(ws.dt[slot], ...)` in the warp kernel.
int publish_barrier_line() {
  std::ifstream in(test::source_path("kernels/gpu/dp_cuda.cu"));
  std::string line;
  int no = 0;
  bool seen = false;
  while (std::getline(in, line)) {
    ++no;
    if (line.find("compute_step<kSplice>(ws.dt[slot]") != std::string::npos) seen = true;
    if (seen && line.find("__syncwarp();") != std::string::npos) return no;
  }
  return 0;
}

TEST(KernelUnderTsan, CatchesARemovedSyncwarp) {
  if (std::getenv("AGATHA_EMU_DROP_SYNCWARP")) GTEST_SKIP() << "this is the child run";
  const int line = publish_barrier_line();
  ASSERT_GT(line, 0) << "the publish barrier was not found in dp_cuda.cu";
  const std::string self = ::testing::internal::GetArgvs()[0];
  const test::CommandResult r =
      test::run_shell("AGATHA_EMU_DROP_SYNCWARP=dp_cuda.cu:" + std::to_string(line) + " TSAN_OPTIONS=halt_on_error=1 " +
                      test::shell_quote(self) + " --gtest_filter=KernelUnderTsan.GoldenTasksRaceFreeAndExact 2>&1");
  const std::string& out = r.out;
  EXPECT_NE(r.code, 0) << "the broken kernel passed";
  EXPECT_NE(out.find("ThreadSanitizer: data race"), std::string::npos) << out.substr(0, 3000);
  EXPECT_NE(out.find("tile_dp_kernel"), std::string::npos) << out.substr(0, 3000);
}

}  // namespace
}  // namespace agatha::gpu
