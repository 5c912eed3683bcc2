// One read from mapping to output records (minimap2 2.24 map.c: mm_map_frag with
// base alignment; format.c: mm_write_sam3, mm_write_paf3). See read_aligner.hpp.
#include "read_aligner.hpp"

#include <agatha/dp.hpp>
#include <agatha/error.hpp>

#include <span>

#include "../align/cigar_fix.hpp"
#include "../format/paf.hpp"

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
    align::align_skeleton(opt_, idx_, *job.codes, regs, job.mapping.chains.anchors, job.memo);
  } catch (const Error&) {
    // A pass that went on from provisional answers may reach states the sequential
    // order never does (a CIGAR that does not span its sequences); only a pass on real
    // answers may fail for real.
    if (job.memo.missed() == 0) throw;
    return false;
  }
  if (job.memo.missed() > 0) return false;
  // align_regs: primaries and secondaries again, now with the alignments' dp_max; then
  // mm_map_frag's MAPQ, and the inversions' from their neighbours.
  const map::RegionParams& p = mapper_.region_params();
  if (!p.all_chains) {
    map::set_parent(regs, p.mask_level, p.mask_len, p.sub_diff, false);
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
  return true;
}

void ReadAligner::format(const AlignJob& job, std::string& out) const {
  if (out_.kind == OutputKind::kSam)
    format_sam(job, out);
  else
    format_paf(job, out);
}

namespace {

// The fields SAM records and PAF lines share (format::SamRecord / format::PafRecord):
// strand, coordinates, MAPQ, the printed CIGAR, the region's tags, rl and the -y
// comment.
template <class Record>
void fill_shared(Record& rec, const Region& r, std::span<const uint32_t> cigar, int32_t rep_len,
                 std::string_view comment) {
  rec.rev = r.rev;
  rec.rs = r.rs, rec.qs = r.qs, rec.qe = r.qe;
  rec.mapq = r.mapq;
  rec.cigar = cigar;
  rec.tags = region_tags(r);
  rec.rl = rep_len;
  rec.comment = comment;
}

}  // namespace

ReadAligner::Printed ReadAligner::printed(const AlignJob& job, const Region& r) const {
  Printed p;
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

void ReadAligner::format_sam(const AlignJob& job, std::string& out) const {
  const io::SeqRecord& rd = *job.read;
  const index::Reference& ref = idx_.reference();
  const std::string_view comment = opt_.copy_comment ? std::string_view(rd.comment) : std::string_view();
  if (job.regions.empty()) {
    if (!out_.sam_hit_only)
      format::append_sam_unmapped(out, rd.name, rd.seq, rd.qual, job.mapping.rep_len, out_.sam, comment);
    return;
  }
  const int32_t qlen = static_cast<int32_t>(rd.seq.size());
  const std::vector<Region>& regs = job.regions;
  for (size_t i = 0; i < regs.size(); ++i) {
    const Region& r = regs[i];
    if (!opt_.print_secondary && r.id != r.parent) continue;
    std::string sa;
    if (r.aligned && r.id == r.parent && regs.size() > 1) {
      std::vector<format::SaPart> parts;
      for (size_t j = 0; j < regs.size(); ++j) {
        const Region& q = regs[j];
        if (j == i || q.id != q.parent || !q.aligned) continue;
        parts.push_back(
            {ref.seq(static_cast<uint32_t>(q.rid)).name, q.rs, q.re, q.qs, q.qe, q.rev, q.mapq, region_tags(q).nm});
      }
      sa = format::format_sa(parts, qlen);
    }
    const Printed pr = printed(job, r);
    format::SamRecord s;
    s.qname = rd.name, s.seq = rd.seq, s.qual = rd.qual;
    s.secondary = r.id != r.parent;
    s.supplementary = !s.secondary && !r.sam_pri;
    s.rname = ref.seq(static_cast<uint32_t>(r.rid)).name;
    fill_shared(s, r, out_.eqx ? std::span<const uint32_t>(pr.cigar) : std::span<const uint32_t>(r.cigar),
                job.mapping.rep_len, comment);
    s.md_cs = pr.diff_tag;
    s.sa = sa;
    format::append_sam_record(out, s, out_.sam);
  }
}

void ReadAligner::format_paf(const AlignJob& job, std::string& out) const {
  const io::SeqRecord& rd = *job.read;
  const index::Reference& ref = idx_.reference();
  const auto qlen = static_cast<int32_t>(rd.seq.size());
  if (job.regions.empty()) {
    if (out_.paf_no_hit) format::append_paf_unmapped(out, rd.name, qlen, job.mapping.rep_len);
    return;
  }
  const std::string_view comment = opt_.copy_comment ? std::string_view(rd.comment) : std::string_view();
  for (const Region& r : job.regions) {
    if (!opt_.print_secondary && r.id != r.parent) continue;
    const Printed pr = printed(job, r);
    const index::RefSeq& rs = ref.seq(static_cast<uint32_t>(r.rid));
    format::PafRecord p;
    p.qname = rd.name, p.qlen = qlen;
    p.rname = rs.name, p.rlen = static_cast<int32_t>(rs.len), p.re = r.re;
    p.mlen = r.mlen, p.blen = r.blen;
    fill_shared(p, r, out_.eqx ? std::span<const uint32_t>(pr.cigar) : std::span<const uint32_t>(r.cigar),
                job.mapping.rep_len, comment);
    p.diff_tag = pr.diff_tag;
    format::append_paf(out, p);
  }
}

}  // namespace agatha::pipeline
