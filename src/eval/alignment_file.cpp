// src/eval/alignment_file.cpp — format detection, the htslib SAM/BAM reader and the
// PAF line parser behind AlignmentReader.
#include "alignment_file.hpp"

#include "../io/hts_handles.hpp"
#include "../io/line_reader.hpp"
#include "fields.hpp"

#include <agatha/error.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace agatha::eval {

const char* format_name(AlnFormat f) {
  switch (f) {
    case AlnFormat::kSam: return "SAM";
    case AlnFormat::kBam: return "BAM";
    case AlnFormat::kPaf: return "PAF";
  }
  return "?";
}

namespace {

// ---- format detection: BAM magic, '@' header, else the column layout of line 1 ----
AlnFormat detect(const std::string& path) {
  io::LineReader in(path);
  std::string line;
  if (!in.next(line)) return AlnFormat::kPaf;
  if (line.compare(0, 4, std::string("BAM\1", 4)) == 0) return AlnFormat::kBam;
  if (!line.empty() && line[0] == '@') return AlnFormat::kSam;
  const std::vector<std::string_view> f = split_tabs(line);
  // SAM's column 5 is the MAPQ, never a strand: a line with one there is PAF, and one
  // short of columns is reported as such rather than misread as headerless SAM.
  if (f.size() >= 5 && (f[4] == "+" || f[4] == "-")) return AlnFormat::kPaf;
  if (f.size() >= 11) return AlnFormat::kSam;
  throw InputError("'" + path + "' is not SAM, BAM or PAF: line 1 has " + std::to_string(f.size()) +
                   " tab-separated columns");
}

std::vector<std::string> sorted_tags(const std::vector<std::string_view>& f, size_t first, bool drop_cg) {
  std::vector<std::string> tags;
  for (size_t i = first; i < f.size(); ++i)
    if (!(drop_cg && f[i].substr(0, 5) == "cg:Z:")) tags.emplace_back(f[i]);
  std::sort(tags.begin(), tags.end());
  return tags;
}

}  // namespace

namespace {

// htslib's bam_hdr_read allocates the header text (l_text bytes) and the reference
// table (n_ref entries) as the file states them, so a 100-byte file can ask for 4 GB.
// Neither can exceed what the file decompresses to, which deflate bounds at 1032 times
// its size (an uncompressed BAM: its size); anything larger is a damaged file.
void check_bam_header_sizes(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  const uint64_t most = static_cast<uint64_t>(st.st_size) * 1032 + 65536;
  const io::BgzfPtr zp(bgzf_open(path.c_str(), "r"));
  if (!zp) return;
  BGZF* z = zp.get();
  uint8_t head[8];
  const bool got = bgzf_read(z, head, sizeof head) == static_cast<ssize_t>(sizeof head);
  uint32_t l_text = 0, n_ref = 0;
  bool n_ref_read = false;
  if (got) {
    std::memcpy(&l_text, head + 4, 4);
    if (l_text <= most && bgzf_seek(z, 0, SEEK_SET) == 0) {
      // Skip magic and text to reach n_ref, in bounded steps.
      std::vector<char> skip(1 << 16);
      uint64_t left = 8 + static_cast<uint64_t>(l_text);
      bool ok = true;
      while (left > 0 && ok) {
        const size_t n = static_cast<size_t>(std::min<uint64_t>(left, skip.size()));
        ok = bgzf_read(z, skip.data(), n) == static_cast<ssize_t>(n);
        left -= n;
      }
      n_ref_read = ok && bgzf_read(z, &n_ref, 4) == 4;
    }
  }
  if (got && l_text > most)
    throw InputError("'" + path + "': damaged BAM header: " + std::to_string(l_text) +
                     " bytes of header text in a file of " + std::to_string(st.st_size) + " bytes");
  if (n_ref_read && static_cast<uint64_t>(n_ref) * 9 > most)
    throw InputError("'" + path + "': damaged BAM header: " + std::to_string(n_ref) + " references in a file of " +
                     std::to_string(st.st_size) + " bytes");
}

}  // namespace

// ---- SAM and BAM through htslib ----
struct AlignmentReader::Sam {
  io::HtsFilePtr fp;
  io::SamHeaderPtr hdr;
  io::BamRecordPtr b{bam_init1()};
  io::KString ks;
};

// ---- PAF, line by line ----
struct AlignmentReader::Paf {
  explicit Paf(const std::string& path) : in(path) {}
  io::LineReader in;
  std::string line, last_primary;  // qname of the latest tp:A:P line
};

AlignmentReader::AlignmentReader(const std::string& path) : path_(path), format_(detect(path)) {
  if (format_ == AlnFormat::kPaf) {
    paf_ = std::make_unique<Paf>(path);
    return;
  }
  sam_ = std::make_unique<Sam>();
  if (!sam_->b) throw Error("out of memory reading '" + path + "'");
  errno = 0;
  sam_->fp.reset(sam_open(path.c_str(), "r"));
  if (!sam_->fp) throw InputError("cannot open '" + path + "': " + std::strerror(errno ? errno : EINVAL));
  if (format_ == AlnFormat::kBam) check_bam_header_sizes(path);
  sam_->hdr.reset(sam_hdr_read(sam_->fp.get()));
  if (!sam_->hdr) throw InputError("'" + path + "': cannot read the " + format_name(format_) + " header");
  // A BAM cut at a block boundary reads as a shorter valid file: htslib only warns.
  // Scoring such a prefix would give wrong numbers silently, so it is an error.
  if (format_ == AlnFormat::kBam) {
    samFile* fp = sam_->fp.get();
    if (fp->is_bgzf && bgzf_check_EOF(fp->fp.bgzf) == 0)
      throw InputError("'" + path + "': truncated BAM file (no end-of-file marker)");
  }
}

