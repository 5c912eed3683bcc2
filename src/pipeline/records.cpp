// A read's SAM records or PAF lines from its final regions (minimap2 2.24 map.c's output
// step; format.c: mm_write_sam3, mm_write_paf3). See records.hpp.
#include "records.hpp"

#include "../format/paf.hpp"
#include "read_mapper.hpp"

namespace agatha::pipeline {
namespace {

using map::Region;

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

PrintedRegion printed_of(const PrintRegion& printed, const Region& r) { return printed ? printed(r) : PrintedRegion{}; }

std::span<const uint32_t> cigar_of(const PrintedRegion& p, const Region& r) {
  return p.cigar.empty() ? std::span<const uint32_t>(r.cigar) : std::span<const uint32_t>(p.cigar);
}

// The SA:Z value of primary-chain region i: every other aligned primary-chain region.
std::string sa_tag(std::span<const Region> regs, size_t i, std::span<const index::RefSeq> refs, int32_t qlen) {
  std::vector<format::SaPart> parts;
  for (size_t j = 0; j < regs.size(); ++j) {
    const Region& q = regs[j];
    if (j == i || q.id != q.parent || !q.aligned) continue;
    parts.push_back({refs[static_cast<size_t>(q.rid)].name, q.rs, q.re, q.qs, q.qe, q.rev, q.mapq, region_tags(q).nm});
  }
  return format::format_sa(parts, qlen);
}

void append_sam(std::string& out, const ReadRegions& rr, std::span<const index::RefSeq> refs, const OutputOptions& oo,
                bool print_secondary, std::string_view comment, const PrintRegion& printed) {
  const io::SeqRecord& rd = rr.read;
  if (rr.regions.empty()) {
    if (!oo.sam_hit_only) format::append_sam_unmapped(out, rd.name, rd.seq, oo.no_qual ? std::string_view() : std::string_view(rd.qual),
                                  rr.rep_len, oo.sam, comment);
    return;
  }
  const auto qlen = static_cast<int32_t>(rd.seq.size());
  const std::span<const Region> regs = rr.regions;
  for (size_t i = 0; i < regs.size(); ++i) {
    const Region& r = regs[i];
    if (!print_secondary && r.id != r.parent) continue;
    const std::string sa = r.aligned && r.id == r.parent && regs.size() > 1 ? sa_tag(regs, i, refs, qlen) : "";
    const PrintedRegion pr = printed_of(printed, r);
    format::SamRecord s;
    s.qname = rd.name, s.seq = rd.seq, s.qual = oo.no_qual ? std::string_view() : std::string_view(rd.qual);
    s.secondary = r.id != r.parent;
    s.supplementary = !s.secondary && !r.sam_pri;
    s.rname = refs[static_cast<size_t>(r.rid)].name;
    fill_shared(s, r, cigar_of(pr, r), rr.rep_len, comment);
    s.md_cs = pr.diff_tag;
    s.sa = sa;
    format::append_sam_record(out, s, oo.sam);
  }
}

void append_paf(std::string& out, const ReadRegions& rr, std::span<const index::RefSeq> refs, const OutputOptions& oo,
                bool print_secondary, std::string_view comment, const PrintRegion& printed) {
  const io::SeqRecord& rd = rr.read;
  const auto qlen = static_cast<int32_t>(rd.seq.size());
  if (rr.regions.empty()) {
    if (oo.paf_no_hit) format::append_paf_unmapped(out, rd.name, qlen, rr.rep_len);
    return;
  }
  for (const Region& r : rr.regions) {
    if (!print_secondary && r.id != r.parent) continue;
    const PrintedRegion pr = printed_of(printed, r);
    const index::RefSeq& rs = refs[static_cast<size_t>(r.rid)];
    format::PafRecord p;
    p.qname = rd.name, p.qlen = qlen;
    p.rname = rs.name, p.rlen = static_cast<int32_t>(rs.len), p.re = r.re;
    p.mlen = r.mlen, p.blen = r.blen;
    fill_shared(p, r, cigar_of(pr, r), rr.rep_len, comment);
    p.diff_tag = pr.diff_tag;
    p.cg = oo.paf_cg;
    format::append_paf(out, p);
  }
}

}  // namespace

void append_records(std::string& out, const ReadRegions& rr, std::span<const index::RefSeq> refs,
                    const OutputOptions& oo, bool print_secondary, bool copy_comment, const PrintRegion& printed) {
  const std::string_view comment = copy_comment ? std::string_view(rr.read.comment) : std::string_view();
  if (oo.kind == OutputKind::kSam)
    append_sam(out, rr, refs, oo, print_secondary, comment, printed);
  else
    append_paf(out, rr, refs, oo, print_secondary, comment, printed);
}

}  // namespace agatha::pipeline
