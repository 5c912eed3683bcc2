// kernels/chain_scan.cpp — comput_sc a vector of pairs at a time, and mg_lchain_dp's
// predecessor scan on top of it: one source, compiled once per instruction set (meson:
// -msse4.1 -DAGATHA_ISA_SSE41 gives chain_scores_sse41 and chain_scan_sse41, 4 pairs a
// step; -mavx2 -DAGATHA_ISA_AVX2 gives the _avx2 pair, 8 pairs a step; -mavx512bw
// -DAGATHA_ISA_AVX512 the _avx512 pair, 16 pairs a step). Each lane
// computes what chain_scores_scalar computes for its pair, operation for operation (see
// chain_scan.hpp on exactness).
#include <immintrin.h>

#include "chain_scan.hpp"

namespace agatha::kernels {
namespace {

// Lane masks (Mk) are mask registers on AVX-512 and all-ones lanes before it.
#if defined(AGATHA_ISA_AVX512)
struct V32 {
  using I = __m512i;
  using F = __m512;
  using Mk = __mmask16;
  static constexpr int W = 16;
  static I load(const void* p) { return _mm512_loadu_si512(p); }
  static void store(void* p, I v) { _mm512_storeu_si512(p, v); }
  static I set1(int32_t c) { return _mm512_set1_epi32(c); }
  static F set1f(float c) { return _mm512_set1_ps(c); }
  static I add(I a, I b) { return _mm512_add_epi32(a, b); }
  static I sub(I a, I b) { return _mm512_sub_epi32(a, b); }
  static I min(I a, I b) { return _mm512_min_epi32(a, b); }
  static I abs(I a) { return _mm512_abs_epi32(a); }
  static Mk gt(I a, I b) { return _mm512_cmpgt_epi32_mask(a, b); }
  static Mk eq(I a, I b) { return _mm512_cmpeq_epi32_mask(a, b); }
  static Mk or_m(Mk a, Mk b) { return static_cast<Mk>(a | b); }
  static I or_(I a, I b) { return _mm512_or_si512(a, b); }
  static I and_(I a, I b) { return _mm512_and_si512(a, b); }
  static I blend(I a, I b, Mk m) { return _mm512_mask_blend_epi32(m, a, b); }  // m ? b : a
  static F zero_unless(F a, Mk m) { return _mm512_maskz_mov_ps(m, a); }       // m ? a : +0.0f
  static I srl(I a, int n) { return _mm512_srli_epi32(a, static_cast<unsigned>(n)); }
  static unsigned mask(Mk m) { return m; }
  static F to_float(I a) { return _mm512_cvtepi32_ps(a); }  // round to nearest, as static_cast
  static I trunc(F a) { return _mm512_cvttps_epi32(a); }    // toward zero, as static_cast<int>
  static F as_float(I a) { return _mm512_castsi512_ps(a); }
  static I as_int(F a) { return _mm512_castps_si512(a); }
  static F addf(F a, F b) { return _mm512_add_ps(a, b); }
  static F subf(F a, F b) { return _mm512_sub_ps(a, b); }
  static F mulf(F a, F b) { return _mm512_mul_ps(a, b); }
};
#elif defined(AGATHA_ISA_AVX2)
struct V32 {
  using I = __m256i;
  using F = __m256;
  using Mk = __m256i;
  static constexpr int W = 8;
  static I load(const void* p) { return _mm256_loadu_si256(static_cast<const I*>(p)); }
  static void store(void* p, I v) { _mm256_storeu_si256(static_cast<I*>(p), v); }
  static I set1(int32_t c) { return _mm256_set1_epi32(c); }
  static F set1f(float c) { return _mm256_set1_ps(c); }
  static I add(I a, I b) { return _mm256_add_epi32(a, b); }
  static I sub(I a, I b) { return _mm256_sub_epi32(a, b); }
  static I min(I a, I b) { return _mm256_min_epi32(a, b); }
  static I abs(I a) { return _mm256_abs_epi32(a); }
  static I gt(I a, I b) { return _mm256_cmpgt_epi32(a, b); }  // a > b: all ones
  static I eq(I a, I b) { return _mm256_cmpeq_epi32(a, b); }
  static I or_(I a, I b) { return _mm256_or_si256(a, b); }
  static Mk or_m(Mk a, Mk b) { return or_(a, b); }
  static F zero_unless(F a, Mk m) { return _mm256_and_ps(a, _mm256_castsi256_ps(m)); }
  static I and_(I a, I b) { return _mm256_and_si256(a, b); }
  static I blend(I a, I b, I m) { return _mm256_blendv_epi8(a, b, m); }  // m ? b : a
  static I srl(I a, int n) { return _mm256_srli_epi32(a, n); }
  static unsigned mask(I a) { return static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(a))); }
  static F to_float(I a) { return _mm256_cvtepi32_ps(a); }  // round to nearest, as static_cast
  static I trunc(F a) { return _mm256_cvttps_epi32(a); }    // toward zero, as static_cast<int>
  static F as_float(I a) { return _mm256_castsi256_ps(a); }
  static I as_int(F a) { return _mm256_castps_si256(a); }
  static F addf(F a, F b) { return _mm256_add_ps(a, b); }
  static F subf(F a, F b) { return _mm256_sub_ps(a, b); }
  static F mulf(F a, F b) { return _mm256_mul_ps(a, b); }
};
#elif defined(AGATHA_ISA_SSE41)
struct V32 {
  using I = __m128i;
  using F = __m128;
  using Mk = __m128i;
  static constexpr int W = 4;
  static I load(const void* p) { return _mm_loadu_si128(static_cast<const I*>(p)); }
  static void store(void* p, I v) { _mm_storeu_si128(static_cast<I*>(p), v); }
  static I set1(int32_t c) { return _mm_set1_epi32(c); }
  static F set1f(float c) { return _mm_set1_ps(c); }
  static I add(I a, I b) { return _mm_add_epi32(a, b); }
  static I sub(I a, I b) { return _mm_sub_epi32(a, b); }
  static I min(I a, I b) { return _mm_min_epi32(a, b); }
  static I abs(I a) { return _mm_abs_epi32(a); }
  static I gt(I a, I b) { return _mm_cmpgt_epi32(a, b); }
  static I eq(I a, I b) { return _mm_cmpeq_epi32(a, b); }
  static I or_(I a, I b) { return _mm_or_si128(a, b); }
  static Mk or_m(Mk a, Mk b) { return or_(a, b); }
  static F zero_unless(F a, Mk m) { return _mm_and_ps(a, _mm_castsi128_ps(m)); }
  static I and_(I a, I b) { return _mm_and_si128(a, b); }
  static I blend(I a, I b, I m) { return _mm_blendv_epi8(a, b, m); }
  static I srl(I a, int n) { return _mm_srli_epi32(a, n); }
  static unsigned mask(I a) { return static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(a))); }  // sign bits
  static F to_float(I a) { return _mm_cvtepi32_ps(a); }
  static I trunc(F a) { return _mm_cvttps_epi32(a); }
  static F as_float(I a) { return _mm_castsi128_ps(a); }
  static I as_int(F a) { return _mm_castps_si128(a); }
  static F addf(F a, F b) { return _mm_add_ps(a, b); }
  static F subf(F a, F b) { return _mm_sub_ps(a, b); }
  static F mulf(F a, F b) { return _mm_mul_ps(a, b); }
};
#else
#error "chain_scan.cpp must be compiled with AGATHA_ISA_SSE41, AGATHA_ISA_AVX2 or AGATHA_ISA_AVX512"
#endif

