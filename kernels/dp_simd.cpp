// kernels/dp_simd.cpp — the guided DP with SIMD: one source, compiled once per
// instruction set. meson builds it with -msse4.1 -DAGATHA_ISA_SSE41 (16 cells a step,
// kernel extd2_sse41) and with -mavx2 -DAGATHA_ISA_AVX2 (32 cells a step, extd2_avx2).
//
// The computation is the one of dp_scalar.cpp, cell for cell: the same 8-bit
// difference arrays, the same 16-cell rounding of the band (a 32-wide step that would
// pass the rounded end stores only its low 16 cells), the same stale scores, the same
// tie rules. Only the order of independent operations within an anti-diagonal
// differs, so results are bit-identical to the oracle.
#include "dp_common.hpp"
#include "dp_kernels.hpp"

#include <immintrin.h>

#include <cstring>

namespace agatha::kernels {
namespace {

// ---------------------------------------------------------------------------------------
// Vector of int8 lanes
// ---------------------------------------------------------------------------------------
#if defined(AGATHA_ISA_AVX2)
struct Vec {
  using T = __m256i;
  static constexpr int W = 32;
  static T load(const void* p) { return _mm256_loadu_si256(static_cast<const T*>(p)); }
  static inline void store(void* p, T v) { _mm256_storeu_si256(static_cast<T*>(p), v); }
  // Stores lanes 0..15 only (the last 16-cell block of a rounded range).
  static void store_low(void* p, T v) { _mm_storeu_si128(static_cast<__m128i*>(p), _mm256_castsi256_si128(v)); }
  static T set1(int8_t c) { return _mm256_set1_epi8(c); }
  static T zero() { return _mm256_setzero_si256(); }
  static T add(T a, T b) { return _mm256_add_epi8(a, b); }   // wrapping
  static T sub(T a, T b) { return _mm256_sub_epi8(a, b); }   // wrapping
  static T max(T a, T b) { return _mm256_max_epi8(a, b); }   // signed
  static T min(T a, T b) { return _mm256_min_epi8(a, b); }   // signed
  static T gt(T a, T b) { return _mm256_cmpgt_epi8(a, b); }  // a > b ? 0xff : 0
  static T eq(T a, T b) { return _mm256_cmpeq_epi8(a, b); }
  static T and_(T a, T b) { return _mm256_and_si256(a, b); }
  static T andnot(T a, T b) { return _mm256_andnot_si256(a, b); }  // ~a & b
  static T or_(T a, T b) { return _mm256_or_si256(a, b); }
  static T blend(T a, T b, T m) { return _mm256_blendv_epi8(a, b, m); }  // m ? b : a
  // Lane k of the result is lane k-1 of cur; lane 0 is the last lane of prev. The
  // permute brings prev's high half next to cur's low half so alignr can cross the
  // 128-bit boundary.
  static T shift_in(T cur, T prev) { return _mm256_alignr_epi8(cur, _mm256_permute2x128_si256(prev, cur, 0x21), 15); }
  // A vector whose last lane is c (the value carried into lane 0 by shift_in).
  static T carry(int8_t c) { return _mm256_insert_epi8(_mm256_setzero_si256(), c, 31); }
};
#elif defined(AGATHA_ISA_SSE41)
struct Vec {
  using T = __m128i;
  static constexpr int W = 16;
  static T load(const void* p) { return _mm_loadu_si128(static_cast<const T*>(p)); }
  static inline void store(void* p, T v) { _mm_storeu_si128(static_cast<T*>(p), v); }
  static void store_low(void* p, T v) { store(p, v); }
  static T set1(int8_t c) { return _mm_set1_epi8(c); }
  static T zero() { return _mm_setzero_si128(); }
  static T add(T a, T b) { return _mm_add_epi8(a, b); }
  static T sub(T a, T b) { return _mm_sub_epi8(a, b); }
  static T max(T a, T b) { return _mm_max_epi8(a, b); }
  static T min(T a, T b) { return _mm_min_epi8(a, b); }
  static T gt(T a, T b) { return _mm_cmpgt_epi8(a, b); }
  static T eq(T a, T b) { return _mm_cmpeq_epi8(a, b); }
  static T and_(T a, T b) { return _mm_and_si128(a, b); }
  static T andnot(T a, T b) { return _mm_andnot_si128(a, b); }
  static T or_(T a, T b) { return _mm_or_si128(a, b); }
  static T blend(T a, T b, T m) { return _mm_blendv_epi8(a, b, m); }
  static T shift_in(T cur, T prev) { return _mm_alignr_epi8(cur, prev, 15); }
  static T carry(int8_t c) { return _mm_slli_si128(_mm_cvtsi32_si128(static_cast<uint8_t>(c)), 15); }
};
#else
#error "dp_simd.cpp must be compiled with AGATHA_ISA_SSE41 or AGATHA_ISA_AVX2"
#endif

using V = Vec::T;

struct Arrays {
  int8_t *u, *v, *x, *y, *x2, *y2, *s;
};

Arrays init_arrays(const Setup& st, Workspace& ws) {
  const size_t stride = static_cast<size_t>(st.tlen16) + kPad;
  int8_t* base = ws.diff.reserve(stride * 7);
  Arrays a{base,
           base + stride,
           base + 2 * stride,
           base + 3 * stride,
           base + 4 * stride,
           base + 5 * stride,
           base + 6 * stride};
  std::memset(a.u, static_cast<uint8_t>(-st.qe), stride * 4);    // u v x y
  std::memset(a.x2, static_cast<uint8_t>(-st.qe2), stride * 2);  // x2 y2
  std::memset(a.s, 0, stride);
  return a;
}

// Substitution scores in 16-cell chunks starting at st0 while the chunk start <= en0
// (two chunks per step when both qualify and the vector holds 32).
void refresh_scores(const Setup& st, const uint8_t* sf, const uint8_t* qrr, const AntiDiagonal& d, int8_t* s) {
  const V mch = Vec::set1(st.sc_match), mis = Vec::set1(st.sc_mismatch), amb = Vec::set1(st.sc_ambi);
  const V n_code = Vec::set1(4);
  for (int t = d.st0; t <= d.en0; t += Vec::W) {
    const V tb = Vec::load(sf + t), qb = Vec::load(qrr + t);
    const V is_n = Vec::or_(Vec::eq(tb, n_code), Vec::eq(qb, n_code));
    V sc = Vec::blend(mis, mch, Vec::eq(tb, qb));  // match or mismatch
    sc = Vec::blend(sc, amb, is_n);                // N anywhere overrides
    if (Vec::W == kBlock || t + kBlock <= d.en0)
      Vec::store(s + t, sc);
    else
      Vec::store_low(s + t, sc);  // the second chunk would start past en0
  }
}

enum class Mode { kScoreOnly, kLeft, kRight };

// Continuation bits from four all-ones/zero lane masks, without constants (which
// would be spilled): returns -(8*[ma] + 16*[mb] + 32*[ma2] + 64*[mb2]) per lane, built
// by doubling (x + x) since a set mask is -1.
inline V cont_bits(V ma, V mb, V ma2, V mb2) {
  V c = Vec::add(mb2, mb2);  // -2[mb2]
  c = Vec::add(c, ma2);      // -(2[mb2] + [ma2])
  c = Vec::add(c, c);
  c = Vec::add(c, mb);
  c = Vec::add(c, c);
  c = Vec::add(c, ma);  // -(8[mb2] + 4[ma2] + 2[mb] + [ma])
  c = Vec::add(c, c);
  c = Vec::add(c, c);
  return Vec::add(c, c);  // times 8: bits 3..6
}

// The cells of one anti-diagonal, [st, en], in place. x_c, v_c, x2_c carry the r-1
// values at st-1 into lane 0; dir receives one direction byte per cell.
template <Mode M>
void core_loop(const Setup& st, const Arrays& ar, const AntiDiagonal& d, int8_t x_c, int8_t v_c, int8_t x2_c,
               uint8_t* dir) {
  const V zero = Vec::zero(), q = Vec::set1(st.q), q2 = Vec::set1(st.q2);
  const V qe = Vec::set1(st.qe), qe2 = Vec::set1(st.qe2), mch = Vec::set1(st.sc_match);
  const V one = Vec::set1(1), two = Vec::set1(2), three = Vec::set1(3), four = Vec::set1(4);
  V x_prev = Vec::carry(x_c), v_prev = Vec::carry(v_c), x2_prev = Vec::carry(x2_c);
  for (int t = d.st; t <= d.en; t += Vec::W) {
    const bool half = Vec::W > kBlock && t + kBlock > d.en;  // only 16 cells left
    // Phase 1: gather r-1 values; lanes of xt1/vt1/x2t1 are "at t-1".
    V z = Vec::load(ar.s + t);
    const V xt = Vec::load(ar.x + t), vt = Vec::load(ar.v + t), x2t = Vec::load(ar.x2 + t);
    const V xt1 = Vec::shift_in(xt, x_prev), vt1 = Vec::shift_in(vt, v_prev), x2t1 = Vec::shift_in(x2t, x2_prev);
    x_prev = xt, v_prev = vt, x2_prev = x2t;
    const V ut = Vec::load(ar.u + t);
    V a = Vec::add(xt1, vt1);                 // E - H(t-1,j-1)
    V b = Vec::add(Vec::load(ar.y + t), ut);  // F - H(t-1,j-1)
    V a2 = Vec::add(x2t1, vt1);
    V b2 = Vec::add(Vec::load(ar.y2 + t), ut);
    // Phase 2: H - H(t-1,j-1) = max of the five sources, and which one won.
    V dsrc = zero;
    if constexpr (M == Mode::kLeft) {  // first maximal source
      dsrc = Vec::and_(Vec::gt(a, z), one);
      z = Vec::max(z, a);
      dsrc = Vec::blend(dsrc, two, Vec::gt(b, z));
      z = Vec::max(z, b);
      dsrc = Vec::blend(dsrc, three, Vec::gt(a2, z));
      z = Vec::max(z, a2);
      dsrc = Vec::blend(dsrc, four, Vec::gt(b2, z));
      z = Vec::max(z, b2);
    } else if constexpr (M == Mode::kRight) {  // last maximal source
      dsrc = Vec::andnot(Vec::gt(z, a), one);
      z = Vec::max(z, a);
      dsrc = Vec::blend(two, dsrc, Vec::gt(z, b));
      z = Vec::max(z, b);
      dsrc = Vec::blend(three, dsrc, Vec::gt(z, a2));
      z = Vec::max(z, a2);
      dsrc = Vec::blend(four, dsrc, Vec::gt(z, b2));
      z = Vec::max(z, b2);
    } else {
      z = Vec::max(Vec::max(Vec::max(z, a), Vec::max(b, a2)), b2);
    }
    z = Vec::min(z, mch);
    // Phase 3: new differences. u = H - H(t-1,j), v = H - H(t,j-1).
    const V u_new = Vec::sub(z, vt1), v_new = Vec::sub(z, ut);
    V tmp = Vec::sub(z, q);
    a = Vec::sub(a, tmp), b = Vec::sub(b, tmp);  // gap state - (H - q): > 0 continues
    tmp = Vec::sub(z, q2);
    a2 = Vec::sub(a2, tmp), b2 = Vec::sub(b2, tmp);
    V xn, yn, x2n, y2n;
    if constexpr (M == Mode::kRight) {  // continuation when >= 0
      const V ma = Vec::gt(zero, a), mb = Vec::gt(zero, b), ma2 = Vec::gt(zero, a2), mb2 = Vec::gt(zero, b2);
      xn = Vec::sub(Vec::andnot(ma, a), qe), yn = Vec::sub(Vec::andnot(mb, b), qe);
      x2n = Vec::sub(Vec::andnot(ma2, a2), qe2), y2n = Vec::sub(Vec::andnot(mb2, b2), qe2);
      // Continuation where the "< 0" masks are clear: all four bits (0x78) minus the
      // masked ones.
      dsrc = Vec::add(dsrc, Vec::add(cont_bits(ma, mb, ma2, mb2), Vec::set1(0x78)));
    } else {  // continuation when > 0
      const V ma = Vec::gt(a, zero), mb = Vec::gt(b, zero), ma2 = Vec::gt(a2, zero), mb2 = Vec::gt(b2, zero);
      xn = Vec::sub(Vec::and_(ma, a), qe), yn = Vec::sub(Vec::and_(mb, b), qe);
      x2n = Vec::sub(Vec::and_(ma2, a2), qe2), y2n = Vec::sub(Vec::and_(mb2, b2), qe2);
      if constexpr (M == Mode::kLeft) dsrc = Vec::sub(dsrc, cont_bits(ma, mb, ma2, mb2));
    }
    // Phase 4: store (16 lanes only when the rounded range ends mid-vector).
    auto put = [half](int8_t* p, V val) { half ? Vec::store_low(p, val) : Vec::store(p, val); };
    put(ar.u + t, u_new), put(ar.v + t, v_new);
    put(ar.x + t, xn), put(ar.y + t, yn), put(ar.x2 + t, x2n), put(ar.y2 + t, y2n);
    if constexpr (M != Mode::kScoreOnly) put(reinterpret_cast<int8_t*>(dir + (t - d.st)), dsrc);
  }
}

// ---------------------------------------------------------------------------------------
// Exact maxima (32-bit H), with the tie rule of dp_scalar.cpp: lanes are the classes
// (t - st0) mod 4, each keeping its first strictly larger value.
// ---------------------------------------------------------------------------------------
inline __m128i widen4(const int8_t* p) {
  int32_t w;
  std::memcpy(&w, p, 4);
  return _mm_cvtepi8_epi32(_mm_cvtsi32_si128(w));
}

// One 4-cell step on class accumulators (mh, mt hold value and position per class).
inline void step4(int32_t* H, const int8_t* v, int t, __m128i& mh, __m128i& mt) {
  const __m128i h = _mm_add_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(H + t)), widen4(v + t));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(H + t), h);
  const __m128i gt = _mm_cmpgt_epi32(h, mh);
  mh = _mm_blendv_epi8(mh, h, gt);
  mt = _mm_blendv_epi8(mt, _mm_add_epi32(_mm_set1_epi32(t), _mm_setr_epi32(0, 1, 2, 3)), gt);
}

