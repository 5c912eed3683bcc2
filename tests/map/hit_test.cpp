// Hand-checked region selection cases (src/map/hit.cpp): the 2.24 in-place parent lookup
// of mm_select_sub and 2.31's decide-first one (not reached by the golden reads), and strand-retained secondaries.
// tests/map/chain_test.cpp checks region selection against minimap2 on whole reads.
#include "../../src/map/hit.hpp"

#include <gtest/gtest.h>

#include <agatha/cigar.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

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
  select_sub(regs, 0.8f, 38, 5, false, 4000, /*decide_first=*/false);
  ASSERT_EQ(regs.size(), 4u);
  EXPECT_EQ(regs[3].score, 80);
  EXPECT_EQ(regs[3].id, 3);
  EXPECT_EQ(regs[3].parent, 1);
  EXPECT_EQ(regs[1].parent, 1);
  EXPECT_EQ(regs[2].parent, 2);
}

// The same regions under 2.31's mm_select_sub, which decides every region against the
// untouched array first: region 4 meets its real parent (500) and goes.
TEST(SelectSub, DecideFirstReadsTheRealParent) {
  std::vector<Region> regs = {make(0, 0, 1000, 0), make(1, 0, 100, 10), make(2, 2, 500, 200), make(3, 3, 90, 400),
                              make(4, 2, 80, 210)};
  select_sub(regs, 0.8f, 38, 5, false, 4000, /*decide_first=*/true);
  ASSERT_EQ(regs.size(), 3u);
  EXPECT_EQ(regs[0].score, 1000);
  EXPECT_EQ(regs[1].score, 500);
  EXPECT_EQ(regs[2].score, 90);
  for (size_t i = 0; i < regs.size(); ++i) EXPECT_EQ(regs[i].parent, static_cast<int32_t>(i));
}

// mm_filter_strand_retained: region 1 is dropped (divergence 10 x its parent's) and
// primaries 2 and 3 move down a slot, so in 2.24 region 4's parent slot (2) holds region 3
// (div 0.05), and 0.05 < 5 x 0.05 keeps it; 2.31 compares with its real parent (div 0.002)
// and drops it.
TEST(FilterStrandRetained, ParentSlotCompactedIn224ButNotIn231) {
  auto regions = [] {
    std::vector<Region> regs = {make(0, 0, 1000, 0), make(1, 0, 900, 10), make(2, 2, 800, 200), make(3, 3, 750, 400),
                                make(4, 2, 700, 210)};
    regs[0].div = 0.002f, regs[1].div = 0.02f, regs[2].div = 0.002f, regs[3].div = 0.05f, regs[4].div = 0.05f;
    regs[1].strand_retained = regs[4].strand_retained = true;
    return regs;
  };
  std::vector<Region> old_rule = regions();
  filter_strand_retained(old_rule, /*decide_first=*/false);
  ASSERT_EQ(old_rule.size(), 4u);
  EXPECT_EQ(old_rule[3].score, 700);
  std::vector<Region> new_rule = regions();
  filter_strand_retained(new_rule, /*decide_first=*/true);
  ASSERT_EQ(new_rule.size(), 3u);
  EXPECT_EQ(new_rule[0].score, 1000);
  EXPECT_EQ(new_rule[1].score, 800);
  EXPECT_EQ(new_rule[2].score, 750);
}

TEST(SelectSub, OppositeStrandSecondaryIsRetainedAboveMinStrandScore) {
  for (const bool decide_first : {false, true}) {
    std::vector<Region> regs = {make(0, 0, 10000, 0), make(1, 0, 5000, 10)};
    regs[1].rev = true;
    select_sub(regs, 0.8f, 38, 5, true, 4000, decide_first);
    ASSERT_EQ(regs.size(), 2u);
    EXPECT_TRUE(regs[1].strand_retained);
    regs[0].div = 0.001f, regs[1].div = 0.004f;  // < 5 x the parent's: kept
    filter_strand_retained(regs, decide_first);
    EXPECT_EQ(regs.size(), 2u);
    regs[1].div = 0.02f;
    filter_strand_retained(regs, decide_first);
    EXPECT_EQ(regs.size(), 1u);
  }
}

// mm_alt_score: scaled by 1 - alt_drop and rounded, never below 1; negative scores kept.
TEST(Alt, ScoreIsScaledAndAtLeastOne) {
  EXPECT_EQ(alt_score(100, 0.15f), 85);
  EXPECT_EQ(alt_score(3, 0.15f), 3);  // 2.55 + .499
  EXPECT_EQ(alt_score(1, 0.99f), 1);
  EXPECT_EQ(alt_score(0, 0.15f), 1);
  EXPECT_EQ(alt_score(-5, 0.15f), -5);
}

// A region on an ALT contig ranks below a slightly weaker one elsewhere (the re-sort of
// mm_mark_alt), and counts against a primary with its scaled score (mm_set_parent).
TEST(Alt, MarkReordersAndSetParentScalesTheSecondaryScore) {
  std::vector<Region> regs = {make(0, -1, 100, 0), make(1, -1, 90, 0)};
  regs[0].rid = 1, regs[1].rid = 0;
  regs[0].cnt = regs[1].cnt = 5;  // hit_sort drops regions without anchors
  mark_alt(regs, {0, 1}, 0.15f);  // rid 1 is ALT: 100 -> 85 < 90
  ASSERT_EQ(regs.size(), 2u);
  EXPECT_EQ(regs[0].score, 90);
  EXPECT_FALSE(regs[0].is_alt);
  EXPECT_TRUE(regs[1].is_alt);
  set_parent(regs, 0.5f, 1 << 30, 10, false, 0.15f);
  EXPECT_EQ(regs[1].parent, 0);
  EXPECT_EQ(regs[0].subsc, 85) << "the ALT secondary's score, scaled";
  std::vector<Region> none = {make(0, -1, 100, 0)};
  mark_alt(none, {}, 0.15f);
  EXPECT_FALSE(none[0].is_alt) << "no ALT contigs: nothing marked";
}