using I = V32::I;
using F = V32::F;
using Mk = V32::Mk;

// mg_log2 on every lane (x > 0).
F mg_log2(F x) {
  I bits = V32::as_int(x);
  // (biased exponent - 128) as float
  const F log2 = V32::to_float(V32::sub(V32::and_(V32::srl(bits, 23), V32::set1(255)), V32::set1(128)));
  bits = V32::or_(V32::and_(bits, V32::set1(static_cast<int32_t>(~(255u << 23)))), V32::set1(127 << 23));
  const F m = V32::as_float(bits);  // the mantissa in [1, 2)
  // (-0.34484843f * m + 2.02466578f) * m - 0.67487759f, one rounding per operation
  F quad = V32::addf(V32::mulf(V32::set1f(-0.34484843f), m), V32::set1f(2.02466578f));
  quad = V32::subf(V32::mulf(quad, m), V32::set1f(0.67487759f));
  return V32::addf(log2, quad);
}

// Anchor i and the limits, broadcast to every lane once per scan.
struct Target {
  I y, x, max_dist_ref, max_dist_qry, bw;
  F gap, skip;
  Target(const ChainAnchors& a, int64_t i, const ChainScanParams& p)
      : y(V32::set1(a.y[i])),
        x(V32::set1(static_cast<int32_t>(a.x[i]))),
        max_dist_ref(V32::set1(p.max_dist_ref)),
        max_dist_qry(V32::set1(p.max_dist_qry)),
        bw(V32::set1(p.bw)),
        gap(V32::set1f(p.gap)),
        skip(V32::set1f(p.skip)) {}
};

// The pairs of the block lo.. that comput_sc rejects (all ones): dq <= 0, dq beyond
// either distance limit, dr == 0, or off the band. Also gives the gaps.
Mk rejected(const ChainAnchors& a, const Target& t, int64_t lo, I& dq, I& dr, I& dd) {
  dq = V32::sub(t.y, V32::load(a.y + lo));  // query gap
  dr = V32::sub(t.x, V32::load(a.x + lo));  // reference gap, mod 2^32
  dd = V32::abs(V32::sub(dr, dq));
  Mk none = V32::or_m(V32::gt(V32::set1(1), dq), V32::gt(dq, t.max_dist_ref));
  none = V32::or_m(none, V32::or_m(V32::eq(dr, V32::set1(0)), V32::gt(dq, t.max_dist_qry)));
  return V32::or_m(none, V32::gt(dd, t.bw));
}

