// `agatha align --map-only` end to end against minimap2 2.24's mapping-only PAF
// (tests/data/align, commands in tests/data/README.md): the pipeline of
// src/pipeline/read_mapper.cpp run in batches and threads by batch_aligner.cpp.
// Byte-identical output per preset and option set, the same output for any -t and -K,
// through an .agi index, and the exact messages and exit codes of bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/files.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace agatha {
namespace {

namespace fs = std::filesystem;

using Outcome = test::CommandResult;
using test::last_line;
using test::read_file;

class AlignCli : public ::testing::Test {
 protected:
  // Runs `agatha ARGS`: stdout in `out`, stderr in `err`.
  static Outcome run(const std::string& args) { return test::run_agatha(args); }
  std::string write(const std::string& name, const std::string& text) const { return dir_.write(name, text); }
  test::TempDir dir_;
};

std::string src(const std::string& rel) { return test::quoted_source_path(rel); }

const std::string kMtRef = src("data/ref.fa"), kMtReads = src("data/reads.fq");
const std::string kRepRef = src("tests/data/seeds/rep.fa.gz"), kRepReads = src("tests/data/seeds/rep.fq");

struct PafCase {
  std::string name, args, ref, reads, expected;
};

class AlignPaf : public AlignCli, public ::testing::WithParamInterface<PafCase> {};

TEST_P(AlignPaf, EqualsMinimap2) {
  const PafCase& c = GetParam();
  const Outcome r = run("align --map-only " + c.args + " " + c.ref + " " + c.reads);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string path = test::source_path("tests/data/align/" + c.expected);
  const std::string want = c.expected.ends_with(".gz") ? test::read_gz(path) : read_file(path);
  ASSERT_FALSE(want.empty());
  EXPECT_EQ(r.out, want);
}

INSTANTIATE_TEST_SUITE_P(
    Minimap2, AlignPaf,
    ::testing::Values(PafCase{"mt_map_pb", "-x map-pb", kMtRef, kMtReads, "mt.map-pb.paf"},
                      PafCase{"mt_map_ont", "-x map-ont", kMtRef, kMtReads, "mt.map-ont.paf"},
                      PafCase{"mt_map_hifi", "-x map-hifi", kMtRef, kMtReads, "mt.map-hifi.paf"},
                      PafCase{"rep_map_pb", "-x map-pb", kRepRef, kRepReads, "rep.map-pb.paf"},
                      PafCase{"rep_map_ont", "-x map-ont", kRepRef, kRepReads, "rep.map-ont.paf"},
                      PafCase{"rep_map_hifi", "-x map-hifi", kRepRef, kRepReads, "rep.map-hifi.paf"},
                      PafCase{"rep_asm20", "-x asm20", kRepRef, kRepReads, "rep.asm20.paf"},
                      PafCase{"rep_map_pb_f20", "-x map-pb -f 20", kRepRef, kRepReads, "rep.map-pb.f20.paf"},
                      PafCase{"rep_map_ont_opts",
                              "-x map-ont -r 300,5000 -g 2k -n 4 -m 60 -N 2 -p 0.6 --mask-level 0.4 -U 5,2000", kRepRef,
                              kRepReads, "rep.map-ont.opts.paf"},
                      PafCase{"rep_map_pb_nosec", "-x map-pb --secondary=no -k 17 -w 8 -H", kRepRef, kRepReads,
                              "rep.map-pb.nosec.paf"},
                      // short reads: the heap order of anchors, the sr chaining limits, the
                      // re-chaining with max_occ (most mapped reads of the repeat set), MAPQ
                      PafCase{"sr_ecoli", "-x sr", src("tests/data/e2e/ont.ref.fa.gz"),
                              src("tests/data/e2e/sr.ecoli.fq.gz"), "sr.ecoli.paf.gz"},
                      PafCase{"sr_rep", "-x sr", kRepRef, src("tests/data/e2e/sr.rep.fq.gz"), "sr.rep.paf.gz"}),
    [](const auto& info) { return info.param.name; });

// -t and -K change only how the work is cut, never the output.
TEST_F(AlignCli, SameOutputForAnyThreadsAndBatchSize) {
  const std::string want = read_file(test::source_path("tests/data/align/mt.map-pb.paf"));
  for (const char* opts : {"-t 1 -K 1", "-t 1 -K 20k", "-t 2 -K 1", "-t 2 -K 50k", "-t 3", "-t 8 -K 7k"}) {
    const Outcome r = run(std::string("align --map-only -x map-pb ") + opts + " " + kMtRef + " " + kMtReads);
    ASSERT_EQ(r.code, 0) << opts << ": " << r.err;
    EXPECT_EQ(r.out, want) << opts;
  }
}

TEST_F(AlignCli, ReadsFromStandardInput) {
  const Outcome r = run("align --map-only -x map-ont -t 2 " + kMtRef + " - < " + kMtReads);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, read_file(test::source_path("tests/data/align/mt.map-ont.paf")));
}

