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
  EXPECT_EQ(error_of("t1\t0\t2\t4\t1\t40\t2\t90\t1\t7\t400\t-1\tA\tA"),
            "'tasks.tsv' line 7: scoring cannot be computed exactly: (q+e)+(q2+e2) must be at most 127");
  EXPECT_EQ(error_of("t1\t0\t2\t-4\t1\t4\t2\t24\t1\t7\t400\t-1\tA\tA"),
            "'tasks.tsv' line 7: scoring cannot be computed exactly: every score and penalty must lie in [0, 127]");
}

TEST(TaskFile, ScoringLimits) {
  EXPECT_EQ(validate_scoring({2, 4, 1, 4, 2, 24, 1}), "");
  EXPECT_EQ(validate_scoring({1, 19, 1, 39, 3, 81, 1}), "");  // asm5: 42 + 82 = 124
  EXPECT_NE(validate_scoring({0, 4, 1, 4, 2, 24, 1}), "");
  EXPECT_NE(validate_scoring({110, 4, 1, 4, 2, 24, 1}), "");  // 110 + 25 > 127
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

TEST(TaskFile, SpliceErrors) {
  EXPECT_EQ(error_of("s\t65536\t1\t2\t1\t2\t1\t32\t9\t9\t200\t010\tACGT\tACGTT"),
            "'tasks.tsv' line 7: the junction column has 3 digits for a target of 5 bases");
  EXPECT_EQ(error_of("s\t65536\t1\t2\t1\t2\t1\t32\t9\t9\t200\t01g00\tACGT\tACGTT"),
            "'tasks.tsv' line 7: the junction column has 'g' at 3, expected a hexadecimal digit 0-9 or a-f");
  EXPECT_EQ(error_of("s\t65536\t1\t2\t1\t2\t0\t32\t9\t9\t200\t*\tA\tA"),
            "'tasks.tsv' line 7: splice scoring cannot be computed exactly: the gap extension e must be at least 1 "
            "(ksw_exts2 divides by it)");
  EXPECT_EQ(
      error_of("s\t65536\t1\t2\t1\t2\t1\t32\t9\t200\t200\t*\tA\tA"),
      "'tasks.tsv' line 7: splice scoring cannot be computed exactly: the junction bonus must lie in [-128, 127]");
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
  EXPECT_NE(validate_splice_scoring({1, 2, 1, 2, 1, 128, 0}, 9, 9), "");
  EXPECT_NE(validate_splice_scoring({1, 2, 1, 2, 1, 32, 0}, -1, 9), "");
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

}  // namespace
}  // namespace agatha::io
