// The DP skeleton of a region (minimap2 2.24 align.c: mm_align1 and helpers). See
// region_align.hpp.
#include "region_align.hpp"

#include "../util/parallel_for.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include <agatha/cigar.hpp>
#include <agatha/error.hpp>
#include <agatha/nt4.hpp>

#include "../../kernels/local_sw.hpp"
#include "cigar_fix.hpp"

namespace agatha::align {

using map::Anchor;
using map::Region;
namespace ab = map::anchor_bit;

namespace {

inline int32_t ax(const Anchor& a) { return static_cast<int32_t>(a.x); }
inline int32_t ay(const Anchor& a) { return static_cast<int32_t>(a.y); }
inline int32_t aspan(const Anchor& a) { return static_cast<int32_t>(a.y >> 32 & 0xff); }

// A read's regions may be aligned side by side (align_regions with threads): each
// region's thread writes flag bits into its own anchors (filter_bad_seeds), while
// another region's extension_bounds reads those anchors' positions. The flag bits are
// set, and the neighbours' y read, as whole atomic words (relaxed: the positions and
// spans read never change, only the flag bits beside them).
inline void set_flag(Anchor& a, uint64_t bit) { __atomic_fetch_or(&a.y, bit, __ATOMIC_RELAXED); }
inline Anchor neighbour(const Anchor* a, int32_t i) { return {a[i].x, __atomic_load_n(&a[i].y, __ATOMIC_RELAXED)}; }

// mm_adjust_minier
void adjust_minier(const index::MinimizerIndex& idx, const ReadCodes& read, const Anchor& a, int32_t& r, int32_t& q) {
  if (idx.hpc()) {
    const ReadCodes::Codes& qs = read.strand(map::anchor_reverse(a));
    q = ay(a);
    int32_t i = q - 1;
    const uint8_t c = qs[static_cast<size_t>(q)];
    for (; i > 0; --i)
      if (qs[static_cast<size_t>(i)] != c) break;
    q = i + 1;
    const uint32_t rid = static_cast<uint32_t>(map::anchor_rid(a));
    r = ax(a);
    const uint8_t rc = idx.reference().base(rid, static_cast<uint32_t>(r));
    for (i = r - 1; i > 0; --i)
      if (idx.reference().base(rid, static_cast<uint32_t>(i)) != rc) break;
    r = i + 1;
  } else {
    r = ax(a) - (idx.k() >> 1);
    q = ay(a) - (idx.k() >> 1);
  }
}

int32_t gap_of(const Anchor* a, int i) {
  return static_cast<int32_t>(static_cast<uint32_t>(ay(a[i]) - ay(a[i - 1])) -
                              static_cast<uint32_t>(ax(a[i]) - ax(a[i - 1])));
}

std::vector<int> collect_long_gaps(int as1, int cnt1, const Anchor* a, int min_gap) {
  std::vector<int> k;
  for (int i = 1; i < cnt1; ++i) {
    const int gap = gap_of(a + as1, i);
    if (gap < -min_gap || gap > min_gap) k.push_back(i);
  }
  if (k.size() <= 1) k.clear();
  return k;
}

// [st, en) of reference rid into out: on the forward strand, or with rev on the reverse
// strand in its own coordinates, i.e. the reverse complement of [len - en, len - st)
// (mm_idx_getseq2, which --qstrand's alignment reads the reference with).
void fetch_strand(const index::Reference& ref, uint32_t rid, bool rev, int32_t st, int32_t en, uint8_t* out) {
  if (en <= st) return;
  if (!rev) {
    ref.fetch(rid, static_cast<uint32_t>(st), static_cast<uint32_t>(en), out);
    return;
  }
  const auto len = static_cast<int32_t>(ref.seq(rid).len);
  std::vector<uint8_t> fwd(static_cast<size_t>(en - st));
  ref.fetch(rid, static_cast<uint32_t>(len - en), static_cast<uint32_t>(len - st), fwd.data());
  reverse_complement(fwd, out);
}

int ll_i16(const uint8_t* qs, int ql, const uint8_t* ts, int tl, const AlignOptions& opt, int& qe, int& te) {
  const kernels::LocalSwResult r = kernels::local_sw_i16(qs, ql, ts, tl, opt.dp_scoring());
  qe = r.qe, te = r.te;
  return r.score;
}

// mm_seed_ext_score: the local alignment score (ksw_ll_i16) of an anchor's k-mer with
// anchor_ext_len bases more on each side, on both sequences.
int seed_ext_score(const AlignOptions& opt, const index::MinimizerIndex& idx, const ReadCodes& read, const Anchor& a) {
  const uint32_t rid = static_cast<uint32_t>(map::anchor_rid(a));
  const int32_t rlen = static_cast<int32_t>(idx.reference().seq(rid).len);
  const int32_t qlen = static_cast<int32_t>(read.size());
  const int32_t span = aspan(a), ext = opt.anchor_ext_len;
  int32_t re = static_cast<int32_t>(static_cast<uint32_t>(a.x) + 1), rs = re - span;
  int32_t qe = static_cast<int32_t>(static_cast<uint32_t>(a.y) + 1), qs = qe - span;
  rs = std::max(rs - ext, 0), qs = std::max(qs - ext, 0);
  re = std::min(re + ext, rlen), qe = std::min(qe + ext, qlen);
  std::vector<uint8_t> tseq(static_cast<size_t>(re - rs));
  // --qstrand: the read as it is, the reference on the anchor's strand
  const bool rev = map::anchor_reverse(a);
  fetch_strand(idx.reference(), rid, opt.qstrand && rev, rs, re, tseq.data());
  int q_end = -1, t_end = -1;
  return ll_i16(read.strand(rev && !opt.qstrand).data() + qs, qe - qs, tseq.data(), re - rs, opt, q_end, t_end);
}

DpResult reset_result() {
  DpResult r;
  r.zdropped = true;
  return r;
}

}  // namespace

ReadCodes::ReadCodes(std::string_view seq, int threads) : lazy_(std::make_unique<Lazy>()) {
  lazy_->seq = seq;
  lazy_->threads = std::max(1, threads);
}

ReadCodes::ReadCodes(std::string&& seq, int threads) : lazy_(std::make_unique<Lazy>()) {
  lazy_->owned = std::move(seq);
  lazy_->seq = lazy_->owned;
  lazy_->threads = std::max(1, threads);
}

const ReadCodes::Codes& ReadCodes::strand(bool reverse) const {
  Lazy& z = *lazy_;
  const size_t s = reverse != z.flipped ? 1 : 0;
  if (z.ready[s].load(std::memory_order_acquire)) return z.codes[s];
  std::call_once(z.once[s], [&] {
    const std::string_view seq = z.seq;
    const size_t n = seq.size();
    Codes& out = z.codes[s];
    out.resize(n);
    // Pieces of at least 1 Mb (the pages are first touched by the thread that fills them).
    const size_t pieces = std::clamp<size_t>(n >> 20, 1, static_cast<size_t>(z.threads));
    util::parallel_for(pieces, static_cast<int>(pieces), [&](size_t k, int) {
      const size_t b = n * k / pieces, e = n * (k + 1) / pieces;
      if (s == 0)
        for (size_t i = b; i < e; ++i) out[i] = nt4(seq[i]);
      else
        for (size_t i = b; i < e; ++i) out[n - 1 - i] = complement(nt4(seq[i]));
    });
    z.ready[s].store(true, std::memory_order_release);
  });
  return z.codes[s];
}

std::vector<Anchor> squeeze_anchors(std::vector<Region>& regs, const std::vector<Anchor>& a) {
  std::vector<uint64_t> aux(regs.size());
  for (size_t i = 0; i < regs.size(); ++i) aux[i] = static_cast<uint64_t>(regs[i].as) << 32 | i;
  std::sort(aux.begin(), aux.end());
  size_t total = 0;
  for (const Region& r : regs) total += static_cast<size_t>(r.cnt);
  std::vector<Anchor> out;
  out.reserve(total);
  for (uint64_t v : aux) {
    Region& r = regs[static_cast<uint32_t>(v)];
    const int32_t as = static_cast<int32_t>(out.size());
    out.insert(out.end(), a.begin() + r.as, a.begin() + r.as + r.cnt);
    r.as = as;
  }
  return out;
}

RegionAnchors::RegionAnchors(std::vector<Region>& regs, std::vector<Anchor>&& chained, bool one_pass)
    : a_(squeeze_anchors(regs, chained)), made_(true), one_pass_(one_pass) {
  std::vector<Anchor>().swap(chained);
  if (one_pass) return;
  flags_.resize(a_.size());
  for (size_t i = 0; i < a_.size(); ++i)
    flags_[i] = static_cast<uint8_t>((a_[i].y & ab::kIgnore ? 1 : 0) | (a_[i].y & ab::kLongJoin ? 2 : 0));
}

std::vector<Anchor>& RegionAnchors::for_pass() {
  if (used_ && one_pass_) throw Error("internal: a second alignment pass over anchors squeezed for one");
  if (used_)
    for (size_t i = 0; i < a_.size(); ++i)
      a_[i].y = (a_[i].y & ~(ab::kIgnore | ab::kLongJoin)) | (flags_[i] & 1 ? ab::kIgnore : 0) |
                (flags_[i] & 2 ? ab::kLongJoin : 0);
  used_ = true;
  return a_;
}

void fix_bad_ends(const Region& r, const Anchor* a, int bw, int min_match, int32_t& as, int32_t& cnt) {
  as = r.as, cnt = r.cnt;
  if (r.cnt < 3) return;
  int32_t l, m;
  m = l = aspan(a[r.as]);
  for (int32_t i = r.as + 1; i < r.as + r.cnt - 1; ++i) {
    const int32_t q_span = aspan(a[i]);
    if (a[i].y & ab::kLongJoin) break;
    const int32_t lr = ax(a[i]) - ax(a[i - 1]), lq = ay(a[i]) - ay(a[i - 1]);
    const int32_t mn = std::min(lr, lq), mx = std::max(lr, lq);
    if (mx - mn > l >> 1) as = i;
    l += mn;
    m += std::min(mn, q_span);
    if (l >= bw << 1 || (m >= min_match && m >= bw) || m >= r.mlen >> 1) break;
  }
  cnt = r.as + r.cnt - as;
  m = l = aspan(a[r.as + r.cnt - 1]);
  for (int32_t i = r.as + r.cnt - 2; i > as; --i) {
    const int32_t q_span = aspan(a[i + 1]);
    if (a[i + 1].y & ab::kLongJoin) break;
    const int32_t lr = ax(a[i + 1]) - ax(a[i]), lq = ay(a[i + 1]) - ay(a[i]);
    const int32_t mn = std::min(lr, lq), mx = std::max(lr, lq);
    if (mx - mn > l >> 1) cnt = i + 1 - as;
    l += mn;
    m += std::min(mn, q_span);
    if (l >= bw << 1 || (m >= min_match && m >= bw) || m >= r.mlen >> 1) break;
  }
}

void fix_bad_ends_splice(const AlignOptions& opt, const index::MinimizerIndex& idx, const ReadCodes& read,
                         const Region& r, const Anchor* a, int32_t& as, int32_t& cnt) {
  as = r.as, cnt = r.cnt;
  if (r.cnt < 3) return;
  // A terminal anchor is weak evidence of a terminal exon when its k-mer, extended on both
  // sides, scores (in matches) below ln(the reference gap to its neighbour) + the penalty.
  auto weak = [&](const Anchor& end, const Anchor& next) {
    const double log_gap = std::log(static_cast<double>(std::abs(ax(next) - ax(end))));
    if (aspan(end) >= log_gap + opt.anchor_ext_shift) return false;
    const int score = seed_ext_score(opt, idx, read, end);
    return static_cast<double>(score) / opt.dp_scoring().match_score() < log_gap + opt.anchor_ext_shift;  // mat[0]
  };
  if (weak(a[r.as], a[r.as + 1])) ++as, --cnt;
  if (weak(a[r.as + r.cnt - 1], a[r.as + r.cnt - 2])) --cnt;
}

void filter_bad_seeds(int as1, int cnt1, Anchor* a, int min_gap, int diff_thres, int max_ext_len, int max_ext_cnt) {
  const std::vector<int> K = collect_long_gaps(as1, cnt1, a, min_gap);
  if (K.empty()) return;
  const int n = static_cast<int>(K.size());
  int max = 0, max_st = -1, max_en = -1;
  for (int k = 0;; ++k) {
    if (k == n || k >= max_en) {
      if (max_en > 0)
        for (int i = K[static_cast<size_t>(max_st)]; i < K[static_cast<size_t>(max_en)]; ++i)
          set_flag(a[as1 + i], ab::kIgnore);
      max = 0, max_st = max_en = -1;
      if (k == n) break;
    }
    int i = K[static_cast<size_t>(k)];
    int n_ins = 0, n_del = 0, max_diff = 0, max_diff_l = -1;
    int gap = gap_of(a + as1, i);
    if (gap > 0)
      n_ins += gap;
    else
      n_del += -gap;
    const int qs = ay(a[as1 + i - 1]), rs = ax(a[as1 + i - 1]);
    for (int l = k + 1; l < n && l <= k + max_ext_cnt; ++l) {
      const int j = K[static_cast<size_t>(l)];
      if (ay(a[as1 + j]) - qs > max_ext_len || ax(a[as1 + j]) - rs > max_ext_len) break;
      gap = gap_of(a + as1, j);
      if (gap > 0)
        n_ins += gap;
      else
        n_del += -gap;
      const int diff = n_ins + n_del - std::abs(n_ins - n_del);
      if (max_diff < diff) max_diff = diff, max_diff_l = l;
    }
    if (max_diff > diff_thres && max_diff > max) max = max_diff, max_st = k, max_en = max_diff_l;
  }
}

void filter_bad_seeds_alt(int as1, int cnt1, Anchor* a, int min_gap, int max_ext) {
  const std::vector<int> K = collect_long_gaps(as1, cnt1, a, min_gap);
  if (K.empty()) return;
  const int n = static_cast<int>(K.size());
  for (int k = 0; k < n;) {
    const int i = K[static_cast<size_t>(k)];
    int gap1 = std::abs(gap_of(a + as1, i));
    int re1 = ax(a[as1 + i]), qe1 = ay(a[as1 + i]);
    int l;
    for (l = k + 1; l < n; ++l) {
      const int j = K[static_cast<size_t>(l)];
      if (ay(a[as1 + j]) - qe1 > max_ext || ax(a[as1 + j]) - re1 > max_ext) break;
      const int gap2 = std::abs(gap_of(a + as1, j));
      const int q_span_pre = aspan(a[as1 + j - 1]);
      const int rs2 = ax(a[as1 + j - 1]) + q_span_pre, qs2 = ay(a[as1 + j - 1]) + q_span_pre;
      const int m = std::min(rs2 - re1, qs2 - qe1);
      if (m > gap1 + gap2) break;
      re1 = ax(a[as1 + j]), qe1 = ay(a[as1 + j]);
      gap1 = gap2;
    }
    if (l > k + 1) {
      const int end = K[static_cast<size_t>(l - 1)];
      for (int j = K[static_cast<size_t>(k)]; j < end; ++j) set_flag(a[as1 + j], ab::kIgnore);
      set_flag(a[as1 + end], ab::kLongJoin);
    }
    k = l;
  }
}

namespace {

// The length of the run of identical unambiguous bases (codes 0-3) t[0..) == q[0..),
// at most n: eight bases a step.
int32_t match_run(const uint8_t* t, const uint8_t* q, int32_t n) {
  constexpr uint64_t kAmbiguous = 0x0404040404040404ULL;  // bit 2 of every code: 4 (N)
  int32_t l = 0;
  for (; std::endian::native == std::endian::little && l + 8 <= n; l += 8) {
    uint64_t wt, wq;
    std::memcpy(&wt, t + l, 8), std::memcpy(&wq, q + l, 8);
    const uint64_t bad = (wt ^ wq) | (wt & kAmbiguous);
    if (bad != 0) return l + std::countr_zero(bad) / 8;
  }
  while (l < n && t[l] == q[l] && t[l] < 4) ++l;
  return l;
}

}  // namespace

int test_zdrop(const AlignOptions& opt, const uint8_t* qseq, const uint8_t* tseq, const std::vector<uint32_t>& cigar) {
  const DpScoring sc = opt.dp_scoring();
  int32_t score = 0, max = INT32_MIN, max_i = -1, max_j = -1, i = 0, j = 0, max_zdrop = 0;
  int pos[2][2] = {{-1, -1}, {-1, -1}};
  auto update = [&](int ii, int jj) {
    if (score < max) {
      const int li = ii - max_i, lj = jj - max_j;
      const int diff = li > lj ? li - lj : lj - li;
      const int z = max - score - diff * opt.e;
      if (z > max_zdrop) {
        max_zdrop = z;
        pos[0][0] = max_i, pos[0][1] = ii;  // 2.24: the end is the drop's cell itself, not past it
        pos[1][0] = max_j, pos[1][1] = jj;
      }
    } else {
      max = score, max_i = ii, max_j = jj;
    }
  };
  for (uint32_t c : cigar) {
    const uint32_t op = cigar::op(c);
    const int32_t len = static_cast<int32_t>(cigar::len(c));
    if (op == cigar::kMatch) {
      for (int32_t l = 0; l < len;) {
        const int32_t n = sc.match_score() > 0 ? match_run(tseq + i + l, qseq + j + l, len - l) : 0;
        if (n > 0) {
          // A run of n identical bases: the score rises by a each step and the cells stay
          // on one diagonal, so a Z-drop measured in the run is below the one measured at
          // the cell before it, and the maximum, if the run reaches it, ends at its last
          // cell. The per-cell rule gives the same state.
          score += n * sc.match_score();  // mm_test_zdrop scores with minimap2's int8 matrix
          if (score >= max) max = score, max_i = i + l + n - 1, max_j = j + l + n - 1;
          l += n;
        } else {
          score += sc.substitution(tseq[i + l], qseq[j + l]);
          update(i + l, j + l);
          ++l;
        }
      }
      i += len, j += len;
    } else if (op == cigar::kIns || op == cigar::kDel || op == cigar::kNSkip) {
      score -= opt.q + opt.e * len;
      if (op == cigar::kIns)
        j += len;
      else
        i += len;
      update(i, j);
    }
  }
  const int q_len = pos[1][1] - pos[1][0], t_len = pos[0][1] - pos[0][0];
  if (!opt.splicing() && !opt.sr && !opt.for_only && !opt.rev_only && max_zdrop > opt.zdrop_inv &&
      q_len < opt.max_gap && t_len < opt.max_gap) {
    std::vector<uint8_t> qseq2(static_cast<size_t>(q_len));
    reverse_complement(std::span<const uint8_t>(qseq + pos[1][0], static_cast<size_t>(q_len)), qseq2.data());
    int qe = -1, te = -1;
    const int sc = ll_i16(qseq2.data(), q_len, tseq + pos[0][0], t_len, opt, qe, te);
    if (sc >= opt.min_chain_score * opt.a && sc >= opt.min_dp_max) return 2;
  }
  return max_zdrop > opt.zdrop ? 1 : 0;
}

namespace {

// mm_align1's constants. The DP band is the chaining band widened by half: a chain's
// anchors lie within bw of its diagonal, the alignment between them may stray further.
constexpr double kDpBandScale = 1.5;
// mm_filter_bad_seeds: gaps between consecutive anchors longer than this are examined...
constexpr int kBadSeedMinGap = 10;
// ...and a stretch of them whose insertions and deletions cancel out by more than this
// many bases (an indel "wobble" typical of a wrong anchor) is ignored, looking at most
// this many long gaps ahead.
constexpr int kBadSeedDiffThres = 40, kBadSeedMaxExtCnt = 10;
// mm_filter_bad_seeds_alt: gaps longer than this are examined; consecutive ones closer
// to each other than their summed size are ignored and the last becomes a long join.
constexpr int kBadSeedAltMinGap = 30;

// How far the left extension may reach ([rs0, rs) x [qs0, qs)) and the right one
// ([re, re0) x [qe, qe0)), as mm_align1 bounds them.
struct ExtensionBounds {
  int32_t rs0 = 0, qs0 = 0, re0 = 0, qe0 = 0;
};

// (rs, qs) and (re, qe) are the DP boundary at the region's first and last kept anchor.
// Each side is bounded three ways:
//  - it covers at least the region's own outermost anchor (its whole k-mer span; with
//    HPC k-mers the span may reach before the reference start, hence the clamp at 0);
//  - it stops at a neighbouring chain: walking outward over the anchors of the same
//    reference and strand that lie wholly outside the region on both sequences, once
//    more than min_cnt of them are passed, the extension ends at the larger of the
//    reference and query distances to the last one. Those anchors form a chain of their
//    own that is aligned as its own region;
//  - the query side reaches at most max_gap bases; the reference side as many, plus the
//    longest deletion a perfect match of those query bases could pay for
//    ((l * a - q) / e more bases), capped at max_gap and the sequence end.
// A region that already touches a sequence end on that side is not extended there.
ExtensionBounds extension_bounds(const AlignOptions& opt, const Anchor* a, int32_t n_a, const Region& r, int32_t qlen,
                                 int32_t rlen, int32_t rs, int32_t qs, int32_t re, int32_t qe) {
  ExtensionBounds b;
  const uint64_t ref_strand = a[r.as].x >> 32;  // rid and strand of the region
  // Left.
  int32_t rs0 = std::max(0, ax(a[r.as]) + 1 - aspan(a[r.as]));
  int32_t qs0 = ay(a[r.as]) + 1 - aspan(a[r.as]);
  int32_t rs1 = 0, qs1 = 0, l = 0;
  for (int32_t i = r.as - 1; i >= 0 && a[i].x >> 32 == ref_strand; --i) {
    const Anchor n = neighbour(a, i);
    const int32_t x = ax(n) + 1 - aspan(n), y = ay(n) + 1 - aspan(n);
    if (x < rs0 && y < qs0 && ++l > opt.min_cnt) {
      l = std::max(rs0 - x, qs0 - y);
      rs1 = std::max(0, rs0 - l), qs1 = qs0 - l;
      break;
    }
  }
  if (qs > 0 && rs > 0) {
    l = std::min(qs, opt.max_gap);
    qs1 = std::max(qs1, qs - l);
    qs0 = std::min(qs0, qs1);
    l += l * opt.a > opt.q ? (l * opt.a - opt.q) / opt.e : 0;
    l = std::min({l, opt.max_gap, rs});
    rs1 = std::max(rs1, rs - l);
    rs0 = std::min({rs0, rs1, rs});
  } else {
    rs0 = rs, qs0 = qs;
  }
  // Right, the mirror image.
  int32_t re0 = ax(a[r.as + r.cnt - 1]) + 1, qe0 = ay(a[r.as + r.cnt - 1]) + 1;
  int32_t re1 = rlen, qe1 = qlen;
  l = 0;
  for (int32_t i = r.as + r.cnt; i < n_a && a[i].x >> 32 == ref_strand; ++i) {
    const Anchor n = neighbour(a, i);
    const int32_t x = ax(n) + 1, y = ay(n) + 1;
    if (x > re0 && y > qe0 && ++l > opt.min_cnt) {
      l = std::max(x - re0, y - qe0);
      re1 = re0 + l, qe1 = qe0 + l;
      break;
    }
  }
  if (qe < qlen && re < rlen) {
    l = std::min(qlen - qe, opt.max_gap);
    qe1 = std::min(qe1, qe + l);
    qe0 = std::max(qe0, qe1);
    l += l * opt.a > opt.q ? (l * opt.a - opt.q) / opt.e : 0;
    l = std::min({l, opt.max_gap, rlen - re});
    re1 = std::min(re1, re + l);
    re0 = std::max(re0, re1);
  } else {
    re0 = re, qe0 = qe;
  }
  b.rs0 = rs0, b.qs0 = qs0, b.re0 = re0, b.qe0 = qe0;
  return b;
}

// The extension limits of the sr preset (mm_align1 with MM_F_SR): the whole read on the
// query side; on the reference, beyond each end of the stretch, the unaligned query bases
// plus the longest deletion a perfect match of them with the end bonus could pay for
// ((l * a + end_bonus - q) / e more bases), capped at the sequence's ends.
ExtensionBounds extension_bounds_sr(const AlignOptions& opt, int32_t qlen, int32_t rlen, int32_t rs, int32_t qs,
                                    int32_t re, int32_t qe) {
  auto reach = [&](int32_t l) {
    const int32_t pay = l * opt.a + opt.end_bonus;
    return l + (pay > opt.q ? (pay - opt.q) / opt.e : 0);
  };
  ExtensionBounds b;
  b.qs0 = 0, b.qe0 = qlen;
  b.rs0 = std::max(rs - reach(qs), 0);
  b.re0 = std::min(re + reach(qlen - qe), rlen);
  return b;
}

// The ungapped alignment that joins the ends of a short read's stretch (mm_align1 with
// MM_F_SR), or, with --sr=rna, of a gap as long on the read as on the reference: one M
// run, each column a for a match and -b for a mismatch, and where either base is
// ambiguous +e2 as 2.24 scores it, -|sc_ambi| as 2.31 does
// (ReleaseRules::sr_ungapped_dp_fallback); the other fields as ksw_reset_extz leaves them.
DpResult ungapped_fill(const AlignOptions& opt, const uint8_t* q, const uint8_t* t, int32_t len) {
  DpResult ez;
  ez.max_q = ez.max_t = ez.mqe_t = ez.mte_q = -1;
  ez.max = 0;
  ez.mqe = ez.mte = kDpNegInf;
  ez.zdropped = false, ez.reach_end = false;
  const int32_t ambi = opt.rules().sr_ungapped_dp_fallback ? -std::abs(opt.sc_ambi) : opt.e2;
  int32_t score = 0;
  for (int32_t j = 0; j < len; ++j) {
    if (q[j] >= 4 || t[j] >= 4)
      score += ambi;
    else
      score += q[j] == t[j] ? opt.a : -opt.b;
  }
  ez.score = score;
  ez.cigar.push_back(cigar::make(static_cast<uint32_t>(len), cigar::kMatch));
  return ez;
}

// 2.31's mm_align1: the ungapped fill stands when it scores above the best a gapped
// alignment of len bases could, (len - 2) * a - 2 * (q + e); otherwise the gap is aligned
// by the DP.
bool ungapped_fill_stands(const AlignOptions& opt, const DpResult& ez, int32_t len) {
  if (!opt.rules().sr_ungapped_dp_fallback) return true;
  return ez.score > (len - 2) * opt.a - 2 * (opt.q + opt.e);
}

}  // namespace

void max_stretch(const Region& r, const Anchor* a, int32_t& as, int32_t& cnt) {
  as = r.as, cnt = r.cnt;
  if (r.cnt < 2) return;
  int32_t max_score = -1, max_i = -1, max_len = 0;
  int32_t score = aspan(a[r.as]), len = 1;
  int32_t i = r.as + 1;
  for (; i < r.as + r.cnt; ++i) {
    const int32_t q_span = aspan(a[i]);
    const int32_t lr = ax(a[i]) - ax(a[i - 1]), lq = ay(a[i]) - ay(a[i - 1]);
    if (lq == lr) {  // the same diagonal: the stretch goes on
      score += std::min(lq, q_span);
      ++len;
    } else {
      if (score > max_score) max_score = score, max_len = len, max_i = i - len;
      score = q_span, len = 1;
    }
  }
  if (score > max_score) max_score = score, max_len = len, max_i = i - len;
  as = max_i, cnt = max_len;
}

namespace {

// mm_align_pair: records the call and runs it (unless it exceeds max_sw_mat). With
// splicing the call is ksw_exts2's (no band; the end bonus from minimap2 2.31 on, with
// miniprot's splice model unless -J 0): `junc` holds the annotated intron ends of the
// target (empty without --junc-bed). Otherwise, with one gap piece (q == q2 and e == e2,
// e.g. -O4 -E2) it is ksw_extz2's, else ksw_extd2's.
// direct: ksw_exts2 as mm_align_sr_rna calls it, without mm_align_pair: no cell cap and
// no generic scoring (a transition scores as any mismatch).
const DpResult& align_pair(const AlignOptions& opt, DpSource& dp, RegionAlignment& out, const uint8_t* q, int32_t ql,
                           const uint8_t* t, int32_t tl, int32_t w, int32_t end_bonus, int32_t zdrop, uint32_t flag,
                           std::span<const uint8_t> junc = {}, bool direct = false) {
  RegionDpCall c;
  if (dp.record_sequences()) c.query.assign(q, q + ql), c.target.assign(t, t + tl);
  if (opt.splicing()) {
    flag |= dp_flag::kSplice;
    if (opt.splice_cmplx()) flag |= dp_flag::kSpliceCmplx;
    if (!opt.rules().exts2_end_bonus) end_bonus = 0;  // 2.24's ksw_exts2 takes none
  } else if (opt.q == opt.q2 && opt.e == opt.e2) {
    flag |= dp_flag::kSingleAffine;
  }
  c.flag = flag, c.w = w, c.zdrop = zdrop, c.end_bonus = end_bonus;
  // The release's mte_q: a property of the task's answer, not of minimap2's call.
  if (opt.rules().dp_mte_q_cell) flag |= dp_flag::kMteQCell;
  if (!direct && opt.max_sw_mat > 0 && static_cast<int64_t>(tl) * ql > opt.max_sw_mat) {
    c.result = reset_result();
  } else {
    DpTask task;
    task.query = std::span<const uint8_t>(q, static_cast<size_t>(ql));
    task.target = std::span<const uint8_t>(t, static_cast<size_t>(tl));
    task.scoring = opt.dp_scoring();
    if (direct) task.scoring.transition = 0;
    task.flag = flag, task.w = w, task.zdrop = zdrop, task.end_bonus = end_bonus;
    if (flag & dp_flag::kSplice) {
      task.noncan = opt.noncan, task.junc_bonus = opt.junc_bonus;
      task.junc = junc.subspan(0, std::min(junc.size(), static_cast<size_t>(tl)));
    }
    dp.compute(task, c.result);
  }
  if (!dp.record_calls()) {
    out.last = std::move(c);
    return out.last.result;
  }
  out.calls.push_back(std::move(c));
  return out.calls.back().result;
}

void append_cigar(std::vector<uint32_t>& dst, const std::vector<uint32_t>& src) {
  if (src.empty()) return;
  size_t k = 0;
  if (!dst.empty() && cigar::op(dst.back()) == cigar::op(src[0]))
    dst.back() += cigar::make(cigar::len(src[0]), 0), k = 1;
  dst.insert(dst.end(), src.begin() + static_cast<std::ptrdiff_t>(k), src.end());
}

}  // namespace

bool sr_rna_intron_target(const AlignOptions& opt, std::span<const uint8_t> q, std::span<const uint8_t> t,
                          std::span<const uint8_t> junc, std::vector<uint8_t>& t2, std::vector<uint8_t>& junc2) {
  const auto ql = static_cast<int32_t>(q.size()), tl = static_cast<int32_t>(t.size());
  const int32_t ilen = opt.q2 * 2;
  if (ql > kSrRnaMaxGap || ql * 2 + ilen > tl) return false;
  // Bases equal to the reference's at the same offset from the gap's start, and from its
  // end (counted over the whole gap, not as runs).
  int32_t ll = 0, lr = 0;
  for (int32_t i = 0; i < ql; ++i) {
    if (q[i] == t[i] && q[i] < 4) ++ll;
    if (q[ql - 1 - i] == t[tl - 1 - i] && q[ql - 1 - i] < 4) ++lr;
  }
  if (ql - (ll + lr) > 9) return false;
  t2.assign(t.begin(), t.begin() + ql);
  t2.insert(t2.end(), static_cast<size_t>(ilen), 4);
  t2.insert(t2.end(), t.end() - ql, t.end());
  junc2.clear();
  if (!junc.empty()) {
    junc2.assign(junc.begin(), junc.begin() + ql);
    junc2.insert(junc2.end(), static_cast<size_t>(ilen), 0);
    junc2.insert(junc2.end(), junc.end() - ql, junc.end());
  }
  return true;
}

bool sr_rna_intron_accept(DpResult& ez, int32_t tl, int32_t tl2) {
  if (ez.zdropped || ez.cigar.empty()) return false;
  if (cigar::op(ez.cigar.front()) != cigar::kMatch || cigar::op(ez.cigar.back()) != cigar::kMatch) return false;
  int nn = 0, n_ins = 0;
  for (uint32_t c : ez.cigar) nn += cigar::op(c) == cigar::kNSkip, n_ins += cigar::op(c) == cigar::kIns;
  if (nn != 1 || n_ins > 0) return false;
  for (uint32_t& c : ez.cigar)
    if (cigar::op(c) == cigar::kNSkip) c += cigar::make(static_cast<uint32_t>(tl - tl2), 0);
  return true;
}

namespace {

// mm_align_sr_rna: the one-intron shortcut for a gap fill of a short spliced read
// (sr_rna_intron_target, then the splice DP on the shortened target, then
// sr_rna_intron_accept). Returns the widened result, in `keep`, or nullptr when the
// shortcut does not apply and the gap is aligned as usual.
const DpResult* sr_rna_one_intron(const AlignOptions& opt, DpSource& dp, RegionAlignment& out, const uint8_t* q,
                                  int32_t ql, const uint8_t* t, int32_t tl, int32_t w, uint32_t flag,
                                  std::span<const uint8_t> junc, DpResult& keep) {
  std::vector<uint8_t> t2, junc2;
  if (!sr_rna_intron_target(opt, std::span<const uint8_t>(q, static_cast<size_t>(ql)),
                            std::span<const uint8_t>(t, static_cast<size_t>(tl)), junc, t2, junc2))
    return nullptr;
  const auto tl2 = static_cast<int32_t>(t2.size());
  keep = align_pair(opt, dp, out, q, ql, t2.data(), tl2, w, -1, opt.zdrop, flag, junc2, true);
  return sr_rna_intron_accept(keep, tl, tl2) ? &keep : nullptr;
}

// The second part of a region split by a Z-drop (mm_split_reg), and its split bits.
struct SplitOff {
  bool made = false;
  Region r2;
  uint8_t flags = 0;
};

// Which transcript strands a round of spliced alignment scores (mm_align1's splice_flag).
struct SpliceRound {
  bool for_strand = false, rev_strand = false;
};

// mm_align1 on r. inv_zdrop: r is the second part of a split at a possible inversion
// (its left extension takes zdrop_inv). A Z-drop that splits r leaves the new part in
// `split`.
RegionAlignment align_one(const AlignOptions& opt, const index::MinimizerIndex& idx, const ReadCodes& read, Region& r,
                          bool inv_zdrop, std::vector<Anchor>& av, DpSource& dp, const index::Junctions* junctions,
                          SpliceRound round, SplitOff& split) {
  RegionAlignment out;
  if (r.cnt == 0) return out;
  Anchor* a = av.data();
  const int32_t n_a = static_cast<int32_t>(av.size());
  const int32_t qlen = static_cast<int32_t>(read.size());
  const uint32_t rid = static_cast<uint32_t>(map::anchor_rid(a[r.as]));
  const bool rev = map::anchor_reverse(a[r.as]);
  // --qstrand: the read on its own strand against the reference's strand of the region
  // (its anchors and coordinates are on that strand; mm_align1 with MM_F_QSTRAND).
  const bool qstrand = opt.qstrand;
  const ReadCodes::Codes& qseq0 = read.strand(rev && !qstrand);
  const int32_t rlen = static_cast<int32_t>(idx.reference().seq(rid).len);
  const int bw = static_cast<int>(opt.bw * kDpBandScale + 1.);
  int bw_long = static_cast<int>(std::max(opt.bw_long, opt.bw) * kDpBandScale + 1.);
  if (bw_long < bw) bw_long = bw;

  int32_t as1 = r.as, cnt1 = r.cnt, rs, qs, re, qe;
  if (opt.sr) {  // the longest run of anchors on one diagonal, from its first k-mer's start
    if (idx.hpc()) throw Error("the sr preset aligns only with an index without homopolymer compression (-H)");
    max_stretch(r, a, as1, cnt1);
    rs = ax(a[as1]) + 1 - aspan(a[as1]);
    qs = ay(a[as1]) + 1 - aspan(a[as1]);
    re = ax(a[as1 + cnt1 - 1]) + 1;
    qe = ay(a[as1 + cnt1 - 1]) + 1;
  } else {
    if (!opt.no_end_flt) {  // trim weak anchors at the ends
      if (opt.splicing())
        fix_bad_ends_splice(opt, idx, read, r, a, as1, cnt1);
      else
        fix_bad_ends(r, a, opt.bw, opt.min_chain_score * 2, as1, cnt1);
    }
    filter_bad_seeds(as1, cnt1, a, kBadSeedMinGap, kBadSeedDiffThres, opt.max_gap >> 1, kBadSeedMaxExtCnt);
    filter_bad_seeds_alt(as1, cnt1, a, kBadSeedAltMinGap, opt.max_gap >> 1);
    adjust_minier(idx, read, a[as1], rs, qs);
    adjust_minier(idx, read, a[as1 + cnt1 - 1], re, qe);
  }

  // Splice motifs scored by the DP: the round's transcript strand, as seen on the
  // reference (the other way round for a read on the reverse strand).
  uint32_t extra = 0;
  if (opt.splicing()) {
    if (round.for_strand) extra |= rev ? dp_flag::kSpliceRev : dp_flag::kSpliceFor;
    if (round.rev_strand) extra |= rev ? dp_flag::kSpliceFor : dp_flag::kSpliceRev;
    if (opt.splice_flank) extra |= dp_flag::kSpliceFlank;
  }

  const ExtensionBounds ext = opt.sr ? extension_bounds_sr(opt, qlen, rlen, rs, qs, re, qe)
                                     : extension_bounds(opt, a, n_a, r, qlen, rlen, rs, qs, re, qe);
  int32_t rs0 = ext.rs0, qs0 = ext.qs0, re0 = ext.re0, qe0 = ext.qe0;
  // A chain of a read against itself, off the diagonal (an all-vs-all self hit,
  // anchor_bit::kSelf): each extension reaches no further than the chain's distance from
  // the diagonal at that end, so that it does not run onto the diagonal (mm_align1).
  if (a[r.as].y & ab::kSelf) {
    int32_t max_ext = std::abs(r.qs - r.rs);
    rs0 = std::max(rs0, r.rs - max_ext), qs0 = std::max(qs0, r.qs - max_ext);
    max_ext = std::abs(r.qe - r.re);
    re0 = std::min(re0, r.re + max_ext), qe0 = std::min(qe0, r.qe + max_ext);
  }
  int32_t rs1, qs1, re1, qe1;

  // One target buffer for the region, as mm_align1 has: each fetch overwrites its start.
  std::vector<uint8_t> tseq(static_cast<size_t>(std::max(0, re0 - rs0)) + 1, 0), qrev;
  auto fetch = [&](int32_t st, int32_t en) {
    fetch_strand(idx.reference(), rid, qstrand && rev, st, en, tseq.data());
  };
  // The annotated intron ends of [st, en) (mm_idx_bed_junc), reversed for the left
  // extension; empty without annotation.
  std::vector<uint8_t> jbuf;
  auto junc = [&](int32_t st, int32_t en, bool reverse) -> std::span<const uint8_t> {
    if (!junctions || junctions->empty() || en <= st) return {};
    jbuf.assign(static_cast<size_t>(en - st), 0);
    junctions->mark(rid, st, en, jbuf);
    if (reverse) std::reverse(jbuf.begin(), jbuf.end());
    return jbuf;
  };
  using namespace dp_flag;
  if (qs > 0 && rs > 0) {  // left extension
    qrev.assign(qseq0.begin() + qs0, qseq0.begin() + qs);
    std::reverse(qrev.begin(), qrev.end());
    fetch(rs0, rs);
    std::reverse(tseq.begin(), tseq.begin() + (rs - rs0));
    const DpResult& ez =
        align_pair(opt, dp, out, qrev.data(), qs - qs0, tseq.data(), rs - rs0, bw, opt.end_bonus,
                   inv_zdrop ? opt.zdrop_inv : opt.zdrop, extra | kExtzOnly | kRight | kRevCigar, junc(rs0, rs, true));
    if (!ez.cigar.empty()) append_cigar(out.cigar, ez.cigar), out.dp_score += ez.max;
    rs1 = rs - (ez.reach_end ? ez.mqe_t + 1 : ez.max_t + 1);
    qs1 = qs - (ez.reach_end ? qs - qs0 : ez.max_q + 1);
  } else {
    rs1 = rs, qs1 = qs;
  }
  re1 = rs, qe1 = qs;

  bool dropped = false;
  DpResult ungapped;
  // --sr=rna with splicing (mm_align1's is_sr_rna): ungapped fills of gaps as long on
  // both sequences, the one-intron shortcut for the others.
  const bool sr_rna = opt.sr_rna && opt.splicing();
  // Gap filling between consecutive kept anchors; with sr one fill over the whole
  // stretch, ungapped (the stretch lies on one diagonal), unless it Z-drops.
  for (int32_t i = opt.sr ? cnt1 - 1 : 1; i < cnt1; ++i) {
    if ((a[as1 + i].y & (ab::kIgnore | ab::kTandem)) && i != cnt1 - 1) continue;
    if (opt.sr)
      re = ax(a[as1 + i]) + 1, qe = ay(a[as1 + i]) + 1;
    else
      adjust_minier(idx, read, a[as1 + i], re, qe);
    re1 = re, qe1 = qe;
    const bool long_join = (a[as1 + i].y & ab::kLongJoin) != 0;
    if (i == cnt1 - 1 || long_join || (qe - qs >= opt.min_ksw_len && re - rs >= opt.min_ksw_len)) {
      const int bw1 = long_join ? std::max(qe - qs, re - rs) : bw_long;
      const uint8_t* qp = qseq0.data() + qs;
      fetch(rs, re);
      const size_t provisional = dp.provisional_count();
      const std::span<const uint8_t> jn = junc(rs, re, false);
      const DpResult* ez = nullptr;
      if (opt.sr || (sr_rna && qe - qs == re - rs)) {
        if (qe - qs != re - rs) throw Error("sr alignment: a stretch of anchors off its diagonal");
        ungapped = ungapped_fill(opt, qp, tseq.data(), qe - qs);
        if (ungapped_fill_stands(opt, ungapped, qe - qs))
          ez = &ungapped;
        else
          ez = &align_pair(opt, dp, out, qp, qe - qs, tseq.data(), re - rs, bw1, -1, opt.zdrop, extra | kApproxMax, jn);
      } else {
        if (sr_rna)
          ez = sr_rna_one_intron(opt, dp, out, qp, qe - qs, tseq.data(), re - rs, bw1, extra | kApproxMax, jn, ungapped);
        if (ez == nullptr)
          ez = &align_pair(opt, dp, out, qp, qe - qs, tseq.data(), re - rs, bw1, -1, opt.zdrop, extra | kApproxMax, jn);
      }
      const int zdrop_code = dp.provisional_count() != provisional ? 0 : test_zdrop(opt, qp, tseq.data(), ez->cigar);
      if (zdrop_code != 0)
        ez = &align_pair(opt, dp, out, qp, qe - qs, tseq.data(), re - rs, bw1, -1,
                         zdrop_code == 2 ? opt.zdrop_inv : opt.zdrop, extra, jn);
      if (!ez->cigar.empty()) append_cigar(out.cigar, ez->cigar);
      if (ez->zdropped) {
        int32_t j;
        for (j = i - 1; j >= 0; --j)
          if (ax(a[as1 + j]) <= rs + ez->max_t) break;
        dropped = true;
        out.zdrop_code = zdrop_code;
        if (j < 0) j = 0;
        out.dp_score += ez->max;
        re1 = rs + (ez->max_t + 1);
        qe1 = qs + (ez->max_q + 1);
        if (cnt1 - (j + 1) >= opt.min_cnt) {  // split the region after anchor j
          const int32_t n = as1 + j + 1 - r.as;
          if (n > 0 && n < r.cnt) {
            split.made = true;
            split.r2 = map::split_region(r, n, qlen, a, qstrand);
            split.flags = static_cast<uint8_t>(kSplitSecond | (zdrop_code == 2 ? kSplitInv : 0));
          }
        }
        break;
      }
      out.dp_score += ez->score;
      rs = re, qs = qe;
    }
  }

  if (!dropped && qe < qe0 && re < re0) {  // right extension
    fetch(re, re0);
    const DpResult& ez = align_pair(opt, dp, out, qseq0.data() + qe, qe0 - qe, tseq.data(), re0 - re, bw, opt.end_bonus,
                                    opt.zdrop, extra | kExtzOnly, junc(re, re0, false));
    if (!ez.cigar.empty()) append_cigar(out.cigar, ez.cigar), out.dp_score += ez.max;
    re1 = re + (ez.reach_end ? ez.mqe_t + 1 : ez.max_t + 1);
    qe1 = qe + (ez.reach_end ? qe0 - qe : ez.max_q + 1);
  }
  out.dropped = dropped;
  AlignedSpan span;
  span.rs = rs1, span.re = re1, span.rev = rev;
  if (!rev || qstrand)
    span.qs = qs1, span.qe = qe1;
  else
    span.qs = qlen - qe1, span.qe = qlen - qs1;
  if (!out.cigar.empty()) {  // mm_update_extra: may drop a leading I/D and move the start
    fetch(rs1, re1);
    // After a provisional answer the pass is discarded: its statistics would never be read
    // (what the pass asks next depends on the coordinates, which are fixed as usual).
    out.stats = update_extra(
        span, out.cigar, std::span<const uint8_t>(qseq0.data() + qs1, static_cast<size_t>(qe1 - qs1)),
        std::span<const uint8_t>(tseq.data(), static_cast<size_t>(re1 - rs1)),
        StatsScoring{opt.dp_scoring(), !(opt.sr || sr_rna)}, dp.provisional_count() == 0);
  }
  out.qs = span.qs, out.qe = span.qe, out.rs = span.rs, out.re = span.re;
  return out;
}

}  // namespace

RegionAlignment align_region(const AlignOptions& opt, const index::MinimizerIndex& idx, const ReadCodes& read,
                             std::vector<Region>& regs, std::vector<uint8_t>& split_inv, size_t ri,
                             std::vector<Anchor>& av, DpSource& dp, const index::Junctions* junctions) {
  const bool inv_zdrop = (split_inv[ri] & kSplitInv) != 0;
  RegionAlignment out;
  SplitOff part;
  if (opt.splicing() && opt.splice_for && opt.splice_rev) {
    // mm_align_skeleton: both transcript strands, each from the unaligned region; the
    // higher DP score wins, a tie is broken by the parity of qlen + score.
    Region s[2] = {regs[ri], regs[ri]};
    SplitOff p[2];
    RegionAlignment al[2];
    al[0] = align_one(opt, idx, read, s[0], inv_zdrop, av, dp, junctions, {true, false}, p[0]);
    const int32_t qlen = static_cast<int32_t>(read.size());
    // --sr=rna (2.31): a region whose chain and first alignment are ungapped and the
    // alignment covers the whole read has no intron to orient: the first strand is kept,
    // with no transcript strand, and the second is not tried.
    const Region& c = regs[ri];
    const RegionAlignment& f = al[0];
    const bool first_only = opt.sr_rna && c.qe - c.qs == c.re - c.rs && f.qe - f.qs == f.re - f.rs && f.qs == 0 &&
                            f.qe == qlen;
    if (!first_only) al[1] = align_one(opt, idx, read, s[1], inv_zdrop, av, dp, junctions, {false, true}, p[1]);
    int which;
    uint8_t ts;
    if (first_only)
      which = 0, ts = 0;
    else if (al[0].dp_score > al[1].dp_score)
      which = 0, ts = 1;
    else if (al[0].dp_score < al[1].dp_score)
      which = 1, ts = 2;
    else
      ts = 3, which = (qlen + al[0].dp_score) & 1;
    regs[ri] = std::move(s[which]);
    part = std::move(p[which]);
    out = std::move(al[which]);
    out.trans_strand = ts;
    // 2.31: a spliced alignment (mm_update_extra's is_spliced: an N in its CIGAR) whose
    // strand won gains (a+b) + (a+b)/2, an approximate credit for its splice signals; one
    // whose strands tied loses a+b. Not a region kept on its first strand (ts 0).
    if (opt.rules().splice_strand_dp_max_adjust && ts != 0 &&
        std::any_of(out.cigar.begin(), out.cigar.end(), [](uint32_t c) { return cigar::op(c) == cigar::kNSkip; })) {
      const int32_t ab = opt.a + opt.b;
      out.dp_max_adjust = ts == 3 ? -ab : ab + (ab >> 1);
    }
    std::vector<RegionDpCall>& other = al[1 - which].calls;  // every call made, in order
    out.calls.insert(which == 0 ? out.calls.end() : out.calls.begin(), std::make_move_iterator(other.begin()),
                     std::make_move_iterator(other.end()));
  } else {
    out = align_one(opt, idx, read, regs[ri], inv_zdrop, av, dp, junctions, {opt.splice_for, opt.splice_rev}, part);
    if (opt.splicing() && regs[ri].cnt > 0) out.trans_strand = opt.splice_for ? 1 : 2;
  }
  if (part.made) {
    split_inv[ri] |= kSplitFirst;
    regs.insert(regs.begin() + static_cast<std::ptrdiff_t>(ri) + 1, std::move(part.r2));
    split_inv.insert(split_inv.begin() + static_cast<std::ptrdiff_t>(ri) + 1, part.flags);
  }
  return out;
}

namespace {

// mm_align1_inv: the inverted stretch between split parts r1 (first) and r2.
bool align_inversion(const AlignOptions& opt, const index::MinimizerIndex& idx, const ReadCodes& read, const Region& r1,
                     uint8_t f1, const Region& r2, uint8_t f2, DpSource& dp, Region& r_inv, RegionAlignment& out) {
  if (!(f1 & kSplitFirst) || !(f2 & kSplitSecond)) return false;
  if (r1.id != r1.parent && r1.parent != map::kParentTmpPri) return false;
  if (r2.id != r2.parent && r2.parent != map::kParentTmpPri) return false;
  if (r1.rid != r2.rid || r1.rev != r2.rev) return false;
  const int32_t qlen = static_cast<int32_t>(read.size());
  const int ql = r1.rev ? r1.qs - r2.qe : r2.qs - r1.qe;
  const int tl = r2.rs - r1.re;
  if (ql < opt.min_chain_score || ql > opt.max_gap) return false;
  if (tl < opt.min_chain_score || tl > opt.max_gap) return false;
  std::vector<uint8_t> tseq(static_cast<size_t>(tl));
  idx.reference().fetch(static_cast<uint32_t>(r1.rid), static_cast<uint32_t>(r1.re), static_cast<uint32_t>(r2.rs),
                        tseq.data());
  const uint8_t* q0 = r1.rev ? read.strand(false).data() + r2.qe : read.strand(true).data() + (qlen - r2.qs);
  std::vector<uint8_t> qrev(q0, q0 + ql), trev(tseq);
  std::reverse(qrev.begin(), qrev.end());
  std::reverse(trev.begin(), trev.end());
  int q_off = -1, t_off = -1;
  const int score = ll_i16(qrev.data(), ql, trev.data(), tl, opt, q_off, t_off);
  if (score < opt.min_dp_max) return false;
  q_off = ql - (q_off + 1), t_off = tl - (t_off + 1);
  // ll_i16 may report a query end in the padding (2.24's zero-score padding), making
  // q_off negative: minimap2 then starts that many bases before the stretch, in the same
  // read buffer — reproduced while it stays inside the read. A negative t_off would read
  // before a scratch buffer in minimap2: not reproducible, given up.
  const int q0_off = r1.rev ? r2.qe : qlen - r2.qs;  // of q0 in its read buffer
  if (q0_off + q_off < 0 || t_off < 0) return false;
  const DpResult& ez = align_pair(opt, dp, out, q0 + q_off, ql - q_off, tseq.data() + t_off, tl - t_off,
                                  static_cast<int>(opt.bw * kDpBandScale), -1, opt.zdrop, dp_flag::kExtzOnly);
  if (ez.cigar.empty()) return false;
  out.cigar = ez.cigar;
  out.dp_score = ez.max;
  r_inv = Region();
  r_inv.id = -1;
  r_inv.parent = map::kParentUnset;
  r_inv.inv = true;
  r_inv.rev = !r1.rev;
  r_inv.rid = r1.rid;
  r_inv.div = -1.0f;
  if (!r_inv.rev) {
    r_inv.qs = r2.qe + q_off;
    r_inv.qe = r_inv.qs + ez.max_q + 1;
  } else {
    r_inv.qe = r2.qs - q_off;
    r_inv.qs = r_inv.qe - (ez.max_q + 1);
  }
  r_inv.rs = r1.re + t_off;
  r_inv.re = r_inv.rs + ez.max_t + 1;
  AlignedSpan span{r_inv.qs, r_inv.qe, r_inv.rs, r_inv.re, r_inv.rev};
  out.stats = update_extra(span, out.cigar, std::span<const uint8_t>(q0 + q_off, static_cast<size_t>(ez.max_q + 1)),
                           std::span<const uint8_t>(tseq.data() + t_off, static_cast<size_t>(ez.max_t + 1)),
                           StatsScoring{opt.dp_scoring(), !(opt.sr || opt.sr_rna)});
  r_inv.qs = span.qs, r_inv.qe = span.qe, r_inv.rs = span.rs, r_inv.re = span.re;
  r_inv.aligned = true;
  out.qs = span.qs, out.qe = span.qe, out.rs = span.rs, out.re = span.re;
  return true;
}

// The end of mm_align1: the region takes the aligned coordinates and, when there is a
// CIGAR, the alignment and its statistics.
void attach_alignment(Region& r, const RegionAlignment& al) {
  r.qs = al.qs, r.qe = al.qe, r.rs = al.rs, r.re = al.re;
  // A Z-dropped gap fill gives the region an alignment record even without a CIGAR (its
  // zero statistics then fail mm_filter_regs); otherwise no CIGAR means no alignment.
  if (al.cigar.empty() && !al.dropped) return;
  r.aligned = true;
  r.cigar = al.cigar;
  r.mlen = al.stats.mlen, r.blen = al.stats.blen;
  r.n_ambi = al.stats.n_ambi;
  r.n_gap = al.stats.n_gap, r.n_gapo = al.stats.n_gapo;
  // dp_max0: before mm_align_skeleton's splice-strand adjustment and mm_update_dp_max.
  r.dp_max0 = al.stats.dp_max;
  r.dp_max = al.stats.dp_max + al.dp_max_adjust;
  r.dp_score = al.dp_score;
  r.trans_strand = al.trans_strand;
}

}  // namespace

namespace {

// align_regions' loop over regs (with split, one entry per region), from its first
// region: each region in order, the parts a split inserts after it, and the inversion
// between split parts. A region's alignment reads and writes only its own anchors and
// its own parts, so the loop over a part of the regions gives, for them, what the loop
// over all gives.
void align_in_order(const AlignOptions& opt, const index::MinimizerIndex& idx, const ReadCodes& read,
                    std::vector<Region>& regs, std::vector<uint8_t>& split, std::vector<Anchor>& a, DpSource& dp,
                    const index::Junctions* junctions, std::vector<RegionAlignment>& out) {
  for (size_t i = 0; i < regs.size(); ++i) {
    out.push_back(align_region(opt, idx, read, regs, split, i, a, dp, junctions));
    if (regs[i].cnt > 0) attach_alignment(regs[i], out.back());
    if (i > 0 && (split[i] & kSplitInv) && !opt.no_inv) {  // no inversions with --qstrand (MM_F_NO_INV)
      Region r_inv;
      RegionAlignment inv;
      if (align_inversion(opt, idx, read, regs[i - 1], split[i - 1], regs[i], split[i], dp, r_inv, inv)) {
        attach_alignment(r_inv, inv);
        regs.insert(regs.begin() + static_cast<std::ptrdiff_t>(i) + 1, r_inv);
        split.insert(split.begin() + static_cast<std::ptrdiff_t>(i) + 1, 0);
        out.push_back(std::move(inv));
        ++i;
      } else if (!inv.calls.empty()) {
        out.push_back(std::move(inv));  // the call was made; no region came of it
      }
    }
  }
}

// A thread's view of a source that takes calls from several threads: its own count of
// provisional answers, which the Z-drop test of each gap fill compares before and after
// its call (align_one).
class ThreadView final : public DpSource {
 public:
  explicit ThreadView(DpSource& shared) : shared_(shared) {}
  void compute(const DpTask& task, DpResult& result) override { provisional_ += shared_.compute_counted(task, result); }
  bool record_sequences() const override { return shared_.record_sequences(); }
  bool record_calls() const override { return shared_.record_calls(); }
  size_t provisional_count() const override { return provisional_; }

