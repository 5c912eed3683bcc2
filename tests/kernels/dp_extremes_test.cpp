// Task values at the ends of their range, and gap pieces given in the other order.
//
// - w, zdrop and end_bonus may be any int: w above max(tlen, qlen) holds the same cells
//   as the full band, zdrop = INT_MAX never drops, end_bonus = INT_MAX always takes the
//   query end and INT_MIN never does. Every backend must give exactly the answers of
//   the equivalent ordinary values (32-bit arithmetic used to wrap there).
// - ksw_extd2 swaps the pieces when q + e > q2 + e2, but subtracts the q + e it was given
//   for H(0,0): every H then moves by the difference of the two sums. For a global task
//   without Z-drop the score moves by exactly that and the CIGAR stays.
#include "support/dp.hpp"
#include "support/paths.hpp"

#include "../../src/io/line_reader.hpp"
#include "../../src/io/task_file.hpp"

#include <agatha/error.hpp>

#include <gtest/gtest.h>

#include <climits>
#include <memory>

namespace agatha {
namespace {

// The first n tasks of the committed golden subset. DpTask views its sequences, so the
// records that hold them live as long as the program.
std::vector<DpTask> golden_tasks(size_t n) {
  static std::vector<std::unique_ptr<io::TaskRecord>> keep;
  std::vector<DpTask> tasks;
  io::LineReader in(test::source_path("tests/data/golden_subset.tsv.gz"));
  std::string line;
  while (tasks.size() < n && in.next(line)) {
    keep.push_back(std::make_unique<io::TaskRecord>(io::parse_task_line(line, in.path(), in.line_number())));
    tasks.push_back(keep.back()->task());
  }
  return tasks;
}

std::vector<DpResult> run(DpBackend& b, const std::vector<DpTask>& tasks) {
  std::vector<DpResult> res(tasks.size());
  b.run(tasks, res);
  return res;
}

std::string answer(const DpResult& r) {
  std::string s;
  for (const auto& f : io::format_answer(r)) s += f + " ";
  return s;
}

// Each backend's answers to `tasks` equal the scalar backend's answers to `same`.
void expect_same_answers(const std::vector<DpTask>& tasks, const std::vector<DpTask>& same, const std::string& what) {
  auto scalar = test::try_backend("scalar");
  const auto want = run(*scalar, same);
  for (const std::string& name : test::all_backends()) {
    auto b = test::try_backend(name);
    if (!b) continue;
    const auto got = run(*b, tasks);
    size_t bad = 0;
    for (size_t i = 0; i < tasks.size(); ++i)
      if (answer(got[i]) != answer(want[i]) && bad++ < 3)
        ADD_FAILURE() << what << " on " << name << ", task " << i << ":\n  got  " << answer(got[i]) << "\n  want "
                      << answer(want[i]);
    EXPECT_EQ(bad, 0u) << what << " on " << name;
  }
}

class DpExtremes : public ::testing::Test {
 protected:
  void SetUp() override { tasks_ = golden_tasks(150); }
  std::vector<DpTask> with(void (*f)(DpTask&)) const {
    std::vector<DpTask> t = tasks_;
    for (auto& x : t) f(x);
    return t;
  }
  std::vector<DpTask> tasks_;
};

TEST_F(DpExtremes, BandAtIntMaxIsTheFullBand) {
  expect_same_answers(with([](DpTask& t) { t.w = INT_MAX; }), with([](DpTask& t) { t.w = -1; }), "w = INT_MAX");
  expect_same_answers(with([](DpTask& t) { t.w = INT_MAX - 1; }),
                      with([](DpTask& t) { t.w = static_cast<int>(std::max(t.query.size(), t.target.size())); }),
                      "w = INT_MAX - 1");
}

TEST_F(DpExtremes, ZdropAtIntMaxNeverDrops) {
  expect_same_answers(with([](DpTask& t) { t.zdrop = INT_MAX; }), with([](DpTask& t) { t.zdrop = -1; }),
                      "zdrop = INT_MAX");
  // Z-drop and the band together at their ends, on an extension.
  expect_same_answers(with([](DpTask& t) { t.zdrop = INT_MAX, t.w = INT_MAX, t.flag |= dp_flag::kExtzOnly; }),
                      with([](DpTask& t) { t.zdrop = -1, t.w = -1, t.flag |= dp_flag::kExtzOnly; }),
                      "zdrop = w = INT_MAX, extension");
}

TEST_F(DpExtremes, EndBonusAtEitherEndIsExact) {
  // mqe starts at -2^30 and H values of these tasks lie well within +-2^26: a bonus of
  // 2^30 + 2^28 always wins, even over a query end never reached, and -2^30 never wins,
  // exactly as INT_MAX and INT_MIN do (mqe + INT_MAX used to wrap for mqe > 0, and
  // mqe + INT_MIN for mqe < 0).
  expect_same_answers(with([](DpTask& t) { t.end_bonus = INT_MAX, t.flag |= dp_flag::kExtzOnly; }),
                      with([](DpTask& t) { t.end_bonus = (1 << 30) + (1 << 28), t.flag |= dp_flag::kExtzOnly; }),
                      "end_bonus = INT_MAX");
  expect_same_answers(with([](DpTask& t) { t.end_bonus = INT_MIN, t.flag |= dp_flag::kExtzOnly; }),
                      with([](DpTask& t) { t.end_bonus = -(1 << 30), t.flag |= dp_flag::kExtzOnly; }),
                      "end_bonus = INT_MIN");
  // And INT_MAX really takes the query end where the task reaches it without Z-drop.
  auto scalar = test::try_backend("scalar");
  const auto res = run(*scalar, with([](DpTask& t) { t.end_bonus = INT_MAX, t.zdrop = -1, t.flag |= dp_flag::kExtzOnly; }));
  size_t reached = 0;
  for (const auto& r : res) reached += r.reach_end;
  EXPECT_GT(reached, tasks_.size() / 2);
}

TEST_F(DpExtremes, TaskFileTakesTheExtremesAndRejectsOverlongSequences) {
  const std::string seq = "ACGTACGT";
  const std::string line = "t\t0\t2\t4\t1\t4\t2\t24\t1\t2147483647\t2147483647\t-2147483648\t" + seq + "\t" + seq;
  const io::TaskRecord r = io::parse_task_line(line, "x.tsv", 7);
  EXPECT_EQ(r.w, INT_MAX);
  EXPECT_EQ(r.zdrop, INT_MAX);
  EXPECT_EQ(r.end_bonus, INT_MIN);
  const std::string huge(io::kMaxTaskSequence + 1, 'A');
  try {
    io::parse_task_line("t\t0\t2\t4\t1\t4\t2\t24\t1\t10\t10\t0\t" + huge + "\tA", "x.tsv", 9);
    ADD_FAILURE() << "an overlong query was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'x.tsv' line 9: "), std::string::npos) << e.what();
  }
}

