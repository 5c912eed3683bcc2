// The read pipeline with a host DP backend that computes single tasks on the pipeline's
// threads (DpBackend::inline_workers): every read is aligned in one pass, with no DP
// rounds, and the records are the bytes the rounds give (the same backend made to run
// rounds only), for any number of threads.

#include <agatha/dp.hpp>
#include <agatha/error.hpp>


#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>

#include "support/align_run.hpp"
#include "support/dp.hpp"

namespace agatha {
namespace {

// A backend's run() only: the pipeline must use rounds.
class RoundsOnly final : public DpBackend {
 public:
  explicit RoundsOnly(DpBackend& inner) : inner_(inner) {}
  std::string name() const override { return inner_.name(); }
  void run(std::span<const DpTask> tasks, std::span<DpResult> results) override { inner_.run(tasks, results); }

 private:
  DpBackend& inner_;
};

// Counts the single tasks and the worker numbers they came with.
class Counting final : public DpBackend {
 public:
  explicit Counting(DpBackend& inner) : inner_(inner) {}
  std::string name() const override { return inner_.name(); }
  void run(std::span<const DpTask> tasks, std::span<DpResult> results) override {
    ++runs;
    inner_.run(tasks, results);
  }
  int inline_workers() const override { return inner_.inline_workers(); }
  void compute_inline(int worker, const DpTask& task, DpResult& result) override {
    ++calls;
    worker_seen[worker] = true;
    inner_.compute_inline(worker, task, result);
  }
  std::atomic<uint64_t> calls{0}, runs{0};
  std::atomic<bool> worker_seen[8] = {};

 private:
  DpBackend& inner_;
};

using Aligned = test::AlignRun;

// The pipeline on the 12 reads of tests/support/align_run.hpp (every read a group of its
// own when the DP runs in rounds).
Aligned align(DpBackend& dp, int threads) { return test::align_mt_sub(dp, threads); }

TEST(InlineDp, OnePassPerReadGivesTheRecordsOfTheRounds) {
  for (const std::string name : {"scalar", "cpu-sse41", "cpu-avx2", "cpu-avx512"}) {
    SCOPED_TRACE(name);
    const std::unique_ptr<DpBackend> dp = test::try_backend(name, 2);
    if (!dp) continue;  // this processor lacks the instruction set
    ASSERT_EQ(dp->inline_workers(), 2);
    RoundsOnly rounds(*dp);
    const Aligned want = align(rounds, 2);
    ASSERT_GE(want.stats.rounds, 6u) << "most reads aligned in rounds";
    EXPECT_EQ(want.stats.inline_dp_tasks, 0u);
    ASSERT_GT(want.records.size(), 0u);
    for (int threads : {1, 2}) {
      SCOPED_TRACE(threads);
      Counting counting(*dp);
      const Aligned got = align(counting, threads);
      EXPECT_EQ(got.records, want.records);
      EXPECT_EQ(got.stats.rounds, 0u);
      EXPECT_EQ(got.stats.dp_tasks, 0u);
      EXPECT_EQ(counting.runs.load(), 0u) << "no task went through run()";
      EXPECT_EQ(got.stats.inline_dp_tasks, counting.calls.load());
      // Every task the rounds computed is among those computed inline; the rounds also
      // never ask twice for the same task, which one pass may do.
      EXPECT_GE(counting.calls.load(), want.stats.dp_tasks);
      EXPECT_TRUE(counting.worker_seen[0].load());
      for (int w = threads; w < 8; ++w) EXPECT_FALSE(counting.worker_seen[w].load()) << "worker " << w;
    }
  }
}

// Fewer workspaces than pipeline threads: the pipeline runs rounds, with the same records.
TEST(InlineDp, TooFewWorkersMeansRounds) {
  const std::unique_ptr<DpBackend> one = test::try_backend("scalar", 1), two = test::try_backend("scalar", 2);
  ASSERT_TRUE(one && two);
  EXPECT_EQ(one->inline_workers(), 1);
  const Aligned got = align(*one, 2), want = align(*two, 2);
  EXPECT_GE(got.stats.rounds, 6u);
  EXPECT_EQ(got.stats.inline_dp_tasks, 0u);
  EXPECT_EQ(want.stats.rounds, 0u);
  EXPECT_EQ(got.records, want.records);
}

// A worker number outside the backend's workspaces is refused, not a stray write.
TEST(InlineDp, WorkerNumbersAreChecked) {
  const std::unique_ptr<DpBackend> dp = test::try_backend("scalar", 2);
  ASSERT_TRUE(dp);
  DpTask t;
  const std::vector<uint8_t> s = test::encode("ACGTACGT");
  t.query = s, t.target = s;
  t.scoring = DpScoring{};
  DpResult r;
  EXPECT_NO_THROW(dp->compute_inline(1, t, r));
  EXPECT_THROW(dp->compute_inline(2, t, r), Error);
  EXPECT_THROW(dp->compute_inline(-1, t, r), Error);
  // Backends on a device compute rounds only.
  const std::unique_ptr<DpBackend> emu = test::try_backend("gpu-emu", 2);
  ASSERT_TRUE(emu);
  EXPECT_EQ(emu->inline_workers(), 0);
  EXPECT_THROW(emu->compute_inline(0, t, r), Error);
}

}  // namespace
}  // namespace agatha

