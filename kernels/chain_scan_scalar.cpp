// kernels/chain_scan_scalar.cpp — comput_sc for one pair at a time (the oracle of the
// vector versions in chain_scan.cpp), and the run-time choice among them.
#include "chain_scan.hpp"

#include <bit>
#include <cstring>

#include "dp_kernels.hpp"

namespace agatha::kernels {
namespace {

// mg_log2: log2(x) ~ (e - 1) + a quadratic in the mantissa m in [1, 2), with e the
// biased exponent minus 127, taken as (biased - 128).
float mg_log2(float x) {
  uint32_t bits = std::bit_cast<uint32_t>(x);
  float log2 = static_cast<float>(static_cast<int>((bits >> 23) & 255) - 128);
  bits &= ~(255u << 23);
  bits += 127u << 23;
  const float m = std::bit_cast<float>(bits);
  log2 += (-0.34484843f * m + 2.02466578f) * m - 0.67487759f;
  return log2;
}

}  // namespace

void chain_scores_scalar(const ChainAnchors& a, int64_t i, int64_t lo, int n, const ChainScanParams& p, int32_t* out) {
  for (int m = 0; m < n; ++m) {
    const int64_t j = lo + m;
    const int32_t dq = a.y[i] - a.y[j];
    const int32_t dr = static_cast<int32_t>(a.x[i] - a.x[j]);
    if (dq <= 0 || dq > p.max_dist_ref || dr == 0 || dq > p.max_dist_qry) {
      out[m] = kChainNoPair;
      continue;
    }
    const int32_t dd = dr > dq ? dr - dq : dq - dr;
    if (dd > p.bw) {
      out[m] = kChainNoPair;
      continue;
    }
    const int32_t dg = dr < dq ? dr : dq;
    const int32_t q_span = a.span[j];
    int32_t sc = q_span < dg ? q_span : dg;
    if (dd != 0 || dg > q_span) {
      const float lin_pen = p.gap * static_cast<float>(dd) + p.skip * static_cast<float>(dg);
      const float log_pen = dd >= 1 ? mg_log2(static_cast<float>(dd + 1)) : 0.0f;
      sc -= static_cast<int>(lin_pen + 0.5f * log_pen);
    }
    out[m] = sc;
  }
}

int64_t chain_scan_scalar(const ChainAnchors& a, const ChainDpArrays& dp, int64_t i, int64_t st,
                          const ChainScanParams& p, ChainBest& best) {
  for (int64_t j = i - 1; j >= st; --j) {
    int32_t sc;
    chain_scores_scalar(a, i, j, 1, p, &sc);
    if (sc == kChainNoPair) continue;
    if (chain_take(i, j, sc + dp.f[j], dp, best, p.max_skip)) return j;
  }
  return st - 1;
}

namespace {

// The version of a kernel family for isa (nullptr: resolve_isa's "auto"), or nullptr for
// a name this processor cannot run.
template <typename Fn>
Fn choose(const char* isa, Fn scalar, Fn sse41_fn, Fn avx2_fn, Fn avx512_fn) {
  if (isa && std::strcmp(isa, "scalar") == 0) return scalar;
#if defined(AGATHA_HAVE_X86_SIMD)
  const IsaChoice c = resolve_isa(isa ? isa : "auto", cpu_isas());
  if (c.name == "avx512") return avx512_fn;
  if (c.name == "avx2") return avx2_fn;
  if (c.name == "sse41") return sse41_fn;
  return isa ? nullptr : scalar;
#else
  (void)sse41_fn, (void)avx2_fn, (void)avx512_fn;  // nullptr without x86 SIMD
  return isa ? nullptr : scalar;
#endif
}

}  // namespace

#if defined(AGATHA_HAVE_X86_SIMD)
ChainScanFn chain_scan_for(const char* isa) {
  return choose(isa, chain_scan_scalar, chain_scan_sse41, chain_scan_avx2, chain_scan_avx512);
}
ChainScoresFn chain_scores_for(const char* isa) {
  return choose(isa, chain_scores_scalar, chain_scores_sse41, chain_scores_avx2, chain_scores_avx512);
}
#else
ChainScanFn chain_scan_for(const char* isa) {
  return choose<ChainScanFn>(isa, chain_scan_scalar, nullptr, nullptr, nullptr);
}
ChainScoresFn chain_scores_for(const char* isa) {
  return choose<ChainScoresFn>(isa, chain_scores_scalar, nullptr, nullptr, nullptr);
}
#endif

}  // namespace agatha::kernels
