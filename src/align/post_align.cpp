// After base alignment (minimap2 2.24 behaviour, spec 8). See post_align.hpp.
//
//   filter_regions          hit.c: mm_filter_regs
//   update_dp_max           hit.c: mm_update_dp_max
//   hit_sort                hit.c: mm_hit_sort
//   set_sam_pri             hit.c: mm_set_sam_pri
//   set_inversion_mapq      map.c: mm_set_inv_mapq
//   finish_aligned_regions  align.c: align_regs (after the DP) + map.c: mm_map_frag
#include "post_align.hpp"

#include <algorithm>

#include "../map/chain.hpp"
#include "../map/radix_sort.hpp"
#include "cigar_fix.hpp"

namespace agatha::align {

using map::Region;

void filter_regions(const AlignOptions& opt, int qlen, std::vector<Region>& regs) {
  size_t k = 0;
  for (size_t i = 0; i < regs.size(); ++i) {
    const Region& r = regs[i];
    bool drop = !r.inv && r.cnt < opt.min_cnt;
    if (r.aligned) {
      if (r.mlen < opt.min_chain_score)
        drop = true;
      else if (r.dp_max < opt.min_dp_max)
        drop = true;
      else if (r.qs > qlen * opt.max_clip_ratio && qlen - r.qe > qlen * opt.max_clip_ratio)
        drop = true;
    }
    if (!drop) {
      if (k < i) regs[k] = std::move(regs[i]);
      ++k;
    }
  }
  regs.resize(k);
}

void update_dp_max(int qlen, std::vector<Region>& regs, float frac, int a, int b) {
  if (regs.size() < 2) return;
  int32_t max = -1, max2 = -1;
  int max_i = -1;
  for (size_t i = 0; i < regs.size(); ++i) {
    const Region& r = regs[i];
    if (!r.aligned) continue;
    if (r.dp_max > max)
      max2 = max, max = r.dp_max, max_i = static_cast<int>(i);
    else if (r.dp_max > max2)
      max2 = r.dp_max;
  }
  if (max_i < 0 || max < 0 || max2 < 0) return;
  const Region& best = regs[static_cast<size_t>(max_i)];
  if (best.qe - best.qs < static_cast<double>(qlen) * frac) return;
  if (max2 < static_cast<double>(max) * frac) return;
  double div = 1.0 - static_cast<double>(best.mlen) / (best.blen + best.n_ambi - best.n_gap + best.n_gapo);
  if (div < 0.02) div = 0.02;
  double b2 = 0.5 / div;
  if (b2 * a < b) b2 = static_cast<double>(a) / b;
  for (Region& r : regs) {
    if (!r.aligned) continue;
    int32_t n_gap = 0;
    double gap_cost = 0.0;
    for (uint32_t c : r.cigar) {
      const uint32_t op = cigar_op(c), len = cigar_len(c);
      if (op != kCigarIns && op != kCigarDel) continue;
      n_gap += static_cast<int32_t>(len);
      gap_cost += b2 + map::fast_log2(static_cast<float>(1 + len));
    }
    const int32_t n_mis = r.blen + r.n_ambi - r.mlen - n_gap;
    const double score = a * (r.mlen - b2 * n_mis - gap_cost);
    r.dp_max = std::max(0, static_cast<int32_t>(score + .499));
  }
}

void hit_sort(std::vector<Region>& regs) {
  if (regs.size() <= 1) return;
  std::vector<map::Anchor> aux;  // x: score << 32 | hash, y: index
  aux.reserve(regs.size());
  for (size_t i = 0; i < regs.size(); ++i) {
    const Region& r = regs[i];
    if (!r.inv && r.cnt <= 0) continue;
    const int32_t score = r.aligned ? r.dp_max : r.score;
    aux.push_back({static_cast<uint64_t>(static_cast<int64_t>(score)) << 32 | r.hash, i});
  }
  map::radix_sort_by_x(aux.data(), aux.data() + aux.size());
  std::vector<Region> sorted;
  sorted.reserve(aux.size());
  for (size_t i = aux.size(); i-- > 0;) sorted.push_back(std::move(regs[aux[i].y]));
  regs = std::move(sorted);
}

void set_sam_pri(std::vector<Region>& regs) {
  bool seen = false;
  for (Region& r : regs) {
    r.sam_pri = r.id == r.parent && !seen;
    if (r.id == r.parent) seen = true;
  }
}

void set_inversion_mapq(std::vector<Region>& regs) {
  const size_t n = regs.size();
  if (n < 3 || std::none_of(regs.begin(), regs.end(), [](const Region& r) { return r.inv; })) return;
  std::vector<map::Anchor> aux;  // x: rid << 32 | rs, y: index
  for (size_t i = 0; i < n; ++i)
    if (regs[i].parent == static_cast<int32_t>(i) || regs[i].parent < 0)
      aux.push_back({static_cast<uint64_t>(regs[i].rid) << 32 | static_cast<uint32_t>(regs[i].rs), i});
  map::radix_sort_by_x(aux.data(), aux.data() + aux.size());
  for (size_t i = 1; i + 1 < aux.size(); ++i) {
    Region& inv = regs[aux[i].y];
    if (inv.inv) inv.mapq = std::min(regs[aux[i - 1].y].mapq, regs[aux[i + 1].y].mapq);
  }
}

void finish_aligned_regions(const AlignOptions& opt, int qlen, int k, int rep_len, std::vector<Region>& regs) {
  filter_regions(opt, qlen, regs);
  if (qlen >= opt.rank_min_len) {
    update_dp_max(qlen, regs, opt.rank_frac, opt.a, opt.b);
    filter_regions(opt, qlen, regs);
  }
  hit_sort(regs);
  if (!opt.all_chains) {
    map::set_parent(regs, opt.mask_level, opt.mask_len, opt.a * 2 + opt.b, false);
    map::select_sub(regs, opt.pri_ratio, k * 2, opt.best_n, false, static_cast<int>(opt.max_gap * 0.8));
    set_sam_pri(regs);
  }
  map::set_mapq(regs, opt.min_chain_score, opt.a, rep_len, false);
  set_inversion_mapq(regs);
}

}  // namespace agatha::align
