// kernels/dp_scalar.cpp — the guided DP written to be read: one cell at a time, in
// the anti-diagonal order of minimap2 2.24's ksw_extd2. This is the oracle the fast
// backends are tested against.
//
// The recurrence (t target index, j query index, s(t,j) the substitution score):
//   H(t,j)   = max{ H(t-1,j-1) + s(t,j), E(t,j), F(t,j), E2(t,j), F2(t,j) }
//   E(t+1,j) = max{ H(t,j) - q,  E(t,j)  } - e      (deletion, consumes target)
//   F(t,j+1) = max{ H(t,j) - q,  F(t,j)  } - e      (insertion, consumes query)
//   E2, F2 likewise with q2, e2
// with H(-1,-1) = 0 and gap-only borders. It is evaluated in the difference form of
// dp_common.hpp, in 8-bit wrapping arithmetic, because that is what decides ties and
// soft-band values in the reference; 32-bit H is rebuilt alongside for the maxima.
#include "dp_common.hpp"
#include "dp_kernels.hpp"

namespace agatha::kernels {
namespace {

inline int8_t wrap(int v) { return static_cast<int8_t>(v); }

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
  std::fill(a.u, a.u + stride, wrap(-st.qe));
  std::fill(a.v, a.v + stride, wrap(-st.qe));
  std::fill(a.x, a.x + stride, wrap(-st.qe));
  std::fill(a.y, a.y + stride, wrap(-st.qe));
  std::fill(a.x2, a.x2 + stride, wrap(-st.qe2));
  std::fill(a.y2, a.y2 + stride, wrap(-st.qe2));
  std::fill(a.s, a.s + stride, int8_t{0});
  return a;
}

// Substitution scores of anti-diagonal r, refreshed in 16-cell chunks from st0 while
// the chunk start is <= en0 — cells of the rounded range outside these chunks keep the
// score of an earlier anti-diagonal, exactly as in the reference.
void refresh_scores(const Setup& st, const uint8_t* sf, const uint8_t* qrr, const AntiDiagonal& d, int8_t* s) {
  const int end = refresh_end(st, d.st0, d.en0);
  for (int t = d.st0; t <= end; ++t) s[t] = pair_score(st, sf[t], qrr[t]);
}

// One cell in difference form. Inputs: the anti-diagonal r-1 values at t-1 (x, x2, v)
// and at t (u, y, y2); s the score. Writes the new values at t and returns the
// direction byte (source of H plus continuation bits).
struct Cell {
  int8_t u, v, x, y, x2, y2;
};

uint8_t update_cell(const Setup& st, bool right, int8_t s, int8_t x_l, int8_t v_l, int8_t x2_l, int8_t u_t, int8_t y_t,
                    int8_t y2_t, Cell& out) {
  int8_t a = wrap(x_l + v_l);  // E(t,j) - H(t-1,j-1)
  int8_t b = wrap(y_t + u_t);  // F(t,j) - H(t-1,j-1)
  int8_t a2 = wrap(x2_l + v_l);
  int8_t b2 = wrap(y2_t + u_t);
  int8_t z = s;  // H(t,j) - H(t-1,j-1), so far from the diagonal
  uint8_t src = 0;
  // Left-aligned gaps take the first maximal source, right-aligned the last.
  const int8_t cand[4] = {a, b, a2, b2};
  for (int k = 0; k < 4; ++k) {
    if (right ? cand[k] >= z : cand[k] > z) src = static_cast<uint8_t>(k + 1);
    z = std::max(z, cand[k]);
  }
  z = std::min(z, st.sc_match);
  out.u = wrap(z - v_l);  // H(t,j) - H(t-1,j)
  out.v = wrap(z - u_t);  // H(t,j) - H(t,j-1)
  // Now a = E(t,j) - (H(t,j) - q) and so on: positive means the gap state continues.
  a = wrap(a - wrap(z - st.q));
  b = wrap(b - wrap(z - st.q));
  a2 = wrap(a2 - wrap(z - st.q2));
  b2 = wrap(b2 - wrap(z - st.q2));
  out.x = wrap(std::max(a, int8_t{0}) - st.qe);
  out.y = wrap(std::max(b, int8_t{0}) - st.qe);
  out.x2 = wrap(std::max(a2, int8_t{0}) - st.qe2);
  out.y2 = wrap(std::max(b2, int8_t{0}) - st.qe2);
  auto cont = [right](int8_t g) { return right ? g >= 0 : g > 0; };
  uint8_t d = src;
  if (cont(a)) d |= dir_bit::kContE;
  if (cont(b)) d |= dir_bit::kContF;
  if (cont(a2)) d |= dir_bit::kContE2;
  if (cont(b2)) d |= dir_bit::kContF2;
  return d;
}

}  // namespace