void update_h(const AntiDiagonal& d, int r, const int8_t* u, const int8_t* v, int32_t qe, int32_t* H, int32_t& max_h,
              int& max_t) {
  if (r == 0) {
    H[0] = v[0] - qe;
    max_h = H[0], max_t = 0;
    return;
  }
  H[d.en0] = d.en0 > 0 ? H[d.en0 - 1] + u[d.en0] : H[d.en0] + v[d.en0];
  max_h = H[d.en0], max_t = d.en0;
  const int en1 = d.st0 + (d.en0 - d.st0) / 4 * 4;
  __m128i mh = _mm_set1_epi32(max_h), mt = _mm_set1_epi32(max_t);
  int t = d.st0;
#if defined(AGATHA_ISA_AVX2)
  // Eight lanes: lane k and lane k+4 hold the same class; merge them by larger value,
  // then earlier position (both lanes only ever keep their first maximum).
  const int en2 = d.st0 + (d.en0 - d.st0) / 8 * 8;
  if (en2 > t) {
    __m256i mh8 = _mm256_set1_epi32(max_h), mt8 = _mm256_set1_epi32(max_t);
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (; t < en2; t += 8) {
      const __m256i h =
          _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(H + t)),
                           _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(v + t))));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(H + t), h);
      const __m256i gt = _mm256_cmpgt_epi32(h, mh8);
      mh8 = _mm256_blendv_epi8(mh8, h, gt);
      mt8 = _mm256_blendv_epi8(mt8, _mm256_add_epi32(_mm256_set1_epi32(t), lane), gt);
    }
    const __m128i h_lo = _mm256_castsi256_si128(mh8), h_hi = _mm256_extracti128_si256(mh8, 1);
    const __m128i t_lo = _mm256_castsi256_si128(mt8), t_hi = _mm256_extracti128_si256(mt8, 1);
    const __m128i hi_wins = _mm_or_si128(_mm_cmpgt_epi32(h_hi, h_lo),
                                         _mm_and_si128(_mm_cmpeq_epi32(h_hi, h_lo), _mm_cmplt_epi32(t_hi, t_lo)));
    mh = _mm_blendv_epi8(h_lo, h_hi, hi_wins);
    mt = _mm_blendv_epi8(t_lo, t_hi, hi_wins);
  }
