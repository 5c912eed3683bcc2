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
// Differences from ksw_extd2 (dp_scalar.cpp) besides the states: no band, no end bonus
// (reach_end stays 0), the Z-drop test has no gap-length term (e2 = 0), an N base scores
// -e when ambi is 0 (ksw_extd2: -e2), the gap pieces are never swapped, and the DP is
// skipped (reset result) when q2 <= q + e.
#include "dp_common.hpp"
#include "dp_kernels.hpp"
#include "splice_sites.hpp"

namespace agatha::kernels {
namespace {

inline int8_t wrap(int v) { return static_cast<int8_t>(v); }

struct SpliceSetup {
  int qlen = 0, tlen = 0;
  int8_t q = 0, q2 = 0, qe = 0;  // qe = q + e, wrapped as the reference's vectors hold it
  int32_t qe_row0 = 0;           // q + e unwrapped: H(0,0) = v(0) - (q + e)
  int long_thres = 0;            // first border position whose gap costs q2
  int8_t long_diff = 0;          // the border's difference there
  int8_t e = 0;
  int8_t sc_match = 0, sc_mismatch = 0, sc_ambi = 0;
  bool with_cigar = false, approx_max = false, right = false;
};

// False when ksw_exts2 returns its reset result without a DP.
bool prepare_splice(const DpTask& task, SpliceSetup& s) {
  s.qlen = static_cast<int>(task.query.size());
  s.tlen = static_cast<int>(task.target.size());
  const int q = task.scoring.q, e = task.scoring.e, q2 = task.scoring.q2;
  if (s.qlen <= 0 || s.tlen <= 0 || q2 <= q + e) return false;
  const int min_sc = std::min({task.scoring.a, -task.scoring.b, -task.scoring.ambi});
  if (-min_sc > 2 * (q + e)) return false;
  s.q = wrap(q), s.q2 = wrap(q2), s.qe = wrap(q + e), s.e = wrap(e);
  s.qe_row0 = q + e;
  s.sc_match = wrap(task.scoring.a);
  s.sc_mismatch = wrap(-task.scoring.b);
  s.sc_ambi = task.scoring.ambi == 0 ? wrap(-e) : wrap(-task.scoring.ambi);
  // A gap of L = r + 1 border bases costs q + L*e until that passes q2.
  int lt = (q2 - q) / e - 1;
  if (q2 > q + e + lt * e) ++lt;
  s.long_thres = lt;
  s.long_diff = wrap(lt * e - (q2 - q));
  s.with_cigar = !(task.flag & dp_flag::kScoreOnly);
  s.approx_max = (task.flag & dp_flag::kApproxMax) != 0;
  s.right = (task.flag & dp_flag::kRight) != 0;
  return true;
}

// H(-1, r) - H(-1, r-1), equally H(r, -1) - H(r-1, -1).
int8_t border_diff(const SpliceSetup& s, int r) {
  if (r == 0) return wrap(-s.qe);
  if (r < s.long_thres) return wrap(-s.e);
  return r == s.long_thres ? s.long_diff : int8_t{0};
}

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
  SpliceSiteInput in;
  in.target = task.target.data(), in.tlen = s.tlen, in.flag = task.flag;
  in.noncan = task.noncan, in.junc_bonus = task.junc_bonus;
  in.junc = task.junc.empty() ? nullptr : task.junc.data();
  splice_site_scores(in, rw.donor, rw.acceptor, s.tlen);
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
    in.x_l = wrap(-s.qe), in.x2_l = wrap(-s.q2), in.v_l = border_diff(s, r);
  }
  if (en0 == r) rw.y[r] = wrap(-s.qe), rw.u[r] = border_diff(s, r);  // the left border at (r, -1)
  for (int t = st0; t <= en0; ++t) {
    const uint8_t tb = tseq[t], qb = qseq[r - t];
    const int8_t sc = (tb > 3 || qb > 3) ? s.sc_ambi : tb == qb ? s.sc_match : s.sc_mismatch;
    in.y_t = rw.y[t], in.u_t = rw.u[t];
    const CellIn here = in;
    in.x_l = rw.x[t], in.x2_l = rw.x2[t], in.v_l = rw.v[t];  // r-1 values at t, read by t+1
    const uint8_t d = splice_cell(s, here, sc, rw.donor[t], rw.acceptor[t], rw, t);
    if (dir) dir[t - st0] = d;
  }
}

