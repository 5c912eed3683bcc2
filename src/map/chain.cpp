// src/map/chain.cpp — DP and RMQ chaining with minimap2 2.24's exact scores, tie
// breaking and backtracking.
//
//   fast_log2          mg_log2
//   pair_score         comput_sc         (DP pass)
//   pair_score_simple  comput_sc_simple  (RMQ pass)
//   chain_dp           mg_lchain_dp
//   chain_rmq          mg_lchain_rmq
//   backtrack          mg_chain_backtrack + mg_chain_bk_end (X-drop)
//   compact            compact_a
//   chain_read         the chaining part of mm_map_frag
#include "chain.hpp"

#include "../util/parallel_for.hpp"

#include <agatha/error.hpp>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <memory>
#include <span>

#include "../../kernels/chain_scan.hpp"
#include "key_blocks.hpp"
#include "radix_sort.hpp"
#include "rmq_tree.hpp"

namespace agatha::map {
namespace {

constexpr uint64_t kSegMask = 0xffULL << anchor_bit::kSegShift;

int32_t seg_of(const Anchor& a) { return static_cast<int32_t>((a.y & kSegMask) >> anchor_bit::kSegShift); }

// f: best score of a chain ending at each anchor; p: its predecessor (-1: none);
// t: the skip heuristic's marks (freed by the backtracking, which marks in bytes).
struct DpArrays {
  std::vector<int32_t> f, t;
  std::vector<int32_t> p;  // 32-bit, as t[] (mg_lchain_dp compares t[j] with (int32_t)i)
  explicit DpArrays(size_t n) : f(checked(n)), t(n, 0), p(n) {}
  // n, refused (before anything is allocated) past the 32-bit indices.
  static size_t checked(size_t n) {
    if (n > static_cast<size_t>(INT32_MAX)) throw Error("chaining: more than 2^31 - 1 anchors in one read");
    return n;
  }

