// src/map/chain.hpp — chaining: anchors sorted by x -> colinear chains, exactly as
// minimap2 2.24 (lchain.c: mg_lchain_dp, mg_lchain_rmq, mg_chain_backtrack, compact_a;
// map.c: mm_map_frag's choice of passes and the long-join rechain).
//
// Numerics: the gap penalties are float expressions evaluated in minimap2's order with no
// fused multiply-add. The library is built as ISO C++ (-std=c++20, where GCC defaults to
// -ffp-contract=off) and meson.build passes -ffp-contract=off explicitly as well.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <agatha/options.hpp>

#include "../../kernels/chain_scan.hpp"
#include "anchor.hpp"

namespace agatha::map {

// The chaining parameters of one read, derived from the options by chain_params (the
// options hold every default).
struct ChainParams {
  int max_gap = 0;       // -g: max gap on the query, and on the reference unless below
  int max_gap_ref = 0;   // -G when > 0 (splice); reference-gap limit of the DP pass
  int max_frag_len = 0;  // -F when > 0 (set by sr: 800)
  int bw = 0;            // -r first value
  int bw_long = 0;       // -r second value, at least bw; long-join rechain when > bw
  int max_chain_skip = 0;
  int max_chain_iter = 0;
  int min_cnt = 0;          // -n
  int min_chain_score = 0;  // -m
  float chain_gap_scale = 0;
  float chain_skip_scale = 0;
  int rmq_inner_dist = 0;
  bool rmq_inner_clamp = false;  // ReleaseRules::rmq_inner_clamp
  int rmq_size_cap = 0;
  int rmq_rescue_size = 0;
  float rmq_rescue_ratio = 0;
  bool rmq = false;         // --rmq (asm presets): the first pass is RMQ chaining
  bool long_join = false;   // false with --no-long-join
  bool splice = false;      // cDNA scoring of gaps, no long join
  bool short_read = false;  // sr: the query gap limit grows to the read length, no long join
  int max_occ = 0;          // -f's second value (sr: 5000): the cap of the re-chaining pass; 0: none
  // The DP pass's predecessor scan (kernels/chain_scan.hpp); nullptr: pair_score one
  // pair at a time, the oracle. chain_params picks the fastest this processor runs.
  kernels::ChainScanFn scan = nullptr;
  // Threads the RMQ pass may use for one read: its blocks of anchors on different
  // reference sequences or strands, which no chain links, are chained side by side
  // (chain_rmq). The chains do not depend on it.
  int threads = 1;
};

// What minimap2 derives from its options for chaining (mm_mapopt_update: bw_long is
// raised to bw; -G unset means the -g limit).
[[nodiscard]] ChainParams chain_params(const AlignOptions& opt);

// Chains as minimap2 returns them: `anchors` holds each chain's anchors in increasing
// order, chain after chain, chains ordered by the x of their first anchor; u[c] is
// score << 32 | number of anchors of chain c.
struct Chains {
  std::vector<Anchor> anchors;
  std::vector<uint64_t> u;

