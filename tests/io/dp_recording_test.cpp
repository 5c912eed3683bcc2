// The recording backend (AGATHA_DP_RECORD): every task it computes, one-at-a-time calls
// from several threads and batches alike, is written once with its answer, and the file
// reads back as the tasks and the answers the backend it wraps gives.
#include "../../src/io/dp_recording.hpp"

#include <gtest/gtest.h>

#include <agatha/error.hpp>

#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "../../src/io/line_reader.hpp"
#include "../../src/io/task_file.hpp"
#include "support/dp.hpp"
#include "support/files.hpp"

namespace agatha::io {
namespace {

struct Owned {
  std::vector<uint8_t> q, t;
  DpTask task;
};

std::vector<Owned> random_tasks(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Owned> out(n);
  for (Owned& o : out) {
    const size_t lq = 1 + rng() % 120, lt = 1 + rng() % 120;
    for (size_t i = 0; i < lq; ++i) o.q.push_back(static_cast<uint8_t>(rng() % 4));
    o.t = o.q;
    o.t.resize(lt, 0);
    for (uint8_t& c : o.t)
      if (rng() % 10 == 0) c = static_cast<uint8_t>(rng() % 5);
    o.task.flag = rng() % 2 ? 8u : 194u;
    o.task.w = static_cast<int32_t>(rng() % 60);
    o.task.zdrop = 100, o.task.end_bonus = static_cast<int32_t>(rng() % 3);
  }
  for (Owned& o : out) o.task.query = o.q, o.task.target = o.t;
  return out;
}

TEST(RecordingBackend, WritesEveryTaskOnceWithItsAnswer) {
  std::unique_ptr<DpBackend> reference = test::try_backend("scalar");
  ASSERT_TRUE(reference);
  test::TempDir dir;
  const std::string path = dir.file("tasks.tsv");
  const std::vector<Owned> single = random_tasks(60, 1), batch = random_tasks(25, 2);
  {
    RecordingBackend rec(test::try_backend("scalar", 2), path);
    ASSERT_EQ(rec.inline_workers(), 2);  // the wrapped backend's
    std::vector<std::thread> threads;
    for (int w = 0; w < 2; ++w)
      threads.emplace_back([&, w] {
        for (size_t i = static_cast<size_t>(w); i < single.size(); i += 2) {
          DpResult r;
          rec.compute_inline(w, single[i].task, r);
        }
      });
    // (A batch only after them: run() uses the same workspaces as the inline calls.)
    for (std::thread& t : threads) t.join();
    std::vector<DpTask> tasks;
    for (const Owned& o : batch) tasks.push_back(o.task);
    std::vector<DpResult> results(tasks.size());
    rec.run(tasks, results);
    EXPECT_EQ(rec.recorded(), single.size() + batch.size());
    rec.close();
  }
  // Each line: a task of the ones given (once), its answer the reference's.
  std::multiset<std::string> expected;
  for (const auto* set : {&single, &batch})
    for (const Owned& o : *set) {
      std::vector<DpResult> one(1);
      reference->run(std::span<const DpTask>(&o.task, 1), one);
      expected.insert(format_task_line("", o.task, &one[0]));
    }
  LineReader in(path);
  std::set<std::string> ids;
  size_t lines = 0;
  for (std::string line; in.next(line); ++lines) {
    const TaskRecord rec = parse_task_line(line, path, in.line_number());
    ASSERT_TRUE(rec.has_answer);
    ids.insert(rec.id);
    const std::string without_id = line.substr(line.find('\t')) + "\n";
    const auto it = expected.find(without_id);
    ASSERT_NE(it, expected.end()) << line;
    expected.erase(it);
  }
  ASSERT_EQ(lines, single.size() + batch.size());
  EXPECT_TRUE(expected.empty());
  EXPECT_EQ(ids.size(), lines);  // ids 0 .. n-1, each once
  EXPECT_EQ(ids.count("0"), 1u);
  EXPECT_EQ(ids.count(std::to_string(lines - 1)), 1u);
}

TEST(RecordingBackend, UnclosedFileIsDropped) {
  test::TempDir dir;
  const std::string path = dir.file("tasks.tsv");
  {
    RecordingBackend rec(test::try_backend("scalar"), path);
    const std::vector<Owned> t = random_tasks(3, 3);
    DpResult r;
    rec.compute_inline(0, t[0].task, r);
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(RecordingBackend, UncreatableFileIsAnError) {
  EXPECT_THROW(RecordingBackend(test::try_backend("scalar"), "/nonexistent-dir/tasks.tsv"), Error);
}

}  // namespace
}  // namespace agatha::io
