// src/align/region_align.hpp — the DP skeleton of one region, as minimap2 2.24's
// mm_align1 runs it (align.c) for the long-read
// (non-splice, non-sr) presets: end trimming (mm_fix_bad_ends), mm_filter_bad_seeds and
// mm_filter_bad_seeds_alt, anchor -> DP boundary (mm_adjust_minier, HPC too), extension
// limits, then the DP calls in minimap2's order — left extension, gap fills (APPROX_MAX
// pass, mm_test_zdrop, exact second pass), right extension — each asked of a DpSource
// as soon as the previous result is known. A Z-drop in a gap fill splits the region
// (mm_split_reg); the new part is inserted after it and aligned next, as align_regs does.
//
// With splicing (AlignOptions::splicing), as mm_align1 runs then: mm_fix_bad_ends_splice
// instead of mm_fix_bad_ends, every DP call a ksw_exts2 task with the round's splice
// motif flags and the annotated introns of its target (--junc-bed), no inversion test;
// with -ub both transcript strands are aligned and the better kept (mm_align_skeleton).
//
// With sr (AlignOptions::sr), as mm_align1 runs then: the region is cut to its longest
// stretch of anchors on one diagonal (mm_max_stretch); the left and right extensions may
// reach the read's ends (their reference side bounded with the end bonus); between them
// one ungapped alignment over the stretch, replaced by a DP fill when mm_test_zdrop
// finds a Z-drop in it (no inversion test) or, in 2.31 (ReleaseRules::
// sr_ungapped_dp_fallback), when it scores no more than a gapped alignment could; the
// statistics count each gap q + e; no
// mm_update_dp_max. The index must not be homopolymer-compressed (an error).
//
// With --sr=rna and splicing (2.31's splice:sr; mm_align1's is_sr_rna): a gap between
// anchors as long on the read as on the reference is filled ungapped as with sr (the DP
// instead when that scores too low), other gaps of at most 100 read bases first try the
// one-intron shortcut (sr_rna_intron_target / _accept); statistics without the log gap
// term; mm_align_skeleton keeps the first transcript strand of a region whose chain and
// alignment are ungapped over the whole read (no ts:A), and skips mm_update_dp_max.
//
// Not done here (yet): -D self-mapping diagonal caps, and 2.24's
// out-of-buffer read when ksw_ll_i16 reports an end in the query padding
// (mm_align1_inv; see align_inversion in region_align.cpp).
//
// Threading: the functions are pure apart from the backend they drive.
#pragma once

#include <agatha/dp.hpp>
#include <agatha/options.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../index/index.hpp"
#include "../index/junctions.hpp"
#include "../map/anchor.hpp"
#include "../map/hit.hpp"
#include "../util/uninit_vector.hpp"
#include "../util/worker_pool.hpp"
#include "cigar_fix.hpp"

namespace agatha::align {

// Where the region code gets its DP answers from. compute() must fill `result` as the
// DP engine would for `task`; the task's sequences live only during the call. A source
// may also answer provisionally (see dp_rounds.hpp): the region code then goes on with a
// result that is discarded later, so it must never fail on any well-formed answer.
class DpSource {
 public:
  virtual ~DpSource() = default;
  virtual void compute(const DpTask& task, DpResult& result) = 0;
  // Whether RegionDpCall keeps copies of the sequences (for tests and traces).
  virtual bool record_sequences() const { return true; }
  // Whether RegionAlignment::calls keeps every call made (for tests and traces); if not,
  // only the latest call is kept, for the caller that reads its answer (align_skeleton's
  // callers read the regions only: on a chromosome-length query the calls would hold a
  // copy of every answer).
  virtual bool record_calls() const { return true; }
  // How many answers so far were provisional (the pass will be discarded); work that only
  // serves the final answer, such as the Z-drop test of a provisional first pass, is
  // skipped after one.
  virtual size_t provisional_count() const { return 0; }
  // Whether compute_counted may be called from several threads at once (a read's regions
  // are then aligned side by side, each thread counting its own provisional answers).
  virtual bool concurrent() const { return false; }
  // compute(), returning whether the answer was provisional.
  virtual bool compute_counted(const DpTask& task, DpResult& result) {
    const size_t before = provisional_count();
    compute(task, result);
    return provisional_count() != before;
  }
};

// Runs every call at once on a backend (one task per batch).
class BackendDpSource final : public DpSource {
 public:
  explicit BackendDpSource(DpBackend& dp) : dp_(dp) {}
  void compute(const DpTask& task, DpResult& result) override;