AlignmentReader::~AlignmentReader() = default;

namespace {

AlnRecord sam_record(const sam_hdr_t* hdr, bam1_t* b, kstring_t* ks, const std::string& path, size_t no) {
  ks->l = 0;
  if (sam_format1(hdr, b, ks) < 0)
    throw InputError("'" + path + "' record " + std::to_string(no) + ": cannot format the record");
  AlnRecord r;
  r.text.assign(ks->s, ks->l);
  r.record_no = no;
  const std::vector<std::string_view> f = split_tabs(r.text);
  const uint16_t flag = b->core.flag;
  r.qname = bam_get_qname(b);
  r.secondary = flag & BAM_FSECONDARY;
  r.supplementary = flag & BAM_FSUPPLEMENTARY;
  // htslib turns a mapped SAM record without a position into an unmapped one; a BAM
  // record is taken as it is stored, so the same rule is applied here.
  r.mapped = !(flag & BAM_FUNMAP) && b->core.tid >= 0 && b->core.pos >= 0;
  if (r.mapped) {
    const char* contig = sam_hdr_tid2name(hdr, b->core.tid);
    if (!contig)
      throw InputError("'" + path + "' record " + std::to_string(no) + ": reference " + std::to_string(b->core.tid) +
                       " is not in the header");
    r.contig = contig;
    r.start = b->core.pos;
    r.end = bam_endpos(b);
    // htslib bounds POS + reference length; an end before the start could only come
    // from a sum that wrapped.
    if (r.end < r.start) throw InputError("'" + path + "' record " + std::to_string(no) + ": position out of range");
    r.strand = bam_is_rev(b) ? '-' : '+';
  }
  r.mapq = b->core.qual;
  r.cigar = std::string(f.size() > 5 ? f[5] : "*");
  r.tags = sorted_tags(f, 11, false);
  return r;
}

int64_t paf_int(const std::vector<std::string_view>& f, size_t col, const char* what, const std::string& path,
                size_t line) {
  int64_t v = 0;
  const Num n = read_nonneg(f[col], v);
  if (n != Num::kOk)
    throw InputError("'" + path + "' line " + std::to_string(line) + ": column " + std::to_string(col + 1) + " (" +
                     what + ") " + (n == Num::kOutOfRange ? "is out of range" : "is not a non-negative integer") +
                     ": '" + std::string(f[col]) + "'");
  return v;
}

}  // namespace

bool AlignmentReader::next(AlnRecord& rec) {
  if (sam_) {
    const int ret = sam_read1(sam_->fp.get(), sam_->hdr.get(), sam_->b.get());
    if (ret == -1) return false;
    const size_t no = ++n_records_;
    if (ret < -1)
      throw InputError("'" + path_ + "': malformed or truncated " + format_name(format_) + " record " +
                       std::to_string(no));
    rec = sam_record(sam_->hdr.get(), sam_->b.get(), sam_->ks.get(), path_, no);
    return true;
  }
  Paf& p = *paf_;
  do {
    if (!p.in.next(p.line)) return false;
  } while (p.line.empty());
  const size_t ln = p.in.line_number();
  const std::vector<std::string_view> f = split_tabs(p.line);
  if (f.size() < 12)
    throw InputError("'" + path_ + "' line " + std::to_string(ln) +
                     ": expected at least 12 tab-separated PAF columns, found " + std::to_string(f.size()));
  if (f[4] != "+" && f[4] != "-")
    throw InputError("'" + path_ + "' line " + std::to_string(ln) + ": column 5 (strand) is '" + std::string(f[4]) +
                     "', expected '+' or '-'");
  AlnRecord r;
  r.record_no = ++n_records_;
  r.qname = std::string(f[0]);
  r.contig = std::string(f[5]);
  r.strand = f[4][0];
  const int64_t tlen = paf_int(f, 6, "target length", path_, ln);
  r.start = paf_int(f, 7, "target start", path_, ln);
  r.end = paf_int(f, 8, "target end", path_, ln);
  // [start, end) must be an interval on the target: a line that is not (or runs past
  // its target) is malformed, not an empty or negative interval to score.
  if (r.start > r.end || r.end > tlen)
    throw InputError("'" + path_ + "' line " + std::to_string(ln) + ": position out of range: target start " +
                     std::to_string(r.start) + " and end " + std::to_string(r.end) +
                     " must satisfy start <= end <= target length " + std::to_string(tlen));
  r.mapq = static_cast<int>(std::min<int64_t>(paf_int(f, 11, "mapping quality", path_, ln), 255));
  r.mapped = true;
  bool has_tp = false, s1 = false, s2 = false;
  for (size_t i = 12; i < f.size(); ++i) {
    const std::string_view t = f[i];
    if (t.substr(0, 5) == "tp:A:") has_tp = true, r.secondary = t.substr(5) == "S";
    if (t.substr(0, 5) == "cg:Z:") r.cigar = std::string(t.substr(5));
    if (t.substr(0, 5) == "s1:i:") s1 = true;
    if (t.substr(0, 5) == "s2:i:") s2 = true;
  }
  if (!has_tp) r.secondary = s1 && !s2;
  if (!r.secondary) {
    r.supplementary = p.last_primary == r.qname;
    p.last_primary = r.qname;
  }
  r.tags = sorted_tags(f, 12, true);
  r.text = p.line;
  rec = std::move(r);
  return true;
}

}  // namespace agatha::eval
