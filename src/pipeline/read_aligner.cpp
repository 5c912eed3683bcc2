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

// The fields SAM records and PAF lines share (io::SamRecord / io::PafRecord): strand,
// coordinates, MAPQ, the printed CIGAR, the tags NM ms AS nn tp cm s1 s2 de zd, the
// MD/cs tag, rl and the -y comment.
template <class Record>
void fill_shared(Record& rec, const Region& r, std::span<const uint32_t> cigar, std::string_view diff_tag,
                 int32_t rep_len, std::string_view comment) {
  rec.rev = r.rev;
  rec.rs = r.rs, rec.qs = r.qs, rec.qe = r.qe;
  rec.mapq = r.mapq;
  rec.cigar = cigar;
  rec.nm = region_nm(r), rec.ms = r.dp_max, rec.as = r.dp_score, rec.nn = r.n_ambi;
  rec.tp = region_type(r);
  rec.cm = r.cnt, rec.s1 = r.score;
  if (r.id == r.parent) rec.s2 = r.subsc;
  rec.de = region_divergence(r);
  rec.zd = r.split;
  rec.rl = rep_len;
  rec.comment = comment;
  if constexpr (requires { rec.md_cs; })
    rec.md_cs = diff_tag;
  else
    rec.diff_tag = diff_tag;
}

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
    s.secondary = r.id != r.parent;
    s.supplementary = !s.secondary && !r.sam_pri;
    s.rname = ref.seq(static_cast<uint32_t>(r.rid)).name;
    fill_shared(s, r, out_.eqx ? std::span<const uint32_t>(pr.cigar) : std::span<const uint32_t>(r.cigar),
                pr.diff_tag, job.mapping.rep_len, comment);
    s.sa = sa;
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
    p.qname = rd.name, p.qlen = qlen;
    p.rname = rs.name, p.rlen = static_cast<int32_t>(rs.len), p.re = r.re;
    p.mlen = r.mlen, p.blen = r.blen;
    fill_shared(p, r, out_.eqx ? std::span<const uint32_t>(pr.cigar) : std::span<const uint32_t>(r.cigar),
                pr.diff_tag, job.mapping.rep_len, comment);
    io::append_paf_aligned(out, p);
  }
}

}  // namespace agatha::pipeline
