// tests/kernels/dp_batch_test.cpp — the batch kernels (kernels/dp_batch_simd.cpp): which
// tasks they take (batch_task, on any processor), that each instruction set's batch
// kernel answers every task exactly as the scalar oracle does, whatever the mix of
// sizes in a batch, and that the cpu backend's answers do not depend on batching.
#include "../../kernels/dp_common.hpp"
#include "../../kernels/dp_kernels.hpp"
#include "support/dp.hpp"

#include "../../src/io/task_file.hpp"

#include <agatha/dp.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace agatha {
namespace {

using kernels::batch_task;

struct Owned {
  std::vector<uint8_t> q, t;
  DpTask task;
};

DpTask gap_fill(const std::vector<uint8_t>& q, const std::vector<uint8_t>& t) {
  DpTask task;
  task.query = q, task.target = t;
  task.scoring = {2, 4, 1, 4, 2, 24, 1};
  task.flag = dp_flag::kApproxMax;
  task.w = -1;
  task.zdrop = 400;
  return task;
}

TEST(BatchTask, TakesFullBandApproximateGapFillsOnly) {
  const std::vector<uint8_t> q(100, 1), t(120, 2);
  uint64_t key = 0, other = 0;
  DpTask task = gap_fill(q, t);
  EXPECT_TRUE(batch_task(task, key));
  // Flags: reversed CIGAR and the 2.31 mte_q rule change nothing it computes; anything
  // else (score only, right-aligned gaps, Z-drop on the path, extension, exact maxima,
  // single affine, splice) is not a full-band gap fill.
  for (uint32_t ok : {dp_flag::kRevCigar, dp_flag::kMteQCell}) {
    task.flag = dp_flag::kApproxMax | ok;
    EXPECT_TRUE(batch_task(task, other)) << ok;
    EXPECT_EQ(other, key);
  }
  for (uint32_t bad : {dp_flag::kScoreOnly, dp_flag::kRight, dp_flag::kApproxDrop, dp_flag::kExtzOnly,
                       dp_flag::kSingleAffine, dp_flag::kSplice}) {
    task.flag = dp_flag::kApproxMax | bad;
    EXPECT_FALSE(batch_task(task, other)) << bad;
  }
  task.flag = 0;
  EXPECT_FALSE(batch_task(task, other));
  task.flag = dp_flag::kApproxMax;
  // The band must hold every cell: |i - j| <= w for i < 120, j < 100 needs w >= 119.
  task.w = 119;
  EXPECT_TRUE(batch_task(task, other));
  task.w = 118;
  EXPECT_FALSE(batch_task(task, other));
  task.w = -1;
  // Lengths: 1 to kBatchMaxLen on each side.
  const std::vector<uint8_t> one(1, 0), longest(kernels::kBatchMaxLen, 3), too_long(kernels::kBatchMaxLen + 1, 3), none;
  for (const auto* s : {&one, &longest}) {
    task.query = *s;
    EXPECT_TRUE(batch_task(task, other)) << s->size();
  }
  for (const auto* s : {&too_long, &none}) {
    task.query = *s;
    EXPECT_FALSE(batch_task(task, other)) << s->size();
  }
  task.query = q;
  // Scorings: another scheme is another key; the pieces given in the other order are the
  // same scheme to the kernel (only the first anti-diagonal's offset differs, per task);
  // a matrix with transitions, or one outside the 8-bit kernels' range, is not taken.
  task.scoring = {1, 9, 1, 16, 2, 41, 1};
  EXPECT_TRUE(batch_task(task, other));
  EXPECT_NE(other, key);
  task.scoring = {2, 4, 1, 24, 1, 4, 2};
  EXPECT_TRUE(batch_task(task, other));
  EXPECT_EQ(other, key);
  task.scoring = {2, 4, 1, 4, 2, 24, 1, 1};
  EXPECT_FALSE(batch_task(task, other));
  task.scoring = {100, 200, 1, 30, 5, 60, 1};
  ASSERT_TRUE(dp_task_on_oracle(task));
  EXPECT_FALSE(batch_task(task, other));
}

// Tasks batch_task takes: gap fills of 1 to kBatchMaxLen bases a side, related or not,
// with N runs and tandem repeats, under several scorings (the widest 8-bit one too).
class GapFills {
 public:
  explicit GapFills(uint64_t seed) : rng_(seed) {}
  Owned next(const DpScoring& scoring) {
    Owned o;
    const int len = pick(10) == 0  ? 1 + pick(8)
                    : pick(6) == 0 ? 200 + pick(kernels::kBatchMaxLen - 199)
                                   : 20 + pick(250);
    o.t = seq(len);
    o.q = pick(8) == 0 ? seq(1 + pick(kernels::kBatchMaxLen)) : mutate(o.t);
    if (o.q.empty()) o.q.push_back(0);
    if (pick(4) == 0) {  // in one side, or where both have one (N against N scores as ambiguous)
      const int side = pick(3);
      const size_t at = static_cast<size_t>(pick(static_cast<int>(std::min(o.q.size(), o.t.size()))));
      const size_t len = 1 + static_cast<size_t>(pick(30));
      if (side != 0) n_run(o.q, at, len);
      if (side != 1) n_run(o.t, at, len);
    }
    if (pick(8) == 0) tandem(o.q, o.t);
    o.task.scoring = scoring;
    o.task.flag = dp_flag::kApproxMax | (pick(3) == 0 ? dp_flag::kRevCigar : 0u) | (pick(2) ? dp_flag::kMteQCell : 0u);
    o.task.w = pick(2) ? -1 : std::max(o.q.size(), o.t.size()) - 1 + static_cast<size_t>(pick(3));
    o.task.zdrop = pick(2) ? 200 : -1;
    return o;
  }

