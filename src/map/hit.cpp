// minimap2 2.24's hit.c on agatha's regions. See hit.hpp.
//
//   gen_regions             mm_gen_regs
//   set_region_coords       mm_reg_set_coor + mm_cal_fuzzy_len
//   set_parent              mm_set_parent
//   sync_regions            mm_sync_regs
//   select_sub              mm_select_sub
//   filter_strand_retained  mm_filter_strand_retained
//   set_mapq                mm_set_mapq
//   filter_regions          mm_filter_regs
//   update_dp_max           mm_update_dp_max
//   hit_sort                mm_hit_sort
//   set_sam_pri             mm_set_sam_pri
//   set_inversion_mapq      mm_set_inv_mapq
//   split_region            mm_split_reg
#include "hit.hpp"

#include <agatha/cigar.hpp>

#include <algorithm>
#include <cmath>

#include "radix_sort.hpp"

namespace agatha::map {
namespace {

// Thomas Wang's 64-bit integer hash (the sketch hash without its k-mer mask).
uint64_t hash64(uint64_t key) {
  key = ~key + (key << 21);
  key ^= key >> 24;
  key = (key + (key << 3)) + (key << 8);
  key ^= key >> 14;
  key = (key + (key << 2)) + (key << 4);
  key ^= key >> 28;
  key += key << 31;
  return key;
}

// Length of [s, e) not covered by the sorted intervals in cov (start << 32 | end).
int32_t uncovered_length(int32_t s, int32_t e, std::vector<uint64_t>& cov) {
  radix_sort_u64(cov.data(), cov.data() + cov.size());
  int32_t uncov = 0, x = s;
  for (uint64_t c : cov) {
    const int32_t cs = static_cast<int32_t>(c >> 32), ce = static_cast<int32_t>(c);
    if (cs > x) uncov += cs - x;
    x = std::max(x, ce);
  }
  if (e > x) uncov += e - x;
  return uncov;
}

}  // namespace

void set_region_coords(Region& r, int qlen, const Anchor* a, bool qstrand) {
  const Anchor& first = a[r.as];
  const Anchor& last = a[r.as + r.cnt - 1];
  const int32_t q_span = anchor_span(first);
  r.rev = anchor_reverse(first);
  r.rid = anchor_rid(first);
  r.rs = anchor_rpos(first) + 1 > q_span ? anchor_rpos(first) + 1 - q_span : 0;  // the target span may be shorter
  r.re = anchor_rpos(last) + 1;
  if (!r.rev || qstrand) {  // --qstrand: anchors already on the query's strand
    r.qs = anchor_qpos(first) + 1 - q_span;
    r.qe = anchor_qpos(last) + 1;
  } else {
    r.qs = qlen - (anchor_qpos(last) + 1);
    r.qe = qlen - (anchor_qpos(first) + 1 - q_span);
  }
  // Fuzzy lengths: blen sums the larger gap between consecutive anchors, mlen the
  // smaller one, capped at the span when both gaps exceed it.
  r.mlen = r.blen = 0;
  if (r.cnt <= 0) return;
  r.mlen = r.blen = q_span;
  for (int32_t i = r.as + 1; i < r.as + r.cnt; ++i) {
    const int32_t span = anchor_span(a[i]);
    const int32_t tl = anchor_rpos(a[i]) - anchor_rpos(a[i - 1]);
    const int32_t ql = anchor_qpos(a[i]) - anchor_qpos(a[i - 1]);
    r.blen += std::max(tl, ql);
    r.mlen += tl > span && ql > span ? span : std::min(tl, ql);
  }
}

std::vector<Region> gen_regions(uint32_t read_hash, int qlen, const Chains& chains, bool qstrand) {
  const size_t n = chains.size();
  if (n == 0) return {};
  // Key: score << 32 | (count ^ hash of the first anchor), sorted descending.
  std::vector<Anchor> z(n);
  uint64_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    const Anchor& first = chains.anchors[k];
    const uint32_t h = static_cast<uint32_t>(hash64((hash64(first.x) + hash64(first.y)) ^ read_hash));
    z[i].x = chains.u[i] ^ h;
    z[i].y = k << 32 | static_cast<uint32_t>(Chains::count(chains.u[i]));
    k += static_cast<uint32_t>(Chains::count(chains.u[i]));
  }
  radix_sort_by_x(z.data(), z.data() + n);
  std::reverse(z.begin(), z.end());

