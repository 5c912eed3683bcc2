// Truth for `agatha eval` (src/eval/truth.cpp): origins encoded in read names, PBSIM's
// MAF, FASTQ truth, and positions out of range.
#include "src/eval/truth.hpp"

#include <agatha/error.hpp>

#include <gtest/gtest.h>

#include <string>

#include "support/files.hpp"
#include "support/paths.hpp"

namespace agatha {
namespace {

TEST(Truth, ParsesOriginNames) {
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

TEST(Truth, LoadsPbsimMaf) {
  const eval::Truth t = eval::load_truth(test::source_path("data/reads.maf.gz"));
  EXPECT_EQ(t.size(), 155u);
  const eval::Origin& o = t.by_read.at("S1_2");
  EXPECT_EQ(o.contig, "MT_orang");
  EXPECT_EQ(o.start, 8628);
  EXPECT_EQ(o.end, 8628 + 2498);
  EXPECT_EQ(o.strand, '-');
}

// start + size near 2^63 does not fit in int64: an error naming the file and line, not
// a wrapped (undefined) end.
TEST(Truth, MafPositionsOutOfRangeAreErrors) {
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

// A truth FASTQ may start with blank lines: records are counted from the first header.
TEST(Truth, FastqTruthAfterBlankLines) {
  test::TempDir d;
  const std::string fq = d.write("t.fq", "\n\n@a!chrA!0!4!+\nACGT\n+\n@@@@\n@b!chrA!4!8!-\nACGT\n+\nIIII\n");
  const eval::Truth t = eval::load_truth(fq);
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(t.by_read.at("b!chrA!4!8!-").strand, '-');
}

}  // namespace
}  // namespace agatha
