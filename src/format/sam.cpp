// src/format/sam.cpp — SAM header and records as minimap2 2.24 writes them.
//
//   expand_escapes        mm_escape
//   parse_read_group      sam_write_rg_line (validation and ID)
//   append_sam_header     mm_write_sam_hdr
//   append_cigar          write_sam_cigar (in the CIGAR field and as CG:B:I)
//   append_seq_qual       the SEQ/QUAL part of mm_write_sam3
//   append_tags           write_tags plus the SA, CG and rl tags of mm_write_sam3
//   append_sam_record     mm_write_sam3 for an aligned region
//   append_sam_unmapped   mm_write_sam3 for a read without regions
#include "sam.hpp"

#include <agatha/cigar.hpp>
#include <agatha/error.hpp>
#include <agatha/version.hpp>
#include <algorithm>
#include <array>
#include <optional>

#include "base_mods.hpp"
#include "text_put.hpp"

namespace agatha::format {
namespace {

constexpr int kFlagRev = 0x10, kFlagSecondary = 0x100, kFlagSupplementary = 0x800, kFlagUnmapped = 0x4;
constexpr size_t kMaxReadGroupId = 255;

// bseq.c's seq_comp_table: A<->T, C<->G, R<->Y, K<->M, B<->V, D<->H, U->A, case kept;
// every other byte maps to itself.
constexpr std::array<char, 256> make_comp_table() {
  std::array<char, 256> t{};
  for (int i = 0; i < 256; ++i) t[i] = static_cast<char>(i);
  constexpr std::string_view from = "ACGTURYKMBVDH", to = "TGCAAYRMKVBHD";
  for (size_t i = 0; i < from.size(); ++i) {
    t[static_cast<unsigned char>(from[i])] = to[i];
    t[static_cast<unsigned char>(from[i] + 32)] = static_cast<char>(to[i] + 32);
  }
  return t;
}
constexpr std::array<char, 256> kComp = make_comp_table();

std::string expand_escapes(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
    } else if (++i < s.size()) {
      if (s[i] == 't')
        out += '\t';
      else if (s[i] == '\\')
        out += '\\';
    }
  }
  return out;
}

int sam_flag(const SamRecord& r) {
  int flag = r.rev ? kFlagRev : 0;
  if (r.secondary)
    flag |= kFlagSecondary;
  else if (r.supplementary)
    flag |= kFlagSupplementary;
  if (r.mate) flag |= r.mate->flags;
  return flag;
}

// Clip lengths at the CIGAR's left and right ends (the read's 5' end is on the right
// when it aligns reverse-complemented).
std::pair<int32_t, int32_t> clips(const SamRecord& r) {
  const auto qlen = static_cast<int32_t>(r.seq.size());
  return r.rev ? std::pair{qlen - r.qe, r.qs} : std::pair{r.qs, qlen - r.qe};
}

void append_cigar_field(std::string& out, const SamRecord& r, bool hard) {
  const auto [left, right] = clips(r);
  const char clip = hard ? 'H' : 'S';
  if (left) put(out, left, clip);
  cigar::append_text(out, r.cigar);
  if (right) put(out, right, clip);
}

void append_cigar_tag(std::string& out, const SamRecord& r, bool hard) {
  const auto [left, right] = clips(r);
  const uint32_t clip = hard ? cigar::kHardClip : cigar::kSoftClip;
  out += "\tCG:B:I";
  if (left) put(out, ',', cigar::make(static_cast<uint32_t>(left), clip));
  for (uint32_t c : r.cigar) put(out, ',', c);
  if (right) put(out, ',', cigar::make(static_cast<uint32_t>(right), clip));
}