  std::vector<Region> regs(n);
  for (size_t i = 0; i < n; ++i) {
    Region& r = regs[i];
    r.id = static_cast<int32_t>(i);
    r.parent = kParentUnset;
    r.score = r.score0 = static_cast<int32_t>(z[i].x >> 32);
    r.hash = static_cast<uint32_t>(z[i].x);
    r.cnt = static_cast<int32_t>(z[i].y);
    r.as = static_cast<int32_t>(z[i].y >> 32);
    r.div = -1.0f;
    set_region_coords(r, qlen, chains.anchors.data(), qstrand);
  }
  return regs;
}

int alt_score(int score, float alt_drop) {
  if (score < 0) return score;
  const int s = static_cast<int>(score * (1.0 - alt_drop) + .499);
  return s > 0 ? s : 1;
}

void mark_alt(std::vector<Region>& regs, const std::vector<uint8_t>& alt_refs, float alt_drop) {
  if (alt_refs.empty()) return;
  for (Region& r : regs)
    if (alt_refs[static_cast<size_t>(r.rid)]) r.is_alt = true;
  hit_sort(regs, alt_drop);
}

void set_parent(std::vector<Region>& regs, float mask_level, int mask_len, int sub_diff, bool hard_mask_level,
                float alt_drop) {
  const int n = static_cast<int>(regs.size());
  if (n <= 0) return;
  for (int i = 0; i < n; ++i) regs[i].id = i;
  std::vector<int> primaries{0};
  std::vector<uint64_t> cov;
  regs[0].parent = 0;
  for (int i = 1; i < n; ++i) {
    Region& ri = regs[i];
    const int si = ri.qs, ei = ri.qe;
    int uncov = 0;
    bool overlaps = true;
    if (!hard_mask_level) {  // query length of ri not covered by the primaries so far
      cov.clear();
      for (int w : primaries) {
        const Region& rp = regs[w];
        if (rp.qe <= si || rp.qs >= ei) continue;
        cov.push_back(static_cast<uint64_t>(std::max(rp.qs, si)) << 32 | static_cast<uint32_t>(std::min(rp.qe, ei)));
      }
      overlaps = !cov.empty();
      if (overlaps) uncov = uncovered_length(si, ei, cov);
    }
    bool secondary = false;
    for (size_t j = 0; overlaps && j < primaries.size(); ++j) {
      Region& rp = regs[primaries[j]];
      const int sj = rp.qs, ej = rp.qe;
      if (ej <= si || sj >= ei) continue;
      const int min = std::min(ej - sj, ei - si), max = std::max(ej - sj, ei - si);
      const int ol = std::min(ei, ej) - std::max(si, sj);
      if (!(static_cast<float>(ol) / min - static_cast<float>(uncov) / max > mask_level && uncov <= mask_len)) continue;
      secondary = true;
      ri.parent = rp.parent;
      const bool alt_against_primary = !rp.is_alt && ri.is_alt;
      rp.subsc = std::max(rp.subsc, alt_against_primary ? alt_score(ri.score, alt_drop) : ri.score);
      bool counts = ri.cnt >= rp.cnt;
      if (rp.aligned && ri.aligned && (rp.rid != ri.rid || rp.rs != ri.rs || rp.re != ri.re || ol != min)) {
        rp.dp_max2 = std::max(rp.dp_max2, alt_against_primary ? alt_score(ri.dp_max, alt_drop) : ri.dp_max);
        if (rp.dp_max - ri.dp_max <= sub_diff) counts = true;
      }
      if (counts) ++rp.n_sub;
      break;
    }
    if (!secondary) primaries.push_back(i), ri.parent = i, ri.n_sub = 0;
  }
}

