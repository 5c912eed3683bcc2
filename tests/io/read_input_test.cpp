// Reads and fragments: files read in step or one after another, interleaved pairs
// grouped by name, batches that never split a fragment, and the error for reads files
// out of step.
#include "../../src/io/read_input.hpp"

#include <agatha/error.hpp>

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/files.hpp"

namespace agatha::io {
namespace {

class ReadInputTest : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) { return dir_.write(name, text); }
  // Every batch of the input: "name,name|name" per batch, fragments split by '|'.
  static std::string batches(ReadInput& in, uint64_t min_bases) {
    std::string out;
    for (ReadBatch b = in.next_batch(min_bases); !b.empty(); b = in.next_batch(min_bases)) {
      out += out.empty() ? "" : " ; ";
      for (size_t f = 0; f < b.fragments(); ++f) {
        if (f) out += '|';
        for (uint32_t i = b.frag_start[f]; i < b.frag_start[f + 1]; ++i)
          out += (i > b.frag_start[f] ? "," : "") + b.reads[i].name;
      }
    }
    return out;
  }
  test::TempDir dir_;
};

TEST(FragmentName, DropsASlashAndOneDigitFromNamesOfThreeBytesOrMore) {
  EXPECT_EQ(fragment_name("read/1"), "read");
  EXPECT_EQ(fragment_name("read/2"), "read");
  EXPECT_EQ(fragment_name("ab/9"), "ab");
  EXPECT_EQ(fragment_name("a/1"), "a");
  EXPECT_EQ(fragment_name("/1"), "/1");  // shorter than 3 bytes
  EXPECT_EQ(fragment_name("read/12"), "read/12");
  EXPECT_EQ(fragment_name("read/x"), "read/x");
  EXPECT_EQ(fragment_name("read_1"), "read_1");
  EXPECT_EQ(fragment_name("read"), "read");
}

TEST_F(ReadInputTest, TwoFilesInStepGivePairsGroupedByName) {
  const std::string r1 = write("r1.fa", ">a/1\nACGT\n>b/1\nAC\n>c\nA\n");
  const std::string r2 = write("r2.fa", ">a/2\nACGT\n>b/2\nAC\n>d\nA\n");
  ReadInput in({r1, r2}, true);
  EXPECT_TRUE(in.frag_mode());
  // c and d are named apart: two fragments of one segment each
  EXPECT_EQ(batches(in, 1000), "a/1,a/2|b/1,b/2|c|d");
}

TEST_F(ReadInputTest, BatchesNeverSplitAFragment) {
  const std::string r1 = write("r1.fa", ">a/1\nACGT\n>b/1\nAC\n>c/1\nA\n");
  const std::string r2 = write("r2.fa", ">a/2\nACGT\n>b/2\nAC\n>c/2\nA\n");
  ReadInput in({r1, r2}, true);
  EXPECT_EQ(batches(in, 1), "a/1,a/2 ; b/1,b/2 ; c/1,c/2");
  // One interleaved file: the fragment crossing the threshold is completed.
  const std::string il = write("il.fa", ">a/1\nACGT\n>a/2\nACGT\n>b\nAC\n>c/1\nA\n>c/2\nA\n>c/3\nA\n");
  ReadInput one({il}, true);
  EXPECT_EQ(batches(one, 1), "a/1,a/2 ; b ; c/1,c/2,c/3");
  ReadInput whole({il}, true);
  EXPECT_EQ(batches(whole, 1000), "a/1,a/2|b|c/1,c/2,c/3");
}

TEST_F(ReadInputTest, WithoutFragmentModeEveryRecordIsARead) {
  const std::string il = write("il.fa", ">a/1\nACGT\n>a/2\nACGT\n");
  const std::string more = write("more.fa", ">z\nACGT\n");
  ReadInput in({il, more}, false);
  EXPECT_FALSE(in.frag_mode());
  EXPECT_EQ(batches(in, 1000), "a/1|a/2|z");  // the files one after another
}

TEST_F(ReadInputTest, FilesOutOfStepAreAnError) {
  const std::string r1 = write("r1.fa", ">a/1\nACGT\n>b/1\nAC\n");
  const std::string r2 = write("r2.fa", ">a/2\nACGT\n");
  for (const bool r1_first : {true, false}) {
    ReadInput in(r1_first ? std::vector<std::string>{r1, r2} : std::vector<std::string>{r2, r1}, true);
    try {
      (void)batches(in, 1000);
      ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), "'" + r2 + "' ends after 1 records, but '" + r1 +
                                           "' has more: the reads files of fragments (pairs) must hold the same "
                                           "number of records");
    }
  }
}