TEST_F(AlignCli, IndexRoundTripGivesTheSamePaf) {
  const std::string agi = (dir_ / "rep.agi").string();
  const Outcome built = run("index -x map-hifi " + kRepRef + " -o '" + agi + "'");
  ASSERT_EQ(built.code, 0) << built.err;
  ASSERT_TRUE(fs::exists(agi));
  const std::string paf = (dir_ / "out.paf").string();
  const Outcome r = run("align --map-only -x map-hifi -t 2 '" + agi + "' " + kRepReads + " -o '" + paf + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(read_file(paf), read_file(test::source_path("tests/data/align/rep.map-hifi.paf")));
  // -k/-H in the index command shape the index; align takes them from the .agi.
  ASSERT_EQ(run("index -x map-pb -k 17 -w 8 -H " + kRepRef + " -o '" + agi + "'").code, 0);
  const Outcome r2 = run("align --map-only -x map-pb --secondary=no '" + agi + "' " + kRepReads);
  ASSERT_EQ(r2.code, 0) << r2.err;
  EXPECT_EQ(r2.out, read_file(test::source_path("tests/data/align/rep.map-pb.nosec.paf")));
  for (const auto& e : fs::directory_iterator(dir_.path()))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
}

TEST_F(AlignCli, UnmappedReadsAndEmptyInputPrintNothing) {
  const std::string reads = write("r.fa", ">nohit\nACGTACGTACGTACGTACGTACGTACGTACGTACGTACGT\n>empty\n\n");
  const Outcome r = run("align --map-only " + kMtRef + " '" + reads + "'");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const Outcome r2 = run("align --map-only " + kMtRef + " '" + write("none.fq", "") + "'");
  EXPECT_EQ(r2.code, 0) << r2.err;
  EXPECT_EQ(r2.out, "");
}

// ---- errors: exact message (last stderr line) and exit code 1 ----

struct ErrorCase {
  std::string args;  // {dir} is replaced by the test's folder
  std::string message;
};

void expect_error(const Outcome& r, const std::string& message) {
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(last_line(r.err), message);
  EXPECT_EQ(r.out, "");
}

TEST_F(AlignCli, OptionErrorsAreWordedAsMinimap2) {
  const std::vector<ErrorCase> cases = {
      {"-x foo", "[E::align] unknown preset 'foo'"},
      {"-k 30", "[E::align] -k must be at most 28"},
      {"-w 0", "[E::align] -k and -w must be positive"},
      {"-w 300", "[E::align] -w must be less than 256"},
      {"-N -1", "[E::align] -N must be no less than 0"},
      {"-p 2", "[E::align] -p must be within 0 and 1 (including 0 and 1)"},
      {"--secondary=maybe", "[E::align] --secondary only takes 'yes' or 'no'"},
      {"-g 5x", "[E::align] invalid value '5x' for -g"},
      {"-r 500x2", "[E::align] invalid value '500x2' for -r"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.args);
    expect_error(run("align --map-only " + c.args + " " + kMtRef + " " + kMtReads), c.message);
  }
}

// `-x` without its value takes the next argument as the preset: that is the error, not
// the argument now missing at the end ("reads is required").
TEST_F(AlignCli, DashXWithoutAPresetNamesTheWordItTook) {
  const std::string ref = test::source_path("data/ref.fa");
  expect_error(run("align --map-only -x " + ref + " " + kMtReads), "[E::align] unknown preset '" + ref + "'");
  expect_error(run("index -x " + ref + " -o /dev/null"), "[E::index] unknown preset '" + ref + "'");
}

// Without --map-only the output is SAM: the header (minimap2 2.31's @HD line, by
// default; none with --compat 2.24), then every read of the example exactly once as a
// primary (or unmapped) record.
TEST_F(AlignCli, WithoutMapOnlyWritesSam) {
  const Outcome r24 = run("align --compat 2.24 -x map-pb -t 2 " + kMtRef + " " + kMtReads);
  ASSERT_EQ(r24.code, 0) << r24.err;
  ASSERT_TRUE(r24.out.starts_with("@SQ\tSN:MT_orang\tLN:16499\n@PG\tID:agatha\t")) << r24.out.substr(0, 200);
  const Outcome r = run("align -x map-pb -t 2 " + kMtRef + " " + kMtReads);
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_TRUE(r.out.starts_with("@HD\tVN:1.6\tSO:unsorted\tGO:query\n@SQ\tSN:MT_orang\tLN:16499\n@PG\tID:agatha\t"))
      << r.out.substr(0, 200);
  std::map<std::string, int> primaries;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("@")) continue;
    const size_t t1 = line.find('\t'), t2 = line.find('\t', t1 + 1);
    const int flag = std::stoi(line.substr(t1 + 1, t2 - t1 - 1));
    if ((flag & 0x900) == 0) ++primaries[line.substr(0, t1)];
  }
  EXPECT_EQ(primaries.size(), 155u);
  for (const auto& [name, n] : primaries) EXPECT_EQ(n, 1) << name;
}