// After anti-diagonal r in exact mode: the maxima at the query and target ends, the
// Z-drop test (no gap-length term), the final score. True when the run stops.
bool close_splice_exact(const DpTask& task, const SpliceSetup& s, const AntiDiagonal& d, int r, const int32_t* H,
                        int32_t max_h, int max_t, DpResult& res) {
  if (d.en0 == s.tlen - 1 && H[d.en0] > res.mte) res.mte = H[d.en0], res.mte_q = r - d.en;
  if (r - d.st0 == s.qlen - 1 && H[d.st0] > res.mqe) res.mqe = H[d.st0], res.mqe_t = d.st0;
  if (zdrop_rule(res, max_h, r, max_t, task.zdrop, 0)) return res.zdropped = true;
  if (r == s.qlen + s.tlen - 2 && d.en0 == s.tlen - 1) res.score = H[s.tlen - 1];
  return false;
}

// The same with APPROX_MAX: one step of the greedy path, the optional Z-drop on it.
bool close_splice_approx(const DpTask& task, const SpliceSetup& s, const AntiDiagonal& d, int r, const Rows& rw,
                         int32_t& h0, int32_t& last_t, DpResult& res) {
  if (r > 0)
    approx_rule(
        d.st0, d.en0, [&rw](int32_t t) { return int32_t{rw.u[t]}; }, [&rw](int32_t t) { return int32_t{rw.v[t]}; }, h0,
        last_t);
  else
    h0 = rw.v[0] - s.qe_row0, last_t = 0;
  if ((task.flag & dp_flag::kApproxDrop) && zdrop_rule(res, h0, r, last_t, task.zdrop, 0)) return res.zdropped = true;
  if (r == s.qlen + s.tlen - 2 && d.en0 == s.tlen - 1) res.score = h0;
  return false;
}

// ksw_exts2's traceback: from the last cell of a global alignment that was not Z-dropped,
// else from the best cell; N for the long-gap state.
void splice_cigar(const DpTask& task, const SpliceSetup& s, const Workspace& ws, DpResult& res) {
  int i0 = s.tlen - 1, j0 = s.qlen - 1;
  if (res.zdropped || (task.flag & dp_flag::kExtzOnly)) {
    if (res.max_t < 0 || res.max_q < 0) return;
    i0 = res.max_t, j0 = res.max_q;
  }
  res.cigar.resize(static_cast<size_t>(i0) + j0 + 2);
  auto dir = [&ws](int i, int j) { return ws.dir[ws.row[i + j] + (i - ws.off[i + j])]; };
  auto range = [&ws](int r, int32_t& st, int32_t& en) { st = ws.off[r], en = ws.off_end[r]; };
  const int n = walk_back(i0, j0, (task.flag & dp_flag::kRevCigar) != 0, dir, range, res.cigar.data(), s.long_thres);
  res.cigar.resize(static_cast<size_t>(n));
  res.cigar.shrink_to_fit();
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
  if (s.with_cigar && ws.row.size() < static_cast<size_t>(n_diag)) {
    ws.row.resize(static_cast<size_t>(n_diag));
    ws.off.resize(static_cast<size_t>(n_diag)), ws.off_end.resize(static_cast<size_t>(n_diag));
  }
  size_t dir_used = 0;
  int32_t h0 = 0, last_h0_t = 0;
  for (int r = 0; r < n_diag; ++r) {
    AntiDiagonal d;
    d.st0 = std::max(0, r - s.qlen + 1), d.en0 = std::min(s.tlen - 1, r);
    // The reference's rows are rounded out to 16 cells; only mte_q reads the rounding.
    d.st = d.st0 / kBlock * kBlock, d.en = (d.en0 + kBlock) / kBlock * kBlock - 1;
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
    } else if (close_splice_approx(task, s, d, r, rw, h0, last_h0_t, res)) {
      break;
    }
  }
  if (s.with_cigar) splice_cigar(task, s, ws, res);
}

}  // namespace agatha::kernels
