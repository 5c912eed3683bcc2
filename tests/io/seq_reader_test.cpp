// FASTA/FASTQ reading: kseq's parsing rules, batches, and the exact error messages.
#include "../../src/io/seq_reader.hpp"

#include <agatha/error.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "read_all.hpp"
#include "support/files.hpp"

namespace agatha::io {
namespace {

class SeqReaderTest : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) { return dir_.write(name, text); }
  std::string write_gz(const std::string& name, const std::string& text) { return dir_.write_gz(name, text); }
  static std::vector<SeqRecord> read_all(const std::string& path) { return test_reads::read_all(path); }
  static std::string error_of(const std::string& path) { return test_reads::error_of(path); }
  test::TempDir dir_;
};

TEST_F(SeqReaderTest, MultiLineFastaWithComments) {
  const auto recs = read_all(write("a.fa", ">r1 first read\tx\nACGT\nacgu\n\nNN\n>r2\n>r3\nUUu\n"));
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0].name, "r1");
  EXPECT_EQ(recs[0].comment, "first read\tx");
  EXPECT_EQ(recs[0].seq, "ACGTacgtNN");  // U/u to T/t, case kept, empty line skipped
  EXPECT_TRUE(recs[0].qual.empty());
  EXPECT_EQ(recs[1].name, "r2");
  EXPECT_TRUE(recs[1].seq.empty());  // empty reads are allowed
  EXPECT_EQ(recs[2].seq, "TTt");
}

TEST_F(SeqReaderTest, FastqIncludingEmptyAndMultiLineRecords) {
  const auto recs = read_all(write("a.fq", "@q1 c\nACGT\n+q1\nIIII\n@q2\n\n+\n\n@q3\nAC\nGT\n+\n!!\n##\n"));
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0].seq, "ACGT");
  EXPECT_EQ(recs[0].qual, "IIII");
  EXPECT_EQ(recs[0].comment, "c");
  EXPECT_TRUE(recs[1].seq.empty());
  EXPECT_TRUE(recs[1].qual.empty());
  EXPECT_EQ(recs[2].seq, "ACGT");
  EXPECT_EQ(recs[2].qual, "!!##");
}

TEST_F(SeqReaderTest, CrlfLineEndsAreDroppedLikeKseq) {
  // minimap2 2.24 maps a CRLF FASTQ exactly like the LF one (checked with -a: same SEQ
  // and QUAL lengths); kseq drops a line's '\r' unless it is the field's only byte.
  const auto recs = read_all(write("crlf.fq", "@q1\r\nAC\r\nGT\r\n+\r\nII\r\nII\r\n@q2 x \r\nA\r\n+\r\n#\r\n"));
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].name, "q1");
  EXPECT_EQ(recs[0].comment, "");
  EXPECT_EQ(recs[0].seq, "ACGT");
  EXPECT_EQ(recs[0].qual, "IIII");
  EXPECT_EQ(recs[1].comment, "x ");
  EXPECT_EQ(recs[1].seq, "A");
  EXPECT_EQ(recs[1].qual, "#");
}

TEST_F(SeqReaderTest, GzipAndBatches) {
  const auto path = write_gz("b.fa.gz", ">a\nAAAA\n>b\nCC\n>c\nGGGGG\n>d\nT\n");
  SeqReader r(path);
  auto b1 = r.next_batch(5);  // 4 < 5, then 6 >= 5: the crossing read is included
  ASSERT_EQ(b1.size(), 2u);
  EXPECT_EQ(b1[1].name, "b");
  auto b2 = r.next_batch(0);  // at least one record
  ASSERT_EQ(b2.size(), 1u);
  EXPECT_EQ(b2[0].seq, "GGGGG");
  EXPECT_EQ(r.next_batch(100).size(), 1u);
  EXPECT_TRUE(r.next_batch(100).empty());
  EXPECT_EQ(r.records_read(), 4u);
}

TEST_F(SeqReaderTest, EmptyFileHasNoRecords) { EXPECT_TRUE(read_all(write("empty.fa", "")).empty()); }

