// tests/e2e/mmi_e2e_test.cpp — minimap2's own index files as agatha's reference, and
// `agatha align -d`, end to end. minimap2 builds an .mmi from data/ref.fa at test time
// (the tests that need it skip, visibly, without minimap2); `agatha align ref.mmi` must
// write what `minimap2 -a ref.mmi` writes, @PG lines aside, on several presets, with the
// index's k, w and HPC in force whatever the options say. Bad indexes (truncated, another
// version, without bases) fail with a message and exit code 1; a multi-part index is
// mapped part by part. `-d FILE` writes the .agi index (alone without reads, as
// minimap2 -d; before mapping with them), which maps as the FASTA does; `-d FILE.mmi` (and
// `agatha minimap2 -d`) writes minimap2's own .mmi, byte for byte the file minimap2 -d
// writes (tests/data/mmi/dump), every part of a multi-part index in turn.
#include "support/files.hpp"
#include "support/paths.hpp"
#include "support/text.hpp"
#include "support/run.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace agatha {
namespace {

namespace fs = std::filesystem;

std::string read_raw(const fs::path& p) { return test::read_file(p.string()); }
std::string read_gz(const fs::path& p) { return test::read_gz(p.string()); }

using test::first_difference;
using test::lines_without_pg;

std::string last_line(const std::string& s) {
  std::string t = s;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  const size_t nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

int exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

bool have_minimap2() { return std::system("command -v minimap2 > /dev/null 2>&1") == 0; }

const std::string kRef = quoted(test::source_path("data/ref.fa"));
const std::string kReads = quoted(test::source_path("data/reads.fq"));
// minimap2 -ax map-pb data/ref.fa data/reads.fq (see tests/data/e2e/README.md).
const std::string kMapPbExpected = "tests/data/e2e/expected/mt_map_pb.sam.gz";

struct Outcome {
  int code;
  std::string out, err;
};

class MmiE2e : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(name.begin(), name.end(), '/', '.');
    dir_ = fs::temp_directory_path() / ("agatha-mmi-" + std::to_string(::getpid()) + "-" + name);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // A shell command, its stdout and stderr to files of the test's folder.
  Outcome sh(const std::string& cmd) const {
    const std::string out = path("stdout"), err = path("stderr");
    const int code = exit_code(std::system((cmd + " > " + quoted(out) + " 2> " + quoted(err)).c_str()));
    return {code, read_raw(out), read_raw(err)};
  }
  Outcome agatha(const std::string& args) const { return sh(quoted(AGATHA_BINARY) + " " + args); }

  // `minimap2 OPTIONS -d FILE REF`: the index, in the test's folder.
  std::string minimap2_index(const std::string& options, const std::string& ref, const std::string& file) const {
    const Outcome r = sh("minimap2 " + options + " -d " + quoted(path(file)) + " " + ref);
    EXPECT_EQ(r.code, 0) << "minimap2 -d: " << last_line(r.err);
    return path(file);
  }

  // `agatha align ARGS -o FILE`: FILE's lines, @PG aside; fails the test if agatha fails.
  // `agatha align --compat 2.24 ARGS`: these tests compare with Debian's minimap2, 2.24.
  std::vector<std::string> align(const std::string& args, const std::string& file = "agatha.sam") const {
    const Outcome r = agatha("align --compat 2.24 " + args + " -o " + quoted(path(file)));
    EXPECT_EQ(r.code, 0) << "agatha align " << args << ": " << last_line(r.err);
    return lines_without_pg(read_raw(path(file)));
  }

  // `agatha align ARGS` fails: exit code 1, the message on the last stderr line, nothing
  // on stdout and no output file.
  void expect_failure(const std::string& args, const std::string& message) const {
    const std::string out = path("failed.sam");
    const Outcome r = agatha("align " + args + " -o " + quoted(out));
    EXPECT_EQ(r.code, 1) << args;
    EXPECT_EQ(last_line(r.err), message) << args;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_FALSE(fs::exists(out)) << args;
  }

  fs::path dir_;
};

#define SKIP_WITHOUT_MINIMAP2() \
  if (!have_minimap2()) GTEST_SKIP() << "minimap2 is not installed: no .mmi built, no output to compare with"

// ---- minimap2's index as the reference ----

class MmiPreset : public MmiE2e, public ::testing::WithParamInterface<const char*> {};

// map-ont (k 15), map-hifi (k 19, w 19) and map-pb (HPC): minimap2's output on its own
// index, from the .mmi by its name and from a copy with another name.
TEST_P(MmiPreset, SameAsMinimap2OnTheSameIndex) {
  SKIP_WITHOUT_MINIMAP2();
  const std::string preset = GetParam();
  const std::string mmi = minimap2_index("-x " + preset, kRef, "ref.mmi");
  const Outcome mm = sh("minimap2 -a -x " + preset + " " + quoted(mmi) + " " + kReads);
  ASSERT_EQ(mm.code, 0) << last_line(mm.err);
  const auto want = lines_without_pg(mm.out);
  ASSERT_GT(want.size(), 155u);
  EXPECT_EQ(first_difference(want, align("-x " + preset + " " + quoted(mmi) + " " + kReads)), "");
  fs::copy_file(mmi, path("renamed.idx"));
  EXPECT_EQ(first_difference(want, align("-x " + preset + " " + quoted(path("renamed.idx")) + " " + kReads)), "");
}

INSTANTIATE_TEST_SUITE_P(Presets, MmiPreset, ::testing::Values("map-ont", "map-hifi", "map-pb"), [](const auto& info) {
  std::string s = info.param;
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
});

// The index's k, w and HPC apply, not the preset's or -k/-w/-H: an index built for
// map-pb (k 19, HPC) mapped with map-ont's options (k 15, no HPC) and with -k/-w given
// gives minimap2's output on that index, which differs from the FASTA's with map-ont.
TEST_F(MmiE2e, TheIndexsParametersApply) {
  SKIP_WITHOUT_MINIMAP2();
  const std::string mmi = minimap2_index("-x map-pb", kRef, "pb.mmi");
  const Outcome mm = sh("minimap2 -a " + quoted(mmi) + " " + kReads);
  ASSERT_EQ(mm.code, 0) << last_line(mm.err);
  const auto want = lines_without_pg(mm.out);
  ASSERT_GT(want.size(), 155u);
  EXPECT_EQ(first_difference(want, align(quoted(mmi) + " " + kReads)), "");
  EXPECT_EQ(first_difference(want, align("-x map-ont -k 13 -w 7 " + quoted(mmi) + " " + kReads)), "");
  EXPECT_NE(first_difference(want, align(kRef + " " + kReads, "fasta.sam")), "")
      << "map-ont's own k, w and HPC give other alignments, or this test shows nothing";
}

// `-d` on an .mmi converts it: the .agi written maps as minimap2 does on the .mmi, also
// with --map-only (minimap2's PAF without -c).
TEST_F(MmiE2e, DashDConvertsAnMmiToAnAgi) {
  SKIP_WITHOUT_MINIMAP2();
  const std::string mmi = minimap2_index("-x map-hifi", kRef, "hifi.mmi");
  const Outcome conv = agatha("align -d " + quoted(path("hifi.agi")) + " " + quoted(mmi));
  ASSERT_EQ(conv.code, 0) << last_line(conv.err);
  EXPECT_EQ(conv.out, "");
  const Outcome mm = sh("minimap2 -a -x map-hifi " + quoted(mmi) + " " + kReads);
  ASSERT_EQ(mm.code, 0) << last_line(mm.err);
  EXPECT_EQ(first_difference(lines_without_pg(mm.out), align("-x map-hifi " + quoted(path("hifi.agi")) + " " + kReads)),
            "");
  const Outcome paf = sh("minimap2 -x map-hifi " + quoted(mmi) + " " + kReads);
  ASSERT_EQ(paf.code, 0) << last_line(paf.err);
  ASSERT_FALSE(paf.out.empty());
  EXPECT_EQ(first_difference(lines_without_pg(paf.out),
                             align("--map-only -x map-hifi " + quoted(path("hifi.agi")) + " " + kReads, "out.paf")),
            "");
}

// ---- bad indexes: a message naming the file, exit code 1, no output ----

TEST_F(MmiE2e, TruncatedIndexIsAnError) {
  SKIP_WITHOUT_MINIMAP2();
  const std::string image = read_raw(minimap2_index("-x map-pb", kRef, "ref.mmi"));
  ASSERT_GT(image.size(), 100000u);
  const std::string cut = path("cut.mmi");
  const std::string prefix = "[E::align] '" + cut + "' is not a valid minimap2 index (.mmi): file is truncated (";
  // In the header, in the sequence table, among the buckets, in the bases.
  for (const size_t n : {size_t{10}, size_t{30}, image.size() / 2, image.size() - 100}) {
    SCOPED_TRACE("cut to " + std::to_string(n) + " bytes");
    std::ofstream(cut, std::ios::binary) << image.substr(0, n);
    const Outcome r = agatha("align " + quoted(cut) + " " + kReads + " -o " + quoted(path("out.sam")));
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(last_line(r.err).starts_with(prefix)) << last_line(r.err);
    EXPECT_FALSE(fs::exists(path("out.sam")));
  }
}

TEST_F(MmiE2e, OtherMagicIsAnError) {
  SKIP_WITHOUT_MINIMAP2();
  std::string image = read_raw(minimap2_index("-x map-pb", kRef, "ref.mmi"));
  image[3] = '\1';
  const std::string old = path("old.mmi");
  std::ofstream(old, std::ios::binary) << image;
  expect_failure(quoted(old) + " " + kReads,
                 "[E::align] '" + old +
                     "' is not a valid minimap2 index (.mmi): another format version (magic \"MMI\\1\"; minimap2 "
                     "2.24 writes \"MMI\\2\"): rebuild it with minimap2 2.24's -d, or give the FASTA");
  const std::string text = path("text.mmi");
  std::ofstream(text) << "not an index\n";
  expect_failure(quoted(text) + " " + kReads,
                 "[E::align] '" + text + "' is not a valid minimap2 index (.mmi): bad magic (not a minimap2 index)");
}

// A reference of three sequences indexed by minimap2 with -I 5k: one part per sequence,
// written one after another. agatha maps against it part by part, as minimap2 does: each
// part's records after the previous part's, and no @SQ line (tests/e2e/split_e2e_test.cpp
// has more).
TEST_F(MmiE2e, MultiPartIndexMapsPartByPart) {
  SKIP_WITHOUT_MINIMAP2();
  std::string seq;
  std::istringstream fasta(read_raw(test::source_path("data/ref.fa")));
  for (std::string line; std::getline(fasta, line);)
    if (!line.starts_with(">")) seq += line;
  ASSERT_GT(seq.size(), 16000u);
  std::ofstream(path("three.fa")) << ">p1\n"
                                  << seq.substr(0, 5500) << "\n>p2\n"
                                  << seq.substr(5500, 5500) << "\n>p3\n"
                                  << seq.substr(11000) << "\n";
  const std::string multi = minimap2_index("-x map-pb -I 5k", quoted(path("three.fa")), "multi.mmi");
  const std::string image = read_raw(multi);
  size_t parts = 0;
  for (size_t at = image.find("MMI\2"); at != std::string::npos; at = image.find("MMI\2", at + 1)) ++parts;
  ASSERT_GE(parts, 3u) << "minimap2 -I 5k wrote one part per sequence";
  const Outcome mm = sh("minimap2 -a " + quoted(multi) + " " + kReads);
  ASSERT_EQ(mm.code, 0) << last_line(mm.err);
  const auto want = lines_without_pg(mm.out);
  ASSERT_GE(want.size(), 3 * 155u);  // a record per read and part at least
  EXPECT_EQ(first_difference(want, align(quoted(multi) + " " + kReads)), "");
}

TEST_F(MmiE2e, IndexWithoutBasesIsRefused) {
  SKIP_WITHOUT_MINIMAP2();
  const std::string noseq = minimap2_index("-x map-pb --idx-no-seq", kRef, "noseq.mmi");
  expect_failure(quoted(noseq) + " " + kReads,
                 "[E::align] '" + noseq +
                     "' is not a valid minimap2 index (.mmi): it holds no reference bases (built with --idx-no-seq), "
                     "and alignment needs them: rebuild it without --idx-no-seq");
}

// ---- agatha align -d ----

// Without reads: the index is written, nothing else (no SAM); it is the file `agatha
// index` writes, and mapping with it gives minimap2's output on the FASTA.
TEST_F(MmiE2e, DashDWithoutReadsWritesOnlyTheIndex) {
  const Outcome r = agatha("align -x map-pb -d " + quoted(path("ref.agi")) + " " + kRef);
  ASSERT_EQ(r.code, 0) << last_line(r.err);
  EXPECT_EQ(r.out, "");
  ASSERT_TRUE(fs::exists(path("ref.agi")));
  const Outcome idx = agatha("index -x map-pb " + kRef + " -o " + quoted(path("index.agi")));
  ASSERT_EQ(idx.code, 0) << last_line(idx.err);
  EXPECT_EQ(read_raw(path("ref.agi")), read_raw(path("index.agi")));
  const auto want = lines_without_pg(read_gz(test::source_path(kMapPbExpected)));
  ASSERT_GT(want.size(), 155u);
  EXPECT_EQ(first_difference(want, align(quoted(path("ref.agi")) + " " + kReads)), "");
}

// With reads: the index is written and the reads are mapped, as by minimap2 -d.
TEST_F(MmiE2e, DashDWithReadsWritesTheIndexAndMaps) {
  const auto want = lines_without_pg(read_gz(test::source_path(kMapPbExpected)));
  ASSERT_GT(want.size(), 155u);
  EXPECT_EQ(first_difference(want, align("-x map-pb -d " + quoted(path("ref.agi")) + " " + kRef + " " + kReads)), "");
  ASSERT_TRUE(fs::exists(path("ref.agi")));
  EXPECT_EQ(first_difference(want, align(quoted(path("ref.agi")) + " " + kReads, "again.sam")), "");
}

TEST_F(MmiE2e, DashDMistakes) {
  // Neither reads nor -d: minimap2's message.
  expect_failure(kRef, "[E::align] missing input: please specify a query file to map or option -d to keep the index");
  // -d onto the reference, or onto -o's file.
  const std::string ref = path("ref.fa");
  fs::copy_file(test::source_path("data/ref.fa"), ref);
  const Outcome onto_ref = agatha("align -d " + quoted(ref) + " " + quoted(ref));
  EXPECT_EQ(onto_ref.code, 1);
  EXPECT_EQ(last_line(onto_ref.err),
            "[E::align] output '" + ref + "' is the input file '" + ref + "': refusing to overwrite it");
  EXPECT_EQ(read_raw(ref), read_raw(test::source_path("data/ref.fa")));
  const std::string both = path("both");
  const Outcome same = agatha("align -d " + quoted(both) + " " + kRef + " " + kReads + " -o " + quoted(both));
  EXPECT_EQ(same.code, 1);
  EXPECT_EQ(last_line(same.err), "[E::align] -d and -o name the same output '" + both + "'");
  EXPECT_FALSE(fs::exists(both));
  // An index that cannot be written fails before the build, and leaves no output.
  const Outcome unwritable =
      agatha("align -d /nonexistent/dir/x.agi " + kRef + " " + kReads + " -o " + quoted(path("out.sam")));
  EXPECT_EQ(unwritable.code, 1);
  EXPECT_EQ(last_line(unwritable.err), "[E::align] cannot create '/nonexistent/dir/x.agi': No such file or directory");
  EXPECT_FALSE(fs::exists(path("out.sam")));
}

// ---- -d FILE.mmi: minimap2's own index ----

// minimap2 2.24's -d output for data/ref.fa (tests/data/mmi/make-dumps.sh).
std::string minimap2_dump(const std::string& name) {
  return read_gz(test::source_path("tests/data/mmi/dump/ref." + name + ".mmi.gz"));
}

// `agatha minimap2 -d` always writes minimap2's .mmi, `agatha align -d` when the file is
// named *.mmi: byte for byte minimap2's. Any other name gets an .agi from agatha align.
TEST_F(MmiE2e, DashDWritesMinimap2sIndex) {
  Outcome r = agatha("minimap2 -x map-pb -d " + quoted(path("pb.idx")) + " " + kRef);
  ASSERT_EQ(r.code, 0) << last_line(r.err);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(read_raw(path("pb.idx")) == minimap2_dump("map-pb")) << "agatha minimap2 -x map-pb -d";
  r = agatha("align -x map-ont -d " + quoted(path("ont.mmi")) + " " + kRef);
  ASSERT_EQ(r.code, 0) << last_line(r.err);
  EXPECT_TRUE(read_raw(path("ont.mmi")) == minimap2_dump("map-ont")) << "agatha align -x map-ont -d ont.mmi";
  r = agatha("minimap2 -x map-ont --idx-no-seq -d " + quoted(path("noseq.mmi")) + " " + kRef);
  ASSERT_EQ(r.code, 0) << last_line(r.err);
  EXPECT_TRUE(read_raw(path("noseq.mmi")) == minimap2_dump("map-ont.noseq")) << "--idx-no-seq";
  r = agatha("align -x map-ont -d " + quoted(path("ont.idx")) + " " + kRef);
  ASSERT_EQ(r.code, 0) << last_line(r.err);
  EXPECT_FALSE(read_raw(path("ont.idx")).starts_with("MMI")) << "agatha align -d ont.idx writes an .agi";
  r = agatha("index -x map-ont " + kRef + " -o " + quoted(path("index.agi")));
  ASSERT_EQ(r.code, 0) << last_line(r.err);
  EXPECT_EQ(read_raw(path("ont.idx")), read_raw(path("index.agi")));
}

// The pipeline `minimap2 -x map-pb -d ref.mmi ref.fa; minimap2 -ax map-pb ref.mmi reads`
// with agatha as minimap2 gives minimap2's SAM on the FASTA, as does -d with the reads
// in the same run; a real minimap2 maps from agatha's file as from the FASTA.
TEST_F(MmiE2e, DashDMmiMapsAsTheFasta) {
  const auto want = lines_without_pg(read_gz(test::source_path(kMapPbExpected)));
  ASSERT_GT(want.size(), 155u);
  const std::string mmi = quoted(path("ref.mmi"));
  const Outcome d = agatha("minimap2 --compat=2.24 -x map-pb -d " + mmi + " " + kRef);
  ASSERT_EQ(d.code, 0) << last_line(d.err);
  const Outcome m = agatha("minimap2 --compat=2.24 -ax map-pb " + mmi + " " + kReads);
  ASSERT_EQ(m.code, 0) << last_line(m.err);
  EXPECT_EQ(first_difference(want, lines_without_pg(m.out)), "");
  const Outcome both = agatha("minimap2 --compat=2.24 -ax map-pb -d " + quoted(path("again.mmi")) + " " + kRef + " " + kReads);
  ASSERT_EQ(both.code, 0) << last_line(both.err);
  EXPECT_EQ(first_difference(want, lines_without_pg(both.out)), "");
  EXPECT_TRUE(read_raw(path("again.mmi")) == read_raw(path("ref.mmi")));
  if (!have_minimap2()) GTEST_SKIP() << "minimap2 is not installed: agatha's .mmi not mapped by minimap2";
  const Outcome mm = sh("minimap2 -ax map-pb " + mmi + " " + kReads);
  ASSERT_EQ(mm.code, 0) << last_line(mm.err);
  EXPECT_EQ(first_difference(want, lines_without_pg(mm.out)), "");
}

// -I below the reference's size: the parts one after another, as minimap2 writes them,
// also while mapping; the file maps part by part as the FASTA does.
TEST_F(MmiE2e, DashDWritesEveryPart) {
  const Outcome small = agatha("minimap2 --bucket-bits 6 -k 5 -w 3 -I 200 -d " + quoted(path("small.mmi")) + " " +
                               quoted(test::source_path("tests/data/mmi/small.fa")));
  ASSERT_EQ(small.code, 0) << last_line(small.err);
  EXPECT_TRUE(read_raw(path("small.mmi")) ==
              read_raw(test::source_path("tests/data/mmi/dump/small.k5w3.I200.mmi")));
  // data/ref.fa in three sequences, one part each with -I 5k.
  std::string seq;
  std::istringstream fasta(read_raw(test::source_path("data/ref.fa")));
  for (std::string line; std::getline(fasta, line);)
    if (!line.starts_with(">")) seq += line;
  ASSERT_GT(seq.size(), 16000u);
  std::ofstream(path("three.fa")) << ">p1\n"
                                  << seq.substr(0, 5500) << "\n>p2\n"
                                  << seq.substr(5500, 5500) << "\n>p3\n"
                                  << seq.substr(11000) << "\n";
  const std::string multi = quoted(path("multi.mmi"));
  const auto want = align("-x map-pb -I 5k -d " + multi + " " + quoted(path("three.fa")) + " " + kReads);
  ASSERT_GE(want.size(), 3 * 155u);  // a record per read and part at least
  const std::string image = read_raw(path("multi.mmi"));
  size_t parts = 0;
  for (size_t at = image.find("MMI\2"); at != std::string::npos; at = image.find("MMI\2", at + 1)) ++parts;
  EXPECT_EQ(parts, 3u);
  EXPECT_EQ(first_difference(want, align("-x map-pb " + multi + " " + kReads, "from-mmi.sam")), "");
  if (!have_minimap2()) GTEST_SKIP() << "minimap2 is not installed: no multi-part .mmi of its own to compare with";
  const std::string mm = minimap2_index("-x map-pb -I 5k", quoted(path("three.fa")), "mm.mmi");
  EXPECT_TRUE(read_raw(mm) == image) << "minimap2 -x map-pb -I 5k -d";
}

// What an .mmi cannot hold, and a file that cannot be created: minimap2 would write a cut
// name, or nothing at all (exit 0); agatha stops with a message and writes no file.
TEST_F(MmiE2e, DashDMmiMistakes) {
  const std::string long_name = path("long.fa");
  std::ofstream(long_name) << ">" << std::string(300, 'n') << "\nACGTTGCAAGGCTTACGATCGATTACGGATTACA\n";
  const std::string out = path("long.mmi");
  Outcome r = agatha("minimap2 -d " + quoted(out) + " " + quoted(long_name));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(last_line(r.err), "[ERROR] cannot write a minimap2 index (.mmi): sequence '" + std::string(37, 'n') +
                                  "...' has a name of 300 bytes, and the format holds names of at most 255");
  EXPECT_FALSE(fs::exists(out));
  r = agatha("minimap2 -d /nonexistent/dir/x.mmi " + kRef);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(last_line(r.err), "[ERROR] cannot create '/nonexistent/dir/x.mmi': No such file or directory");
  // minimap2 refuses alignment without the bases even when it only writes the index.
  r = agatha("minimap2 -a --idx-no-seq -d " + quoted(out) + " " + kRef);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(last_line(r.err), "[ERROR] the prebuilt index doesn't contain sequences.");
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace agatha
