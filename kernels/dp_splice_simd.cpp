// kernels/dp_splice_simd.cpp — the splice-aware guided DP (ksw_exts2) with SIMD: one
// source, compiled once per instruction set like dp_simd.cpp (exts2_sse41: 16 cells a
// step; exts2_avx2: 32; exts2_avx512: 64).
//
// The computation is the one of dp_splice_scalar.cpp, cell for cell: the same 8-bit
// difference values, the same order of the sources of H (hence the same ties), only the
// cells inside the matrix, [st0, en0] of each anti-diagonal. Vectors start at st0; the
// lanes of the last vector past en0 compute values no cell inside the matrix ever reads
// (they land past en0, where the next anti-diagonal either writes its border first or
// reads nothing), so they need no masking. x, v and x2 are read at t-1 and alternate
// between two buffers by the parity of r, so "the r-1 value at t-1" is a plain load one
// byte before t; u and y are read at t and replaced in place.
#include "dp_kernels.hpp"
#include "simd_common.hpp"

#if !defined(AGATHA_ISA_SSE41) && !defined(AGATHA_ISA_AVX2) && !defined(AGATHA_ISA_AVX512)
#error "dp_splice_simd.cpp must be compiled with AGATHA_ISA_SSE41, AGATHA_ISA_AVX2 or AGATHA_ISA_AVX512"
#endif
#include "splice_common.hpp"

#include <immintrin.h>

