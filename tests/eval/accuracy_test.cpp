// `agatha eval` and the accuracy library on hand-checked fixtures
// (tests/data/eval/README.md lists what each read of cases.* exercises).
#include "eval_cli.hpp"

#include "src/eval/accuracy.hpp"
#include "src/eval/compare.hpp"
#include "src/eval/truth.hpp"

#include <agatha/error.hpp>

#include <gtest/gtest.h>

#include <tuple>
#include <htslib/sam.h>

#include <functional>

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

// start + size near 2^63 does not fit in int64: an error naming the file and line, not
// a wrapped (undefined) end.
TEST(Accuracy, MafPositionsOutOfRangeAreErrors) {
  test::TempDir d;
  const std::string read = "s r 0 4 + 4 ACGT\n";
  for (const std::string ref : {"s chrA 9223372036854775800 100 + 9223372036854775807 ACGT\n",
                                "s chrA 9223372036854775807 9223372036854775807 + 9223372036854775807 ACGT\n",
                                "s chrA 99999999999999999999 4 + 100 ACGT\n",
                                "s chrA 10 4 + 99999999999999999999 ACGT\n", "s chrA 98 4 + 100 ACGT\n"}) {
    const std::string maf = d.write("big.maf", "a\n" + ref + read);
    try {
      eval::load_truth(maf);
      ADD_FAILURE() << "accepted: " << ref;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()),
                "'" + maf + "' line 2: MAF 's' line: position out of range (start + size must be at most srcSize)")
          << ref;
    }
  }
  // The read line is held to the same bound.
  const std::string maf = d.write("read.maf", "a\ns chrA 0 4 + 100 ACGT\ns r 1 4 + 4 ACGT\n");
  EXPECT_THROW(eval::load_truth(maf), InputError);
  // Right at the bound is fine.
  const std::string ok = d.write("ok.maf", "a\ns chrA 96 4 + 100 ACGT\n" + read);
  EXPECT_EQ(eval::load_truth(ok).by_read.at("r").end, 100);
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
  const std::string paf = (d.dir / "x.paf").string();
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
  const std::string sam = (d.dir / "x.sam").string();
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

// Every prefix of a BAM file is an error, never a crash, a read past the data (which a
// build with -Db_sanitize=address reports) or a silently shorter input.
TEST(Accuracy, EveryTruncationOfABamIsHandled) {
  test::TempDir d;
  const eval::Truth t = eval::load_truth(eval_data("truth.maf"));
  const std::string full = test::slurp(eval_data("cases.bam"));
  size_t errors = 0;
  for (size_t n = 1; n < full.size(); ++n) {  // an empty file is PAF without records
    const std::string bam = d.write("cut.bam", full.substr(0, n));
    try {
      eval::evaluate(t, bam, 0.1);
    } catch (const InputError&) {
      ++errors;
    }
  }
  EXPECT_EQ(errors, full.size() - 1);
}

// Writes the records of SAM to BAM, COPIES times over, each changed by EDIT first.
void write_bam(const std::string& sam, const std::string& bam, int copies,
               const std::function<void(bam1_t*)>& edit = {}) {
  samFile* in = sam_open(sam.c_str(), "r");
  ASSERT_TRUE(in);
  sam_hdr_t* hdr = sam_hdr_read(in);
  ASSERT_TRUE(hdr);
  std::vector<bam1_t*> recs;
  for (;;) {
    bam1_t* b = bam_init1();
    if (sam_read1(in, hdr, b) < 0) {
      bam_destroy1(b);
      break;
    }
    recs.push_back(b);
  }
  samFile* out = sam_open(bam.c_str(), "wb");
  ASSERT_TRUE(out);
  ASSERT_EQ(sam_hdr_write(out, hdr), 0);
  for (int i = 0; i < copies; ++i)
    for (bam1_t* b : recs) {
      if (edit) edit(b);
      ASSERT_GE(sam_write1(out, hdr, b), 0);
    }
  ASSERT_EQ(sam_close(out), 0);
  for (bam1_t* b : recs) bam_destroy1(b);
  sam_hdr_destroy(hdr);
  sam_close(in);
}

// The offsets at which the BGZF blocks of DATA end (each block says its own size).
std::vector<size_t> bgzf_block_ends(const std::string& data) {
  std::vector<size_t> ends;
  for (size_t at = 0; at + 18 <= data.size();) {
    at += (static_cast<uint8_t>(data[at + 16]) | static_cast<uint8_t>(data[at + 17]) << 8) + 1;
    ends.push_back(at);
  }
  return ends;
}