  // The candidate rule of both chaining passes (kernels::chain_take): predecessor j
  // with total score sc for anchor i. Returns true when too many skips end the scan.
  bool take(int64_t i, int64_t j, int32_t sc, kernels::ChainBest& best, int32_t max_skip) {
    return kernels::chain_take(i, j, sc, view(), best, max_skip);
  }
  kernels::ChainDpArrays view() { return {f.data(), p.data(), t.data()}; }
};

// Walks back from chain end `head` (mg_chain_bk_end): follows predecessors while they
// are unused, tracking the point where f[head] - f[i] peaks, and stops once the score
// falls more than max_drop below that peak. Returns the index where the chain stops
// (exclusive), which is the peak point. t[] (mg_chain_backtrack's marks: 0 unused, 1 in a
// chain, 2 on this walk) is left as it was found.
int64_t chain_start(int32_t max_drop, int32_t head_score, int64_t head, const DpArrays& dp, std::vector<uint8_t>& t) {
  int64_t i = head, end_i = -1, max_i = i;
  int32_t max_s = 0;
  if (i < 0 || t[i] != 0) return i;
  do {
    t[i] = 2;
    end_i = i = dp.p[i];
    const int32_t s = i < 0 ? head_score : head_score - dp.f[i];
    if (s > max_s)
      max_s = s, max_i = i;
    else if (max_s - s > max_drop)
      break;
  } while (i >= 0 && t[i] == 0);
  for (i = head; i >= 0 && i != end_i; i = dp.p[i]) t[i] = 0;
  return max_i;
}

// The chains mg_chain_backtrack accepts, in its order: u[i] = score << 32 | cnt, and
// chain i's anchor indices v[off[i] .. off[i] + cnt), from its end backwards.
struct Walked {
  std::vector<uint64_t> u;
  std::vector<size_t> off;
  std::unique_ptr<int32_t[]> v;  // room for every anchor; pages never written never touched
};

// Chain extraction (mg_chain_backtrack): chain ends by decreasing f (radix order for
// ties); each end not yet used yields the anchors back to its chain_start(). Anchors
// are marked used even when the chain is then rejected.
//
// `cuts` (0 = cuts[0] < ... < cuts.back() = n, from chain_rmq): boundaries of blocks of
// anchors that no predecessor link crosses. The ends of each stretch [cuts[j], cuts[j+1])
// are then walked on a thread of their own, in the same order: a walk reads and marks only
// its own anchors, so each stretch yields the chains the one walk would; they are put back
// in the one walk's order (their ends' ranks), their anchor lists left where each stretch
// wrote them (from v + cuts[j] on, as no stretch has more anchors than that room).
Walked backtrack(DpArrays& dp, int32_t min_cnt, int32_t min_score, int32_t max_drop, std::span<const int64_t> cuts,
                 int threads) {
  const int64_t n = static_cast<int64_t>(dp.f.size());
  // Each end is f << 32 | anchor index, sorted on f sign-extended to 64 bits: the key
  // minimap2 sorts its (f, index) pairs on, so the radix sort's order (of equal scores
  // too) is the same, at half the memory of a pair.
  std::vector<uint64_t> ends;
  ends.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    if (dp.f[i] >= min_score)
      ends.push_back(static_cast<uint64_t>(static_cast<uint32_t>(dp.f[i])) << 32 | static_cast<uint32_t>(i));
  const auto end_score = [](uint64_t e) { return static_cast<int32_t>(static_cast<uint32_t>(e >> 32)); };
  util::radix_sort_parallel(
      ends.data(), ends.data() + ends.size(),
      [&](uint64_t e) { return static_cast<uint64_t>(static_cast<int64_t>(end_score(e))); }, threads);

  Walked out;
  out.v.reset(new int32_t[static_cast<size_t>(std::max<int64_t>(n, 1))]);
  // The scan's int32 t[] is spent: the walk's marks are a byte each.
  std::vector<int32_t>().swap(dp.t);
  std::vector<uint8_t> used(static_cast<size_t>(n), 0);
  struct Stretch {
    std::vector<uint64_t> u;
    std::vector<size_t> off, rank;  // off from the stretch's start; rank: the end's place in `ends`
  };
  // The walk over the ends of anchors [lo, hi).
  auto walk = [&](int64_t lo, int64_t hi, Stretch& st) {
    int32_t* const v = out.v.get() + lo;
    size_t len = 0;
    // Ends come in order of score, so their marks are read at random: each is fetched a
    // few ends ahead (on a long query most ends are inside chains already taken).
    constexpr size_t kAhead = 16;
    for (size_t k = ends.size(); k-- > 0;) {
      if (k >= kAhead) __builtin_prefetch(&used[static_cast<uint32_t>(ends[k - kAhead])]);
      const int64_t head = static_cast<uint32_t>(ends[k]);
      if (head < lo || head >= hi) continue;
      const int32_t head_score = end_score(ends[k]);
      if (used[head] != 0) continue;
      const size_t v0 = len;
      const int64_t stop = chain_start(max_drop, head_score, head, dp, used);
      int64_t i = head;
      for (; i != stop; i = dp.p[i]) v[len++] = static_cast<int32_t>(i), used[i] = 1;
      const int32_t score = i < 0 ? head_score : head_score - dp.f[i];
      const size_t cnt = len - v0;
      if (score >= min_score && cnt > 0 && cnt >= static_cast<size_t>(min_cnt)) {
        st.u.push_back(static_cast<uint64_t>(score) << 32 | cnt);
        st.off.push_back(v0);
        st.rank.push_back(k);
      } else {
        len = v0;
      }
    }
  };
  if (cuts.size() <= 2 || threads <= 1) {
    Stretch all;
    walk(0, n, all);
    out.u = std::move(all.u), out.off = std::move(all.off);
    return out;
  }
  std::vector<Stretch> parts(cuts.size() - 1);
  util::parallel_for(parts.size(), threads, [&](size_t j, int) { walk(cuts[j], cuts[j + 1], parts[j]); });
  std::vector<std::pair<size_t, size_t>> order;  // (rank, part << 32 | chain)
  for (size_t j = 0; j < parts.size(); ++j)
    for (size_t c = 0; c < parts[j].u.size(); ++c) order.emplace_back(parts[j].rank[c], j << 32 | c);
  std::sort(order.begin(), order.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  out.u.reserve(order.size()), out.off.reserve(order.size());
  for (const auto& [rank, at] : order) {
    const size_t j = at >> 32, c = at & 0xffffffffu;
    out.u.push_back(parts[j].u[c]);
    out.off.push_back(static_cast<size_t>(cuts[j]) + parts[j].off[c]);
  }
  return out;
}

// Chain anchors in increasing order, chains ordered by the x of their first anchor
// (compact_a; radix order for chains starting at the same x). Chain i's anchors are
// v[off_i .. off_i + cnt_i) from its end backwards, so its first anchor is
// v[off_i + cnt_i - 1].
//
// With `owned` (the caller's anchors, `a` itself, given up) the chains' anchors are
// moved to the front of that vector in place, and the vector becomes the chains'; else
// they are copied out of `a` in the final order. The chains are the same either way; in
// place, chaining's end holds about 24 bytes an anchor where a copy holds up to 36.
Chains compact(const std::vector<Anchor>& a, Walked&& c, std::vector<Anchor>* owned) {
  const std::vector<uint64_t>& u = c.u;
  const int32_t* v = c.v.get();
  std::vector<Anchor> w(u.size());
  size_t total = 0;
  for (size_t i = 0; i < u.size(); ++i) {
    const size_t cnt = static_cast<uint32_t>(u[i]);
    w[i] = {a[static_cast<size_t>(v[c.off[i] + cnt - 1])].x, static_cast<uint64_t>(c.off[i]) << 32 | i};
    total += cnt;
  }
  radix_sort_by_x(w.data(), w.data() + w.size());
  Chains out;
  out.u.reserve(u.size());
  for (const Anchor& wi : w) out.u.push_back(u[static_cast<uint32_t>(wi.y)]);
  if (!owned) {
    out.anchors.reserve(total);
    for (const Anchor& wi : w) {
      const size_t off = wi.y >> 32, cnt = static_cast<uint32_t>(u[static_cast<uint32_t>(wi.y)]);
      for (size_t j = cnt; j-- > 0;) out.anchors.push_back(a[static_cast<size_t>(v[off + j])]);
    }
    return out;
  }
  // to[j]: where chained anchor j goes. The places are filled in order, each from its
  // anchor's old place, which is still intact when at or after the one filled (most are:
  // a long query's chains are in x order, as the anchors are); an anchor whose old place
  // is filled before its turn comes is set aside first, and to[] then says where.
  const size_t n = owned->size();
  constexpr uint32_t kUnchained = UINT32_MAX, kAside = uint32_t{1} << 31;  // n < 2^31 (DpArrays)
  std::vector<uint32_t> to(n, kUnchained);
  uint32_t k = 0;
  for (const Anchor& wi : w) {
    const size_t off = wi.y >> 32, cnt = static_cast<uint32_t>(u[static_cast<uint32_t>(wi.y)]);
    for (size_t j = cnt; j-- > 0;) to[static_cast<size_t>(v[off + j])] = k++;
  }
  std::vector<Anchor> aside;
  Anchor* const an = owned->data();
  k = 0;
  for (const Anchor& wi : w) {
    const size_t off = wi.y >> 32, cnt = static_cast<uint32_t>(u[static_cast<uint32_t>(wi.y)]);
    for (size_t j = cnt; j-- > 0; ++k) {
      const size_t from = static_cast<size_t>(v[off + j]);
      const Anchor next = from < k ? aside[to[from] & ~kAside] : an[from];
      if (to[k] != kUnchained && to[k] > k && !(to[k] & kAside)) {  // due later: set aside
        to[k] = kAside | static_cast<uint32_t>(aside.size());
        aside.push_back(an[k]);
      }
      an[k] = next;
    }
  }
  owned->resize(total);
  // Most anchors of a long query are chained; where most are not, the room is returned.
  if (total < n / 2) owned->shrink_to_fit();
  out.anchors = std::move(*owned);
  return out;
}

// The anchors as kernels::chain_scores reads them, with the padding it may read before
// the first one.
struct ScanAnchors {
  std::vector<uint32_t> x;
  std::vector<int32_t> y, span;
  explicit ScanAnchors(const std::vector<Anchor>& a)
      : x(a.size() + kernels::kChainBlock, 0), y(a.size() + kernels::kChainBlock, 0), span(x.size(), 0) {
    for (size_t j = 0; j < a.size(); ++j) {
      x[j + kernels::kChainBlock] = static_cast<uint32_t>(a[j].x);
      y[j + kernels::kChainBlock] = static_cast<int32_t>(a[j].y);
      span[j + kernels::kChainBlock] = anchor_span(a[j]);
    }
  }
  kernels::ChainAnchors view() const {
    return {x.data() + kernels::kChainBlock, y.data() + kernels::kChainBlock, span.data() + kernels::kChainBlock};
  }
};

// cuts: as backtrack's (empty: one walk). owned: as compact's.
Chains finish(const std::vector<Anchor>& a, DpArrays& dp, int min_cnt, int min_score, int32_t max_drop,
              std::span<const int64_t> cuts, int threads, std::vector<Anchor>* owned) {
  Walked c = backtrack(dp, min_cnt, min_score, max_drop, cuts, threads);
  dp = DpArrays(0);  // f and p are spent: freed before the chains are laid out
  if (c.u.empty()) return {};
  return compact(a, std::move(c), owned);
}

}  // namespace

ChainParams chain_params(const AlignOptions& opt) {
  ChainParams p;
  p.max_gap = opt.max_gap;
  p.max_gap_ref = opt.max_gap_ref > 0 ? opt.max_gap_ref : 0;
  p.bw = opt.bw;
  p.bw_long = std::max(opt.bw_long, opt.bw);
  p.max_chain_skip = opt.max_chain_skip;
  p.max_chain_iter = opt.max_chain_iter;
  p.min_cnt = opt.min_cnt;
  p.min_chain_score = opt.min_chain_score;
  p.chain_gap_scale = opt.chain_gap_scale;
  p.chain_skip_scale = opt.chain_skip_scale;
  p.rmq_inner_dist = opt.rmq_inner_dist;
  p.rmq_inner_clamp = opt.rules().rmq_inner_clamp;
  p.rmq_size_cap = opt.rmq_size_cap;
  p.rmq_rescue_size = opt.rmq_rescue_size;
  p.rmq_rescue_ratio = opt.rmq_rescue_ratio;
  p.max_frag_len = opt.max_frag_len;
  p.short_read = opt.sr;
  p.max_occ = opt.max_occ;
  p.rmq = opt.rmq;
  p.long_join = !opt.no_long_join;
  p.splice = opt.splicing();
  p.scan = kernels::chain_scan_for();
  return p;
}

float fast_log2(float x) {
  // x = 2^e * m with m in [1, 2): log2(x) ~ (e - 1) + a quadratic in m (mg_log2). The
  // exponent is taken as (biased exponent - 128), one less than the true exponent.
  uint32_t bits = std::bit_cast<uint32_t>(x);
  float log2 = static_cast<float>(static_cast<int>((bits >> 23) & 255) - 128);
  bits &= ~(255u << 23);
  bits += 127u << 23;
  const float m = std::bit_cast<float>(bits);
  const float quad = (-0.34484843f * m + 2.02466578f) * m - 0.67487759f;
  log2 += quad;
  return log2;
}

GapPenalty gap_penalty(const ChainParams& p, int k) {
  GapPenalty g;
  g.gap = static_cast<float>(p.chain_gap_scale * 0.01 * k);
  g.skip = static_cast<float>(p.chain_skip_scale * 0.01 * k);
  return g;
}

int32_t pair_score(const Anchor& ai, const Anchor& aj, const PairLimits& lim, GapPenalty pen) {
  const int32_t dq = static_cast<int32_t>(ai.y) - static_cast<int32_t>(aj.y);
  if (dq <= 0 || dq > lim.max_dist_ref) return kNoPair;  // sic: the query gap against the reference limit
  const int32_t dr = static_cast<int32_t>(ai.x - aj.x);
  const int32_t sid_i = seg_of(ai), sid_j = seg_of(aj);
  const bool same_seg = sid_i == sid_j;
  if (same_seg && (dr == 0 || dq > lim.max_dist_qry)) return kNoPair;
  const int32_t dd = dr > dq ? dr - dq : dq - dr;
  if (same_seg && dd > lim.bw) return kNoPair;
  if (lim.n_seg > 1 && !lim.splice && same_seg && dr > lim.max_dist_qry) return kNoPair;
  const int32_t dg = std::min(dr, dq);
  const int32_t q_span = anchor_span(aj);
  int32_t sc = std::min(q_span, dg);
  if (dd != 0 || dg > q_span) {
    const float lin_pen = pen.gap * static_cast<float>(dd) + pen.skip * static_cast<float>(dg);
    const float log_pen = dd >= 1 ? fast_log2(static_cast<float>(dd + 1)) : 0.0f;
    if (lim.splice || !same_seg) {
      if (!same_seg && dr == 0)
        ++sc;  // overlapping paired ends: a small bonus
      else if (dr > dq || !same_seg)
        sc -= static_cast<int>(std::min(lin_pen, log_pen));
      else
        sc -= static_cast<int>(lin_pen + 0.5f * log_pen);
    } else {
      sc -= static_cast<int>(lin_pen + 0.5f * log_pen);
    }
  }
  return sc;
}

namespace {

// pair_score_simple in two steps, inlined into chain_rmq's walk over near predecessors:
// the pair's geometry and its score before the gap penalty, then the penalty.
struct SimplePair {
  int32_t dq, dd, dg, q_span;
  int32_t base() const { return std::min(q_span, dg); }  // the score before the penalty
};
[[gnu::always_inline]] inline SimplePair simple_pair(const Anchor& ai, const Anchor& aj) {
  const int32_t dq = static_cast<int32_t>(ai.y) - static_cast<int32_t>(aj.y);
  const int32_t dr = static_cast<int32_t>(ai.x - aj.x);
  return {dq, dr > dq ? dr - dq : dq - dr, std::min(dr, dq), anchor_span(aj)};
}
// Not negative when pen's parts are not.
[[gnu::always_inline]] inline int32_t simple_penalty(const SimplePair& g, GapPenalty pen) {
  if (g.dd == 0 && g.dq <= g.q_span) return 0;  // sic: dq here where the DP pass tests dg
  const float lin_pen = pen.gap * static_cast<float>(g.dd) + pen.skip * static_cast<float>(g.dg);
  const float log_pen = g.dd >= 1 ? fast_log2(static_cast<float>(g.dd + 1)) : 0.0f;
  return static_cast<int>(lin_pen + 0.5f * log_pen);
}
[[gnu::always_inline]] inline int32_t score_simple(const Anchor& ai, const Anchor& aj, GapPenalty pen, bool* exact,
                                                   int32_t* width) {
  const SimplePair g = simple_pair(ai, aj);
  *width = g.dd;
  if (exact) *exact = g.dd == 0 && g.dg <= g.q_span;
  return g.base() - simple_penalty(g, pen);
}

}  // namespace

int32_t pair_score_simple(const Anchor& ai, const Anchor& aj, GapPenalty pen, bool* exact, int32_t* width) {
  return score_simple(ai, aj, pen, exact, width);
}

namespace {

// chain_dp; with `owned` (&a, given up by the caller) the chains are laid out in a's
// room (compact).
Chains dp_pass(const std::vector<Anchor>& a, int max_dist_ref, int max_dist_qry, int bw, int max_skip, int max_iter,
               int min_cnt, int min_score, GapPenalty pen, bool splice, int n_seg, kernels::ChainScanFn scan_fn,
               std::vector<Anchor>* owned) {
  const int64_t n = static_cast<int64_t>(a.size());
  if (n == 0) return {};
  PairLimits lim{std::max(max_dist_ref, bw), max_dist_qry, bw, splice, n_seg};
  if (lim.max_dist_qry < bw && !splice) lim.max_dist_qry = bw;
  const int32_t max_drop = splice ? INT32_MAX : bw;
  const uint64_t max_dist_x = static_cast<uint64_t>(static_cast<int64_t>(lim.max_dist_ref));
  DpArrays dp(a.size());
  // Single-segment reads without splicing: the predecessor scan is the kernel's (the
  // same scores as pair_score, the same rule in the same order).
  static_assert(kernels::kChainNoPair == kNoPair);
  const kernels::ChainScanFn scan = n_seg == 1 && !splice ? scan_fn : nullptr;
  const ScanAnchors soa(scan ? a : std::vector<Anchor>());
  const kernels::ChainAnchors sa = soa.view();
  const kernels::ChainScanParams sp{lim.max_dist_ref, lim.max_dist_qry, lim.bw, pen.gap, pen.skip, max_skip};
  int64_t st = 0, max_ii = -1;
  for (int64_t i = 0; i < n; ++i) {
    // Window: same strand and reference, within max_dist_ref, at most max_iter back.
    while (st < i && (a[i].x >> 32 != a[st].x >> 32 || a[i].x > a[st].x + max_dist_x)) ++st;
    if (i - st > max_iter) st = i - max_iter;
    kernels::ChainBest best{anchor_span(a[i]), -1, 0};
    int64_t j = i - 1;
    if (scan) {
      j = scan(sa, dp.view(), i, st, sp, best);
    } else {
      for (; j >= st; --j) {
        const int32_t sc = pair_score(a[i], a[j], lim, pen);
        if (sc == kNoPair) continue;
        if (dp.take(i, j, sc + dp.f[j], best, max_skip)) break;
      }
    }
    const int64_t end_j = j;
    // Rescue: the best-scoring anchor in the window, when the scan above stopped early.
    if (max_ii < 0 || a[i].x - a[max_ii].x > max_dist_x) {
      int32_t max = INT32_MIN;
      max_ii = -1;
      for (j = i - 1; j >= st; --j)
        if (max < dp.f[j]) max = dp.f[j], max_ii = j;
    }
    if (max_ii >= 0 && max_ii < end_j) {
      const int32_t tmp = pair_score(a[i], a[max_ii], lim, pen);
      if (tmp != kNoPair && best.max_f < tmp + dp.f[max_ii]) best.max_f = tmp + dp.f[max_ii], best.max_j = max_ii;
    }
    dp.f[i] = best.max_f, dp.p[i] = static_cast<int32_t>(best.max_j);
    if (max_ii < 0 || (a[i].x - a[max_ii].x <= max_dist_x && dp.f[max_ii] < dp.f[i])) max_ii = i;
  }
  return finish(a, dp, min_cnt, min_score, max_drop, {}, 1, owned);
}

}  // namespace

Chains chain_dp(const std::vector<Anchor>& a, int max_dist_ref, int max_dist_qry, int bw, int max_skip, int max_iter,
                int min_cnt, int min_score, GapPenalty pen, bool splice, int n_seg, kernels::ChainScanFn scan_fn) {
  return dp_pass(a, max_dist_ref, max_dist_qry, bw, max_skip, max_iter, min_cnt, min_score, pen, splice, n_seg, scan_fn,
                 nullptr);
}

namespace {

// The anchors [st, i0) that mg_lchain_rmq's first tree holds before anchor i, kept in
// step with it in a set of keys (y, index): before each anchor, the anchors x has moved
// past go in, then those out of reach (another reference or strand, x more than `dist`
// behind, or past the size cap) come out, oldest first.
struct RmqWindow {
  int64_t i0, st;
  explicit RmqWindow(int64_t b) : i0(b), st(b) {}
  // Brings `set` to what it holds before anchor i (after i - 1's step), calling
  // set.insert(key, priority) and set.erase(key); `pri` gives anchor j's priority.
  template <class Set, class Pri>
  void step(const std::vector<Anchor>& a, int64_t i, uint64_t dist, int cap_size, Set& set, const Pri& pri) {
    if (i0 < i && a[i0].x != a[i].x) {
      for (int64_t j = i0; j < i; ++j) set.insert(key_of(a, j), pri(j));
      i0 = i;
    }
    for (; st < i &&
           (a[i].x >> 32 != a[st].x >> 32 || a[i].x > a[st].x + dist || set.size() > static_cast<size_t>(cap_size));
         ++st)
      set.erase(key_of(a, st));
  }
  static int64_t key_of(const std::vector<Anchor>& a, int64_t j) {
    return RmqTree::make_key(static_cast<int32_t>(a[j].y), j);
  }
};

// mg_lchain_rmq's pass over anchors [b, e) of one reference sequence and strand: f and p
// of each, written into dp.
//
// The range minimum of each anchor's query comes from a MinBlocks (key_blocks.hpp) that
// holds what krmq's tree would. Where that minimum is unique, it is the node krmq_rmq
// returns (an exact range minimum). Where several keys of the range share it, the node
// krmq returns depends on its tree's shape, so only then is krmq's tree (rmq_tree.hpp)
// brought up to date — by the same insertions and erasures, in the same order, from where
// it was left — and asked. Ties are rare (none among the 7 million range queries of
// bench/scaling.sh's asm3 set and bench/mapping.sh's hifi and rep sets), so the tree's
// work is mostly spared. With literal, the tree is kept up to date and asked
// every time instead, and the near-predecessor walk scores every pair in full, as
// mg_lchain_rmq does.
void chain_rmq_block(const std::vector<Anchor>& a, int64_t b, int64_t e, int max_dist, int max_dist_inner, int bw,
                     int max_skip, int cap_size, GapPenalty pen, bool literal, DpArrays& dp) {
  const int64_t n = static_cast<int64_t>(a.size());
  const uint64_t max_dist_x = static_cast<uint64_t>(static_cast<int64_t>(max_dist));
  const uint64_t max_inner_x = static_cast<uint64_t>(static_cast<int64_t>(max_dist_inner));
  // The trees of mg_lchain_rmq: the range-minimum tree of the anchors within max_dist,
  // and, for the walk over near predecessors, an ordered set of those within
  // max_dist_inner (never asked for a minimum; see key_blocks.hpp).
  RmqTree tree;
  MinBlocks window;
  KeyBlocks inner;
  RmqWindow in_tree(b), in_window(b), in_inner(b);
  int64_t tree_at = b;  // the steps of the anchors before tree_at have been run on the tree
  const auto pri = [&](int64_t j) {
    return -(dp.f[j] + 0.5 * pen.gap * (static_cast<int32_t>(a[j].x) + static_cast<int32_t>(a[j].y)));
  };
  const auto ord = [&](int64_t j) { return priority_order(pri(j)); };
  const auto no_pri = [](int64_t) { return int64_t{0}; };
  // With penalties that are not negative, score_simple never exceeds the score it starts
  // from, min(span of j, dr, dq): the near-predecessor walk below uses that bound.
  const bool bounded = pen.gap >= 0 && pen.skip >= 0;
  // The tree holds the anchors of a window, at most cap_size + 1 after the evictions
  // (more only for the moment between a run of insertions and the evictions that follow
  // it, when the pool grows as a vector does), not the whole block.
  const auto tree_up_to = [&](int64_t i) {
    if (tree_at == b) tree.reserve(static_cast<size_t>(std::min<int64_t>(e - b, int64_t{cap_size} + 1)));
    for (; tree_at <= i; ++tree_at) in_tree.step(a, tree_at, max_dist_x, cap_size, tree, pri);
  };
  for (int64_t i = b; i < e; ++i) {
    const int32_t yi = static_cast<int32_t>(a[i].y);
    kernels::ChainBest best{anchor_span(a[i]), -1, 0};
    const RmqTree::Key lo = RmqTree::make_key(yi - max_dist, INT32_MAX), hi = RmqTree::make_key(yi, 0);
    int64_t j = -1;
    if (literal) {
      tree_up_to(i);
      const RmqTree::NodeId q = tree.range_min(lo, hi);
      if (q != RmqTree::kNull) j = RmqTree::key_i(tree.key(q));
    } else {
      in_window.step(a, i, max_dist_x, cap_size, window, ord);
      const MinBlocks::Min m = window.range_min(lo, hi);
      if (m.count == 1) {
        j = RmqTree::key_i(m.key);
      } else if (m.count > 1) {  // a tie: krmq's tree decides
        tree_up_to(i);
        j = RmqTree::key_i(tree.key(tree.range_min(lo, hi)));
      }
    }
    if (max_dist_inner > 0) in_inner.step(a, i, max_inner_x, cap_size, inner, no_pri);

    if (j >= 0) {
      bool exact = false;
      int32_t width = 0;
      int32_t sc = dp.f[j] + score_simple(a[i], a[j], pen, &exact, &width);
      if (width <= bw && sc > best.max_f) best.max_f = sc, best.max_j = j;
      // Near predecessors: walk the inner set down from y_i - 1, as the DP pass would.
      if (!exact && inner.size() > 0 && yi > 0) {
        for (KeyBlocks::Cursor c = inner.floor(RmqTree::make_key(yi - 1, n)); c.valid(); c.prev()) {
          if (RmqTree::key_y(c.key()) < yi - max_dist_inner) break;
          j = RmqTree::key_i(c.key());
          if (literal) {  // the oracle: every pair scored in full, as mg_lchain_rmq does
            sc = dp.f[j] + score_simple(a[i], a[j], pen, nullptr, &width);
            if (width <= bw && dp.take(i, j, sc, best, max_skip)) break;
            continue;
          }
          const SimplePair g = simple_pair(a[i], a[j]);
          if (g.dd > bw) continue;  // outside the band: no step of chain_take
          // With `bounded`, f[j] plus the score before the penalty bounds the pair's
          // score; where that cannot beat max_f, chain_take's step does not depend on the
          // score, so the penalty's float arithmetic is spared.
          sc = dp.f[j] + g.base();
          if (!bounded || sc > best.max_f) sc -= simple_penalty(g, pen);
          if (dp.take(i, j, sc, best, max_skip)) break;
        }
      }
    }
    dp.f[i] = best.max_f, dp.p[i] = static_cast<int32_t>(best.max_j);
  }
}

// chain_rmq; `owned` as dp_pass's.
Chains rmq_pass(const std::vector<Anchor>& a, int max_dist, int max_dist_inner, int bw, int max_skip, int cap_size,
                int min_cnt, int min_score, GapPenalty pen, bool inner_clamp, int threads, bool literal,
                std::vector<Anchor>* owned) {
  const int64_t n = static_cast<int64_t>(a.size());
  if (n == 0) return {};
  max_dist = std::max(max_dist, bw);
  if (inner_clamp)
    max_dist_inner = std::clamp(max_dist_inner, 0, max_dist);
  else if (max_dist_inner <= 0 || max_dist_inner >= max_dist)
    max_dist_inner = 0;
  const int32_t max_drop = bw;
  DpArrays dp(a.size());
  // In one pass over all anchors the trees empty at each change of a.x >> 32, and
  // wherever x steps by more than max_dist from one anchor to the next (every anchor
  // before is evicted before the next one's query, the inner window's max_dist_inner
  // being no larger), so each block between such points gets the f and p of a pass over
  // the block alone: the blocks run apart, the largest first. (A chromosome aligned to
  // one reference sequence is so cut wherever its anchors leave a gap of max_dist.)
  std::vector<std::pair<int64_t, int64_t>> blocks;
  // The backtracking's stretches: at most `threads` runs of whole blocks, of about equal
  // anchor counts (the block boundary nearest each n * j / threads). No predecessor link
  // crosses a block boundary.
  std::vector<int64_t> cuts;
  if (threads > 1) {
    const uint64_t gap = static_cast<uint64_t>(max_dist);
    for (int64_t b = 0, i = 1; i <= n; ++i)
      if (i == n || a[i].x >> 32 != a[i - 1].x >> 32 || a[i].x - a[i - 1].x > gap) blocks.emplace_back(b, i), b = i;
    cuts.push_back(0);
    for (int j = 1; j < threads; ++j) {
      const int64_t want = n * j / threads;
      int64_t best = n;
      for (const auto& [b, e] : blocks)
        if (std::abs(e - want) < std::abs(best - want)) best = e;
      if (best > cuts.back() && best < n) cuts.push_back(best);
    }
    cuts.push_back(n);
    std::stable_sort(blocks.begin(), blocks.end(),
                     [](const auto& u, const auto& v) { return u.second - u.first > v.second - v.first; });
  } else {
    blocks.emplace_back(0, n);
  }
  util::parallel_for(blocks.size(), threads, [&](size_t k, int) {
    chain_rmq_block(a, blocks[k].first, blocks[k].second, max_dist, max_dist_inner, bw, max_skip, cap_size, pen,
                    literal, dp);
  });
  return finish(a, dp, min_cnt, min_score, max_drop, cuts, threads, owned);
}

}  // namespace

Chains chain_rmq(const std::vector<Anchor>& a, int max_dist, int max_dist_inner, int bw, int max_skip, int cap_size,
                 int min_cnt, int min_score, GapPenalty pen, bool inner_clamp, int threads, bool literal) {
  return rmq_pass(a, max_dist, max_dist_inner, bw, max_skip, cap_size, min_cnt, min_score, pen, inner_clamp, threads,
                  literal, nullptr);
}

GapLimits gap_limits(const ChainParams& p, int qlen) {
  GapLimits g;
  g.qry = p.short_read ? std::max(qlen, p.max_gap) : p.max_gap;
  g.ref = p.max_gap;
  if (p.max_gap_ref > 0)
    g.ref = p.max_gap_ref;
  else if (p.max_frag_len > 0)
    g.ref = std::max(p.max_frag_len - qlen, p.max_gap);
  return g;
}

namespace {

// The condition under which mm_map_frag considers the long join (and so not the
// re-chaining with max_occ), whether or not the join then happens.
bool long_join_considered(const ChainParams& p, int n_seg, size_t n_chains) {
  return p.bw_long > p.bw && p.long_join && !p.splice && !p.short_read && n_seg == 1 && n_chains > 1;
}

}  // namespace

Chains chain_dp_pass(const std::vector<Anchor>& sorted_anchors, int qlen, int n_seg, int k, const ChainParams& p) {
  const GapLimits g = gap_limits(p, qlen);
  return chain_dp(sorted_anchors, g.ref, g.qry, p.bw, p.max_chain_skip, p.max_chain_iter, p.min_cnt, p.min_chain_score,
                  gap_penalty(p, k), p.splice, n_seg, p.scan);
}

bool rechain_wanted(const Chains& first, int n_seg, int mid_occ, int rep_len, const ChainParams& p) {
  if (long_join_considered(p, n_seg, first.size())) return false;
  if (!(p.max_occ > mid_occ && rep_len > 0 && !p.rmq)) return false;
  if (first.size() == 0) return true;
  size_t best = 0, off = 0, best_off = 0;
  int32_t max = 0;
  bool found = false;
  for (size_t i = 0; i < first.size(); ++i) {  // the first chain of the highest score
    if (max < Chains::score(first.u[i])) max = Chains::score(first.u[i]), best = i, best_off = off, found = true;
    off += static_cast<uint32_t>(Chains::count(first.u[i]));
  }
  // Every chain scoring 0 (possible only with -m 0): minimap2 then reads before its
  // array; here the read is seeded and chained again, as when no chain was found.
  if (!found) return true;
  int n_chained_segs = 1;
  const Anchor* a = first.anchors.data() + best_off;
  for (int32_t i = 1; i < Chains::count(first.u[best]); ++i)
    if (anchor_seg(a[i]) != anchor_seg(a[i - 1])) ++n_chained_segs;
  return n_chained_segs < n_seg;
}

namespace {

// chain_read's first pass: DP, or RMQ with --rmq. owned: as dp_pass's.
Chains first_pass(const std::vector<Anchor>& sorted_anchors, int qlen, int n_seg, GapPenalty pen, const ChainParams& p,
                  std::vector<Anchor>* owned) {
  const GapLimits g = gap_limits(p, qlen);
  return p.rmq ? rmq_pass(sorted_anchors, p.max_gap, p.rmq_inner_dist, p.bw, p.max_chain_skip, p.rmq_size_cap,
                          p.min_cnt, p.min_chain_score, pen, p.rmq_inner_clamp, p.threads, false, owned)
               : dp_pass(sorted_anchors, g.ref, g.qry, p.bw, p.max_chain_skip, p.max_chain_iter, p.min_cnt,
                         p.min_chain_score, pen, p.splice, n_seg, p.scan, owned);
}

// chain_read's long join: rechain the chained anchors with the wide band, unless the first
// chain (in x order, not the best) already spans nearly all of a short read.
Chains long_join(Chains chains, int qlen, int n_seg, GapPenalty pen, const ChainParams& p) {
  if (!long_join_considered(p, n_seg, chains.size())) return chains;
  const int32_t st = static_cast<int32_t>(chains.anchors[0].y);
  const int32_t en = static_cast<int32_t>(chains.anchors[Chains::count(chains.u[0]) - 1].y);
  if (!(qlen - (en - st) > p.rmq_rescue_size || static_cast<float>(en - st) > qlen * p.rmq_rescue_ratio)) return chains;
  std::vector<Anchor> a = std::move(chains.anchors);
  std::vector<uint64_t>().swap(chains.u);
  radix_sort_by_x(a.data(), a.data() + a.size(), p.threads);
  return rmq_pass(a, p.max_gap, p.rmq_inner_dist, p.bw_long, p.max_chain_skip, p.rmq_size_cap, p.min_cnt,
                  p.min_chain_score, pen, p.rmq_inner_clamp, p.threads, false, &a);
}

}  // namespace

Chains chain_read(const std::vector<Anchor>& sorted_anchors, int qlen, int n_seg, int k, const ChainParams& p) {
  const GapPenalty pen = gap_penalty(p, k);
  return long_join(first_pass(sorted_anchors, qlen, n_seg, pen, p, nullptr), qlen, n_seg, pen, p);
}

Chains chain_read(std::vector<Anchor>&& sorted_anchors, int qlen, int n_seg, int k, const ChainParams& p) {
  const GapPenalty pen = gap_penalty(p, k);
  Chains chains = first_pass(sorted_anchors, qlen, n_seg, pen, p, &sorted_anchors);
  std::vector<Anchor>().swap(sorted_anchors);  // unchained anchors, when no chain took the room
  return long_join(std::move(chains), qlen, n_seg, pen, p);
}

}  // namespace agatha::map