 private:
  DpSource& shared_;
  size_t provisional_ = 0;
};

}  // namespace

namespace {

// align_regions over the squeezed anchors `a` (squeeze_anchors), which it flags.
std::vector<RegionAlignment> align_regions_of(const AlignOptions& opt, const index::MinimizerIndex& idx,
                                              const ReadCodes& read, std::vector<Region>& regs,
                                              std::vector<Anchor>& a, DpSource& dp,
                                              const index::Junctions* junctions, int threads) {
  std::vector<RegionAlignment> out;
  if (threads <= 1 || regs.size() <= 1 || !dp.concurrent()) {
    std::vector<uint8_t> split(regs.size(), 0);
    align_in_order(opt, idx, read, regs, split, a, dp, junctions, out);
    for (size_t i = 0; i < regs.size(); ++i) regs[i].split = split[i] & (kSplitFirst | kSplitSecond);
    return out;
  }
  // Regions side by side, the longest first; each region's parts and alignments are
  // then put back in the regions' order, which is the order of the loop over all.
  struct Group {
    std::vector<Region> regs;
    std::vector<uint8_t> split;
    std::vector<RegionAlignment> out;
  };
  std::vector<Group> groups(regs.size());
  std::vector<size_t> order(regs.size());
  for (size_t g = 0; g < regs.size(); ++g) order[g] = g;
  std::stable_sort(order.begin(), order.end(), [&](size_t u, size_t v) { return regs[u].cnt > regs[v].cnt; });
  util::parallel_for(order.size(), threads, [&](size_t k, int) {
    Group& g = groups[order[k]];
    g.regs = {regs[order[k]]};
    g.split = {0};
    ThreadView view(dp);
    align_in_order(opt, idx, read, g.regs, g.split, a, view, junctions, g.out);
  });
  regs.clear();
  for (Group& g : groups) {
    for (size_t i = 0; i < g.regs.size(); ++i) {
      g.regs[i].split = g.split[i] & (kSplitFirst | kSplitSecond);
      regs.push_back(std::move(g.regs[i]));
    }
    for (RegionAlignment& r : g.out) out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

std::vector<RegionAlignment> align_regions(const AlignOptions& opt, const index::MinimizerIndex& idx,
                                           const ReadCodes& read, std::vector<Region>& regs,
                                           const std::vector<Anchor>& chained, DpSource& dp,
                                           const index::Junctions* junctions, int threads) {
  std::vector<Anchor> a = squeeze_anchors(regs, chained);
  return align_regions_of(opt, idx, read, regs, a, dp, junctions, threads);
}

std::vector<RegionAlignment> align_regions(const AlignOptions& opt, const index::MinimizerIndex& idx,
                                           const ReadCodes& read, std::vector<Region>& regs,
                                           const std::vector<Anchor>& chained, DpBackend& dp,
                                           const index::Junctions* junctions) {
  BackendDpSource source(dp);
  return align_regions(opt, idx, read, regs, chained, source, junctions);
}

namespace {

// A source as another, whose calls the regions do not record (record_calls).
class Unrecorded final : public DpSource {
 public:
  explicit Unrecorded(DpSource& dp) : dp_(dp) {}
  void compute(const DpTask& task, DpResult& result) override { dp_.compute(task, result); }
  bool compute_counted(const DpTask& task, DpResult& result) override { return dp_.compute_counted(task, result); }
  bool record_sequences() const override { return false; }
  bool record_calls() const override { return false; }
  size_t provisional_count() const override { return dp_.provisional_count(); }
  bool concurrent() const override { return dp_.concurrent(); }

 private:
  DpSource& dp_;
};

}  // namespace

void align_skeleton(const AlignOptions& opt, const index::MinimizerIndex& idx, const ReadCodes& read,
                    std::vector<Region>& regs, RegionAnchors& anchors, DpSource& dp,
                    const index::Junctions* junctions, int threads) {
  Unrecorded unrecorded(dp);
  (void)align_regions_of(opt, idx, read, regs, anchors.for_pass(), unrecorded, junctions, threads);
  // A pass on provisional answers is discarded (dp_rounds.hpp), and its regions have no
  // statistics (align_one): the clean-up is left to the pass on real answers.
  if (dp.provisional_count() > 0) return;
  const int qlen = static_cast<int>(read.size());
  map::filter_regions(opt, qlen, regs);
  // Not with sr or --sr=rna; with --split-prefix, at the merge; 2.31 not with the
  // all-chains (ava) presets either.
  const bool skip_all_chains = opt.all_chains && opt.rules().all_chains_skip_dp_max_update;
  if (!opt.sr && !opt.sr_rna && !skip_all_chains && opt.split_prefix.empty() && qlen >= opt.rank_min_len) {
    map::update_dp_max(qlen, regs, opt.rank_frac, opt.a, opt.b);
    map::filter_regions(opt, qlen, regs);
  }
  map::hit_sort(regs, opt.alt_drop);
}

SharedInlineDpSource::SharedInlineDpSource(DpBackend& dp) : dp_(dp), workers_(dp.inline_workers()) {
  if (dp.inline_workers() <= 0) throw Error("internal: the DP backend computes no single tasks");
}

bool SharedInlineDpSource::compute_counted(const DpTask& task, DpResult& result) {
  const util::WorkerPool::Lease lease(workers_);
  dp_.compute_inline(lease.worker(), task, result);
  calls_.fetch_add(1, std::memory_order_relaxed);
  return false;
}

void BackendDpSource::compute(const DpTask& task, DpResult& result) {
  dp_.run(std::span<const DpTask>(&task, 1), std::span<DpResult>(&result, 1));
}

}  // namespace agatha::align
