// tests/e2e/split_e2e_test.cpp — split indexes end to end against minimap2 2.24: `-I`
// below the reference's size, with and without --split-prefix, SAM, PAF with base
// alignment (-c) and mapping-only PAF, on map-ont, map-pb, map-hifi and splice; a
// multi-part .mmi written by `minimap2 -I -d`; and the bad input of these options.
//
// minimap2 runs at test time on inputs the test makes (the tests that compare skip,
// visibly, without it); agatha must write minimap2's lines exactly, @PG lines aside.
// The reference (453 kb, 8 sequences) interleaves five 50 kb slices of
// tests/data/e2e/ont.ref.fa.gz with the three repeat-rich sequences of
// tests/data/seeds/rep.fa.gz, and copies the slice's bases 62,000-70,000 to the end of
// the third slice and the start of the fifth: with -I 50k the parts are {c0 c1}
// {chr1 c2} {c3 chr2 c4} {chr3}, and reads from those 8 kb map equally well to three
// parts (a primary of MAPQ 0 and two secondaries), reads across slice boundaries have
// supplementaries in other parts, and the rep.fq reads have secondaries and a rep_len
// in several parts. The reads are tests/data/e2e/ont.reads.fq.gz and
// tests/data/seeds/rep.fq (43 reads).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/files.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"
#include "support/text.hpp"

namespace agatha {
namespace {

namespace fs = std::filesystem;
using test::last_line;
using test::last_lines;
using test::shell_quote;

using test::first_difference;
using test::lines_without_pg;

bool have_minimap2() { return test::run_shell("command -v minimap2 > /dev/null 2>&1").code == 0; }

#define SKIP_WITHOUT_MINIMAP2() \
  if (!have_minimap2()) GTEST_SKIP() << "minimap2 is not installed: no output to compare with"

// The test's reference and reads, written once into a folder of their own.
class SplitData {
 public:
  SplitData() {
    const auto ont = test::read_fasta(test::source_path("tests/data/e2e/ont.ref.fa.gz"));
    const auto rep = test::read_fasta(test::source_path("tests/data/seeds/rep.fa.gz"));
    const std::string& s = ont.at("dh10b_1180001_1430000");
    const std::string seg = s.substr(62'000, 8'000);
    const std::vector<std::pair<std::string, std::string>> seqs = {{"c0", s.substr(0, 50'000)},
                                                                   {"c1", s.substr(50'000, 50'000)},
                                                                   {"chr1", rep.at("chr1")},
                                                                   {"c2", s.substr(100'000, 50'000) + seg},
                                                                   {"c3", s.substr(150'000, 50'000)},
                                                                   {"chr2", rep.at("chr2")},
                                                                   {"c4", seg + s.substr(200'000, 50'000)},
                                                                   {"chr3", rep.at("chr3")}};
    std::string fa;
    for (const auto& [name, bases] : seqs) fa += ">" + name + "\n" + bases + "\n";
    ref_ = dir_.write("ref.fa", fa);
    reads_ = dir_.write("reads.fq", test::read_gz(test::source_path("tests/data/e2e/ont.reads.fq.gz")) +
                                        test::read_gz(test::source_path("tests/data/seeds/rep.fq")));
  }
  const std::string& ref() const { return ref_; }
  const std::string& reads() const { return reads_; }

 private:
  test::TempDir dir_;
  std::string ref_, reads_;
};

const SplitData& data() {
  static const SplitData d;
  return d;
}

class SplitE2e : public ::testing::Test {
 protected:
  // A shell command's outcome, its stdout in a file of the test's folder (read back).
  test::CommandResult sh(const std::string& cmd) const {
    const std::string out = dir_.file("stdout");
    test::CommandResult r = test::run_shell(cmd + " > " + shell_quote(out));
    r.out = test::read_file(out);
    return r;
  }
  // agatha ARGS; `align` follows minimap2 2.24 (--compat 2.24), the minimap2 these tests
  // run beside it.
  test::CommandResult agatha(const std::string& args) const {
    const std::string a = args.starts_with("align ") ? "align --compat 2.24 " + args.substr(6) : args;
    return sh(shell_quote(test::agatha_binary()) + " " + a);
  }
  // "--split-prefix DIR/NAME" for the test's folder.
  std::string prefix(const std::string& name) const { return "--split-prefix " + shell_quote(dir_.file(name)); }
  // Files of the test's folder whose names start with `start`.
  std::vector<std::string> files_starting(const std::string& start) const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_.path()))
      if (e.path().filename().string().starts_with(start)) names.push_back(e.path().filename().string());
    return names;
  }

