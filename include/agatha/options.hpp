// agatha/options.hpp — every parameter of indexing, seeding, chaining, alignment and
// the read pipeline, with minimap2 2.24's defaults (options.c: mm_idxopt_init,
// mm_mapopt_init) and presets (mm_set_opt). This is the one place defaults live; the
// command line (src/cli/map_options.cpp) binds its options to these fields.
//
// Usage, as minimap2's main.c does it: start from AlignOptions{} (= map-ont),
// apply_preset() first, then the user's individual options, then validate()
// (mm_check_opt). mid_occ is resolved once the index exists (resolve_mid_occ in
// src/index/index.hpp; minimap2's mm_mapopt_update).
#pragma once

#include <agatha/compat.hpp>
#include <agatha/dp.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace agatha {

// What mm_check_opt also looks at beyond AlignOptions: the output's kind and tags.
struct OutputChecks {
  bool sam = false;       // SAM output (-a)
  bool cs_or_md = false;  // --cs or --MD
  // Where mm_check_opt's warning for -N 0 goes, at its place among the checks; null: nowhere.
  std::function<void(const std::string&)> warn;
  // The k and w limits of the sketcher (minimap2 asserts them when it sketches): checked
  // where an index is built from sequences; the command line leaves them to that point,
  // as an index file's own k and w replace the options'.
  bool sketch_limits = true;
};

struct AlignOptions {
  // ---- the minimap2 release followed (--compat); see agatha/compat.hpp ----
  // Set it with set_release() before any preset or option: it decides presets, defaults
  // and every rule of rules().
  Release release = kDefaultRelease;
  [[nodiscard]] const ReleaseRules& rules() const { return rules_of(release); }
  // Sets the release and the defaults that depend on it (-I).
  void set_release(Release r) {
    release = r;
    part_bases = rules().default_part_bases;
  }

  // ---- index (mm_idxopt_t) ----
  int k = 15;            // -k, 0 < k <= 28
  int w = 10;            // -w, 0 < w < 256
  bool hpc = false;      // -H: homopolymer-compressed k-mers
  int bucket_bits = 14;  // --bucket-bits; no effect on output
  // -I: a new index part starts once a part holds more than this many bases (checked
  // before each of mm_idx_gen's mini-batches; see src/index/index_parts.hpp). The
  // default (4G in 2.24, 8G in 2.31) holds a human genome in one part.
  uint64_t part_bases = rules_of(kDefaultRelease).default_part_bases;

  // ---- seeding (map.c: mm_map_frag's seeding; seed.c) ----
  float mid_occ_frac = 2e-4f;       // -f X with X < 1
  int32_t mid_occ = 0;              // -f X with X >= 1; <= 0: computed from the index
  int32_t min_mid_occ = 10;         // -U first value
  int32_t max_mid_occ = 1'000'000;  // -U second value
  float q_occ_frac = 0.01f;         // --q-occ-frac
  int32_t occ_dist = 500;           // -e; 0 with the ava presets
  int32_t max_max_occ = 4095;       // hard cap on seed occurrences (no option in minimap2 either)
  // -f's second value (-f X,Y), and sr's 5000: the occurrence cap of the seeds of the
  // second chaining pass minimap2 runs for short reads whose first pass found no chain
  // good enough (mm_map_frag with MM_F_HEAP_SORT); 0: not set.
  int32_t max_occ = 0;
  bool heap_sort = false;           // --heap-sort=yes|no; set by sr (MM_F_HEAP_SORT)
  int sdust_thres = 0;              // -T: SDUST masking of read minimizers; 0: off
  int64_t max_qlen = 0;             // --max-qlen: reads (fragments) longer are left unmapped; 0: no limit

  // ---- chaining (lchain.c: mg_lchain_dp, mg_lchain_rmq) ----
  int min_cnt = 3;            // -n
  int min_chain_score = 40;   // -m
  int bw = 500;               // -r first value
  int bw_long = 20000;        // -r second value
  int max_gap = 5000;         // -g
  int max_gap_ref = -1;       // minimap2's -G, for splicing only; -1: same as max_gap
  int max_chain_skip = 25;    // --max-chain-skip
  int max_chain_iter = 5000;  // --max-chain-iter
  int rmq_inner_dist = 1000;  // the rmq_* fields: no option in minimap2 2.24 either
  int rmq_size_cap = 100000;
  int rmq_rescue_size = 1000;
  float rmq_rescue_ratio = 0.1f;
  float chain_gap_scale = 0.8f;   // --chain-gap-scale
  float chain_skip_scale = 0.0f;  // --chain-skip-scale
  bool rmq = false;               // the asm presets: RMQ chaining in the first pass
  bool no_long_join = false;      // --no-long-join
  bool all_chains = false;        // the ava presets (minimap2's -P): keep all chains
  bool no_diag = false;           // all-vs-all: skip diagonal self anchors
  bool no_dual = false;           // all-vs-all: map each pair once
  bool for_only = false;          // --for-only
  bool rev_only = false;          // --rev-only
  // --qstrand (MM_F_QSTRAND | MM_F_NO_INV): regions reported on the query's strand, no
  // inversion test; PAF only (minimap2 refuses it with -a, -H, --frag and splicing).
  bool qstrand = false;
  bool no_inv = false;

