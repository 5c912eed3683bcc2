// `agatha eval` and the accuracy library (src/eval/accuracy.cpp) on hand-checked
// fixtures (tests/data/eval/README.md lists what each read of cases.* exercises).
#include "src/eval/accuracy.hpp"

#include <agatha/error.hpp>

#include <gtest/gtest.h>

#include <string>

#include "eval_test.hpp"
#include "src/eval/truth.hpp"
#include "support/files.hpp"

namespace agatha {
namespace {

using test::agatha;
using test::eval_data;

// Hand-computed from the fixture: 9 truth reads; primaries r1 Q60 correct, r2 Q50 wrong
// strand, r3 Q40 wrong contig, r4 Q30 overlap 182/1818 = 0.1001 correct, r5 Q20
// overlap 181/1819 = 0.0995 wrong, r8 Q5 correct, r9 Q0 wrong; r6 unmapped, r7 absent.
const std::string kRows =
    ">=60\t1\t0.1111\t0\t0.000000\n"
    ">=50\t2\t0.2222\t1\t0.500000\n"
    ">=40\t3\t0.3333\t2\t0.666667\n"
    ">=30\t4\t0.4444\t2\t0.500000\n"
    ">=20\t5\t0.5556\t3\t0.600000\n"
    ">=10\t5\t0.5556\t3\t0.600000\n"
    ">=0\t7\t0.7778\t4\t0.571429\n";

TEST(Accuracy, OverlapThresholdIsStrict) {
  eval::Origin t{"chrA", 0, 1000, '+'};
  eval::AlnRecord a;
  a.mapped = true, a.contig = "chrA", a.strand = '+', a.start = 818, a.end = 1818;
  EXPECT_TRUE(eval::is_correct(t, a, 0.1));
  a.start = 819, a.end = 1819;
  EXPECT_FALSE(eval::is_correct(t, a, 0.1));
  a.start = 0, a.end = 1000, a.strand = '-';
  EXPECT_FALSE(eval::is_correct(t, a, 0.1));
  a.strand = '+', a.contig = "chrB";
  EXPECT_FALSE(eval::is_correct(t, a, 0.1));
}

TEST(Accuracy, LibraryCountsMatchHandComputation) {
  const eval::Truth t = eval::load_truth(eval_data("truth.maf"));
  const eval::AccuracyReport r = eval::evaluate(t, eval_data("cases.sam"), 0.1);
  EXPECT_EQ(r.truth_reads, 9u);
  EXPECT_EQ(r.unmapped, 2u);
  EXPECT_EQ(r.absent.count, 1u);
  EXPECT_EQ(r.unknown.count, 1u);
  EXPECT_EQ(r.duplicate.count, 0u);
  EXPECT_EQ(r.at(10).mapped, 5u);
  EXPECT_EQ(r.at(10).wrong, 3u);
}

TEST(EvalCli, SamPafAndBamAgreeWithHandComputation) {
  for (const char* f : {"cases.sam", "cases.paf", "cases.bam"}) {
    const auto r = agatha("eval --truth " + eval_data("truth.maf") + " -l x " + eval_data(f), "2>/dev/null");
    EXPECT_EQ(r.code, 0) << f;
    EXPECT_EQ(r.out, "MAPQ\tx:mapped\tx:frac\tx:wrong\tx:error\n" + kRows +
                         "summary\tx\treads 9\tunmapped 2\tmapped(Q>=10) 0.5556\terror(Q>=10) 0.600000\n")
        << f;
  }
}

TEST(EvalCli, WarnsAboutAbsentAndUnknownReads) {
  const std::string sam = eval_data("cases.sam"), paf = eval_data("cases.paf");
  const auto r = agatha("eval --truth " + eval_data("truth.maf") + " " + sam + " " + paf, "2>&1 >/dev/null");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "[W::eval] '" + sam + "': 1 truth reads never appear in the file (counted as unmapped), e.g. r7\n" +
                       "[W::eval] '" + sam + "': 1 reads in the file are not in the truth (ignored), e.g. zz\n" +
                       "[W::eval] '" + paf +
                       "': 2 truth reads never appear in the file (counted as unmapped), e.g. r6, r7\n" +
                       "[W::eval] '" + paf + "': 1 reads in the file are not in the truth (ignored), e.g. zz\n");
}

TEST(EvalCli, InputsSideBySide) {
  const auto r = agatha(
      "eval --truth " + eval_data("truth.maf") + " -l a -l b " + eval_data("cases.sam") + " " + eval_data("cases.paf"),
      "2>/dev/null");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
            "MAPQ\ta:mapped\ta:frac\ta:wrong\ta:error\tb:mapped\tb:frac\tb:wrong\tb:error");
  EXPECT_NE(r.out.find(">=0\t7\t0.7778\t4\t0.571429\t7\t0.7778\t4\t0.571429\n"), std::string::npos) << r.out;
}

