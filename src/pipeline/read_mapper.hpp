// src/pipeline/read_mapper.hpp — mapping one read without base-level alignment, as
// minimap2 2.24's mm_map_frag does it for a single-segment read (map.c):
// sketch -> seeds -> anchors -> chains (+ long join, or with sr the re-chaining with
// max_occ) -> regions (mm_gen_regs with the per-read hash, mm_set_parent, mm_select_sub,
// mm_est_err and mm_filter_strand_retained unless sr, mm_set_mapq) -> PAF lines
// (minimap2 without -a/-c).
//
// Threading: a ReadMapper is immutable once built; map and map_paf may run on any number
// of threads at once. It refers to the index, which must outlive it.
#pragma once

#include <agatha/options.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../format/tags.hpp"
#include "../index/index.hpp"
#include "../index/junctions.hpp"
#include "../io/seq_reader.hpp"
#include "../map/chain.hpp"
#include "../map/hit.hpp"

namespace agatha::pipeline {

// The regions of one read and what PAF output needs besides them.
struct ReadMapping {
  std::vector<map::Region> regions;  // in output order
  int32_t rep_len = 0;               // as printed (rl:i)
  // The rep_len of the segment's own mapping where MAPQ takes another than the printed
  // one (weak pairing: each segment is mapped alone, and every segment prints the last
  // one's); -1: rep_len.
  int32_t own_rep_len = -1;
  [[nodiscard]] int32_t mapq_rep_len() const { return own_rep_len >= 0 ? own_rep_len : rep_len; }
  map::Chains chains;    // the anchors the regions refer to
  int32_t frag_gap = 0;  // the chaining's reference gap limit (map::gap_limits; mm_pair's max gap)
};

// The mappings of a fragment's segments (minimap2's mm_map_frag with n_segs > 1, or
// once per segment with --no-pairing, or with 2.31's weak pairing of two segments and
// base alignment), each on the segment as it was mapped (see fragment_orientation) with
// anchors relative to it, and the reference gap limit that pairing uses.
struct FragmentMapping {
  std::vector<ReadMapping> segs;
  int frag_gap = 0;
};

// Whether segment `seg` of a fragment of n_segs is mapped reverse-complemented: with two
// segments, the first when bit 1 of pe_ori is set, the second when bit 0 is (sr: FR,
// the second). Its regions are turned back to the read's strand for output (worker_for).
[[nodiscard]] inline bool segment_flipped(int pe_ori, size_t n_segs, size_t seg) {
  return n_segs == 2 && ((seg == 0 && (pe_ori >> 1 & 1)) || (seg == 1 && (pe_ori & 1)));
}
// A region of a flipped segment of qlen bases, on the read's own strand (its transcript
// strand, ts:A, swapped as well).
void flip_region(map::Region& r, int qlen);

class ReadMapper {
 public:
  // Resolves everything that depends on the index (mid_occ, reference lengths) once.
  // opt must be validated.
  ReadMapper(const index::MinimizerIndex& idx, const AlignOptions& opt);

  // `threads`: how many threads the read's chaining may use (map::ChainParams::threads);
  // the mapping does not depend on it.
  [[nodiscard]] ReadMapping map(std::string_view name, std::string_view seq, int threads = 1) const;
  // A fragment of several segments (seqs as mapped: already reverse-complemented where
  // segment_flipped says so), named after its first segment. for_alignment: the
  // regions are left for align_skeleton (each segment's after mm_set_parent); otherwise
  // they are final, with MAPQ. With --no-pairing each segment is mapped as a read of its
  // own, under its own name (names[i]). With weak pairing (2.31's mm_map_frag: two
  // segments, pe_ori >= 0, for alignment) each is mapped as a read of its own under the
  // fragment's name, the pair's gap limit is -G (max_gap_ref) and every segment prints
  // the last segment's rep_len (weak_pairing()).
  [[nodiscard]] FragmentMapping map_fragment(std::span<const std::string_view> names,
                                             std::span<const std::string_view> seqs, bool for_alignment,
                                             int threads = 1) const;
  // The PAF lines of the read (minimap2 without -a/-c); empty when it has no hit.
  [[nodiscard]] std::string map_paf(std::string_view name, std::string_view seq) const;
  // A fragment's segments as input (reads) mapped without alignment, the final regions
  // (MAPQ included) on each read's own strand (worker_for's flip of pe_ori undone).
  [[nodiscard]] FragmentMapping map_fragment_as_read(std::span<const io::SeqRecord> reads) const;
  // The PAF lines of a fragment's segments, each under its own name (reads: the
  // segments as input).
  [[nodiscard]] std::string map_paf_fragment(std::span<const io::SeqRecord> reads) const;

  // Whether a fragment of n_segs segments is mapped with weak pairing (see map_fragment).
  [[nodiscard]] bool weak_pairing(size_t n_segs, bool for_alignment) const {
    return opt_.weak_pairing && n_segs == 2 && opt_.pe_ori >= 0 && for_alignment;
  }

  int32_t mid_occ() const { return mid_occ_; }
  const index::MinimizerIndex& index() const { return idx_; }
  const map::RegionParams& region_params() const { return region_; }
  // The --junc-bed introns of this index part (empty without the option).
  const index::Junctions& junctions() const { return junctions_; }

 private:
  const index::MinimizerIndex& idx_;
  AlignOptions opt_;
  int32_t mid_occ_ = 0;
  map::ChainParams chain_;
  map::RegionParams region_;
  std::vector<int32_t> ref_lens_;
  index::Junctions junctions_;
};

// The hash that breaks ties between a read's equal-score chains (mm_map_frag): X31 of the
// name (0 when hash_name is false), mixed with the read length and the seed.
[[nodiscard]] uint32_t read_hash(std::string_view qname, int qlen, int seed, bool hash_name);

// mm_map_frag's steps from chains to the regions printed without base alignment, for a
// single-segment read. k = the index's k-mer size (mm_select_sub's min_diff is 2k);
// mini_pos and ref_lens as map::estimate_divergence takes them.
[[nodiscard]] std::vector<map::Region> regions_unaligned(std::string_view qname, int qlen, int k, int rep_len,
                                                         const map::Chains& chains,
                                                         const std::vector<uint64_t>& mini_pos,
                                                         const std::vector<int32_t>& ref_lens,
                                                         const map::RegionParams& p);

// The tags write_tags prints for a region (format/tags.hpp), aligned or not. ms_dp_max0
// (ReleaseRules::ms_before_dp_max_update): ms:i is dp_max0, 2.31's, rather than dp_max.
[[nodiscard]] format::RegionTags region_tags(const map::Region& r, bool ms_dp_max0);

// The query name of a PAF line: 2.31's mm_write_paf4 appends "/<seg + 1>" for segment
// seg of a fragment of two or more (ReleaseRules::paf_segment_suffix); seg -1: a read.
[[nodiscard]] std::string paf_query_name(std::string_view name, int seg, const ReleaseRules& rules);

// The PAF line of a region that was not base-aligned (mm_write_paf3 without -c).
// qstrand (--qstrand): a reverse-strand region's rs/re are on the reference's reverse
// strand and are written back on the forward strand.
[[nodiscard]] std::string paf_line(std::string_view qname, int qlen, std::string_view rname, int32_t rlen,
                                   const map::Region& r, int rep_len, bool qstrand = false);

}  // namespace agatha::pipeline
