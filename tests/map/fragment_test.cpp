// Hand-checked cases of the fragment steps (src/map/fragment.cpp): the choice of
// secondaries over a fragment (mm_select_sub_multi), the split of fragment chains into
// segment chains (mm_seg_gen) and the pairing rules of mm_pair. The e2e cases
// (tests/data/e2e/cases.tsv, pe_*) check whole read pairs against minimap2.
#include "../../src/map/fragment.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace agatha::map {
namespace {

// An aligned region of one segment, as mm_pair sees it (mapping orientation).
Region aligned(int32_t id, int32_t parent, int32_t rs, bool rev, int32_t dp_max, int mapq) {
  Region r;
  r.id = id, r.parent = parent, r.rid = 0, r.rs = rs, r.re = rs + 150, r.rev = rev;
  r.qs = 0, r.qe = 150, r.aligned = true, r.dp_max = dp_max, r.mapq = mapq;
  r.sam_pri = id == parent && id == 0;
  r.hash = static_cast<uint32_t>(1000 + rs);
  return r;
}

constexpr int kBonus = 33, kSubDiff = 8, kMatch = 2;  // sr: pe_bonus, 2a + b, a

// The only pair within max_gap_ref is of two secondaries: both become primary and SAM
// primary, their old primaries secondary to them with MAPQ 0 (the primary of the second
// segment keeps its MAPQ: only a lifted region's old parent loses it), and with a single
// candidate pair both get at least MAPQ 2.
TEST(PairSegments, SecondariesOfTheOnlyPairAreLiftedToPrimary) {
  std::vector<Region> s0 = {aligned(0, 0, 1000, false, 280, 40), aligned(1, 0, 50000, false, 275, 0)};
  std::vector<Region> s1 = {aligned(0, 0, 90000, false, 290, 50), aligned(1, 0, 50300, false, 285, 0)};
  pair_segments(500, kBonus, kSubDiff, kMatch, s0, s1);
  EXPECT_TRUE(s0[1].proper_frag && s1[1].proper_frag);
  EXPECT_FALSE(s0[0].proper_frag || s1[0].proper_frag);
  for (const auto* s : {&s0, &s1}) {
    EXPECT_EQ((*s)[1].parent, 1);
    EXPECT_EQ((*s)[0].parent, 1);
    EXPECT_TRUE((*s)[1].sam_pri);
    EXPECT_FALSE((*s)[0].sam_pri);
    EXPECT_EQ((*s)[0].mapq, 0);
    EXPECT_EQ((*s)[1].mapq, 2);
  }
}

// A pair must hold the first segment forward before the second forward (or the second
// reverse before the first reverse) in the mapping orientation, within max_gap_ref.
TEST(PairSegments, OrderStrandAndDistanceDecide) {
  auto run = [](int32_t rs0, bool rev0, int32_t rs1, bool rev1, int gap) {
    std::vector<Region> s0 = {aligned(0, 0, rs0, rev0, 280, 60)};
    std::vector<Region> s1 = {aligned(0, 0, rs1, rev1, 280, 60)};
    pair_segments(gap, kBonus, kSubDiff, kMatch, s0, s1);
    return s0[0].proper_frag && s1[0].proper_frag;
  };
  EXPECT_TRUE(run(1000, false, 1300, false, 500));   // first then second, forward
  EXPECT_FALSE(run(1300, false, 1000, false, 500));  // second before first
  EXPECT_TRUE(run(1300, true, 1000, true, 500));     // reverse: second then first
  EXPECT_FALSE(run(1000, false, 1300, true, 500));   // strands differ
  EXPECT_FALSE(run(1000, false, 1700, false, 500));  // 550 bases apart
  EXPECT_TRUE(run(1000, false, 1650, false, 500));   // 500
}

// A candidate pair needs a dp_max sum of at least the two best dp_max less pe_bonus.
TEST(PairSegments, PairsFarBelowTheBestAlignmentsAreNotTaken) {
  std::vector<Region> s0 = {aligned(0, 0, 1000, false, 280, 60), aligned(1, 0, 5000, false, 240, 0)};
  std::vector<Region> s1 = {aligned(0, 0, 9000, false, 280, 60), aligned(1, 0, 5200, false, 280, 0)};
  // 240 + 280 = 520 < 280 + 280 - 33 = 527
  pair_segments(500, kBonus, kSubDiff, kMatch, s0, s1);
  EXPECT_FALSE(s0[1].proper_frag || s1[1].proper_frag);
  EXPECT_EQ(s0[1].parent, 0);
  EXPECT_TRUE(s0[0].sam_pri);
}

// Two candidate pairs: the best (dp_max sum 560) wins; the pair MAPQ is
// min(max MAPQ of its regions, 6.02 * (560 - 540) / a - 4.343 ln(n_sub)) with n_sub = 1
// (only the best within sub_diff), i.e. min(30, 60) = 30; a region below it moves to
// .2 * its MAPQ + .8 * 30, rounded: 10 -> 26.
TEST(PairSegments, PairMapqFromTheBestAndSecondBestPairs) {
  std::vector<Region> s0 = {aligned(0, 0, 1000, false, 280, 10), aligned(1, 0, 20000, false, 270, 0)};
  std::vector<Region> s1 = {aligned(0, 0, 1200, false, 280, 30), aligned(1, 0, 20200, false, 270, 0)};
  pair_segments(500, kBonus, kSubDiff, kMatch, s0, s1);
  EXPECT_TRUE(s0[0].proper_frag && s1[0].proper_frag);
  EXPECT_EQ(s0[0].mapq, 26);
  EXPECT_EQ(s1[0].mapq, 30);
  EXPECT_EQ(s0[1].mapq, 0);
}

TEST(PairSegments, NothingWhenOneSegmentIsUnmapped) {
  std::vector<Region> s0 = {aligned(0, 0, 1000, false, 280, 10)}, s1;
  pair_segments(500, kBonus, kSubDiff, kMatch, s0, s1);
  EXPECT_FALSE(s0[0].proper_frag);
  EXPECT_EQ(s0[0].mapq, 10);
}

Region chained(int32_t id, int32_t parent, int32_t score, int32_t qs, int32_t qe, int32_t rs) {
  Region r;
  r.id = id, r.parent = parent, r.score = r.score0 = score;
  r.qs = qs, r.qe = qe, r.rs = rs, r.re = rs + (qe - qs);
  return r;
}

// Secondaries of a fragment of 100 + 100 bases with max_gap_ref 300, so "near" is within
// 500 bases (pri_ratio 0.8, pri1 0.2, pri2 0.7, min_diff 20).
TEST(SelectSubMulti, SecondariesKeptByPlaceAndSpan) {
  const std::vector<int> qlens = {100, 100};
  std::vector<Region> regs = {
      chained(0, 0, 100, 0, 200, 10000),    // primary spanning both segments
      chained(1, 0, 30, 0, 100, 10100),     // near its parent: 30 >= 0.2 * 100
      chained(2, 0, 60, 0, 100, 90000),     // far, one segment, parent spans both: 60 < 0.7 * 100
      chained(3, 0, 65, 0, 200, 50000),     // far, spans both: 65 < 0.8 * 100
      chained(4, 0, 71, 100, 200, 70000),   // far, one segment: 71 >= 0.7 * 100
      chained(5, 0, 15, 0, 100, 10000),     // near but 15 < 0.2 * 100
      chained(6, 0, 69, 100, 200, 120000),  // far, one segment: 69 < 0.7 * 100
      chained(7, 0, 81, 0, 200, 150000),    // far, spans both: 81 >= 0.8 * 100 (and 81 + 20 >= 100)
  };
  for (const bool decide_first : {false, true}) {
    std::vector<Region> r = regs;
    select_sub_multi(r, 0.8f, 0.2f, 0.7f, 300, 20, 5, qlens, decide_first);
    std::vector<int32_t> kept;
    for (const Region& x : r) kept.push_back(x.score);
    EXPECT_EQ(kept, (std::vector<int32_t>{100, 30, 71, 81}));
    for (size_t i = 0; i < r.size(); ++i) EXPECT_EQ(r[i].id, static_cast<int32_t>(i));
  }
}

// Primaries 0, 2 and 3; region 1 is dropped (40 < 0.7 * 100), so 2 and 3 move down a
// slot, and in 2.24 region 4's parent slot (2) holds region 3 (50), within min_diff of
// which it is kept. 2.31 reads its real parent (90, spanning both segments, far): region
// 4 spans one segment and 60 < 0.7 * 90 drops it.
TEST(SelectSubMulti, ParentSlotCompactedIn224ButNotIn231) {
  const std::vector<int> qlens = {100, 100};
  const std::vector<Region> regs = {chained(0, 0, 100, 0, 200, 10000), chained(1, 0, 40, 0, 100, 90000),
                                    chained(2, 2, 90, 0, 200, 30000), chained(3, 3, 50, 0, 200, 200000),
                                    chained(4, 2, 60, 100, 200, 70000)};
  std::vector<Region> old_rule = regs;
  select_sub_multi(old_rule, 0.8f, 0.2f, 0.7f, 300, 20, 5, qlens, /*decide_first=*/false);
  ASSERT_EQ(old_rule.size(), 4u);
  EXPECT_EQ(old_rule[3].score, 60);
  std::vector<Region> new_rule = regs;
  select_sub_multi(new_rule, 0.8f, 0.2f, 0.7f, 300, 20, 5, qlens, /*decide_first=*/true);
  ASSERT_EQ(new_rule.size(), 3u);
  EXPECT_EQ(new_rule[2].score, 50);
}

TEST(SelectSubMulti, AtMostBestNSecondaries) {
  const std::vector<int> qlens = {100, 100};
  std::vector<Region> regs = {chained(0, 0, 100, 0, 200, 0), chained(1, 0, 95, 0, 200, 5000),
                              chained(2, 0, 95, 0, 200, 9000), chained(3, 0, 95, 0, 200, 13000)};
  select_sub_multi(regs, 0.8f, 0.2f, 0.7f, 300, 30, 2, qlens, /*decide_first=*/true);
  EXPECT_EQ(regs.size(), 3u);
}

Anchor anchor(bool rev, int32_t rpos, int seg, int32_t qpos) {
  return Anchor{static_cast<uint64_t>(rev) << 63 | static_cast<uint32_t>(rpos),
                static_cast<uint64_t>(seg) << anchor_bit::kSegShift | uint64_t{15} << 32 | static_cast<uint32_t>(qpos)};
}

// A fragment chain of both segments becomes one chain of each, its anchors' positions
// made relative to their segment: forward, less the earlier segments' lengths; reverse
// (positions on the reverse-complemented fragment), less the later segments' lengths.
TEST(SplitFragment, ChainsOfEachSegmentWithPositionsOnTheSegment) {
  const std::vector<int> qlens = {100, 150};
  std::vector<Anchor> a = {anchor(false, 1000, 0, 20), anchor(false, 1040, 0, 60), anchor(false, 1400, 1, 130),
                           anchor(false, 1470, 1, 200),
                           // a reverse chain of the second segment only
                           anchor(true, 5000, 1, 40), anchor(true, 5050, 1, 90), anchor(true, 5090, 1, 130)};
  std::vector<Region> regs(2);
  regs[0].score = 80, regs[0].as = 0, regs[0].cnt = 4;
  regs[1].score = 45, regs[1].as = 4, regs[1].cnt = 3;
  const std::vector<SegmentChains> s = split_fragment(7, qlens, regs, a);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].chains.u, (std::vector<uint64_t>{uint64_t{80} << 32 | 2}));
  EXPECT_EQ(s[1].chains.u, (std::vector<uint64_t>{uint64_t{80} << 32 | 2, uint64_t{45} << 32 | 3}));
  std::vector<int32_t> q0, q1;
  for (const Anchor& x : s[0].chains.anchors) q0.push_back(anchor_qpos(x));
  for (const Anchor& x : s[1].chains.anchors) q1.push_back(anchor_qpos(x));
  EXPECT_EQ(q0, (std::vector<int32_t>{20, 60}));
  EXPECT_EQ(q1, (std::vector<int32_t>{30, 100, 40, 90, 130}));  // reverse: nothing after segment 1
  ASSERT_EQ(s[0].regions.size(), 1u);
  ASSERT_EQ(s[1].regions.size(), 2u);
  for (const auto& seg : s)
    for (const Region& r : seg.regions) EXPECT_TRUE(r.seg_split);
  EXPECT_EQ(s[1].regions[0].score, 80);
  EXPECT_EQ(s[1].regions[0].qs, 16);  // first anchor ends at 30 and spans 15: 30 + 1 - 15
}

}  // namespace
}  // namespace agatha::map
