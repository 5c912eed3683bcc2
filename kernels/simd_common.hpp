// kernels/simd_common.hpp — what the SIMD kernels (dp_simd.cpp, dp_splice_simd.cpp)
// share: the vector of int8 lanes of the instruction set the file is compiled for, and
// the exact-maximum update of an anti-diagonal in 32-bit H.
//
// For sources compiled once per instruction set (meson: -msse4.1 -DAGATHA_ISA_SSE41,
// -mavx2 -DAGATHA_ISA_AVX2, -mavx512f -mavx512bw -mavx512vl -DAGATHA_ISA_AVX512);
// without one of the macros it declares nothing (those sources refuse to compile then).
//
// Besides the plain lane operations, Vec has the compound ones the kernels' source-
// selection and continuation-bit steps are made of (take_gt, or_if_pos, ...): on SSE4.1
// and AVX2 each is the compare-and-mask sequence it always was; on AVX-512 the compare
// writes a mask register and the result is one masked move or OR, with no blend. Everything here is in an unnamed
// namespace on purpose: each compilation gets its own copy, so the linker can never
// give the SSE4.1 kernel a function compiled for AVX2 (inline functions of one name
// would be merged across the two builds).
#pragma once

#include "dp_common.hpp"

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#if defined(AGATHA_ISA_AVX512) || defined(AGATHA_ISA_AVX2) || defined(AGATHA_ISA_SSE41)
namespace agatha::kernels {
namespace {

// ---------------------------------------------------------------------------------------
// Vector of int8 lanes
// ---------------------------------------------------------------------------------------
// W zero bytes, W 0xff bytes, W zero bytes: a load at ramp + W - lo sets the lanes >= lo,
// one at ramp + 2W - 1 - hi the lanes <= hi (0 <= lo, hi < W).
template <int W>
struct Ramp {
  alignas(64) int8_t b[3 * W];
  constexpr Ramp() : b{} {
    for (int i = W; i < 2 * W; ++i) b[i] = -1;
  }
};
template <int W>
inline constexpr Ramp<W> kRamp{};

#if defined(AGATHA_ISA_AVX512)
struct Vec {
  using T = __m512i;
  using M = __mmask64;
  static constexpr int W = 64;
  static T load(const void* p) { return _mm512_loadu_si512(p); }
  static inline void store(void* p, T v) { _mm512_storeu_si512(p, v); }
  // Stores lanes 0..n-1 only (n < W: the last, partial vector of a range).
  static void store_part(void* p, T v, int n) { _mm512_mask_storeu_epi8(p, lanes_below(n), v); }
  static M lanes_below(int n) { return n >= 64 ? ~M{0} : (M{1} << n) - 1; }
  static T set1(int8_t c) { return _mm512_set1_epi8(c); }
  static T zero() { return _mm512_setzero_si512(); }
  static T add(T a, T b) { return _mm512_add_epi8(a, b); }   // wrapping
  static T sub(T a, T b) { return _mm512_sub_epi8(a, b); }   // wrapping
  static T max(T a, T b) { return _mm512_max_epi8(a, b); }   // signed
  static T min(T a, T b) { return _mm512_min_epi8(a, b); }   // signed
  static T max_u(T a, T b) { return _mm512_max_epu8(a, b); }  // unsigned
  static T and_(T a, T b) { return _mm512_and_si512(a, b); }
  static T andnot(T a, T b) { return _mm512_andnot_si512(a, b); }  // ~a & b
  static T or_(T a, T b) { return _mm512_or_si512(a, b); }
  static T xor_(T a, T b) { return _mm512_xor_si512(a, b); }
  // a > b ? n : 0 / a <= b ? n : 0
  static T sel_gt(T a, T b, T n) { return _mm512_maskz_mov_epi8(_mm512_cmpgt_epi8_mask(a, b), n); }
  static T sel_le(T a, T b, T n) { return _mm512_maskz_mov_epi8(_mm512_cmple_epi8_mask(a, b), n); }
  // a > b ? n : d / a <= b ? n : d
  static T take_gt(T d, T a, T b, T n) { return _mm512_mask_mov_epi8(d, _mm512_cmpgt_epi8_mask(a, b), n); }
  static T take_le(T d, T a, T b, T n) { return _mm512_mask_mov_epi8(d, _mm512_cmple_epi8_mask(a, b), n); }
  // d | n where b > 0 (b >= 0) / where a > b / where a <= b. The kernels OR in one
  // continuation bit, which d never holds yet, so the OR is a byte-masked add.
  static T or_if_pos(T d, T n, T b) { return _mm512_mask_add_epi8(d, _mm512_test_epi8_mask(b, b), d, n); }
  static T or_if_gt(T d, T a, T b, T n) { return _mm512_mask_add_epi8(d, _mm512_cmpgt_epi8_mask(a, b), d, n); }
  static T or_if_le(T d, T a, T b, T n) { return _mm512_mask_add_epi8(d, _mm512_cmple_epi8_mask(a, b), d, n); }
  // The lanes where a > b / a <= b / b != 0, as a mask; a mask stored as 8 bytes.
  static M gt_mask(T a, T b) { return _mm512_cmpgt_epi8_mask(a, b); }
  static M le_mask(T a, T b) { return _mm512_cmple_epi8_mask(a, b); }
  static M nonzero_mask(T b) { return _mm512_test_epi8_mask(b, b); }
  static void store_mask(void* p, M m) { _store_mask64(static_cast<__mmask64*>(p), m); }
  // Lanes lo..hi from fresh, the others from old (0 <= lo, hi < W).
  static T keep_outside(T old, T fresh, int lo, int hi) {
    return _mm512_mask_mov_epi8(old, lanes_below(hi + 1) & ~lanes_below(lo), fresh);
  }
  // table[idx] per lane (idx < 16; the 16-byte table repeated in every 128-bit lane).
  static T lookup(T table, T idx) { return _mm512_shuffle_epi8(table, idx); }
  static T table16(const int8_t* t) {
    return _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t)));
  }
  static T opaque(T v) {
    asm("" : "+v"(v));
    return v;
  }
};
// Half of an AVX-512 vector: 32 lanes with the same mask-register operations. On
// processors that split a 512-bit operation into two 256-bit halves, it costs half as
// much, so the last cells of an anti-diagonal, when 32 or fewer remain, are computed in
// one of these rather than in a vector that is mostly past the range.
struct Half {
  using T = __m256i;
  using M = __mmask32;
  static constexpr int W = 32;
  static T load(const void* p) { return _mm256_loadu_si256(static_cast<const T*>(p)); }
  static inline void store(void* p, T v) { _mm256_storeu_si256(static_cast<T*>(p), v); }
  static void store_part(void* p, T v, int n) { _mm256_mask_storeu_epi8(p, lanes_below(n), v); }
  static M lanes_below(int n) { return n >= 32 ? ~M{0} : (M{1} << n) - 1; }
  static T add(T a, T b) { return _mm256_add_epi8(a, b); }
  static T sub(T a, T b) { return _mm256_sub_epi8(a, b); }
  static T max(T a, T b) { return _mm256_max_epi8(a, b); }
  static T min(T a, T b) { return _mm256_min_epi8(a, b); }
  static T xor_(T a, T b) { return _mm256_xor_si256(a, b); }
  static T sel_gt(T a, T b, T n) { return _mm256_maskz_mov_epi8(_mm256_cmpgt_epi8_mask(a, b), n); }
  static T sel_le(T a, T b, T n) { return _mm256_maskz_mov_epi8(_mm256_cmple_epi8_mask(a, b), n); }
  static T take_gt(T d, T a, T b, T n) { return _mm256_mask_mov_epi8(d, _mm256_cmpgt_epi8_mask(a, b), n); }
  static T take_le(T d, T a, T b, T n) { return _mm256_mask_mov_epi8(d, _mm256_cmple_epi8_mask(a, b), n); }
  static T or_if_pos(T d, T n, T b) { return _mm256_mask_add_epi8(d, _mm256_test_epi8_mask(b, b), d, n); }
  static T or_if_le(T d, T a, T b, T n) { return _mm256_mask_add_epi8(d, _mm256_cmple_epi8_mask(a, b), d, n); }
  static M gt_mask(T a, T b) { return _mm256_cmpgt_epi8_mask(a, b); }
  static M le_mask(T a, T b) { return _mm256_cmple_epi8_mask(a, b); }
  static M nonzero_mask(T b) { return _mm256_test_epi8_mask(b, b); }
  // Stored as 8 bytes like a full vector's mask, the upper 4 zero.
  static void store_mask(void* p, M m) { _store_mask64(static_cast<__mmask64*>(p), __mmask64{m}); }
  static T keep_outside(T old, T fresh, int lo, int hi) {
    return _mm256_mask_mov_epi8(old, lanes_below(hi + 1) & ~lanes_below(lo), fresh);
  }
  static T lookup(T table, T idx) { return _mm256_shuffle_epi8(table, idx); }
  // The low half of a full vector (no instruction: the same register).
  static T of(__m512i v) { return _mm512_castsi512_si256(v); }
};
#elif defined(AGATHA_ISA_AVX2)
struct ByteVec {  // Vec below adds the compound operations
  using T = __m256i;
  static constexpr int W = 32;
  static T load(const void* p) { return _mm256_loadu_si256(static_cast<const T*>(p)); }
  static inline void store(void* p, T v) { _mm256_storeu_si256(static_cast<T*>(p), v); }
  // Stores lanes 0..n-1 only (the last, partial vector of a range; with ranges rounded
  // to 16 cells, n is 16).
  static void store_part(void* p, T v, int /*n == 16*/) {
    _mm_storeu_si128(static_cast<__m128i*>(p), _mm256_castsi256_si128(v));
  }
  static T set1(int8_t c) { return _mm256_set1_epi8(c); }
  static T zero() { return _mm256_setzero_si256(); }
  static T add(T a, T b) { return _mm256_add_epi8(a, b); }   // wrapping
  static T sub(T a, T b) { return _mm256_sub_epi8(a, b); }   // wrapping
  static T max(T a, T b) { return _mm256_max_epi8(a, b); }   // signed
  static T min(T a, T b) { return _mm256_min_epi8(a, b); }   // signed
  static T max_u(T a, T b) { return _mm256_max_epu8(a, b); }  // unsigned
  static T gt(T a, T b) { return _mm256_cmpgt_epi8(a, b); }  // a > b ? 0xff : 0
  // a where b > 0, 0 where b == 0 (and -a where b < 0): for b >= 0, "b > 0 ? a : 0" in
  // one instruction.
  static T sign(T a, T b) { return _mm256_sign_epi8(a, b); }
  static T eq(T a, T b) { return _mm256_cmpeq_epi8(a, b); }
  static T and_(T a, T b) { return _mm256_and_si256(a, b); }
  static T andnot(T a, T b) { return _mm256_andnot_si256(a, b); }  // ~a & b
  static T or_(T a, T b) { return _mm256_or_si256(a, b); }
  static T blend(T a, T b, T m) { return _mm256_blendv_epi8(a, b, m); }  // m ? b : a
  static T xor_(T a, T b) { return _mm256_xor_si256(a, b); }
  // table[idx] per lane (idx < 16; the 16-byte table repeated in both halves).
  static T lookup(T table, T idx) { return _mm256_shuffle_epi8(table, idx); }
  static T table16(const int8_t* t) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t)));
  }
  // v, with its value hidden from the optimiser (see Params in dp_simd.cpp).
  static T opaque(T v) {
    asm("" : "+x"(v));
    return v;
  }
};
#elif defined(AGATHA_ISA_SSE41)
struct ByteVec {  // Vec below adds the compound operations
  using T = __m128i;
  static constexpr int W = 16;
  static T load(const void* p) { return _mm_loadu_si128(static_cast<const T*>(p)); }
  static inline void store(void* p, T v) { _mm_storeu_si128(static_cast<T*>(p), v); }
  static void store_part(void* p, T v, int /*n*/) { store(p, v); }  // (never partial: W = 16)
  static T set1(int8_t c) { return _mm_set1_epi8(c); }
  static T zero() { return _mm_setzero_si128(); }
  static T add(T a, T b) { return _mm_add_epi8(a, b); }
  static T sub(T a, T b) { return _mm_sub_epi8(a, b); }
  static T max(T a, T b) { return _mm_max_epi8(a, b); }
  static T min(T a, T b) { return _mm_min_epi8(a, b); }
  static T max_u(T a, T b) { return _mm_max_epu8(a, b); }
  static T gt(T a, T b) { return _mm_cmpgt_epi8(a, b); }
  static T sign(T a, T b) { return _mm_sign_epi8(a, b); }  // as the AVX2 one
  static T eq(T a, T b) { return _mm_cmpeq_epi8(a, b); }
  static T and_(T a, T b) { return _mm_and_si128(a, b); }
  static T andnot(T a, T b) { return _mm_andnot_si128(a, b); }
  static T or_(T a, T b) { return _mm_or_si128(a, b); }
  static T blend(T a, T b, T m) { return _mm_blendv_epi8(a, b, m); }
  static T xor_(T a, T b) { return _mm_xor_si128(a, b); }
  static T lookup(T table, T idx) { return _mm_shuffle_epi8(table, idx); }
  static T table16(const int8_t* t) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(t)); }
  static T opaque(T v) {
    asm("" : "+x"(v));
    return v;
  }
};
#endif