void sync_regions(std::vector<Region>& regs) {
  if (regs.empty()) return;
  int32_t max_id = -1;
  for (const Region& r : regs) max_id = std::max(max_id, r.id);
  std::vector<int32_t> new_index(static_cast<size_t>(max_id + 1), -1);
  for (size_t i = 0; i < regs.size(); ++i)
    if (regs[i].id >= 0) new_index[regs[i].id] = static_cast<int32_t>(i);
  for (size_t i = 0; i < regs.size(); ++i) {
    Region& r = regs[i];
    r.id = static_cast<int32_t>(i);
    if (r.parent == kParentTmpPri)
      r.parent = static_cast<int32_t>(i);
    else if (r.parent >= 0 && new_index[r.parent] >= 0)
      r.parent = new_index[r.parent];
    else
      r.parent = kParentUnset;
  }
}

void select_sub(std::vector<Region>& regs, float pri_ratio, int min_diff, int best_n, bool check_strand,
                int min_strand_sc, bool decide_first) {
  const int n = static_cast<int>(regs.size());
  if (!(pri_ratio > 0.0f) || n == 0) return;
  // 0: drop, 1: keep, 2: keep as a strand-retained secondary. par is the region the
  // parent index names: the untouched array (decide_first) or the partly compacted one.
  int n_2nd = 0;
  auto decide = [&](const Region& ri, int i, const Region& par) -> int {
    if (ri.parent == i || ri.inv) return 1;
    if ((ri.score >= par.score * pri_ratio || ri.score + min_diff >= par.score) && n_2nd < best_n) {
      const bool identical =
          ri.qs == par.qs && ri.qe == par.qe && ri.rid == par.rid && ri.rs == par.rs && ri.re == par.re;
      if (identical) return 0;
      ++n_2nd;
      return 1;
    }
    if (check_strand && n_2nd < best_n && ri.score > min_strand_sc && ri.rev != par.rev) {
      ++n_2nd;
      return 2;
    }
    return 0;
  };
  int k = 0;
  if (decide_first) {
    std::vector<uint8_t> keep(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      const Region& ri = regs[static_cast<size_t>(i)];
      keep[static_cast<size_t>(i)] = static_cast<uint8_t>(decide(ri, i, regs[static_cast<size_t>(ri.parent)]));
    }
    for (int i = 0; i < n; ++i) {
      const uint8_t d = keep[static_cast<size_t>(i)];
      if (d == 0) continue;
      if (k != i) regs[static_cast<size_t>(k)] = regs[static_cast<size_t>(i)];
      if (d == 2) regs[static_cast<size_t>(k)].strand_retained = true;
      ++k;
    }
  } else {
    for (int i = 0; i < n; ++i) {
      // regs[p] is read from the array being compacted: minimap2 2.24 does the same.
      const Region ri = regs[static_cast<size_t>(i)];
      const int d = decide(ri, i, regs[static_cast<size_t>(ri.parent)]);
      if (d == 0) continue;
      regs[static_cast<size_t>(k)] = ri;
      if (d == 2) regs[static_cast<size_t>(k)].strand_retained = true;
      ++k;
    }
  }
  if (k != n) {
    regs.resize(static_cast<size_t>(k));
    sync_regions(regs);
  }
}

