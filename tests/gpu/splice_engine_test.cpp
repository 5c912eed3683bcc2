// The GPU engine's splice kernel (ksw_exts2's rules on tiles): the engines themselves —
// gpu-sim and the CUDA kernel's source under the host emulation, without the wrapper
// that hands the scalar oracle's tasks to the CPU, so nothing here can be computed
// anywhere else — against every committed splice golden task of both releases and
// against the scalar oracle on seeded random tasks (every flag, sizes that leave partial
// tiles, junction arrays, scorings whose long gap is cheap or dear); that the backends
// `agatha` builds route no splice task to the CPU; and that the schedule does not
// change a splice answer.
#include "../../kernels/dp_kernels.hpp"
#include "../../kernels/gpu/cuda_backend.hpp"
#include "../../kernels/gpu/emu/emu_control.hpp"
#include "../../kernels/gpu/gpu_sim.hpp"
#include "../../kernels/gpu/host_plan.hpp"
#include "../../src/io/line_reader.hpp"
#include "../../src/io/task_file.hpp"

#include <gtest/gtest.h>

#include <random>

#include "support/paths.hpp"

namespace agatha::gpu {
namespace {

using namespace dp_flag;

// The native splice tasks of a golden file (those no backend hands to the oracle).
std::vector<io::TaskRecord> native_splice_records(const std::string& path, size_t* all = nullptr) {
  io::LineReader in(path);
  std::string line;
  std::vector<io::TaskRecord> recs;
  size_t n = 0;
  while (in.next(line)) {
    io::TaskRecord rec = io::parse_task_line(line, path, in.line_number());
    ++n;
    EXPECT_TRUE(rec.has_answer && (rec.flag & kSplice)) << path << " line " << rec.line;
    if (!dp_task_on_oracle(rec.task())) recs.push_back(std::move(rec));
  }
  if (all) *all = n;
  return recs;
}

// Mismatching answer columns of the records' tasks on `backend`.
size_t check_records(DpBackend& backend, const std::vector<io::TaskRecord>& recs, const std::string& what) {
  std::vector<DpTask> tasks;
  for (const auto& rec : recs) tasks.push_back(rec.task());
  std::vector<DpResult> res(tasks.size());
  backend.run(tasks, res);
  size_t bad = 0;
  for (size_t i = 0; i < recs.size(); ++i) {
    const auto got = io::format_answer(res[i]);
    for (int k = 0; k < io::kTaskAnswerColumns; ++k) {
      if (got[k] == recs[i].answer[k]) continue;
      if (++bad <= 5)
        ADD_FAILURE() << what << " line " << recs[i].line << " (" << recs[i].id << ") column " << 15 + k
                      << ": expected " << recs[i].answer[k].substr(0, 80) << " got " << got[k].substr(0, 80);
    }
  }
  return bad;
}

constexpr const char* kGoldenFiles[] = {"ont",       "hifi",      "drna",     "edge",     "wide",
                                        "r231-ont", "r231-hifi", "r231-drna", "r231-edge"};

TEST(GpuSplice, EnginesReproduceEveryGoldenSpliceTask) {
  agatha_emu::set_host_threads(2);
  const auto sim = make_gpu_sim_backend(2);
  const auto emu = emu::make_backend();
  size_t native = 0, total = 0;
  for (const char* name : kGoldenFiles) {
    const std::string path = test::source_path(std::string("tests/data/splice/") + name + ".golden.tsv.gz");
    size_t n = 0;
    const auto recs = native_splice_records(path, &n);
    native += recs.size(), total += n;
    EXPECT_EQ(check_records(*sim, recs, std::string("gpu-sim ") + name), 0u) << name;
    EXPECT_EQ(check_records(*emu, recs, std::string("gpu-emu ") + name), 0u) << name;
  }
  // Every file but "wide" (scorings outside the 8-bit range) is native throughout.
  EXPECT_GT(native, 7000u);
  EXPECT_GT(total, native);
}

// The backends `agatha dp` and `agatha align` build: splice tasks stay on the GPU
// backend (no note of tasks handed to the CPU); a task outside the engine's range goes
// to the scalar kernel with a note.
TEST(GpuSplice, BackendsHandOnlyOracleTasksToTheCpu) {
  const auto recs = native_splice_records(test::source_path("tests/data/splice/r231-drna.golden.tsv.gz"));
  ASSERT_GT(recs.size(), 200u);
  for (const char* name : {"gpu-sim", "gpu-emu"}) {
    std::vector<std::string> notes;
    DpBackendOptions opt;
    opt.backend = name, opt.threads = 2;
    opt.log = [&notes](const std::string& s) { notes.push_back(s); };
    const auto backend = make_dp_backend(opt);
    EXPECT_EQ(check_records(*backend, recs, name), 0u);
    EXPECT_TRUE(notes.empty()) << name << ": " << (notes.empty() ? "" : notes[0]);
    // A generic scoring (a transition score) is the oracle's.
    DpTask t = recs[0].task();
    t.scoring.transition = 1;
    ASSERT_TRUE(dp_task_on_oracle(t));
    std::vector<DpResult> r(1);
    backend->run(std::span(&t, 1), r);
    ASSERT_EQ(notes.size(), 1u) << name;
    EXPECT_NE(notes[0].find("run on the scalar kernels"), std::string::npos) << notes[0];
  }
}

// Seeded random splice tasks: short sequences with introns (GT..AG, CT..AC, other
// motifs), errors and N; every flag combination ksw_exts2 takes; junction arrays;
// scorings of minimap2's splice presets and others whose long gap is cheap. The engines
// against the scalar oracle, answer for answer.
struct RandomSpliceTasks {
  std::vector<std::vector<uint8_t>> seqs;
  std::vector<DpTask> tasks;
};

RandomSpliceTasks random_splice_tasks(uint64_t seed, int n) {
  std::mt19937_64 rng(seed);
  RandomSpliceTasks out;
  out.seqs.reserve(3 * static_cast<size_t>(n));
  auto base = [&rng] { return static_cast<uint8_t>(rng() % 4); };
  for (int i = 0; i < n; ++i) {
    // target: exon, intron with a motif pair, exon (sometimes a second intron)
    std::vector<uint8_t> t, q, j;
    const int exons = 1 + static_cast<int>(rng() % 3);
    for (int x = 0; x < exons; ++x) {
      const size_t len = 1 + rng() % 60;
      const size_t at = t.size();
      for (size_t k = 0; k < len; ++k) t.push_back(base());
      for (size_t k = at; k < t.size(); ++k)
        if (rng() % 12) q.push_back(rng() % 25 ? t[k] : static_cast<uint8_t>(rng() % 5));
      if (rng() % 9 == 0) q.push_back(base());
      if (x + 1 < exons) {
        static const uint8_t kMotifs[][4] = {{2, 3, 0, 2}, {1, 3, 0, 1}, {2, 1, 0, 2}, {0, 3, 0, 1}, {1, 1, 3, 3}};
        const uint8_t* m = kMotifs[rng() % 5];
        const size_t ilen = 4 + rng() % 120;
        t.push_back(m[0]), t.push_back(m[1]);
        for (size_t k = 4; k < ilen; ++k) t.push_back(base());
        t.push_back(m[2]), t.push_back(m[3]);
      }
    }
    if (q.empty()) q.push_back(base());
    if (rng() % 4 == 0)
      for (uint8_t& c : t)
        if (rng() % 200 == 0) c = 4;
    if (rng() % 3 == 0) {
      j.assign(t.size(), 0);
      for (uint8_t& c : j)
        if (rng() % 15 == 0) c = static_cast<uint8_t>(1u << (rng() % 4));
    }
    out.seqs.push_back(std::move(q));
    out.seqs.push_back(std::move(t));
    out.seqs.push_back(std::move(j));
    const auto& qs = out.seqs[out.seqs.size() - 3];
    const auto& ts = out.seqs[out.seqs.size() - 2];
    const auto& js = out.seqs.back();
    DpTask task;
    task.query = qs, task.target = ts, task.junc = js;
    uint32_t flag = kSplice;
    if (rng() % 2) flag |= kRight;
    if (rng() % 3 == 0) flag |= kApproxMax | (rng() % 2 ? kApproxDrop : 0);
    if (rng() % 2) flag |= kExtzOnly;
    if (rng() % 3 == 0) flag |= kRevCigar;
    if (rng() % 5 == 0) flag |= kScoreOnly;
    if (rng() % 2) flag |= kMteQCell;
    const uint32_t strand = rng() % 4;  // none, forward, reverse, both
    if (strand & 1) flag |= kSpliceFor;
    if (strand & 2) flag |= kSpliceRev;
    if (rng() % 2) flag |= kSpliceFlank;
    if (rng() % 4 == 0) flag |= kSpliceCmplx;
    task.flag = flag;
    static const DpScoring kScorings[] = {{1, 2, 1, 2, 1, 32, 0}, {1, 2, 1, 2, 1, 8, 0}, {2, 4, 1, 4, 2, 24, 0},
                                          {3, 5, 0, 5, 2, 40, 0}, {1, 1, 1, 1, 1, 3, 0}};
    task.scoring = kScorings[rng() % 5];
    task.noncan = static_cast<int32_t>(rng() % 12);
    task.junc_bonus = static_cast<int32_t>(rng() % 10);
    task.zdrop = rng() % 3 == 0 ? -1 : static_cast<int32_t>(5 + rng() % 200);
    task.end_bonus = rng() % 3 == 0 ? static_cast<int32_t>(rng() % 20) : 0;
    EXPECT_FALSE(dp_task_on_oracle(task));
    out.tasks.push_back(task);
  }
  return out;
}

TEST(GpuSplice, RandomTasksEqualTheScalarOracle) {
  const RandomSpliceTasks rt = random_splice_tasks(2024, 1500);
  std::vector<DpResult> want(rt.tasks.size());
  kernels::Workspace ws;
  for (size_t i = 0; i < rt.tasks.size(); ++i) kernels::exts2_scalar(rt.tasks[i], want[i], ws);
  agatha_emu::set_host_threads(2);
  const std::pair<const char*, std::unique_ptr<DpBackend>> engines[] = {{"gpu-sim", make_gpu_sim_backend(2)},
                                                                         {"gpu-emu", emu::make_backend()}};
  for (const auto& [name, engine] : engines) {
    std::vector<DpResult> got(rt.tasks.size());
    engine->run(rt.tasks, got);
    size_t bad = 0;
    for (size_t i = 0; i < rt.tasks.size(); ++i) {
      if (io::format_answer(got[i]) == io::format_answer(want[i]) && got[i].cells == want[i].cells) continue;
      if (++bad <= 5) {
        const auto w = io::format_answer(want[i]), g = io::format_answer(got[i]);
        std::string diff;
        for (int k = 0; k < io::kTaskAnswerColumns; ++k)
          if (w[k] != g[k]) diff += " column " + std::to_string(15 + k) + ": " + w[k] + " vs " + g[k];
        ADD_FAILURE() << name << " task " << i << " flag " << rt.tasks[i].flag << " qlen " << rt.tasks[i].query.size()
                      << " tlen " << rt.tasks[i].target.size() << diff;
      }
    }
    EXPECT_EQ(bad, 0u) << name;
  }
}

// Results never depend on the slice length or how lanes are grouped, splice tasks too.
TEST(GpuSplice, ScheduleDoesNotChangeResults) {
  const RandomSpliceTasks rt = random_splice_tasks(77, 300);
  auto run = [&](Schedule s) {
    std::vector<DpResult> r(rt.tasks.size());
    make_gpu_sim_backend(1, s)->run(rt.tasks, r);
    return r;
  };
  const auto base = run(Schedule{});
  for (Schedule s : {Schedule{1, 8, 32}, Schedule{5, 4, 8}, Schedule{2, 1, 3}, Schedule{7, 32, 32}}) {
    const auto other = run(s);
    for (size_t i = 0; i < rt.tasks.size(); ++i) {
      ASSERT_EQ(io::format_answer(base[i]), io::format_answer(other[i]))
          << "task " << i << " slice " << s.slice << " subwarp " << s.subwarp;
      ASSERT_EQ(base[i].cells, other[i].cells);
    }
  }
}

// A splice task's parameters put every matrix cell in the band and give the shared rules
// ksw_exts2's constants (TaskParams::splice).
TEST(GpuSplice, ParametersCoverTheWholeMatrix) {
  std::vector<uint8_t> q(37, 1), t(301, 2);
  DpTask task;
  task.query = q, task.target = t, task.flag = kSplice | kSpliceFor;
  task.scoring = {1, 2, 1, 2, 1, 32, 0};
  const TaskParams p = make_params(task);
  ASSERT_TRUE(p.active);
  EXPECT_TRUE(p.splice);
  EXPECT_EQ(p.e2, 0);
  EXPECT_EQ(p.qe2, 32);
  for (int32_t r = 0; r < p.qlen + p.tlen - 1; ++r) {
    const Range g = range_of(p, r);
    ASSERT_EQ(g.st0, std::max(0, r - p.qlen + 1)) << r;
    ASSERT_EQ(g.en0, std::min(p.tlen - 1, r)) << r;
  }
  const TileLayout l = make_layout(p);
  for (int32_t J = 0; J < l.n_j; ++J) EXPECT_EQ(row_t_hi(l, J) - row_t_lo(l, J) + 1, l.n_t) << J;
  // q2 <= q + e: ksw_exts2 returns its reset result without a DP
  task.scoring.q2 = 3;
  EXPECT_FALSE(make_params(task).active);
}

}  // namespace
}  // namespace agatha::gpu