  // ---- splicing (minimap2's MM_F_SPLICE* flags; the splice presets, -u, -G) ----
  // splice: spliced alignment (cDNA chaining, ksw_exts2 DP, the ts:A tag); set by the
  // splice presets only. splice_for / splice_rev: which transcript strands the DP tries
  // (-u f|r|b|n); either one also turns splicing on (mm_mapopt_update), see splicing().
  bool splice = false;
  bool splice_for = false, splice_rev = false;
  bool splice_flank = false;  // --splice-flank: score the bases beside a splice site
  int noncan = 0;             // -C: penalty of a non-canonical splice site
  int junc_bonus = 0;         // --junc-bonus: bonus at an annotated intron end (--junc-bed)
  std::string junc_bed;       // --junc-bed: BED12 or 6-column BED of annotated introns
  // mm_fix_bad_ends_splice: a terminal anchor is dropped when the local alignment score
  // of its k-mer and anchor_ext_len bases on each side, in matches, is below
  // ln(gap to the next anchor) + anchor_ext_shift (--end-seed-pen).
  int anchor_ext_len = 20, anchor_ext_shift = 6;
  // 2.31's splicing options. -J: the splice-site model, 0 minimap2's original (-C,
  // --splice-flank), 1 miniprot's; -1: the release's default (splice_cmplx()).
  int splice_model = -1;
  int junc_pen = 0;              // --junc-pen (--spsc0): penalty of a site --spsc does not score
  std::string spsc_file;         // --spsc: splice-site scores
  float spsc_scale = 0.7f;       // --spsc-scale
  std::string jump_bed;          // -j: annotated junctions that short RNA-seq alignments may jump to
  std::string pass1_bed;         // --pass1: junctions of a first pass, used as -j's (score >= 5)
  int32_t jump_min_match = 3;    // --jump-min-match
  // --sr=rna (MM_F_SR_RNA, set by splice:sr): the short-read rules of spliced alignment.
  bool sr_rna = false;
  [[nodiscard]] bool splice_cmplx() const {
    return splice_model < 0 ? rules().splice_model_cmplx_default : splice_model == 1;
  }
  bool no_end_flt = false;  // --no-end-flt: no trimming of a region's end anchors

  // ---- regions and MAPQ (hit.c: mm_set_parent, mm_select_sub, mm_set_mapq) ----
  float mask_level = 0.5f;  // --mask-level (minimap2's -M)
  int mask_len = INT_MAX;   // --mask-len
  bool hard_mask_level = false;  // --hard-mask-level (MM_F_HARD_MLEVEL)
  float alt_drop = 0.15f;        // --alt-drop: score drop of hits on ALT contigs (--alt)
  std::string alt_list;          // --alt FILE: names of ALT contigs
  float pri_ratio = 0.8f;   // -p
  int best_n = 5;           // -N
  int seed = 11;            // --seed (per-read hash)
  bool hash_name = true;    // false with --no-hash-name
  int rank_min_len = 500;   // rank_*: no option in minimap2 either
  float rank_frac = 0.9f;

  // ---- base-level alignment (align.c: mm_align_skeleton, mm_align1) ----
  // Scoring (-A -B -O -E), Z-drop (-z) and -s: the presets' values unless given. With
  // splicing, q2 is the intron open cost and e2 unused. When q == q2 and e == e2 minimap2
  // aligns with its single-affine kernel (ksw_extz2) rather than the dual one.
  int a = 2, b = 4;                   // minimap2's -A, -B
  int transition = 0;                 // -b (2.31): mismatch score of a transition (A<->G, C<->T); 0: -B
  int q = 4, e = 2, q2 = 24, e2 = 1;  // minimap2's -O q,q2  -E e,e2
  int sc_ambi = 1;                    // --score-N
  int zdrop = 400, zdrop_inv = 200;   // minimap2's -z
  int end_bonus = -1;                 // --end-bonus
  int min_dp_max = 80;                // minimap2's -s (= min_chain_score * a at init, never rescaled)
  int min_ksw_len = 200;              // --min-dp-len
  float max_clip_ratio = 1.0f;        // --max-clip-ratio
  int64_t max_sw_mat = 100'000'000;   // --cap-sw-mem: cap on DP cells per call