void filter_strand_retained(std::vector<Region>& regs, bool decide_first) {
  auto keep_of = [](const Region& ri, const Region& par) {
    return !ri.strand_retained || ri.div < par.div * 5.0f || ri.div < 0.01f;
  };
  size_t k = 0;
  if (decide_first) {
    std::vector<uint8_t> keep(regs.size());
    for (size_t i = 0; i < regs.size(); ++i)
      keep[i] = keep_of(regs[i], regs[static_cast<size_t>(regs[i].parent)]) ? 1 : 0;
    for (size_t i = 0; i < regs.size(); ++i)
      if (keep[i] != 0) {
        if (k != i) regs[k] = regs[i];
        ++k;
      }
  } else {
    for (size_t i = 0; i < regs.size(); ++i) {
      const int p = regs[i].parent;  // old index into the array being compacted, as in 2.24
      const Region ri = regs[i];
      if (keep_of(ri, regs[static_cast<size_t>(p)])) regs[k++] = ri;
    }
  }
  regs.resize(k);
}

bool is_spliced(const Region& r) {
  return r.aligned && std::any_of(r.cigar.begin(), r.cigar.end(), [](uint32_t c) { return cigar::op(c) == cigar::kNSkip; });
}

void set_mapq(std::vector<Region>& regs, int min_chain_score, int match_sc, int rep_len, bool short_read,
              bool sr_splice) {
  constexpr float kCoef = 40.0f;
  if (regs.empty()) return;
  int64_t sum_sc = 0;
  int n_2nd_splice = 0;  // secondaries that are spliced (2.31)
  for (const Region& r : regs) {
    if (r.parent == r.id)
      sum_sc += r.score;
    else if (sr_splice && is_spliced(r))
      ++n_2nd_splice;
  }
  const float uniq_ratio = static_cast<float>(sum_sc) / static_cast<float>(sum_sc + rep_len);
  for (Region& r : regs) {
    if (r.inv || r.parent != r.id) {
      r.mapq = 0;
      continue;
    }
    const float pen_s1 = (r.score > 100 ? 1.0f : 0.01f * r.score) * uniq_ratio;
    float pen_cm = r.cnt > 10 ? 1.0f : 0.1f * r.cnt;
    pen_cm = pen_s1 < pen_cm ? pen_s1 : pen_cm;
    const int subsc = std::max(r.subsc, min_chain_score);
    int mapq;
    if (r.aligned && r.dp_max2 > 0 && r.dp_max > 0) {
      const float identity = static_cast<float>(r.mlen) / r.blen;
      // With short spliced reads (2.31) the chain scores are left out: an unspliced chain
      // tends to outscore the spliced one.
      const float x = sr_splice ? static_cast<float>(r.dp_max2) / r.dp_max
                                : static_cast<float>(r.dp_max2) * subsc / r.dp_max / r.score0;
      mapq = static_cast<int>(identity * pen_cm * kCoef * (1.0f - x * x) *
                              std::log(static_cast<float>(r.dp_max) / match_sc));
      if (!short_read) {
        const int mapq_alt = static_cast<int>(6.02f * identity * identity * (r.dp_max - r.dp_max2) / match_sc + .499f);
        mapq = std::min(mapq, mapq_alt);
      }
      if (sr_splice && n_2nd_splice == 0 && is_spliced(r)) mapq += 10;
    } else {
      const float x = static_cast<float>(subsc) / r.score0;
      if (r.aligned) {
        const float identity = static_cast<float>(r.mlen) / r.blen;
        mapq = static_cast<int>(identity * pen_cm * kCoef * (1.0f - x) *
                                std::log(static_cast<float>(r.dp_max) / match_sc));
      } else {
        mapq = static_cast<int>(pen_cm * kCoef * (1.0f - x) * std::log(static_cast<float>(r.score)));
      }
    }
    mapq -= static_cast<int>(4.343f * std::log(static_cast<float>(r.n_sub + 1)) + .499f);
    mapq = std::clamp(mapq, 0, 60);
    if (r.aligned && r.dp_max > r.dp_max2 && mapq == 0) mapq = 1;
    r.mapq = mapq;
  }
}

