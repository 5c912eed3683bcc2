// A read's SAM records or PAF lines from its final regions (minimap2 2.24 map.c's output
// step; format.c: mm_write_sam3, mm_write_paf3). See records.hpp.
#include "records.hpp"

#include "../format/paf.hpp"
#include "../io/read_input.hpp"
#include "read_mapper.hpp"

namespace agatha::pipeline {
namespace {

using map::Region;

// The fields SAM records and PAF lines share (format::SamRecord / format::PafRecord):
// strand, coordinates, MAPQ, the printed CIGAR, the region's tags, rl and the -y
// comment.
template <class Record>
void fill_shared(Record& rec, const Region& r, std::span<const uint32_t> cigar, int32_t rep_len,
                 std::string_view comment, const OutputOptions& oo) {
  rec.rev = r.rev;
  rec.rs = r.rs, rec.qs = r.qs, rec.qe = r.qe;
  rec.mapq = r.mapq;
  rec.cigar = cigar;
  rec.tags = region_tags(r, oo.rules().ms_before_dp_max_update);
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
    parts.push_back({refs[static_cast<size_t>(q.rid)].name, q.rs, q.re, q.qs, q.qe, q.rev, q.mapq, region_tags(q, false).nm});
  }
  return format::format_sa(parts, qlen);
}

// The SAM primary of a segment (get_sam_pri), or nullptr when it has no region.
const Region* sam_primary(std::span<const Region> regs) {
  for (const Region& r : regs)
    if (r.sam_pri) return &r;
  return nullptr;
}

// A fragment and the place of one segment in it.
struct SegmentOf {
  std::span<const ReadRegions> segs;
  size_t idx = 0;
};

// mm_write_sam3's fields of segment f.idx: its mate flags, RNEXT, PNEXT, TLEN and FI,
// for region r (nullptr: the segment is unmapped). this_rid/this_pos: where its record
// is placed (-1: nowhere).
format::SamMate mate_fields(const SegmentOf& f, const Region* r, int32_t this_rid, int32_t this_pos,
                            std::span<const index::RefSeq> refs) {
  const size_t n = f.segs.size();
  const Region* next = sam_primary(f.segs[(f.idx + 1) % n].regions);
  format::SamMate m;
  m.flags = 0x1;
  if (r && r->proper_frag) m.flags |= 0x2;
  if (f.idx == 0)
    m.flags |= 0x40;
  else if (f.idx == n - 1)
    m.flags |= 0x80;
  if (!next)
    m.flags |= 0x8;
  else if (next->rev)
    m.flags |= 0x20;
  int64_t tlen = 0;
  if (this_rid >= 0 && next) {
    if (this_rid == next->rid) {
      if (r) {
        const int32_t this5 = r->rev ? r->re - 1 : this_pos, next5 = next->rev ? next->re - 1 : next->rs;
        tlen = next5 - this5;
      }
      m.rnext = "=";
    } else {
      m.rnext = refs[static_cast<size_t>(next->rid)].name;
    }
    m.pnext = next->rs + 1;
  } else if (next) {
    m.rnext = refs[static_cast<size_t>(next->rid)].name, m.pnext = next->rs + 1;
  } else if (this_rid >= 0) {
    m.rnext = "=", m.pnext = this_pos + 1;  // the unmapped mate is placed here
  }
  m.tlen = tlen > 0 ? tlen + 1 : tlen < 0 ? tlen - 1 : 0;
  if (n > 2) m.fi = static_cast<int>(f.idx);
  return m;
}

void append_sam(std::string& out, const ReadRegions& rr, std::span<const index::RefSeq> refs, const OutputOptions& oo,
                bool print_secondary, std::string_view comment, const PrintRegion& printed,
                const SegmentOf* frag = nullptr) {
  const io::SeqRecord& rd = rr.read;
  // A segment's QNAME loses a trailing /1, /2 ...
  const std::string_view qname = frag ? io::fragment_name(rd.name) : std::string_view(rd.name);
  const std::string_view qual = oo.no_qual ? std::string_view() : std::string_view(rd.qual);  // -Q
  if (rr.regions.empty()) {
    if (oo.sam_hit_only) return;
    if (!frag) {
      format::append_sam_unmapped(out, qname, rd.seq, qual, rr.rep_len, oo.sam, comment);
      return;
    }
    // Placed at the previous mapped segment's primary (with two: the mate's).
    const size_t n = frag->segs.size();
    const Region* prev = nullptr;
    if (n == 2) {
      prev = sam_primary(frag->segs[1 - frag->idx].regions);
    } else {
      for (size_t i = 1; i < n; ++i) {
        const ReadRegions& p = frag->segs[(frag->idx + n - i) % n];
        if (!p.regions.empty()) {
          prev = sam_primary(p.regions);
          break;
        }
      }
    }
    const int32_t rid = prev ? prev->rid : -1, pos = prev ? prev->rs : -1;
    const format::SamMate m = mate_fields(*frag, nullptr, rid, pos, refs);
    format::append_sam_unmapped(out, qname, rd.seq, qual, rr.rep_len, oo.sam, comment, &m,
                                prev ? std::string_view(refs[static_cast<size_t>(rid)].name) : std::string_view("*"),
                                prev ? pos + 1 : 0);
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
    s.qname = qname, s.seq = rd.seq, s.qual = qual;
    s.secondary = r.id != r.parent;
    s.supplementary = !s.secondary && !r.sam_pri;
    s.rname = refs[static_cast<size_t>(r.rid)].name;
    fill_shared(s, r, cigar_of(pr, r), rr.rep_len, comment, oo);
    s.md_cs = pr.diff_tag;
    s.sa = sa;
    format::SamMate m;
    if (frag) m = mate_fields(*frag, &r, r.rid, r.rs, refs), s.mate = &m;
    format::append_sam_record(out, s, oo.sam);
  }
}

// seg: the segment's index in a fragment of two or more, -1 for a read.
void append_paf(std::string& out, const ReadRegions& rr, std::span<const index::RefSeq> refs, const OutputOptions& oo,
                bool print_secondary, std::string_view comment, const PrintRegion& printed, int seg = -1) {
  const io::SeqRecord& rd = rr.read;
  const auto qlen = static_cast<int32_t>(rd.seq.size());
  const std::string name = paf_query_name(rd.name, seg, oo.rules());
  if (rr.regions.empty()) {
    if (oo.paf_no_hit) format::append_paf_unmapped(out, name, qlen, rr.rep_len);
    return;
  }
  for (const Region& r : rr.regions) {
    if (!print_secondary && r.id != r.parent) continue;
    const PrintedRegion pr = printed_of(printed, r);
    const index::RefSeq& rs = refs[static_cast<size_t>(r.rid)];
    format::PafRecord p;
    p.qname = name, p.qlen = qlen;
    p.rname = rs.name, p.rlen = static_cast<int32_t>(rs.len), p.re = r.re;
    p.mlen = r.mlen, p.blen = r.blen;
    fill_shared(p, r, cigar_of(pr, r), rr.rep_len, comment, oo);
    if (oo.qstrand && r.rev) p.rs = p.rlen - r.re, p.re = p.rlen - r.rs;  // the forward strand's (mm_write_paf3)
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

void append_fragment_records(std::string& out, std::span<const ReadRegions> segs, std::span<const index::RefSeq> refs,
                             const OutputOptions& oo, bool print_secondary, bool copy_comment,
                             const PrintSegmentRegion& printed) {
  for (size_t i = 0; i < segs.size(); ++i) {
    const std::string_view comment = copy_comment ? std::string_view(segs[i].read.comment) : std::string_view();
    PrintRegion one;
    if (printed) one = [&printed, i](const Region& r) { return printed(i, r); };
    if (oo.kind == OutputKind::kSam) {
      const SegmentOf f{segs, i};
      append_sam(out, segs[i], refs, oo, print_secondary, comment, one, segs.size() > 1 ? &f : nullptr);
    } else {
      append_paf(out, segs[i], refs, oo, print_secondary, comment, one, segs.size() > 1 ? static_cast<int>(i) : -1);
    }
  }
}

}  // namespace agatha::pipeline

