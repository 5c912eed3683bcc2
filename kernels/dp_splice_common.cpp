// kernels/dp_splice_common.cpp — the parts of the splice DP every CPU kernel shares
// (splice_common.hpp), compiled once without instruction-set flags.
#include "splice_common.hpp"

#include "dp_common.hpp"

#include "dp_rules.hpp"
#include "splice_sites.hpp"
#include "traceback.hpp"

#include <algorithm>

namespace agatha::kernels {
namespace {

inline int8_t wrap(int v) { return static_cast<int8_t>(v); }

}  // namespace

bool prepare_splice(const DpTask& task, SpliceSetup& s) {
  s.qlen = static_cast<int>(task.query.size());
  s.tlen = static_cast<int>(task.target.size());
  // As minimap2 passes them: q, e, q2 as int8_t, the matrix from ksw_gen_simple_mat.
  const int q = wrap(task.scoring.q), e = wrap(task.scoring.e), q2 = wrap(task.scoring.q2);
  if (s.qlen <= 0 || s.tlen <= 0 || q2 <= q + e) return false;
  const KswMatrix m = ksw_matrix(task.scoring);
  const int min_sc = std::min({m.match, m.mismatch, m.ambi, m.transition});
  if (-min_sc > 2 * (q + e)) return false;
  s.q = wrap(q), s.q2 = wrap(q2), s.qe = wrap(q + e), s.e = wrap(e);
  s.qe_row0 = q + e;
  s.sc_match = m.match;
  s.sc_mismatch = m.mismatch;
  s.sc_transition = m.transition;
  // A zero N entry means -e, unless the reference reads the matrix itself (generic).
  s.sc_ambi = m.ambi == 0 && !task.scoring.generic() ? wrap(-e) : m.ambi;
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

void splice_site_rows(const DpTask& task, int8_t* donor, int8_t* acceptor, int n) {
  SpliceSiteInput in;
  in.target = task.target.data(), in.tlen = static_cast<int>(task.target.size()), in.flag = task.flag;
  in.noncan = wrap(task.noncan), in.junc_bonus = wrap(task.junc_bonus);  // int8_t in ksw_exts2
  in.junc = task.junc.empty() ? nullptr : task.junc.data();
  splice_site_scores(in, donor, acceptor, n);
}

void prepare_splice_traceback(const SpliceSetup& s, Workspace& ws) {
  const auto n = static_cast<size_t>(s.qlen + s.tlen - 1);
  size_row_index(ws, n);
  reserve_rows(ws, static_cast<size_t>(s.qlen) * static_cast<size_t>(s.tlen));  // [st0, en0] of every anti-diagonal
}

void splice_cigar(const DpTask& task, const SpliceSetup& s, const Workspace& ws, DpResult& res) {
  // traceback_start (dp_common.hpp) is ksw_exts2's rule too: since minimap2 2.31 it
  // takes an end bonus, and an end bonus <= 0 (2.24's calls) never reaches the query end.
  int i0 = 0, j0 = 0;
  if (!traceback_start(task, s.tlen, s.qlen, res, i0, j0)) return;
  res.cigar.resize(static_cast<size_t>(i0) + j0 + 2);
  auto dir = [&ws](int i, int j) { return ws.dir[ws.row[i + j] + (i - ws.off[i + j])]; };
  auto range = [&ws](int r, int32_t& st, int32_t& en) { st = ws.off[r], en = ws.off_end[r]; };
  const int n = walk_back(i0, j0, (task.flag & dp_flag::kRevCigar) != 0, dir, range, res.cigar.data(), s.long_thres);
  res.cigar.resize(static_cast<size_t>(n));
  res.cigar.shrink_to_fit();
}

}  // namespace agatha::kernels
