// Annotated introns (src/index/junctions.cpp): BED12 and BED6 lines read as minimap2
// 2.24's mm_idx_read_bed reads them, and the junction bits of a window as
// mm_idx_bed_junc sets them. Every expectation below is worked out by hand.
#include "../../src/index/junctions.hpp"

#include <agatha/dp.hpp>
#include <agatha/error.hpp>

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "../../src/index/index.hpp"
#include "../../src/io/junction_bed.hpp"
#include "support/files.hpp"

namespace agatha::index {
namespace {

using namespace dp_junc;

std::vector<uint8_t> marks(const Junctions& j, uint32_t rid, int32_t st, int32_t en) {
  std::vector<uint8_t> out(static_cast<size_t>(en - st), 0xff);
  j.mark(rid, st, en, out);
  return out;
}

class JunctionsTest : public ::testing::Test {
 protected:
  JunctionsTest() {
    AlignOptions opt;
    opt.k = 5, opt.w = 3;
    idx_.emplace(MinimizerIndex::build({{"c1", std::string(100, 'A')}, {"c2", std::string(50, 'C')}}, opt));
  }
  Junctions read(const std::string& text) { return io::read_junction_bed(dir_.write("j.bed", text), idx_->reference()); }
  std::optional<MinimizerIndex> idx_;
  test::TempDir dir_;
};

TEST_F(JunctionsTest, Bed12GivesTheGapsBetweenBlocks) {
  // Blocks [10,15) [20,30) [40,42): introns [15,20) and [30,40) on '+'.
  const Junctions j = read("c1\t10\t42\ttx\t0\t+\t10\t42\t0\t3\t5,10,2,\t0,10,30,\n");
  std::vector<uint8_t> want(100, 0);
  want[15] = kJuncForStart, want[19] = kJuncForEnd;
  want[30] = kJuncForStart, want[39] = kJuncForEnd;
  EXPECT_EQ(marks(j, 0, 0, 100), want);
  // Only introns wholly inside the window are marked.
  std::vector<uint8_t> inner(24, 0);  // [16, 40): [30, 40) only; [15, 20) starts before it
  inner[14] = kJuncForStart, inner[23] = kJuncForEnd;
  EXPECT_EQ(marks(j, 0, 16, 40), inner);
  EXPECT_EQ(marks(j, 0, 16, 39), std::vector<uint8_t>(23, 0));
  EXPECT_EQ(marks(j, 1, 0, 50), std::vector<uint8_t>(50, 0));
}

TEST_F(JunctionsTest, Bed6LinesAreIntronsWithTheirStrand) {
  // '-': kJuncRevEnd at the first base, kJuncRevStart at the last. No strand: not marked.
  // Unknown names, empty intervals and negative starts are skipped; a BED12 line whose
  // tenth column is not a number is one interval.
  const Junctions j = read(
      "c2\t5\t9\tx\t0\t-\n"
      "c2\t20\t25\tx\t0\t.\n"
      "c9\t1\t3\tx\t0\t+\n"
      "c2\t30\t30\tx\t0\t+\n"
      "c2\t-1\t3\tx\t0\t+\n"
      "c2\t40\t44\tx\t0\t+\t40\t44\t0\tn\t1,1,\t0,3,\n");
  std::vector<uint8_t> want(50, 0);
  want[5] = kJuncRevEnd, want[8] = kJuncRevStart;
  want[40] = kJuncForStart, want[43] = kJuncForEnd;
  EXPECT_EQ(marks(j, 1, 0, 50), want);
}

TEST_F(JunctionsTest, OverlappingIntronsShareBases) {
  const Junctions j = read("c1\t10\t20\ta\t0\t+\nc1\t19\t30\tb\t0\t-\nc1\t10\t20\tc\t0\t+\n");
  std::vector<uint8_t> want(40, 0);
  want[10] = kJuncForStart;
  want[19] = kJuncForEnd | kJuncRevEnd;
  want[29] = kJuncRevStart;
  EXPECT_EQ(marks(j, 0, 0, 40), want);
}

TEST_F(JunctionsTest, PositionsPast2To31AreSkippedAndBlockCountsCapped) {
  // A line past 2^31 - 1 (which int32 fields would wrap into an interval ending before
  // it starts) is skipped; a BED12 line claiming 10^18 blocks gives the introns of the
  // blocks it lists, and reading it ends at once.
  const Junctions j = read(
      "c1\t2147483600\t2147483700\tbig\t0\t+\n"
      "c1\t60\t70\tok\t0\t+\n"
      "c2\t10\t40\tx\t0\t-\t10\t40\t0\t999999999999999999\t5,5,\t0,25,\n");
  std::vector<uint8_t> c1(100, 0);
  c1[60] = kJuncForStart, c1[69] = kJuncForEnd;
  EXPECT_EQ(marks(j, 0, 0, 100), c1);
  std::vector<uint8_t> c2(50, 0);
  c2[15] = kJuncRevEnd, c2[34] = kJuncRevStart;  // blocks [10,15) [35,40): intron [15,35)
  EXPECT_EQ(marks(j, 1, 0, 50), c2);
}

// Block offsets and sizes as large as a field can hold (strtoll saturates them at the
// int64 limits) are summed without overflow: their introns lie past 2^31 - 1 or end before
// they start, and are skipped; the line's other introns and the next line stay.
TEST_F(JunctionsTest, BlockFieldsAtTheInt64LimitsAddNoIntron) {
  const Junctions j = read(
      "c1\t10\t42\ttx\t0\t+\t10\t42\t0\t3\t5,99999999999999999999,2,\t0,10,30,\n"
      "c1\t10\t42\ttx\t0\t+\t10\t42\t0\t3\t5,10,2,\t0,99999999999999999999,-99999999999999999999,\n"
      "c2\t10\t40\tx\t0\t+\n");
  std::vector<uint8_t> c1(100, 0);
  c1[15] = kJuncForStart, c1[19] = kJuncForEnd;  // the first line's [15, 20); the second adds none
  EXPECT_EQ(marks(j, 0, 0, 100), c1);
  std::vector<uint8_t> c2(50, 0);
  c2[10] = kJuncForStart, c2[39] = kJuncForEnd;
  EXPECT_EQ(marks(j, 1, 0, 50), c2);
}

TEST_F(JunctionsTest, MissingFileIsAnInputError) {
  EXPECT_THROW((void)io::read_junction_bed(dir_.file("none.bed"), idx_->reference()), InputError);
}

}  // namespace
}  // namespace agatha::index
