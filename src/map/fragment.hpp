// src/map/fragment.hpp — the steps minimap2 2.24 adds for a read of several segments
// (a fragment: the two reads of a pair): the choice of secondaries over the whole
// fragment (pe.c: mm_select_sub_multi), the split of fragment chains into per-segment
// chains (hit.c: mm_seg_gen) and the pairing of the two segments' alignments (pe.c:
// mm_pair). map.c's mm_map_frag decides their order (src/pipeline/read_mapper.cpp,
// read_aligner.cpp).
//
// All functions are pure apart from their arguments and thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "anchor.hpp"
#include "chain.hpp"
#include "hit.hpp"

namespace agatha::map {

// mm_select_sub_multi: drops secondaries of a fragment's regions. A secondary is kept
// when within min_diff of its parent's score; else, when it lies on its parent's
// reference and strand within qlen0 + qlen1 + max_gap_ref (two segments), when it
// scores at least pri1 of its parent; else when it scores at least pri_ratio of it, or
// only pri2 when the parent spans both segments and it does not. At most best_n
// secondaries. decide_first (ReleaseRules::select_sub_decide_first, 2.31) decides every
// region from the untouched array before compacting; otherwise 2.24's in-place parent
// lookup, as select_sub does.
void select_sub_multi(std::vector<Region>& regs, float pri_ratio, float pri1, float pri2, int max_gap_ref,
                      int min_diff, int best_n, std::span<const int> qlens, bool decide_first);

// One segment's chains and the regions made from them.
struct SegmentChains {
  Chains chains;  // the anchors with positions on the segment
  std::vector<Region> regions;
};

// mm_seg_gen: each fragment region's anchors of segment s, positions made relative to
// the segment, become a chain of segment s with the region's score (in the order of
// `regs`; regions without anchors there are skipped), and regions are made from them
// (gen_regions with `hash` and the segment's length; seg_split set).
[[nodiscard]] std::vector<SegmentChains> split_fragment(uint32_t hash, std::span<const int> qlens,
                                                        const std::vector<Region>& regs,
                                                        const std::vector<Anchor>& anchors);

// mm_pair for the aligned regions of the two segments: among pairs of regions of both
// segments on one reference and strand, the first segment's (forward) or the second's
// (reverse) before the other's within max_gap_ref, whose dp_max sum is at least the sum
// of the segments' best dp_max less pe_bonus, the best (dp_max sum, then the sum of the
// hashes) becomes the proper pair: its regions are made primary and SAM primary, and
// their MAPQ raised towards the pair's. sub_diff = 2a + b, match_sc = a. (2.24 also sets
// pe_thru, which no output shows; it is not kept.)
void pair_segments(int max_gap_ref, int pe_bonus, int sub_diff, int match_sc, std::vector<Region>& regs0,
                   std::vector<Region>& regs1);

}  // namespace agatha::map
