// Parsing of DP task lines: every malformed field is an InputError naming file and line.
#include "../../src/io/task_file.hpp"

#include <agatha/error.hpp>

#include <gtest/gtest.h>

namespace agatha::io {
namespace {

const std::string kGood = "t1\t194\t2\t4\t1\t4\t2\t24\t1\t751\t400\t-1\tACGTN\tacgtu";

std::string error_of(const std::string& line) {
  try {
    parse_task_line(line, "tasks.tsv", 7);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(TaskFile, ParsesInputsAndEncodesBases) {
  const TaskRecord r = parse_task_line(kGood, "tasks.tsv", 1);
  EXPECT_EQ(r.id, "t1");
  EXPECT_EQ(r.flag, 194u);
  EXPECT_EQ(r.scoring.q2, 24);
  EXPECT_EQ(r.w, 751);
  EXPECT_EQ(r.zdrop, 400);
  EXPECT_EQ(r.end_bonus, -1);
  EXPECT_EQ(r.query, (std::vector<uint8_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(r.target, (std::vector<uint8_t>{0, 1, 2, 3, 3}));  // lower case, U as T
  EXPECT_FALSE(r.has_answer);
}

TEST(TaskFile, StarIsAnEmptySequenceAndIupacIsN) {
  const TaskRecord r = parse_task_line("e\t0\t2\t4\t1\t4\t2\t24\t1\t-1\t-1\t0\t*\tRYKM", "f", 1);
  EXPECT_TRUE(r.query.empty());
  EXPECT_EQ(r.target, (std::vector<uint8_t>{4, 4, 4, 4}));
}

TEST(TaskFile, AnswerColumnsAreKept) {
  const TaskRecord r = parse_task_line(kGood + "\t-48\t19\t51\t52\t11\t72\t-48\t66\t0\t0\t3\t37M1D15M", "f", 1);
  ASSERT_TRUE(r.has_answer);
  EXPECT_EQ(r.answer[0], "-48");
  EXPECT_EQ(r.answer[11], "37M1D15M");
}

TEST(TaskFile, ErrorsNameFileLineAndField) {
  EXPECT_EQ(error_of("t1\t0\t2"), "'tasks.tsv' line 7: expected at least 14 tab-separated columns, found 3");
  EXPECT_EQ(error_of("t1\tx\t2\t4\t1\t4\t2\t24\t1\t751\t400\t-1\tA\tA"),
            "'tasks.tsv' line 7: column 'flag' is not an integer: 'x'");
  EXPECT_EQ(error_of("t1\t0\t2\t4\t1\t4\t2\t24\t1\t7.5\t400\t-1\tA\tA"),
            "'tasks.tsv' line 7: column 'w' is not an integer: '7.5'");
  EXPECT_EQ(error_of("t1\t4\t2\t4\t1\t4\t2\t24\t1\t7\t400\t-1\tA\tA"), "'tasks.tsv' line 7: unknown flag bits in 4");
  // 0x20000: a single-affine (ksw_extz2) task, which needs q2 == q and e2 == e.
  EXPECT_EQ(error_of("t1\t131072\t2\t4\t1\t4\t2\t24\t1\t7\t400\t-1\tA\tA"),
            "'tasks.tsv' line 7: a single-affine (ksw_extz2) task needs q2 == q and e2 == e");
  EXPECT_EQ(error_of("t1\t524288\t2\t4\t1\t4\t2\t4\t2\t7\t400\t-1\tA\tA"),
            "'tasks.tsv' line 7: unknown flag bits in 524288");
}

TEST(TaskFile, TakesEveryScoringMinimap2Takes) {
  // Scorings minimap2 accepts on its command line, past the 8-bit range of the fast
  // kernels: parsed, and marked for the scalar oracle.
  for (const char* line : {"t1\t0\t50\t4\t1\t40\t2\t80\t1\t7\t400\t-1\tA\tA",           // a + (q2+e2) = 131
                           "t1\t0\t100\t200\t1\t30\t5\t60\t1\t7\t400\t-1\tA\tA",        // -A100 -B200
                           "t1\t64\t300\t-7\t1\t10\t6\t40\t1\t7\t400\t-1\tA\tA",        // -A300 -B-7
                           "t1\t131072\t60\t100\t1\t50\t10\t50\t10\t7\t9\t0\tA\tA"}) {  // -O50 -E10
    const TaskRecord r = parse_task_line(line, "tasks.tsv", 1);
    EXPECT_TRUE(dp_task_on_oracle(r.task())) << line;
  }
  EXPECT_FALSE(dp_task_on_oracle(parse_task_line("t1\t0\t2\t4\t1\t4\t2\t24\t1\t7\t400\t-1\tA\tA", "x", 1).task()));
}

TEST(TaskFile, ScoringLimits) {
  EXPECT_EQ(validate_scoring({2, 4, 1, 4, 2, 24, 1}), "");
  EXPECT_EQ(validate_scoring({110, 4, 1, 4, 2, 24, 1}), "");
  EXPECT_EQ(validate_scoring({2, 4, 1, 4, 2, 4, 2}, true), "");
  EXPECT_NE(validate_scoring({2, 4, 1, 4, 2, 24, 1}, true), "");
  EXPECT_TRUE(dp_scoring_native({2, 4, 1, 4, 2, 24, 1}));
  EXPECT_TRUE(dp_scoring_native({1, 19, 1, 39, 3, 81, 1}));  // asm5: 42 + 82 = 124
  EXPECT_FALSE(dp_scoring_native({0, 4, 1, 4, 2, 24, 1}));
  EXPECT_FALSE(dp_scoring_native({110, 4, 1, 4, 2, 24, 1}));  // 110 + 25 > 127
  EXPECT_FALSE(dp_scoring_native({2, 4, 1, 40, 2, 90, 1}));   // 42 + 91 > 127
  EXPECT_FALSE(dp_scoring_native({2, -4, 1, 4, 2, 24, 1}));
}

TEST(TaskFile, MatrixAsMinimap2MakesIt) {
  // ksw_gen_simple_mat takes a, b and ambi as int8_t: -A 200 is 56, -B 200 is -56 (as
  // int8_t -56, already negative), -A -2 is 2, -B -3 is -3, -A 128 stays -128.
  auto m = [](int a, int b, int ambi) {
    const KswMatrix k = ksw_matrix({a, b, ambi, 4, 2, 24, 1});
    return std::to_string(k.match) + "," + std::to_string(k.mismatch) + "," + std::to_string(k.ambi);
  };
  EXPECT_EQ(m(2, 4, 1), "2,-4,-1");
  EXPECT_EQ(m(200, 200, 0), "56,-56,0");
  EXPECT_EQ(m(-2, -3, -1), "2,-3,-1");
  EXPECT_EQ(m(128, 129, 300), "-128,-127,-44");
  EXPECT_EQ(m(256, 256, 256), "0,0,0");
}

// A splice (ksw_exts2) task: flag 0x10000 | SPLICE_FOR | FLANK | APPROX_MAX, columns
// 9-12 noncan, junc_bonus, zdrop, junction digits.
const std::string kSplice = "s1\t66824\t1\t2\t1\t2\t1\t32\t9\t9\t200\t0100a\tACGT\tACGTT";

TEST(TaskFile, ParsesSpliceTasks) {
  const TaskRecord r = parse_task_line(kSplice, "tasks.tsv", 1);
  EXPECT_EQ(r.flag, 66824u);
  EXPECT_TRUE(r.flag & dp_flag::kSplice);
  EXPECT_EQ(r.scoring.q2, 32);
  EXPECT_EQ(r.noncan, 9);
  EXPECT_EQ(r.junc_bonus, 9);
  EXPECT_EQ(r.zdrop, 200);
  EXPECT_EQ(r.w, -1);
  EXPECT_EQ(r.junc, (std::vector<uint8_t>{0, 1, 0, 0, 10}));
  const DpTask t = r.task();
  EXPECT_EQ(t.junc.size(), 5u);
  EXPECT_EQ(t.noncan, 9);
  EXPECT_TRUE(parse_task_line("s\t65536\t1\t2\t1\t2\t1\t32\t9\t9\t-1\t*\t*\t*", "f", 1).junc.empty());
}

// Column 11 of a splice task may carry an end bonus (minimap2 2.31's ksw_exts2):
// "zdrop,end_bonus"; without it the end bonus is 0. The miniprot model (0x800) and the
// mte_q rule (0x40000) are known flag bits of a splice task.
TEST(TaskFile, SpliceEndBonusAndFlags) {
  EXPECT_EQ(parse_task_line(kSplice, "f", 1).end_bonus, 0);
  const TaskRecord r = parse_task_line("s\t329792\t1\t2\t1\t2\t1\t32\t9\t9\t200,-7\t*\tA\tA", "f", 1);
  EXPECT_EQ(r.flag, dp_flag::kSplice | dp_flag::kSpliceCmplx | dp_flag::kMteQCell | dp_flag::kExtzOnly);
  EXPECT_EQ(r.zdrop, 200);
  EXPECT_EQ(r.end_bonus, -7);
  EXPECT_EQ(r.task().end_bonus, -7);
  EXPECT_EQ(error_of("s\t65536\t1\t2\t1\t2\t1\t32\t9\t9\t200,x\t*\tA\tA"),
            "'tasks.tsv' line 7: column 'end_bonus' is not an integer: 'x'");
  // the splice-site model is a splice bit; the mte_q rule belongs to both kinds
  EXPECT_EQ(error_of("t1\t2048\t2\t4\t1\t4\t2\t24\t1\t7\t400\t-1\tA\tA"),
            "'tasks.tsv' line 7: unknown flag bits in 2048");
  EXPECT_EQ(parse_task_line("t1\t262144\t2\t4\t1\t4\t2\t24\t1\t7\t400\t-1\tA\tA", "f", 1).flag, dp_flag::kMteQCell);
}

TEST(TaskFile, SpliceErrors) {
  EXPECT_EQ(error_of("s\t65536\t1\t2\t1\t2\t1\t32\t9\t9\t200\t010\tACGT\tACGTT"),
            "'tasks.tsv' line 7: the junction column has 3 digits for a target of 5 bases");
  EXPECT_EQ(error_of("s\t65536\t1\t2\t1\t2\t1\t32\t9\t9\t200\t01g00\tACGT\tACGTT"),
            "'tasks.tsv' line 7: the junction column has 'g' at 3, expected a hexadecimal digit 0-9 or a-f");
  EXPECT_EQ(error_of("s\t65536\t1\t2\t1\t2\t0\t32\t9\t9\t200\t*\tA\tA"),
            "'tasks.tsv' line 7: the gap extension e is 0 as an int8_t (ksw_exts2 divides by it)");
  EXPECT_EQ(error_of("s\t65536\t1\t2\t1\t2\t256\t32\t9\t9\t200\t*\tA\tA"),
            "'tasks.tsv' line 7: the gap extension e is 0 as an int8_t (ksw_exts2 divides by it)");
  EXPECT_EQ(error_of("s\t65536\t1\t2\t1\t2\t1\t32\tx\t9\t200\t*\tA\tA"),
            "'tasks.tsv' line 7: column 'noncan' is not an integer: 'x'");
  // splice bits belong to splice tasks only; 0x04 (GENERIC_SC) to neither
  EXPECT_EQ(error_of("t1\t256\t2\t4\t1\t4\t2\t24\t1\t7\t400\t-1\tA\tA"),
            "'tasks.tsv' line 7: unknown flag bits in 256");
  EXPECT_EQ(error_of("s\t65540\t1\t2\t1\t2\t1\t32\t9\t9\t200\t*\tA\tA"),
            "'tasks.tsv' line 7: unknown flag bits in 65540");
}

TEST(TaskFile, SpliceScoringLimits) {
  EXPECT_EQ(validate_splice_scoring({1, 2, 1, 2, 1, 32, 0}, 9, 9), "");
  EXPECT_EQ(validate_splice_scoring({127, 127, 127, 0, 127, 127, 0}, 127, -128), "");  // wraps, as ksw_exts2
  // Past the int8 range, as minimap2 passes them (-A200 -B200 -C300 --junc-bonus 200):
  // taken, computed by the scalar oracle.
  EXPECT_EQ(validate_splice_scoring({200, 200, 1, 2, 1, 32, 0}, 300, 200), "");
  EXPECT_EQ(validate_splice_scoring({1, 2, 1, 2, 1, 128, 0}, 9, 9), "");  // q2 = -128: the early return
  EXPECT_NE(validate_splice_scoring({1, 2, 1, 2, 0, 32, 0}, 9, 9), "");
  DpTask t;
  t.flag = dp_flag::kSplice;
  t.scoring = {1, 2, 1, 2, 1, 32, 0}, t.noncan = 9, t.junc_bonus = 9;
  EXPECT_FALSE(dp_task_on_oracle(t));
  t.scoring.a = 200;
  EXPECT_TRUE(dp_task_on_oracle(t));
  t.scoring.a = 1, t.noncan = -1;
  EXPECT_TRUE(dp_task_on_oracle(t));
  t.noncan = 9, t.junc_bonus = 200;
  EXPECT_TRUE(dp_task_on_oracle(t));
}

TEST(TaskFile, FormatsAnswers) {
  DpResult r;
  r.score = 5, r.max = 9, r.max_q = 3, r.max_t = 4, r.zdropped = true;
  r.cigar = {4u << 4 | 0, 1u << 4 | 2};
  const auto a = format_answer(r);
  EXPECT_EQ(a[0], "5");
  EXPECT_EQ(a[4], "-1073741824");
  EXPECT_EQ(a[8], "1");
  EXPECT_EQ(a[10], "2");
  EXPECT_EQ(a[11], "4M1D");
  EXPECT_EQ(cigar::to_string({}), "*");
}

// A task written by format_task_line reads back as the same task, with its answer.
void expect_reads_back(const DpTask& t, const DpResult* answer) {
  const std::string line = format_task_line("id7", t, answer);
  ASSERT_FALSE(line.empty());
  ASSERT_EQ(line.back(), '\n');
  const TaskRecord r = parse_task_line(line.substr(0, line.size() - 1), "f", 1);
  EXPECT_EQ(r.id, "id7");
  const DpTask back = r.task();
  EXPECT_EQ(back.flag, t.flag);
  EXPECT_EQ(back.scoring.a, t.scoring.a);
  EXPECT_EQ(back.scoring.b, t.scoring.b);
  EXPECT_EQ(back.scoring.ambi, t.scoring.ambi);
  EXPECT_EQ(back.scoring.q, t.scoring.q);
  EXPECT_EQ(back.scoring.e, t.scoring.e);
  EXPECT_EQ(back.scoring.q2, t.scoring.q2);
  if (!(t.flag & dp_flag::kSplice)) {
    EXPECT_EQ(back.scoring.e2, t.scoring.e2);
    EXPECT_EQ(back.w, t.w);
  }
  EXPECT_EQ(back.zdrop, t.zdrop);
  EXPECT_EQ(back.end_bonus, t.end_bonus);
  EXPECT_EQ(back.noncan, t.noncan);
  EXPECT_EQ(back.junc_bonus, t.junc_bonus);
  EXPECT_EQ(std::vector<uint8_t>(back.query.begin(), back.query.end()),
            std::vector<uint8_t>(t.query.begin(), t.query.end()));
  EXPECT_EQ(std::vector<uint8_t>(back.target.begin(), back.target.end()),
            std::vector<uint8_t>(t.target.begin(), t.target.end()));
  EXPECT_EQ(std::vector<uint8_t>(back.junc.begin(), back.junc.end()), std::vector<uint8_t>(t.junc.begin(), t.junc.end()));
  EXPECT_EQ(r.has_answer, answer != nullptr);
  if (answer) {
    EXPECT_EQ(r.answer, format_answer(*answer));
  }
}

TEST(TaskFile, FormattedTasksReadBack) {
  const std::vector<uint8_t> q = {0, 1, 2, 3, 4, 0}, t = {3, 3, 2, 1, 0};
  DpTask g;
  g.query = q, g.target = t;
  g.scoring = {2, 4, 1, 4, 2, 24, 1};
  g.flag = 194, g.w = 751, g.zdrop = 400, g.end_bonus = -1;
  DpResult r;
  r.score = -48, r.max = 19, r.max_q = 5, r.max_t = 4, r.mqe = 11, r.mqe_t = 3, r.zdropped = true, r.reach_end = true;
  r.cigar = {4u << 4 | 0, 1u << 4 | 1};
  expect_reads_back(g, &r);
  expect_reads_back(g, nullptr);
  DpTask empty = g;  // empty sequences are '*'
  empty.query = {}, empty.target = {};
  empty.flag = 0, empty.w = -1, empty.zdrop = -1, empty.end_bonus = 0;
  expect_reads_back(empty, &r);
  // A splice task: noncan, junc_bonus, zdrop[,end_bonus] and the junction digits.
  const std::vector<uint8_t> junc = {0, 1, 2, 4, 8};
  DpTask sp;
  sp.query = q, sp.target = t, sp.junc = junc;
  sp.scoring = {1, 2, 1, 2, 1, 32, 0};
  sp.flag = dp_flag::kSplice | dp_flag::kSpliceFor, sp.noncan = 9, sp.junc_bonus = 9, sp.zdrop = 200;
  expect_reads_back(sp, &r);
  sp.end_bonus = 5, sp.junc = {};
  expect_reads_back(sp, nullptr);
}

TEST(TaskFile, FormatRefusesWhatTheColumnsCannotHold) {
  const std::vector<uint8_t> q = {0, 1}, t = {0, 2};
  DpTask g;
  g.query = q, g.target = t;
  g.scoring.transition = 1;  // a matrix with transitions: no column for it
  EXPECT_THROW((void)format_task_line("x", g, nullptr), Error);
  const std::vector<uint8_t> junc = {16, 0};
  DpTask sp;
  sp.query = q, sp.target = t, sp.junc = junc;
  sp.scoring = {1, 2, 1, 2, 1, 32, 0};
  sp.flag = dp_flag::kSplice;
  EXPECT_THROW((void)format_task_line("x", sp, nullptr), Error);
}

}  // namespace
}  // namespace agatha::io