  // ---- short reads and fragments (MM_F_SR, MM_F_FRAG_MODE; pe.c) ----
  bool sr = false;             // --sr, set by the sr preset: the short-read rules of mapping and alignment
  bool frag_mode = false;      // --frag=yes|no, set by sr: reads of several files (or interleaved) are one fragment
  bool independent_segments = false;  // --no-pairing: a fragment's segments are mapped as separate reads
  // --pairing=weak (MM_F_WEAK_PAIRING, 2.31; set by splice:sr): a pair's segments are mapped
  // as separate reads, then paired (mm_map_frag).
  bool weak_pairing = false;
  int max_frag_len = 0;        // -F: longest fragment (sr: 800); 0: not set
  int pe_ori = 0;              // orientation of the two segments: 0 FF; sr: 0<<1|1, FR
  int pe_bonus = 33;           // score bonus of a proper pair (mm_pair)

  // ---- output and pipeline (main.c; map.c: mm_map_file_frag) ----
  uint64_t read_batch = 500'000'000;  // -K: bases per read batch
  uint64_t dp_batch = 0;              // --dp-batch: read bases whose DP rounds run together;
                                      // 0: the backend's size, dp_batch_for()
  int threads = 3;                    // -t
  bool print_secondary = true;        // false with --secondary=no
  bool copy_comment = false;          // -y
  bool no_qual = false;               // -Q: no quality values in SAM
  bool two_io_threads = false;        // -2 (set by sr): no effect on output
  int64_t cap_kalloc = 1'000'000'000;  // --cap-kalloc: no effect on output
  // --split-prefix: map each index part to scratch files named after it, then merge
  // (pipeline/split_merge.hpp). Set, it also changes each part's alignment as in
  // minimap2: mm_align_skeleton leaves mm_update_dp_max to the merge.
  std::string split_prefix;

  // Whether reads are aligned spliced (mm_mapopt_update adds MM_F_SPLICE to -u f|r|b).
  [[nodiscard]] bool splicing() const { return splice || splice_for || splice_rev; }

  // The scoring of the guided DP and of every score computed from an alignment.
  [[nodiscard]] DpScoring dp_scoring() const { return DpScoring{a, b, sc_ambi, q, e, q2, e2, transition}; }

  // Layers a preset on top of the current values (as mm_set_opt does; call it before
  // any individual option). Known: map-ont (= defaults, alias lr), map-pb (map10k),
  // map-hifi (map-ccs), asm5, asm10, asm20, ava-ont, ava-pb, splice (cdna, and any
  // other name starting with "splice", as mm_set_opt compares a prefix), splice:hq.
  // Throws OptionError("unknown preset 'NAME'").
  void apply_preset(std::string_view name);

  // minimap2's option checks (mm_check_opt, plus the k/w limits its sketcher asserts),
  // in minimap2's order. Throws OptionError with minimap2's message, minus colours.
  void validate(const OutputChecks& out = OutputChecks{}) const;
};

// The read bases whose DP rounds run together when --dp-batch is not given. A GPU round
// must hold enough tasks to fill the device; the CPU threads are kept busy by far fewer,
// and a smaller group holds less memory: what its reads wait with between rounds
// (pending tasks and their sequences, chains, read codes) is about 12 bytes per base.
// A CPU backend that batches gap fills (DpBackend::batches_tasks) runs reads in rounds
// for them: 250 kb of reads per thread (500 kb at -t 2) already give it enough tasks of
// each size to fill its vector lanes, at less memory than a larger group (measured on
// HiFi reads at -t 2: 500 kb, 1 Mb and 2 Mb groups took the same time, 133, 139 and
// 151 MB).
inline constexpr uint64_t kDpBatchCpu = 2'000'000;
inline constexpr uint64_t kDpBatchCpuBatchingPerThread = 250'000;
inline constexpr uint64_t kDpBatchGpu = 8'000'000;
// batching: a CPU backend that batches this alignment's gap fills, on `threads` threads.
[[nodiscard]] inline uint64_t dp_batch_for(const AlignOptions& opt, bool gpu_backend, bool batching = false,
                                           int threads = 1) {
  if (opt.dp_batch) return opt.dp_batch;
  if (gpu_backend) return kDpBatchGpu;
  return batching ? kDpBatchCpuBatchingPerThread * static_cast<uint64_t>(std::max(1, threads)) : kDpBatchCpu;
}

// Names accepted by AlignOptions::apply_preset.
[[nodiscard]] const std::vector<std::string>& preset_names();

}  // namespace agatha