TEST_F(ReadInputTest, MoreThan255ReadsOfOneNameAreAnError) {
  std::string text;
  for (int i = 0; i < 256; ++i) text += ">frag/1\nACGT\n";
  const std::string path = write("many.fa", text);
  ReadInput in({path}, true);
  try {
    (void)batches(in, 1000);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "'" + path + "': fragment 'frag' has 256 reads; at most 255 reads form a fragment");
  }
  ReadInput single({path}, false);  // not in fragment mode: 256 reads
  EXPECT_NO_THROW((void)batches(single, 1000));
}

// read_ahead: the batch read on another thread is the one next_batch would have read.
TEST_F(ReadInputTest, ABatchReadAheadIsTheBatchReadInTurn) {
  const std::string r1 = write("r1.fq", "@a/1 c1\nACGT\n+\nIIII\n@b/1\nAC\n+\nII\n@c/1\nA\n+\nI\n");
  const std::string r2 = write("r2.fq", "@a/2\nACGT\n+\nJJJJ\n@b/2\nAC\n+\nJJ\n@c/2\nA\n+\nJ\n");
  ReadInput plain({r1, r2}, true), ahead({r1, r2}, true);
  ahead.read_ahead(5);
  EXPECT_EQ(batches(ahead, 5), batches(plain, 5));
  EXPECT_EQ(batches(ahead, 5), "");  // at the end

  ReadInput in({r1, r2}, true);
  in.read_ahead(1000);
  const ReadBatch b = in.next_batch(1000);
  ASSERT_EQ(b.reads.size(), 6u);
  EXPECT_EQ(b.reads[0].comment, "c1");
  EXPECT_EQ(b.reads[1].qual, "JJJJ");
  EXPECT_EQ(b.fragments(), 3u);
  EXPECT_TRUE(in.next_batch(1000).empty());
}

TEST_F(ReadInputTest, ABatchReadAheadWithQualitiesCanBeTakenWithout) {
  const std::string path = write("r.fq", "@a c\nACGT\n+\nIIII\n");
  ReadInput in({path}, false);
  in.read_ahead(1000, false);
  const ReadBatch b = in.next_batch(1000, true);
  ASSERT_EQ(b.reads.size(), 1u);
  EXPECT_EQ(b.reads[0].seq, "ACGT");
  EXPECT_EQ(b.reads[0].qual, "");
  EXPECT_EQ(b.reads[0].comment, "");

  ReadInput bare({path}, false);
  bare.read_ahead(1000, true);
  EXPECT_THROW((void)bare.next_batch(1000, false), Error);  // what was left out cannot come back
  ReadInput twice({path}, false);
  twice.read_ahead(1000);
  EXPECT_THROW(twice.read_ahead(1000), Error);
}

// An error met while reading ahead comes out of next_batch, as it would have without.
TEST_F(ReadInputTest, AnErrorMetWhileReadingAheadComesOutOfNextBatch) {
  const std::string path = write("bad.fq", "@a\nACGT\n+\nIIII\n@b\nACGT\n+\nII\n");
  std::string plain_error;
  try {
    ReadInput plain({path}, false);
    (void)batches(plain, 1000);
  } catch (const InputError& e) {
    plain_error = e.what();
  }
  ASSERT_FALSE(plain_error.empty());
  ReadInput in({path}, false);
  in.read_ahead(1000);
  try {
    (void)in.next_batch(1000);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), plain_error);
  }
  // Never asked for: the input is closed after its reading ends.
  ReadInput dropped({path}, false);
  dropped.read_ahead(1000);
}

// A pipe is not read ahead: its writer may take as long as it likes (or, after an error
// elsewhere, never write again), and a batch being read ahead would hold the run up.
TEST_F(ReadInputTest, APipeIsNotReadAhead) {
  const std::string fifo = (dir_.path() / "reads.fifo").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string text = ">a\nACGT\n>b\nAC\n";
  // The writer's open waits for the reader's, and the reader sees the end once it closes.
  std::thread writer([&] {
    const int w = open(fifo.c_str(), O_WRONLY);
    if (w < 0) return;
    const ssize_t n = ::write(w, text.data(), text.size());
    (void)n;
    close(w);
  });
  ReadInput in({fifo}, false);
  writer.join();
  EXPECT_FALSE(in.read_ahead(1000));
  EXPECT_EQ(batches(in, 1000), "a|b");  // read in turn
  const std::string file = write("r.fa", text);
  ReadInput regular({file}, false);
  EXPECT_TRUE(regular.read_ahead(1000));
  EXPECT_EQ(batches(regular, 1000), "a|b");
}

}  // namespace
}  // namespace agatha::io
