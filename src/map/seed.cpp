#include "seed.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <utility>

#include "../util/parallel_for.hpp"
#include "radix_sort.hpp"
#include "sdust.hpp"

namespace agatha::map {
namespace {

constexpr int kMaxHighOccPerStreak = 128;  // MAX_MAX_HIGH_OCC

// A query's minimizers (or seeds) are split among threads in pieces of at least this
// many: below it, starting threads costs more than the piece's work.
constexpr size_t kMinParallelPiece = size_t{1} << 14;

// Pieces [b, e) of [0, n) for up to `threads` threads: (count, size), count 1 when n is
// too small to split.
std::pair<size_t, size_t> pieces_of(size_t n, int threads) {
  const size_t k = std::clamp<size_t>(n / kMinParallelPiece, 1, static_cast<size_t>(std::max(threads, 1)));
  return {k, (n + k - 1) / k};
}

// Keeps the k seeds of [st, en) with the smallest (count, index) and filters the rest of
// the streak; then filters any streak seed above max_max_occ.
void select_in_streak(std::vector<Seed>& seeds, int32_t st, int32_t en, int32_t k, int32_t max_max_occ) {
  std::vector<uint64_t> order;
  order.reserve(static_cast<size_t>(en - st));
  for (int32_t j = st; j < en; ++j)
    order.push_back(static_cast<uint64_t>(seeds[j].n()) << 32 | static_cast<uint32_t>(j));
  k = std::min<int32_t>(k, en - st);
  std::partial_sort(order.begin(), order.begin() + k, order.end());
  for (int32_t j = st; j < en; ++j) seeds[j].filtered = true;
  for (int32_t i = 0; i < k; ++i) seeds[static_cast<uint32_t>(order[i])].filtered = false;
  for (int32_t j = st; j < en; ++j)
    if (seeds[j].n() > max_max_occ) seeds[j].filtered = true;
}

// minimap2's skip_seed: all-vs-all self/dual rules and --for-only/--rev-only.
bool skip_hit(uint64_t r, const Seed& s, std::string_view qname, int32_t qlen, const index::MinimizerIndex& idx,
              const AlignOptions& opt, bool& is_self) {
  is_self = false;
  const bool same_strand = (r & 1) == (s.q_pos & 1);
  if (!qname.empty() && (opt.no_diag || opt.no_dual)) {
    const index::RefSeq& ref = idx.reference().seq(static_cast<uint32_t>(r >> 32));
    const int cmp = qname.compare(ref.name);
    if (opt.no_diag && cmp == 0 && static_cast<int32_t>(ref.len) == qlen) {
      if ((static_cast<uint32_t>(r) >> 1) == (s.q_pos >> 1)) return true;  // the diagonal itself
      if (same_strand) is_self = true;
    }
    if (opt.no_dual && cmp > 0) return true;  // map each pair once
  }
  if (opt.for_only || opt.rev_only) return same_strand ? opt.rev_only : opt.for_only;
  return false;
}

}  // namespace

std::vector<index::Minimizer> query_minimizers(std::span<const std::string_view> segs, const index::MinimizerIndex& idx,
                                               int sdust_thres, int threads) {
  // Pieces of at least 1 Mb: a read is sketched on its own thread, a contig on several.
  constexpr int kMinPiece = 1 << 20;
  std::vector<index::Minimizer> mv;
  uint64_t sum = 0;
  for (size_t i = 0; i < segs.size(); ++i) {
    const size_t n0 = mv.size();
    index::sketch_parallel(segs[i], idx.w(), idx.k(), static_cast<uint32_t>(i), idx.hpc(), threads, kMinPiece, mv);
    for (size_t j = n0; j < mv.size(); ++j) mv[j].y += sum << 1;
    mask_low_complexity(mv, n0, segs[i], sdust_thres);  // -T; after the offset, as minimap2
    sum += segs[i].size();
  }
  return mv;
}

void filter_query_repeats(std::vector<index::Minimizer>& mv, int32_t mid_occ, float q_occ_frac, int threads) {
  const size_t n = mv.size();
  if (n <= static_cast<size_t>(std::max(mid_occ, 0)) || q_occ_frac <= 0.0f || mid_occ <= 0) return;
  std::vector<Anchor> by_x(n);  // (x, original index)
  for (size_t i = 0; i < n; ++i) by_x[i] = {mv[i].x, i};
  radix_sort_by_x(by_x.data(), by_x.data() + n, threads);
  std::vector<bool> drop(n, false);
  for (size_t st = 0, i = 1; i <= n; ++i) {
    if (i < n && by_x[i].x == by_x[st].x) continue;
    const auto cnt = static_cast<int32_t>(i - st);
    // n * q_occ_frac is a float product, as in minimap2.
    if (cnt > mid_occ && static_cast<float>(cnt) > static_cast<float>(n) * q_occ_frac)
      for (size_t j = st; j < i; ++j) drop[by_x[j].y] = true;
    st = i;
  }
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    if (!drop[i]) mv[k++] = mv[i];
  mv.resize(k);
}

std::vector<Seed> lookup_seeds(const std::vector<index::Minimizer>& mv, const index::MinimizerIndex& idx,
                               int threads) {
  // A window of the read's hashes is looked up together (MinimizerIndex::lookup_batch), so
  // that their cache misses overlap; a long query's in pieces side by side (each hash's
  // lookup is independent of the others). The windows keep the lookup's scratch small
  // beside the seeds: a chromosome-length query has millions of minimizers.
  constexpr size_t kWindow = 4096;
  const size_t n = mv.size();
  std::vector<Seed> seeds(n);  // seed i is minimizer i's until the empty ones are dropped
  // (Plain variables, not a structured binding: lambdas below capture them, which
  // clang before 16 refuses for bindings.)
  const std::pair<size_t, size_t> pieces = pieces_of(n, threads);
  const size_t n_pieces = pieces.first, piece = pieces.second;
  util::parallel_for(n_pieces, threads, [&](size_t k, int) {
    std::vector<uint64_t> hashes(kWindow), scratch(kWindow);
    std::vector<std::span<const uint64_t>> hits(kWindow);
    const size_t b = k * piece, e = std::min(n, b + piece);
    for (size_t w = b; w < e; w += kWindow) {
      const size_t m = std::min(kWindow, e - w);
      for (size_t i = 0; i < m; ++i) hashes[i] = mv[w + i].x >> 8;
      idx.lookup_batch(hashes.data(), m, hits.data(), scratch.data());
      for (size_t i = 0; i < m; ++i) {
        const size_t at = w + i;
        Seed& s = seeds[at];
        s.q_pos = static_cast<uint32_t>(mv[at].y);
        s.q_span = static_cast<uint8_t>(mv[at].x & 0xff);
        s.seg_id = static_cast<uint16_t>(mv[at].y >> 32);
        s.set_hits(hits[i]);
        s.is_tandem = (at > 0 && mv[at - 1].x >> 8 == hashes[i]) || (at + 1 < n && mv[at + 1].x >> 8 == hashes[i]);
      }
    }
  });
  size_t kept = 0;
  for (size_t i = 0; i < n; ++i)
    if (seeds[i].n() > 0) seeds[kept++] = seeds[i];
  seeds.resize(kept);
  return seeds;
}

void select_seeds(std::vector<Seed>& seeds, int32_t qlen, int32_t max_occ, int32_t max_max_occ, int32_t occ_dist) {
  if (occ_dist <= 0 || max_max_occ <= max_occ) {
    for (Seed& s : seeds)
      if (s.n() > max_occ) s.filtered = true;
    return;
  }
  const auto n = static_cast<int32_t>(seeds.size());
  if (n <= 1) return;  // mm_seed_select keeps a lone seed whatever its count
  if (std::none_of(seeds.begin(), seeds.end(), [&](const Seed& s) { return s.n() > max_occ; })) return;
  for (int32_t i = 0, last_low = -1; i <= n; ++i) {
    if (i < n && seeds[i].n() > max_occ) continue;
    if (i - last_low > 1) {  // a streak of high-occurrence seeds (last_low, i)
      const int32_t ps = last_low < 0 ? 0 : static_cast<int32_t>(seeds[last_low].q_pos >> 1);
      const int32_t pe = i == n ? qlen : static_cast<int32_t>(seeds[i].q_pos >> 1);
      int32_t k = static_cast<int32_t>(static_cast<double>(pe - ps) / occ_dist + .499);
      k = std::clamp(k, 0, kMaxHighOccPerStreak);
      select_in_streak(seeds, last_low + 1, i, k, max_max_occ);
    }
    last_low = i;
  }
}

int32_t drop_filtered_seeds(std::vector<Seed>& seeds, std::vector<uint64_t>& mini_pos) {
  // Merge the intervals [pos+1-span, pos+1) of filtered seeds in query order: a new
  // interval starts when it begins after the current end, otherwise the end moves.
  int32_t rep_len = 0, rep_st = 0, rep_en = 0;
  size_t k = 0;
  mini_pos.clear();
  mini_pos.reserve(seeds.size());  // pages past the kept seeds are never touched
  for (const Seed& s : seeds) {
    if (s.filtered) {
      const int32_t en = static_cast<int32_t>(s.q_pos >> 1) + 1, st = en - static_cast<int32_t>(s.q_span);
      if (st > rep_en) {
        rep_len += rep_en - rep_st;
        rep_st = st, rep_en = en;
      } else {
        rep_en = en;
      }
    } else {
      mini_pos.push_back(static_cast<uint64_t>(s.q_span) << 32 | s.q_pos >> 1);
      seeds[k++] = s;
    }
  }
  seeds.resize(k);
  return rep_len + (rep_en - rep_st);
}

namespace {

// The anchor of seed s's hit r (collect_seed_hits).
Anchor anchor_of(const Seed& s, uint64_t r, int32_t qlen, const index::MinimizerIndex& idx, const AlignOptions& opt,
                 bool is_self) {
  const uint64_t qpos = s.q_pos >> 1, span = s.q_span;
  const uint64_t rid_rpos = (r & 0xffffffff00000000ULL) | (static_cast<uint32_t>(r) >> 1);
  Anchor p;
  if ((r & 1) == (s.q_pos & 1)) {
    p.x = rid_rpos;
    p.y = span << 32 | qpos;
  } else if (!opt.qstrand) {  // the reverse strand in the read's reverse-complement coordinates
    p.x = anchor_bit::kReverse | rid_rpos;
    p.y = span << 32 | static_cast<uint32_t>(qlen - static_cast<int32_t>(qpos + 1 - span) - 1);
  } else {  // --qstrand: the read's own coordinates, the reference's reverse strand
    const auto rlen = static_cast<int64_t>(idx.reference().seq(static_cast<uint32_t>(r >> 32)).len);
    const int64_t rpos = static_cast<uint32_t>(r) >> 1;
    p.x = anchor_bit::kReverse | (r & 0xffffffff00000000ULL) | static_cast<uint32_t>(rlen - (rpos + 1 - span) - 1);
    p.y = span << 32 | qpos;
  }
  p.y |= static_cast<uint64_t>(s.seg_id) << anchor_bit::kSegShift;
  if (s.is_tandem) p.y |= anchor_bit::kTandem;
  if (is_self) p.y |= anchor_bit::kSelf;
  return p;
}

}  // namespace

std::vector<Anchor> make_anchors(const std::vector<Seed>& seeds, int32_t qlen, std::string_view qname,
                                 const index::MinimizerIndex& idx, const AlignOptions& opt, int threads) {
  size_t total = 0;
  for (const Seed& s : seeds) total += s.hits().size();
  std::vector<Anchor> a;
  // Without the options that skip hits (skip_hit), seed i's anchors are the slots
  // [first[i], first[i] + its hits) of the array, and pieces of the seeds fill their
  // slots side by side.
  const bool every_hit = !opt.no_diag && !opt.no_dual && !opt.for_only && !opt.rev_only;
  const size_t n_pieces = pieces_of(total, threads).first;  // (a plain variable, captured: see lookup_seeds)
  if (every_hit && n_pieces > 1) {
    const size_t seeds_per_piece = (seeds.size() + n_pieces - 1) / n_pieces;
    std::vector<size_t> first(n_pieces + 1, 0);
    for (size_t k = 0; k < n_pieces; ++k) {
      const size_t b = std::min(seeds.size(), k * seeds_per_piece), e = std::min(seeds.size(), b + seeds_per_piece);
      size_t m = 0;
      for (size_t i = b; i < e; ++i) m += seeds[i].hits().size();
      first[k + 1] = first[k] + m;
    }
    a.resize(total);
    util::parallel_for(n_pieces, threads, [&](size_t k, int) {
      const size_t b = std::min(seeds.size(), k * seeds_per_piece), e = std::min(seeds.size(), b + seeds_per_piece);
      Anchor* out = a.data() + first[k];
      for (size_t i = b; i < e; ++i)
        for (const uint64_t r : seeds[i].hits()) *out++ = anchor_of(seeds[i], r, qlen, idx, opt, false);
    });
  } else {
    a.reserve(total);
    for (const Seed& s : seeds) {
      for (const uint64_t r : s.hits()) {
        bool is_self = false;
        if (skip_hit(r, s, qname, qlen, idx, opt, is_self)) continue;
        a.push_back(anchor_of(s, r, qlen, idx, opt, is_self));
      }
    }
  }
  radix_sort_by_x(a.data(), a.data() + a.size(), threads);
  return a;
}

namespace {

// One entry of the merge heap: a seed's current hit (x: the raw index entry, y: seed
// index << 32 | hit index).
struct HeapItem {
  uint64_t x, y;
};

// Binary-heap sift-down with the smallest x at the root, exactly as minimap2's ksort heap
// (ks_heapdown) moves entries: the right child is taken only when strictly smaller, and a
// child equal to the moving entry still moves up. Which of two equal hits leaves the heap
// first depends on these rules, and the anchors' order (chaining ties) on that.
void heap_down(HeapItem* h, size_t i, size_t n) {
  const HeapItem moving = h[i];
  for (size_t k = 2 * i + 1; k < n; k = 2 * i + 1) {
    if (k != n - 1 && h[k].x > h[k + 1].x) ++k;
    if (h[k].x > moving.x) break;
    h[i] = h[k];
    i = k;
  }
  h[i] = moving;
}

}  // namespace

std::vector<Anchor> make_anchors_heap(const std::vector<Seed>& seeds, int32_t qlen, std::string_view qname,
                                      const index::MinimizerIndex& idx, const AlignOptions& opt) {
  std::vector<HeapItem> heap;
  heap.reserve(seeds.size());
  for (size_t i = 0; i < seeds.size(); ++i)
    if (seeds[i].n() > 0) heap.push_back({seeds[i].hits()[0], static_cast<uint64_t>(i) << 32});
  size_t n = heap.size();
  for (size_t i = n / 2; i-- > 0;) heap_down(heap.data(), i, n);
  // Hits leave the heap in increasing order of the raw entry; forward and reverse anchors
  // each keep that order, the forward ones first.
  std::vector<Anchor> fwd, rev;
  while (n > 0) {
    const Seed& s = seeds[heap[0].y >> 32];
    const uint64_t r = heap[0].x;
    bool is_self = false;
    if (!skip_hit(r, s, qname, qlen, idx, opt, is_self)) {
      const uint64_t rid_rpos = (r & 0xffffffff00000000ULL) | (static_cast<uint32_t>(r) >> 1);
      const uint64_t span = s.q_span, qpos = s.q_pos >> 1;
      Anchor p;
      const bool forward = (r & 1) == (s.q_pos & 1);
      if (forward) {
        p.x = rid_rpos;
        p.y = span << 32 | qpos;
      } else {
        p.x = anchor_bit::kReverse | rid_rpos;
        p.y = span << 32 | static_cast<uint32_t>(qlen - static_cast<int32_t>(qpos + 1 - span) - 1);
      }
      p.y |= static_cast<uint64_t>(s.seg_id) << anchor_bit::kSegShift;
      if (s.is_tandem) p.y |= anchor_bit::kTandem;
      if (is_self) p.y |= anchor_bit::kSelf;
      (forward ? fwd : rev).push_back(p);
    }
    const uint32_t next = static_cast<uint32_t>(heap[0].y) + 1;
    if (next < s.hits().size()) {
      heap[0].x = s.hits()[next];
      ++heap[0].y;
    } else {
      heap[0] = heap[--n];
    }
    heap_down(heap.data(), 0, n);
  }
  fwd.insert(fwd.end(), rev.begin(), rev.end());
  return fwd;
}

ReadSeeds look_up_read(std::span<const std::string_view> segs, const index::MinimizerIndex& idx,
                       const AlignOptions& opt, int32_t mid_occ, int threads) {
  ReadSeeds out;
  for (const auto& s : segs) out.qlen += static_cast<int64_t>(s.size());
  if (out.qlen == 0) return out;
  std::vector<index::Minimizer> mv = query_minimizers(segs, idx, opt.sdust_thres, threads);
  if (opt.q_occ_frac > 0.0f) filter_query_repeats(mv, mid_occ, opt.q_occ_frac, threads);
  out.seeds = lookup_seeds(mv, idx, threads);
  return out;
}

namespace {

SeedResult collect_from(std::vector<Seed> seeds, int64_t read_qlen, std::string_view qname,
                        const index::MinimizerIndex& idx, const AlignOptions& opt, int32_t max_occ, int threads) {
  SeedResult out;
  if (read_qlen == 0) return out;
  const auto qlen = static_cast<int32_t>(read_qlen);
  select_seeds(seeds, qlen, max_occ, opt.max_max_occ, opt.occ_dist);
  out.rep_len = drop_filtered_seeds(seeds, out.mini_pos);
  out.anchors =
      opt.heap_sort ? make_anchors_heap(seeds, qlen, qname, idx, opt) : make_anchors(seeds, qlen, qname, idx, opt, threads);
  return out;
}

}  // namespace

SeedResult collect_anchors(const ReadSeeds& read, std::string_view qname, const index::MinimizerIndex& idx,
                           const AlignOptions& opt, int32_t max_occ, int threads) {
  return collect_from(read.qlen == 0 ? std::vector<Seed>() : read.seeds, read.qlen, qname, idx, opt, max_occ, threads);
}

SeedResult collect_anchors(ReadSeeds&& read, std::string_view qname, const index::MinimizerIndex& idx,
                           const AlignOptions& opt, int32_t max_occ, int threads) {
  return collect_from(std::move(read.seeds), read.qlen, qname, idx, opt, max_occ, threads);
}

SeedResult seed_read(std::string_view qname, std::span<const std::string_view> segs, const index::MinimizerIndex& idx,
                     const AlignOptions& opt, int32_t mid_occ) {
  return collect_anchors(look_up_read(segs, idx, opt, mid_occ), qname, idx, opt, mid_occ);
}

}  // namespace agatha::map
