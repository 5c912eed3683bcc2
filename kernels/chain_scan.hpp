// kernels/chain_scan.hpp — the predecessor scan of minimap2 2.24's DP chaining
// (lchain.c: mg_lchain_dp's inner loop over comput_sc) for single-segment reads without
// splicing. For anchor i, the scan walks its window back from i - 1, scores each pair
// (comput_sc) and applies mg_lchain_dp's candidate rule (the best score, the skip count,
// the marks, the early stop) pair by pair in minimap2's order, so the maxima and their
// ties stay minimap2's. The vector versions score a block of pairs at once and run the
// sequential rule only on the pairs comput_sc accepts.
//
//   chain_scan_scalar / chain_scores_scalar  one pair at a time: the oracle, comput_sc's
//                                            rules restated
//   chain_scan_sse41  / chain_scores_sse41   4 pairs a step (chain_scan.cpp, -msse4.1)
//   chain_scan_avx2   / chain_scores_avx2    8 pairs a step (chain_scan.cpp, -mavx2)
//   chain_scan_avx512 / chain_scores_avx512  16 pairs a step (chain_scan.cpp, -mavx512bw)
//
// Exactness: the gap penalty is float arithmetic; every vector operation is the IEEE
// single-precision operation the scalar expression performs, in the same order and
// without fused multiply-add, and (int) truncates in both. mg_log2 is bit manipulation
// plus the same float polynomial. So all three give identical scores, and the rule
// applied to them in the same order gives identical results.
#pragma once

#include <cstdint>

namespace agatha::kernels {

// Pairs scored per chain_scores call at most, and the padding the anchor arrays need.
inline constexpr int kChainBlock = 16;
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
  float gap, skip;       // chain_gap_scale * 0.01 * k and the skip analogue (lchain.c)
  int32_t max_skip = 0;  // the scan stops after more than this many skips
};

// The chaining DP's arrays for anchors 0..i-1: f = best chain score ending at each, p =
// its predecessor (-1: none), t = the marks of the skip rule (t[j] == i: j already fed
// a chain through a predecessor scanned for i). Indices are 32-bit, as minimap2's t[]
// holds them.
struct ChainDpArrays {
  const int32_t* f;
  const int32_t* p;
  int32_t* t;
};

// The state of one anchor's scan: the best total score and its predecessor so far, and
// the skip count.
struct ChainBest {
  int32_t max_f;
  int64_t max_j;
  int32_t n_skip;
};

// mg_lchain_dp's candidate rule for predecessor j of anchor i with total score sc
// (comput_sc + f[j]): strictly better becomes the best and relaxes the skip count; a j
// already marked for i counts as a skip. Marks j's predecessor for i. Returns true when
// too many skips end the scan (j's predecessor is then left unmarked).
inline bool chain_take(int64_t i, int64_t j, int32_t sc, const ChainDpArrays& dp, ChainBest& b, int32_t max_skip) {
  if (sc > b.max_f) {
    b.max_f = sc, b.max_j = j;
    if (b.n_skip > 0) --b.n_skip;
  } else if (dp.t[j] == static_cast<int32_t>(i)) {
    if (++b.n_skip > max_skip) return true;
  }
  if (dp.p[j] >= 0) dp.t[dp.p[j]] = static_cast<int32_t>(i);
  return false;
}

// Writes out[m] = the score of anchor i after anchor lo + m, for m < n (n <=
// kChainBlock, lo + n <= i), or kChainNoPair when comput_sc rejects the pair.
using ChainScoresFn = void (*)(const ChainAnchors& a, int64_t i, int64_t lo, int n, const ChainScanParams& p,
                               int32_t* out);

void chain_scores_scalar(const ChainAnchors& a, int64_t i, int64_t lo, int n, const ChainScanParams& p, int32_t* out);
void chain_scores_sse41(const ChainAnchors& a, int64_t i, int64_t lo, int n, const ChainScanParams& p, int32_t* out);
void chain_scores_avx2(const ChainAnchors& a, int64_t i, int64_t lo, int n, const ChainScanParams& p, int32_t* out);
void chain_scores_avx512(const ChainAnchors& a, int64_t i, int64_t lo, int n, const ChainScanParams& p, int32_t* out);

// Scans the predecessors j = i - 1 down to st of anchor i (st <= i), starting from best
// (max_f = i's own span, max_j = -1, n_skip = 0 in mg_lchain_dp), applying chain_take to
// each pair comput_sc accepts. Returns the index where the scan stopped: the j whose skip
// ended it, else st - 1.
using ChainScanFn = int64_t (*)(const ChainAnchors& a, const ChainDpArrays& dp, int64_t i, int64_t st,
                                const ChainScanParams& p, ChainBest& best);

int64_t chain_scan_scalar(const ChainAnchors& a, const ChainDpArrays& dp, int64_t i, int64_t st,
                          const ChainScanParams& p, ChainBest& best);
int64_t chain_scan_sse41(const ChainAnchors& a, const ChainDpArrays& dp, int64_t i, int64_t st,
                         const ChainScanParams& p, ChainBest& best);
int64_t chain_scan_avx2(const ChainAnchors& a, const ChainDpArrays& dp, int64_t i, int64_t st,
                        const ChainScanParams& p, ChainBest& best);
int64_t chain_scan_avx512(const ChainAnchors& a, const ChainDpArrays& dp, int64_t i, int64_t st,
                          const ChainScanParams& p, ChainBest& best);

// The version of resolve_isa's "auto" choice on this processor (else scalar), or the
// named one ("scalar", "sse41", "avx2", "avx512"); nullptr for a name this processor
// cannot run.
[[nodiscard]] ChainScanFn chain_scan_for(const char* isa = nullptr);
[[nodiscard]] ChainScoresFn chain_scores_for(const char* isa = nullptr);

}  // namespace agatha::kernels
