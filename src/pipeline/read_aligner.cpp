// One read from mapping to output records (minimap2 2.24 map.c: mm_map_frag with
// base alignment; format.c: mm_write_sam3, mm_write_paf3). See read_aligner.hpp.
#include "read_aligner.hpp"

#include <agatha/dp.hpp>
#include <agatha/error.hpp>

#include <span>

#include "../align/cigar_fix.hpp"
#include "split_merge.hpp"

namespace agatha::pipeline {

using map::Region;

ReadAligner::ReadAligner(const ReadMapper& mapper, const AlignOptions& opt, OutputOptions out)
    : mapper_(mapper), idx_(mapper.index()), opt_(opt), out_(std::move(out)) {}

void ReadAligner::start(AlignJob& job) const {
  job.mapping = mapper_.map(job.read->name, job.read->seq);
  job.regions.clear();
  job.done = job.mapping.regions.empty();
  if (!job.done) job.codes.emplace(job.read->seq);
}

bool ReadAligner::pass(AlignJob& job) const {
  if (job.done) return true;
  std::vector<Region> regs = job.mapping.regions;
  job.memo.begin_pass();
  try {
    align::align_skeleton(opt_, idx_, *job.codes, regs, job.mapping.chains.anchors, job.memo, &mapper_.junctions());
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
  std::vector<Region> regs = std::move(job.mapping.regions);
  align::align_skeleton(opt_, idx_, *job.codes, regs, job.mapping.chains.anchors, dp, &mapper_.junctions());
  finish(job, std::move(regs));
}

void ReadAligner::finish(AlignJob& job, std::vector<Region>&& regs) const {
  // align_regs: primaries and secondaries again, now with the alignments' dp_max; then
  // mm_map_frag's MAPQ, and the inversions' from their neighbours.
  const map::RegionParams& p = mapper_.region_params();
  if (!p.all_chains) {
    map::set_parent(regs, p.mask_level, p.mask_len, p.sub_diff, p.hard_mask_level, p.alt_drop);
    map::select_sub(regs, p.pri_ratio, idx_.k() * 2, p.best_n, false, p.min_strand_sc);
    map::set_sam_pri(regs);
  }
  map::set_mapq(regs, p.min_chain_score, p.match_sc, job.mapping.rep_len, false);
  map::set_inversion_mapq(regs);
  job.regions = std::move(regs);
  job.done = true;
  // Only the final regions and the read's codes are needed from here on.
  job.memo = align::DpMemo();
  job.mapping.chains = map::Chains();
  std::vector<Region>().swap(job.mapping.regions);
}

void ReadAligner::format(const AlignJob& job, std::string& out) const {
  const auto qlen = static_cast<int32_t>(job.read->seq.size());
  if (out_.kind != OutputKind::kRegions) {
    append_records(out, ReadRegions{*job.read, job.regions, job.mapping.rep_len}, idx_.reference().seqs(), out_,
                   opt_.print_secondary, opt_.copy_comment, [&](const Region& r) { return printed(job, r); });
  } else if (!out_.eqx) {
    append_part_result(out, qlen, job.mapping.rep_len, job.regions);
  } else {  // the merge prints the CIGARs it is given: here are the reference's bases
    std::vector<Region> regs = job.regions;
    for (Region& r : regs)
      if (r.aligned) r.cigar = printed(job, r).cigar;
    append_part_result(out, qlen, job.mapping.rep_len, regs);
  }
}

PrintedRegion ReadAligner::printed(const AlignJob& job, const Region& r) const {
  PrintedRegion p;
  if (!out_.eqx && out_.diff == format::DiffTag::kNone) return p;
  // The aligned read on the alignment strand, from the codes the alignment used; the
  // reference is fetched again, as minimap2's write_cs_or_MD does, rather than held by
  // every region from alignment to output.
  const std::vector<uint8_t>& strand = job.codes->strand(r.rev);
  const auto qlen = static_cast<int32_t>(strand.size());
  const std::span<const uint8_t> query(strand.data() + (r.rev ? qlen - r.qe : r.qs), static_cast<size_t>(r.qe - r.qs));
  std::vector<uint8_t> target(static_cast<size_t>(r.re - r.rs));
  idx_.reference().fetch(static_cast<uint32_t>(r.rid), static_cast<uint32_t>(r.rs), static_cast<uint32_t>(r.re),
                         target.data());
  if (out_.eqx) p.cigar = align::eqx_cigar(r.cigar, query, target);
  p.diff_tag = format::diff_tag(
      out_.diff, out_.eqx ? std::span<const uint32_t>(p.cigar) : std::span<const uint32_t>(r.cigar), query, target);
  return p;
}

}  // namespace agatha::pipeline