TEST(EvalCli, DuplicatePrimaryIsReported) {
  const std::string dup = eval_data("dup.sam");
  const auto r = agatha("eval --truth " + eval_data("truth.maf") + " " + dup, "2>&1 >/dev/null");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(
      r.out.find("[W::eval] '" + dup + "': 1 reads have more than one primary record (the first is judged), e.g. r1\n"),
      std::string::npos)
      << r.out;
}

TEST(EvalCli, TruthFromReadNames) {
  test::TempDir d;
  const std::string paf =
      d.write("n.paf",
              "a!chrA!100!1100!+\t1000\t0\t1000\t+\tchrA\t9000\t100\t1100\t1000\t1000\t60\ttp:A:P\n"
              "b!chrA!100!1100!+\t1000\t0\t1000\t-\tchrA\t9000\t100\t1100\t1000\t1000\t3\ttp:A:P\n");
  const auto r = agatha("eval -l n " + paf, "2>&1");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find(">=60\t1\t0.5000\t0\t0.000000\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(">=0\t2\t1.0000\t1\t0.500000\n"), std::string::npos) << r.out;
}

TEST(EvalCli, NameWithoutOriginNeedsTruth) {
  const std::string sam = eval_data("cases.sam");
  const auto r = agatha("eval " + sam);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "[E::eval] '" + sam +
                       "' record 1: read name 'r1' does not encode its origin (name!contig!start!end!strand); give "
                       "--truth\n");
}

TEST(EvalCli, MalformedTruthAndAlignments) {
  test::TempDir d;
  const std::string sam = eval_data("cases.sam");
  const std::string maf = d.write("bad.maf", "a\ns chrA 10 x + 100 ACGT\n");
  auto r = agatha("eval --truth " + maf + " " + sam);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out,
            "[E::eval] '" + maf + "' line 2: MAF 's' line: start, size and srcSize must be non-negative integers\n");
  const std::string cut = d.write("cut.maf", "a\ns chrA 10 20 + 100 ACGT\n");
  r = agatha("eval --truth " + cut + " " + sam);
  EXPECT_EQ(r.out, "[E::eval] '" + cut + "': last MAF block is incomplete\n");
  const std::string twice =
      d.write("twice.maf", "a\ns chrA 1 2 + 9 A\ns r 0 2 + 2 A\na\ns chrA 1 2 + 9 A\ns r 0 2 + 2 A\n");
  r = agatha("eval --truth " + twice + " " + sam);
  EXPECT_EQ(r.out, "[E::eval] '" + twice + "' line 6: read 'r' appears twice in the truth\n");
  const std::string paf = d.write("bad.paf",
                                  "r1\t1000\t0\t1000\t+\tchrA\t10000\t1000\t2000\t1000\t1000\t60\n"
                                  "r2\t1000\t0\t1000\t+\tchrA\t10000\tten\t2000\t1000\t1000\t60\n");
  r = agatha("eval --truth " + eval_data("truth.maf") + " " + paf);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "[E::eval] '" + paf + "' line 2: column 8 (target start) is not a non-negative integer: 'ten'\n");
  const std::string junk = d.write("junk.txt", "hello world\n");
  r = agatha("eval --truth " + eval_data("truth.maf") + " " + junk);
  EXPECT_EQ(r.out, "[E::eval] '" + junk + "' is not SAM, BAM or PAF: line 1 has 1 tab-separated columns\n");
  r = agatha("eval --truth " + (d / "none.maf").string() + " " + sam);
  EXPECT_EQ(r.out, "[E::eval] cannot open '" + (d / "none.maf").string() + "': No such file or directory\n");
}