// The 1x1 case by hand. Pieces (4,2) and (24,1), match 2: H(0,0) = 2. Given as (24,1)
// and (4,2), ksw_extd2 computes v(0) = H(0,0) - H(0,-1) = 2 + 6 = 8 with the swapped
// pieces and subtracts the given q + e = 25: H(0,0) = -17.
TEST(DpGapOrder, OneCellByHand) {
  const std::vector<uint8_t> a = test::encode("A");
  DpTask t;
  t.query = t.target = a;
  t.scoring = {2, 4, 1, 24, 1, 4, 2};
  t.w = -1, t.zdrop = -1, t.end_bonus = -1;
  for (const std::string& name : test::all_backends()) {
    auto b = test::try_backend(name);
    if (!b) continue;
    std::vector<DpResult> res(1);
    b->run(std::span(&t, 1), res);
    EXPECT_EQ(res[0].score, -17) << name;
    EXPECT_EQ(test::parse_cigar("1M"), res[0].cigar) << name;
  }
}

// Global tasks without Z-drop, pieces reversed: the score moves by the difference of
// the two q + e sums, the CIGAR stays, and every backend agrees on all other fields.
TEST(DpGapOrder, ReversedPiecesShiftEveryHByTheDifference) {
  std::vector<DpTask> fwd;
  for (DpTask t : golden_tasks(250)) {
    if (t.scoring.q + t.scoring.e == t.scoring.q2 + t.scoring.e2) continue;
    t.flag &= ~(dp_flag::kExtzOnly | dp_flag::kApproxMax | dp_flag::kApproxDrop | dp_flag::kScoreOnly);
    t.zdrop = -1;
    fwd.push_back(t);
  }
  ASSERT_GT(fwd.size(), 100u);
  std::vector<DpTask> rev = fwd;
  for (auto& t : rev) std::swap(t.scoring.q, t.scoring.q2), std::swap(t.scoring.e, t.scoring.e2);
  auto scalar = test::try_backend("scalar");
  const auto a = run(*scalar, fwd), b = run(*scalar, rev);
  size_t reached = 0;
  for (size_t i = 0; i < fwd.size(); ++i) {
    if (a[i].score == kDpNegInf) continue;  // the band ran out before the last cell
    ++reached;
    const int shift = (rev[i].scoring.q + rev[i].scoring.e) - (fwd[i].scoring.q + fwd[i].scoring.e);
    EXPECT_EQ(b[i].score, a[i].score - shift) << "task " << i;
    EXPECT_EQ(b[i].cigar, a[i].cigar) << "task " << i;
  }
  EXPECT_GT(reached, fwd.size() / 2);
  // The same for every backend, and for the golden tasks as they are (extensions, Z-drop).
  expect_same_answers(rev, rev, "reversed pieces, global");
  std::vector<DpTask> as_is = golden_tasks(150);
  for (auto& t : as_is) std::swap(t.scoring.q, t.scoring.q2), std::swap(t.scoring.e, t.scoring.e2);
  expect_same_answers(as_is, as_is, "reversed pieces");
}

}  // namespace
}  // namespace agatha
