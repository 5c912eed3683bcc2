// Fragments of several segments (pe.c: mm_select_sub_multi, mm_pair; hit.c: mm_seg_gen).
// See fragment.hpp.
#include "fragment.hpp"

#include <cmath>

#include "../util/radix_sort.hpp"
#include "radix_sort.hpp"

namespace agatha::map {

void select_sub_multi(std::vector<Region>& regs, float pri_ratio, float pri1, float pri2, int max_gap_ref,
                      int min_diff, int best_n, std::span<const int> qlens, bool decide_first) {
  const int n = static_cast<int>(regs.size());
  if (!(pri_ratio > 0.0f) || n == 0) return;
  const int n_segs = static_cast<int>(qlens.size());
  const int max_dist = n_segs == 2 ? qlens[0] + qlens[1] + max_gap_ref : 0;
  int k = 0, n_2nd = 0;
  auto decide = [&](const Region& q, int i, const Region& p) {
    bool keep = false;
    if (q.parent == i) {
      keep = true;
    } else if (q.score + min_diff >= p.score) {
      keep = true;
    } else if (p.rev == q.rev && p.rid == q.rid && q.re - p.rs < max_dist && p.re - q.rs < max_dist) {
      keep = q.score >= p.score * pri1;  // close to its parent on the reference
    } else {
      const bool par_both = n_segs == 2 && p.qs < qlens[0] && p.qe > qlens[0];
      const bool chi_both = n_segs == 2 && q.qs < qlens[0] && q.qe > qlens[0];
      if (chi_both || chi_both == par_both)
        keep = q.score >= p.score * pri_ratio;
      else
        keep = q.score >= p.score * pri2;
    }
    if (keep && q.parent != i && n_2nd++ >= best_n) keep = false;
    return keep;
  };
  if (decide_first) {
    std::vector<uint8_t> keep(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      const Region& q = regs[static_cast<size_t>(i)];
      keep[static_cast<size_t>(i)] = decide(q, i, regs[static_cast<size_t>(q.parent)]) ? 1 : 0;
    }
    for (int i = 0; i < n; ++i)
      if (keep[static_cast<size_t>(i)] != 0) {
        if (k != i) regs[static_cast<size_t>(k)] = regs[static_cast<size_t>(i)];
        ++k;
      }
  } else {
    for (int i = 0; i < n; ++i) {
      const Region q = regs[static_cast<size_t>(i)];
      // regs[parent] is read from the array being compacted, as 2.24 does.
      if (decide(q, i, regs[static_cast<size_t>(q.parent)])) regs[static_cast<size_t>(k++)] = q;
    }
  }
  if (k != n) {
    regs.resize(static_cast<size_t>(k));
    sync_regions(regs);
  }
}

std::vector<SegmentChains> split_fragment(uint32_t hash, std::span<const int> qlens, const std::vector<Region>& regs,
                                          const std::vector<Anchor>& anchors) {
  const size_t n_segs = qlens.size();
  std::vector<int> acc(n_segs, 0);
  for (size_t s = 1; s < n_segs; ++s) acc[s] = acc[s - 1] + qlens[s - 1];
  const int qlen_sum = acc[n_segs - 1] + qlens[n_segs - 1];
  std::vector<SegmentChains> out(n_segs);
  // Regions in order; each segment's anchors of a region form one chain of it.
  std::vector<uint32_t> cnt(n_segs);
  for (const Region& r : regs) {
    std::fill(cnt.begin(), cnt.end(), 0u);
    for (int32_t j = 0; j < r.cnt; ++j) ++cnt[static_cast<size_t>(anchor_seg(anchors[static_cast<size_t>(r.as + j)]))];
    for (size_t s = 0; s < n_segs; ++s)
      if (cnt[s] != 0) out[s].chains.u.push_back(static_cast<uint64_t>(static_cast<uint32_t>(r.score)) << 32 | cnt[s]);
    for (int32_t j = 0; j < r.cnt; ++j) {
      Anchor a = anchors[static_cast<size_t>(r.as + j)];
      const auto s = static_cast<size_t>(anchor_seg(a));
      // On the reverse strand a position counts from the end of the concatenated read.
      a.y -= static_cast<uint64_t>(anchor_reverse(a) ? qlen_sum - (qlens[s] + acc[s]) : acc[s]);
      out[s].chains.anchors.push_back(a);
    }
  }
  for (size_t s = 0; s < n_segs; ++s) {
    out[s].regions = gen_regions(hash, qlens[s], out[s].chains);
    for (Region& r : out[s].regions) r.seg_split = true;
  }
  return out;
}

namespace {

struct PairItem {
  int s = 0;
  bool rev = false;
  uint64_t key = 0;
  Region* r = nullptr;
};

}  // namespace

void pair_segments(int max_gap_ref, int pe_bonus, int sub_diff, int match_sc, std::vector<Region>& regs0,
                   std::vector<Region>& regs1) {
  std::vector<Region>* regs[2] = {&regs0, &regs1};
  std::vector<PairItem> a;
  a.reserve(regs0.size() + regs1.size());
  int dp_thres = 0;
  for (int s = 0; s < 2; ++s) {
    int max = 0;
    for (Region& r : *regs[s]) {
      PairItem it;
      it.s = s, it.rev = r.rev, it.r = &r;
      it.key = static_cast<uint64_t>(static_cast<uint32_t>(r.rid)) << 32 |
               static_cast<uint64_t>(static_cast<int64_t>(r.rs << 1 | (s ^ static_cast<int>(r.rev))));
      max = std::max(max, r.dp_max);
      a.push_back(it);
    }
    dp_thres += max;
  }
  if (regs0.empty() || regs1.empty()) return;  // only one segment is mapped
  dp_thres = std::max(dp_thres - pe_bonus, 0);
  util::radix_sort(a.data(), a.data() + a.size(), [](const PairItem& p) { return p.key; });

  int64_t max = -1;
  int max_idx[2] = {-1, -1}, last[2] = {-1, -1};
  std::vector<uint64_t> sc;
  for (int i = 0; i < static_cast<int>(a.size()); ++i) {
    if ((a[i].key & 1) == 0) {  // the first segment forward, or the second reverse
      last[a[i].rev] = i;
      continue;
    }
    // the first segment reverse, or the second forward: pair with those before it
    if (last[a[i].rev] < 0) continue;
    const Region* r = a[i].r;
    const Region* q = a[static_cast<size_t>(last[a[i].rev])].r;
    if (r->rid != q->rid || r->rs - q->re > max_gap_ref) continue;
    for (int j = last[a[i].rev]; j >= 0; --j) {
      if (a[j].rev != a[i].rev || a[j].s == a[i].s) continue;
      q = a[j].r;
      if (r->rid != q->rid || r->rs - q->re > max_gap_ref) break;
      if (r->dp_max + q->dp_max < dp_thres) continue;
      const int64_t score = static_cast<int64_t>(r->dp_max + q->dp_max) << 32 | (r->hash + q->hash);
      if (score > max) max = score, max_idx[a[j].s] = j, max_idx[a[i].s] = i;
      sc.push_back(static_cast<uint64_t>(score));
    }
  }
  if (sc.empty() || max <= 0) return;
  if (sc.size() > 1) radix_sort_u64(sc.data(), sc.data() + sc.size());

  Region* r[2] = {a[static_cast<size_t>(max_idx[0])].r, a[static_cast<size_t>(max_idx[1])].r};
  r[0]->proper_frag = r[1]->proper_frag = true;
  for (int s = 0; s < 2; ++s) {
    std::vector<Region>& rs = *regs[s];
    if (r[s]->id != r[s]->parent) {  // lift it to primary: it becomes its old parent's parent
      Region& p = rs[static_cast<size_t>(r[s]->parent)];
      const int32_t old = p.id;
      for (Region& x : rs)
        if (x.parent == old) x.parent = r[s]->id;
      p.mapq = 0;
    }
    if (!r[s]->sam_pri) {
      for (Region& x : rs) x.sam_pri = false;
      r[s]->sam_pri = true;
    }
  }
  const uint64_t best = static_cast<uint64_t>(max) >> 32;
  int mapq_pe = std::max(r[0]->mapq, r[1]->mapq);
  int n_sub = 0;
  for (uint64_t v : sc)
    if ((v >> 32) + static_cast<uint64_t>(sub_diff) >= best) ++n_sub;
  if (sc.size() > 1) {
    const uint64_t second = sc[sc.size() - 2] >> 32;
    const int alt = static_cast<int>(6.02f * static_cast<float>(best - second) / static_cast<float>(match_sc) -
                                     4.343f * std::log(static_cast<float>(n_sub)));
    mapq_pe = std::min(mapq_pe, alt);
  }
  for (Region* x : r)
    if (x->mapq < mapq_pe)
      x->mapq = static_cast<int>(.2f * static_cast<float>(x->mapq) + .8f * static_cast<float>(mapq_pe) + .499f);
  if (sc.size() == 1) {
    for (Region* x : r) x->mapq = std::max(x->mapq, 2);
  } else if (best > sc[sc.size() - 2] >> 32) {
    for (Region* x : r) x->mapq = std::max(x->mapq, 1);
  }
}

}  // namespace agatha::map
