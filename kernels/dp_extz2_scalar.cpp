// kernels/dp_extz2_scalar.cpp — minimap2 2.24's single-affine guided DP (ksw_extz2),
// the call mm_align_pair makes instead of ksw_extd2 when q == q2 and e == e2, one cell
// at a time. Tasks carry dp_flag::kSingleAffine; every backend computes them here.
//
// The recurrence is ksw_extd2's with one gap piece (dp_scalar.cpp), but ksw_extz2 keeps
// its differences as unsigned bytes offset by q+e:
//   u(t) = H(t,j) - H(t-1,j) + qe     v(t) = H(t,j) - H(t,j-1) + qe
//   x(t) = max(E'(t,j) - H(t,j) + qe, 0)   y(t) likewise for F'
// and compares them partly as signed and partly as unsigned bytes. So its values wrap
// at other points than ksw_extd2's: wherever a difference leaves [-qe, 255 - qe] (the
// cells of the rounded band margin, large match scores, matrices from wrapped -A/-B
// values), and its answers can then differ from ksw_extd2's with equal pieces. It also
// skips the APPROX_DROP Z-drop test on the first anti-diagonal. The arithmetic below
// follows these rules byte for byte; scripts/ksw2_diff.c measures how often the two
// kernels disagree.
#include "dp_common.hpp"
#include "dp_kernels.hpp"

