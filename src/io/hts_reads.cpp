// Reads from SAM/BAM/CRAM records with `samtools fastq -T '*'`'s rules (see the header).
#include "hts_reads.hpp"

#include <agatha/error.hpp>

#include <htslib/cram.h>
#include <htslib/hfile.h>

#include <algorithm>
#include <string>

namespace agatha::io {
namespace {

// The complement of a base of seq_nt16_str's alphabet "=ACMGRSVTWYHKDBN", as a 4-bit
// code: A<->T, C<->G, M<->K, R<->Y, S, W, H<->D, V<->B, N and '=' unchanged.
constexpr uint8_t kComplement16[16] = {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};

const char* format_name(const htsFile* fp) {
  switch (hts_get_format(const_cast<htsFile*>(fp))->format) {
    case bam: return "BAM";
    case cram: return "CRAM";
    default: return "SAM";
  }
}

}  // namespace

bool append_sam_tags(const bam1_t* b, std::string& out, kstring_t* scratch) {
  const uint8_t* s = bam_get_aux(b);
  const uint8_t* end = b->data + b->l_data;
  bool first = true;
  while (end - s >= 3) {
    scratch->l = 0;
    const uint8_t* next = sam_format_aux1(s, s[2], s + 3, end, scratch);
    if (!next) return false;
    if (!first) out += '\t';
    out.append(scratch->s, scratch->l);
    first = false;
    s = next;
  }
  return s == end;
}

HtsReads::HtsReads(hFILE* file, const std::string& path) : path_(path), b_(bam_init1()) {
  fp_.reset(hts_hopen(file, path.c_str(), "r"));
  if (!fp_) {
    hclose_abruptly(file);
    throw InputError("cannot open '" + path + "' as SAM, BAM or CRAM");
  }
  hdr_.reset(sam_hdr_read(fp_.get()));
  if (!hdr_) throw InputError("'" + path + "': cannot read the " + format_name(fp_.get()) + " header");
  // A BAM or CRAM file cut at a block boundary reads as a shorter file: its end-of-file
  // marker tells (a stream cannot be checked: 2).
  const htsExactFormat format = hts_get_format(fp_.get())->format;
  const int eof = format == bam ? bgzf_check_EOF(fp_->fp.bgzf) : format == cram ? cram_check_EOF(fp_->fp.cram) : 2;
  if (eof == 0)
    throw InputError("'" + path + "': truncated " + format_name(fp_.get()) + " file (no end-of-file marker)");
  if (!b_) throw std::bad_alloc();
}

void HtsReads::fail(const std::string& what) const {
  std::string where = "'" + path_ + "'";
  if (hts_get_format(fp_.get())->format == sam) where += " line " + std::to_string(fp_->lineno);
  where += " (record " + std::to_string(n_records_ + 1);
  if (!last_name_.empty()) where += ", after '" + last_name_ + "'";
  throw InputError(where + "): " + what);
}

bool HtsReads::next(SeqRecord& rec) {
  bam1_t* b = b_.get();
  for (;;) {
    const int r = sam_read1(fp_.get(), hdr_.get(), b);
    if (r == -1) return false;
    if (r < -1) fail(std::string("truncated or corrupt ") + format_name(fp_.get()) + " record");
    ++n_records_;
    last_name_ = bam_get_qname(b);
    if ((b->core.flag & (BAM_FSECONDARY | BAM_FSUPPLEMENTARY)) == 0) break;
  }
  const uint16_t flag = b->core.flag;
  rec.name = bam_get_qname(b);
  const bool first = (flag & BAM_FREAD1) != 0, last = (flag & BAM_FREAD2) != 0;
  if ((flag & BAM_FPAIRED) && first != last) rec.name += first ? "/1" : "/2";

  const auto n = static_cast<size_t>(b->core.l_qseq);
  const bool rev = (flag & BAM_FREVERSE) != 0;
  const uint8_t* seq = bam_get_seq(b);
  rec.seq.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const uint8_t code = bam_seqi(seq, i);
    if (rev)
      rec.seq[n - 1 - i] = seq_nt16_str[kComplement16[code]];
    else
      rec.seq[i] = seq_nt16_str[code];
  }
  const uint8_t* qual = bam_get_qual(b);
  rec.qual.clear();
  if (n > 0 && qual[0] != 0xff) {
    rec.qual.resize(n);
    for (size_t i = 0; i < n; ++i) rec.qual[rev ? n - 1 - i : i] = static_cast<char>(qual[i] + 33);
  }
  rec.comment.clear();
  if (!append_sam_tags(b, rec.comment, tag_text_.get())) fail("malformed tag");
  return true;
}

}  // namespace agatha::io
