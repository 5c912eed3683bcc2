// agatha/options.hpp — every parameter of indexing, seeding, chaining, alignment and
// output, with minimap2 2.24's defaults (options.c: mm_idxopt_init, mm_mapopt_init) and
// presets (mm_set_opt). This is the one place defaults live; the CLI binds to it.
//
// Usage, as minimap2 does it: start from AlignOptions{} (= map-ont), apply_preset()
// first, then the user's individual options, then validate(). mid_occ is resolved once
// the index exists (resolve_mid_occ in src/index/index.hpp).
#pragma once

#include <agatha/dp.hpp>

#include <climits>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace agatha {

struct AlignOptions {
  // ---- index (mm_idxopt_t) ----
  int k = 15;                               // -k, 0 < k <= 28
  int w = 10;                               // -w, 0 < w < 256
  bool hpc = false;                         // -H: homopolymer-compressed k-mers
  int bucket_bits = 14;                     // -b equivalent; no effect on output
  uint64_t index_mini_batch = 50'000'000;   // reference bases read per mini-batch
  uint64_t index_batch = 4'000'000'000ULL;  // -I: bases per index part (2.24: 4G)

  // ---- seeding (spec 3.4, 4) ----
  float mid_occ_frac = 2e-4f;       // -f X with X < 1
  int32_t mid_occ = 0;              // -f X with X >= 1; <= 0: computed from the index
  int32_t min_mid_occ = 10;         // -U first value
  int32_t max_mid_occ = 1'000'000;  // -U second value
  int32_t max_occ = 0;              // -f X,Y second value (short-read rechain)
  float q_occ_frac = 0.01f;         // --q-occ-frac
  int32_t occ_dist = 500;           // -e
  int32_t max_max_occ = 4095;       // hard cap on seed occurrences
  int sdust_thres = 0;              // -T (DUST masking; 0 = off)

  // ---- chaining (spec 5) ----
  int min_cnt = 3;           // -n
  int min_chain_score = 40;  // -m
  int bw = 500;              // -r first value
  int bw_long = 20000;       // -r second value
  int max_gap = 5000;        // -g
  int max_gap_ref = -1;      // -G (splice); -1: same as max_gap
  int max_chain_skip = 25;
  int max_chain_iter = 5000;
  int rmq_inner_dist = 1000;
  int rmq_size_cap = 100000;
  int rmq_rescue_size = 1000;
  float rmq_rescue_ratio = 0.1f;
  float chain_gap_scale = 0.8f;  // --chain-gap-scale
  float chain_skip_scale = 0.0f;
  bool rmq = false;           // --rmq: RMQ chaining in the first pass (asm*)
  bool no_long_join = false;  // --no-long-join
  bool all_chains = false;    // -X/-P style: keep all chains
  bool no_diag = false;       // all-vs-all: skip diagonal self anchors
  bool no_dual = false;       // all-vs-all: map each pair once
  bool for_only = false;      // --for-only
  bool rev_only = false;      // --rev-only
  bool qstrand = false;       // --qstrand

  // ---- regions and MAPQ (spec 5.8, 6, 8) ----
  float mask_level = 0.5f;  // -M
  int mask_len = INT_MAX;   // --mask-len
  float pri_ratio = 0.8f;   // -p
  int best_n = 5;           // -N
  float alt_drop = 0.15f;   // --alt-drop
  int seed = 11;            // --seed (per-read hash)
  bool hash_name = true;    // false with --no-hash-name
  int rank_min_len = 500;
  float rank_frac = 0.9f;

  // ---- base-level alignment (spec 7) ----
  int a = 2, b = 4;                   // -A, -B
  int q = 4, e = 2, q2 = 24, e2 = 1;  // -O q,q2  -E e,e2
  int sc_ambi = 1;                    // --score-N
  int zdrop = 400, zdrop_inv = 200;   // -z
  int end_bonus = -1;                 // --end-bonus
  int min_dp_max = 80;                // -s (= min_chain_score * a at init, never rescaled)
  int min_ksw_len = 200;
  int anchor_ext_len = 20, anchor_ext_shift = 6;
  float max_clip_ratio = 1.0f;
  int64_t max_sw_mat = 100'000'000;  // cap on DP cells per call

  // ---- output and pipeline (spec 9, 11) ----
  uint64_t read_batch = 500'000'000;         // -K: bases per read batch
  int threads = 3;                           // -t
  bool out_sam = false;                      // -a
  bool print_secondary = true;               // false with --secondary=no
  bool copy_comment = false;                 // -y
  bool soft_clip = false;                    // -Y
  bool eqx = false;                          // --eqx
  bool out_md = false;                       // --MD
  bool out_cs = false, out_cs_long = false;  // --cs[=short|long]

  // The scoring of the guided DP and of every score computed from an alignment.
  [[nodiscard]] DpScoring dp_scoring() const { return DpScoring{a, b, sc_ambi, q, e, q2, e2}; }

  // Layers a preset on top of the current values (as mm_set_opt does; call it before
  // any individual option). Known: map-ont (= defaults, alias lr), map-pb (map10k),
  // map-hifi (map-ccs), asm5, asm10, asm20, ava-ont, ava-pb.
  // Throws OptionError("unknown preset 'NAME'").
  void apply_preset(std::string_view name);

  // minimap2's option checks (mm_check_opt, plus the k/w limits its sketcher asserts),
  // in minimap2's order. Throws OptionError with minimap2's message, minus colours.
  void validate() const;
};

// Names accepted by AlignOptions::apply_preset.
const std::vector<std::string>& preset_names();

}  // namespace agatha
