// src/dp/scoring.cpp — the engine's input rules that need no backend: minimap2's
// scoring matrix, which scorings the engine takes, and which of them every backend's
// fast kernel computes.
#include <agatha/dp.hpp>

#include <algorithm>
#include <climits>

namespace agatha {

KswMatrix ksw_matrix(const DpScoring& sc) {
  return {sc.match_score(), sc.mismatch_score(), sc.ambi_score(), sc.transition_score()};
}

std::string validate_scoring(const DpScoring& sc, bool single_affine) {
  if (single_affine && (sc.q != sc.q2 || sc.e != sc.e2))
    return "a single-affine (ksw_extz2) task needs q2 == q and e2 == e";
  return {};
}

bool dp_scoring_native(const DpScoring& sc) {
  const int v[] = {sc.a, sc.b, sc.ambi, sc.q, sc.e, sc.q2, sc.e2};
  for (int x : v)
    if (x < 0 || x > 127) return false;
  if (sc.a < 1) return false;
  const int qe = sc.q + sc.e, qe2 = sc.q2 + sc.e2;
  // The differences u, v, x, y live in 8 bits: gap-open sums and match plus the
  // larger open must stay below 128.
  if (qe + qe2 > 127) return false;
  if (sc.a + std::max(qe, qe2) > 127) return false;
  return true;
}

namespace {

// The splice kernels' fast range: values as given in [0, 127] (the int8 conversions are
// then the identity), e >= 1, the junction bonus an int8_t.
bool splice_native(const DpScoring& sc, int noncan, int junc_bonus) {
  const int v[] = {sc.a, sc.b, sc.ambi, sc.q, sc.e, sc.q2, noncan};
  for (int x : v)
    if (x < 0 || x > 127) return false;
  return sc.e >= 1 && junc_bonus >= -128 && junc_bonus <= 127;
}

}  // namespace

bool dp_task_on_oracle(const DpTask& task) {
  // minimap2's generic-matrix scoring (a transition score, -b): the scalar kernels only.
  if (task.scoring.generic()) return true;
  if (task.flag & dp_flag::kSplice) return !splice_native(task.scoring, task.noncan, task.junc_bonus);
  return (task.flag & dp_flag::kSingleAffine) || !dp_scoring_native(task.scoring);
}

std::string validate_splice_scoring(const DpScoring& sc, int noncan, int junc_bonus) {
  // ksw_exts2 takes a, b, ambi (through ksw_gen_simple_mat), q, e, q2, noncan and the
  // junction bonus as int8_t and computes in 8-bit differences that may wrap, exactly as
  // the engine does, so any value minimap2 can pass is taken, but one: an e that is 0 as
  // an int8_t (-E 256), which ksw_exts2 divides by.
  (void)noncan, (void)junc_bonus;
  if (static_cast<int8_t>(sc.e) == 0 && static_cast<int8_t>(sc.q2) > static_cast<int8_t>(sc.q))
    return "the gap extension e is 0 as an int8_t (ksw_exts2 divides by it)";
  return {};
}

}  // namespace agatha
