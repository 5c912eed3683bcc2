// A long task on the CUDA backend's block path, through the emulation: a 100 kb x 100 kb
// task with a 20,000-cell band is bucketed to a thread block of its own (several warps,
// tile_dp_block_kernel) rather than one warp, and reproduces the scalar oracle — every
// result field and the CIGAR. The oracle runs on another thread meanwhile.

#include <agatha/dp.hpp>

#include "../../kernels/gpu/cuda_backend.hpp"
#include "../../kernels/gpu/emu/emu_control.hpp"
#include "../../kernels/gpu/host_plan.hpp"
#include "../../src/io/task_file.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <random>

#include "support/paths.hpp"

namespace agatha {
namespace {

// A target of n random bases and a query copied from it with 1% substitutions and
// 0.6% short insertions and deletions, cut to n bases.
DpTask long_task(size_t n, int32_t w, uint32_t flag, std::vector<uint8_t>& q, std::vector<uint8_t>& t) {
  std::mt19937_64 rng(2024);
  t.resize(n);
  for (auto& c : t) c = static_cast<uint8_t>(rng() % 4);
  q.clear();
  for (size_t i = 0; i < n && q.size() < n;) {
    const uint64_t x = rng() % 1000;
    if (x < 10) {
      q.push_back(static_cast<uint8_t>((t[i] + 1 + rng() % 3) % 4)), ++i;
    } else if (x < 13) {
      i += 1 + rng() % 5;
    } else if (x < 16) {
      for (uint64_t k = 1 + rng() % 5; k > 0; --k) q.push_back(static_cast<uint8_t>(rng() % 4));
    } else {
      q.push_back(t[i++]);
    }
  }
  q.resize(std::min(q.size(), n));
  DpTask task;
  task.query = q, task.target = t;
  task.scoring = DpScoring{2, 4, 1, 4, 2, 24, 1};  // map-ont
  task.w = w, task.zdrop = 400, task.end_bonus = 0, task.flag = flag;
  return task;
}

TEST(LongTask, HundredKbWithA20000BandOnABlockMatchesTheOracle) {
  std::vector<uint8_t> q, t;
  const DpTask task = long_task(100000, 20000, 0, q, t);
  const gpu::TaskParams p = gpu::make_params(task);
  ASSERT_TRUE(gpu::block_task(p)) << "the bucketing sends it to a thread block";
  std::vector<int64_t> work{gpu::tile_cells(p)};
  std::vector<char> is_block{1};
  std::vector<uint32_t> blocks;
  EXPECT_TRUE(gpu::plan_warps(work, gpu::kTilePolicy.slots(), &blocks, &is_block).empty());
  EXPECT_EQ(blocks, std::vector<uint32_t>{0});

  const auto t0 = std::chrono::steady_clock::now();
  auto oracle = std::async(std::launch::async, [&] {
    DpBackendOptions opt;
    opt.backend = "scalar";
    std::vector<DpResult> r(1);
    make_dp_backend(opt)->run(std::span(&task, 1), r);
    return r[0];
  });
  agatha_emu::reset();
  agatha_emu::set_device_memory(size_t(8) << 30);  // the task's tile records take 2.7 GB
  std::vector<DpResult> got(1);
  gpu::emu::make_backend()->run(std::span(&task, 1), got);
  const double emu_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const DpResult want = oracle.get();
  agatha_emu::reset();
  EXPECT_GT(want.cells, uint64_t{3'500'000'000}) << "the whole band of every anti-diagonal";
  EXPECT_FALSE(want.zdropped);
  EXPECT_GT(want.cigar.size(), 1000u);
  EXPECT_EQ(io::format_answer(got[0]), io::format_answer(want));
  EXPECT_EQ(got[0].cells, want.cells);
  RecordProperty("emulated_seconds", std::to_string(emu_s));
}

}  // namespace
}  // namespace agatha