namespace agatha::kernels {
namespace {

// Target N recoded as 8: target ^ query is 0 for a match, 1-3 for a mismatch and 4-12
// where either base is N, so the score of a pair is one table lookup.
constexpr uint8_t kTargetN = 8;

struct Arrays {
  int8_t *u, *y, *donor, *acceptor;
  int8_t *x[2], *v[2], *x2[2];  // indexed by the parity of the anti-diagonal written
  const uint8_t *sf, *qr;       // target (N as 8) and reversed query, W zeros after each
};

// Every array has kPad (>= W + 1, see dp_common.hpp) bytes after tlen, for the lanes past en0, and at least
// one before it, for the border written at index -1.
Arrays init_arrays(const DpTask& task, const SpliceSetup& s, Workspace& ws) {
  const size_t stride = static_cast<size_t>(s.tlen) + kPad;
  int8_t* base = ws.diff.reserve(stride * 10 + kPad) + kPad;
  auto arr = [&](int k) { return base + k * stride; };
  Arrays a{arr(0), arr(1), arr(2), arr(3), {arr(4), arr(5)}, {arr(6), arr(7)}, {arr(8), arr(9)}, nullptr, nullptr};
  splice_site_rows(task, a.donor, a.acceptor, s.tlen);
  const size_t n = static_cast<size_t>(s.tlen + s.qlen) + 2 * kPad;
  uint8_t* sf = ws.seq.reserve(n);
  std::memset(sf, 0, n);
  for (int t = 0; t < s.tlen; ++t) sf[t] = task.target[t] == 4 ? kTargetN : task.target[t];
  uint8_t* qr = sf + s.tlen + kPad;
  for (int j = 0; j < s.qlen; ++j) qr[j] = task.query[s.qlen - 1 - j];
  a.sf = sf, a.qr = qr;
  return a;
}

// Broadcast constants of a task; the fixed ones opaque to the optimiser, for the
// reason given at dp_simd.cpp's Params.
struct Params {
  V zero, q, q2, qe, one, two, three, cont_e, cont_f, cont_e2;
  V score_table;  // by target ^ query: match, mismatch x3, ambiguous x12
  explicit Params(const SpliceSetup& s)
      : zero(Vec::zero()),
        q(Vec::set1(s.q)),
        q2(Vec::set1(s.q2)),
        qe(Vec::set1(s.qe)),
        one(Vec::opaque(Vec::set1(1))),
        two(Vec::opaque(Vec::set1(2))),
        three(Vec::opaque(Vec::set1(3))),
        cont_e(Vec::opaque(Vec::set1(dir_bit::kContE))),
        cont_f(Vec::opaque(Vec::set1(dir_bit::kContF))),
        cont_e2(Vec::opaque(Vec::set1(dir_bit::kContE2))) {
    int8_t t[16];
    std::fill(t, t + 16, s.sc_ambi);
    t[0] = s.sc_match;
    t[1] = t[2] = t[3] = s.sc_mismatch;
    score_table = Vec::table16(t);
  }
};

// The arrays as anti-diagonal r sees them.
struct Row {
  const int8_t *x_in, *v_in, *x2_in;  // r-1 values, read at t-1
  int8_t *x_out, *v_out, *x2_out;     // r values
  int8_t *u, *y;                      // r-1 values read at t, replaced by r values
  const int8_t *donor, *acceptor;
  const uint8_t *sf, *qrr;  // target and reversed query aligned on t: qrr[t] = query[r - t]
};

// Cells [t, t+W): stores u, v, x, y, x2 and returns the direction bytes.
template <Mode M>
__attribute__((always_inline)) inline V splice_cells(const Params& k, const Row& w, int t) {
  // Phase 1: the r-1 values at t-1 (x, v, x2) and at t (u, y).
  const V vt1 = Vec::load(w.v_in + t - 1), ut = Vec::load(w.u + t);
  V a = Vec::add(Vec::load(w.x_in + t - 1), vt1);    // E(t,j) - H(t-1,j-1)
  V b = Vec::add(Vec::load(w.y + t), ut);            // F(t,j) - H(t-1,j-1)
  V a2 = Vec::add(Vec::load(w.x2_in + t - 1), vt1);  // E2(t,j) - H(t-1,j-1)
  const V a2a = Vec::add(a2, Vec::load(w.acceptor + t));
  // Phase 2: z = H(t,j) - H(t-1,j-1), the diagonal, E, F, E2 in this order.
  V z = Vec::lookup(k.score_table, Vec::xor_(Vec::load(w.sf + t), Vec::load(w.qrr + t)));
  V d = k.zero;
  if constexpr (M != Mode::kScoreOnly) {  // the first (kLeft) or last (kRight) maximal source
    d = max_source<M, Vec>(z, a, k.one, b, k.two, a2a, k.three);
  } else {
    z = Vec::max(Vec::max(z, a), Vec::max(b, a2a));
  }
  // Phase 3: u = H - H(t-1,j), v = H - H(t,j-1); a, b, a2 relative to a gap opened here.
  Vec::store(w.u + t, Vec::sub(z, vt1));
  Vec::store(w.v_out + t, Vec::sub(z, ut));
  const V open = Vec::sub(z, k.q);
  a = Vec::sub(a, open), b = Vec::sub(b, open);
  a2 = Vec::sub(a2, Vec::sub(z, k.q2));
  const V donor = Vec::load(w.donor + t);
  const V ma = Vec::max(a, k.zero), mb = Vec::max(b, k.zero);
  Vec::store(w.x_out + t, Vec::sub(ma, k.qe));
  Vec::store(w.y + t, Vec::sub(mb, k.qe));
  Vec::store(w.x2_out + t, Vec::sub(Vec::max(a2, donor), k.q2));
  // Phase 4: "the state continues" bits: > (left) or >= (right) the opening value.
  if constexpr (M == Mode::kLeft) {  // a > 0 where max(a, 0) is not 0
    d = Vec::or_if_pos(d, k.cont_e, ma);
    d = Vec::or_if_pos(d, k.cont_f, mb);
    d = Vec::or_if_gt(d, a2, donor, k.cont_e2);
  } else if constexpr (M == Mode::kRight) {
    d = Vec::or_if_le(d, k.zero, a, k.cont_e);
    d = Vec::or_if_le(d, k.zero, b, k.cont_f);
    d = Vec::or_if_le(d, donor, a2, k.cont_e2);
  }
  return d;
}

// Every anti-diagonal of a task, for one mode and one maximum rule. The broadcast
// constants and the array pointers are locals of this function, which nothing outside
// it can reach: the compiler keeps them in registers across the vector stores instead of
// reloading them after each one (a store through int8_t* may alias any object whose
// address is known elsewhere). dir rows receive one byte per cell of [st0, en0] (and up
// to W - 1 past them, overwritten by the next row or in the row buffer's padding).
template <Mode M, bool kApprox>
__attribute__((noinline)) void run_diagonals(const DpTask& task, const SpliceSetup& s, const Arrays& ar, int32_t* H,
                                             Workspace& ws, DpResult& res) {
  const Params k(s);
  int8_t *const u = ar.u, *const y = ar.y;
  // Anti-diagonal r writes buffer r & 1 and reads the other.
  int8_t *x_in = ar.x[1], *v_in = ar.v[1], *x2_in = ar.x2[1];
  int8_t *x_out = ar.x[0], *v_out = ar.v[0], *x2_out = ar.x2[0];
  const int n_diag = s.qlen + s.tlen - 1;
  RowWriter rows(ws);
  int32_t h0 = 0, last_h0_t = 0;
  for (int r = 0; r < n_diag; ++r) {
    const AntiDiagonal d = splice_anti_diagonal(s, r);
    res.cells += static_cast<uint64_t>(d.en0 - d.st0 + 1);
    const Row w{x_in, v_in, x2_in, x_out, v_out, x2_out, u, y, ar.donor, ar.acceptor, ar.sf, ar.qr + (s.qlen - 1 - r)};
    if (d.st0 == 0) {  // the top border H(-1, r), read by the cell (0, r)
      x_in[-1] = static_cast<int8_t>(-s.qe);
      x2_in[-1] = static_cast<int8_t>(-s.q2);
      v_in[-1] = splice_border_diff(s, r);
    }
    if (d.en0 == r) y[r] = static_cast<int8_t>(-s.qe), u[r] = splice_border_diff(s, r);  // (r, -1)
    uint8_t* dir = nullptr;
    if constexpr (M != Mode::kScoreOnly) {
      AntiDiagonal exact = d;
      exact.st = d.st0, exact.en = d.en0;  // the walk never leaves the matrix
      dir = rows.next(r, exact);
    }
    for (int t = d.st0; t <= d.en0; t += Vec::W) {
      const V dv = splice_cells<M>(k, w, t);
      if constexpr (M != Mode::kScoreOnly) Vec::store(dir + (t - d.st0), dv);
    }
    if constexpr (kApprox) {
      if (close_splice_approx(task, s, d, r, u, v_out, h0, last_h0_t, res)) break;
    } else {
      int32_t max_h;
      int max_t;
      simd_row_max(d, r, u, v_out, s.qe_row0, H, max_h, max_t);
      if (close_splice_exact(task, s, d, r, H, max_h, max_t, res)) break;
    }
    std::swap(x_in, x_out), std::swap(v_in, v_out), std::swap(x2_in, x2_out);
  }
}

template <Mode M>
void run_mode(const DpTask& task, const SpliceSetup& s, const Arrays& ar, int32_t* H, Workspace& ws, DpResult& res) {
  if (s.approx_max)
    run_diagonals<M, true>(task, s, ar, H, ws, res);
  else
    run_diagonals<M, false>(task, s, ar, H, ws, res);
}

}  // namespace

#if defined(AGATHA_ISA_AVX512)
void exts2_avx512(const DpTask& task, DpResult& res, Workspace& ws)
#elif defined(AGATHA_ISA_AVX2)
void exts2_avx2(const DpTask& task, DpResult& res, Workspace& ws)
#else
void exts2_sse41(const DpTask& task, DpResult& res, Workspace& ws)
#endif
{
  res = DpResult{};
  SpliceSetup s;
  if (!prepare_splice(task, s)) return;
  const Mode mode = !s.with_cigar ? Mode::kScoreOnly : s.right ? Mode::kRight : Mode::kLeft;
  const Arrays ar = init_arrays(task, s, ws);
  int32_t* H = nullptr;
  if (!s.approx_max) {
    H = ws.H.reserve(static_cast<size_t>(s.tlen) + kPad);
    std::fill(H, H + s.tlen, kDpNegInf);
  }
  if (s.with_cigar) prepare_splice_traceback(s, ws);
  switch (mode) {
    case Mode::kScoreOnly: run_mode<Mode::kScoreOnly>(task, s, ar, H, ws, res); break;
    case Mode::kLeft: run_mode<Mode::kLeft>(task, s, ar, H, ws, res); break;
    case Mode::kRight: run_mode<Mode::kRight>(task, s, ar, H, ws, res); break;
  }
  if (s.with_cigar) splice_cigar(task, s, ws, res);
}

}  // namespace agatha::kernels