namespace agatha {
namespace {

// With inline DP a group holds at least as many reads as there are threads, so that long
// queries (an assembly's contigs) are aligned side by side; a batch of fewer reads than
// threads (12 reads on 13 threads here) is one group of fewer, which goes through the
// rounds, whose tasks run on all the backend's threads. Same records either way.
TEST(InlineDp, ABatchOfFewerReadsThanThreadsRunsInRounds) {
  const std::unique_ptr<DpBackend> dp = test::try_backend("scalar", 13);
  ASSERT_TRUE(dp);
  const std::unique_ptr<DpBackend> one = test::try_backend("scalar", 1);
  const Aligned want = align(*one, 1);
  Counting counting(*dp);
  const Aligned got = align(counting, 13);
  EXPECT_EQ(got.records, want.records);
  EXPECT_GE(got.stats.rounds, 1u) << "the only group, of 12 reads, in rounds";
  EXPECT_GT(got.stats.dp_tasks, 0u);
  EXPECT_EQ(got.stats.inline_dp_tasks, 0u);
  EXPECT_EQ(counting.runs.load(), got.stats.rounds);
  EXPECT_EQ(want.stats.rounds, 0u);
}

// The reads a batch has left after a group, when fewer than the threads, join that group
// instead of making a last group that would leave threads idle: 12 reads on 7 threads
// are one group (not 7 and 5), on 5 threads two (5, then 7 rather than 5 and 2). All
// inline, the records those of one thread.
TEST(InlineDp, TheLastFewReadsOfABatchJoinTheGroupBeforeThem) {
  const std::unique_ptr<DpBackend> one = test::try_backend("scalar", 1);
  const Aligned want = align(*one, 1);
  for (int threads : {5, 7}) {
    SCOPED_TRACE(threads);
    const std::unique_ptr<DpBackend> dp = test::try_backend("scalar", threads);
    ASSERT_TRUE(dp);
    Counting counting(*dp);
    std::vector<uint64_t> groups;
    const Aligned got = test::align_mt_sub(counting, threads, [&groups](pipeline::PipelineStep s, uint64_t id) {
      if (s == pipeline::PipelineStep::kHostBegin) groups.push_back(id);
    });
    EXPECT_EQ(got.records, want.records);
    EXPECT_EQ(got.stats.rounds, 0u);
    EXPECT_EQ(counting.runs.load(), 0u);
    EXPECT_GT(got.stats.inline_dp_tasks, 0u);
    EXPECT_EQ(groups.size(), threads == 7 ? 1u : 2u);
  }
}

}  // namespace
}  // namespace agatha