// The scores of the pairs of the block lo.. (rejected ones too: the caller drops them).
I accepted_scores(const ChainAnchors& a, const Target& t, int64_t lo, I dq, I dr, I dd) {
  const I span = V32::load(a.span + lo);
  const I zero = V32::set1(0);
  const I dg = V32::min(dr, dq);
  I sc = V32::min(span, dg);
  // The penalty applies unless the pair is on one diagonal within j's span.
  const Mk penalised = V32::or_m(V32::gt(dd, zero), V32::gt(dg, span));
  const F lin_pen = V32::addf(V32::mulf(t.gap, V32::to_float(dd)), V32::mulf(t.skip, V32::to_float(dg)));
  const Mk has_log = V32::gt(dd, zero);  // dd >= 1
  const F log_pen = V32::zero_unless(mg_log2(V32::to_float(V32::add(dd, V32::set1(1)))), has_log);  // else +0.0f
  const I pen = V32::trunc(V32::addf(lin_pen, V32::mulf(V32::set1f(0.5f), log_pen)));
  return V32::blend(sc, V32::sub(sc, pen), penalised);
}

// The scores of V32::W consecutive predecessors lo.. of anchor i, kChainNoPair where
// comput_sc rejects the pair.
I scores(const ChainAnchors& a, const Target& t, int64_t lo) {
  I dq, dr, dd;
  const Mk none = rejected(a, t, lo, dq, dr, dd);
  return V32::blend(accepted_scores(a, t, lo, dq, dr, dd), V32::set1(kChainNoPair), none);
}

}  // namespace

#if defined(AGATHA_ISA_AVX512)
int64_t chain_scan_avx512(const ChainAnchors& a, const ChainDpArrays& dp, int64_t i, int64_t st,
                          const ChainScanParams& p, ChainBest& best)
#elif defined(AGATHA_ISA_AVX2)
int64_t chain_scan_avx2(const ChainAnchors& a, const ChainDpArrays& dp, int64_t i, int64_t st,
                        const ChainScanParams& p, ChainBest& best)
#else
int64_t chain_scan_sse41(const ChainAnchors& a, const ChainDpArrays& dp, int64_t i, int64_t st,
                         const ChainScanParams& p, ChainBest& best)
#endif
{
  // Blocks of V32::W pairs ending at hi, from i - 1 down; lanes before st (another
  // window, or the padding) are masked off. Within a block the accepted pairs go through
  // the rule from the highest lane down, which is minimap2's order.
  constexpr unsigned kAll = (1u << V32::W) - 1;
  const Target target(a, i, p);
  alignas(64) int32_t sc[V32::W];
  for (int64_t hi = i - 1; hi >= st; hi -= V32::W) {
    const int64_t lo = hi - V32::W + 1;
    I dq, dr, dd;
    unsigned accepted = ~V32::mask(rejected(a, target, lo, dq, dr, dd)) & kAll;
    if (lo < st) accepted &= kAll << (st - lo);
    if (accepted == 0) continue;  // most blocks: no float work
    V32::store(sc, accepted_scores(a, target, lo, dq, dr, dd));
    do {
      const int m = 31 - __builtin_clz(accepted);
      accepted ^= 1u << m;
      const int64_t j = lo + m;
      if (chain_take(i, j, sc[m] + dp.f[j], dp, best, p.max_skip)) return j;
    } while (accepted != 0);
  }
  return st - 1;
}

#if defined(AGATHA_ISA_AVX512)
void chain_scores_avx512(const ChainAnchors& a, int64_t i, int64_t lo, int n, const ChainScanParams& p, int32_t* out)
#elif defined(AGATHA_ISA_AVX2)
void chain_scores_avx2(const ChainAnchors& a, int64_t i, int64_t lo, int n, const ChainScanParams& p, int32_t* out)
#else
void chain_scores_sse41(const ChainAnchors& a, int64_t i, int64_t lo, int n, const ChainScanParams& p, int32_t* out)
#endif
{
  // Whole vectors that end at lo + n - 1; the lanes before lo (padding or anchors the
  // caller did not ask for) are computed and dropped.
  alignas(64) int32_t buf[kChainBlock + V32::W];
  const int64_t first = lo + n - ((n + V32::W - 1) / V32::W) * V32::W;
  const Target target(a, i, p);
  int k = 0;
  for (int64_t s = first; s < lo + n; s += V32::W, k += V32::W) V32::store(buf + k, scores(a, target, s));
  const int skip = static_cast<int>(lo - first);
  for (int m = 0; m < n; ++m) out[m] = buf[skip + m];
}

}  // namespace agatha::kernels
