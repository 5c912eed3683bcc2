// `agatha eval` and the accuracy library on hand-checked fixtures
// (tests/data/eval/README.md lists what each read of cases.* exercises).
#include "eval_cli.hpp"

#include "src/eval/accuracy.hpp"
#include "src/eval/truth.hpp"

#include <agatha/error.hpp>

#include <gtest/gtest.h>

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

TEST(Accuracy, ParsesOriginNames) {
  const auto o = eval::parse_origin_name("S1_1!MT_orang!9870!11709!-");
  ASSERT_TRUE(o);
  EXPECT_EQ(o->contig, "MT_orang");
  EXPECT_EQ(o->start, 9870);
  EXPECT_EQ(o->end, 11709);
  EXPECT_EQ(o->strand, '-');
  EXPECT_FALSE(eval::parse_origin_name("S1_1"));
  EXPECT_FALSE(eval::parse_origin_name("S1_1!chr!x!2!+"));
  EXPECT_FALSE(eval::parse_origin_name("S1_1!chr!1!2!*"));
}

TEST(Accuracy, LoadsPbsimMaf) {
  const eval::Truth t = eval::load_truth(std::string(AGATHA_SOURCE_DIR) + "/data/reads.maf.gz");
  EXPECT_EQ(t.size(), 155u);
  const eval::Origin& o = t.by_read.at("S1_2");
  EXPECT_EQ(o.contig, "MT_orang");
  EXPECT_EQ(o.start, 8628);
  EXPECT_EQ(o.end, 8628 + 2498);
  EXPECT_EQ(o.strand, '-');
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
  r = agatha("eval --truth " + (d.dir / "none.maf").string() + " " + sam);
  EXPECT_EQ(r.out, "[E::eval] cannot open '" + (d.dir / "none.maf").string() + "': No such file or directory\n");
}

TEST(EvalCli, TruncatedBamIsAnErrorNotACrash) {
  test::TempDir d;
  const std::string full = test::slurp(eval_data("cases.bam"));
  const std::string bam = d.write("cut.bam", full.substr(0, full.size() / 2));
  const auto r = agatha("eval --truth " + eval_data("truth.maf") + " " + bam);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "[E::eval] error reading '" + bam + "' after line 0: truncated gzip stream\n");
}

TEST(EvalCli, HelpDefinesMappedAndErrorRate) {
  const auto r = agatha("eval --help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("mapped = reads whose primary is mapped with MAPQ >= Q (cumulative count)"), std::string::npos);
  EXPECT_NE(r.out.find("error  = wrong / mapped (0 when mapped is 0)"), std::string::npos);
}

}  // namespace
}  // namespace agatha
