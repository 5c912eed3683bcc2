// kernels/dp_simd.cpp — the guided DP with SIMD: one source, compiled once per
// instruction set. meson builds it with -msse4.1 -DAGATHA_ISA_SSE41 (16 cells a step,
// kernel extd2_sse41), with -mavx2 -DAGATHA_ISA_AVX2 (32 cells a step, extd2_avx2) and
// with -mavx512bw -DAGATHA_ISA_AVX512 (64 cells a step, extd2_avx512).
//
// The computation is the one of dp_scalar.cpp, cell for cell: the same 8-bit
// difference arrays, the same 16-cell rounding of the band (a wide step that would pass
// the rounded end stores only its first 16, 32 or 48 cells), the same stale scores, the
// same tie rules. Only the order of independent operations within an anti-diagonal
// differs, so results are bit-identical to the oracle.
#include "dp_common.hpp"
#include "dp_kernels.hpp"
#include "dp_cell_simd.hpp"
#include "simd_common.hpp"

#if !defined(AGATHA_ISA_SSE41) && !defined(AGATHA_ISA_AVX2) && !defined(AGATHA_ISA_AVX512)
#error "dp_simd.cpp must be compiled with AGATHA_ISA_SSE41, AGATHA_ISA_AVX2 or AGATHA_ISA_AVX512"
#endif

#include <immintrin.h>

#include <array>
#include <cstring>
#include <type_traits>

