// Alignment files (src/eval/alignment_file.cpp) as eval and compare read them: every
// truncation of a BAM, header sizes beyond the file, BAM cut between blocks, records
// without a position.
#include "src/eval/alignment_file.hpp"

#include <agatha/error.hpp>

#include <gtest/gtest.h>
#include <htslib/sam.h>

#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "eval_test.hpp"
#include "src/eval/accuracy.hpp"
#include "src/eval/compare.hpp"
#include "src/eval/truth.hpp"
#include "support/files.hpp"

namespace agatha {
namespace {

using test::eval_data;

// Every prefix of a BAM file is an error, never a crash, a read past the data (which a
// build with -Db_sanitize=address reports) or a silently shorter input.
TEST(AlignmentFile, EveryTruncationOfABamIsHandled) {
  test::TempDir d;
  const eval::Truth t = eval::load_truth(eval_data("truth.maf"));
  const std::string full = test::read_file(eval_data("cases.bam"));
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

// An uncompressed BAM of 127 bytes whose header claims 4 GiB of text (found by
// fuzzing: htslib allocated it as stated) or 2^31 references is refused before htslib
// reads the header.
TEST(AlignmentFile, BamHeaderSizesBeyondTheFileAreErrors) {
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

// Cut at a block boundary, a BAM is a valid shorter file but for its missing end
// marker; htslib only warns, and the counts would silently cover part of the input.
TEST(AlignmentFile, BamCutBetweenBlocksIsAnError) {
  test::TempDir d;
  const std::string bam = (d / "big.bam").string();
  write_bam(eval_data("mm.map-pb.sam"), bam, 40);
  const std::string full = test::read_file(bam);
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
TEST(AlignmentFile, BamRecordWithoutPositionIsUnmappedAsInSam) {
  test::TempDir d;
  const eval::Truth t = eval::load_truth(eval_data("truth.maf"));
  const std::string hdr = "@SQ\tSN:chrA\tLN:10000\n";
  const std::string at1 = d.write("at1.sam", hdr + "r4\t0\tchrA\t1\t60\t1000M\t*\t0\t0\t*\t*\n");
  const std::string at0 = d.write("at0.sam", hdr + "r4\t0\tchrA\t0\t60\t1000M\t*\t0\t0\t*\t*\n");
  const std::string bam = (d / "nopos.bam").string();
  write_bam(at1, bam, 1, [](bam1_t* b) { b->core.pos = -1; });
  EXPECT_EQ(eval::evaluate(t, at1, 0.1).at(0).mapped, 1u);
  EXPECT_EQ(eval::evaluate(t, at0, 0.1).at(0).mapped, 0u);
  EXPECT_EQ(eval::evaluate(t, bam, 0.1).at(0).mapped, 0u);
}

}  // namespace
}  // namespace agatha
