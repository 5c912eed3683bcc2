// src/map/hit.hpp — minimap2 2.24's hit.c: a read's regions (mm_reg1_t), made from its
// chains and then selected, before base-level alignment (mm_gen_regs, mm_reg_set_coor,
// mm_set_parent, mm_select_sub, mm_sync_regs, mm_filter_strand_retained, mm_set_mapq)
// and after it (mm_filter_regs, mm_update_dp_max, mm_hit_sort, mm_set_sam_pri,
// mm_set_inv_mapq), and the split of a region whose alignment was Z-dropped
// (mm_split_reg). map.c's mm_map_frag decides the order of these steps; in agatha that
// is src/pipeline (read_mapper.cpp, read_aligner.cpp).
//
// All functions are pure apart from their arguments and thread-safe.
#pragma once

#include <agatha/options.hpp>

#include <cstdint>
#include <vector>

#include "anchor.hpp"
#include "chain.hpp"

namespace agatha::map {

inline constexpr int32_t kParentUnset = -1;
inline constexpr int32_t kParentTmpPri = -2;

// One candidate mapping of a read (minimap2's mm_reg1_t, without the CIGAR part).
struct Region {
  int32_t id = 0;
  int32_t cnt = 0;                // anchors
  int32_t rid = 0;                // reference id
  int32_t score = 0;              // chain score (may shrink when a chain is split)
  int32_t score0 = 0;             // the original chain score
  int32_t qs = 0, qe = 0;         // query interval, on the read's forward strand
  int32_t rs = 0, re = 0;         // reference interval
  int32_t parent = kParentUnset;  // == id for a primary
  int32_t subsc = 0;              // best score among the regions it masks
  int32_t as = 0;                 // offset of its first anchor in the chained anchors
  int32_t mlen = 0, blen = 0;     // matching / block length (fuzzy, from anchors, before alignment)
  int32_t n_sub = 0;              // sub-optimal regions counted against it
  int32_t mapq = 0;
  bool rev = false;
  bool inv = false;
  bool strand_retained = false;  // a secondary kept only because it lies on the other strand
  bool seg_split = false;        // a segment's part of a fragment chain (mm_seg_gen)
  bool proper_frag = false;      // one of the two regions mm_pair chose as the pair (FLAG 0x2)
  bool is_alt = false;           // on an ALT contig (--alt; mm_mark_alt)
  uint32_t hash = 0;             // tie-breaking hash of the region
  float div = -1.0f;             // estimated divergence, -1 when unknown
  // Filled by base alignment (minimap2's mm_extra_t); the chain-only paths leave it off.
  // When aligned, mlen/blen above are the alignment's (mm_update_extra overwrites them).
  bool aligned = false;
  bool sam_pri = false;  // the SAM primary of the read (mm_set_sam_pri)
  uint8_t split = 0;     // zd:i: 1 = first part of a split region, 2 = second part
  int32_t dp_max = 0, dp_max2 = 0;
  // dp_max as the alignment left it (mm_update_extra), before mm_update_dp_max or 2.31's
  // splice-strand adjustment change dp_max: minimap2 2.31's dp_max0, which ms:i prints
  // (ReleaseRules::ms_before_dp_max_update).
  int32_t dp_max0 = 0;
  int32_t dp_score = 0;           // AS:i
  int32_t n_ambi = 0;             // nn:i
  int32_t n_gap = 0, n_gapo = 0;  // indel bases and indel operations of the CIGAR
  // Spliced alignment: the transcript strand relative to the read (ts:A) — 1 '+', 2 '-',
  // 3 both strands scored the same (no tag), 0 not spliced.
  uint8_t trans_strand = 0;
  std::vector<uint32_t> cigar;  // BAM encoding, on the alignment strand, no clips
};

// Regions from chains (mm_gen_regs): ordered by score, then by hash, both descending.
// `chains.anchors` must stay alive and unchanged: regions refer to it by offset.
// qstrand (--qstrand): the anchors are in query-strand coordinates (make_anchors), and so
// are the regions' query coordinates, also on the reverse strand.
[[nodiscard]] std::vector<Region> gen_regions(uint32_t read_hash, int qlen, const Chains& chains, bool qstrand = false);

// Coordinates and fuzzy lengths of a region from its anchors (mm_reg_set_coor); qstrand
// as gen_regions. With qstrand a reverse-strand region's rs/re are on the reference's
// reverse strand (position p there is len - 1 - p on the forward strand).
void set_region_coords(Region& r, int qlen, const Anchor* a, bool qstrand = false);

// Primary/secondary assignment by query overlap (mm_set_parent). sub_diff = 2a + b.
// alt_drop (--alt-drop): a secondary on an ALT contig counts against a primary that is
// not with its score scaled by 1 - alt_drop (mm_alt_score).
void set_parent(std::vector<Region>& regs, float mask_level, int mask_len, int sub_diff, bool hard_mask_level,
                float alt_drop = 0.0f);

// mm_alt_score: an ALT contig's score scaled by 1 - alt_drop, rounded, at least 1 (a
// negative score stays as it is).
[[nodiscard]] int alt_score(int score, float alt_drop);

// mm_mark_alt, and the re-sort minimap2 runs after it when the reference has ALT
// contigs (alt_refs[rid] != 0; empty: none): regions on them get is_alt and are ordered
// by hit_sort with their scores scaled by alt_score.
void mark_alt(std::vector<Region>& regs, const std::vector<uint8_t>& alt_refs, float alt_drop);

// Renumbers ids and parents after regions were removed (mm_sync_regs).
void sync_regions(std::vector<Region>& regs);

// Drops weak secondaries (mm_select_sub). decide_first (ReleaseRules::select_sub_decide_first,
// 2.31): every region's fate is decided from the untouched array, then it is compacted.
// Otherwise 2.24's in-place bug: a region's parent is looked up by its old index in the
// partly compacted array.
void select_sub(std::vector<Region>& regs, float pri_ratio, int min_diff, int best_n, bool check_strand,
                int min_strand_sc, bool decide_first);

// Drops strand-retained secondaries whose divergence is not close to their parent's
// (mm_filter_strand_retained; no renumbering afterwards). decide_first as for select_sub.
void filter_strand_retained(std::vector<Region>& regs, bool decide_first);

// Whether an aligned region's CIGAR has an intron (mm_update_extra's is_spliced).
[[nodiscard]] bool is_spliced(const Region& r);

// Mapping quality of every region (mm_set_mapq; 2.31's mm_set_mapq2). match_sc = a.
// short_read: no BWA-like cap (is_sr). sr_splice (2.31, short reads with splicing): a
// primary with dp_max2 takes x = dp_max2 / dp_max rather than weighing in the chain
// scores, and gains 10 when it is spliced and no secondary is.
void set_mapq(std::vector<Region>& regs, int min_chain_score, int match_sc, int rep_len, bool short_read,
              bool sr_splice = false);

// The parameters of mm_set_parent, mm_select_sub and mm_set_mapq that come from the
// options (region_params derives them; the options hold every default).
struct RegionParams {
  float mask_level = 0;
  int mask_len = 0;
  float pri_ratio = 0;
  int best_n = 0;
  int min_strand_sc = 0;  // mm_select_sub's strand rescue: max_gap * 0.8
  int sub_diff = 0;       // mm_set_parent's dp_max2 rule: 2a + b
  int match_sc = 0;       // a, for MAPQ
  int min_chain_score = 0;
  int seed = 0;
  bool hash_name = false;
  bool all_chains = false;       // -P / -X: keep every chain
  bool hard_mask_level = false;  // --hard-mask-level: mm_set_parent without its unmapped-bases rule
  // sr: no divergence estimate (mm_est_err) and no strand-retained filter before
  // alignment.
  bool short_read = false;
  // MAPQ without the BWA-like cap (mm_set_mapq's is_sr: sr, or --sr=rna in 2.31), and
  // 2.31's rule for short spliced reads (ReleaseRules::mapq_sr_splice; set_mapq).
  bool mapq_short_read = false;
  bool mapq_sr_splice = false;
  // --qstrand: regions on the query's strand (gen_regions); like sr, no divergence
  // estimate and no strand-retained filter.
  bool qstrand = false;
  float alt_drop = 0.0f;          // --alt-drop
  // ReleaseRules::select_sub_decide_first: select_sub, select_sub_multi and
  // filter_strand_retained decide every region before compacting (2.31).
  bool select_sub_decide_first = false;
  std::vector<uint8_t> alt_refs;  // --alt: 1 for each ALT contig of the index part; empty: none
};
[[nodiscard]] RegionParams region_params(const AlignOptions& opt);

// ---- after base-level alignment (align.c: mm_align_skeleton's tail; map.c: align_regs) ----

// mm_filter_regs: drops regions with too few anchors (inversions excepted) and aligned
// regions with mlen < min_chain_score, dp_max < min_dp_max, or both ends clipped by more
// than qlen * max_clip_ratio. Ids and parents are left as they are.
void filter_regions(const AlignOptions& opt, int qlen, std::vector<Region>& regs);

// mm_update_dp_max: when the two best alignments score within `frac` of each other and
// the best spans >= frac of the read, rescores every alignment with a mismatch penalty
// derived from the best one's identity (the value 2.24 prints as ms:i).
void update_dp_max(int qlen, std::vector<Region>& regs, float frac, int a, int b);

// mm_hit_sort: drops regions without anchors (inversions excepted) and orders the rest
// by dp_max (chain score when unaligned), then hash, both descending, with minimap2's
// radix sort (equal keys keep the order that sort gives them).
// Regions on ALT contigs are ordered by alt_score(score, alt_drop).
void hit_sort(std::vector<Region>& regs, float alt_drop = 0.0f);

// mm_set_sam_pri: the first region with id == parent becomes the SAM primary.
void set_sam_pri(std::vector<Region>& regs);

// mm_set_inv_mapq: an inversion between two primary-chain regions gets the smaller
// MAPQ of its neighbours on the reference.
void set_inversion_mapq(std::vector<Region>& regs);

// mm_split_reg: splits r after its first n anchors (0 < n < r.cnt): r keeps them and the
// score in proportion, the returned region takes the rest (id -1; a temporary primary
// when r was a primary). `a` holds the anchors both refer to.
[[nodiscard]] Region split_region(Region& r, int32_t n, int qlen, const Anchor* a, bool qstrand = false);

}  // namespace agatha::map