// With -L and a long CIGAR the field holds a placeholder: the bases SEQ shows as S and
// the reference span as N.
void append_cigar_placeholder(std::string& out, const SamRecord& r, const SamOptions& opt) {
  const int64_t ref_span = cigar::spans(r.cigar).target;
  const int flag = sam_flag(r);
  int32_t slen = r.qe - r.qs;
  if ((flag & (kFlagSecondary | kFlagSupplementary)) == 0 || opt.soft_clip)
    slen = static_cast<int32_t>(r.seq.size());
  else if ((flag & kFlagSecondary) && !opt.secondary_seq)
    slen = 0;
  put(out, slen, 'S', ref_span, 'N');
}

void append_oriented(std::string& out, std::string_view s, bool rev, bool complement) {
  if (!rev) {
    out += s;
    return;
  }
  for (size_t i = s.size(); i-- > 0;) out += complement ? kComp[static_cast<unsigned char>(s[i])] : s[i];
}

void append_seq_qual(std::string& out, const SamRecord& r, const SamOptions& opt) {
  out += '\t';
  const int flag = sam_flag(r);
  std::string_view seq = r.seq, qual = r.qual;
  if ((flag & (kFlagSecondary | kFlagSupplementary)) != 0 && !opt.soft_clip) {
    if ((flag & kFlagSecondary) && !opt.secondary_seq) {
      out += "*\t*";
      return;
    }
    const auto len = static_cast<size_t>(r.qe - r.qs);
    seq = seq.substr(static_cast<size_t>(r.qs), len);
    if (!qual.empty()) qual = qual.substr(static_cast<size_t>(r.qs), len);
  }
  append_oriented(out, seq, r.rev, true);
  out += '\t';
  if (qual.empty())
    out += '*';
  else
    append_oriented(out, qual, r.rev, false);
}

void append_tags(std::string& out, const SamRecord& r, const SamOptions& opt, bool cigar_in_tag, bool hard) {
  if (!opt.rg_id.empty()) put(out, "\tRG:Z:", std::string_view(opt.rg_id));
  if (r.mate && r.mate->fi >= 0) put(out, "\tFI:i:", r.mate->fi);
  append_region_tags(out, r.tags);
  if (!r.sa.empty()) put(out, "\tSA:Z:", r.sa);
  if (!r.md_cs.empty()) put(out, '\t', r.md_cs);
  if (cigar_in_tag) append_cigar_tag(out, r, hard);
  put(out, "\trl:i:", r.rl);
  if (r.comment.empty()) return;
  // SEQ a slice of the read: base-modification tags rewritten for it.
  const std::optional<std::string> trimmed = hard ? trim_base_mods(r.comment, r.seq, r.qs, r.qe) : std::nullopt;
  put(out, '\t', trimmed ? std::string_view(*trimmed) : r.comment);
}

}  // namespace

ReadGroup parse_read_group(std::string_view arg) {
  if (!arg.starts_with("@RG")) throw OptionError("the read group line is not started with @RG");
  if (arg.find('\t') != std::string_view::npos)
    throw OptionError("the read group line contained literal <tab>. Use '\\t' instead!");
  ReadGroup rg{expand_escapes(arg), {}};
  const size_t p = rg.line.find("\tID:");
  if (p == std::string::npos) throw OptionError("no ID within the read group line");
  const size_t start = p + 4, end = rg.line.find_first_of("\t\n", start);
  rg.id = rg.line.substr(start, end == std::string::npos ? std::string::npos : end - start);
  if (rg.id.size() > kMaxReadGroupId) throw OptionError("@RG:ID is longer than 255 characters");
  return rg;
}

void append_sam_header(std::string& out, std::span<const SamReference> refs, const ReadGroup* read_group,
                       std::span<const std::string> argv, const ReleaseRules& rules) {
  if (rules.sam_hd_line) out += "@HD\tVN:1.6\tSO:unsorted\tGO:query\n";
  append_sam_sq_lines(out, refs);
  if (read_group) out += read_group->line + '\n';
  put(out, "@PG\tID:agatha\tPN:agatha\tVN:", kVersion, "\tDS:minimap2 ", rules.version, " compatible\tCL:agatha");
  for (size_t i = 1; i < argv.size(); ++i) out += ' ' + argv[i];
  out += '\n';
}