 private:
  DpBackend& dp_;
};

// Computes every call at once, through a backend's compute_inline, from up to
// inline_workers() threads at once (a read's regions aligned side by side: align_regions
// with threads): each call borrows a free worker number for its duration, and waits for
// one when more threads than numbers call at once.
class SharedInlineDpSource final : public DpSource {
 public:
  explicit SharedInlineDpSource(DpBackend& dp);
  void compute(const DpTask& task, DpResult& result) override { (void)compute_counted(task, result); }
  bool compute_counted(const DpTask& task, DpResult& result) override;
  bool concurrent() const override { return true; }
  bool record_sequences() const override { return false; }
  uint64_t calls() const { return calls_.load(std::memory_order_relaxed); }

 private:
  DpBackend& dp_;
  util::WorkerPool workers_;
  std::atomic<uint64_t> calls_{0};
};

// Computes every call at once on the calling thread, through a backend's
// compute_inline as worker `worker` (see DpBackend::inline_workers).
class InlineDpSource final : public DpSource {
 public:
  InlineDpSource(DpBackend& dp, int worker) : dp_(dp), worker_(worker) {}
  void compute(const DpTask& task, DpResult& result) override {
    dp_.compute_inline(worker_, task, result);
    ++calls_;
  }
  bool record_sequences() const override { return false; }
  uint64_t calls() const { return calls_; }

 private:
  DpBackend& dp_;
  int worker_;
  uint64_t calls_ = 0;
};

// One ksw_extd2 call, as mm_align_pair makes it, and what it returned. A call over more
// than max_sw_mat cells is recorded but not run (result: reset and Z-dropped).
struct RegionDpCall {
  std::vector<uint8_t> query, target;  // codes 0..4, in the order handed to the DP (if recorded)
  uint32_t flag = 0;
  int32_t w = 0, zdrop = 0, end_bonus = 0;
  DpResult result;
};

struct RegionAlignment {
  std::vector<RegionDpCall> calls;         // every call made, in order (DpSource::record_calls)
  RegionDpCall last;                       // the latest call, where calls are not recorded
  std::vector<uint32_t> cigar;             // appended pieces, before mm_fix_cigar
  int32_t qs = 0, qe = 0, rs = 0, re = 0;  // final coordinates; qs/qe on the forward read
  int32_t dp_score = 0;                    // minimap2's p->dp_score
  bool dropped = false;                    // a gap fill was Z-dropped
  int zdrop_code = 0;                      // mm_test_zdrop code of the dropped gap fill
  uint8_t trans_strand = 0;                // spliced: map::Region::trans_strand
  AlignmentStats stats;                    // of the fixed CIGAR (mm_update_extra)
  // mm_align_skeleton (2.31, both transcript strands tried): what the chosen strand adds
  // to a spliced region's dp_max; the region's dp_max is stats.dp_max plus this, and
  // stats.dp_max stays mm_update_extra's value (2.31's dp_max0).
  int32_t dp_max_adjust = 0;
};

// The read's codes on each strand (mm_align_skeleton's qseq0[0] forward, qseq0[1] the
// reverse complement). A strand is encoded the first time any thread asks for it, a
// chromosome-length read's in pieces on up to `threads` threads: a query aligned on one
// strand only (most contigs of an assembly against a close genome) holds one byte a
// base, not two.
class ReadCodes {
 public:
  using Codes = util::UninitVector<uint8_t>;
  // The codes of `seq`, which must outlive them (its strands are read from it when first
  // asked for).
  explicit ReadCodes(std::string_view seq, int threads = 1);
  // The codes of `seq`, held by the codes.
  explicit ReadCodes(std::string&& seq, int threads = 1);
  size_t size() const { return lazy_->seq.size(); }
  // The read (reverse = false) or its reverse complement; built on the first call.
  const Codes& strand(bool reverse) const;
  // Whether strand(reverse) has been built (by any thread).
  bool built(bool reverse) const {
    return lazy_->ready[reverse != lazy_->flipped ? 1 : 0].load(std::memory_order_acquire);
  }
  // From now on the read is the reverse complement of the sequence the codes were made
  // of (a segment aligned reverse-complemented, back on its own strand).
  void flip() { lazy_->flipped = !lazy_->flipped; }