namespace agatha::kernels {
namespace {

// The difference arrays. u, y, y2 are read at t and updated in place. x, v, x2 are
// read at t-1, so they alternate between two buffers by the parity of r: anti-diagonal
// r reads r-1's values from one and writes its own into the other, and "the r-1 value
// at t-1" is a plain load one byte before t. This reads what the in-place update
// reads: both the rounded start and the rounded end grow with r, so a position in
// [st, en-1] was either computed on r-1 (and sits in the read buffer) or never computed
// (the initial constant, in both buffers); position st-1 is written into the read
// buffer before the loop (the carry of dp_scalar.cpp). Every array is preceded by at
// least 64 bytes holding its initial constant, for that write at st = 0 and the reads
// of x and x2 at -1.
//
// The ten arrays lie `stride` bytes apart, a multiple of 64 (so cell t has the same
// alignment in all of them): u y y2 s, then x v x2 of parity 0, then of parity 1. For
// the tasks of at most kFixedStride - kPad - 64 target bases (nearly all of them) the
// stride is the constant kFixedStride, and the kernel is compiled for it: every array
// is then one register and a constant displacement away from u or from its parity's x,
// where a stride known only at run time needs a register for each of them, more than
// the cell loop has to spare.
inline constexpr size_t kFixedStride = 8192 + 128;  // 128 mod 4096: no two arrays' cell t on one L1 set
struct Arrays {
  int8_t* base;  // u
  size_t stride;
};
enum ArrayIndex { kU = 0, kY = 1, kY2 = 2, kS = 3, kGroup0 = 4, kGroup1 = 7 };  // group: x v x2

Arrays init_arrays(const Setup& st, Workspace& ws) {
  const size_t used = static_cast<size_t>(st.tlen16) + kPad;
  const size_t stride = used + 64 <= kFixedStride ? kFixedStride : (used + 64 + 63) & ~size_t{63};
  int8_t* base = ws.diff.reserve(stride * 10 + 64) + 64;
  const auto qe = static_cast<uint8_t>(-st.qe), qe2 = static_cast<uint8_t>(-st.qe2);
  const uint8_t init[10] = {qe, qe, qe2, 0, qe, qe, qe2, qe, qe, qe2};
  for (int k = 0; k < 10; ++k) std::memset(base + k * stride - 64, init[k], used + 64);
  return {base, stride};
}

// Base codes as the kernel lays them out: the query's as given (0-3, N = 4), the
// target's with N recoded as 8, so that target ^ query is 0 for a match, 1-3 for a
// mismatch and 4-12 where either base is N, and the score of a pair is one table lookup.
constexpr uint8_t kTargetN = 8;

// Broadcast constants of a task, built once. More of them are live in the cell loop
// than there are vector registers, so some live in the stack frame. The fixed ones
// (0-4, the continuation bits) are made opaque: a known constant is what the compiler
// otherwise rebuilds (move, broadcast, store to the frame) at the entry of every
// anti-diagonal's loop, which for the many narrow anti-diagonals of gap fills is a
// visible share of the work.
struct Params {
  V zero, q, q2, qe, qe2, mch, mis, amb, one, two, three, four;
  V score_table;                       // by target ^ query: match, mismatch x3, ambiguous x12
  V cont_e, cont_f, cont_e2, cont_f2;  // the continuation bits of dir_bit
  explicit Params(const Setup& st)
      : zero(Vec::zero()),
        q(Vec::set1(st.q)),
        q2(Vec::set1(st.q2)),
        qe(Vec::set1(st.qe)),
        qe2(Vec::set1(st.qe2)),
        mch(Vec::set1(st.sc_match)),
        mis(Vec::set1(st.sc_mismatch)),
        amb(Vec::set1(st.sc_ambi)),
        one(Vec::opaque(Vec::set1(1))),
        two(Vec::opaque(Vec::set1(2))),
        three(Vec::opaque(Vec::set1(3))),
        four(Vec::opaque(Vec::set1(4))),
        cont_e(Vec::opaque(Vec::set1(dir_bit::kContE))),
        cont_f(Vec::opaque(Vec::set1(dir_bit::kContF))),
        cont_e2(Vec::opaque(Vec::set1(dir_bit::kContE2))),
        cont_f2(Vec::opaque(Vec::set1(dir_bit::kContF2))) {
    int8_t t[16];
    std::fill(t, t + 16, st.sc_ambi);
    t[0] = st.sc_match;
    t[1] = t[2] = t[3] = st.sc_mismatch;
    score_table = Vec::table16(t);
  }
};

#if defined(AGATHA_ISA_AVX512)
// The same constants as 32-lane vectors: the low halves of the registers above.
struct HalfParams {
  Half::T zero, q, q2, qe, qe2, mch, one, two, three, four, score_table, cont_e, cont_f, cont_e2, cont_f2;
  explicit HalfParams(const Params& k)
      : zero(Half::of(k.zero)),
        q(Half::of(k.q)),
        q2(Half::of(k.q2)),
        qe(Half::of(k.qe)),
        qe2(Half::of(k.qe2)),
        mch(Half::of(k.mch)),
        one(Half::of(k.one)),
        two(Half::of(k.two)),
        three(Half::of(k.three)),
        four(Half::of(k.four)),
        score_table(Half::of(k.score_table)),
        cont_e(Half::of(k.cont_e)),
        cont_f(Half::of(k.cont_f)),
        cont_e2(Half::of(k.cont_e2)),
        cont_f2(Half::of(k.cont_f2)) {}
};
#endif

// Substitution scores of the cells [t, t+W). VX is the vector type (Vec, or Half for
// the last cells of an anti-diagonal), K the constants as that type holds them.
template <class VX, class K>
inline typename VX::T scores(const K& k, const uint8_t* sf, const uint8_t* qrr, int t) {
  return VX::lookup(k.score_table, VX::xor_(VX::load(sf + t), VX::load(qrr + t)));
}

// The arrays as one anti-diagonal sees them.
struct Row {
  const int8_t *x_in, *v_in, *x2_in;  // r-1 values, read at t-1
  int8_t *x_out, *v_out, *x2_out;     // r values
  int8_t *u, *y, *y2;                 // r-1 values read at t, replaced by r values
  int8_t* s;                          // scores, refreshed on [st0, cend] only
  const uint8_t *sf, *qrr;            // target and reversed query, aligned on t
  int st0, cend;
};

// The reference refreshes the scores in 16-cell chunks starting at st0 while the chunk
// start is <= en0, i.e. the cells [st0, cend]; the other cells keep the score last
// stored for them. Returns the scores of [t, t+W) and (unless kMiddle) stores them back.
//
// Only two kinds of cell are ever read stale, and so only vectors holding them need
// the store. st0 and en0 grow by at most one an anti-diagonal (BandWalker). A cell p
// below a later st0 (in [st, st0)) was last refreshed on the anti-diagonal whose st0 was
// p, where it lies in the first 16 cells of the range: the first vector. A cell above a
// later cend (in (cend, en], so past that en0) was last refreshed on an anti-diagonal
// whose cend was at most 15 beyond it (cend <= en0 + 15, and en0 never decreases): a
// vector that reaches [cend - 15, cend]. The vectors between hold scores that are
// refreshed again before anything reads them. Those vectors (kMiddle) lie inside
// [st0, cend], so they have no stale lanes either.
template <class VX, class K, bool kMiddle = false>
__attribute__((always_inline)) inline typename VX::T score_vector(const K& k, const Row& w, int t) {
  typename VX::T sc = scores<VX>(k, w.sf, w.qrr, t);
  if constexpr (!kMiddle) {
    if (t < w.st0 || t + VX::W - 1 > w.cend) {  // partly stale
      const int lo = std::max(w.st0 - t, 0), hi = std::min(w.cend - t, VX::W - 1);
      sc = VX::keep_outside(VX::load(w.s + t), sc, lo, hi);
    }
    VX::store(w.s + t, sc);
  }
  return sc;
}

// The direction rows. With AVX-512 they hold bit planes (dp_cell_simd.hpp): a row is a
// run of 64-byte blocks, one per vector of the anti-diagonal from the first vector's
// start (its origin, row_origin), each holding the vector's eight masks as 8-byte words
// (a 32-lane vector's in the low 4 bytes of each). Cell t's bit k is bit (t - origin)
// mod 64 of word k of block (t - origin) / 64. Without mask registers the rows hold one
// direction byte per cell from the range's start.
#if defined(AGATHA_ISA_AVX512)
inline constexpr bool kPlanes = true;
#else
inline constexpr bool kPlanes = false;
#endif
template <Mode M, class VX>
using CellsOf = std::conditional_t<kPlanes && M != Mode::kScoreOnly, PlaneCells<VX>, Cells<VX>>;

// Anti-diagonals of fewer cells than this (en - st) start their vectors at st: for them
// the masked vector below st would more often be one vector more than the range needs.
inline constexpr int kAlignFrom = 256;
// Where the first vector of anti-diagonal d starts: on wide anti-diagonals with AVX-512
// the 64-byte boundary at or below st (see core_loop), else st.
inline int row_origin(const AntiDiagonal& d) {
#if defined(AGATHA_ISA_AVX512)
  if (d.en - d.st >= kAlignFrom) return d.st & ~(Vec::W - 1);
#endif
  return d.st;
}
// The bytes of anti-diagonal d's direction row.
inline size_t row_bytes(const AntiDiagonal& d) {
  if constexpr (kPlanes) return static_cast<size_t>((d.en - row_origin(d)) / Vec::W + 1) * Vec::W;
  return static_cast<size_t>(d.en - d.st + 1);
}

// The new values of the cells [t, t+W) of one anti-diagonal, and their direction bytes.
template <Mode M, class VX, class K, bool kMiddle = false>
__attribute__((always_inline)) inline CellsOf<M, VX> compute_cells(const K& k, const Row& w, int t) {
  using Vec = VX;
  using V = typename VX::T;
  // r-1 values at t-1 (x, v, x2) and at t (u, y, y2).
  const V vt1 = Vec::load(w.v_in + t - 1), ut = Vec::load(w.u + t);
  const V a = Vec::add(Vec::load(w.x_in + t - 1), vt1);  // E - H(t-1,j-1)
  const V b = Vec::add(Vec::load(w.y + t), ut);          // F - H(t-1,j-1)
  const V a2 = Vec::add(Vec::load(w.x2_in + t - 1), vt1);
  const V b2 = Vec::add(Vec::load(w.y2 + t), ut);
  return update_cells<M, VX, K, kPlanes && M != Mode::kScoreOnly>(k, vt1, ut, a, b, a2, b2,
                                                                  score_vector<VX, K, kMiddle>(k, w, t));
}

// Stores a vector's direction bits: one byte per cell, or its eight masks (kPlanes).
template <Mode M, class VX>
__attribute__((always_inline)) inline void store_dir(uint8_t* dir, const CellsOf<M, VX>& c) {
  if constexpr (M == Mode::kScoreOnly) {
    return;
  } else if constexpr (kPlanes) {
    for (int i = 0; i < 4; ++i) VX::store_mask(dir + 8 * i, c.src[i]), VX::store_mask(dir + 8 * (4 + i), c.cont[i]);
  } else {
    VX::store(dir, c.dir);
  }
}

// Stores a vector of cells at t, all lanes or (kPart) lanes 0..n-1 only. The direction
// bits are always stored whole: direction bytes past the row belong to the next row,
// which overwrites them, or to the padding; planes fill the vector's own block.
template <Mode M, bool kPart, class C>
__attribute__((always_inline)) inline void store_cells(const Row& w, int t, const C& c, uint8_t* dir, int n = 0) {
  using VX = typename C::Vx;
  auto put = [n](int8_t* p, typename VX::T val) { kPart ? VX::store_part(p, val, n) : VX::store(p, val); };
  put(w.u + t, c.u), put(w.v_out + t, c.v), put(w.x_out + t, c.x);
  put(w.y + t, c.y), put(w.x2_out + t, c.x2), put(w.y2 + t, c.y2);
  store_dir<M, VX>(dir, c);
}

#if defined(AGATHA_ISA_AVX512)
// Stores the lanes of `keep` of a vector of cells at t (its direction bits whole: the
// row starts at t, and the traceback reads no cell below st).
template <Mode M, class C>
__attribute__((always_inline)) inline void store_cells_masked(const Row& w, int t, const C& c, uint8_t* dir,
                                                              __mmask64 keep) {
  _mm512_mask_storeu_epi8(w.u + t, keep, c.u), _mm512_mask_storeu_epi8(w.v_out + t, keep, c.v);
  _mm512_mask_storeu_epi8(w.x_out + t, keep, c.x), _mm512_mask_storeu_epi8(w.y + t, keep, c.y);
  _mm512_mask_storeu_epi8(w.x2_out + t, keep, c.x2), _mm512_mask_storeu_epi8(w.y2 + t, keep, c.y2);
  store_dir<M, Vec>(dir, c);
}
#endif
// The cells of one anti-diagonal, [st, en]; dir receives the anti-diagonal's row of
// direction bits (above).
template <Mode M, class HK>
__attribute__((always_inline)) inline void core_loop(const Params& k, [[maybe_unused]] const HK& hk, const Row& w,
                                                     const AntiDiagonal& d, uint8_t* dir) {
  // Score-only runs have no direction rows (dir is null, and stays unoffset). The
  // vector at t keeps its bits at dir + (t - origin): one byte per cell, or with planes
  // its 64-byte block (t - origin is then a multiple of 64).
  const int origin = row_origin(d);
  const auto at = [dir, origin](int t) { return M == Mode::kScoreOnly ? dir : dir + (t - origin); };
  int t = d.st;
#if defined(AGATHA_ISA_AVX512)
  // On wide anti-diagonals the vectors start on 64-byte boundaries of the arrays, so
  // that their loads and stores at t do not straddle cache lines: the first one starts
  // below st and stores only its lanes from st on (cells below st are never read again;
  // the ones it computes there are discarded). Its scores are stored whole: the lanes
  // below st0 keep the values loaded for them.
  if (const int t64 = origin; t64 != d.st) {
    const __mmask64 keep = ~Vec::lanes_below(d.st - t64);  // (en is past this vector)
    store_cells_masked<M>(w, t64, compute_cells<M, Vec>(k, w, t64), at(t64), keep);
    t = t64 + Vec::W;
  }
#endif
  // The full vectors: the range's first vector (the masked one above, if any, and the
  // first full one in any case) and those reaching [cend - 15, cend] keep their scores
  // (score_vector), the ones between (starting below keep_from) need not.
  const int keep_from = w.cend - (kBlock - 1) - (Vec::W - 1);
  if (t + Vec::W - 1 <= d.en) {
    store_cells<M, false>(w, t, compute_cells<M, Vec>(k, w, t), at(t));
    const int mid_end = std::min(keep_from, d.en - (Vec::W - 1));  // middle vectors start below it
    for (t += Vec::W; t < mid_end; t += Vec::W)
      store_cells<M, false>(w, t, compute_cells<M, Vec, Params, true>(k, w, t), at(t));
    for (; t + Vec::W - 1 <= d.en; t += Vec::W) store_cells<M, false>(w, t, compute_cells<M, Vec>(k, w, t), at(t));
  }
  if (Vec::W > kBlock && t <= d.en) {  // the rounded range ends mid-vector: 16, 32 or 48 cells left
    const int n = d.en - t + 1;
#if defined(AGATHA_ISA_AVX512)
    if (n <= Half::W) {  // 16 or 32: a half vector holds them
      if (n == Half::W)
        store_cells<M, false>(w, t, compute_cells<M, Half>(hk, w, t), at(t));
      else
        store_cells<M, true>(w, t, compute_cells<M, Half>(hk, w, t), at(t), n);
      t += Half::W;
    } else
#endif
    {
      store_cells<M, true>(w, t, compute_cells<M, Vec>(k, w, t), at(t), n);
      t += Vec::W;
    }
  }
  // The last refreshed chunk ends past en (by at most 15 cells: cend <= en0 + 15).
#if defined(AGATHA_ISA_AVX512)
  if (t <= w.cend) score_vector<Half>(hk, w, t);
#else
  if (t <= w.cend) score_vector<Vec>(k, w, t);
#endif
}

// Every anti-diagonal of a task, for one mode and one maximum rule. The broadcast
// constants and the array pointers are locals of this function, which nothing outside
// it can reach: the compiler keeps them in registers across the byte stores of the
// cell loop instead of reloading them after each one (a store through int8_t* may
// alias any object whose address is known elsewhere).
template <Mode M, bool kApprox, size_t kStride>
__attribute__((noinline)) void run_diagonals(const DpTask& task_in, const Setup& st_in, const Arrays& ar,
                                             const uint8_t* sf, const uint8_t* qr, int32_t* H, Workspace& ws,
                                             DpResult& res_out) {
  // The task, its set-up and the result as locals too: the per-anti-diagonal rules read
  // and update them, and through the caller's references every byte store of the cell
  // loop would force them to be reloaded and stored again.
  const DpTask task = task_in;
  const Setup st = st_in;
  DpResult res = res_out;
  const Params k(st);
#if defined(AGATHA_ISA_AVX512)
  const HalfParams hk(k);
#else
  const Params& hk = k;  // (no half vectors)
#endif
  const BandWalker band(st);
  const size_t S = kStride != 0 ? kStride : ar.stride;
  int8_t *const u = ar.base, *const y = u + kY * S, *const y2 = u + kY2 * S, *const s = u + kS * S;
  int8_t* const border = ws.border.data();
  // Anti-diagonal r writes buffer r & 1 and reads the other.
  int8_t *g_in = u + kGroup1 * S, *g_out = u + kGroup0 * S;
  const int8_t neg_qe = static_cast<int8_t>(-st.qe), neg_qe2 = static_cast<int8_t>(-st.qe2);
  const int n_diag = st.qlen + st.tlen - 1;
  RowWriter rows(ws);
  int32_t h0 = 0, last_h0_t = 0;
  int last_st = -1;
  // The rounded start at which each read buffer (by the parity of r) was last patched:
  // no later anti-diagonal writes below its own start, which never decreases, so the
  // patch holds until the start moves.
  int patched_st[2] = {-1, -1};
  for (int r = 0; r < n_diag; ++r) {
    AntiDiagonal d;
    if (!band.at(r, d)) {
      res.zdropped = true;
      break;
    }
    res.cells += static_cast<uint64_t>(d.en0 - d.st0 + 1);
    const int cend = d.st0 + ((d.en0 - d.st0) & ~(kBlock - 1)) + kBlock - 1;  // en0 >= st0
    int8_t *const x_in = g_in, *const v_in = g_in + S, *const x2_in = g_in + 2 * S;
    int8_t* const v_out = g_out + S;
    const Row w{x_in, v_in, x2_in, g_out, v_out, g_out + 2 * S, u, y, y2, s, sf, qr + (st.qlen - 1 - r), d.st0, cend};
    // The r-1 values at st-1 (see dp_scalar.cpp): already in the read buffer when st-1
    // was computed on r-1 (the start moved up: st-1 >= the last start, and the band is
    // contiguous), the initial constants if not. Bytes that already hold the value are
    // not rewritten (usually the case, as the buffer was patched two anti-diagonals
    // ago), sparing the first loads a store-forwarding stall. At st = 0, the bytes at -1
    // keep the constants init_arrays put there for x and x2, and v's is the border,
    // which changes with r.
    auto patch = [](int8_t& p, int8_t val) {
      if (p != val) p = val;
    };
    if (d.st == 0) {
      patch(v_in[-1], border[r]);
    } else if (d.st == last_st && patched_st[r & 1] != d.st) {
      patch(x_in[d.st - 1], neg_qe);
      patch(x2_in[d.st - 1], neg_qe2);
      patch(v_in[d.st - 1], neg_qe);
      patched_st[r & 1] = d.st;
    }
    if (d.en >= r) y[r] = neg_qe, y2[r] = neg_qe2, u[r] = border[r];
    uint8_t* dir = M == Mode::kScoreOnly ? nullptr : rows.next_reserved(r, d, row_origin(d), row_bytes(d));
    core_loop<M>(k, hk, w, d, dir);
    if constexpr (kApprox) {
      if (close_approx(task, st, d, r, u, v_out, h0, last_h0_t, res)) break;
    } else {
      int32_t max_h;
      int max_t;
      simd_row_max(d, r, u, v_out, st.qe_row0, H, max_h, max_t);
      if (close_exact(task, st, d, r, H, max_h, max_t, res)) break;
    }
    last_st = d.st;
    std::swap(g_in, g_out);
  }
  res_out = std::move(res);
}

template <Mode M>
void run_mode(const DpTask& task, const Setup& st, const Arrays& ar, const uint8_t* sf, const uint8_t* qr, int32_t* H,
              Workspace& ws, DpResult& res) {
  const bool fixed = ar.stride == kFixedStride;
  if (st.approx_max)
    (fixed ? run_diagonals<M, true, kFixedStride> : run_diagonals<M, true, 0>)(task, st, ar, sf, qr, H, ws, res);
  else
    (fixed ? run_diagonals<M, false, kFixedStride> : run_diagonals<M, false, 0>)(task, st, ar, sf, qr, H, ws, res);
}

#if defined(AGATHA_ISA_AVX512)
// finish_cigar (dp_common.hpp) through rows of bit planes: cell (i, j)'s eight bits are
// bit (i - origin) mod 64 of the eight words of its block.
void finish_cigar_planes(const DpTask& task, const Setup& s, const Workspace& ws, DpResult& res) {
  int i0, j0;
  if (!s.with_cigar || !traceback_start(task, s.tlen, s.qlen, res, i0, j0)) return;
  res.cigar.resize(static_cast<size_t>(i0) + j0 + 2);
  const uint8_t* const base = ws.dir.data();
  const size_t* const row = ws.row.data();
  const int* const org = ws.org.data();
  auto dir = [base, row, org](int i, int j) -> uint32_t {
    const auto r = static_cast<size_t>(i + j);
    const int rel = i - org[r];
    return plane_dir_byte(base + row[r] + (rel & ~63), rel & 63);
  };
  auto range = [&ws](int r, int32_t& st, int32_t& en) { st = ws.off[r], en = ws.off_end[r]; };
  const int n = walk_back(i0, j0, (task.flag & dp_flag::kRevCigar) != 0, dir, range, res.cigar.data());
  res.cigar.resize(static_cast<size_t>(n));
  res.cigar.shrink_to_fit();  // as finish_cigar
}
#endif

}  // namespace

#if defined(AGATHA_ISA_AVX512)
void extd2_avx512(const DpTask& task, DpResult& res, Workspace& ws)
#elif defined(AGATHA_ISA_AVX2)
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
  uint8_t* sf = layout_sequences(task, st, ws);
  // (the bound in a local: the byte stores could otherwise alias st and reload it)
  for (int i = 0, n = st.tlen; i < n; ++i) sf[i] = sf[i] == 4 ? kTargetN : sf[i];
  const uint8_t* qr = sf + st.tlen16;
  int32_t* H = nullptr;
  if (!st.approx_max) {
    H = ws.H.reserve(static_cast<size_t>(st.tlen16) + kPad);
    std::fill(H, H + st.tlen16, kDpNegInf);
  }
  if (st.with_cigar)
    prepare_traceback(st, ws, row_bytes, [](size_t cells) {
      // a row's vectors start up to 63 cells below st (row_origin)
      return kPlanes ? ((cells + 62) / Vec::W + 1) * Vec::W : cells;
    });
  fill_boundary(st, ws.border.reserve(static_cast<size_t>(boundary_len(st))));
  switch (mode) {
    case Mode::kScoreOnly: run_mode<Mode::kScoreOnly>(task, st, ar, sf, qr, H, ws, res); break;
    case Mode::kLeft: run_mode<Mode::kLeft>(task, st, ar, sf, qr, H, ws, res); break;
    case Mode::kRight: run_mode<Mode::kRight>(task, st, ar, sf, qr, H, ws, res); break;
  }
#if defined(AGATHA_ISA_AVX512)
  finish_cigar_planes(task, st, ws, res);
#else
  finish_cigar(task, st, ws, res);
#endif
}

}  // namespace agatha::kernels
