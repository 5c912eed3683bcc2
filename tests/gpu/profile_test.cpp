// The task-mix profile (TileProfile): the CUDA kernel itself, on the host emulation,
// takes exactly the paths gpu-sim counts for it — tile by tile, the fast path's pairs,
// single tiles, edge tiles and u, v stores, the general path by reason, the finalized
// anti-diagonals and the traceback's tiles — on golden tasks of every kind.
#include "../../kernels/gpu/cuda_backend.hpp"
#include "../../kernels/gpu/emu/emu_control.hpp"
#include "../../kernels/gpu/gpu_sim.hpp"
#include "../../src/io/line_reader.hpp"
#include "../../src/io/task_file.hpp"

#include <gtest/gtest.h>

#include "support/paths.hpp"

namespace agatha::gpu {
namespace {

std::vector<io::TaskRecord> native_records(const std::string& file, size_t limit) {
  const std::string path = test::source_path(file);
  io::LineReader in(path);
  std::string line;
  std::vector<io::TaskRecord> recs;
  while (recs.size() < limit && in.next(line)) {
    io::TaskRecord r = io::parse_task_line(line, path, in.line_number());
    if (!dp_task_on_oracle(r.task())) recs.push_back(std::move(r));
  }
  return recs;
}

TEST(GpuProfile, EmulatedKernelTakesThePathsGpuSimCounts) {
  std::vector<io::TaskRecord> recs;
  for (const auto& [file, n] : {std::pair<const char*, size_t>{"tests/data/golden_subset.tsv.gz", 1500},
                                {"tests/data/dp/hifi.golden.tsv.gz", 300},
                                {"tests/data/splice/drna.golden.tsv.gz", 200},
                                {"tests/data/splice/r231-edge.golden.tsv.gz", 400}}) {
    auto part = native_records(file, n);
    ASSERT_GT(part.size(), n / 2) << file;
    for (auto& r : part) recs.push_back(std::move(r));
  }
  std::vector<DpTask> tasks;
  for (const auto& r : recs) tasks.push_back(r.task());

  TileProfile sim;
  std::vector<DpResult> res_sim(tasks.size()), res_emu(tasks.size());
  make_gpu_sim_backend(2, Schedule{}, &sim)->run(tasks, res_sim);
  TileProfile emu;
  agatha_emu::set_host_threads(2);
  emu::set_profile(&emu);
  emu::make_backend()->run(tasks, res_emu);
  emu::set_profile(nullptr);

  for (size_t i = 0; i < tasks.size(); ++i) {
    ASSERT_EQ(io::format_answer(res_sim[i]), recs[i].answer) << "gpu-sim, line " << recs[i].line;
    ASSERT_EQ(io::format_answer(res_emu[i]), recs[i].answer) << "gpu-emu, line " << recs[i].line;
  }
  for (int k = 0; k < TileProfile::kKinds; ++k) {
    SCOPED_TRACE(TileProfile::kKindName[k]);
    const TileProfile::Counts &a = sim.kind[k], &b = emu.kind[k];
    EXPECT_GT(a.tasks, 10u);
    EXPECT_EQ(a.tasks, b.tasks);
    EXPECT_EQ(a.cells, b.cells);
    EXPECT_GT(a.fast_pairs, 0u);
    EXPECT_EQ(a.fast_pairs, b.fast_pairs);
    EXPECT_EQ(a.fast_singles, b.fast_singles);
    EXPECT_EQ(a.fast_edge, b.fast_edge);
    EXPECT_EQ(a.fast_keep_uv, b.fast_keep_uv);
    EXPECT_EQ(a.general_far, b.general_far);
    EXPECT_EQ(a.general_task_edge, b.general_task_edge);
    EXPECT_EQ(a.general_band_edge, b.general_band_edge);
    EXPECT_EQ(a.anti_diagonals, b.anti_diagonals);
    EXPECT_EQ(a.traceback_tiles, b.traceback_tiles);
    EXPECT_EQ(a.traceback_fast_tiles, b.traceback_fast_tiles);
  }
}

}  // namespace
}  // namespace agatha::gpu
