// One read to PAF lines (src/pipeline/read_mapper.cpp), hand-checked: the PAF line of an
// exact, divergence-0 hit. tests/pipeline/map_only_test.cpp compares whole runs with
// minimap2's PAF; tests/map/chain_test.cpp the PAF lines of minimap2's own chains.
#include "../../src/pipeline/read_mapper.hpp"

#include <gtest/gtest.h>

#include "../../src/map/hit.hpp"

namespace agatha::pipeline {
namespace {

using map::Region;

// `minimap2 -x map-pb` on a read equal to its 3 kb reference prints divergence 0 as "0".
TEST(PafLine, UnalignedRegionWithZeroDivergence) {
  Region r;
  r.id = r.parent = 0;
  r.qs = 4, r.qe = 3000, r.rs = 4, r.re = 3000, r.mlen = r.blen = 2996;
  r.mapq = 60, r.cnt = 381, r.score = 2996, r.subsc = 0, r.div = 0.0f;
  EXPECT_EQ(
      paf_line("q", 3000, "z", 3000, r, 0),
      "q\t3000\t4\t3000\t+\tz\t3000\t4\t3000\t2996\t2996\t60\ttp:A:P\tcm:i:381\ts1:i:2996\ts2:i:0\tdv:f:0\trl:i:0\n");
}

// ms:i: dp_max before mm_update_dp_max (dp_max0) in 2.31, dp_max after it in 2.24.
TEST(RegionTags, MsIsDpMax0Or224sDpMax) {
  Region r;
  r.id = r.parent = 0, r.aligned = true;
  r.dp_max = 480, r.dp_max0 = 500, r.dp_score = 490;
  EXPECT_EQ(region_tags(r, rules_of(Release::k2_31).ms_before_dp_max_update).ms, 500);
  EXPECT_EQ(region_tags(r, rules_of(Release::k2_24).ms_before_dp_max_update).ms, 480);
}

// 2.31's mm_write_paf4 names a fragment's segments "/1", "/2" (after any suffix the read
// name has); 2.24 and single reads (seg -1) keep the name.
TEST(PafLine, SegmentSuffixIn231) {
  EXPECT_EQ(paf_query_name("r", 0, rules_of(Release::k2_31)), "r/1");
  EXPECT_EQ(paf_query_name("r/2", 1, rules_of(Release::k2_31)), "r/2/2");
  EXPECT_EQ(paf_query_name("r", -1, rules_of(Release::k2_31)), "r");
  EXPECT_EQ(paf_query_name("r", 1, rules_of(Release::k2_24)), "r");
}

}  // namespace
}  // namespace agatha::pipeline