 private:
  int pick(int n) { return static_cast<int>(rng_() % static_cast<uint64_t>(n)); }
  std::vector<uint8_t> seq(int n) {
    std::vector<uint8_t> s(static_cast<size_t>(n));
    for (auto& c : s) c = static_cast<uint8_t>(pick(4));
    return s;
  }
  std::vector<uint8_t> mutate(const std::vector<uint8_t>& s) {
    const int rate = 1 + pick(30);
    std::vector<uint8_t> o;
    for (size_t i = 0; i < s.size() && o.size() < static_cast<size_t>(kernels::kBatchMaxLen); ++i) {
      const int r = pick(100);
      if (r >= rate) {
        o.push_back(s[i]);
      } else if (r < rate / 3) {
        o.push_back(static_cast<uint8_t>((s[i] + 1 + pick(3)) & 3));
      } else if (r < 2 * rate / 3) {
        for (int k = pick(6) == 0 ? 10 + pick(30) : 1 + pick(3); k > 0; --k) o.push_back(static_cast<uint8_t>(pick(4)));
      } else {
        i += static_cast<size_t>(pick(pick(6) == 0 ? 40 : 3));
      }
    }
    o.resize(std::min(o.size(), static_cast<size_t>(kernels::kBatchMaxLen)));
    return o;
  }
  static void n_run(std::vector<uint8_t>& s, size_t at, size_t len) {
    std::fill(s.begin() + static_cast<std::ptrdiff_t>(at),
              s.begin() + static_cast<std::ptrdiff_t>(std::min(s.size(), at + len)), 4);
  }
  void tandem(std::vector<uint8_t>& q, std::vector<uint8_t>& t) {
    const auto unit = seq(1 + pick(5));
    for (auto* s : {&q, &t})
      for (size_t i = 0; i < s->size(); ++i) (*s)[i] = unit[i % unit.size()];
  }
  std::mt19937_64 rng_;
};

void expect_same(const DpResult& want, const DpResult& got, const DpTask& t, size_t i, const std::string& what) {
  const auto a = io::format_answer(want), b = io::format_answer(got);
  for (int k = 0; k < io::kTaskAnswerColumns; ++k)
    ASSERT_EQ(a[k], b[k]) << what << " task " << i << " column " << 15 + k << " qlen " << t.query.size() << " tlen "
                          << t.target.size() << " flag " << t.flag;
  ASSERT_EQ(want.cells, got.cells) << what << " task " << i;
}

constexpr DpScoring kSchemes[] = {{2, 4, 1, 4, 2, 24, 1},
                                  {1, 19, 1, 39, 3, 81, 1},
                                  {1, 4, 1, 6, 2, 26, 1},
                                  {2, 4, 1, 24, 1, 4, 2},
                                  {3, 5, 1, 5, 1, 20, 1}};

struct IsaKernel {
  const char* isa;
  kernels::BatchFn fn;
  int lanes;
};

class DpBatch : public ::testing::TestWithParam<IsaKernel> {};

// Batches of every size from one task to a full vector, their tasks of mixed sizes (the
// batch computes the largest matrix in it), each answer the scalar kernel's.
TEST_P(DpBatch, AnswersAsTheScalarKernel) {
  const IsaKernel k = GetParam();
  if (!test::isa_runs(k.isa)) GTEST_SKIP() << "this processor lacks " << k.isa;
  GapFills gen(0xba7c4001);
  std::mt19937_64 rng(7);
  kernels::Workspace ws, ws_oracle;
  size_t checked = 0, long_gaps = 0;
  for (const DpScoring& scoring : kSchemes) {
    std::vector<Owned> owned(static_cast<size_t>(3 * k.lanes));
    for (auto& o : owned) o = gen.next(scoring);
    std::vector<DpTask> tasks;
    for (auto& o : owned) {
      o.task.query = o.q, o.task.target = o.t;
      uint64_t key = 0;
      ASSERT_TRUE(batch_task(o.task, key));
      tasks.push_back(o.task);
    }
    std::vector<DpResult> want(tasks.size()), got(tasks.size());
    for (size_t i = 0; i < tasks.size(); ++i) kernels::extd2_scalar(tasks[i], want[i], ws_oracle);
    // Consecutive batches of 1, 2, ... tasks, then full ones.
    for (size_t at = 0, n = 1; at < tasks.size(); at += n, n = n < static_cast<size_t>(k.lanes) ? n + 1 : n) {
      n = std::min(n, tasks.size() - at);
      std::vector<const DpTask*> tp;
      std::vector<DpResult*> rp;
      for (size_t m = at; m < at + n; ++m) tp.push_back(&tasks[m]), rp.push_back(&got[m]);
      k.fn(tp.data(), rp.data(), static_cast<int>(n), ws);
    }
    for (size_t i = 0; i < tasks.size(); ++i) {
      expect_same(want[i], got[i], tasks[i], i, k.isa);
      ++checked;
      for (uint32_t c : want[i].cigar) long_gaps += (c & 0xf) != 0 && (c >> 4) >= 10;
    }
  }
  EXPECT_EQ(checked, std::size(kSchemes) * 3 * static_cast<size_t>(k.lanes));
  EXPECT_GT(long_gaps, checked / 20);  // the tasks do exercise long gaps (the second piece)
}

INSTANTIATE_TEST_SUITE_P(Isas, DpBatch,
                         ::testing::Values(IsaKernel{"sse41", kernels::extd2_batch_sse41, kernels::kBatchLanesSse41},
                                           IsaKernel{"avx2", kernels::extd2_batch_avx2, kernels::kBatchLanesAvx2},
                                           IsaKernel{"avx512", kernels::extd2_batch_avx512,
                                                     kernels::kBatchLanesAvx512}),
                         [](const auto& info) { return std::string(info.param.isa); });

// The cpu backend batches the gap fills of a run among its other tasks: the answers are
// those of the backend without batching, on one thread or three.
TEST(DpBatchBackend, BatchingChangesNoAnswer) {
  const auto have = supported_isas();
  if (have.empty()) GTEST_SKIP() << "no SIMD instruction set for the cpu backend";
  GapFills gen(0xba7c4002);
  std::vector<Owned> owned;
  for (int i = 0; i < 700; ++i) {
    owned.push_back(gen.next(kSchemes[static_cast<size_t>(i) % std::size(kSchemes)]));
    if (i % 4 == 3) owned.back().task.flag = 0;  // exact maxima: not batched
    if (i % 7 == 6) owned.back().task.w = 5;     // narrow band: not batched
    if (i % 11 == 10) owned.back().task.flag |= dp_flag::kApproxDrop;
  }
  std::vector<DpTask> tasks;
  size_t batched = 0;
  for (auto& o : owned) {
    o.task.query = o.q, o.task.target = o.t;
    uint64_t key = 0;
    batched += batch_task(o.task, key);
    tasks.push_back(o.task);
  }
  EXPECT_GT(batched, tasks.size() / 3);
  EXPECT_LT(batched, tasks.size());
  for (const std::string& isa : have)
    for (int threads : {1, 3}) {
      DpBackendOptions opt;
      opt.isa = isa, opt.threads = threads;
      opt.batch = false;
      std::vector<DpResult> want(tasks.size()), got(tasks.size());
      make_dp_backend(opt)->run(tasks, want);
      opt.batch = true;
      make_dp_backend(opt)->run(tasks, got);
      for (size_t i = 0; i < tasks.size(); ++i) expect_same(want[i], got[i], tasks[i], i, isa);
    }
}

// A worker's workspace serves every kind of task in turn. A long splice task sizes the
// row index of the traceback for its anti-diagonals; a gap fill with fewer of them that
// follows on the same workspace finds the index large enough. The AVX-512 kernel also
// records each row's origin, in an array the splice kernels did not size: its writes went
// past that array's end and corrupted the heap (a pipeline test then crashed at random).
// Every ISA's pair of kernels, the gap fill's answer that of a fresh workspace.
struct PerTaskKernels {
  const char* isa;
  kernels::KernelFn splice, fill;
};

class SharedWorkspace : public ::testing::TestWithParam<PerTaskKernels> {};

TEST_P(SharedWorkspace, GapFillAfterALongerSpliceTask) {
  const PerTaskKernels k = GetParam();
  if (!test::isa_runs(k.isa)) GTEST_SKIP() << "this processor lacks " << k.isa;
  std::mt19937_64 rng(31);
  auto bases = [&rng](size_t n) {
    std::vector<uint8_t> v(n);
    for (uint8_t& b : v) b = static_cast<uint8_t>(rng() % 4);
    return v;
  };
  // The splice task: 3000 target bases, the query its two ends around a 1000-base intron
  // (5999 anti-diagonals, the gap fill's 1399 fewer).
  const std::vector<uint8_t> st = bases(3000);
  std::vector<uint8_t> sq(st.begin(), st.begin() + 1000);
  sq.insert(sq.end(), st.begin() + 2000, st.end());
  DpTask splice;
  splice.query = sq, splice.target = st;
  splice.flag = dp_flag::kSplice | dp_flag::kSpliceFor;
  splice.scoring = {1, 2, 1, 2, 1, 32, 0};
  splice.noncan = 9, splice.zdrop = -1, splice.w = -1;
  // Gap fills of 600 x 700 and 2000 x 2000 bases (the latter with more anti-diagonals
  // than an index sized by an earlier, shorter gap fill), a few substitutions apart.
  for (const size_t len : {size_t{600}, size_t{2000}}) {
    SCOPED_TRACE(len);
    const std::vector<uint8_t> t = bases(len + 100);
    std::vector<uint8_t> q(t.begin() + 50, t.end() - 50);
    for (size_t i = 7; i < q.size(); i += 97) q[i] = static_cast<uint8_t>((q[i] + 1) % 4);
    const DpTask fill = gap_fill(q, t);
    DpResult want, got, sres;
    kernels::Workspace fresh, ws;
    kernels::extd2_scalar(fill, want, fresh);
    k.splice(splice, sres, ws);
    ASSERT_FALSE(sres.cigar.empty());
    k.fill(fill, got, ws);
    expect_same(want, got, fill, 0, k.isa);
  }
}

INSTANTIATE_TEST_SUITE_P(Isas, SharedWorkspace,
                         ::testing::Values(PerTaskKernels{"scalar", kernels::exts2_scalar, kernels::extd2_scalar},
                                           PerTaskKernels{"sse41", kernels::exts2_sse41, kernels::extd2_sse41},
                                           PerTaskKernels{"avx2", kernels::exts2_avx2, kernels::extd2_avx2},
                                           PerTaskKernels{"avx512", kernels::exts2_avx512, kernels::extd2_avx512}),
                         [](const auto& info) { return std::string(info.param.isa); });

}  // namespace
}  // namespace agatha
