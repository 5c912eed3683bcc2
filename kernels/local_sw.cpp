// The striped local alignment of minimap2 2.24's inversion checks. See local_sw.hpp.
#include "local_sw.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#define AGATHA_LOCAL_SW_SSE2 1
#endif

namespace agatha::kernels {
namespace {

constexpr int kLanes = 8;

// profile[c][j * 8 + l]: score of target code c against query position j + l * slen (0 in
// the padding).
std::vector<int16_t> striped_profile(const uint8_t* query, int qlen, int slen, const DpScoring& sc) {
  std::vector<int16_t> p(static_cast<size_t>(5 * slen * kLanes));
  for (int c = 0; c < 5; ++c)
    for (int j = 0; j < slen; ++j)
      for (int l = 0; l < kLanes; ++l) {
        const int k = j + l * slen;
        p[static_cast<size_t>((c * slen + j) * kLanes + l)] =
            static_cast<int16_t>(k >= qlen ? 0 : sc.substitution(static_cast<uint8_t>(c), query[k]));
      }
  return p;
}

// qe from the H column kept at the best score: the last striped slot holding it.
int last_slot(const int16_t* hmax, int slen, int gmax) {
  int qe = -1;
  for (int k = 0; k < slen * kLanes; ++k)
    if (static_cast<uint16_t>(hmax[k]) == gmax) qe = k / kLanes + k % kLanes * slen;
  return qe;
}

}  // namespace

LocalSwResult local_sw_i16_scalar(const uint8_t* query, int qlen, const uint8_t* target, int tlen,
                                  const DpScoring& sc) {
  using Vec = std::array<int, kLanes>;
  LocalSwResult res;
  const int slen = (qlen + kLanes - 1) / kLanes;
  if (slen == 0) return res;
  const int gapoe = sc.q + sc.e, gape = sc.e;
  // 16-bit lane arithmetic: signed saturating add, unsigned saturating subtract.
  auto adds = [](int x, int y) { return std::clamp(x + y, -32768, 32767); };
  auto subs_u = [](int x, int y) { return static_cast<int16_t>(std::max(0, (x & 0xffff) - y)); };
  const std::vector<int16_t> profile = striped_profile(query, qlen, slen, sc);
  std::vector<Vec> h0(static_cast<size_t>(slen), Vec{}), h1(h0), e(h0), hmax(h0);
  int gmax = 0;
  for (int i = 0; i < tlen; ++i) {
    const int16_t* sv = &profile[static_cast<size_t>(target[i] * slen * kLanes)];
    Vec f{}, mx{}, h{};
    for (int l = 1; l < kLanes; ++l) h[l] = h0[static_cast<size_t>(slen - 1)][l - 1];
    for (int j = 0; j < slen; ++j) {
      Vec& ej = e[static_cast<size_t>(j)];
      Vec& hj = h1[static_cast<size_t>(j)];
      for (int l = 0; l < kLanes; ++l) {
        int x = adds(h[l], sv[j * kLanes + l]);
        x = std::max({x, ej[l], f[l]});
        mx[l] = std::max(mx[l], x);
        hj[l] = x;
        x = subs_u(x, gapoe);
        ej[l] = std::max(static_cast<int>(subs_u(ej[l], gape)), x);
        f[l] = std::max(static_cast<int>(subs_u(f[l], gape)), x);
      }
      h = h0[static_cast<size_t>(j)];
    }
    bool more = true;
    for (int k = 0; k < kLanes && more; ++k) {  // lazy F across lanes
      for (int l = kLanes - 1; l > 0; --l) f[l] = f[l - 1];
      f[0] = 0;
      for (int j = 0; j < slen && more; ++j) {
        Vec& hj = h1[static_cast<size_t>(j)];
        more = false;
        for (int l = 0; l < kLanes; ++l) {
          hj[l] = std::max(hj[l], f[l]);
          const int hx = subs_u(hj[l], gapoe);
          f[l] = subs_u(f[l], gape);
          if (f[l] > hx) more = true;
        }
      }
    }
    const int imax = static_cast<uint16_t>(*std::max_element(mx.begin(), mx.end()));
    if (imax >= gmax) {
      gmax = imax, res.te = i;
      hmax = h1;
    }
    std::swap(h0, h1);
  }
  std::vector<int16_t> flat(static_cast<size_t>(slen * kLanes));
  for (int j = 0; j < slen; ++j)
    for (int l = 0; l < kLanes; ++l)
      flat[static_cast<size_t>(j * kLanes + l)] = static_cast<int16_t>(hmax[static_cast<size_t>(j)][l]);
  res.score = gmax;
  res.qe = last_slot(flat.data(), slen, gmax);
  return res;
}

#if AGATHA_LOCAL_SW_SSE2

namespace {

LocalSwResult local_sw_i16_sse2(const uint8_t* query, int qlen, const uint8_t* target, int tlen, const DpScoring& sc) {
  LocalSwResult res;
  const int slen = (qlen + kLanes - 1) / kLanes;
  if (slen == 0) return res;
  const std::vector<int16_t> profile = striped_profile(query, qlen, slen, sc);
  // Four columns of slen vectors: H of the previous and current column, E, H at the best.
  const size_t bytes = static_cast<size_t>(4 * slen) * sizeof(__m128i);
  const std::unique_ptr<void, decltype(&std::free)> mem(std::aligned_alloc(16, bytes), &std::free);
  if (!mem) throw std::bad_alloc();
  std::memset(mem.get(), 0, bytes);
  __m128i* hprev = static_cast<__m128i*>(mem.get());
  __m128i* hcur = hprev + slen;
  __m128i* ecol = hcur + slen;
  __m128i* hbest = ecol + slen;
  const __m128i zero = _mm_setzero_si128();
  const __m128i v_gapoe = _mm_set1_epi16(static_cast<int16_t>(sc.q + sc.e));
  const __m128i v_gape = _mm_set1_epi16(static_cast<int16_t>(sc.e));
  int gmax = 0;
  for (int i = 0; i < tlen; ++i) {
    const __m128i* sv = reinterpret_cast<const __m128i*>(&profile[static_cast<size_t>(target[i] * slen * kLanes)]);
    __m128i f = zero, colmax = zero;
    __m128i h = _mm_slli_si128(_mm_load_si128(hprev + slen - 1), 2);  // diagonal of lane l: lane l-1
    for (int j = 0; j < slen; ++j) {
      h = _mm_adds_epi16(h, _mm_loadu_si128(sv + j));
      __m128i e = _mm_load_si128(ecol + j);
      h = _mm_max_epi16(_mm_max_epi16(h, e), f);
      colmax = _mm_max_epi16(colmax, h);
      _mm_store_si128(hcur + j, h);
      const __m128i hx = _mm_subs_epu16(h, v_gapoe);
      e = _mm_max_epi16(_mm_subs_epu16(e, v_gape), hx);
      _mm_store_si128(ecol + j, e);
      f = _mm_max_epi16(_mm_subs_epu16(f, v_gape), hx);
      h = _mm_load_si128(hprev + j);
    }
    bool more = true;
    for (int k = 0; k < kLanes && more; ++k) {  // lazy F across lanes
      f = _mm_slli_si128(f, 2);
      for (int j = 0; j < slen; ++j) {
        const __m128i hj = _mm_max_epi16(_mm_load_si128(hcur + j), f);
        _mm_store_si128(hcur + j, hj);
        const __m128i hx = _mm_subs_epu16(hj, v_gapoe);
        f = _mm_subs_epu16(f, v_gape);
        if (_mm_movemask_epi8(_mm_cmpgt_epi16(f, hx)) == 0) {
          more = false;
          break;
        }
      }
    }
    colmax = _mm_max_epi16(colmax, _mm_srli_si128(colmax, 8));
    colmax = _mm_max_epi16(colmax, _mm_srli_si128(colmax, 4));
    colmax = _mm_max_epi16(colmax, _mm_srli_si128(colmax, 2));
    const int imax = _mm_extract_epi16(colmax, 0);
    if (imax >= gmax) {
      gmax = imax, res.te = i;
      std::memcpy(hbest, hcur, static_cast<size_t>(slen) * sizeof(__m128i));
    }
    std::swap(hprev, hcur);
  }
  res.score = gmax;
  res.qe = last_slot(reinterpret_cast<const int16_t*>(hbest), slen, gmax);
  return res;
}

}  // namespace

LocalSwResult local_sw_i16(const uint8_t* query, int qlen, const uint8_t* target, int tlen, const DpScoring& sc) {
  return local_sw_i16_sse2(query, qlen, target, tlen, sc);
}
bool local_sw_i16_has_simd() { return true; }

#else

LocalSwResult local_sw_i16(const uint8_t* query, int qlen, const uint8_t* target, int tlen, const DpScoring& sc) {
  return local_sw_i16_scalar(query, qlen, target, tlen, sc);
}
bool local_sw_i16_has_simd() { return false; }

#endif

}  // namespace agatha::kernels