void append_sam_sq_lines(std::string& out, std::span<const SamReference> refs) {
  for (const SamReference& ref : refs) put(out, "@SQ\tSN:", ref.name, "\tLN:", ref.length, '\n');
}

void append_sam_record(std::string& out, const SamRecord& r, const SamOptions& opt) {
  const int flag = sam_flag(r);
  // Hard clips where SEQ holds the aligned bases only (write_sam_cigar).
  const bool hard =
      ((flag & kFlagSupplementary) != 0 || ((flag & kFlagSecondary) != 0 && opt.secondary_seq)) && !opt.soft_clip;
  // BAM holds at most 65535 ops; minimap2 counts the clips only once the alignment has
  // more than 65533.
  const size_t with_clips = r.cigar.size() + (r.qs != 0) + (r.qe != static_cast<int32_t>(r.seq.size()));
  const bool cigar_in_tag = opt.long_cigar && r.cigar.size() > kMaxSamCigarOps && with_clips > kMaxSamCigarOps + 2;
  put(out, r.qname, '\t', flag, '\t', r.rname, '\t', r.rs + 1, '\t', r.mapq, '\t');
  if (cigar_in_tag)
    append_cigar_placeholder(out, r, opt);
  else
    append_cigar_field(out, r, hard);
  if (r.mate)
    put(out, '\t', r.mate->rnext, '\t', r.mate->pnext, '\t', r.mate->tlen);
  else
    out += "\t*\t0\t0";
  append_seq_qual(out, r, opt);
  append_tags(out, r, opt, cigar_in_tag, hard);
  out += '\n';
}

void append_sam_unmapped(std::string& out, std::string_view qname, std::string_view seq, std::string_view qual,
                         int32_t rl, const SamOptions& opt, std::string_view comment, const SamMate* mate,
                         std::string_view rname, int64_t pos) {
  if (mate)
    put(out, qname, '\t', kFlagUnmapped | mate->flags, '\t', rname, '\t', pos, "\t0\t*\t", mate->rnext, '\t',
        mate->pnext, '\t', mate->tlen, '\t', seq, '\t', qual.empty() ? std::string_view("*") : qual);
  else
    put(out, qname, '\t', kFlagUnmapped, "\t*\t0\t0\t*\t*\t0\t0\t", seq, '\t',
        qual.empty() ? std::string_view("*") : qual);
  if (!opt.rg_id.empty()) put(out, "\tRG:Z:", std::string_view(opt.rg_id));
  if (mate && mate->fi >= 0) put(out, "\tFI:i:", mate->fi);
  put(out, "\trl:i:", rl);
  if (!comment.empty()) put(out, '\t', comment);
  out += '\n';
}

std::string format_sa(std::span<const SaPart> parts, int32_t qlen) {
  std::string out;
  for (const SaPart& q : parts) {
    const int32_t qspan = q.qe - q.qs, rspan = q.re - q.rs;
    const int32_t m = std::min(qspan, rspan);
    const int32_t clip5 = q.rev ? qlen - q.qe : q.qs, clip3 = q.rev ? q.qs : qlen - q.qe;
    put(out, q.rname, ',', q.rs + 1, ',', q.rev ? '-' : '+', ',');
    if (clip5) put(out, clip5, 'S');
    if (m) put(out, m, 'M');
    if (qspan > m) put(out, qspan - m, 'I');
    if (rspan > m) put(out, rspan - m, 'D');
    if (clip3) put(out, clip3, 'S');
    put(out, ',', q.mapq, ',', q.nm, ';');
  }
  return out;
}

std::string reverse_complement(std::string_view seq) {
  std::string out;
  out.reserve(seq.size());
  append_oriented(out, seq, true, true);
  return out;
}

}  // namespace agatha::format
