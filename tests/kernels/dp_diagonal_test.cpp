// tests/kernels/dp_diagonal_test.cpp — gap fills whose best path is the diagonal
// (kernels/dp_diagonal.cpp): which tasks diagonal_fill answers, that its answers are every
// kernel's, every column and the cells count — on identical sequences and on ones a few
// substitutions or Ns apart, up to the bound and past it — and that the cpu backend,
// which takes the shortcut, answers as the scalar backend, which does not.
#include "../../kernels/dp_common.hpp"
#include "../../kernels/dp_kernels.hpp"
#include "support/dp.hpp"

#include "../../src/io/task_file.hpp"

#include <agatha/dp.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

namespace agatha {
namespace {

using kernels::diagonal_fill;

void expect_same(const DpResult& want, const DpResult& got, const std::string& what) {
  const auto a = io::format_answer(want), b = io::format_answer(got);
  for (int k = 0; k < io::kTaskAnswerColumns; ++k) ASSERT_EQ(a[k], b[k]) << what << " column " << 15 + k;
  ASSERT_EQ(want.cells, got.cells) << what;
}

DpTask fill_of(const std::vector<uint8_t>& q, const std::vector<uint8_t>& t, DpScoring sc, uint32_t flag, int w) {
  DpTask task;
  task.query = q, task.target = t;
  task.scoring = sc;
  task.flag = flag;
  task.w = w;
  task.zdrop = 400;
  return task;
}

constexpr DpScoring kSchemes[] = {{2, 4, 1, 4, 2, 24, 1}, {1, 19, 1, 39, 3, 81, 1}, {1, 4, 1, 6, 2, 26, 1},
                                  {2, 4, 1, 24, 1, 4, 2}, {3, 5, 1, 5, 1, 20, 1},   {1, 2, 1, 2, 1, 32, 1},
                                  {10, 1, 1, 0, 1, 0, 1}};

// Sequences where ties are everywhere (one base, two alternating, a short period) and
// random ones, of lengths around the 16- and 64-cell blocks of the kernels.
std::vector<std::vector<uint8_t>> sequences() {
  std::mt19937_64 rng(5);
  std::vector<std::vector<uint8_t>> out;
  for (const size_t n : {1, 2, 3, 15, 16, 17, 63, 64, 65, 200, 321}) {
    std::vector<uint8_t> s(n);
    for (uint8_t& b : s) b = static_cast<uint8_t>(rng() % 4);
    out.push_back(s);
    out.emplace_back(n, uint8_t{2});
    for (size_t i = 0; i < n; ++i) s[i] = static_cast<uint8_t>(i % 2);
    out.push_back(s);
    for (size_t i = 0; i < n; ++i) s[i] = static_cast<uint8_t>((i / 3) % 4 == 1 ? 3 : 0);
    out.push_back(s);
  }
  return out;
}

struct PerTask {
  const char* isa;
  kernels::KernelFn fn;
};

class DiagonalFillKernel : public ::testing::TestWithParam<PerTask> {};

TEST_P(DiagonalFillKernel, AnswersAsTheKernel) {
  const PerTask k = GetParam();
  if (!test::isa_runs(k.isa)) GTEST_SKIP() << "this processor lacks " << k.isa;
  kernels::Workspace ws;
  std::mt19937_64 rng(17);
  int identical = 0, substituted = 0, declined = 0;
  for (const std::vector<uint8_t>& s : sequences())
    for (int subs = 0; subs <= 6; ++subs) {
      // The target: the query with `subs` substitutions (every third an N, on either
      // side) at random places.
      std::vector<uint8_t> q = s, t = s;
      for (int m = 0; m < subs; ++m) {
        const size_t at = rng() % s.size();
        if (m % 3 == 2)
          (m % 2 ? q : t)[at] = 4;
        else
          t[at] = static_cast<uint8_t>((t[at] + 1 + rng() % 3) % 4);
      }
      for (const DpScoring& sc : kSchemes)
        for (const uint32_t extra : {0u, dp_flag::kRight, dp_flag::kRevCigar, dp_flag::kScoreOnly, dp_flag::kMteQCell,
                                     dp_flag::kRight | dp_flag::kRevCigar})
          for (const int w : {-1, static_cast<int>(s.size()) - 1, static_cast<int>(s.size()) + 7, 500}) {
            if (w >= 0 && w < static_cast<int>(s.size()) - 1) continue;
            const DpTask task = fill_of(q, t, sc, dp_flag::kApproxMax | extra, w);
            const std::string what = std::string(k.isa) + " n " + std::to_string(s.size()) + " subs " +
                                     std::to_string(subs) + " a " + std::to_string(sc.a) + " flag " +
                                     std::to_string(task.flag) + " w " + std::to_string(w);
            DpResult want, got;
            if (q == t) {
              ASSERT_TRUE(diagonal_fill(task, &got)) << what;  // identical: always the diagonal
              ++identical;
            } else if (diagonal_fill(task, &got)) {
              ++substituted;
            } else {
              ++declined;
              continue;
            }
            k.fn(task, want, ws);
            expect_same(want, got, what);
          }
    }
  EXPECT_GT(identical, 5000);
  EXPECT_GT(substituted, 5000);
  EXPECT_GT(declined, 5000);
}

// The bound, at its edge: with ksw2's default scoring (a = 2, b = 4, N -1, gaps 4+2 and
// 24+1) a substitution loses 6 and an N 3 against a match, and a + 2g = 14: two
// substitutions (12) or one and two Ns (12) are taken, three (18) or two and an N (15)
// are not. With asm5's (a = 1, b = 19, gaps 39+3 and 81+1) a substitution loses 20, and
// a + 2g = 85: four are taken, five are not. The kernels agree where it answers.
TEST(DiagonalFill, TakesWhatTheBoundAllows) {
  std::mt19937_64 rng(23);
  std::vector<uint8_t> base(150);
  for (uint8_t& b : base) b = static_cast<uint8_t>(rng() % 4);
  const auto with = [&](int subs, int ns) {
    std::vector<uint8_t> t = base;
    for (int m = 0; m < subs; ++m) t[10 + 30 * m] = static_cast<uint8_t>((t[10 + 30 * m] + 2) % 4);
    for (int m = 0; m < ns; ++m) t[25 + 30 * m] = 4;
    return t;
  };
  const DpScoring ksw{2, 4, 1, 4, 2, 24, 1}, asm5{1, 19, 1, 39, 3, 81, 1};
  const struct {
    DpScoring sc;
    int subs, ns;
    bool taken;
  } cases[] = {{ksw, 2, 0, true},  {ksw, 1, 2, true},  {ksw, 0, 4, true},  {ksw, 3, 0, false},
               {ksw, 2, 1, false}, {ksw, 0, 5, false}, {asm5, 4, 0, true}, {asm5, 5, 0, false}};
  kernels::Workspace ws;
  for (const auto& c : cases) {
    const std::vector<uint8_t> t = with(c.subs, c.ns);
    const DpTask task = fill_of(base, t, c.sc, dp_flag::kApproxMax, -1);
    const std::string what =
        "a " + std::to_string(c.sc.a) + " subs " + std::to_string(c.subs) + " Ns " + std::to_string(c.ns);
    DpResult want, got;
    ASSERT_EQ(diagonal_fill(task, &got), c.taken) << what;
    if (!c.taken) continue;
    kernels::extd2_scalar(task, want, ws);
    expect_same(want, got, what);
    EXPECT_EQ(test::cigar_text(got.cigar), "150M") << what;
  }
}

INSTANTIATE_TEST_SUITE_P(Isas, DiagonalFillKernel,
                         ::testing::Values(PerTask{"scalar", kernels::extd2_scalar},
                                           PerTask{"sse41", kernels::extd2_sse41}, PerTask{"avx2", kernels::extd2_avx2},
                                           PerTask{"avx512", kernels::extd2_avx512}),
                         [](const auto& info) { return std::string(info.param.isa); });

// Everything else is left to the kernels, the result untouched.
TEST(DiagonalFill, DeclinesOtherTasks) {
  const std::vector<uint8_t> s = test::encode("ACGTTGCAACGGTACCATGA");
  const DpTask base = fill_of(s, s, kSchemes[0], dp_flag::kApproxMax, -1);
  DpResult res;
  ASSERT_TRUE(diagonal_fill(base, nullptr));
  ASSERT_TRUE(diagonal_fill(base, &res));
  EXPECT_EQ(res.score, 40);
  EXPECT_EQ(test::cigar_text(res.cigar), "20M");
  const auto declines = [&](const DpTask& t, const char* why) {
    DpResult r;
    r.score = 12345;
    EXPECT_FALSE(diagonal_fill(t, &r)) << why;
    EXPECT_FALSE(diagonal_fill(t, nullptr)) << why;
    EXPECT_EQ(r.score, 12345) << why;
  };
  std::vector<uint8_t> other = s;
  for (const size_t at : {3, 9, 15}) other[at] = static_cast<uint8_t>((other[at] + 1) % 4);
  declines(fill_of(s, other, kSchemes[0], dp_flag::kApproxMax, -1), "three substitutions");
  const std::vector<uint8_t> shorter(s.begin(), s.end() - 1);
  declines(fill_of(shorter, s, kSchemes[0], dp_flag::kApproxMax, -1), "unequal lengths");
  const std::vector<uint8_t> none;
  declines(fill_of(none, none, kSchemes[0], dp_flag::kApproxMax, -1), "empty");
  declines(fill_of(s, s, kSchemes[0], dp_flag::kApproxMax, 18), "a band narrower than the matrix");
  for (const uint32_t flag : {0u, dp_flag::kApproxMax | dp_flag::kApproxDrop, dp_flag::kApproxMax | dp_flag::kExtzOnly,
                              dp_flag::kApproxMax | dp_flag::kSingleAffine, dp_flag::kApproxMax | dp_flag::kSplice})
    declines(fill_of(s, s, kSchemes[0], flag, -1), ("flag " + std::to_string(flag)).c_str());
  DpScoring sc = kSchemes[0];
  sc.transition = 1;  // scored from the whole matrix (generic)
  declines(fill_of(s, s, sc, dp_flag::kApproxMax, -1), "generic scoring");
  sc = kSchemes[0], sc.a = 0;
  declines(fill_of(s, s, sc, dp_flag::kApproxMax, -1), "a match that scores nothing");
  sc = kSchemes[0], sc.e = 0, sc.q = 0;
  declines(fill_of(s, s, sc, dp_flag::kApproxMax, -1), "a free gap");
}

// The cpu backend answers diagonal gap fills itself (per task and in rounds); the scalar
// backend runs its kernel on them, and so do gpu-sim and gpu-emu (the CUDA kernel's
// schedule and its own source on the host). Mixed with other tasks, in rounds and inline.
TEST(DiagonalFill, BackendsAnswerAsScalar) {
  std::mt19937_64 rng(9);
  std::vector<std::vector<uint8_t>> seqs;
  std::vector<DpTask> tasks;
  for (int i = 0; i < 400; ++i) {
    std::vector<uint8_t> t(1 + rng() % 300);
    for (uint8_t& b : t) b = static_cast<uint8_t>(rng() % 4);
    std::vector<uint8_t> q = t;
    for (int m = 0; m < i % 4; ++m) q[rng() % q.size()] ^= 1;  // 0 to 3 substitutions
    seqs.push_back(q), seqs.push_back(t);
  }
  for (size_t i = 0; i < seqs.size(); i += 2)
    tasks.push_back(
        fill_of(seqs[i], seqs[i + 1], kSchemes[i / 2 % 3], dp_flag::kApproxMax | (i % 4 ? 0 : dp_flag::kRight), -1));
  const auto scalar = test::try_backend("scalar");
  std::vector<DpResult> want(tasks.size());
  scalar->run(tasks, want);
  int cpu = 0;
  for (const std::string& name : test::all_backends()) {
    if (name == "scalar") continue;
    const auto b = test::try_backend(name, 2);
    if (!b) continue;
    const bool is_cpu = name.rfind("cpu-", 0) == 0;
    cpu += is_cpu;
    std::vector<DpResult> got(tasks.size());
    b->run(tasks, got);
    for (size_t i = 0; i < tasks.size(); ++i) expect_same(want[i], got[i], name + " run, task " + std::to_string(i));
    if (!is_cpu) continue;  // the GPU backends compute these fills with their kernel, in batches only
    for (size_t i = 0; i < tasks.size(); ++i) {
      DpResult one;
      b->compute_inline(static_cast<int>(i % 2), tasks[i], one);
      expect_same(want[i], one, name + " inline, task " + std::to_string(i));
    }
  }
  if (cpu == 0) GTEST_SKIP() << "no SIMD instruction set for the cpu backend";
}

}  // namespace
}  // namespace agatha