 private:
  struct Lazy {
    std::string owned;
    std::string_view seq;
    int threads = 1;
    bool flipped = false;
    std::once_flag once[2];
    std::atomic<bool> ready[2] = {false, false};
    Codes codes[2];  // of seq: [0] forward, [1] reverse complement
  };
  std::unique_ptr<Lazy> lazy_;  // (a unique_ptr: std::once_flag does not move)
};

// mm_squeeze_a: keeps only the anchors the regions refer to, in array order, and
// rewrites their `as`.
[[nodiscard]] std::vector<map::Anchor> squeeze_anchors(std::vector<map::Region>& regs,
                                                       const std::vector<map::Anchor>& a);

// mm_fix_bad_ends: the trimmed anchor range [as, as + cnt) of r.
void fix_bad_ends(const map::Region& r, const map::Anchor* a, int bw, int min_match, int32_t& as, int32_t& cnt);
// mm_fix_bad_ends_splice: the anchor range of r without a terminal anchor whose local
// alignment (mm_seed_ext_score) is too weak for the gap to its neighbour.
void fix_bad_ends_splice(const AlignOptions& opt, const index::MinimizerIndex& idx, const ReadCodes& read,
                         const map::Region& r, const map::Anchor* a, int32_t& as, int32_t& cnt);
// mm_max_stretch: the anchor range [as, as + cnt) of r's highest-scoring run of
// consecutive anchors on one diagonal (score: the bases its k-mers cover).
void max_stretch(const map::Region& r, const map::Anchor* a, int32_t& as, int32_t& cnt);
// mm_filter_bad_seeds / mm_filter_bad_seeds_alt: flag anchors IGNORE / LONG_JOIN.
void filter_bad_seeds(int as1, int cnt1, map::Anchor* a, int min_gap, int diff_thres, int max_ext_len, int max_ext_cnt);
void filter_bad_seeds_alt(int as1, int cnt1, map::Anchor* a, int min_gap, int max_ext);

// mm_test_zdrop: 0, 1 (Z-drop) or 2 (possible inversion: the dropped stretch aligns as a
// local alignment to the reverse complement, ksw_ll_i16, well enough to be a region).
[[nodiscard]] int test_zdrop(const AlignOptions& opt, const uint8_t* qseq, const uint8_t* tseq,
                             const std::vector<uint32_t>& cigar);

// mm_align_sr_rna (2.31, --sr=rna), the one-intron shortcut for a gap fill of at most
// kSrRnaMaxGap read bases q against reference bases t (junc: t's annotated intron ends,
// empty for none): when t is at least 2|q| + 2*q2 long and all but at most 9 of q's bases
// equal the reference's at the same offset from the gap's start or from its end,
// sr_rna_intron_target builds the shortened target t2 = t's first |q| bases, 2*q2 N
// bases, t's last |q| bases (junc2 likewise, zeros in the middle) and returns true; the
// splice DP (APPROX_MAX, no end bonus) then aligns q to t2, and sr_rna_intron_accept
// takes its result when it was not Z-dropped, begins and ends with M and has exactly one
// N and no I, widening that N by |t| - |t2| to span the real gap.
inline constexpr int32_t kSrRnaMaxGap = 100;  // minimap2's MM_MAX_QLEN_FLANK
[[nodiscard]] bool sr_rna_intron_target(const AlignOptions& opt, std::span<const uint8_t> q,
                                        std::span<const uint8_t> t, std::span<const uint8_t> junc,
                                        std::vector<uint8_t>& t2, std::vector<uint8_t>& junc2);
[[nodiscard]] bool sr_rna_intron_accept(DpResult& ez, int32_t tl, int32_t tl2);

// Bits of the per-region split state (minimap2's split / split_inv).
inline constexpr uint8_t kSplitFirst = 1, kSplitSecond = 2, kSplitInv = 4;

// mm_align1 for regs[i] (anchors `a`, already squeezed; flags are written into it).
// When the region is split, the new part is inserted at regs[i + 1] and `split` gets a
// matching entry (kSplit* bits). Final coordinates are after mm_update_extra's shift.
[[nodiscard]] RegionAlignment align_region(const AlignOptions& opt, const index::MinimizerIndex& idx,
                                           const ReadCodes& read, std::vector<map::Region>& regs,
                                           std::vector<uint8_t>& split, size_t i, std::vector<map::Anchor>& a,
                                           DpSource& dp, const index::Junctions* junctions = nullptr);

// align_regs' loop without the clean-up after it: squeezes the anchors and aligns every
// region in order (split parts included), then the inversion between split parts
// (mm_align1_inv). Returns the alignments in call order; regions' coordinates are set to
// the aligned ones and inversion regions are inserted as minimap2 does. With threads > 1
// and a source that takes concurrent calls (DpSource::concurrent), the regions are
// aligned side by side on up to `threads` threads: the same regions and alignments in
// the same order (the calls reach the source in another order).
[[nodiscard]] std::vector<RegionAlignment> align_regions(const AlignOptions& opt, const index::MinimizerIndex& idx,
                                                         const ReadCodes& read, std::vector<map::Region>& regs,
                                                         const std::vector<map::Anchor>& chained, DpSource& dp,
                                                         const index::Junctions* junctions = nullptr, int threads = 1);
[[nodiscard]] std::vector<RegionAlignment> align_regions(const AlignOptions& opt, const index::MinimizerIndex& idx,
                                                         const ReadCodes& read, std::vector<map::Region>& regs,
                                                         const std::vector<map::Anchor>& chained, DpBackend& dp,
                                                         const index::Junctions* junctions = nullptr);

// The regions' anchors squeezed out of the chains' once (squeeze_anchors), for a read
// aligned in one pass or in several (over a DpMemo). A pass flags anchors as it goes
// (align_one's mm_filter_bad_seeds and mm_filter_bad_seeds_alt: ignored, long join), and
// mm_fix_bad_ends reads the long-join flag; so the flags as squeezed are kept aside, one
// byte an anchor, and put back before every pass after the first: each pass starts from
// the anchors the sequential order starts from, without a copy of them per pass.
class RegionAnchors {
 public:
  RegionAnchors() = default;
  // Squeezes the anchors of `regs` out of `chained`, rewriting the regions' `as`, and
  // frees `chained`. With `one_pass` (the alignment is one pass, its DP inline) the flags
  // are not kept aside, and for_pass() may be called once.
  RegionAnchors(std::vector<map::Region>& regs, std::vector<map::Anchor>&& chained, bool one_pass = false);
  bool made() const { return made_; }  // by the squeezing constructor
  // The anchors, with their flags as squeezed.
  std::vector<map::Anchor>& for_pass();

 private:
  std::vector<map::Anchor> a_;
  std::vector<uint8_t> flags_;  // bit 0: kIgnore, bit 1: kLongJoin, as squeezed
  bool made_ = false, used_ = false, one_pass_ = false;
};

// mm_align_skeleton: align_regions, then its clean-up of the aligned regions:
// mm_filter_regs, for reads of at least rank_min_len bases mm_update_dp_max and
// mm_filter_regs again (not with sr, nor with --split-prefix, whose merge updates dp_max
// over all parts, nor in 2.31 with all chains: ReleaseRules::all_chains_skip_dp_max_update),
// and mm_hit_sort (all in map/hit.hpp). After a provisional answer (dp_rounds.hpp) the
// regions are left as aligned, without statistics or clean-up: the pass is discarded.
// `regs` are the regions as `anchors` squeezed them (their `as` rewritten).
void align_skeleton(const AlignOptions& opt, const index::MinimizerIndex& idx, const ReadCodes& read,
                    std::vector<map::Region>& regs, RegionAnchors& anchors, DpSource& dp,
                    const index::Junctions* junctions = nullptr, int threads = 1);

}  // namespace agatha::align
