// src/align/post_align.hpp — what minimap2 2.24 does to a read's regions once they are
// base-aligned (spec 8; align.c: align_regs' tail; hit.c: mm_filter_regs,
// mm_update_dp_max, mm_hit_sort, mm_set_sam_pri; map.c: mm_set_inv_mapq), and the whole
// sequence of it as mm_map_frag runs it for a single-segment read.
//
// All functions are pure apart from their arguments and thread-safe.
#pragma once

#include <agatha/options.hpp>

#include <vector>

#include "../map/regions.hpp"

namespace agatha::align {

// mm_filter_regs: drops regions with too few anchors (inversions excepted) and aligned
// regions with mlen < min_chain_score, dp_max < min_dp_max, or both ends clipped by more
// than qlen * max_clip_ratio. Ids and parents are left as they are.
void filter_regions(const AlignOptions& opt, int qlen, std::vector<map::Region>& regs);

// mm_update_dp_max: when the two best alignments score within `frac` of each other and
// the best spans >= frac of the read, rescores every alignment with a mismatch penalty
// derived from the best one's identity (the value 2.24 prints as ms:i).
void update_dp_max(int qlen, std::vector<map::Region>& regs, float frac, int a, int b);

// mm_hit_sort: drops regions without anchors (inversions excepted) and orders the rest
// by dp_max (chain score when unaligned), then hash, both descending, with minimap2's
// radix sort (equal keys keep the order that sort gives them).
void hit_sort(std::vector<map::Region>& regs);

// mm_set_sam_pri: the first region with id == parent becomes the SAM primary.
void set_sam_pri(std::vector<map::Region>& regs);

// mm_set_inv_mapq: an inversion between two primary-chain regions gets the smaller
// MAPQ of its neighbours on the reference.
void set_inversion_mapq(std::vector<map::Region>& regs);

// Everything from the aligned regions to the final ones: filter, dp_max update and
// filter (reads of >= rank_min_len bases), sort, parent/secondary selection again
// (unless all_chains), SAM primary, MAPQ. k = the index's k-mer size (select_sub's
// min_diff is 2k).
void finish_aligned_regions(const AlignOptions& opt, int qlen, int k, int rep_len, std::vector<map::Region>& regs);

}  // namespace agatha::align