// ---- mm_set_mapq2 (minimap2 2.31): short spliced reads ----

namespace mapq2 {

// An aligned primary (dp_max 140 of a second-best 100) and a secondary of it; CIGARs
// with or without an intron.
std::vector<Region> pair_of_regions(bool primary_spliced, bool secondary_spliced) {
  std::vector<Region> regs = {make(0, 0, 120, 0), make(1, 0, 90, 0)};
  for (Region& r : regs) {
    r.aligned = true;
    r.cnt = 2;  // few anchors: MAPQ scaled by 0.2, well below the cap of 60
    r.mlen = 95, r.blen = 100;
    r.dp_max = r.id == 0 ? 140 : 100;
    r.cigar = {cigar::make(100, cigar::kMatch)};
  }
  regs[0].dp_max2 = 100;
  regs[0].subsc = 90;
  regs[0].score0 = 150;  // the chain lost part of its score
  auto splice = [](Region& r) {
    r.cigar = {cigar::make(60, cigar::kMatch), cigar::make(500, cigar::kNSkip), cigar::make(40, cigar::kMatch)};
  };
  if (primary_spliced) splice(regs[0]);
  if (secondary_spliced) splice(regs[1]);
  return regs;
}

// minimap2's formula for the primary above, with x as given.
int expected_mapq(float x) {
  const Region r = pair_of_regions(false, false)[0];
  const float uniq = 120.0f / (120.0f + 0.0f);  // the primaries' chain scores, rep_len 0
  const float pen_s1 = (r.score > 100 ? 1.0f : 0.01f * r.score) * uniq;
  const float pen_cm = std::min(pen_s1, r.cnt > 10 ? 1.0f : 0.1f * r.cnt);
  const float identity = 95.0f / 100.0f;
  return static_cast<int>(identity * pen_cm * 40.0f * (1.0f - x * x) * std::log(140.0f / 1.0f));
}

}  // namespace mapq2

TEST(SetMapq2, ShortSplicedReadsIgnoreChainScores) {
  using namespace mapq2;
  std::vector<Region> regs = pair_of_regions(false, false);
  set_mapq(regs, 25, 1, 0, true, true);
  EXPECT_EQ(regs[0].mapq, expected_mapq(100.0f / 140.0f));
  EXPECT_EQ(regs[1].mapq, 0);
  // Without the rule (2.24, or not spliced short reads) the chain scores weigh in.
  regs = pair_of_regions(false, false);
  set_mapq(regs, 25, 1, 0, true, false);
  EXPECT_EQ(regs[0].mapq, expected_mapq(100.0f * 90 / 140.0f / 150));
  EXPECT_NE(expected_mapq(100.0f / 140.0f), expected_mapq(100.0f * 90 / 140.0f / 150));
}

TEST(SetMapq2, SplicedPrimaryGainsTenUnlessASecondaryIsSpliced) {
  using namespace mapq2;
  const int base = expected_mapq(100.0f / 140.0f);
  ASSERT_LT(base + 10, 60);
  std::vector<Region> regs = pair_of_regions(true, false);
  ASSERT_TRUE(is_spliced(regs[0]));
  set_mapq(regs, 25, 1, 0, true, true);
  EXPECT_EQ(regs[0].mapq, base + 10);
  regs = pair_of_regions(true, true);  // a spliced secondary: no bonus
  set_mapq(regs, 25, 1, 0, true, true);
  EXPECT_EQ(regs[0].mapq, base);
  regs = pair_of_regions(false, true);  // the primary itself unspliced
  set_mapq(regs, 25, 1, 0, true, true);
  EXPECT_EQ(regs[0].mapq, base);
  regs = pair_of_regions(true, false);  // not the rule: no bonus
  set_mapq(regs, 25, 1, 0, true, false);
  EXPECT_EQ(regs[0].mapq, expected_mapq(100.0f * 90 / 140.0f / 150));
}

TEST(SetMapq2, IsSplicedNeedsAnAlignmentWithAnIntron) {
  std::vector<Region> regs = mapq2::pair_of_regions(true, false);
  EXPECT_TRUE(is_spliced(regs[0]));
  EXPECT_FALSE(is_spliced(regs[1]));
  regs[0].aligned = false;
  EXPECT_FALSE(is_spliced(regs[0]));
}

TEST(SetMapq2, RegionParamsFollowTheRelease) {
  AlignOptions o;
  o.release = Release::k2_31;
  o.sr_rna = o.splice = true;
  RegionParams p = region_params(o);
  EXPECT_FALSE(p.short_read);  // mapping keeps the long-read steps
  EXPECT_TRUE(p.mapq_short_read);
  EXPECT_TRUE(p.mapq_sr_splice);
  o.sr_rna = false, o.sr = true;
  EXPECT_TRUE(region_params(o).mapq_sr_splice);
  o.release = Release::k2_24;
  p = region_params(o);
  EXPECT_TRUE(p.mapq_short_read);
  EXPECT_FALSE(p.mapq_sr_splice);
  o.release = Release::k2_31, o.splice = false;
  EXPECT_FALSE(region_params(o).mapq_sr_splice);
}

}  // namespace
}  // namespace agatha::map
