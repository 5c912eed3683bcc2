// src/dp/scoring.cpp — the engine's input rules that need no backend: which scoring
// schemes the 8-bit difference arithmetic holds exactly.
#include <agatha/dp.hpp>

#include <algorithm>

namespace agatha {

std::string validate_scoring(const DpScoring& sc) {
  const int v[] = {sc.a, sc.b, sc.ambi, sc.q, sc.e, sc.q2, sc.e2};
  for (int x : v)
    if (x < 0 || x > 127) return "every score and penalty must lie in [0, 127]";
  if (sc.a < 1) return "the match score must be positive";
  const int qe = sc.q + sc.e, qe2 = sc.q2 + sc.e2;
  // The differences u, v, x, y live in 8 bits: gap-open sums and match plus the
  // larger open must stay below 128.
  if (qe + qe2 > 127) return "(q+e)+(q2+e2) must be at most 127";
  if (sc.a + std::max(qe, qe2) > 127) return "a+max(q+e, q2+e2) must be at most 127";
  return {};
}

std::string validate_splice_scoring(const DpScoring& sc, int noncan, int junc_bonus) {
  // ksw_exts2 computes in 8-bit differences that may wrap, exactly as the engine does, so
  // any value minimap2 can pass is taken; they only have to be what it passes: int8_t
  // penalties that are not negative (ksw_gen_simple_mat takes |a|, -|b|, -|ambi|).
  const int v[] = {sc.a, sc.b, sc.ambi, sc.q, sc.e, sc.q2, noncan};
  for (int x : v)
    if (x < 0 || x > 127) return "a, b, ambi, q, e, q2 and noncan must lie in [0, 127]";
  if (sc.e < 1) return "the gap extension e must be at least 1 (ksw_exts2 divides by it)";
  if (junc_bonus < -128 || junc_bonus > 127) return "the junction bonus must lie in [-128, 127]";
  return {};
}

}  // namespace agatha
