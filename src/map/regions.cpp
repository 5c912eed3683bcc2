// src/map/regions.cpp — chains to regions, primary/secondary selection, divergence
// estimate, MAPQ of unaligned regions and their PAF lines (minimap2 2.24 behaviour).
//
//   read_hash               map.c: mm_map_frag (X31 + Wang hashes)
//   gen_regions             hit.c: mm_gen_regs
//   set_region_coords       hit.c: mm_reg_set_coor + mm_cal_fuzzy_len
//   set_parent              hit.c: mm_set_parent
//   sync_regions            hit.c: mm_sync_regs
//   select_sub              hit.c: mm_select_sub
//   estimate_divergence     esterr.c: mm_est_err
//   filter_strand_retained  hit.c: mm_filter_strand_retained
//   set_mapq                hit.c: mm_set_mapq
//   paf_line                format.c: mm_write_paf3 + write_tags, without alignment
#include "regions.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "radix_sort.hpp"

namespace agatha::map {
namespace {

uint32_t wang_hash(uint32_t key) {
  key += ~(key << 15);
  key ^= key >> 10;
  key += key << 3;
  key ^= key >> 6;
  key += ~(key << 11);
  key ^= key >> 16;
  return key;
}

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

uint32_t read_hash(std::string_view qname, int qlen, int seed, bool hash_name) {
  uint32_t h = 0;
  if (hash_name && !qname.empty()) {  // X31 over the name's bytes as (signed) char
    h = static_cast<uint32_t>(static_cast<signed char>(qname[0]));
    if (h != 0)
      for (size_t i = 1; i < qname.size() && qname[i] != '\0'; ++i)
        h = (h << 5) - h + static_cast<uint32_t>(static_cast<signed char>(qname[i]));
  }
  h ^= wang_hash(static_cast<uint32_t>(qlen)) + wang_hash(static_cast<uint32_t>(seed));
  return wang_hash(h);
}

void set_region_coords(Region& r, int qlen, const Anchor* a) {
  const Anchor& first = a[r.as];
  const Anchor& last = a[r.as + r.cnt - 1];
  const int32_t q_span = anchor_span(first);
  r.rev = anchor_reverse(first);
  r.rid = anchor_rid(first);
  r.rs = anchor_rpos(first) + 1 > q_span ? anchor_rpos(first) + 1 - q_span : 0;  // the target span may be shorter
  r.re = anchor_rpos(last) + 1;
  if (!r.rev) {
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

std::vector<Region> gen_regions(uint32_t read_hash, int qlen, const Chains& chains) {
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
    set_region_coords(r, qlen, chains.anchors.data());
  }
  return regs;
}

void set_parent(std::vector<Region>& regs, float mask_level, int mask_len, int sub_diff, bool hard_mask_level) {
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
      rp.subsc = std::max(rp.subsc, ri.score);
      bool counts = ri.cnt >= rp.cnt;
      if (rp.aligned && ri.aligned && (rp.rid != ri.rid || rp.rs != ri.rs || rp.re != ri.re || ol != min)) {
        rp.dp_max2 = std::max(rp.dp_max2, ri.dp_max);
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
                int min_strand_sc) {
  const int n = static_cast<int>(regs.size());
  if (!(pri_ratio > 0.0f) || n == 0) return;
  int k = 0, n_2nd = 0;
  for (int i = 0; i < n; ++i) {
    // regs[p] is read from the array being compacted: minimap2 2.24 does the same.
    const int p = regs[i].parent;
    const Region ri = regs[i];
    if (p == i || ri.inv) {
      regs[k++] = ri;
    } else if ((ri.score >= regs[p].score * pri_ratio || ri.score + min_diff >= regs[p].score) && n_2nd < best_n) {
      const Region& rp = regs[p];
      const bool identical = ri.qs == rp.qs && ri.qe == rp.qe && ri.rid == rp.rid && ri.rs == rp.rs && ri.re == rp.re;
      if (!identical) regs[k++] = ri, ++n_2nd;
    } else if (check_strand && n_2nd < best_n && ri.score > min_strand_sc && ri.rev != regs[p].rev) {
      regs[k] = ri;
      regs[k++].strand_retained = true;
      ++n_2nd;
    }
  }
  if (k != n) {
    regs.resize(k);
    sync_regions(regs);
  }
}

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

void filter_strand_retained(std::vector<Region>& regs) {
  size_t k = 0;
  for (size_t i = 0; i < regs.size(); ++i) {
    const int p = regs[i].parent;  // old index into the array being compacted, as in 2.24
    const Region ri = regs[i];
    if (!ri.strand_retained || ri.div < regs[p].div * 5.0f || ri.div < 0.01f) regs[k++] = ri;
  }
  regs.resize(k);
}

void set_mapq(std::vector<Region>& regs, int min_chain_score, int match_sc, int rep_len, bool short_read) {
  constexpr float kCoef = 40.0f;
  if (regs.empty()) return;
  int64_t sum_sc = 0;
  for (const Region& r : regs)
    if (r.parent == r.id) sum_sc += r.score;
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
      const float x = static_cast<float>(r.dp_max2) * subsc / r.dp_max / r.score0;
      mapq = static_cast<int>(identity * pen_cm * kCoef * (1.0f - x * x) *
                              std::log(static_cast<float>(r.dp_max) / match_sc));
      if (!short_read) {
        const int mapq_alt = static_cast<int>(6.02f * identity * identity * (r.dp_max - r.dp_max2) / match_sc + .499f);
        mapq = std::min(mapq, mapq_alt);
      }
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

std::vector<Region> regions_unaligned(std::string_view qname, int qlen, int k, int rep_len, const Chains& chains,
                                      const std::vector<uint64_t>& mini_pos, const std::vector<int32_t>& ref_lens,
                                      const RegionParams& p) {
  std::vector<Region> regs = gen_regions(read_hash(qname, qlen, p.seed, p.hash_name), qlen, chains);
  if (!p.all_chains) {
    set_parent(regs, p.mask_level, p.mask_len, p.a * 2 + p.b, p.hard_mask_level);
    select_sub(regs, p.pri_ratio, k * 2, p.best_n, true, static_cast<int>(p.max_gap * 0.8));
  }
  estimate_divergence(regs, qlen, chains.anchors.data(), mini_pos, ref_lens);
  filter_strand_retained(regs);
  set_mapq(regs, p.min_chain_score, p.a, rep_len, false);
  return regs;
}

std::string paf_line(std::string_view qname, int qlen, std::string_view rname, int32_t rlen, const Region& r,
                     int rep_len) {
  std::string s;
  s.reserve(160);
  char buf[64];
  auto add_int = [&](const char* prefix, long v) {
    std::snprintf(buf, sizeof buf, "%s%ld", prefix, v);
    s += buf;
  };
  s.append(qname);
  add_int("\t", qlen);
  add_int("\t", r.qs);
  add_int("\t", r.qe);
  s += r.rev ? "\t-\t" : "\t+\t";
  s.append(rname);
  add_int("\t", rlen);
  add_int("\t", r.rs);
  add_int("\t", r.re);
  add_int("\t", r.mlen);
  add_int("\t", r.blen);
  add_int("\t", r.mapq);
  const char type = r.id == r.parent ? (r.inv ? 'I' : 'P') : (r.inv ? 'i' : 'S');
  s += "\ttp:A:";
  s += type;
  add_int("\tcm:i:", r.cnt);
  add_int("\ts1:i:", r.score);
  if (r.parent == r.id) add_int("\ts2:i:", r.subsc);
  if (r.div >= 0.0f && r.div <= 1.0f) {
    if (r.div == 0.0f)
      s += "\tdv:f:0";
    else
      std::snprintf(buf, sizeof buf, "\tdv:f:%.4f", r.div), s += buf;
  }
  add_int("\trl:i:", rep_len);
  s += '\n';
  return s;
}

}  // namespace agatha::map
