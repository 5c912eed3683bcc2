// kernels/dp_cell_simd.hpp — one vector of ksw_extd2 cells in the difference form of
// dp_common.hpp, shared by the per-task kernel (dp_simd.cpp, a vector of one
// anti-diagonal's cells) and the batch kernel (dp_batch_simd.cpp, one cell of a vector
// of tasks). For sources compiled once per instruction set, after simd_common.hpp.
#pragma once

#include "simd_common.hpp"

#include <array>
#include <cstdint>
#include <type_traits>

#if defined(AGATHA_ISA_AVX512) || defined(AGATHA_ISA_AVX2) || defined(AGATHA_ISA_SSE41)
namespace agatha::kernels {
namespace {

// The new values of one vector of cells, and their direction bytes.
template <class VX>
struct Cells {
  using Vx = VX;
  typename VX::T u, v, x, y, x2, y2, dir;
};

// With mask registers (AVX-512), the direction bits can instead be kept as the eight
// masks they come from, one bit per cell each ("bit planes"): src[k] marks the cells
// where source k + 1 took over the maximum (the winner is the last one marked, none
// meaning the diagonal), cont[k] the cells where dir_bit's continuation bit k is set.
// Storing the masks as they are spares the eight masked byte operations that fold them
// into direction bytes; dp_simd.cpp's traceback folds them back, for the cells it visits.
template <class VX>
struct PlaneCells : Cells<VX> {
  typename VX::M src[4], cont[4];
};

#if defined(AGATHA_ISA_AVX512)
// Direction bytes from the bit planes, by the eight bits of a cell: the source is the
// last one marked, the continuation bits follow in dir_bit's order.
inline constexpr std::array<uint8_t, 256> kPlaneByte = [] {
  std::array<uint8_t, 256> b{};
  for (int m = 0; m < 256; ++m) {
    int src = 0;
    for (int k = 0; k < 4; ++k)
      if (m >> k & 1) src = k + 1;
    b[static_cast<size_t>(m)] = static_cast<uint8_t>(src | (m >> 4) << 3);
  }
  return b;
}();
static_assert(dir_bit::kContE == 1 << 3 && dir_bit::kContF == 1 << 4 && dir_bit::kContE2 == 1 << 5 &&
              dir_bit::kContF2 == 1 << 6);

// The direction byte of the cell whose bits are bit `bit` (0-63) of the eight 8-byte
// words at `words` (src[0..3], then cont[0..3], as stored): one shift and one test of
// the words as a vector.
inline uint32_t plane_dir_byte(const uint8_t* words, int bit) {
  const __mmask8 bits = _mm512_test_epi64_mask(_mm512_srlv_epi64(_mm512_loadu_si512(words), _mm512_set1_epi64(bit)),
                                               _mm512_set1_epi64(1));
  return kPlaneByte[static_cast<uint8_t>(bits)];
}
#endif

// The cells' new values from their inputs: vt1 = v and ut = u of the neighbours (r-1's
// v at t-1 and u at t), a = x(t-1) + vt1 (E - H(t-1,j-1)), b = y(t) + ut, a2, b2 the same
// for the long gap piece, z the substitution scores. K holds the broadcast constants
// (q, q2, qe, qe2, mch, zero, one..four, cont_e, cont_f, cont_e2, cont_f2) as VX's vectors.
// kPlanes (mask-register types only): the direction bits as PlaneCells' masks, c.dir
// left unset.
template <Mode M, class VX, class K, bool kPlanes = false>
__attribute__((always_inline)) inline std::conditional_t<kPlanes, PlaneCells<VX>, Cells<VX>> update_cells(
    const K& k, typename VX::T vt1, typename VX::T ut, typename VX::T a, typename VX::T b, typename VX::T a2,
    typename VX::T b2, typename VX::T z) {
  using Vec = VX;
  using V = typename VX::T;
  std::conditional_t<kPlanes, PlaneCells<VX>, Cells<VX>> c;
  // z = H - H(t-1,j-1): the max of the five sources, and which one won. A source that
  // takes over gets its number, which is larger than every number before it
  // (take_gt/take_le: a max where masks are bytes, a masked move where they are mask
  // registers; either is cheaper than a byte blend).
  V dsrc = k.zero;
  if constexpr (kPlanes) {  // (kLeft or kRight) a source takes over where it is larger / at least as large
    const auto takes = [&z](V src) {
      const auto m = M == Mode::kLeft ? Vec::gt_mask(src, z) : Vec::le_mask(z, src);
      z = Vec::max(z, src);
      return m;
    };
    c.src[0] = takes(a), c.src[1] = takes(b), c.src[2] = takes(a2), c.src[3] = takes(b2);
  } else if constexpr (M != Mode::kScoreOnly) {  // first (kLeft) or last (kRight) maximal source
    dsrc = max_source<M, Vec>(z, a, k.one, b, k.two, a2, k.three, b2, k.four);
  } else {
    z = Vec::max(Vec::max(Vec::max(z, a), Vec::max(b, a2)), b2);
  }
  z = Vec::min(z, k.mch);
  // u = H - H(t-1,j), v = H - H(t,j-1); a, b, a2, b2 become "gap state - (H - gap
  // open)", where > 0 (left) or >= 0 (right) means the state continues.
  c.u = Vec::sub(z, vt1), c.v = Vec::sub(z, ut);
  V tmp = Vec::sub(z, k.q);
  a = Vec::sub(a, tmp), b = Vec::sub(b, tmp);
  tmp = Vec::sub(z, k.q2);
  a2 = Vec::sub(a2, tmp), b2 = Vec::sub(b2, tmp);
  const V ma = Vec::max(a, k.zero), mb = Vec::max(b, k.zero), ma2 = Vec::max(a2, k.zero), mb2 = Vec::max(b2, k.zero);
  c.x = Vec::sub(ma, k.qe), c.y = Vec::sub(mb, k.qe);
  c.x2 = Vec::sub(ma2, k.qe2), c.y2 = Vec::sub(mb2, k.qe2);
  // Continuation bits.
  if constexpr (kPlanes) {  // as below
    const auto cont = [&k](V m, V d) { return M == Mode::kLeft ? Vec::nonzero_mask(m) : Vec::le_mask(k.zero, d); };
    c.cont[0] = cont(ma, a), c.cont[1] = cont(mb, b), c.cont[2] = cont(ma2, a2), c.cont[3] = cont(mb2, b2);
    return c;
  } else if constexpr (M == Mode::kLeft) {  // set where > 0, i.e. where max(., 0) is not 0
    dsrc = Vec::or_if_pos(dsrc, k.cont_e, ma);
    dsrc = Vec::or_if_pos(dsrc, k.cont_f, mb);
    dsrc = Vec::or_if_pos(dsrc, k.cont_e2, ma2);
    dsrc = Vec::or_if_pos(dsrc, k.cont_f2, mb2);
  } else if constexpr (M == Mode::kRight) {  // set unless < 0
    dsrc = Vec::or_if_le(dsrc, k.zero, a, k.cont_e);
    dsrc = Vec::or_if_le(dsrc, k.zero, b, k.cont_f);
    dsrc = Vec::or_if_le(dsrc, k.zero, a2, k.cont_e2);
    dsrc = Vec::or_if_le(dsrc, k.zero, b2, k.cont_f2);
  }
  c.dir = dsrc;
  return c;
}

}  // namespace
}  // namespace agatha::kernels
#endif
