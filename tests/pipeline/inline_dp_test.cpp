// The read pipeline with a host DP backend that computes single tasks on the pipeline's
// threads (DpBackend::inline_workers): every read is aligned in one pass, with no DP
// rounds, and the records are the bytes the rounds give (the same backend made to run
// rounds only), for any number of threads.

#include <agatha/dp.hpp>
#include <agatha/error.hpp>


#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <thread>

#include "support/align_run.hpp"
#include "support/dp.hpp"
#include "support/files.hpp"

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
    // A worker number is one workspace: two threads must never hold it at once.
    if (busy[worker].exchange(true)) ++shared_worker;
    if (linger) std::this_thread::sleep_for(std::chrono::microseconds(200));
    inner_.compute_inline(worker, task, result);
    busy[worker] = false;
  }
  std::atomic<uint64_t> calls{0}, runs{0}, shared_worker{0};
  std::atomic<bool> worker_seen[8] = {}, busy[8] = {};
  bool linger = false;  // hold each worker a while, so that overlapping calls are seen

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

namespace agatha {
namespace {

// A random sequence of n bases (a fixed seed), and a copy with every 300th base changed.
std::string random_bases(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, 'A');
  for (char& c : s) c = "ACGT"[rng() & 3];
  return s;
}
std::string diverged(std::string s) {
  for (size_t i = 150; i < s.size(); i += 300) s[i] = s[i] == 'A' ? 'C' : 'A';
  return s;
}

// One query that is a diverged copy of two reference sequences joined: its two regions
// aligned side by side on two threads, each DP inline, when the longer is at most 5/4 of
// a thread's share (ReadAligner::regions_side_by_side); in rounds otherwise, and on
// three threads. The records are those of one thread either way.
TEST(InlineDp, ALongQuerysRegionsSideBySideWhenTheyShareTheThreads) {
  struct Case {
    size_t a, b;
    int threads;
    bool side_by_side;
  };
  for (const Case c : {Case{20000, 24000, 2, true}, Case{20000, 20000, 2, true}, Case{30000, 10000, 2, false},
                       Case{20000, 24000, 3, false}}) {
    SCOPED_TRACE(testing::Message() << c.a << "+" << c.b << " on " << c.threads);
    test::TempDir dir;
    const std::string a = random_bases(c.a, 11), b = random_bases(c.b, 12);
    const std::string ref = dir.string() + "/ref.fa", reads = dir.string() + "/q.fa";
    ASSERT_TRUE(test::write_file(ref, ">a\n" + a + "\n>b\n" + b + "\n"));
    ASSERT_TRUE(test::write_file(reads, ">q\n" + diverged(a + b) + "\n"));
    const std::unique_ptr<DpBackend> one = test::try_backend("scalar", 1);
    ASSERT_TRUE(one);
    const Aligned want = test::align_paf(*one, 1, ref, reads, "asm5");
    ASSERT_EQ(std::count(want.records.begin(), want.records.end(), '\n'), 2) << want.records;
    // Every backend that computes single tasks (the side-by-side path's), or only one
    // where the path is not taken.
    for (const std::string name : {"scalar", "cpu-sse41", "cpu-avx2", "cpu-avx512"}) {
      SCOPED_TRACE(name);
      const std::unique_ptr<DpBackend> dp = test::try_backend(name, c.threads);
      if (!dp) continue;  // this processor lacks the instruction set
      Counting counting(*dp);
      counting.linger = true;
      const Aligned got = test::align_paf(counting, c.threads, ref, reads, "asm5");
      EXPECT_EQ(got.records, want.records);
      if (c.side_by_side) {
        EXPECT_EQ(got.stats.rounds, 0u);
        EXPECT_EQ(counting.runs.load(), 0u);
        EXPECT_EQ(got.stats.inline_dp_tasks, counting.calls.load());
        EXPECT_EQ(got.stats.inline_dp_tasks, want.stats.inline_dp_tasks) << "the calls of one thread";
        EXPECT_EQ(counting.shared_worker.load(), 0u) << "a worker number held by two threads at once";
      } else {
        EXPECT_GE(got.stats.rounds, 1u);
        EXPECT_EQ(got.stats.inline_dp_tasks, 0u);
        EXPECT_EQ(counting.calls.load(), 0u);
        break;
      }
    }
  }
}

// Two such queries on four threads: each aligned side by side on two, up to four
// computing at once, never two on one worker number (one workspace of the backend).
TEST(InlineDp, LongQueriesSideBySideShareTheWorkerNumbers) {
  test::TempDir dir;
  const std::string a = random_bases(20000, 11), b = random_bases(24000, 12);
  const std::string ref = dir.string() + "/ref.fa", reads = dir.string() + "/q.fa";
  const std::string q = diverged(a + b);
  ASSERT_TRUE(test::write_file(ref, ">a\n" + a + "\n>b\n" + b + "\n"));
  ASSERT_TRUE(test::write_file(reads, ">q1\n" + q + "\n>q2\n" + q + "\n"));
  // The reference: one thread computing every task inline (the scalar backend batches no
  // tasks, so its reads do not go through rounds).
  const std::unique_ptr<DpBackend> one = test::try_backend("scalar", 1), dp = test::try_backend("cpu-sse41", 4);
  ASSERT_TRUE(one && dp);
  const Aligned want = test::align_paf(*one, 1, ref, reads, "asm5");
  ASSERT_EQ(std::count(want.records.begin(), want.records.end(), '\n'), 4) << want.records;
  Counting counting(*dp);
  counting.linger = true;
  const Aligned got = test::align_paf(counting, 4, ref, reads, "asm5");
  EXPECT_EQ(got.records, want.records);
  EXPECT_EQ(got.stats.rounds, 0u);
  EXPECT_EQ(got.stats.inline_dp_tasks, want.stats.inline_dp_tasks);
  EXPECT_EQ(counting.shared_worker.load(), 0u) << "a worker number held by two threads at once";
}

// As many queries as threads, one far longer (a chromosome beside a plasmid): each query
// has a thread and its DP inline, and the long one is also seeded and chained on the
// threads of its share of the bases, where one thread each would leave the others idle
// while it is chained. Queries of even lengths keep one thread each. The records are
// those of one thread either way.
TEST(InlineDp, AQueryThatOutweighsTheOthersIsChainedOnTheirThreads) {
  struct Case {
    size_t a, b;
    int threads;
    uint64_t spread;  // queries seeded and chained on more than one thread
  };
  // 40 + 1 kb on two threads: the first query's share is 2 threads; 20 + 20 kb: 1 each.
  // 40 + 1 kb on three threads: fewer queries than threads, so no inline pass (the
  // shares, 3 and 1, then decide the chaining alone).
  for (const Case c : {Case{40000, 1000, 2, 1}, Case{20000, 20000, 2, 0}, Case{40000, 1000, 3, 1}}) {
    SCOPED_TRACE(testing::Message() << c.a << "+" << c.b << " on " << c.threads);
    test::TempDir dir;
    const std::string a = random_bases(c.a, 21), b = random_bases(c.b, 22);
    const std::string ref = dir.string() + "/ref.fa", reads = dir.string() + "/q.fa";
    ASSERT_TRUE(test::write_file(ref, ">a\n" + a + "\n>b\n" + b + "\n"));
    ASSERT_TRUE(test::write_file(reads, ">qa\n" + diverged(a) + "\n>qb\n" + diverged(b) + "\n"));
    const std::unique_ptr<DpBackend> one = test::try_backend("scalar", 1), dp = test::try_backend("scalar", c.threads);
    ASSERT_TRUE(one && dp);
    const Aligned want = test::align_paf(*one, 1, ref, reads, "asm5");
    ASSERT_EQ(std::count(want.records.begin(), want.records.end(), '\n'), 2) << want.records;
    EXPECT_EQ(want.stats.spread_queries, 0u);
    const Aligned got = test::align_paf(*dp, c.threads, ref, reads, "asm5");
    EXPECT_EQ(got.records, want.records);
    EXPECT_EQ(got.stats.spread_queries, c.spread);
    if (c.threads == 2) {  // as many queries as threads: one inline pass each
      EXPECT_EQ(got.stats.rounds, 0u);
      EXPECT_EQ(got.stats.inline_dp_tasks, want.stats.inline_dp_tasks);
    }
  }
}

// Two queries on three threads, one aligned side by side on its two (its regions even)
// and one through the rounds (a single region): the tasks computed inline are counted
// once, however many host steps the rounds take.
TEST(InlineDp, InlineTasksCountedOnceBesideRounds) {
  test::TempDir dir;
  const std::string a = random_bases(20000, 11), b = random_bases(24000, 12), c = random_bases(20000, 13);
  const std::string ref = dir.string() + "/ref.fa", reads = dir.string() + "/q.fa";
  ASSERT_TRUE(test::write_file(ref, ">a\n" + a + "\n>b\n" + b + "\n>c\n" + c + "\n"));
  ASSERT_TRUE(test::write_file(reads, ">q1\n" + diverged(a + b) + "\n>q2\n" + diverged(c) + "\n"));
  const std::unique_ptr<DpBackend> one = test::try_backend("scalar", 1), dp = test::try_backend("scalar", 3);
  ASSERT_TRUE(one && dp);
  const Aligned want = test::align_paf(*one, 1, ref, reads, "asm5");
  ASSERT_EQ(std::count(want.records.begin(), want.records.end(), '\n'), 3) << want.records;
  Counting counting(*dp);
  const Aligned got = test::align_paf(counting, 3, ref, reads, "asm5");
  EXPECT_EQ(got.records, want.records);
  EXPECT_GE(got.stats.rounds, 1u);
  EXPECT_GT(counting.calls.load(), 0u);
  EXPECT_EQ(got.stats.inline_dp_tasks, counting.calls.load());
  EXPECT_EQ(got.stats.spread_queries, 1u);  // q1 on its two threads; q2 on one
}

// A backend that computes gap fills several at a time (DpBackend::batches_tasks: the cpu
// backend) gets a group's reads in rounds where their gap fills are ones it batches
// (map-pb's), with the records of one pass per read; not with spliced alignment, and not
// for a query over 1 Mb.
TEST(InlineDp, BatchingBackendTakesReadsThroughRounds) {
  const std::unique_ptr<DpBackend> scalar = test::try_backend("scalar", 2);
  ASSERT_TRUE(scalar);
  EXPECT_FALSE(scalar->batches_tasks());
  const Aligned want = align(*scalar, 2);
  EXPECT_EQ(want.stats.rounds, 0u);
  // Two queries in one read batch and one group (as many as threads): one over 1 Mb and
  // one of 30 kb, or two of 30 kb.
  test::TempDir dir;
  const std::string ref = dir.string() + "/ref.fa", long_q = dir.string() + "/long.fa",
                    short_q = dir.string() + "/short.fa";
  const std::string a = random_bases(1'050'000, 21);
  ASSERT_TRUE(test::write_file(ref, ">a\n" + a + "\n"));
  ASSERT_TRUE(test::write_file(long_q, ">q\n" + diverged(a) + "\n>r\n" + diverged(a.substr(5000, 30000)) + "\n"));
  ASSERT_TRUE(test::write_file(short_q, ">q\n" + diverged(a.substr(90000, 30000)) + "\n>r\n" +
                                             diverged(a.substr(5000, 30000)) + "\n"));
  constexpr uint64_t kBatch = 4 << 20;
  size_t tried = 0;
  // (SSE4.1's batch kernel is no faster than its per-task one: that backend batches nothing.)
  if (const std::unique_ptr<DpBackend> sse = test::try_backend("cpu-sse41", 2)) {
    EXPECT_FALSE(sse->batches_tasks());
  }
  // The widest instruction set there is (the decision is the backend's batches_tasks(),
  // the same for both).
  for (const std::string name : {"cpu-avx512", "cpu-avx2"}) {
    SCOPED_TRACE(name);
    const std::unique_ptr<DpBackend> dp = test::try_backend(name, 2);
    if (!dp) continue;  // this processor lacks the instruction set
    if (tried++ > 0) break;
    EXPECT_TRUE(dp->batches_tasks());
    const Aligned got = align(*dp, 2);
    EXPECT_GE(got.stats.rounds, 1u);
    EXPECT_EQ(got.stats.inline_dp_tasks, 0u);
    EXPECT_EQ(got.records, want.records);
    struct Case {
      const char* preset;
      const std::string& reads;
      bool rounds;
    };
    for (const Case& c : {Case{"asm5", short_q, true}, Case{"splice", short_q, false}, Case{"asm5", long_q, false}}) {
      SCOPED_TRACE(std::string(c.preset) + (&c.reads == &long_q ? " with a query over 1 Mb" : ""));
      const Aligned one = test::align_paf(*scalar, 2, ref, c.reads, c.preset, kBatch);
      const Aligned two = test::align_paf(*dp, 2, ref, c.reads, c.preset, kBatch);
      EXPECT_EQ(two.records, one.records);
      EXPECT_EQ(one.stats.rounds, 0u);
      EXPECT_EQ(two.stats.rounds > 0, c.rounds);
      EXPECT_EQ(two.stats.inline_dp_tasks > 0, !c.rounds);
    }
  }
  if (tried == 0) GTEST_SKIP() << "this processor has neither AVX2 nor AVX-512 for the cpu backend's batches";
}

}  // namespace
}  // namespace agatha
