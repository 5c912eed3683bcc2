// The read pipeline with a DP backend on a device (the CUDA backend, here on its host
// emulation): one group's DP round runs while the threads seed, chain and replay the
// next group, and the records are the same bytes as with the scalar backend, one group
// at a time.

#include <agatha/dp.hpp>

#include "../../kernels/gpu/cuda_backend.hpp"
#include "../../src/pipeline/batch_aligner.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "support/align_run.hpp"
#include "support/dp.hpp"

namespace agatha {
namespace {

using pipeline::PipelineStep;

// The pipeline's steps in the order they were reported.
struct StepLog {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::pair<PipelineStep, uint64_t>> steps;

  void add(PipelineStep s, uint64_t group) {
    {
      const std::lock_guard lock(mu);
      steps.emplace_back(s, group);
    }
    cv.notify_all();
  }
  // Whether host work of a group other than that of the latest DP round ended after
  // that round began.
  bool host_ended_during_latest_round() const {
    size_t at = steps.size();
    for (size_t k = steps.size(); k-- > 0;)
      if (steps[k].first == PipelineStep::kDpBegin) {
        at = k;
        break;
      }
    if (at == steps.size()) return false;
    for (size_t k = at + 1; k < steps.size(); ++k)
      if (steps[k].first == PipelineStep::kHostEnd && steps[k].second != steps[at].second) return true;
    return false;
  }
};

// The emulated CUDA backend, whose first round does not start computing until the
// pipeline has done host work on another group (or 120 s have passed): a pipeline that
// waited for the round before working on the next group would never let it start.
class WatchedDevice final : public DpBackend {
 public:
  explicit WatchedDevice(StepLog& log) : inner_(gpu::emu::make_backend()), log_(log) {}
  std::string name() const override { return inner_->name(); }
  bool runs_on_device() const override { return inner_->runs_on_device(); }
  void run(std::span<const DpTask> tasks, std::span<DpResult> results) override {
    if (calls_++ == 0) {
      std::unique_lock lock(log_.mu);
      saw_host_work_ = log_.cv.wait_for(lock, std::chrono::seconds(120),
                                        [&] { return log_.host_ended_during_latest_round(); });
    }
    inner_->run(tasks, results);
  }
  bool saw_host_work() const { return saw_host_work_; }

 private:
  std::unique_ptr<DpBackend> inner_;
  StepLog& log_;
  int calls_ = 0;
  bool saw_host_work_ = false;
};

using Aligned = test::AlignRun;

// The 12 reads of tests/support/align_run.hpp, every read a group of its own, on two threads.
Aligned align(DpBackend& dp, const pipeline::StepObserver& observe = {}) { return test::align_mt_sub(dp, 2, observe); }

// Per group, its steps alternate host, DP, host ... and end with host work (the
// records); at most one DP round is in flight at a time.
void expect_well_formed(const std::vector<std::pair<PipelineStep, uint64_t>>& steps) {
  std::map<uint64_t, PipelineStep> last;
  int rounds_in_flight = 0;
  for (const auto& [s, g] : steps) {
    const auto it = last.find(g);
    const PipelineStep before = it == last.end() ? PipelineStep::kDpEnd : it->second;
    switch (s) {
      case PipelineStep::kHostBegin: EXPECT_EQ(before, PipelineStep::kDpEnd) << "group " << g; break;
      case PipelineStep::kHostEnd: EXPECT_EQ(before, PipelineStep::kHostBegin) << "group " << g; break;
      case PipelineStep::kDpBegin:
        EXPECT_EQ(before, PipelineStep::kHostEnd) << "group " << g;
        EXPECT_EQ(++rounds_in_flight, 1);
        break;
      case PipelineStep::kDpEnd:
        EXPECT_EQ(before, PipelineStep::kDpBegin) << "group " << g;
        --rounds_in_flight;
        break;
    }
    last[g] = s;
  }
  for (const auto& [g, s] : last) EXPECT_EQ(s, PipelineStep::kHostEnd) << "group " << g << " unfinished";
}

TEST(DeviceOverlap, AGroupsRoundRunsBesideTheNextGroupsHostWorkWithTheSameRecords) {
  // One workspace for two pipeline threads: the scalar backend runs in rounds, one group
  // at a time (with two it would align each read in one pass, tests/pipeline/inline_dp_test.cpp).
  const std::unique_ptr<DpBackend> scalar = test::try_backend("scalar");
  ASSERT_LT(scalar->inline_workers(), 2);
  ASSERT_TRUE(scalar);
  ASSERT_FALSE(scalar->runs_on_device());
  StepLog seq_log;
  const Aligned want = align(*scalar, [&](PipelineStep s, uint64_t g) { seq_log.add(s, g); });
  ASSERT_GE(want.stats.rounds, 6u) << "every read its own group, most of them aligned in rounds";
  EXPECT_EQ(want.stats.overlapped_rounds, 0u);
  expect_well_formed(seq_log.steps);
  // One group at a time: nothing begins while a round is in flight.
  for (size_t k = 0; k + 1 < seq_log.steps.size(); ++k) {
    if (seq_log.steps[k].first == PipelineStep::kDpBegin) {
      EXPECT_EQ(seq_log.steps[k + 1].first, PipelineStep::kDpEnd);
    }
  }

  StepLog log;
  WatchedDevice dev(log);
  ASSERT_TRUE(dev.runs_on_device());
  const Aligned got = align(dev, [&](PipelineStep s, uint64_t g) { log.add(s, g); });
  EXPECT_TRUE(dev.saw_host_work()) << "the first round waited 120 s for host work on another group";
  EXPECT_EQ(got.records, want.records);
  EXPECT_EQ(got.stats.rounds, want.stats.rounds);
  EXPECT_EQ(got.stats.dp_tasks, want.stats.dp_tasks);
  EXPECT_GT(got.stats.overlapped_rounds, 0u);
  expect_well_formed(log.steps);
  // Host work that began inside another group's round.
  size_t inside = 0;
  for (size_t b = 0; b < log.steps.size(); ++b) {
    if (log.steps[b].first != PipelineStep::kDpBegin) continue;
    const uint64_t g = log.steps[b].second;
    for (size_t k = b + 1; k < log.steps.size() && log.steps[k].first != PipelineStep::kDpEnd; ++k)
      inside += log.steps[k].first == PipelineStep::kHostBegin && log.steps[k].second != g;
  }
  EXPECT_GT(inside, 0u);
}

// The plain emulated backend overlaps too, and the records still match.
TEST(DeviceOverlap, TheEmulatedCudaBackendRunsOnADevice) {
  const std::unique_ptr<DpBackend> scalar = test::try_backend("scalar");
  const std::unique_ptr<DpBackend> emu = gpu::emu::make_backend();
  ASSERT_TRUE(emu->runs_on_device());
  const Aligned want = align(*scalar), got = align(*emu);
  EXPECT_EQ(got.records, want.records);
  EXPECT_EQ(got.stats.rounds, want.stats.rounds);
  EXPECT_GT(got.stats.overlapped_rounds, 0u);
}

}  // namespace
}  // namespace agatha