#if !defined(AGATHA_ISA_AVX512)
// SSE4.1 and AVX2: masks are byte lanes of all ones, and each compound operation is the
// compare-and-mask sequence it stands for.
struct Vec : ByteVec {
  static T sel_gt(T a, T b, T n) { return and_(gt(a, b), n); }
  static T sel_le(T a, T b, T n) { return andnot(gt(a, b), n); }
  // n is larger (unsigned) than every value d holds, so "a > b ? n : d" is a max.
  static T take_gt(T d, T a, T b, T n) { return max_u(d, sel_gt(a, b, n)); }
  static T take_le(T d, T a, T b, T n) { return max_u(d, sel_le(a, b, n)); }
  static T or_if_pos(T d, T n, T b) { return or_(d, sign(n, b)); }
  static T or_if_gt(T d, T a, T b, T n) { return or_(d, sel_gt(a, b, n)); }
  static T or_if_le(T d, T a, T b, T n) { return or_(d, sel_le(a, b, n)); }
  static T keep_outside(T old, T fresh, int lo, int hi) {
    return blend(old, fresh, and_(load(kRamp<W>.b + W - lo), load(kRamp<W>.b + 2 * W - 1 - hi)));
  }
};
#endif

using V = Vec::T;

// kScoreOnly: no direction bytes; kLeft: gaps left-aligned (the first maximal source of H
// wins); kRight: right-aligned (the last).
enum class Mode { kScoreOnly, kLeft, kRight };