namespace agatha::kernels {
namespace {

inline uint8_t u8(int v) { return static_cast<uint8_t>(v); }
inline int s8(uint8_t v) { return static_cast<int8_t>(v); }

struct Bytes {
  uint8_t *u, *v, *x, *y;
  int8_t* s;
};

// One cell. xl, vl: x and v of anti-diagonal r-1 at t-1; ut, yt: u and y of r-1 at t.
// Writes u, v, x, y of the cell and returns its direction byte (source 1 = deletion,
// 2 = insertion, 0 = diagonal, plus the continuation bits of the two gap states).
inline uint8_t cell(int8_t sc, uint8_t qe2, uint8_t q, uint8_t max_sc, bool right, bool with_cigar, uint8_t xl,
                    uint8_t vl, uint8_t ut, uint8_t yt, uint8_t& u_out, uint8_t& v_out, uint8_t& x_out,
                    uint8_t& y_out) {
  uint8_t z = u8(sc + qe2);
  uint8_t a = u8(xl + vl);
  uint8_t b = u8(yt + ut);
  uint8_t d = 0;
  // The diagonal and the deletion compare as signed bytes, the insertion joins as an
  // unsigned byte (both are the reference's choices).
  if (with_cigar && !right) {
    d = s8(a) > s8(z) ? 1 : 0;
    z = s8(z) > s8(a) ? z : a;
    if (s8(b) > s8(z)) d = 2;
  } else if (with_cigar) {
    d = s8(z) > s8(a) ? 0 : 1;
    z = s8(z) > s8(a) ? z : a;
    if (!(s8(z) > s8(b))) d = 2;
  } else {
    z = s8(z) > s8(a) ? z : a;
  }
  z = std::max(z, b);
  z = std::min(z, max_sc);
  u_out = u8(z - vl);
  v_out = u8(z - ut);
  z = u8(z - q);
  a = u8(a - z);
  b = u8(b - z);
  if (right && with_cigar) {
    x_out = s8(a) < 0 ? 0 : a;
    y_out = s8(b) < 0 ? 0 : b;
    if (s8(a) >= 0) d |= dir_bit::kContE;
    if (s8(b) >= 0) d |= dir_bit::kContF;
  } else {
    x_out = s8(a) > 0 ? a : 0;
    y_out = s8(b) > 0 ? b : 0;
    if (s8(a) > 0) d |= dir_bit::kContE;
    if (s8(b) > 0) d |= dir_bit::kContF;
  }
  return d;
}

// H of anti-diagonal r (r > 0) from r-1 and its best cell, with ksw2's tie rule (see
// exact_row_max in dp_common.hpp): the differences here are unsigned and offset by qe.
void row_max(const AntiDiagonal& d, const uint8_t* u, const uint8_t* v, int32_t qe, int32_t* H, int32_t& max_h,
             int& max_t) {
  H[d.en0] = d.en0 > 0 ? H[d.en0 - 1] + u[d.en0] - qe : H[d.en0] + v[d.en0] - qe;
  max_h = H[d.en0], max_t = d.en0;
  const int en1 = d.st0 + (d.en0 - d.st0) / 4 * 4;
  int32_t lane_h[4] = {max_h, max_h, max_h, max_h};
  int lane_t[4] = {max_t, max_t, max_t, max_t};
  for (int t = d.st0; t < en1; ++t) {
    H[t] += v[t] - qe;
    const int k = (t - d.st0) & 3;
    if (H[t] > lane_h[k]) lane_h[k] = H[t], lane_t[k] = t;
  }
  for (int k = 0; k < 4; ++k)
    if (lane_h[k] > max_h) max_h = lane_h[k], max_t = lane_t[k];
  for (int t = en1; t < d.en0; ++t) {
    H[t] += v[t] - qe;
    if (H[t] > max_h) max_h = H[t], max_t = t;
  }
}

}  // namespace

void extz2_scalar(const DpTask& task, DpResult& res, Workspace& ws) {
  res = DpResult{};
  Setup st;
  // With q2 == q and e2 == e, prepare() gives the pieces, the matrix (a zero N entry
  // becomes -e) and ksw_extz2's early return unchanged.
  if (!prepare(task, st)) return;
  const bool right = (task.flag & dp_flag::kRight) != 0;
  const int qe = st.qe;
  const uint8_t qe2 = u8(2 * qe), q = u8(st.q), max_sc = u8(st.sc_match + 2 * qe);
  const size_t stride = static_cast<size_t>(st.tlen16) + kPad;
  int8_t* base = ws.diff.reserve(stride * 5);
  std::fill(base, base + stride * 5, int8_t{0});
  auto* ub = reinterpret_cast<uint8_t*>(base);
  const Bytes ar{ub, ub + stride, ub + 2 * stride, ub + 3 * stride, base + 4 * stride};
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
  int32_t h0 = 0, last_h0_t = 0;
  int last_st = -1, last_en = -1;

  for (int r = 0; r < n_diag; ++r) {
    AntiDiagonal d;
    if (!anti_diagonal(st, r, d)) {
      res.zdropped = true;
      break;
    }
    res.cells += static_cast<uint64_t>(d.en0 - d.st0 + 1);
    uint8_t x_l = 0, v_l = 0;  // offset zeros: -qe, the value of a cell never computed
    if (d.st > 0) {
      if (d.st - 1 >= last_st && d.st - 1 <= last_en) x_l = ar.x[d.st - 1], v_l = ar.v[d.st - 1];
    } else {
      v_l = r ? q : 0;  // the border: -e, and -qe at the corner
    }
    if (d.en >= r) ar.y[r] = 0, ar.u[r] = r ? q : 0;
    // ksw_extz2 widens these two start values to 32 bits as signed bytes before they
    // enter lane 0 of the first 16-cell block: one above 127 also sets every bit of
    // lanes 1-3, so cells st+1..st+3 read 0xff as their left neighbour's value.
    const uint8_t x_fill = x_l >= 128 ? 0xff : 0, v_fill = v_l >= 128 ? 0xff : 0;
    // Scores in 16-cell chunks from st0, as ksw2 refreshes them (dp_scalar.cpp).
    const uint8_t* qrr = qr + (st.qlen - 1 - r);
    const int end = refresh_end(st, d.st0, d.en0);
    for (int t = d.st0; t <= end; ++t) ar.s[t] = pair_score(st, sf[t], qrr[t]);
    uint8_t* const dir_row = st.with_cigar ? traceback_row(ws, r, d, dir_used) : nullptr;
    for (int t = d.st; t <= d.en; ++t) {
      uint8_t nu, nv, nx, ny;
      const uint8_t dbyte =
          cell(ar.s[t], qe2, q, max_sc, right, st.with_cigar, x_l, v_l, ar.u[t], ar.y[t], nu, nv, nx, ny);
      x_l = ar.x[t], v_l = ar.v[t];
      if (t - d.st < 3) x_l |= x_fill, v_l |= v_fill;
      ar.u[t] = nu, ar.v[t] = nv, ar.x[t] = nx, ar.y[t] = ny;
      if (dir_row) dir_row[t - d.st] = dbyte;
    }

    if (!st.approx_max) {
      int32_t max_h;
      int max_t;
      if (r == 0) {
        H[0] = ar.v[0] - 2 * qe;
        max_h = H[0], max_t = 0;
      } else {
        row_max(d, ar.u, ar.v, qe, H, max_h, max_t);
      }
      if (close_exact(task, st, d, r, H, max_h, max_t, res)) break;  // Z-drop with e2 == e
    } else {
      if (r > 0) {
        approx_rule(
            d.st0, d.en0, [&](int32_t t) { return int32_t{ar.u[t]} - qe; },
            [&](int32_t t) { return int32_t{ar.v[t]} - qe; }, h0, last_h0_t);
        if ((task.flag & dp_flag::kApproxDrop) && zdrop_rule(res, h0, r, last_h0_t, task.zdrop, st.e)) {
          res.zdropped = true;
          break;
        }
      } else {
        h0 = ar.v[0] - 2 * qe, last_h0_t = 0;
      }
      if (r == st.qlen + st.tlen - 2 && d.en0 == st.tlen - 1) res.score = h0;
    }
    last_st = d.st, last_en = d.en;
  }
  finish_cigar(task, st, ws, res);
}

}  // namespace agatha::kernels