// Cut at a block boundary, a BAM is a valid shorter file but for its missing end
// marker; htslib only warns, and the counts would silently cover part of the input.
// An uncompressed BAM of 127 bytes whose header claims 4 GiB of text (found by
// fuzzing: htslib allocated it as stated) or 2^31 references is refused before htslib
// reads the header.
TEST(Accuracy, BamHeaderSizesBeyondTheFileAreErrors) {
  test::TempDir d;
  std::string text_len("BAM\1\xff\xff\xff\xff", 8);
  text_len += std::string(119, '\xff');
  std::string refs("BAM\1\0\0\0\0\0\0\0\x80", 12);
  refs += std::string(20, '\0');
  for (const auto& [name, bytes, what] :
       {std::tuple{"text.bam", text_len, std::string("4294967295 bytes of header text in a file of 127 bytes")},
        std::tuple{"refs.bam", refs, std::string("2147483648 references in a file of 32 bytes")}}) {
    const std::string path = d.write(name, bytes);
    try {
      eval::AlignmentReader r(path);
      ADD_FAILURE() << name << " was read";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), "'" + path + "': damaged BAM header: " + what);
    }
  }
}

TEST(Accuracy, BamCutBetweenBlocksIsAnError) {
  test::TempDir d;
  const std::string bam = (d.dir / "big.bam").string();
  write_bam(eval_data("mm.map-pb.sam"), bam, 40);
  const std::string full = test::slurp(bam);
  const std::vector<size_t> ends = bgzf_block_ends(full);
  ASSERT_GE(ends.size(), 4u);  // header, records..., the empty end-of-file block
  ASSERT_EQ(ends.back(), full.size());
  const eval::Truth t = eval::load_truth(eval_data("truth.maf"));
  EXPECT_EQ(eval::evaluate(t, bam, 0.1).records, 320u);
  for (size_t i = 0; i + 1 < ends.size(); ++i) {
    const std::string cut = d.write("cut.bam", full.substr(0, ends[i]));
    const std::string msg = "'" + cut + "': truncated BAM file (no end-of-file marker)";
    try {
      eval::evaluate(t, cut, 0.1);
      ADD_FAILURE() << "eval accepted a BAM cut after block " << i;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), msg);
    }
    try {
      eval::compare_files(cut, cut, 0);
      ADD_FAILURE() << "compare accepted a BAM cut after block " << i;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), msg);
    }
  }
}

// A BAM record stored mapped but at position -1 is unmapped, as htslib makes the same
// record in SAM (POS 0); otherwise the interval would start before the contig.
TEST(Accuracy, BamRecordWithoutPositionIsUnmappedAsInSam) {
  test::TempDir d;
  const eval::Truth t = eval::load_truth(eval_data("truth.maf"));
  const std::string hdr = "@SQ\tSN:chrA\tLN:10000\n";
  const std::string at1 = d.write("at1.sam", hdr + "r4\t0\tchrA\t1\t60\t1000M\t*\t0\t0\t*\t*\n");
  const std::string at0 = d.write("at0.sam", hdr + "r4\t0\tchrA\t0\t60\t1000M\t*\t0\t0\t*\t*\n");
  const std::string bam = (d.dir / "nopos.bam").string();
  write_bam(at1, bam, 1, [](bam1_t* b) { b->core.pos = -1; });
  EXPECT_EQ(eval::evaluate(t, at1, 0.1).at(0).mapped, 1u);
  EXPECT_EQ(eval::evaluate(t, at0, 0.1).at(0).mapped, 0u);
  EXPECT_EQ(eval::evaluate(t, bam, 0.1).at(0).mapped, 0u);
}

// A truth FASTQ may start with blank lines: records are counted from the first header.
TEST(Accuracy, FastqTruthAfterBlankLines) {
  test::TempDir d;
  const std::string fq = d.write("t.fq", "\n\n@a!chrA!0!4!+\nACGT\n+\n@@@@\n@b!chrA!4!8!-\nACGT\n+\nIIII\n");
  const eval::Truth t = eval::load_truth(fq);
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(t.by_read.at("b!chrA!4!8!-").strand, '-');
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
