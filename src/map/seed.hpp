// src/map/seed.hpp — from a read to its anchors, as minimap2 2.24 does it before chaining
// (map.c: mm_map_frag, collect_minimizers, collect_seed_hits; seed.c):
//   query minimizers (collect_minimizers) -> query-repeat filter (mm_seed_mz_flt) ->
//   index lookup with the tandem flag (mm_seed_collect_all) -> high-occurrence selection
//   (mm_seed_select) -> rep_len and mini_pos (collect_seed_hits) -> anchors, radix-sorted
//   by x (collect_seed_hits).
//
// Threading: all functions are reentrant; the index is only read.
#pragma once

#include <agatha/options.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../index/index.hpp"
#include "../index/sketch.hpp"
#include "anchor.hpp"

namespace agatha::map {

// One query minimizer with index hits (minimap2's mm_seed_t).
struct Seed {
  uint32_t q_pos = 0;    // pos << 1 | strand, pos offset by earlier segments
  uint32_t n_hits = 0;   // index occurrences, ascending, at hit[0 .. n_hits)
  const uint64_t* hit = nullptr;
  uint16_t seg_id = 0;
  uint8_t q_span = 0;     // bases covered by the k-mer (the sketch keeps it in 8 bits)
  bool is_tandem = false;  // a neighbouring query minimizer has the same hash
  bool filtered = false;   // dropped as high-occurrence
  std::span<const uint64_t> hits() const { return {hit, n_hits}; }
  // A hash's occurrences in one index are far fewer than 2^32 (the index would hold
  // 32 GB of them alone).
  void set_hits(std::span<const uint64_t> h) { hit = h.data(), n_hits = static_cast<uint32_t>(h.size()); }
  int32_t n() const { return static_cast<int32_t>(n_hits); }
};
static_assert(sizeof(Seed) == 24);

// Everything seeding hands to chaining and to later stages.
struct SeedResult {
  std::vector<Anchor> anchors;     // sorted by x with minimap2's radix sort (or heap order)
  int32_t rep_len = 0;             // query bases covered by filtered (repetitive) seeds
  std::vector<uint64_t> mini_pos;  // kept seeds: span << 32 | pos, in query order
};

// Minimizers of all segments with the index's k, w and HPC; seg i has rid field i and
// positions offset by the lengths of segments 0..i-1; with sdust_thres > 0 (-T) each
// segment's minimizers in its low-complexity intervals are dropped (collect_minimizers,
// mm_dust_minier; see sdust.hpp). A segment of several Mb (a contig) is sketched in
// pieces on up to `threads` threads (index::sketch_parallel; the same minimizers).
[[nodiscard]] std::vector<index::Minimizer> query_minimizers(std::span<const std::string_view> segs,
                                                             const index::MinimizerIndex& idx, int sdust_thres = 0,
                                                             int threads = 1);

// Removes query minimizers whose full x occurs more than mid_occ times and more than
// n * q_occ_frac times in the read; skipped when n <= mid_occ (mm_seed_mz_flt). Its sort
// runs on up to `threads` threads (the same result).
void filter_query_repeats(std::vector<index::Minimizer>& mv, int32_t mid_occ, float q_occ_frac, int threads = 1);

// Seeds for the minimizers with at least one index hit, in order (mm_seed_collect_all).
// A query of many minimizers (a contig) is looked up in pieces on up to `threads`
// threads (the same seeds).
[[nodiscard]] std::vector<Seed> lookup_seeds(const std::vector<index::Minimizer>& mv, const index::MinimizerIndex& idx,
                                             int threads = 1);

// Marks high-occurrence seeds as filtered (mm_seed_select, or the plain cutoff
// when occ_dist <= 0 or max_max_occ <= max_occ).
void select_seeds(std::vector<Seed>& seeds, int32_t qlen, int32_t max_occ, int32_t max_max_occ, int32_t occ_dist);

// Drops the filtered seeds, returning rep_len and filling mini_pos (collect_seed_hits).
[[nodiscard]] int32_t drop_filtered_seeds(std::vector<Seed>& seeds, std::vector<uint64_t>& mini_pos);

// Anchors of the kept seeds (collect_seed_hits), sorted by x. qname is used only by the
// all-vs-all options (no_diag, no_dual).
// The anchors are made (where no option skips hits) and sorted on up to `threads`
// threads (the same anchors in the same order).
[[nodiscard]] std::vector<Anchor> make_anchors(const std::vector<Seed>& seeds, int32_t qlen, std::string_view qname,
                                               const index::MinimizerIndex& idx, const AlignOptions& opt,
                                               int threads = 1);

// The same anchors in the order minimap2's heap merge of the seeds' hit lists gives them
// (collect_seed_hits_heap, --heap-sort, set by sr): all forward-strand anchors, then all
// reverse-strand ones, each in increasing order of the index entry (reference id,
// position, strand). Unlike the radix sort's order, two anchors at one reference
// position come out in the heap's order, not in query order.
[[nodiscard]] std::vector<Anchor> make_anchors_heap(const std::vector<Seed>& seeds, int32_t qlen,
                                                    std::string_view qname, const index::MinimizerIndex& idx,
                                                    const AlignOptions& opt);

// A read's seeds as looked up, before the occurrence filter: the query minimizers of all
// its segments after the query-repeat filter, with their index hits. Kept so that a
// second pass with another occurrence cap (mm_map_frag's re-chaining with max_occ) can
// start from them.
struct ReadSeeds {
  std::vector<Seed> seeds;
  int64_t qlen = 0;  // the segments' summed length
};
[[nodiscard]] ReadSeeds look_up_read(std::span<const std::string_view> segs, const index::MinimizerIndex& idx,
                                     const AlignOptions& opt, int32_t mid_occ, int threads = 1);

// The anchors of the seeds with at most max_occ hits (mm_seed_select's rules), with
// rep_len and mini_pos (collect_seed_hits, or collect_seed_hits_heap with
// opt.heap_sort).
[[nodiscard]] SeedResult collect_anchors(const ReadSeeds& read, std::string_view qname,
                                         const index::MinimizerIndex& idx, const AlignOptions& opt, int32_t max_occ,
                                         int threads = 1);
// The same from seeds no second pass will need: they are filtered in place, not copied.
[[nodiscard]] SeedResult collect_anchors(ReadSeeds&& read, std::string_view qname, const index::MinimizerIndex& idx,
                                         const AlignOptions& opt, int32_t max_occ, int threads = 1);

// The first seeding pass of a read with segments segs (mid_occ: resolve_mid_occ of the
// index). An empty read gives an empty result.
[[nodiscard]] SeedResult seed_read(std::string_view qname, std::span<const std::string_view> segs,
                                   const index::MinimizerIndex& idx, const AlignOptions& opt, int32_t mid_occ);

}  // namespace agatha::map