void filter_regions(const AlignOptions& opt, int qlen, std::vector<Region>& regs) {
  size_t k = 0;
  for (size_t i = 0; i < regs.size(); ++i) {
    const Region& r = regs[i];
    bool drop = !r.inv && !r.seg_split && r.cnt < opt.min_cnt;
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
      const uint32_t op = cigar::op(c), len = cigar::len(c);
      if (op != cigar::kIns && op != cigar::kDel) continue;
      n_gap += static_cast<int32_t>(len);
      gap_cost += b2 + fast_log2(static_cast<float>(1 + len));
    }
    const int32_t n_mis = r.blen + r.n_ambi - r.mlen - n_gap;
    const double score = a * (r.mlen - b2 * n_mis - gap_cost);
    r.dp_max = std::max(0, static_cast<int32_t>(score + .499));
  }
}

void hit_sort(std::vector<Region>& regs, float alt_drop) {
  if (regs.size() <= 1) return;
  std::vector<Anchor> aux;  // x: score << 32 | hash, y: index
  aux.reserve(regs.size());
  for (size_t i = 0; i < regs.size(); ++i) {
    const Region& r = regs[i];
    if (!r.inv && r.cnt <= 0) continue;
    int32_t score = r.aligned ? r.dp_max : r.score;
    if (r.is_alt) score = alt_score(score, alt_drop);
    aux.push_back({static_cast<uint64_t>(static_cast<int64_t>(score)) << 32 | r.hash, i});
  }
  radix_sort_by_x(aux.data(), aux.data() + aux.size());
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
  std::vector<Anchor> aux;  // x: rid << 32 | rs, y: index
  for (size_t i = 0; i < n; ++i)
    if (regs[i].parent == static_cast<int32_t>(i) || regs[i].parent < 0)
      aux.push_back({static_cast<uint64_t>(regs[i].rid) << 32 | static_cast<uint32_t>(regs[i].rs), i});
  radix_sort_by_x(aux.data(), aux.data() + aux.size());
  for (size_t i = 1; i + 1 < aux.size(); ++i) {
    Region& inv = regs[aux[i].y];
    if (inv.inv) inv.mapq = std::min(regs[aux[i - 1].y].mapq, regs[aux[i + 1].y].mapq);
  }
}

Region split_region(Region& r, int32_t n, int qlen, const Anchor* a, bool qstrand) {
  Region r2 = r;
  r2.id = -1;
  r2.cnt = r.cnt - n;
  r2.score = static_cast<int32_t>(r.score * (static_cast<float>(r2.cnt) / r.cnt) + .499);
  r2.as = r.as + n;
  if (r.parent == r.id) r2.parent = kParentTmpPri;
  set_region_coords(r2, qlen, a, qstrand);
  r.cnt -= r2.cnt;
  r.score -= r2.score;
  set_region_coords(r, qlen, a, qstrand);
  return r2;
}

RegionParams region_params(const AlignOptions& opt) {
  RegionParams p;
  p.mask_level = opt.mask_level;
  p.mask_len = opt.mask_len;
  p.pri_ratio = opt.pri_ratio;
  p.best_n = opt.best_n;
  p.min_strand_sc = static_cast<int>(opt.max_gap * 0.8);
  p.sub_diff = opt.a * 2 + opt.b;
  p.match_sc = opt.a;
  p.min_chain_score = opt.min_chain_score;
  p.seed = opt.seed;
  p.hash_name = opt.hash_name;
  p.all_chains = opt.all_chains;
  p.hard_mask_level = opt.hard_mask_level;
  p.short_read = opt.sr;
  p.mapq_short_read = opt.sr || opt.sr_rna;
  p.mapq_sr_splice = opt.rules().mapq_sr_splice && p.mapq_short_read && opt.splicing();
  p.qstrand = opt.qstrand;
  p.alt_drop = opt.alt_drop;
  p.select_sub_decide_first = opt.rules().select_sub_decide_first;
  return p;
}

}  // namespace agatha::map