TEST_F(SeqReaderTest, ErrorMessages) {
  EXPECT_EQ(error_of("/nonexistent/x.fq"), "cannot open '/nonexistent/x.fq': No such file or directory");
  const auto junk = write("junk.txt", "\nhello\n");
  EXPECT_EQ(error_of(junk), "'" + junk + "' line 2: not FASTA or FASTQ: expected '>' or '@', found 'h'");
  const auto qlen = write("qlen.fq", "@a\nAC\n+\nII\n@b\nACGT\n+\nIII\n@c\nA\n+\nI\n");
  // kseq reads quality lines until it has at least the sequence's length: "III" then "@c".
  // The message gives the length before the swallowed header, at the line it ended on.
  EXPECT_EQ(error_of(qlen), "'" + qlen +
                                "' line 8 (record 2 'b', starting at line 5): quality string length 3 differs "
                                "from sequence length 4 (the next line, a header, was read as quality)");
  const auto longq = write("longq.fq", "@a\nACGT\n+\nII\nIII\n");  // too long, not a header
  EXPECT_EQ(error_of(longq), "'" + longq +
                                 "' line 5 (record 1 'a', starting at line 1): quality string length 5 differs "
                                 "from sequence length 4");
  const auto noq = write("noq.fq", "@a\nAC\n+");
  EXPECT_EQ(error_of(noq), "'" + noq + "' line 3 (record 1 'a', starting at line 1): missing quality string");
  const auto shortq = write("shortq.fq", "@a\nACGT\n+\nII\n");
  EXPECT_EQ(error_of(shortq), "'" + shortq +
                                  "' line 4 (record 1 'a', starting at line 1): quality string length 2 differs "
                                  "from sequence length 4");
}

TEST_F(SeqReaderTest, TruncatedGzipIsAnError) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += ">r" + std::to_string(i) + "\nACGTTGCAACGGTACCAGTAGCATGCA\n";
  const std::string bytes = test::read_file(write_gz("full.fa.gz", text));
  const auto cut = write("cut.fa.gz", bytes.substr(0, bytes.size() / 2));
  const std::string msg = error_of(cut);
  EXPECT_EQ(msg.rfind("'" + cut + "' line ", 0), 0u) << msg;
  EXPECT_NE(msg.find("read error (truncated or corrupt compressed stream)"), std::string::npos) << msg;
  // The line named is where the damage is: about half way into the 4,000 lines, not line 1
  // (the whole file is one gzip block, which BGZF drops at once).
  const size_t line = std::stoul(msg.substr(msg.find("' line ") + 7));
  EXPECT_GT(line, 1000u) << msg;
  EXPECT_LE(line, 4000u) << msg;
}

TEST_F(SeqReaderTest, BytesBelowFourAreBasesAndOtherNonLettersAreN) {
  // minimap2 aligns 0x00-0x03 as A, C, G, T and other non-letters as N; SEQ must stay
  // valid SAM ([A-Za-z=.]), so they are stored as those letters. Letters, '=' and '.'
  // are kept as they are.
  const std::string seq("\x00\x01\x02\x03\xff*-1 ACgtRy=.", 17);
  const auto recs = read_all(write("bytes.fa", ">r\n" + seq + "\n"));
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].seq, "ACGTNNNNNACgtRy=.");
}

// The same rules in long sequences, where the reader checks blocks of 32 bytes at once
// and passes blocks of plain letters through: each special byte at every position of
// a 100-base read (in each block and in the tail), among plain letters.
TEST_F(SeqReaderTest, SpecialBytesAnywhereInLongSequences) {
  const std::string plain = "ACGTacgtRYKMNnBDHV";
  const std::string special("Uu\x01\x03\xff*-=.", 9);
  auto expect_byte = [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == 'U' || c == 'u') return static_cast<char>(c - 1);
    if (c < 4) return "ACGT"[c];
    const bool letter = (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
    return letter || c == '=' || c == '.' ? ch : 'N';
  };
  std::string text;
  std::vector<std::string> wants;
  for (const char sp : special) {
    for (int pos = 0; pos < 100; ++pos) {
      std::string seq;
      for (int i = 0; i < 100; ++i) seq += plain[static_cast<size_t>(i * 7 + pos) % plain.size()];
      seq[static_cast<size_t>(pos)] = sp;
      std::string w;
      for (const char ch : seq) w += expect_byte(ch);
      text += ">r\n" + seq + "\n";
      wants.push_back(w);
    }
  }
  const auto recs = read_all(write("long_bytes.fa", text));
  ASSERT_EQ(recs.size(), wants.size());
  for (size_t i = 0; i < recs.size(); ++i) ASSERT_EQ(recs[i].seq, wants[i]) << "record " << i;
}

}  // namespace
}  // namespace agatha::io