  // `minimap2 MM_OPTIONS REF READS` against `agatha align AG_OPTIONS REF READS`: the same
  // lines, @PG aside, and no scratch file left by either.
  void expect_minimap2(const std::string& mm_options, const std::string& ag_options, const std::string& ref,
                       const std::string& reads, size_t min_lines = 40) const {
    const test::CommandResult mm = sh("minimap2 " + mm_options + " " + ref + " " + reads);
    ASSERT_EQ(mm.code, 0) << "minimap2 " << mm_options << ": " << last_lines(mm.err);
    const auto want = lines_without_pg(mm.out);
    ASSERT_GE(want.size(), min_lines) << "minimap2 " << mm_options;
    const test::CommandResult ag = agatha("align " + ag_options + " " + ref + " " + reads);
    ASSERT_EQ(ag.code, 0) << "agatha align " << ag_options << ": " << last_lines(ag.err);
    EXPECT_EQ(first_difference(want, lines_without_pg(ag.out)), "") << "agatha align " << ag_options;
    EXPECT_TRUE(files_starting("split").empty()) << "a scratch file is left: " << files_starting("split").front();
  }

  test::TempDir dir_;
};

// ---- agatha = minimap2 ----

struct SplitCase {
  std::string name, minimap2, agatha;  // the options of each, --split-prefix given as @P
};

class SplitCases : public SplitE2e, public ::testing::WithParamInterface<SplitCase> {};

// Options with @P replaced by a --split-prefix in the test's folder.
std::string with_prefix(std::string options, const std::string& prefix_option) {
  const size_t at = options.find("@P");
  if (at != std::string::npos) options.replace(at, 2, prefix_option);
  return options;
}

TEST_P(SplitCases, EqualsMinimap2) {
  SKIP_WITHOUT_MINIMAP2();
  const SplitCase& c = GetParam();
  const std::string p = prefix("split");
  expect_minimap2(with_prefix(c.minimap2, p), with_prefix(c.agatha, p), shell_quote(data().ref()),
                  shell_quote(data().reads()));
}

// Each option set both ways: minimap2's options, then agatha's (agatha writes SAM by
// default, minimap2 PAF).
const std::vector<SplitCase> kSplitCases = {
    // Four parts, every part's records after the previous part's, no @SQ line.
    {"ont_sam", "-a -x map-ont -I 50k", "-x map-ont -I 50k"},
    // The same parts merged: one record set per read, all parts' @SQ lines.
    {"ont_sam_merged", "-a -x map-ont -I 50k @P", "-x map-ont -I 50k @P"},
    {"pb_sam_merged_threads", "-a -x map-pb -I 60k -t 1 -K 30k @P", "-x map-pb -I 60k -t 2 -K 30k @P"},
    {"hifi_paf", "-c -x map-hifi -I 60k", "-c -x map-hifi -I 60k"},
    {"hifi_paf_merged_eqx", "-c -x map-hifi -I 60k --eqx @P", "-c -x map-hifi -I 60k --eqx @P"},
    {"pb_map_only", "-x map-pb -I 60k", "--map-only -x map-pb -I 60k"},
    {"ont_map_only_merged", "-x map-ont -I 50k @P", "--map-only -x map-ont -I 50k @P"},
    // mid_occ of the first part for every part: the fourth part alone would give 8, not 2.
    {"pb_mid_occ_of_first_part", "-a -x map-pb -I 60k -f 0.02 -U 2,5000 @P", "-x map-pb -I 60k -f 0.02 -U 2,5000 @P"},
    // One part merged all the same: rl:i:0, s2 and MAPQ from the merge.
    {"ont_one_part_merged", "-a -x map-ont @P", "-x map-ont @P"},
    {"hifi_sam_merged_options", "-a -x map-hifi -I 50k -Y --secondary=no -y -R @RG\\\\tID:s1 @P",
     "-x map-hifi -I 50k -Y --secondary=no -y -R @RG\\\\tID:s1 @P"},
};

INSTANTIATE_TEST_SUITE_P(Minimap2, SplitCases, ::testing::ValuesIn(kSplitCases),
                         [](const ::testing::TestParamInfo<SplitCase>& info) { return info.param.name; });

// Read pairs (tests/data/e2e/pe.*) against the ONT slice in three parts (-I 100k), merged:
// each read's regions merged over the parts, the pairs paired again (mm_pair over all
// parts' regions, also with --no-pairing), two files and one interleaved file; and the
// parts' records without the merge.
TEST_F(SplitE2e, ReadPairsEqualMinimap2) {
  SKIP_WITHOUT_MINIMAP2();
  const std::string ref = shell_quote(test::source_path("tests/data/e2e/ont.ref.fa.gz"));
  const std::string pairs = shell_quote(test::source_path("tests/data/e2e/pe.r1.fq.gz")) + " " +
                            shell_quote(test::source_path("tests/data/e2e/pe.r2.fq.gz"));
  const std::string interleaved = shell_quote(test::source_path("tests/data/e2e/pe.il.fq.gz"));
  const std::string p = prefix("split");
  expect_minimap2("-a -x sr -I 100k " + p, "-x sr -I 100k " + p, ref, pairs, 300);
  expect_minimap2("-a -x sr -I 100k --no-pairing " + p, "-x sr -I 100k --no-pairing " + p, ref, pairs, 300);
  expect_minimap2("-c -x sr -I 100k " + p, "-c -x sr -I 100k " + p, ref, interleaved, 250);
  expect_minimap2("-x sr -I 100k " + p, "--map-only -x sr -I 100k " + p, ref, pairs, 250);
  expect_minimap2("-a -x sr -I 100k", "-x sr -I 100k", ref, pairs, 300);
}

// The data does what the file's comment says: with -I 50k, a read whose hits are in three
// parts gets a primary of MAPQ 0 and two secondaries, one record set in all.
TEST_F(SplitE2e, AReadMapsToThreeParts) {
  const test::CommandResult r = agatha("align -x map-ont -I 50k " + prefix("split") + " " + shell_quote(data().ref()) +
                                       " " + shell_quote(data().reads()));
  ASSERT_EQ(r.code, 0) << last_lines(r.err);
  EXPECT_NE(r.err.find("(part 4)"), std::string::npos) << last_lines(r.err, 20);
  std::map<std::string, std::vector<std::string>> by_read;  // "RNAME:FLAG:MAPQ"
  for (const std::string& line : lines_without_pg(r.out)) {
    if (line.starts_with("@")) continue;
    const auto f = test::split_tabs(line);
    by_read[f[0]].push_back(f[2] + ":" + f[1] + ":" + f[4]);
  }
  EXPECT_EQ(by_read.size(), 43u);
  EXPECT_EQ(by_read["fe6bbcb4-c11b-4445-900e-4f4446fb7514"],
            (std::vector<std::string>{"c2:16:0", "c4:272:0", "c1:272:0"}));
}

// --alt across parts: each part marks the regions on its own ALT contigs, and the merge
// orders and selects with those marks (scores scaled by 1 - --alt-drop). c2 (part 2) as
// ALT moves the primary of the reads from the 8 kb copied to c2 and c4 (part 3) onto c4;
// chr2 as ALT changes the repeat reads' secondaries. Checked to differ without --alt.
TEST_F(SplitE2e, AltContigsAcrossParts) {
  SKIP_WITHOUT_MINIMAP2();
  const std::string alt = shell_quote(dir_.write("alt.txt", "c2\nchr2 an ALT contig\nnot_in_the_reference\n"));
  const std::string ref = shell_quote(data().ref()), reads = shell_quote(data().reads());
  const std::string p = prefix("split");
  expect_minimap2("-a -x map-ont -I 50k --alt " + alt + " " + p, "-x map-ont -I 50k --alt " + alt + " " + p, ref,
                  reads);
  const test::CommandResult with_alt = agatha("align -x map-ont -I 50k --alt " + alt + " " + p + " " + ref + " " + reads);
  const test::CommandResult without = agatha("align -x map-ont -I 50k " + p + " " + ref + " " + reads);
  ASSERT_EQ(with_alt.code, 0) << last_lines(with_alt.err);
  ASSERT_EQ(without.code, 0) << last_lines(without.err);
  EXPECT_NE(first_difference(lines_without_pg(with_alt.out), lines_without_pg(without.out)), "");
  expect_minimap2("-c -x map-hifi -I 60k --alt " + alt + " --alt-drop 0.5 " + p,
                  "-c -x map-hifi -I 60k --alt " + alt + " --alt-drop 0.5 " + p, ref, reads);
  expect_minimap2("-x map-ont -I 50k --alt " + alt + " " + p, "--map-only -x map-ont -I 50k --alt " + alt + " " + p,
                  ref, reads);
}

// minimap2's inversion reads (tests/data/e2e/q-inv.fa.gz) against its reference in two
// parts (-I 5k: t-inv's 7.5 kb sequence, then a 50 kb slice and the same sequence under
// another name): split and inverted regions (zd:i, tp:A:I) from both parts, and the
// merge's MAPQ of inversions (mm_set_inv_mapq) over all of them.
TEST_F(SplitE2e, InversionsAcrossParts) {
  SKIP_WITHOUT_MINIMAP2();
  const std::string t = test::read_gz(test::source_path("tests/data/e2e/t-inv.fa.gz"));
  ASSERT_TRUE(t.starts_with(">ref\n"));
  const auto slice = test::read_fasta(test::source_path("tests/data/e2e/ont.ref.fa.gz"));
  const std::string ref =
      dir_.write("inv.fa", t + ">c0\n" + slice.at("dh10b_1180001_1430000").substr(0, 50'000) + "\n>ref2" + t.substr(4));
  const std::string reads = shell_quote(test::source_path("tests/data/e2e/q-inv.fa.gz"));
  for (const char* out : {"-a", "-c"}) {
    SCOPED_TRACE(out);
    expect_minimap2(std::string(out) + " -x map-ont -I 5k", std::string(out) + " -x map-ont -I 5k", shell_quote(ref),
                    reads, 10);
    expect_minimap2(std::string(out) + " -x map-ont -I 5k " + prefix("split"),
                    std::string(out) + " -x map-ont -I 5k " + prefix("split"), shell_quote(ref), reads, 10);
  }
}

// Spliced alignment (tests/data/splice) against three parts of one contig each: the
// merge keeps each region's transcript strand (ts:A), and --junc-bed is read for every
// part, its introns found by name.
TEST_F(SplitE2e, SplicedAcrossParts) {
  SKIP_WITHOUT_MINIMAP2();
  const std::string ref = shell_quote(test::source_path("tests/data/splice/genome.fa.gz"));
  const std::string reads = shell_quote(test::source_path("tests/data/splice/ont.fq.gz"));
  const std::string bed = shell_quote(test::source_path("tests/data/splice/annot.bed12"));
  expect_minimap2("-a -x splice -I 400k " + prefix("split"), "-x splice -I 400k " + prefix("split"), ref, reads);
  expect_minimap2("-c -x splice -I 400k --junc-bed " + bed, "-c -x splice -I 400k --junc-bed " + bed, ref, reads);
}

// ---- a multi-part .mmi ----

// `minimap2 -I 60k -d` writes four index images one after another; agatha maps against
// it part by part, with and without --split-prefix, as minimap2 does.
TEST_F(SplitE2e, MultiPartMmiMapsAsMinimap2) {
  SKIP_WITHOUT_MINIMAP2();
  const std::string mmi = dir_.file("multi.mmi");
  const test::CommandResult d =
      sh("minimap2 -x map-ont -I 60k -d " + shell_quote(mmi) + " " + shell_quote(data().ref()));
  ASSERT_EQ(d.code, 0) << last_lines(d.err);
  const std::string image = test::read_file(mmi);
  size_t parts = 0;
  for (size_t at = image.find("MMI\2"); at != std::string::npos; at = image.find("MMI\2", at + 1)) ++parts;
  ASSERT_EQ(parts, 4u);
  expect_minimap2("-a", "", shell_quote(mmi), shell_quote(data().reads()));
  expect_minimap2("-a " + prefix("split"), prefix("split"), shell_quote(mmi), shell_quote(data().reads()));
  expect_minimap2("-c " + prefix("split"), "-c " + prefix("split"), shell_quote(mmi), shell_quote(data().reads()));
  // An .agi holds one part: -d does not convert it. An .mmi holds them all: -d writes
  // the parts again, byte for byte as minimap2 wrote them.
  const std::string agi = dir_.file("multi.agi");
  const test::CommandResult r = agatha("align -d " + shell_quote(agi) + " " + shell_quote(mmi));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(last_line(r.err), "[E::align] -d writes one .agi index, and '" + mmi +
                                  "' is an index of several parts: name the index *.mmi to write minimap2's");
  EXPECT_FALSE(fs::exists(agi));
  const std::string copy = dir_.file("copy.mmi");
  const test::CommandResult c = agatha("align -d " + shell_quote(copy) + " " + shell_quote(mmi));
  ASSERT_EQ(c.code, 0) << last_lines(c.err);
  EXPECT_TRUE(test::read_file(copy) == image) << "the parts written again differ from minimap2's";
}

// ---- bad input: a message, exit code 1, no output and no scratch file left ----

class SplitBadInput : public SplitE2e {
 protected:
  // `agatha ARGS -o out.sam` fails with `message` on its last stderr line.
  void expect_failure(const std::string& args, const std::string& message) const {
    const std::string out = dir_.file("out.sam");
    const test::CommandResult r = agatha(args + " -o " + shell_quote(out));
    EXPECT_EQ(r.code, 1) << args << "\n" << last_lines(r.err);
    EXPECT_EQ(last_line(r.err), message) << args;
    EXPECT_FALSE(fs::exists(out)) << args;
    EXPECT_TRUE(files_starting("split").empty())
        << args << ": a scratch file is left: " << files_starting("split").front();
  }
  std::string ref() const { return shell_quote(data().ref()); }
  std::string reads() const { return shell_quote(data().reads()); }
};

TEST_F(SplitBadInput, BadSizeIsRejected) {
  for (const char* v : {"abc", "-5", "10x", ""}) {
    SCOPED_TRACE(v);
    expect_failure("align -I " + shell_quote(v) + " " + ref() + " " + reads(),
                   std::string("[E::align] invalid value '") + v + "' for -I");
  }
  const test::CommandResult r = agatha("index -I 1q " + ref() + " -o " + shell_quote(dir_.file("x.agi")));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(last_line(r.err), "[E::index] invalid value '1q' for -I");
}

// As minimap2: "[ERROR] --cs or --MD doesn't work with --split-prefix".
TEST_F(SplitBadInput, MdAndCsAreRefusedWithSplitPrefix) {
  for (const char* tag : {"--MD", "--cs", "--cs=long"}) {
    SCOPED_TRACE(tag);
    expect_failure("align " + std::string(tag) + " -I 50k " + prefix("split") + " " + ref() + " " + reads(),
                   "[E::align] --cs or --MD doesn't work with --split-prefix");
  }
}

// Several query files outside fragment mode: minimap2 2.24 keeps only the last file's
// results in each part's scratch file and merges them against all files read in step,
// giving reads other reads' regions (or aborting: an assertion in mm_hit_sort or
// write_sam_cigar). agatha refuses it, before any pass; with --frag=yes the files are
// fragments in every pass (ReadPairsEqualMinimap2).
TEST_F(SplitBadInput, SeveralQueryFilesNeedFragmentMode) {
  const std::string message =
      "[E::align] --split-prefix with several query files needs fragment mode (--frag=yes): minimap2 2.24 merges "
      "only the last file's results against all the files read in step, giving reads other reads' alignments; map "
      "one query file at a time";
  for (const char* out : {"", "-c ", "--map-only "}) {
    SCOPED_TRACE(out);
    expect_failure("align " + std::string(out) + "-x map-ont -I 50k " + prefix("split") + " " + ref() + " " + reads() +
                       " " + reads(),
                   message);
  }
}

// An .agi holds one part: `agatha index` and `align -d` refuse a reference -I cuts up,
// and leave no index file.
TEST_F(SplitBadInput, AgiIndexOfSeveralPartsIsRefused) {
  const std::string agi = dir_.file("ref.agi");
  test::CommandResult r = agatha("index -I 60k " + ref() + " -o " + shell_quote(agi));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(last_line(r.err),
            "[E::index] an .agi index holds one part, and -I 60000 cuts this reference into several: give -I at "
            "least the reference's size");
  EXPECT_FALSE(fs::exists(agi));
  expect_failure("align -I 60k -d " + shell_quote(agi) + " " + ref() + " " + reads(),
                 "[E::align] -d writes one .agi index, and -I 60000 cuts this reference into several parts: give -I "
                 "at least the reference's size, or name the index *.mmi to write minimap2's");
  EXPECT_FALSE(fs::exists(agi));
  // A reference that fits: the index is written (-I 1G is above its 453 kb).
  r = agatha("index -I 1G " + ref() + " -o " + shell_quote(agi));
  EXPECT_EQ(r.code, 0) << last_lines(r.err);
  EXPECT_TRUE(fs::exists(agi));
}

// Reads are read once a part (and once more to merge): standard input cannot be.
TEST_F(SplitBadInput, ReadsFromStandardInputAreRefusedWhenReadAgain) {
  expect_failure("align -I 50k " + ref() + " - < " + reads(),
                 "[E::align] reads from standard input cannot be read again, and a multi-part index (-I below the "
                 "reference's size) maps them once per part: give a file");
  expect_failure("align " + prefix("split") + " " + ref() + " - < " + reads(),
                 "[E::align] reads from standard input cannot be read again, and --split-prefix reads them once per "
                 "index part and once to merge: give a file");
  // One part without --split-prefix reads them once: fine.
  const test::CommandResult r = agatha("align -x map-ont " + ref() + " - < " + reads());
  EXPECT_EQ(r.code, 0) << last_lines(r.err);
}

TEST_F(SplitBadInput, BamOfAMultiPartIndexNeedsSplitPrefix) {
  const std::string bam = dir_.file("out.bam");
  const test::CommandResult r = agatha("align -I 50k " + ref() + " " + reads() + " -o " + shell_quote(bam));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(last_line(r.err),
            "[E::align] BAM output needs every reference sequence in its header, which a multi-part index (-I below "
            "the reference's size) only gives with --split-prefix");
  EXPECT_FALSE(fs::exists(bam));
  // With it, the BAM holds every part's sequences.
  const test::CommandResult ok =
      agatha("align -I 50k " + prefix("split") + " " + ref() + " " + reads() + " -o " + shell_quote(bam));
  EXPECT_EQ(ok.code, 0) << last_lines(ok.err);
  EXPECT_TRUE(fs::exists(bam));
  EXPECT_TRUE(files_starting("split").empty());
}

// An error after the first part's pass (a sequence of the third part repeats a name of
// the first): the scratch files already written are removed, and no output is left.
TEST_F(SplitBadInput, ScratchFilesAreRemovedAfterAnError) {
  std::string fa = test::read_file(data().ref());
  fa += ">c1\nACGTACGTACGTACGTACGTACGTACGTACGTACGTACGTACGTACGTACGTACGT\n";
  const std::string dup = shell_quote(dir_.file("dup.fa"));
  ASSERT_TRUE(test::write_file(dir_.file("dup.fa"), fa));
  expect_failure("align -I 50k " + prefix("split") + " " + dup + " " + reads(),
                 "[E::align] '" + dir_.file("dup.fa") + "' record 9: duplicate sequence name 'c1'");
  expect_failure("align -I 50k " + dup + " " + reads(),
                 "[E::align] '" + dir_.file("dup.fa") + "' record 9: duplicate sequence name 'c1'");
}

// SIGTERM while the parts are mapped: the scratch files written so far go with the
// output's temporary file. The reads come from a FIFO that feeds the first part only,
// so agatha waits, with the first part's scratch file written, to open it again.
TEST_F(SplitBadInput, SignalRemovesTheScratchFiles) {
  const fs::path fifo = dir_.path() / "reads.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string first = dir_.file("split.0000.tmp"), script = dir_.file("kill.sh");
  std::ofstream(script) << "set -m\n(cat " << reads() << " > " << shell_quote(fifo) << ") &\n"
                        << shell_quote(test::agatha_binary()) << " align -I 50k " << prefix("split") << " " << ref()
                        << " " << shell_quote(fifo) << " -o " << shell_quote(dir_.file("out.sam"))
                        << " 2> /dev/null &\n"
                        << "P=$!\nfor i in $(seq 600); do [ -e " << shell_quote(first)
                        << " ] && break; sleep 0.1; done\n"
                        << "[ -e " << shell_quote(first) << " ] || { kill $P; exit 99; }\n"
                        << "kill -TERM $P\nwait $P\n";
  EXPECT_EQ(test::run_shell("bash " + shell_quote(script) + " > /dev/null").code, 128 + SIGTERM)
      << "99: no scratch file seen";
  EXPECT_TRUE(files_starting("split").empty()) << "left behind: " << files_starting("split").front();
  EXPECT_TRUE(files_starting("out.sam").empty()) << "left behind: " << files_starting("out.sam").front();
}

}  // namespace
}  // namespace agatha