TEST(EvalCli, TruncatedBamIsAnErrorNotACrash) {
  test::TempDir d;
  const std::string full = test::read_file(eval_data("cases.bam"));
  const std::string bam = d.write("cut.bam", full.substr(0, full.size() / 2));
  const auto r = agatha("eval --truth " + eval_data("truth.maf") + " " + bam);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "[E::eval] error reading '" + bam + "' after line 0: truncated gzip stream\n");
}

TEST(EvalCli, MafPositionOverflowIsAnError) {
  test::TempDir d;
  const std::string maf =
      d.write("x.maf", "a\ns chrA 9223372036854775800 100 + 9223372036854775807 ACGT\ns r 0 4 + 4 ACGT\n");
  const auto r = agatha("eval --truth " + maf + " " + eval_data("cases.sam"));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "[E::eval] '" + maf +
                       "' line 2: MAF 's' line: position out of range (start + size must be at most srcSize)\n");
}

TEST(EvalCli, PafPositionsOutOfRangeAreErrors) {
  test::TempDir d;
  const std::string truth = eval_data("truth.maf");
  const auto run = [&](const std::string& cols) {
    return agatha("eval --truth " + truth + " " + d.write("x.paf", "r1\t1000\t0\t1000\t+\tchrA\t" + cols + "\n"));
  };
  const std::string paf = (d / "x.paf").string();
  auto r = run("10000\t99999999999999999999\t2000\t1000\t1000\t60");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "[E::eval] '" + paf + "' line 1: column 8 (target start) is out of range: '99999999999999999999'\n");
  r = run("10000\t2000\t1000\t1000\t1000\t60");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "[E::eval] '" + paf +
                       "' line 1: position out of range: target start 2000 and end 1000 must satisfy start <= end "
                       "<= target length 10000\n");
  r = run("10000\t9000\t10001\t1000\t1000\t60");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("position out of range: target start 9000 and end 10001"), std::string::npos) << r.out;
  r = run("9223372036854775807\t0\t9223372036854775807\t1000\t1000\t60");
  EXPECT_EQ(r.code, 0) << r.out;
  r = run("10000\t1000\t2000\t1000\t1000\t-1");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "[E::eval] '" + paf + "' line 1: column 12 (mapping quality) is not a non-negative integer: '-1'\n");
  r = run("10000\t1000\t2000\t1000\t1000");  // a column short
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "[E::eval] '" + paf + "' line 1: expected at least 12 tab-separated PAF columns, found 11\n");
  r = run("10000\t\t2000\t1000\t1000\t60");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "[E::eval] '" + paf + "' line 1: column 8 (target start) is not a non-negative integer: ''\n");
}