// The larger of z and the sources, and which one it came from: z becomes the maximum, and
// the result holds, per lane, the number (num) of the source that won, 0 where z itself
// did. Under kLeft a source wins only where it is larger than everything before it (the
// first maximal one); under kRight where it is at least as large (the last). Each number
// must be larger (unsigned) than the ones before it (take_gt/take_le rely on it).
template <Mode M, class VX>
__attribute__((always_inline)) inline typename VX::T max_source_from(typename VX::T d, typename VX::T&) {
  return d;
}
template <Mode M, class VX, class... Rest>
__attribute__((always_inline)) inline typename VX::T max_source_from(typename VX::T d, typename VX::T& z,
                                                                     typename VX::T src, typename VX::T num,
                                                                     Rest... rest) {
  d = M == Mode::kLeft ? VX::take_gt(d, src, z, num) : VX::take_le(d, z, src, num);
  z = VX::max(z, src);
  return max_source_from<M, VX>(d, z, rest...);
}
template <Mode M, class VX, class... Rest>
__attribute__((always_inline)) inline typename VX::T max_source(typename VX::T& z, typename VX::T src,
                                                                typename VX::T num, Rest... rest) {
  static_assert(M != Mode::kScoreOnly && sizeof...(Rest) % 2 == 0, "pairs of (source, number)");
  const typename VX::T d = M == Mode::kLeft ? VX::sel_gt(src, z, num) : VX::sel_le(z, src, num);
  z = VX::max(z, src);
  return max_source_from<M, VX>(d, z, rest...);
}