  size_t size() const { return u.size(); }
  static int32_t score(uint64_t u) { return static_cast<int32_t>(u >> 32); }
  static int32_t count(uint64_t u) { return static_cast<int32_t>(u); }
};

// minimap2's mg_log2: a cheap float log2 for x >= 2 (bit-level, no libm).
[[nodiscard]] float fast_log2(float x);

// The gap penalties of one read: chain_gap_scale * 0.01 * k (and the skip analogue),
// computed in double and stored as float.
struct GapPenalty {
  float gap = 0, skip = 0;
};
[[nodiscard]] GapPenalty gap_penalty(const ChainParams& p, int k);

// Limits of the DP pass's pair score (lchain.c: comput_sc).
struct PairLimits {
  int32_t max_dist_ref = 0, max_dist_qry = 0, bw = 0;
  bool splice = false;
  int n_seg = 1;
};
inline constexpr int32_t kNoPair = INT32_MIN;

// Score of appending anchor i after anchor j (j before i in sort order, same rid and
// strand), or kNoPair when the pair is not allowed.
[[nodiscard]] int32_t pair_score(const Anchor& ai, const Anchor& aj, const PairLimits& lim, GapPenalty pen);

// The RMQ pass's pair score (comput_sc_simple): no limits; `width` = |dr - dq| and
// `exact` tells whether j and i lie on one diagonal within j's span.
[[nodiscard]] int32_t pair_score_simple(const Anchor& ai, const Anchor& aj, GapPenalty pen, bool* exact,
                                        int32_t* width);

// The DP chaining pass (mg_lchain_dp) over anchors sorted by x.
[[nodiscard]] Chains chain_dp(const std::vector<Anchor>& a, int max_dist_ref, int max_dist_qry, int bw, int max_skip,
                              int max_iter, int min_cnt, int min_score, GapPenalty pen, bool splice, int n_seg,
                              kernels::ChainScanFn scan = nullptr);

// The RMQ chaining pass (mg_lchain_rmq) over anchors sorted by x.
// max_dist_inner outside (0, max_dist) turns the inner scan off (2.24), or with
// inner_clamp (2.31) is clamped to [0, max_dist] (0: off).
// Anchors on different reference sequences or strands (a.x >> 32) are never linked:
// mg_lchain_rmq's trees empty between them. Each such block is chained on its own, on up
// to `threads` threads, the largest blocks first; the result does not depend on threads.
// The range minima come from krmq's tree only where several anchors tie for one (see
// chain_rmq_block), and the walk over near predecessors computes a pair's gap penalty only
// where the pair could beat the best score so far. With literal, the tree is asked every
// time and every pair's score computed in full, as mg_lchain_rmq does (the result is the
// same).
[[nodiscard]] Chains chain_rmq(const std::vector<Anchor>& a, int max_dist, int max_dist_inner, int bw, int max_skip,
                               int cap_size, int min_cnt, int min_score, GapPenalty pen, bool inner_clamp = false,
                               int threads = 1, bool literal = false);

// The gap limits of the DP pass for a read of qlen bases (all segments), as mm_map_frag
// sets them: on the query max_gap, or with sr the read length when longer; on the
// reference max_gap_ref when set, else with a fragment length max_frag_len - qlen but at
// least max_gap, else max_gap. `ref` is also the longest distance mm_pair allows between
// the segments of a pair (the fragment gap).
struct GapLimits {
  int qry = 0, ref = 0;
};
[[nodiscard]] GapLimits gap_limits(const ChainParams& p, int qlen);

// What mm_map_frag does between sorting the anchors and building regions: the first pass
// (DP, or RMQ with --rmq) and the long-join RMQ rechain of the chained anchors when it
// applies. `qlen` is the summed length of the read's segments, `k` the index's k-mer
// size. (The re-chaining with more seeds, rechain_wanted, is the caller's: it seeds again.)
[[nodiscard]] Chains chain_read(const std::vector<Anchor>& sorted_anchors, int qlen, int n_seg, int k,
                                const ChainParams& p);
// The same, for a caller that needs the anchors no more: they are freed after the first
// pass, before the long join allocates its own (a chromosome-length query holds one
// array of anchors fewer at its peak).
[[nodiscard]] Chains chain_read(std::vector<Anchor>&& sorted_anchors, int qlen, int n_seg, int k, const ChainParams& p);

// mm_map_frag's second chaining pass, mostly for short reads: when the long join does not
// apply (it needs bw_long > bw, no splicing, no sr, no --no-long-join, one segment and at
// least two chains), max_occ exceeds mid_occ, some seeds were dropped as repetitive
// (rep_len > 0), chaining is not RMQ, and either no chain was found or the best chain
// (the first of the highest score) does not hold anchors of every segment, the read is
// seeded again with max_occ as the occurrence cap and chained by the DP pass alone
// (chain_dp_pass).
[[nodiscard]] bool rechain_wanted(const Chains& first, int n_seg, int mid_occ, int rep_len, const ChainParams& p);
[[nodiscard]] Chains chain_dp_pass(const std::vector<Anchor>& sorted_anchors, int qlen, int n_seg, int k,
                                   const ChainParams& p);

}  // namespace agatha::map