void extd2_scalar(const DpTask& task, DpResult& res, Workspace& ws) {
  res = DpResult{};
  Setup st;
  if (!prepare(task, st)) return;
  const bool right = (task.flag & dp_flag::kRight) != 0;
  const Arrays ar = init_arrays(st, ws);
  const uint8_t* sf = layout_sequences(task, st, ws);
  const uint8_t* qr = sf + st.tlen16;
  int32_t* H = nullptr;
  if (!st.approx_max) {
    H = ws.H.reserve(static_cast<size_t>(st.tlen16));
    std::fill(H, H + st.tlen16, kDpNegInf);
  }
  const int n_diag = st.qlen + st.tlen - 1;
  if (st.with_cigar) prepare_traceback(st, ws);
  size_t dir_used = 0;
  int32_t h0 = 0;
  int32_t last_h0_t = 0;
  int last_st = -1, last_en = -1;

  for (int r = 0; r < n_diag; ++r) {
    AntiDiagonal d;
    if (!anti_diagonal(st, r, d)) {
      res.zdropped = true;
      break;
    }
    res.cells += static_cast<uint64_t>(d.en0 - d.st0 + 1);
    // Values "at t-1 on r-1" for the first cell: stored ones if st-1 was computed on
    // r-1, the initial constants if not, the border at t = 0.
    int8_t x_l, x2_l, v_l;
    if (d.st > 0) {
      if (d.st - 1 >= last_st && d.st - 1 <= last_en)
        x_l = ar.x[d.st - 1], x2_l = ar.x2[d.st - 1], v_l = ar.v[d.st - 1];
      else
        x_l = wrap(-st.qe), x2_l = wrap(-st.qe2), v_l = wrap(-st.qe);
    } else {
      x_l = wrap(-st.qe), x2_l = wrap(-st.qe2), v_l = boundary_diff(st, r);
    }
    if (d.en >= r) {  // the cell (r, 0) reads the left border at t = r
      ar.y[r] = wrap(-st.qe), ar.y2[r] = wrap(-st.qe2);
      ar.u[r] = boundary_diff(st, r);
    }
    refresh_scores(st, sf, qr + (st.qlen - 1 - r), d, ar.s);

    // The direction bytes of this anti-diagonal, one per cell of [st, en].
    uint8_t* const dir_row = st.with_cigar ? traceback_row(ws, r, d, dir_used) : nullptr;
    for (int t = d.st; t <= d.en; ++t) {
      Cell c;
      const uint8_t dbyte = update_cell(st, right, ar.s[t], x_l, v_l, x2_l, ar.u[t], ar.y[t], ar.y2[t], c);
      x_l = ar.x[t], v_l = ar.v[t], x2_l = ar.x2[t];  // r-1 values at t, needed by t+1
      ar.u[t] = c.u, ar.v[t] = c.v, ar.x[t] = c.x, ar.y[t] = c.y, ar.x2[t] = c.x2, ar.y2[t] = c.y2;
      if (dir_row) dir_row[t - d.st] = dbyte;
    }

    if (!st.approx_max) {
      int32_t max_h;
      int max_t;
      exact_row_max(d, r, ar.u, ar.v, st.qe_row0, H, max_h, max_t);
      if (close_exact(task, st, d, r, H, max_h, max_t, res)) break;
    } else if (close_approx(task, st, d, r, ar.u, ar.v, h0, last_h0_t, res)) {
      break;
    }
    last_st = d.st, last_en = d.en;
  }
  finish_cigar(task, st, ws, res);
}

}  // namespace agatha::kernels
