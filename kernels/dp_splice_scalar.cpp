// kernels/dp_splice_scalar.cpp — the splice-aware guided DP (minimap2 2.24's
// ksw_exts2_sse) written to be read: one cell at a time, anti-diagonal by anti-diagonal.
// The oracle of the splice tasks.
//
// States at cell (t, j) (t target index, j query index): H the best score ending there,
// E a deletion (consumes target) with affine cost q + L*e, F an insertion with the same
// cost, and E2 the long-gap state — an intron, N in the CIGAR — which costs q2 to open,
// nothing to extend, and is adjusted by the splice-site scores of splice_sites.hpp:
//   H(t,j)   = max{ H(t-1,j-1) + s(t,j), E(t,j), F(t,j), E2(t,j) + acceptor[t] }
//   E(t+1,j) = max{ H(t,j) - q,  E(t,j) } - e
//   F(t,j+1) = max{ H(t,j) - q,  F(t,j) } - e
//   E2(t+1,j) = max{ H(t,j) - q2 + donor[t], E2(t,j) }
// with H(-1,-1) = 0 and borders H(-1,j) = H(j,-1) = -min(q + (j+1)*e, q2): a gap at the
// start costs the cheaper of the affine piece and a flat q2 (ksw_exts2's long_thres and
// long_diff; ksw_backtrack calls a leading deletion an intron from that length on).
//
// Like ksw_exts2_sse, the DP runs in the difference form of dp_common.hpp in 8-bit
// wrapping arithmetic (u, v, x, y and x2 = E2(t+1,j) - H(t,j)), which decides the
// values when scores leave the 8-bit range and the ties; 32-bit H is rebuilt alongside
// for the maxima. ksw_exts2 has no band, so every anti-diagonal covers the whole matrix;
// the reference also computes cells past the matrix edges to fill 16-byte vectors, but
// no cell inside the matrix ever reads them, so only the cells inside are computed here.
//
// Differences from ksw_extd2 (dp_scalar.cpp) besides the states: no band (the end bonus
// only moves an extension's traceback start, as in minimap2 2.31), the Z-drop test has no gap-length term (e2 = 0), an N base scores
// -e when ambi is 0 (ksw_extd2: -e2), the gap pieces are never swapped, and the DP is
// skipped (reset result) when q2 <= q + e.
#include "dp_kernels.hpp"
#include "splice_common.hpp"