// ---------------------------------------------------------------------------------------
// Exact maxima (32-bit H), with the tie rule of dp_scalar.cpp: the classes (t - st0)
// mod 4, each represented by its first largest value.
// ---------------------------------------------------------------------------------------
inline __m128i widen4(const int8_t* p) {
  int32_t w;
  std::memcpy(&w, p, 4);
  return _mm_cvtepi8_epi32(_mm_cvtsi32_si128(w));
}

// H[t] += v[t] on 4 cells; returns the new values.
inline __m128i update4(int32_t* H, const int8_t* v, int t) {
  const __m128i h = _mm_add_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(H + t)), widen4(v + t));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(H + t), h);
  return h;
}

// Updates H on anti-diagonal r's cells [st0, en0] and finds its maximum by the rule of
// dp_scalar.cpp: H[en0] first, then the classes k = (t - st0) mod 4 of [st0, en1) in
// order of k, each represented by its first largest value, replacing the maximum only when
// strictly larger; then the cells [en1, en0) one by one. Two passes: the update with the
// per-class maxima only, then the position, which is the first cell of the winning class
// holding its maximum.
[[maybe_unused]] __attribute__((noinline)) void simd_row_max(const AntiDiagonal& d, int r, const int8_t* u, const int8_t* v, int32_t qe,
                                            int32_t* H, int32_t& max_h, int& max_t) {
  if (r == 0) {
    H[0] = v[0] - qe;
    max_h = H[0], max_t = 0;
    return;
  }
  H[d.en0] = d.en0 > 0 ? H[d.en0 - 1] + u[d.en0] : H[d.en0] + v[d.en0];
  max_h = H[d.en0], max_t = d.en0;
  const int en1 = d.st0 + (d.en0 - d.st0) / 4 * 4;
  __m128i mh = _mm_set1_epi32(INT32_MIN);
  int t = d.st0;
#if defined(AGATHA_ISA_AVX512)
  // Sixteen lanes: lanes k, k+4, k+8 and k+12 hold the same class.
  const int en3 = d.st0 + (d.en0 - d.st0) / 16 * 16;
  if (en3 > t) {
    __m512i mh16 = _mm512_set1_epi32(INT32_MIN);
    for (; t < en3; t += 16) {
      const __m512i h = _mm512_add_epi32(_mm512_loadu_si512(H + t),
                                         _mm512_cvtepi8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v + t))));
      _mm512_storeu_si512(H + t, h);
      mh16 = _mm512_max_epi32(mh16, h);
    }
    const __m256i mh8 = _mm256_max_epi32(_mm512_castsi512_si256(mh16), _mm512_extracti64x4_epi64(mh16, 1));
    mh = _mm_max_epi32(_mm256_castsi256_si128(mh8), _mm256_extracti128_si256(mh8, 1));
  }
