// kernels/dp_diagonal.cpp — gap fills whose best path is the diagonal, answered without
// the matrix.
//
// A full-band ksw_extd2 gap fill (KSW_EZ_APPROX_MAX, global) of a query and a target of
// the same length L. Let a be the match score (no pair scores more) and g the cheapest
// gap of one base, and let D be what the diagonal's pairs lose against L matches. A path
// into diagonal cell (i, i) other than the diagonal has an insertion and a deletion, so
// it aligns at most i pairs and pays at least 2g: it scores at most i*a - 2g, while the
// diagonal's prefix scores at least (i+1)*a - D. With D < a + 2g the diagonal is
// therefore strictly best into every cell of it: each such cell takes the diagonal as
// its only maximal source, the traceback gives one M operation whichever side ties
// favour, and H at the last cell — which the greedy path of APPROX_MAX reads as the
// score, whatever way it took — is the diagonal's score (less ksw2's first-row offset,
// below). What the kernels report besides comes from the band alone (the cells count)
// or stays at its start value (no APPROX_DROP: no maximum is tracked; a global fill
// tracks no ends). Most gap fills of a genome against a close copy (asm5) are of this
// kind; in reads, whose errors include indels, few are.
#include <agatha/cigar.hpp>

#include "dp_common.hpp"
#include "dp_kernels.hpp"

namespace agatha::kernels {

bool diagonal_fill(const DpTask& task, DpResult* res) {
  constexpr uint32_t kAllowed =
      dp_flag::kApproxMax | dp_flag::kRight | dp_flag::kRevCigar | dp_flag::kScoreOnly | dp_flag::kMteQCell;
  if (!(task.flag & dp_flag::kApproxMax) || (task.flag & ~kAllowed)) return false;
  const size_t n = task.query.size();
  if (n == 0 || task.target.size() != n || dp_task_on_oracle(task)) return false;
  Setup s;
  if (!prepare(task, s) || s.generic) return false;
  if (s.w < s.qlen - 1) return false;  // the band must hold every cell
  const int a = s.sc_match;
  if (a <= 0 || s.sc_mismatch > a || s.sc_transition > a || s.sc_ambi > a) return false;
  if (s.q < 0 || s.e <= 0 || s.q2 < 0 || s.e2 <= 0) return false;
  const int64_t limit = int64_t{a} + 2 * std::min(int{s.q} + s.e, int{s.q2} + s.e2);
  int64_t lost = 0;
  for (size_t i = 0; i < n; ++i) {
    lost += a - pair_score(s, task.target[i], task.query[i]);
    if (lost >= limit) return false;
  }
  if (!res) return true;
  *res = DpResult{};
  const BandWalker band(s);
  for (int r = 0, n_diag = 2 * s.qlen - 1; r < n_diag; ++r) {
    AntiDiagonal d;
    band.at(r, d);  // never empty: the band holds the whole matrix
    res->cells += static_cast<uint64_t>(d.en0 - d.st0 + 1);
  }
  // The greedy path starts from H(0,0) less the first piece's q + e as the task gives
  // it (ksw2's first-row offset), where the cell's own value took the cheaper piece's:
  // with the pieces given costlier first, the score is below the diagonal's by the
  // difference.
  res->score = static_cast<int32_t>(int64_t{s.qlen} * a - lost) + s.qe - s.qe_row0;
  if (s.with_cigar) res->cigar.assign(1, cigar::make(static_cast<uint32_t>(n), cigar::kMatch));
  return true;
}

}  // namespace agatha::kernels
