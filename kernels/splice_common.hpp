// kernels/splice_common.hpp — what the CPU kernels of the splice DP (ksw_exts2) share:
// the task set-up, the border, the donor/acceptor rows, the rules applied once per
// anti-diagonal and the traceback. The per-task parts are defined out of line in
// dp_splice_common.cpp, which is compiled without instruction-set flags, so that the
// SIMD kernels (compiled with -msse4.1 / -mavx2) never supply a copy of them to the
// scalar one. The per-anti-diagonal rules are static inline here: each translation unit
// compiles its own private copy (internal linkage, nothing for the linker to share), so
// the SIMD loops inline them.
#pragma once

#include <agatha/dp.hpp>

#include "dp_common.hpp"

#include <cstdint>

namespace agatha::kernels {

struct SpliceSetup {
  int qlen = 0, tlen = 0;
  int8_t q = 0, q2 = 0, qe = 0;  // qe = q + e, wrapped as the reference's vectors hold it
  int8_t e = 0;
  int32_t qe_row0 = 0;   // q + e unwrapped: H(0,0) = v(0) - (q + e)
  int long_thres = 0;    // first border position whose gap costs q2 (ksw_backtrack's min_intron_len)
  int8_t long_diff = 0;  // the border's difference there
  int8_t sc_match = 0, sc_mismatch = 0, sc_ambi = 0;
  int8_t sc_transition = 0;  // DpScoring::transition_score (generic scoring)
  bool with_cigar = false, approx_max = false, right = false;
};

// Fills s; false when ksw_exts2 returns its reset result without a DP (an empty
// sequence, q2 <= q + e, or a mismatch dearer than two gap opens).
bool prepare_splice(const DpTask& task, SpliceSetup& s);

// H(-1, r) - H(-1, r-1), equally H(r, -1) - H(r-1, -1): -(q+e) at 0, -e up to
// long_thres, long_diff at it, 0 after (the border is -min(q + (r+1)*e, q2)).
static inline int8_t splice_border_diff(const SpliceSetup& s, int r) {
  if (r == 0) return static_cast<int8_t>(-s.qe);
  if (r < s.long_thres) return static_cast<int8_t>(-s.e);
  return r == s.long_thres ? s.long_diff : int8_t{0};
}

// donor[0, n) and acceptor[0, n) of the task's target (splice_sites.hpp), n >= tlen.
void splice_site_rows(const DpTask& task, int8_t* donor, int8_t* acceptor, int n);

// Sizes the traceback's row index and reserves the direction rows (qlen x tlen bytes).
void prepare_splice_traceback(const SpliceSetup& s, Workspace& ws);

// The geometry of anti-diagonal r: the cells inside the matrix, [st0, en0], and the
// reference's 16-rounded range [st, en] (only mte_q reads it).
static inline AntiDiagonal splice_anti_diagonal(const SpliceSetup& s, int r) {
  AntiDiagonal d;
  d.st0 = std::max(0, r - s.qlen + 1), d.en0 = std::min(s.tlen - 1, r);
  d.st = d.st0 / kBlock * kBlock, d.en = (d.en0 + kBlock) / kBlock * kBlock - 1;
  return d;
}

// After anti-diagonal r in exact mode, with H of its cells and its best cell (max_h at
// max_t): the maxima at the query and target ends, the Z-drop test (no gap-length term),
// the final score. True when the run stops.
static inline bool close_splice_exact(const DpTask& task, const SpliceSetup& s, const AntiDiagonal& d, int r,
                                      const int32_t* H, int32_t max_h, int max_t, DpResult& res) {
  if (d.en0 == s.tlen - 1 && H[d.en0] > res.mte) res.mte = H[d.en0], res.mte_q = r - mte_q_end(task, d);
  if (r - d.st0 == s.qlen - 1 && H[d.st0] > res.mqe) res.mqe = H[d.st0], res.mqe_t = d.st0;
  if (zdrop_rule(res, max_h, r, max_t, task.zdrop, 0)) return res.zdropped = true;
  if (r == s.qlen + s.tlen - 2 && d.en0 == s.tlen - 1) res.score = H[s.tlen - 1];
  return false;
}

// The same with APPROX_MAX, from the anti-diagonal's differences u and v (indexed by t):
// one step of the greedy path (h0 at last_t), the optional Z-drop on it.
static inline bool close_splice_approx(const DpTask& task, const SpliceSetup& s, const AntiDiagonal& d, int r,
                                       const int8_t* u, const int8_t* v, int32_t& h0, int32_t& last_t, DpResult& res) {
  if (r > 0)
    approx_rule(
        d.st0, d.en0, [u](int32_t t) { return int32_t{u[t]}; }, [v](int32_t t) { return int32_t{v[t]}; }, h0, last_t);
  else
    h0 = v[0] - s.qe_row0, last_t = 0;
  if ((task.flag & dp_flag::kApproxDrop) && zdrop_rule(res, h0, r, last_t, task.zdrop, 0)) return res.zdropped = true;
  if (r == s.qlen + s.tlen - 2 && d.en0 == s.tlen - 1) res.score = h0;
  return false;
}

// ksw_exts2's traceback through the workspace's direction rows: from the last cell of a
// global alignment that was not Z-dropped, from the query end of an extension when the
// end bonus takes it there (minimap2 2.31; reach_end), else from the best cell; N for
// the long-gap state.
void splice_cigar(const DpTask& task, const SpliceSetup& s, const Workspace& ws, DpResult& res);

}  // namespace agatha::kernels
