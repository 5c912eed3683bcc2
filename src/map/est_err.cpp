// minimap2 2.24's esterr.c (mm_est_err). See est_err.hpp.
#include "est_err.hpp"

#include <cmath>

namespace agatha::map {
namespace {

// Forward-strand query position of an anchor's last base.
int32_t forward_qpos(int qlen, const Anchor& a) {
  int32_t x = anchor_qpos(a);
  if (anchor_reverse(a)) x = qlen - 1 - (x + 1 - anchor_span(a));
  return x;
}

int32_t find_mini(int qlen, const Anchor& a, const std::vector<uint64_t>& mini_pos) {
  const int32_t x = forward_qpos(qlen, a);
  int32_t lo = 0, hi = static_cast<int32_t>(mini_pos.size()) - 1;
  while (lo <= hi) {
    const int32_t mid = static_cast<int32_t>((static_cast<uint64_t>(lo) + hi) >> 1);
    const int32_t y = static_cast<int32_t>(mini_pos[mid]);
    if (y < x)
      lo = mid + 1;
    else if (y > x)
      hi = mid - 1;
    else
      return mid;
  }
  return -1;
}

}  // namespace

void estimate_divergence(std::vector<Region>& regs, int qlen, const Anchor* a, const std::vector<uint64_t>& mini_pos,
                         const std::vector<int32_t>& ref_lens) {
  const int32_t n = static_cast<int32_t>(mini_pos.size());
  if (n == 0) return;
  uint64_t sum_k = 0;
  for (uint64_t m : mini_pos) sum_k += m >> 32 & 0xff;
  const float avg_k = static_cast<float>(sum_k) / n;
  for (Region& r : regs) {
    r.div = -1.0f;
    if (r.cnt == 0) continue;
    // Anchors in forward query order: a reverse-strand chain is walked from its end.
    auto anchor_at = [&](int32_t k) -> const Anchor& { return r.rev ? a[r.as + r.cnt - 1 - k] : a[r.as + k]; };
    const int32_t st = find_mini(qlen, anchor_at(0), mini_pos);
    if (st < 0) continue;
    int32_t en = st, n_match = 1;
    for (int32_t k = 1, j = st + 1; j < n && k < r.cnt; ++j) {
      if (forward_qpos(qlen, anchor_at(k)) == static_cast<int32_t>(mini_pos[j])) ++k, en = j, ++n_match;
    }
    int32_t n_tot = en - st + 1;
    const int32_t l_ref = ref_lens[r.rid];
    if (r.qs > avg_k && r.rs > avg_k) ++n_tot;
    if (qlen - r.qs > avg_k && l_ref - r.re > avg_k) ++n_tot;  // sic: qs, not qe
    r.div =
        n_match >= n_tot ? 0.0f : static_cast<float>(1.0 - std::pow(static_cast<double>(n_match) / n_tot, 1.0 / avg_k));
  }
}

}  // namespace agatha::map
