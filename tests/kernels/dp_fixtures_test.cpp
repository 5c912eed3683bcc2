// Small hand-checked DP fixtures: the whole expected H matrix of a global alignment,
// the final score and the CIGAR. Every backend must reproduce every cell: H(i,j) is
// the score of the global task on target[0..i] x query[0..j].
//
// Matrices are indexed [target i][query j]; a gap of length L costs
// min(q + L*e, q2 + L*e2); the borders are H(-1,j) = -cost(j+1), H(i,-1) = -cost(i+1).
#include "support/dp.hpp"

#include "../../src/io/task_file.hpp"

#include <gtest/gtest.h>

namespace agatha {
namespace {

struct Fixture {
  const char* name;
  std::string query, target;
  DpScoring sc;
  std::vector<std::vector<int>> H;  // expected H(i,j)
  const char* cigar_left;           // global CIGAR, gaps left-aligned
  const char* cigar_right;          // with dp_flag::kRight
};

// Worked examples (checked by hand; see the comments for the cells that decide).
const std::vector<Fixture>& fixtures() {
  static const std::vector<Fixture> f = {
      // Identity. H(1,0) = max(H(0,-1) + s(C,A), H(0,0) - cost(1)) = max(-6-4, 2-6) = -4.
      {"identity",
       "ACGT",
       "ACGT",
       {2, 4, 1, 4, 2, 24, 1},
       {{2, -4, -6, -8}, {-4, 4, -2, -4}, {-6, -2, 6, 0}, {-8, -4, 0, 8}},
       "4M",
       "4M"},
      // One extra A in the target: score 4*2 - cost(1) = 2. The deletion can sit in any of
      // the four A positions; left alignment puts it first, right alignment last.
      {"homopolymer-deletion",
       "AAAC",
       "AAAAC",
       {2, 4, 1, 4, 2, 24, 1},
       {{2, -4, -6, -8}, {-4, 4, -2, -4}, {-6, -2, 6, 0}, {-8, -4, 0, 2}, {-10, -6, -2, 2}},
       "1D4M",
       "3M1D1M"},
      // An N in the query costs ambi = 1 instead of a mismatch: 4*2 - 1 = 7.
      {"ambiguous-base",
       "ACGNT",
       "ACGTT",
       {2, 4, 1, 4, 2, 24, 1},
       {{2, -4, -6, -8, -10}, {-4, 4, -2, -4, -6}, {-6, -2, 6, 0, -2}, {-8, -4, 0, 5, 2}, {-10, -6, -2, -1, 7}},
       "5M",
       "5M"},
      // Long gaps are flat (e2 = 0): a 3-base insertion costs min(2+3, 6) = 5, so
      // G[ATT]ACA and GA[TTA]CA both score 4 - 5 = -1; left alignment takes the first,
      // right alignment the second. H(0,5) = max(-cost(6) + 1, 1 - cost(5)) = -5.
      {"dual-affine-insertion",
       "GATTACA",
       "GACA",
       {1, 2, 1, 2, 1, 6, 0},
       {{1, -2, -3, -4, -5, -5, -5},
        {-2, 2, -1, -2, -3, -4, -4},
        {-3, -1, 0, -3, -4, -2, -5},
        {-4, -2, -3, -2, -2, -5, -1}},
       "1M3I3M",
       "2M3I2M"},
  };
  return f;
}

class DpFixture : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    backend_ = test::try_backend(GetParam());
    if (!backend_) GTEST_SKIP() << "this processor cannot run backend " << GetParam();
  }
  DpResult run(const DpTask& t) {
    std::vector<DpResult> r(1);
    backend_->run(std::span(&t, 1), r);
    return r[0];
  }
  std::unique_ptr<DpBackend> backend_;
};

TEST_P(DpFixture, EveryCellOfTheMatrix) {
  for (const Fixture& fx : fixtures()) {
    const auto q = test::encode(fx.query), t = test::encode(fx.target);
    for (size_t i = 0; i < fx.H.size(); ++i) {
      for (size_t j = 0; j < fx.H[i].size(); ++j) {
        DpTask task;
        task.query = std::span(q).first(j + 1);
        task.target = std::span(t).first(i + 1);
        task.scoring = fx.sc;
        task.flag = dp_flag::kScoreOnly;
        EXPECT_EQ(run(task).score, fx.H[i][j]) << fx.name << " H(" << i << "," << j << ")";
      }
    }
  }
}