TEST_F(AlignCli, BadInputNamesFileAndRecord) {
  const std::string d = dir_.string();
  write("dup.fa", ">a\nACGT\n>b\nACGT\n>a\nACGT\n");
  write("empty.fa", "");
  write("text.txt", "hello\n");
  write("badq.fq", "@r1\nACGTACGT\n+\nIIIIIIII\n@r2\nACGTACGT\n+\nIII\n");
  const std::vector<ErrorCase> cases = {
      {kMtRef + " " + d + "/nosuch.fq", "[E::align] cannot open '" + d + "/nosuch.fq': No such file or directory"},
      {d + "/nosuch.fa " + kMtReads, "[E::align] cannot open '" + d + "/nosuch.fa': No such file or directory"},
      {d + "/empty.fa " + kMtReads, "[E::align] '" + d + "/empty.fa': no sequences"},
      {d + "/dup.fa " + kMtReads, "[E::align] '" + d + "/dup.fa' record 3: duplicate sequence name 'a'"},
      {d + "/text.txt " + kMtReads,
       "[E::align] '" + d + "/text.txt' line 1: not FASTA or FASTQ: expected '>' or '@', found 'h'"},
      {kMtRef + " " + d + "/text.txt",
       "[E::align] '" + d + "/text.txt' line 1: not FASTA or FASTQ: expected '>' or '@', found 'h'"},
      {kMtRef + " " + d + "/badq.fq", "[E::align] '" + d +
                                          "/badq.fq' line 8 (record 2 'r2', starting at line 5): quality string "
                                          "length 3 differs from sequence length 8"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.args);
    expect_error(run("align --map-only " + c.args), c.message);
  }
  // With more than one thread the first batch of reads is read while the index is built:
  // a bad read is still reported as such, and a bad reference still first.
  // (SAM output has its header written by then.)
  for (const std::string t : {"1", "2"}) {
    SCOPED_TRACE("-t " + t);
    expect_error(run("align --map-only -t " + t + " " + cases.back().args), cases.back().message);
    const Outcome sam = run("align -t " + t + " " + cases.back().args);
    EXPECT_EQ(sam.code, 1);
    EXPECT_EQ(last_line(sam.err), cases.back().message);
    expect_error(run("align -t " + t + " " + d + "/dup.fa " + d + "/badq.fq"),
                 "[E::align] '" + d + "/dup.fa' record 3: duplicate sequence name 'a'");
  }
}

// A truncated gzip stream fails after earlier reads were mapped; -o must not be left
// holding a partial file that looks complete.
TEST_F(AlignCli, TruncatedGzipLeavesNoOutputFile) {
  const std::string fq = read_file(test::source_path("data/reads.fq"));
  const std::string gz_path = (dir_ / "reads.fq.gz").string();
  ASSERT_TRUE(test::write_gz(gz_path, fq));
  const std::string whole = read_file(gz_path);
  const std::string cut = write("cut.fq.gz", whole.substr(0, whole.size() * 3 / 4));
  const std::string out = (dir_ / "out.paf").string();
  const Outcome r = run("align --map-only -x map-pb -K 10k -t 2 " + kMtRef + " '" + cut + "' -o '" + out + "'");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(last_line(r.err).find("[E::align] '" + cut + "' line "), std::string::npos) << r.err;
  EXPECT_NE(last_line(r.err).find(": read error (truncated or corrupt compressed stream)"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
  for (const auto& e : fs::directory_iterator(dir_.path()))
    EXPECT_EQ(e.path().filename().string().find("out.paf"), std::string::npos) << e.path();
}

TEST_F(AlignCli, IndexErrors) {
  expect_error(run("index " + kMtRef + " -o " + dir_.string() + "/no/such/dir.agi"),
               "[E::index] cannot create '" + dir_.string() + "/no/such/dir.agi': No such file or directory");
  const std::string dup = write("dup.fa", ">a\nACGT\n>a\nACGT\n");
  const std::string agi = (dir_ / "dup.agi").string();
  expect_error(run("index '" + dup + "' -o '" + agi + "'"),
               "[E::index] '" + dup + "' record 2: duplicate sequence name 'a'");
  EXPECT_FALSE(fs::exists(agi));
  const std::string bad = write("bad.agi", "AGATHAIX\x01");
  expect_error(run("align --map-only '" + bad + "' " + kMtReads),
               "[E::align] '" + bad + "' is not a valid agatha index (.agi): file is truncated");
}

}  // namespace
}  // namespace agatha