#endif
#if defined(AGATHA_ISA_AVX2) || defined(AGATHA_ISA_AVX512)
  // Eight lanes: lane k and lane k+4 hold the same class.
  const int en2 = t + (d.en0 - t) / 8 * 8;
  if (en2 > t) {
    __m256i mh8 = _mm256_set1_epi32(INT32_MIN);
    for (; t < en2; t += 8) {
      const __m256i h =
          _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(H + t)),
                           _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(v + t))));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(H + t), h);
      mh8 = _mm256_max_epi32(mh8, h);
    }
    mh = _mm_max_epi32(mh, _mm_max_epi32(_mm256_castsi256_si128(mh8), _mm256_extracti128_si256(mh8, 1)));
  }
#endif
  for (; t < en1; t += 4) mh = _mm_max_epi32(mh, update4(H, v, t));
  alignas(16) int32_t hh[4];
  _mm_store_si128(reinterpret_cast<__m128i*>(hh), mh);
  int best = -1;
  for (int k = 0; k < 4; ++k)
    if (hh[k] > max_h) max_h = hh[k], best = k;
  if (best >= 0) {  // the first cell of class `best` holding max_h (there is one before en1)
#if defined(AGATHA_ISA_AVX512)
    // sixteen cells a step, the lanes of class `best` only (H has kPad cells of room)
    const __m512i want16 = _mm512_set1_epi32(max_h);
    const auto of_class = static_cast<__mmask16>(0x1111u << best);
    for (int s = d.st0;; s += 16) {
      const __mmask16 eq = _mm512_mask_cmpeq_epi32_mask(of_class, _mm512_loadu_si512(H + s), want16);
      if (eq) {
        max_t = s + __builtin_ctz(eq);
        break;
      }
    }
#else
    const __m128i want = _mm_set1_epi32(max_h);
    for (int s = d.st0;; s += 4) {
      const int eq = _mm_movemask_ps(
          _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(H + s)), want)));
      if (eq >> best & 1) {
        max_t = s + best;
        break;
      }
    }
#endif
  }
  for (; t < d.en0; ++t) {
    H[t] += v[t];
    if (H[t] > max_h) max_h = H[t], max_t = t;
  }
}

}  // namespace
}  // namespace agatha::kernels
#endif
