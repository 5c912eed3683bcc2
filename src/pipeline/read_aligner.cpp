// One read from mapping to output records (minimap2 2.24 map.c: mm_map_frag with
// base alignment; format.c: mm_write_sam3, mm_write_paf3). See read_aligner.hpp.
#include "read_aligner.hpp"

#include <agatha/dp.hpp>
#include <agatha/error.hpp>

#include <span>

#include "../align/cigar_fix.hpp"
#include "../align/post_align.hpp"
#include "../align/region_align.hpp"

namespace agatha::pipeline {

using map::Region;

ReadAligner::ReadAligner(const ReadMapper& mapper, const AlignOptions& opt, OutputOptions out)
    : mapper_(mapper), idx_(mapper.index()), opt_(opt), out_(std::move(out)) {}

void ReadAligner::start(AlignJob& job) const {
  job.mapping = mapper_.map(job.read->name, job.read->seq);
  job.regions.clear();
  job.done = job.mapping.regions.empty();
}

bool ReadAligner::pass(AlignJob& job) const {
  if (job.done) return true;
  const std::string& seq = job.read->seq;
  std::vector<Region> regs = job.mapping.regions;
  job.memo.begin_pass();
  try {
    align::align_regions(opt_, idx_, seq, regs, job.mapping.chains.anchors, job.memo);
  } catch (const std::exception&) {
    // A pass that went on from provisional answers may reach states the sequential
    // order never does; only a pass on real answers may fail for real.
    if (job.memo.missed() == 0) throw;
    return false;
  }
  if (job.memo.missed() > 0) return false;
  align::finish_aligned_regions(opt_, static_cast<int>(seq.size()), idx_.k(), job.mapping.rep_len, regs);
  job.regions = std::move(regs);
  job.done = true;
  // Only the final regions are needed from here on.
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

char region_type(const Region& r) { return r.id == r.parent ? (r.inv ? 'I' : 'P') : (r.inv ? 'i' : 'S'); }

double region_divergence(const Region& r) {
  align::AlignmentStats s;
  s.mlen = r.mlen, s.blen = r.blen, s.n_ambi = r.n_ambi, s.n_gap = r.n_gap, s.n_gapo = r.n_gapo;
  return align::divergence(s);
}

int32_t region_nm(const Region& r) { return r.blen - r.mlen + r.n_ambi; }

}  // namespace

ReadAligner::Printed ReadAligner::printed(const io::SeqRecord& read, const Region& r) const {
  Printed p;
  if (!out_.eqx && out_.diff == io::DiffTag::kNone) return p;
  std::vector<uint8_t> query(static_cast<size_t>(r.qe - r.qs)), target(static_cast<size_t>(r.re - r.rs));
  for (int32_t k = 0; k < r.qe - r.qs; ++k) {  // the aligned read on the alignment strand
    const uint8_t c = encode_base(read.seq[static_cast<size_t>(r.rev ? r.qe - 1 - k : r.qs + k)]);
    query[static_cast<size_t>(k)] = r.rev ? (c > 3 ? 4 : static_cast<uint8_t>(3 - c)) : c;
  }
  idx_.reference().fetch(static_cast<uint32_t>(r.rid), static_cast<uint32_t>(r.rs), static_cast<uint32_t>(r.re),
                         target.data());
  if (out_.eqx) p.cigar = io::eqx_cigar(r.cigar, query, target);
  p.diff_tag = io::diff_tag(out_.diff, out_.eqx ? std::span<const uint32_t>(p.cigar) : std::span<const uint32_t>(r.cigar),
                            query, target);
  return p;
}

void ReadAligner::format_sam(const AlignJob& job, std::string& out) const {
  const io::SeqRecord& rd = *job.read;
  const index::Reference& ref = idx_.reference();
  const std::string_view comment = opt_.copy_comment ? std::string_view(rd.comment) : std::string_view();
  if (job.regions.empty()) {
    if (!out_.sam_hit_only)
      io::append_sam_unmapped(out, rd.name, rd.seq, rd.qual, job.mapping.rep_len, out_.sam, comment);
    return;
  }
  const int32_t qlen = static_cast<int32_t>(rd.seq.size());
  const std::vector<Region>& regs = job.regions;
  for (size_t i = 0; i < regs.size(); ++i) {
    const Region& r = regs[i];
    if (!opt_.print_secondary && r.id != r.parent) continue;
    std::string sa;
    if (r.aligned && r.id == r.parent && regs.size() > 1) {
      std::vector<io::SaPart> parts;
      for (size_t j = 0; j < regs.size(); ++j) {
        const Region& q = regs[j];
        if (j == i || q.id != q.parent || !q.aligned) continue;
        parts.push_back({ref.seq(static_cast<uint32_t>(q.rid)).name, q.rs, q.re, q.qs, q.qe, q.rev, q.mapq, region_nm(q)});
      }
      sa = io::format_sa(parts, qlen);
    }
    const Printed pr = printed(rd, r);
    io::SamRecord s;
    s.qname = rd.name, s.seq = rd.seq, s.qual = rd.qual;
    s.rev = r.rev;
    s.secondary = r.id != r.parent;
    s.supplementary = !s.secondary && !r.sam_pri;
    s.rname = ref.seq(static_cast<uint32_t>(r.rid)).name;
    s.rs = r.rs, s.qs = r.qs, s.qe = r.qe;
    s.mapq = r.mapq;
    s.cigar = out_.eqx ? std::span<const uint32_t>(pr.cigar) : std::span<const uint32_t>(r.cigar);
    s.nm = region_nm(r), s.ms = r.dp_max, s.as = r.dp_score, s.nn = r.n_ambi;
    s.tp = region_type(r);
    s.cm = r.cnt, s.s1 = r.score;
    if (r.id == r.parent) s.s2 = r.subsc;
    s.de = region_divergence(r);
    s.zd = r.split;
    s.sa = sa;
    s.md_cs = pr.diff_tag;
    s.rl = job.mapping.rep_len;
    s.comment = comment;
    io::append_sam_record(out, s, out_.sam);
  }
}

void ReadAligner::format_paf(const AlignJob& job, std::string& out) const {
  const io::SeqRecord& rd = *job.read;
  const index::Reference& ref = idx_.reference();
  const auto qlen = static_cast<int32_t>(rd.seq.size());
  if (job.regions.empty()) {
    if (out_.paf_no_hit) io::append_paf_unmapped(out, rd.name, qlen, job.mapping.rep_len);
    return;
  }
  const std::string_view comment = opt_.copy_comment ? std::string_view(rd.comment) : std::string_view();
  for (const Region& r : job.regions) {
    if (!opt_.print_secondary && r.id != r.parent) continue;
    const Printed pr = printed(rd, r);
    const index::RefSeq& rs = ref.seq(static_cast<uint32_t>(r.rid));
    io::PafRecord p;
    p.qname = rd.name, p.qlen = qlen, p.qs = r.qs, p.qe = r.qe, p.rev = r.rev;
    p.rname = rs.name, p.rlen = static_cast<int32_t>(rs.len), p.rs = r.rs, p.re = r.re;
    p.mlen = r.mlen, p.blen = r.blen, p.mapq = r.mapq;
    p.nm = region_nm(r), p.ms = r.dp_max, p.as = r.dp_score, p.nn = r.n_ambi;
    p.tp = region_type(r);
    p.cm = r.cnt, p.s1 = r.score;
    if (r.id == r.parent) p.s2 = r.subsc;
    p.de = region_divergence(r);
    p.zd = r.split;
    p.rl = job.mapping.rep_len;
    p.cigar = out_.eqx ? std::span<const uint32_t>(pr.cigar) : std::span<const uint32_t>(r.cigar);
    p.diff_tag = pr.diff_tag;
    p.comment = comment;
    io::append_paf_aligned(out, p);
  }
}

}  // namespace agatha::pipeline
