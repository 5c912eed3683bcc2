// Hand-checked region selection cases: the 2.24 in-place parent lookup of mm_select_sub
// (not reached by the golden reads), and the PAF line of an exact, divergence-0 hit.
#include "../../src/map/hit.hpp"
#include "../../src/pipeline/read_mapper.hpp"

#include <gtest/gtest.h>

namespace agatha::map {
namespace {

Region make(int32_t id, int32_t parent, int32_t score, int32_t qs) {
  Region r;
  r.id = id, r.parent = parent, r.score = r.score0 = score;
  r.qs = qs, r.qe = qs + 100, r.rs = 1000 * id, r.re = 1000 * id + 100;
  return r;
}

// Regions 0 and 2 are primaries with secondaries 1 and 4; 3 is a weak primary. Region 1
// is dropped, so when region 4 is examined the array slot of its parent (2) already holds
// region 3 (score 90), and 80 >= 0.8 * 90 keeps it — against its real parent (500) it
// would go. minimap2 2.24 keeps it; its parent becomes index 1 after renumbering.
TEST(SelectSub, ParentIsLookedUpInTheCompactedArray) {
  std::vector<Region> regs = {make(0, 0, 1000, 0), make(1, 0, 100, 10), make(2, 2, 500, 200), make(3, 3, 90, 400),
                              make(4, 2, 80, 210)};
  select_sub(regs, 0.8f, 38, 5, false, 4000);
  ASSERT_EQ(regs.size(), 4u);
  EXPECT_EQ(regs[3].score, 80);
  EXPECT_EQ(regs[3].id, 3);
  EXPECT_EQ(regs[3].parent, 1);
  EXPECT_EQ(regs[1].parent, 1);
  EXPECT_EQ(regs[2].parent, 2);
}

TEST(SelectSub, OppositeStrandSecondaryIsRetainedAboveMinStrandScore) {
  std::vector<Region> regs = {make(0, 0, 10000, 0), make(1, 0, 5000, 10)};
  regs[1].rev = true;
  select_sub(regs, 0.8f, 38, 5, true, 4000);
  ASSERT_EQ(regs.size(), 2u);
  EXPECT_TRUE(regs[1].strand_retained);
  regs[0].div = 0.001f, regs[1].div = 0.004f;  // < 5 x the parent's: kept
  filter_strand_retained(regs);
  EXPECT_EQ(regs.size(), 2u);
  regs[1].div = 0.02f;
  filter_strand_retained(regs);
  EXPECT_EQ(regs.size(), 1u);
}

// `minimap2 -x map-pb` on a read equal to its 3 kb reference prints divergence 0 as "0".
TEST(PafLine, UnalignedRegionWithZeroDivergence) {
  Region r;
  r.id = r.parent = 0;
  r.qs = 4, r.qe = 3000, r.rs = 4, r.re = 3000, r.mlen = r.blen = 2996;
  r.mapq = 60, r.cnt = 381, r.score = 2996, r.subsc = 0, r.div = 0.0f;
  EXPECT_EQ(
      pipeline::paf_line("q", 3000, "z", 3000, r, 0),
      "q\t3000\t4\t3000\t+\tz\t3000\t4\t3000\t2996\t2996\t60\ttp:A:P\tcm:i:381\ts1:i:2996\ts2:i:0\tdv:f:0\trl:i:0\n");
}

TEST(FastLog2, MatchesMinimap2Polynomial) {
  // 2 = 2^1 * 1.0: exponent term 1 - 1, polynomial at m = 1.
  EXPECT_EQ(fast_log2(2.0f), (-0.34484843f * 1.0f + 2.02466578f) * 1.0f - 0.67487759f);
  EXPECT_NEAR(fast_log2(1024.0f), 10.0f, 0.01f);
}

}  // namespace
}  // namespace agatha::map