TEST_P(DpFixture, ScoreAndCigarBothGapPlacements) {
  for (const Fixture& fx : fixtures()) {
    const auto q = test::encode(fx.query), t = test::encode(fx.target);
    DpTask task;
    task.query = q, task.target = t, task.scoring = fx.sc;
    const DpResult left = run(task);
    EXPECT_EQ(left.score, fx.H.back().back()) << fx.name;
    EXPECT_EQ(cigar::to_string(left.cigar), fx.cigar_left) << fx.name;
    task.flag = dp_flag::kRight;
    const DpResult right = run(task);
    EXPECT_EQ(right.score, fx.H.back().back()) << fx.name;
    EXPECT_EQ(cigar::to_string(right.cigar), fx.cigar_right) << fx.name;
    task.flag = dp_flag::kRevCigar;
    const DpResult rev = run(task);
    std::vector<uint32_t> back(left.cigar.rbegin(), left.cigar.rend());
    EXPECT_EQ(rev.cigar, back) << fx.name;
  }
}

// Ten matching bases, then nothing but mismatches: the best cell is (9,9) with 20 and
// the extension stops by Z-drop before the ends; the CIGAR ends at the best cell.
TEST_P(DpFixture, ZdropStopsAtTheBestCell) {
  const auto q = test::encode("ACGTACGTACTTTTTTTTTTTTTTTTTTTT");
  const auto t = test::encode("ACGTACGTACGGGGGGGGGGGGGGGGGGGG");
  DpTask task;
  task.query = q, task.target = t;
  task.scoring = {2, 4, 1, 4, 2, 24, 1};
  task.flag = dp_flag::kExtzOnly;
  task.zdrop = 10;
  task.w = 50;
  const DpResult r = run(task);
  EXPECT_TRUE(r.zdropped);
  EXPECT_EQ(r.max, 20);
  EXPECT_EQ(r.max_q, 9);
  EXPECT_EQ(r.max_t, 9);
  EXPECT_EQ(r.score, kDpNegInf);  // never reached the last cell
  EXPECT_FALSE(r.reach_end);
  EXPECT_EQ(cigar::to_string(r.cigar), "10M");
}

// With a large end bonus an extension that reaches the query end keeps going to it.
TEST_P(DpFixture, EndBonusReachesTheQueryEnd) {
  const auto q = test::encode("ACGTACGTACGA");
  const auto t = test::encode("ACGTACGTACGTTTTT");
  DpTask task;
  task.query = q, task.target = t;
  task.scoring = {2, 4, 1, 4, 2, 24, 1};
  task.flag = dp_flag::kExtzOnly;
  task.zdrop = 100;
  task.end_bonus = 0;
  DpResult r = run(task);
  EXPECT_FALSE(r.reach_end);
  EXPECT_EQ(r.max, 22);  // 11 matches; the final A/T mismatch is not worth it
  EXPECT_EQ(cigar::to_string(r.cigar), "11M");
  EXPECT_EQ(r.mqe, 18);  // ... but reaching the query end scores 22 - 4
  EXPECT_EQ(r.mqe_t, 11);
  task.end_bonus = 10;
  r = run(task);
  EXPECT_TRUE(r.reach_end);
  EXPECT_EQ(cigar::to_string(r.cigar), "12M");
}

// Empty sequences and a mismatch penalty beyond 2(q+e) return the reset result.
TEST_P(DpFixture, DegenerateTasksReturnTheResetResult) {
  const auto q = test::encode("ACGT");
  DpTask task;
  task.query = q;
  DpResult r = run(task);
  EXPECT_EQ(r.score, kDpNegInf);
  EXPECT_EQ(r.max, 0);
  EXPECT_EQ(r.max_t, -1);
  EXPECT_TRUE(r.cigar.empty());
  task.target = q;
  task.scoring = {1, 20, 1, 4, 2, 24, 1};  // 20 > 2 * (4 + 2)
  r = run(task);
  EXPECT_EQ(r.score, kDpNegInf);
  EXPECT_TRUE(r.cigar.empty());
}

// A band too narrow to reach the corner stops the DP (reported as Z-dropped).
TEST_P(DpFixture, BandThatCannotReachTheEnd) {
  const auto q = test::encode("ACGTACGT");
  const auto t = test::encode("ACGTACGTACGTACGTACGT");
  DpTask task;
  task.query = q, task.target = t;
  task.scoring = {2, 4, 1, 4, 2, 24, 1};
  task.w = 2;
  const DpResult r = run(task);
  EXPECT_TRUE(r.zdropped);
  EXPECT_EQ(r.score, kDpNegInf);
  EXPECT_EQ(r.max, 16);
  EXPECT_EQ(cigar::to_string(r.cigar), "8M");
}

INSTANTIATE_TEST_SUITE_P(Backends, DpFixture, ::testing::ValuesIn(test::all_backends()), [](const auto& info) {
  std::string n = info.param;
  for (char& c : n) c = c == '-' ? '_' : c;
  return n;
});

}  // namespace
}  // namespace agatha