// htslib bounds SAM positions and CIGAR lengths itself; out of range they must stay
// errors, not wrapped intervals.
TEST(EvalCli, SamPositionsOutOfRangeAreErrors) {
  test::TempDir d;
  const std::string hdr = "@SQ\tSN:chrA\tLN:10000\n";
  const auto run = [&](const std::string& rec) {
    return agatha("eval --truth " + eval_data("truth.maf") + " " + d.write("x.sam", hdr + rec), "2>&1 >/dev/null");
  };
  const std::string sam = (d / "x.sam").string();
  for (const std::string rec :
       {"r1\t0\tchrA\t9223372036854775800\t60\t1000M\t*\t0\t0\t*\t*\n",
        "r1\t0\tchrA\t99999999999999999999\t60\t10M\t*\t0\t0\t*\t*\n",
        "r1\t0\tchrA\t100\t60\t99999999999M\t*\t0\t0\t*\t*\n", "r1\t0\tchrA\t100\t60\t10M\t*\t0\t0\tACGT\t*\n",
        "r1\t0\tchrA\tx\t60\t10M\t*\t0\t0\t*\t*\n", "r1\t0\tchrA\t100\n"}) {
    const auto r = run(rec);
    EXPECT_EQ(r.code, 1) << rec;
    EXPECT_NE(r.out.find("[E::eval] '" + sam + "': malformed or truncated SAM record 1\n"), std::string::npos)
        << rec << r.out;
  }
  // Long, but well within range.
  EXPECT_EQ(run("r1\t0\tchrA\t100\t60\t268435455M268435455N268435455D\t*\t0\t0\t*\t*\n").code, 0);
}

TEST(EvalCli, MoreLabelsThanFilesIsAUsageError) {
  const std::string truth = eval_data("truth.maf"), sam = eval_data("cases.sam");
  auto r = agatha("eval --truth " + truth + " -l a -l b -l c " + sam + " " + eval_data("cases.paf"));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "[E::eval] 3 labels (-l) given for 2 alignment files; give at most one label per file\n");
  r = agatha("eval --truth " + truth + " -l a -l b " + sam);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "[E::eval] 2 labels (-l) given for 1 alignment file; give at most one label per file\n");
  // A label is one column name of a tab-separated table.
  r = agatha("eval --truth " + truth + " -l '' " + sam);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "[E::eval] label '' must be non-empty and without tabs or line breaks\n");
  r = agatha("eval --truth " + truth + " -l 'a\tb' " + sam);
  EXPECT_EQ(r.code, 1);
}

TEST(EvalCli, FilesAfterTheLastLabelAreNamedByPath) {
  const std::string sam = eval_data("cases.sam"), paf = eval_data("cases.paf");
  const auto r = agatha("eval --truth " + eval_data("truth.maf") + " -l a " + sam + " " + paf, "2>/dev/null");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "MAPQ\ta:mapped\ta:frac\ta:wrong\ta:error\t" + paf + ":mapped\t" + paf +
                                                   ":frac\t" + paf + ":wrong\t" + paf + ":error");
  EXPECT_NE(r.out.find("\nsummary\t" + paf + "\treads 9\t"), std::string::npos) << r.out;
  const auto h = agatha("eval --help");
  EXPECT_NE(h.out.find("inputs after the last\nlabel are named by their path as given"), std::string::npos) << h.out;
}

// CLI11's range check compares, and every comparison with NaN is false.
TEST(EvalCli, OverlapMustBeAFiniteNumberInRange) {
  const std::string args = " --truth " + eval_data("truth.maf") + " " + eval_data("cases.sam");
  for (const char* v : {"nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e999", "2", "-0.1", "1.5", "x", "0.5x"}) {
    const auto r = agatha("eval --overlap='" + std::string(v) + "'" + args);
    EXPECT_EQ(r.code, 1) << v;
    EXPECT_NE(r.out.find("--overlap: '" + std::string(v) + "' is not a number from 0 to 1"), std::string::npos)
        << v << ": " << r.out;
  }
  for (const char* v : {"0", "0.1", ".25", "1", "1e-3"}) {
    const auto r = agatha("eval --overlap " + std::string(v) + args, "2>/dev/null");
    EXPECT_EQ(r.code, 0) << v << ": " << r.out;
  }
}

TEST(EvalCli, HelpDefinesMappedAndErrorRate) {
  const auto r = agatha("eval --help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("mapped = reads whose primary is mapped with MAPQ >= Q (cumulative count)"), std::string::npos);
  EXPECT_NE(r.out.find("error  = wrong / mapped (0 when mapped is 0)"), std::string::npos);
}

}  // namespace
}  // namespace agatha
