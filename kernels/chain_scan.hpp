// kernels/chain_scan.hpp — the predecessor scan of minimap2 2.24's DP chaining
// (lchain.c: mg_lchain_dp's inner loop over comput_sc) for single-segment reads without
// splicing: the score of appending anchor i after each of up to kChainBlock earlier
// anchors, computed a vector at a time. The caller keeps the sequential part (the best
// score, the skip heuristic, the early stop), so the order of decisions, the maxima and
// their ties stay minimap2's.
//
//   chain_scores_scalar  one pair at a time: the oracle, comput_sc's rules restated
//   chain_scores_sse41   4 pairs a step (chain_scan.cpp compiled with -msse4.1)
//   chain_scores_avx2    8 pairs a step (chain_scan.cpp compiled with -mavx2)
//
// Exactness: the gap penalty is float arithmetic; every vector operation is the IEEE
// single-precision operation the scalar expression performs, in the same order and
// without fused multiply-add, and (int) truncates in both. mg_log2 is bit manipulation
// plus the same float polynomial. So all three give identical scores.
#pragma once

#include <cstdint>

namespace agatha::kernels {

// Pairs scored per call at most.
inline constexpr int kChainBlock = 8;
// "Not a valid predecessor" (minimap2's INT32_MIN from comput_sc).
inline constexpr int32_t kChainNoPair = INT32_MIN;

// The anchors in the layout the scan reads. Entry j: x = the low 32 bits of the
// anchor's x (reference position; the same reference and strand as i within a window),
// y = its query position, span = its query span. The arrays must be readable from
// index -kChainBlock on (padding before the first anchor), so a block may start before
// anchor 0.
struct ChainAnchors {
  const uint32_t* x;
  const int32_t* y;
  const int32_t* span;
};

struct ChainScanParams {
  int32_t max_dist_ref, max_dist_qry, bw;
  float gap, skip;  // chain_gap_scale * 0.01 * k and the skip analogue (lchain.c)
};

// Writes out[m] = the score of anchor i after anchor lo + m, for m < n (n <=
// kChainBlock, lo + n <= i), or kChainNoPair when comput_sc rejects the pair.
using ChainScanFn = void (*)(const ChainAnchors& a, int64_t i, int64_t lo, int n, const ChainScanParams& p,
                             int32_t* out);

void chain_scores_scalar(const ChainAnchors& a, int64_t i, int64_t lo, int n, const ChainScanParams& p, int32_t* out);
void chain_scores_sse41(const ChainAnchors& a, int64_t i, int64_t lo, int n, const ChainScanParams& p, int32_t* out);
void chain_scores_avx2(const ChainAnchors& a, int64_t i, int64_t lo, int n, const ChainScanParams& p, int32_t* out);

// The fastest version this processor runs (AVX2, SSE4.1, else scalar), or the named one
// ("scalar", "sse41", "avx2"); nullptr for a name this processor cannot run.
[[nodiscard]] ChainScanFn chain_scan_for(const char* isa = nullptr);

}  // namespace agatha::kernels