namespace agatha::kernels {
namespace {

inline int8_t wrap(int v) { return static_cast<int8_t>(v); }

// Per target position, the values of the last anti-diagonal that computed it.
struct Rows {
  int8_t *u, *v, *x, *y, *x2, *donor, *acceptor;
};

Rows init_rows(const DpTask& task, const SpliceSetup& s, Workspace& ws) {
  const size_t stride = static_cast<size_t>(s.tlen) + kPad;
  int8_t* base = ws.diff.reserve(stride * 7);
  Rows rw{base,
          base + stride,
          base + 2 * stride,
          base + 3 * stride,
          base + 4 * stride,
          base + 5 * stride,
          base + 6 * stride};
  splice_site_rows(task, rw.donor, rw.acceptor, s.tlen);
  return rw;
}

// The inputs of one cell (t, j) from anti-diagonal r-1: at (t-1, j) the deletion and
// long-gap differences and v; at (t, j-1) the insertion difference and u.
struct CellIn {
  int8_t x_l, x2_l, v_l;  // x(t-1), x2(t-1), v(t-1)
  int8_t y_t, u_t;        // y(t), u(t)
};

// One cell in difference form: writes u, v, x, y, x2 at t and returns the direction
// byte (traceback.hpp: source of H, then "continues" bits for E, F and E2).
uint8_t splice_cell(const SpliceSetup& s, const CellIn& in, int8_t sc, int8_t donor, int8_t acceptor, const Rows& rw,
                    int t) {
  int8_t a = wrap(in.x_l + in.v_l);    // E(t,j) - H(t-1,j-1)
  int8_t b = wrap(in.y_t + in.u_t);    // F(t,j) - H(t-1,j-1)
  int8_t a2 = wrap(in.x2_l + in.v_l);  // E2(t,j) - H(t-1,j-1)
  const int8_t a2a = wrap(a2 + acceptor);
  // H(t,j) - H(t-1,j-1): the diagonal first, then E, F, E2; left-aligned gaps keep the
  // first maximal source, right-aligned ones the last.
  int8_t z = sc;
  uint8_t src = 0;
  const int8_t cand[3] = {a, b, a2a};
  for (int k = 0; k < 3; ++k) {
    if (s.right ? cand[k] >= z : cand[k] > z) src = static_cast<uint8_t>(k + 1);
    z = std::max(z, cand[k]);
  }
  rw.u[t] = wrap(z - in.v_l);  // H(t,j) - H(t-1,j)
  rw.v[t] = wrap(z - in.u_t);  // H(t,j) - H(t,j-1)
  // Relative to the gap opened here: E(t,j) - (H(t,j) - q), and likewise; positive means
  // the gap state carries on (for E2, more than the donor-adjusted opening).
  a = wrap(a - wrap(z - s.q));
  b = wrap(b - wrap(z - s.q));
  a2 = wrap(a2 - wrap(z - s.q2));
  rw.x[t] = wrap(std::max(a, int8_t{0}) - s.qe);
  rw.y[t] = wrap(std::max(b, int8_t{0}) - s.qe);
  rw.x2[t] = wrap(std::max(a2, donor) - s.q2);
  uint8_t d = src;
  if (s.right ? a >= 0 : a > 0) d |= dir_bit::kContE;
  if (s.right ? b >= 0 : b > 0) d |= dir_bit::kContF;
  if (s.right ? a2 >= donor : a2 > donor) d |= dir_bit::kContE2;
  return d;
}

// Computes anti-diagonal r over [st0, en0]; records direction bytes in `dir` if given.
void splice_row(const SpliceSetup& s, const uint8_t* tseq, const uint8_t* qseq, const Rows& rw, int r, int st0, int en0,
                uint8_t* dir) {
  CellIn in;
  if (st0 > 0) {  // (st0-1, qlen-1) was computed on r-1
    in.x_l = rw.x[st0 - 1], in.x2_l = rw.x2[st0 - 1], in.v_l = rw.v[st0 - 1];
  } else {  // the top border H(-1, r)
    in.x_l = wrap(-s.qe), in.x2_l = wrap(-s.q2), in.v_l = splice_border_diff(s, r);
  }
  if (en0 == r) rw.y[r] = wrap(-s.qe), rw.u[r] = splice_border_diff(s, r);  // the left border at (r, -1)
  for (int t = st0; t <= en0; ++t) {
    const uint8_t tb = tseq[t], qb = qseq[r - t];
    const int8_t sc = (tb > 3 || qb > 3) ? s.sc_ambi
                      : tb == qb         ? s.sc_match
                      : (tb ^ qb) == 2   ? s.sc_transition
                                         : s.sc_mismatch;
    in.y_t = rw.y[t], in.u_t = rw.u[t];
    const CellIn here = in;
    in.x_l = rw.x[t], in.x2_l = rw.x2[t], in.v_l = rw.v[t];  // r-1 values at t, read by t+1
    const uint8_t d = splice_cell(s, here, sc, rw.donor[t], rw.acceptor[t], rw, t);
    if (dir) dir[t - st0] = d;
  }
}

}  // namespace

void exts2_scalar(const DpTask& task, DpResult& res, Workspace& ws) {
  res = DpResult{};
  SpliceSetup s;
  if (!prepare_splice(task, s)) return;
  const Rows rw = init_rows(task, s, ws);
  const uint8_t* tseq = task.target.data();
  const uint8_t* qseq = task.query.data();
  int32_t* H = nullptr;
  if (!s.approx_max) {
    H = ws.H.reserve(static_cast<size_t>(s.tlen));
    std::fill(H, H + s.tlen, kDpNegInf);
  }
  const int n_diag = s.qlen + s.tlen - 1;
  if (s.with_cigar) prepare_splice_traceback(s, ws);
  size_t dir_used = 0;
  int32_t h0 = 0, last_h0_t = 0;
  for (int r = 0; r < n_diag; ++r) {
    const AntiDiagonal d = splice_anti_diagonal(s, r);
    res.cells += static_cast<uint64_t>(d.en0 - d.st0 + 1);
    uint8_t* dir = nullptr;
    if (s.with_cigar) {
      AntiDiagonal exact = d;
      exact.st = d.st0, exact.en = d.en0;  // the walk never leaves the matrix
      dir = traceback_row(ws, r, exact, dir_used);
    }
    splice_row(s, tseq, qseq, rw, r, d.st0, d.en0, dir);
    if (!s.approx_max) {
      int32_t max_h;
      int max_t;
      exact_row_max(d, r, rw.u, rw.v, s.qe_row0, H, max_h, max_t);
      if (close_splice_exact(task, s, d, r, H, max_h, max_t, res)) break;
    } else if (close_splice_approx(task, s, d, r, rw.u, rw.v, h0, last_h0_t, res)) {
      break;
    }
  }
  if (s.with_cigar) splice_cigar(task, s, ws, res);
}

}  // namespace agatha::kernels
