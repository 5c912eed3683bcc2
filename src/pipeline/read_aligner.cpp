// One read from mapping to output records (minimap2 2.24 map.c: mm_map_frag with
// base alignment; format.c: mm_write_sam3, mm_write_paf3). See read_aligner.hpp.
#include "read_aligner.hpp"

#include <agatha/dp.hpp>
#include <agatha/error.hpp>
#include <agatha/nt4.hpp>

#include <span>

#include "../align/cigar_fix.hpp"
#include "../format/sam.hpp"
#include "../map/fragment.hpp"
#include "split_merge.hpp"

namespace agatha::pipeline {

using map::Region;

ReadAligner::ReadAligner(const ReadMapper& mapper, const AlignOptions& opt, OutputOptions out)
    : mapper_(mapper), idx_(mapper.index()), opt_(opt), out_(std::move(out)) {
  out_.release = opt_.release;  // the records follow the release the options follow
}

void ReadAligner::start(AlignJob& job) const {
  const size_t n = job.reads.size();
  job.segs.clear();
  job.segs.resize(n);
  job.done = true;
  // Segments mapped reverse-complemented (pe_ori) are mapped and aligned as such.
  std::vector<std::string> flipped(n);
  std::vector<std::string_view> names(n), seqs(n);
  for (size_t i = 0; i < n; ++i) {
    SegmentJob& sg = job.segs[i];
    sg.read = &job.reads[i];
    sg.flipped = segment_flipped(job.flip_ori.value_or(opt_.pe_ori), n, i);
    names[i] = sg.read->name;
    if (sg.flipped) flipped[i] = format::reverse_complement(sg.read->seq);
    seqs[i] = sg.flipped ? std::string_view(flipped[i]) : std::string_view(sg.read->seq);
  }
  FragmentMapping f = mapper_.map_fragment(names, seqs, true, job.threads);
  job.frag_gap = f.frag_gap;
  for (size_t i = 0; i < n; ++i) {
    SegmentJob& sg = job.segs[i];
    sg.mapping = std::move(f.segs[i]);
    if (!sg.mapping.regions.empty()) {
      // A flipped segment's sequence is held by its codes; the read's outlives them.
      if (sg.flipped)
        sg.codes.emplace(std::move(flipped[i]), job.threads);
      else
        sg.codes.emplace(seqs[i], job.threads);
      job.done = false;
    }
  }
}

void ReadAligner::align_segments(AlignJob& job, std::vector<std::vector<Region>>& regs, align::DpSource& dp) const {
  for (size_t i = 0; i < job.segs.size(); ++i) {
    SegmentJob& sg = job.segs[i];
    if (!sg.codes) continue;  // no region
    align::align_skeleton(opt_, idx_, *sg.codes, regs[i], sg.anchors, dp, &mapper_.junctions(), job.threads);
  }
}

void ReadAligner::squeeze(SegmentJob& sg, std::vector<Region>& regs, bool one_pass) {
  if (sg.codes && !sg.anchors.made())
    sg.anchors = align::RegionAnchors(regs, std::move(sg.mapping.chains.anchors), one_pass);
}

bool ReadAligner::pass(AlignJob& job) const {
  if (job.done) return true;
  std::vector<std::vector<Region>> regs(job.segs.size());
  for (size_t i = 0; i < regs.size(); ++i) {
    squeeze(job.segs[i], job.segs[i].mapping.regions, false);  // once, before the first pass
    regs[i] = job.segs[i].mapping.regions;
  }
  job.memo.begin_pass();
  // The segments' codes outlive the passes (finish() flips a flipped segment's strands
  // after the last one; the buffers stay where they are). Both strands are built here, so
  // that every pass finds them stable.
  job.memo.clear_stable();
  for (const SegmentJob& sg : job.segs)
    if (sg.codes) job.memo.add_stable(sg.codes->strand(false)), job.memo.add_stable(sg.codes->strand(true));
  try {
    align_segments(job, regs, job.memo);
  } catch (const Error&) {
    // A pass that went on from provisional answers may reach states the sequential
    // order never does (a CIGAR that does not span its sequences); only a pass on real
    // answers may fail for real.
    if (job.memo.missed() == 0) throw;
    return false;
  }
  if (job.memo.missed() > 0) return false;
  finish(job, std::move(regs));
  return true;
}

void ReadAligner::align(AlignJob& job, align::DpSource& dp) const {
  if (job.done) return;
  std::vector<std::vector<Region>> regs(job.segs.size());
  for (size_t i = 0; i < regs.size(); ++i) {
    regs[i] = std::move(job.segs[i].mapping.regions);
    squeeze(job.segs[i], regs[i], true);
  }
  align_segments(job, regs, dp);
  finish(job, std::move(regs));
}

bool ReadAligner::gap_fills_batch() const {
  return !opt_.sr && !opt_.splicing() && !(opt_.q == opt_.q2 && opt_.e == opt_.e2);
}

bool ReadAligner::regions_side_by_side(const AlignJob& job) const {
  if (job.done || job.threads <= 1) return false;
  for (const SegmentJob& sg : job.segs) {
    uint64_t total = 0, longest = 0;
    for (const Region& r : sg.mapping.regions) {
      const auto span = static_cast<uint64_t>(std::max(0, r.qe - r.qs));
      total += span, longest = std::max(longest, span);
    }
    // A quarter over the share still pays: the rounds' provisional pass and memo cost
    // about a third of the DP's time on such a query (a 12 Mb query on two threads).
    if (longest * 4 * static_cast<uint64_t>(job.threads) > total * 5) return false;
  }
  return true;
}

void ReadAligner::finish(AlignJob& job, std::vector<std::vector<Region>>&& regs) const {
  // align_regs for each segment: primaries and secondaries again, now with the
  // alignments' dp_max; then mm_map_frag's MAPQ, and the inversions' from their
  // neighbours.
  const map::RegionParams& p = mapper_.region_params();
  for (size_t i = 0; i < regs.size(); ++i) {
    std::vector<Region>& rg = regs[i];
    if (!p.all_chains) {
      map::set_parent(rg, p.mask_level, p.mask_len, p.sub_diff, p.hard_mask_level, p.alt_drop);
      map::select_sub(rg, p.pri_ratio, idx_.k() * 2, p.best_n, false, p.min_strand_sc, p.select_sub_decide_first);
      map::set_sam_pri(rg);
    }
    map::set_mapq(rg, p.min_chain_score, p.match_sc, job.segs[i].mapping.mapq_rep_len(), p.mapq_short_read,
                  p.mapq_sr_splice);
    map::set_inversion_mapq(rg);
  }
  // mm_pair: two segments mapped together (not with --no-pairing, which maps each as a
  // read of its own).
  if (regs.size() == 2 && !opt_.independent_segments && opt_.pe_ori >= 0)
    map::pair_segments(job.frag_gap, opt_.pe_bonus, opt_.a * 2 + opt_.b, opt_.a, regs[0], regs[1]);
  for (size_t i = 0; i < regs.size(); ++i) {
    SegmentJob& sg = job.segs[i];
    if (sg.flipped) {  // back to the read's strand (worker_for)
      const auto qlen = static_cast<int>(sg.read->seq.size());
      for (Region& r : regs[i]) flip_region(r, qlen);
      if (sg.codes) sg.codes->flip();
    }
    sg.regions = std::move(regs[i]);
    // Only the final regions and the read's codes are needed from here on.
    sg.mapping.chains = map::Chains();
    sg.anchors = align::RegionAnchors();
    std::vector<Region>().swap(sg.mapping.regions);
  }
  job.done = true;
  job.memo = align::DpMemo();
}

void ReadAligner::format(const AlignJob& job, std::string& out) const {
  if (out_.kind != OutputKind::kRegions) {
    std::vector<ReadRegions> segs;
    segs.reserve(job.segs.size());
    for (const SegmentJob& sg : job.segs) segs.push_back(ReadRegions{*sg.read, sg.regions, sg.mapping.rep_len});
    append_fragment_records(out, segs, idx_.reference().seqs(), out_, opt_.print_secondary, opt_.copy_comment,
                            [&](size_t i, const Region& r) { return printed(job.segs[i], r); });
    return;
  }
  // Each segment's regions, as minimap2's output step writes them for a split index.
  for (const SegmentJob& sg : job.segs) {
    const auto qlen = static_cast<int32_t>(sg.read->seq.size());
    if (!out_.eqx) {
      append_part_result(out, qlen, sg.mapping.rep_len, sg.regions, sg.mapping.frag_gap);
    } else {  // the merge prints the CIGARs it is given: here are the reference's bases
      std::vector<Region> regs = sg.regions;
      for (Region& r : regs)
        if (r.aligned) r.cigar = printed(sg, r).cigar;
      append_part_result(out, qlen, sg.mapping.rep_len, regs, sg.mapping.frag_gap);
    }
  }
}

PrintedRegion ReadAligner::printed(const SegmentJob& seg, const Region& r) const {
  return printed_as(seg, r, out_.eqx, out_.diff);
}

PrintedRegion ReadAligner::printed_as(const SegmentJob& seg, const Region& r, bool eqx, format::DiffTag diff) const {
  PrintedRegion p;
  if (!eqx && diff == format::DiffTag::kNone) return p;
  // The aligned read on the alignment strand, from the codes the alignment used; the
  // reference is fetched again, as minimap2's write_cs_or_MD does, rather than held by
  // every region from alignment to output.
  // With --qstrand the read as it is and the reference on the region's strand, in whose
  // coordinates rs/re are (write_cs_or_MD's is_qstrand).
  const bool qstrand_rev = opt_.qstrand && r.rev;
  const align::ReadCodes::Codes& strand = seg.codes->strand(r.rev && !opt_.qstrand);
  const auto qlen = static_cast<int32_t>(strand.size());
  const bool flip_q = r.rev && !opt_.qstrand;
  const std::span<const uint8_t> query(strand.data() + (flip_q ? qlen - r.qe : r.qs), static_cast<size_t>(r.qe - r.qs));
  std::vector<uint8_t> target(static_cast<size_t>(r.re - r.rs));
  const index::Reference& ref = idx_.reference();
  const auto rid = static_cast<uint32_t>(r.rid);
  if (!qstrand_rev) {
    ref.fetch(rid, static_cast<uint32_t>(r.rs), static_cast<uint32_t>(r.re), target.data());
  } else {
    const auto rlen = static_cast<int32_t>(ref.seq(rid).len);
    std::vector<uint8_t> fwd(target.size());
    ref.fetch(rid, static_cast<uint32_t>(rlen - r.re), static_cast<uint32_t>(rlen - r.rs), fwd.data());
    reverse_complement(fwd, target.data());
  }
  if (eqx) p.cigar = align::eqx_cigar(r.cigar, query, target);
  p.diff_tag = format::diff_tag(diff, eqx ? std::span<const uint32_t>(p.cigar) : std::span<const uint32_t>(r.cigar),
                                query, target);
  return p;
}

}  // namespace agatha::pipeline