#endif
  for (; t < en1; t += 4) step4(H, v, t, mh, mt);
  alignas(16) int32_t hh[4], tt[4];
  _mm_store_si128(reinterpret_cast<__m128i*>(hh), mh);
  _mm_store_si128(reinterpret_cast<__m128i*>(tt), mt);
  for (int k = 0; k < 4; ++k)
    if (hh[k] > max_h) max_h = hh[k], max_t = tt[k];
  for (; t < d.en0; ++t) {
    H[t] += v[t];
    if (H[t] > max_h) max_h = H[t], max_t = t;
  }
}

}  // namespace

#if defined(AGATHA_ISA_AVX2)
void extd2_avx2(const DpTask& task, DpResult& res, Workspace& ws)
#else
void extd2_sse41(const DpTask& task, DpResult& res, Workspace& ws)
#endif
{
  res = DpResult{};
  Setup st;
  if (!prepare(task, st)) return;
  const Mode mode = !st.with_cigar ? Mode::kScoreOnly : (task.flag & dp_flag::kRight) ? Mode::kRight : Mode::kLeft;
  const Arrays ar = init_arrays(st, ws);
  const uint8_t* sf = layout_sequences(task, st, ws);
  const uint8_t* qr = sf + st.tlen16;
  int32_t* H = nullptr;
  if (!st.approx_max) {
    H = ws.H.reserve(static_cast<size_t>(st.tlen16) + kPad);
    std::fill(H, H + st.tlen16, kDpNegInf);
  }
  if (st.with_cigar) prepare_traceback(st, ws);
  const int n_diag = st.qlen + st.tlen - 1;
  size_t dir_used = 0;
  int32_t h0 = 0;
  int last_h0_t = 0, last_st = -1, last_en = -1;

  for (int r = 0; r < n_diag; ++r) {
    AntiDiagonal d;
    if (!anti_diagonal(st, r, d)) {
      res.zdropped = true;
      break;
    }
    res.cells += static_cast<uint64_t>(d.en0 - d.st0 + 1);
    int8_t x_c, x2_c, v_c;  // r-1 values at st-1 (see dp_scalar.cpp)
    if (d.st > 0) {
      if (d.st - 1 >= last_st && d.st - 1 <= last_en)
        x_c = ar.x[d.st - 1], x2_c = ar.x2[d.st - 1], v_c = ar.v[d.st - 1];
      else
        x_c = static_cast<int8_t>(-st.qe), x2_c = static_cast<int8_t>(-st.qe2), v_c = static_cast<int8_t>(-st.qe);
    } else {
      x_c = static_cast<int8_t>(-st.qe), x2_c = static_cast<int8_t>(-st.qe2), v_c = boundary_diff(st, r);
    }
    if (d.en >= r) {
      ar.y[r] = static_cast<int8_t>(-st.qe), ar.y2[r] = static_cast<int8_t>(-st.qe2);
      ar.u[r] = boundary_diff(st, r);
    }
    refresh_scores(st, sf, qr + (st.qlen - 1 - r), d, ar.s);

    uint8_t* dir = nullptr;
    if (st.with_cigar) {
      ws.row[r] = dir_used, ws.off[r] = d.st, ws.off_end[r] = d.en;
      dir = ws.dir.data() + dir_used;
      dir_used += static_cast<size_t>(d.en - d.st + 1);
    }
    switch (mode) {
      case Mode::kScoreOnly: core_loop<Mode::kScoreOnly>(st, ar, d, x_c, v_c, x2_c, dir); break;
      case Mode::kLeft: core_loop<Mode::kLeft>(st, ar, d, x_c, v_c, x2_c, dir); break;
      case Mode::kRight: core_loop<Mode::kRight>(st, ar, d, x_c, v_c, x2_c, dir); break;
    }

    if (!st.approx_max) {
      int32_t max_h;
      int max_t;
      update_h(d, r, ar.u, ar.v, st.qe, H, max_h, max_t);
      if (d.en0 == st.tlen - 1 && H[d.en0] > res.mte) res.mte = H[d.en0], res.mte_q = r - d.en;
      if (r - d.st0 == st.qlen - 1 && H[d.st0] > res.mqe) res.mqe = H[d.st0], res.mqe_t = d.st0;
      if (apply_zdrop(res, max_h, r, max_t, task.zdrop, st.e2)) break;
      if (r == st.qlen + st.tlen - 2 && d.en0 == st.tlen - 1) res.score = H[st.tlen - 1];
    } else {
      if (r > 0)
        approx_step(ar.u, ar.v, d, h0, last_h0_t);
      else
        h0 = ar.v[0] - st.qe, last_h0_t = 0;
      if ((task.flag & dp_flag::kApproxDrop) && apply_zdrop(res, h0, r, last_h0_t, task.zdrop, st.e2)) break;
      if (r == st.qlen + st.tlen - 2 && d.en0 == st.tlen - 1) res.score = h0;
    }
    last_st = d.st, last_en = d.en;
  }
  finish_cigar(task, st, ws, res);
}

}  // namespace agatha::kernels
