// tests/io/bam_writer_test.cpp — BamWriter: minimap2's SAM (tests/data/sam/map-pb.sam,
// n.map-pb-eqx-MD.sam) written as BAM and read back with htslib must give the same
// header and the same record lines, up to what BAM's encoding changes (SEQ in upper
// case, float tags printed from a 32-bit float); failures (no such directory, a bad
// record, a full disk) throw agatha::Error naming the file.
#include "../../src/io/bam_writer.hpp"

#include <agatha/error.hpp>

#include <gtest/gtest.h>
#include <htslib/hts.h>
#include <htslib/kstring.h>
#include <htslib/sam.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "support/errors.hpp"
#include "support/files.hpp"
#include "support/paths.hpp"
#include "support/sam_text.hpp"
#include "support/text.hpp"

namespace agatha::io {
namespace {

namespace fs = std::filesystem;

using test::SamText;

SamText load_sam(const std::string& name) {
  return test::split_sam(test::read_lines(test::source_path("tests/data/sam/" + name)));
}

using test::TempDir;

// The BAM file as SAM text again, through htslib.
SamText read_back(const std::string& path) {
  int format = -1;
  SamText s = test::read_hts(path, &format);
  EXPECT_EQ(format, bam) << path;
  return s;
}

// The records as BAM gives them back: SEQ (column 10) in upper case (4-bit codes) and
// float tags as htslib prints the stored 32-bit float ("%g": de:f:0.0400 -> 0.04).
std::vector<std::string> as_bam_prints(const std::vector<std::string>& records) {
  std::vector<std::string> out;
  for (const std::string& r : records) {
    std::vector<std::string> f = test::split_tabs(r);
    for (char& c : f[9]) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    std::string line;
    for (size_t i = 0; i < f.size(); ++i) {
      if (i >= 11 && f[i].compare(2, 3, ":f:") == 0) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", std::stof(f[i].substr(5)));
        f[i] = f[i].substr(0, 5) + buf;
      }
      line += (i ? "\t" : "") + f[i];
    }
    out.push_back(line);
  }
  return out;
}

std::string error_of(const std::function<void()>& f) { return test::error_of<Error>(f, "(no exception)"); }

TEST(BamWriter, RoundTripsMinimap2Sam) {
  for (const std::string name : {"map-pb.sam", "n.map-pb-eqx-MD.sam"}) {
    SCOPED_TRACE(name);
    const SamText sam = load_sam(name);
    ASSERT_FALSE(sam.records.empty());
    TempDir dir;
    const std::string path = dir.file("out.bam");
    BamWriter w(path);
    w.write_header(sam.header);
    // The first record alone without '\n', then the rest in one call with '\n's.
    w.write_records(sam.records[0]);
    std::string rest;
    for (size_t i = 1; i < sam.records.size(); ++i) rest += sam.records[i] + '\n';
    w.write_records(rest);
    EXPECT_FALSE(fs::exists(path));  // still under its temporary name
    w.close();
    EXPECT_EQ(w.records(), static_cast<int64_t>(sam.records.size()));
    EXPECT_EQ(dir.entries(), 1u);
    const SamText back = read_back(path);
    EXPECT_EQ(back.header, sam.header);
    EXPECT_EQ(back.records, as_bam_prints(sam.records));
  }
}

TEST(BamWriter, CompressionThreads) {
  const SamText sam = load_sam("map-pb.sam");
  TempDir dir;
  BamWriter w(dir.file("t.bam"), 2);
  w.write_header(sam.header);
  for (const std::string& r : sam.records) w.write_records(r + '\n');
  w.close();
  EXPECT_EQ(read_back(dir.file("t.bam")).records, as_bam_prints(sam.records));
}

TEST(BamWriter, CloseWithoutRecordsGivesHeaderOnlyFile) {
  TempDir dir;
  BamWriter w(dir.file("empty.bam"));
  w.close();
  w.close();  // a second close does nothing
  const SamText back = read_back(dir.file("empty.bam"));
  EXPECT_EQ(back.header, "");
  EXPECT_TRUE(back.records.empty());
}

TEST(BamWriter, UnwritablePathThrows) {
  const std::string path = "/nonexistent-agatha-dir/out.bam";
  const std::string msg = error_of([&] { BamWriter w(path); });
  EXPECT_NE(msg.find("'" + path + "'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("No such file or directory"), std::string::npos) << msg;
}

TEST(BamWriter, BadRecordThrowsWithQname) {
  const SamText sam = load_sam("map-pb.sam");
  TempDir dir;
  const std::string path = dir.file("bad.bam");
  {
    BamWriter w(path);
    w.write_header(sam.header);
    w.write_records(sam.records[0]);
    // An RNAME the header does not have.
    std::string bad = sam.records[1];
    bad.replace(bad.find("\tchrA\t"), 6, "\tchrZ\t");
    const std::string msg = error_of([&] { w.write_records(bad); });
    EXPECT_NE(msg.find("record 2 ('rev')"), std::string::npos) << msg;
    EXPECT_NE(msg.find("RNAME 'chrZ' is not in the header"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'" + path + "'"), std::string::npos) << msg;
    // Too few columns.
    EXPECT_NE(error_of([&] { w.write_records("short\t0\tchrA\n"); }).find("('short')"), std::string::npos);
  }
  // Destroyed without close(): neither the file nor its temporary remains.
  EXPECT_EQ(dir.entries(), 0u);
}

TEST(BamWriter, HeaderErrorsThrow) {
  TempDir dir;
  BamWriter w(dir.file("h.bam"));
  EXPECT_NE(error_of([&] { w.write_records("x\t4\t*\t0\t0\t*\t*\t0\t0\tA\t*\n"); }).find("before the header"),
            std::string::npos);
  EXPECT_NE(
      error_of([&] { w.write_header("@SQ\tSN:a\tLN:10\n@SQ\tSN:a\tLN:10\n"); }).find("cannot parse the SAM header"),
      std::string::npos);
}

TEST(BamWriter, FullDiskThrowsOnClose) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const SamText sam = load_sam("map-pb.sam");
  const std::string msg = error_of([&] {
    BamWriter w("/dev/full");
    w.write_header(sam.header);
    for (const std::string& r : sam.records) w.write_records(r);
    w.close();
  });
  EXPECT_NE(msg.find("cannot write BAM file '/dev/full'"), std::string::npos) << msg;
}

}  // namespace
}  // namespace agatha::io
