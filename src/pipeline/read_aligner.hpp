// src/pipeline/read_aligner.hpp — one read through base-level alignment to its output
// records, as minimap2 2.24's mm_map_frag + align_regs + mm_write_sam3 do it for a
// single-segment read with -a (or -c): the mapping of ReadMapper, mm_align_skeleton
// (src/align) run as passes over a DpMemo (see align/dp_rounds.hpp), align_regs'
// selection (mm_set_parent, mm_select_sub, mm_set_sam_pri), mm_set_mapq and
// mm_set_inv_mapq, then SAM (or PAF with CIGAR) text (records.hpp), or the regions for the
// merge of a split index (OutputKind::kRegions, split_merge.hpp).
//
// Threading: a ReadAligner is immutable; its methods may run on any number of threads
// at once, each on its own AlignJob.
#pragma once

#include <agatha/options.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "../align/dp_rounds.hpp"
#include "../align/region_align.hpp"
#include "../io/seq_reader.hpp"
#include "read_mapper.hpp"
#include "records.hpp"

namespace agatha::pipeline {

// One segment of a fragment (or a single read) on its way through the alignment.
struct SegmentJob {
  const io::SeqRecord* read = nullptr;
  bool flipped = false;  // mapped and aligned reverse-complemented (segment_flipped)
  // The segment's codes, each strand made when first used: of the sequence as aligned
  // until the job is done, then (flipped back) of the read as input.
  std::optional<align::ReadCodes> codes;
  ReadMapping mapping;                // the regions before alignment and their chains
  align::RegionAnchors anchors;       // the regions' anchors, squeezed out of the chains'
  std::vector<map::Region> regions;   // final, once done
};

// One read, or the segments of one fragment, on its way through the alignment.
struct AlignJob {
  std::span<const io::SeqRecord> reads;  // the segments, in input order
  std::vector<SegmentJob> segs;
  align::DpMemo memo;                    // the DP answers so far, of every segment
  int frag_gap = 0;                      // mm_pair's reference gap limit
  bool done = false;
  // The orientation whose segments start() reverse-complements (segment_flipped), when
  // not the options' pe_ori: mappy's pairs flip the second read whatever pe_ori is.
  std::optional<int> flip_ori;
  // Threads the job's own mapping may use (ReadMapper::map): more than one only for a
  // group of fewer fragments than the pipeline's threads.
  int threads = 1;
};

class ReadAligner {
 public:
  ReadAligner(const ReadMapper& mapper, const AlignOptions& opt, OutputOptions out);

  // Seeds, chains and selects the regions; a read without any is done at once.
  void start(AlignJob& job) const;
  // One pass of the alignment over job.memo. Returns true when it used answered tasks
  // only: the alignment is final and the regions are finished. Otherwise the memo has
  // pending tasks to answer before the next pass.
  bool pass(AlignJob& job) const;
  // The whole alignment in one pass, each DP computed by `dp` when it is asked for (a
  // backend's compute_inline): the calls and results of the final pass of the rounds.
  void align(AlignJob& job, align::DpSource& dp) const;
  // Whether a started job of several threads (job.threads) keeps them busy with its
  // regions aligned side by side, each region's DP inline on its thread (align() over a
  // SharedInlineDpSource), rather than in rounds: when no segment has a region longer on
  // the query than 5/4 of its threads' share of the segment's regions (a 12 Mb query's
  // alignments to three chromosomes on two threads, not one chromosome's).
  bool regions_side_by_side(const AlignJob& job) const;
  // Whether the gap fills of this alignment are ksw_extd2 tasks with APPROX_MAX (not
  // spliced, sr's ungapped fills or single-affine ksw_extz2 ones): the kind a backend that
  // batches tasks (DpBackend::batches_tasks) computes several at a time.
  bool gap_fills_batch() const;
  // The output records of a finished job; with OutputKind::kRegions its regions (with
  // --eqx, their =/X CIGARs) as append_part_result writes them.
  void format(const AlignJob& job, std::string& out) const;

  // The CIGAR (=/X with eqx; empty otherwise) and the MD/cs tag of kind `diff` of an
  // aligned region of a finished job's segment: what format() prints with --eqx and
  // --MD/--cs, for any choice of them.
  [[nodiscard]] PrintedRegion printed_as(const SegmentJob& seg, const map::Region& r, bool eqx,
                                         format::DiffTag diff) const;

  const ReadMapper& mapper() const { return mapper_; }

 private:
  // align_regs' selection and the MAPQs on the aligned regions; the job is done.
  void finish(AlignJob& job, std::vector<std::vector<map::Region>>&& regs) const;
  // align_skeleton of every segment with a region, in order, over its squeezed anchors.
  void align_segments(AlignJob& job, std::vector<std::vector<map::Region>>& regs, align::DpSource& dp) const;
  // Squeezes the segment's anchors out of its chains (align::RegionAnchors), which are
  // freed, and rewrites `regs` (its regions) to them; once, where the segment has regions.
  // `one_pass`: for align(), whose one pass needs no copy of the anchors' flags.
  static void squeeze(SegmentJob& sg, std::vector<map::Region>& regs, bool one_pass);
  // The CIGAR to print (=/X with --eqx; empty without) and the MD/cs tag of an aligned
  // region.
  [[nodiscard]] PrintedRegion printed(const SegmentJob& seg, const map::Region& r) const;

  const ReadMapper& mapper_;
  const index::MinimizerIndex& idx_;
  AlignOptions opt_;
  OutputOptions out_;
};

}  // namespace agatha::pipeline
