// kernels/simd_common.hpp — what the SIMD kernels (dp_simd.cpp, dp_splice_simd.cpp)
// share: the vector of int8 lanes of the instruction set the file is compiled for, and
// the exact-maximum update of an anti-diagonal in 32-bit H.
//
// For sources compiled once per instruction set (meson: -msse4.1 -DAGATHA_ISA_SSE41,
// -mavx2 -DAGATHA_ISA_AVX2); without either macro it declares nothing (those sources
// refuse to compile then). Everything here is in an unnamed
// namespace on purpose: each compilation gets its own copy, so the linker can never
// give the SSE4.1 kernel a function compiled for AVX2 (inline functions of one name
// would be merged across the two builds).
#pragma once

#include "dp_common.hpp"

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#if defined(AGATHA_ISA_AVX2) || defined(AGATHA_ISA_SSE41)
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

using V = Vec::T;

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
__attribute__((noinline)) void simd_row_max(const AntiDiagonal& d, int r, const int8_t* u, const int8_t* v, int32_t qe,
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
#if defined(AGATHA_ISA_AVX2)
  // Eight lanes: lane k and lane k+4 hold the same class.
  const int en2 = d.st0 + (d.en0 - d.st0) / 8 * 8;
  if (en2 > t) {
    __m256i mh8 = _mm256_set1_epi32(INT32_MIN);
    for (; t < en2; t += 8) {
      const __m256i h =
          _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(H + t)),
                           _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(v + t))));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(H + t), h);
      mh8 = _mm256_max_epi32(mh8, h);
    }
    mh = _mm_max_epi32(_mm256_castsi256_si128(mh8), _mm256_extracti128_si256(mh8, 1));
  }
#endif
  for (; t < en1; t += 4) mh = _mm_max_epi32(mh, update4(H, v, t));
  alignas(16) int32_t hh[4];
  _mm_store_si128(reinterpret_cast<__m128i*>(hh), mh);
  int best = -1;
  for (int k = 0; k < 4; ++k)
    if (hh[k] > max_h) max_h = hh[k], best = k;
  if (best >= 0) {  // the first cell of class `best` holding max_h (there is one before en1)
    const __m128i want = _mm_set1_epi32(max_h);
    for (int s = d.st0;; s += 4) {
      const int eq = _mm_movemask_ps(
          _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(H + s)), want)));
      if (eq >> best & 1) {
        max_t = s + best;
        break;
      }
    }
  }
  for (; t < d.en0; ++t) {
    H[t] += v[t];
    if (H[t] > max_h) max_h = H[t], max_t = t;
  }
}

}  // namespace
}  // namespace agatha::kernels
#endif
