// src/map/regions.hpp — chains to mapping regions and the selection that follows,
// exactly as minimap2 2.24 (hit.c: mm_gen_regs, mm_reg_set_coor, mm_set_parent,
// mm_select_sub, mm_sync_regs, mm_filter_strand_retained, mm_set_mapq; esterr.c:
// mm_est_err; map.c: the per-read hash) — and the PAF line of a region that was not
// base-aligned (format.c: mm_write_paf3 without -c).
#pragma once

#include <climits>
#include <cstdint>
#include <string>
#include <string_view>
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
  uint32_t hash = 0;             // tie-breaking hash of the region
  float div = -1.0f;             // estimated divergence, -1 when unknown
  // Filled by base alignment (minimap2's mm_extra_t); the chain-only paths leave it off.
  // When aligned, mlen/blen above are the alignment's (mm_update_extra overwrites them).
  bool aligned = false;
  bool sam_pri = false;   // the SAM primary of the read (mm_set_sam_pri)
  uint8_t split = 0;      // zd:i: 1 = first part of a split region, 2 = second part
  int32_t dp_max = 0, dp_max2 = 0;
  int32_t dp_score = 0;   // AS:i
  int32_t n_ambi = 0;     // nn:i
  int32_t n_gap = 0, n_gapo = 0;  // indel bases and indel operations of the CIGAR
  std::vector<uint32_t> cigar;    // BAM encoding, on the alignment strand, no clips
};

// The per-read hash that breaks ties between equal-score chains (mm_map_frag): X31 of the
// name (0 when hash_name is false), mixed with the read length and the seed.
uint32_t read_hash(std::string_view qname, int qlen, int seed = 11, bool hash_name = true);

// Regions from chains (mm_gen_regs): ordered by score, then by hash, both descending.
// `chains.anchors` must stay alive and unchanged: regions refer to it by offset.
std::vector<Region> gen_regions(uint32_t read_hash, int qlen, const Chains& chains);

// Coordinates and fuzzy lengths of a region from its anchors (mm_reg_set_coor).
void set_region_coords(Region& r, int qlen, const Anchor* a);

// Primary/secondary assignment by query overlap (mm_set_parent). sub_diff = 2a + b.
void set_parent(std::vector<Region>& regs, float mask_level, int mask_len, int sub_diff, bool hard_mask_level);

// Renumbers ids and parents after regions were removed (mm_sync_regs).
void sync_regions(std::vector<Region>& regs);

// Drops weak secondaries (mm_select_sub), reproducing 2.24's in-place bug: a region's
// parent is looked up by its old index in the partly compacted array.
void select_sub(std::vector<Region>& regs, float pri_ratio, int min_diff, int best_n, bool check_strand,
                int min_strand_sc);

// Sequence divergence of each region from its anchors (mm_est_err). `mini_pos` holds
// span << 32 | forward query position of every kept seed, increasing; ref_len(rid) the
// reference lengths.
void estimate_divergence(std::vector<Region>& regs, int qlen, const Anchor* a, const std::vector<uint64_t>& mini_pos,
                         const std::vector<int32_t>& ref_lens);

// Drops strand-retained secondaries whose divergence is not close to their parent's
// (mm_filter_strand_retained; same in-place parent lookup, no renumbering afterwards).
void filter_strand_retained(std::vector<Region>& regs);

// Mapping quality of every region (mm_set_mapq). match_sc = a.
void set_mapq(std::vector<Region>& regs, int min_chain_score, int match_sc, int rep_len, bool short_read);

// Every step from chains to the regions printed without base alignment, as mm_map_frag
// runs them for a single-segment read without -c.
struct RegionParams {
  float mask_level = 0.5f;
  int mask_len = INT32_MAX;
  bool hard_mask_level = false;
  float pri_ratio = 0.8f;
  int best_n = 5;
  int max_gap = 5000;  // min_strand_sc = max_gap * 0.8
  int a = 2, b = 4;    // match score and mismatch penalty
  int min_chain_score = 40;
  int seed = 11;
  bool hash_name = true;
  bool all_chains = false;  // -P / -X: keep every chain
};
std::vector<Region> regions_unaligned(std::string_view qname, int qlen, int k, int rep_len, const Chains& chains,
                                      const std::vector<uint64_t>& mini_pos, const std::vector<int32_t>& ref_lens,
                                      const RegionParams& p);

// One PAF line (with '\n') for a region that was not base-aligned: 12 columns and
// tp:A cm:i s1:i [s2:i] [dv:f] rl:i.
std::string paf_line(std::string_view qname, int qlen, std::string_view rname, int32_t rlen, const Region& r,
                     int rep_len);

}  // namespace agatha::map
