// Reads from SAM, BAM and CRAM (io/hts_reads.hpp through SeqReader): samtools fastq's
// rules for names, strands, qualities and tags, the same reads from each format, and
// the errors of truncated or malformed files.
#include "../../src/io/hts_reads.hpp"

#include <agatha/error.hpp>

#include <gtest/gtest.h>
#include <htslib/cram.h>
#include <htslib/sam.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../../src/io/seq_reader.hpp"
#include "read_all.hpp"
#include "support/files.hpp"

namespace agatha::io {
namespace {

const char* const kSam =
    "@HD\tVN:1.6\n"
    "@SQ\tSN:c\tLN:100\n"
    "@RG\tID:run1\tSM:s\n"
    "u1\t4\t*\t0\t0\t*\t*\t0\t0\tACGTNacgt\tIIIIIIIII\tMM:Z:C+m?,0;\tML:B:C,200\tqs:i:12\tRG:Z:run1\n"
    "rev\t16\tc\t1\t60\t2S6M\t*\t0\t0\tAACMRGTT\tABCDEFGH\tNM:i:0\tde:f:0.01\n"
    "sec\t256\tc\t5\t0\t4M\t*\t0\t0\t*\t*\n"
    "sup\t2048\tc\t9\t3\t4H4M\t*\t0\t0\tACGT\tIIII\n"
    "p\t77\t*\t0\t0\t*\t*\t0\t0\tACGT\tIIII\n"
    "p\t141\t*\t0\t0\t*\t*\t0\t0\tTTTT\tIIII\n"
    "r1only\t64\t*\t0\t0\t*\t*\t0\t0\tACGT\tIIII\n"
    "both\t195\tc\t1\t60\t4M\t=\t1\t4\tACGT\tIIII\n"
    "noqual\t4\t*\t0\t0\t*\t*\t0\t0\tACGT\t*\tXa:A:z\tXh:H:1AE3\tXb:B:f,1.5,2\tXi:i:-5\tXs:B:s,-1,2\n"
    "noseq\t4\t*\t0\t0\t*\t*\t0\t0\t*\t*\n";

class HtsReadsTest : public ::testing::Test {
 protected:
  static std::vector<SeqRecord> read_all(const std::string& path) { return test_reads::read_all(path); }
  static std::string error_of(const std::string& path) { return test_reads::error_of(path); }
  // The SAM text converted by htslib to `mode` ("wb" BAM, "wc" CRAM) at `name`.
  std::string convert(const std::string& sam_path, const std::string& name, const char* mode) {
    const std::string out = (dir_.path() / name).string();
    samFile* in = sam_open(sam_path.c_str(), "r");
    samFile* o = sam_open(out.c_str(), mode);
    EXPECT_TRUE(in && o);
    if (mode[1] == 'c') hts_set_opt(o, CRAM_OPT_NO_REF, 1);
    sam_hdr_t* h = sam_hdr_read(in);
    EXPECT_EQ(sam_hdr_write(o, h), 0);
    bam1_t* b = bam_init1();
    while (sam_read1(in, h, b) >= 0) EXPECT_GE(sam_write1(o, h, b), 0);
    bam_destroy1(b);
    sam_hdr_destroy(h);
    sam_close(in);
    EXPECT_EQ(sam_close(o), 0);
    return out;
  }
  test::TempDir dir_;
};

TEST_F(HtsReadsTest, ReadsAsSamtoolsFastqWritesThem) {
  EXPECT_TRUE(SeqReader(dir_.write("in.sam", kSam)).alignment_format());
  const auto recs = read_all(dir_.path() / "in.sam");
  std::vector<std::string> names;
  for (const SeqRecord& r : recs) names.push_back(r.name);
  // Secondary and supplementary records passed over; /1 /2 only with 0x1 and one of
  // 0x40, 0x80.
  EXPECT_EQ(names, (std::vector<std::string>{"u1", "rev", "p/1", "p/2", "r1only", "both", "noqual", "noseq"}));
  ASSERT_EQ(recs.size(), 8u);
  EXPECT_EQ(recs[0].seq, "ACGTNACGT");  // BAM's bases are upper case
  EXPECT_EQ(recs[0].qual, "IIIIIIIII");
  EXPECT_EQ(recs[0].comment, "MM:Z:C+m?,0;\tML:B:C,200\tqs:i:12\tRG:Z:run1");
  // Reverse strand: the read as sequenced (IUPAC codes complemented), qualities reversed.
  EXPECT_EQ(recs[1].seq, "AACYKGTT");
  EXPECT_EQ(recs[1].qual, "HGFEDCBA");
  EXPECT_EQ(recs[1].comment, "NM:i:0\tde:f:0.01");
  EXPECT_EQ(recs[3].seq, "TTTT");
  EXPECT_EQ(recs[6].seq, "ACGT");
  EXPECT_TRUE(recs[6].qual.empty());  // QUAL `*`: a FASTA record
  EXPECT_EQ(recs[6].comment, "Xa:A:z\tXh:H:1AE3\tXb:B:f,1.5,2\tXi:i:-5\tXs:B:s,-1,2");
  EXPECT_TRUE(recs[7].seq.empty());  // SEQ `*`: an empty read, still a read
  EXPECT_TRUE(recs[7].comment.empty());
}

TEST_F(HtsReadsTest, BamCramAndGzippedSamGiveTheSameReads) {
  const std::string sam = dir_.write("in.sam", kSam);
  const auto want = read_all(sam);
  for (const std::string& path :
       {convert(sam, "in.bam", "wb"), convert(sam, "in.cram", "wc"), dir_.write_gz("in.sam.gz", kSam)}) {
    const auto got = read_all(path);
    ASSERT_EQ(got.size(), want.size()) << path;
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(got[i].name, want[i].name) << path;
      EXPECT_EQ(got[i].seq, want[i].seq) << path << " " << want[i].name;
      EXPECT_EQ(got[i].qual, want[i].qual) << path << " " << want[i].name;
      EXPECT_EQ(got[i].comment, want[i].comment) << path << " " << want[i].name;
    }
  }
}

TEST_F(HtsReadsTest, FastqIsNotTakenForSam) {
  SeqReader r(dir_.write("a.fq", "@HD_read\tVN:1\nACGT\n+\nIIII\n"));
  EXPECT_FALSE(r.alignment_format());
  SeqRecord rec;
  ASSERT_TRUE(r.next(rec));
  EXPECT_EQ(rec.name, "HD_read");
}

TEST_F(HtsReadsTest, MalformedSamRecordNamesFileLineAndRecord) {
  const std::string path = dir_.write("bad.sam", "@HD\tVN:1.6\nok\t4\t*\t0\t0\t*\t*\t0\t0\tACGT\tIIII\nbad\tX\t*\n");
  EXPECT_EQ(error_of(path), "'" + path + "' line 3 (record 2, after 'ok'): truncated or corrupt SAM record");
}

TEST_F(HtsReadsTest, TruncatedBamIsAnErrorNeverAShortRead) {
  std::string text = "@HD\tVN:1.6\n";
  for (int i = 0; i < 3000; ++i)
    text += "r" + std::to_string(i) + "\t4\t*\t0\t0\t*\t*\t0\t0\t" + std::string(200, "ACGT"[i % 4]) + "\t*\n";
  const std::string bam = convert(dir_.write("in.sam", text), "in.bam", "wb");
  const std::string bytes = test::read_file(bam);
  // Cut inside a block, and at a block boundary (the end-of-file marker, 28 bytes, gone).
  const std::string mid = dir_.write("mid.bam", bytes.substr(0, bytes.size() / 2));
  EXPECT_NE(error_of(mid).find("'" + mid + "'"), std::string::npos) << error_of(mid);
  const std::string cut = dir_.write("cut.bam", bytes.substr(0, bytes.size() - 28));
  EXPECT_EQ(error_of(cut), "'" + cut + "': truncated BAM file (no end-of-file marker)");
  const std::string head = dir_.write("head.bam", bytes.substr(0, 10));  // too short to tell the format
  EXPECT_NE(error_of(head).find("'" + head + "'"), std::string::npos) << error_of(head);
}

TEST_F(HtsReadsTest, TruncatedCramIsAnError) {
  const std::string cram = convert(dir_.write("in.sam", kSam), "in.cram", "wc");
  const std::string bytes = test::read_file(cram);
  const std::string cut = dir_.write("cut.cram", bytes.substr(0, bytes.size() - 38));
  EXPECT_NE(error_of(cut), "") << "a CRAM file without its end-of-file container read without error";
}

}  // namespace
}  // namespace agatha::io
