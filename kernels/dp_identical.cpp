// kernels/dp_identical.cpp — gap fills between identical sequences, answered without the
// matrix.
//
// In a full-band ksw_extd2 gap fill (KSW_EZ_APPROX_MAX, global) of a query and a target
// that are the same bases, none of them N, the path of matches is the only best one
// when a match outscores every other pair and every gap costs something: any other path
// aligns fewer pairs and pays for gaps. Every cell on that path takes the match as its
// strict maximum (a gap's value there is at least one gap below it), so the traceback
// gives one M operation whichever side ties favour; the greedy path of APPROX_MAX reads
// H at the last cell, L matches (less ksw2's first-row offset, below). What the kernels
// report besides comes from the band
// alone (the cells count), or is left at its start value (no APPROX_DROP: no maximum is
// tracked; a global fill tracks no ends).
#include <algorithm>
#include <cstring>

#include <agatha/cigar.hpp>

#include "dp_common.hpp"
#include "dp_kernels.hpp"

namespace agatha::kernels {

bool identical_fill(const DpTask& task, DpResult* res) {
  constexpr uint32_t kAllowed = dp_flag::kApproxMax | dp_flag::kRight | dp_flag::kRevCigar | dp_flag::kScoreOnly |
                                dp_flag::kMteQCell;
  if (!(task.flag & dp_flag::kApproxMax) || (task.flag & ~kAllowed)) return false;
  const size_t n = task.query.size();
  if (n == 0 || task.target.size() != n || dp_task_on_oracle(task)) return false;
  if (std::memcmp(task.query.data(), task.target.data(), n) != 0) return false;
  if (*std::max_element(task.query.begin(), task.query.end()) > 3) return false;
  Setup s;
  if (!prepare(task, s) || s.generic) return false;
  if (s.w < s.qlen - 1) return false;  // the band must hold every cell
  if (s.sc_match <= 0 || s.sc_mismatch >= s.sc_match || s.sc_transition >= s.sc_match) return false;
  if (s.q < 0 || s.e <= 0 || s.q2 < 0 || s.e2 <= 0) return false;
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
  // with the pieces given costlier first, the score is below the matches' by the
  // difference.
  res->score = s.qlen * s.sc_match + s.qe - s.qe_row0;
  if (s.with_cigar) res->cigar.assign(1, cigar::make(static_cast<uint32_t>(n), cigar::kMatch));
  return true;
}

}  // namespace agatha::kernels
