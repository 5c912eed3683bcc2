// Golden vectors: every backend reproduces all answer columns (15-26) of every task,
// including the optional mte/mte_q.
// tests/data/golden_subset.tsv.gz (committed) always runs; the ../shared/golden files
// run when that directory is present (CI has it beside the checkout): every task on the
// SIMD backends, and on the slow ones (the scalar oracle, gpu-sim, gpu-emu) a sample
// drawn with a fixed seed (1 task in 8, 1 in 16 on gpu-sim; the same tasks on every run)
// unless AGATHA_GOLDEN_FULL=1. The differential tests compare those backends with the
// oracle on random tasks in every run; the full files are one command away:
//   AGATHA_GOLDEN_FULL=1 meson test -C build kernels
// tests/data/dp/*.golden.tsv.gz (committed: the sr preset, non-default and wide
// scorings, single-affine ksw_extz2 tasks; tests/data/dp/README.md) always run; on the
// GPU backends a fixed quarter of each (every fourth task) unless AGATHA_GOLDEN_FULL=1.
#include "support/dp.hpp"
#include "support/paths.hpp"

#include "../../src/io/line_reader.hpp"
#include "../../src/io/task_file.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace agatha {
namespace {

struct Case {
  std::string backend, file;
};

bool golden_full() {
  const char* full = std::getenv("AGATHA_GOLDEN_FULL");
  return full && std::string(full) == "1";
}

// Keeps task k (0-based line of its file) with probability 1/n, the same tasks on every
// run: a fixed-seed hash of k (splitmix64's finaliser), so that no period of the file's
// order (tasks of one read in a row, say) lines up with the sample.
bool sample_task(uint64_t k, uint64_t n) {
  if (n <= 1) return true;
  uint64_t z = k + 0x9e3779b97f4a7c15ULL * 31;  // seed 31
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return z % n == 0;
}

// How many tasks in one of the shared golden files the backend runs one of (1: all).
uint64_t shared_sample(const std::string& backend) {
  if (golden_full()) return 1;
  if (backend == "gpu-sim") return 16;
  if (backend == "scalar" || backend == "gpu-emu") return 8;
  return 1;
}

// Runs one file through one backend in batches; returns the number of tasks checked.
// Batches are large: task sizes span orders of magnitude, and a batch whose largest
// task is most of its work leaves the backend's other threads idle until it ends.
// With `sample` > 1 only the tasks that sample_task() keeps are run, else every
// `stride`-th.
size_t check_file(DpBackend& backend, const std::string& path, size_t stride = 1, uint64_t sample = 1) {
  constexpr size_t kBatch = 8192;
  io::LineReader in(path);
  std::string line;
  size_t n = 0, bad = 0;
  std::vector<io::TaskRecord> recs;
  auto flush = [&] {
    std::vector<DpTask> tasks;
    for (const auto& r : recs) tasks.push_back(r.task());
    std::vector<DpResult> res(tasks.size());
    backend.run(tasks, res);
    for (size_t i = 0; i < recs.size(); ++i) {
      const auto got = io::format_answer(res[i]);
      for (int k = 0; k < io::kTaskAnswerColumns; ++k) {
        if (got[k] == recs[i].answer[k]) continue;
        if (++bad <= 10)
          ADD_FAILURE() << path << " line " << recs[i].line << " (" << recs[i].id << ") column " << 15 + k
                        << ": expected " << recs[i].answer[k].substr(0, 80) << " got " << got[k].substr(0, 80);
      }
    }
    n += recs.size();
    recs.clear();
  };
  for (size_t k = 0; in.next(line); ++k) {
    if (k % stride != 0 || !sample_task(k, sample)) continue;
    recs.push_back(io::parse_task_line(line, path, in.line_number()));
    EXPECT_TRUE(recs.back().has_answer) << path << " line " << in.line_number();
    if (recs.size() == kBatch) flush();
  }
  flush();
  EXPECT_EQ(bad, 0u) << path << ": " << bad << " differing fields";
  return n;
}

class Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(Golden, CommittedSubset) {
  auto backend = test::try_backend(GetParam(), 2);
  if (!backend) GTEST_SKIP() << "this processor cannot run backend " << GetParam();
  EXPECT_GT(check_file(*backend, test::source_path("tests/data/golden_subset.tsv.gz")), 3000u);
}

TEST_P(Golden, SharedGoldenFiles) {
  const std::string dir = test::shared_golden_dir();
  if (dir.empty()) GTEST_SKIP() << "../shared/golden not present";
  auto backend = test::try_backend(GetParam(), 2);
  if (!backend) GTEST_SKIP() << "this processor cannot run backend " << GetParam();
  size_t files = 0;
  for (const char* name : {"mt", "pb", "ontul", "syn"}) {
    const std::string path = dir + "/" + name + ".golden.tsv.gz";
    if (!std::filesystem::exists(path)) continue;
    ++files;
    EXPECT_GT(check_file(*backend, path, 1, shared_sample(GetParam())), 0u) << path;
  }
  EXPECT_EQ(files, 4u) << "expected the four golden files in " << dir;
}

// Tasks recorded from minimap2 2.24's own kernels (scripts/record-dp-golden.sh): every
// DP call kind of the sr preset, long-read presets under non-default scorings, single-
// affine (ksw_extz2) tasks, scorings past the fast kernels' 8-bit range (which the
// backends hand to the scalar oracle), random tasks of both kernels, the map-hifi
// preset's own tasks.
TEST_P(Golden, RecordedScorings) {
  auto backend = test::try_backend(GetParam(), 2);
  if (!backend) GTEST_SKIP() << "this processor cannot run backend " << GetParam();
  const bool sample = GetParam().rfind("gpu", 0) == 0 && !golden_full();
  const size_t stride = sample ? 4 : 1;
  const std::pair<const char*, size_t> files[] = {
      {"sr", 5000}, {"scoring", 1966}, {"wide", 1600}, {"syn", 2500}, {"hifi", 761}};
  for (const auto& [name, n] : files) {
    const std::string path = test::source_path(std::string("tests/data/dp/") + name + ".golden.tsv.gz");
    EXPECT_EQ(check_file(*backend, path, stride), (n + stride - 1) / stride) << path;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, Golden, ::testing::ValuesIn(test::all_backends()), [](const auto& info) {
  std::string n = info.param;
  for (char& c : n) c = c == '-' ? '_' : c;
  return n;
});

}  // namespace
}  // namespace agatha
