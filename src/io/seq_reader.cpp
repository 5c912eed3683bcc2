// FASTA/FASTQ parsing with kseq's rules (see the header), over a BGZF byte stream
// (BgzfInput).
#include "seq_reader.hpp"

#include <agatha/error.hpp>

#include <htslib/hfile.h>
#include <htslib/hts.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "hts_reads.hpp"

namespace agatha::io {
namespace {

constexpr size_t kBufferBytes = 1 << 16;

bool is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

// kseq2bseq's U -> T, and two rules of this reader's own so that SAM SEQ stays valid
// ([A-Za-z=.]+) whatever bytes the input holds. minimap2 reads the bytes 0x00-0x03 as
// the codes of A, C, G, T (seq_nt4_table) and any other byte outside the letters as an
// ambiguous base, but writes them back verbatim; here they become the letters they are
// aligned as ("ACGT", and 'N'), so alignment is unchanged and the SAM can be read back.
void normalize_bytes(char* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    if (c == 'U' || c == 'u')
      --p[i];  // 'U'-1 == 'T', 'u'-1 == 't'
    else if (c < 4)
      p[i] = "ACGT"[c];
    else if (!((c | 0x20) >= 'a' && (c | 0x20) <= 'z') && c != '=' && c != '.')
      p[i] = 'N';
  }
}

void normalize_bases(std::string& seq) {
  // Blocks of letters other than U, the usual content, need no change: a test over the
  // block without branches (which the compiler vectorises) skips them.
  constexpr size_t kBlock = 32;
  char* p = seq.data();
  const size_t n = seq.size();
  size_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    unsigned change = 0;
    for (size_t j = 0; j < kBlock; ++j) {
      const auto lower = static_cast<unsigned char>(p[i + j] | 0x20);
      change |= static_cast<unsigned>(static_cast<unsigned char>(lower - 'a') >= 26) | static_cast<unsigned>(lower == 'u');
    }
    if (change) normalize_bytes(p + i, kBlock);
  }
  normalize_bytes(p + i, n - i);
}

// A byte for a message: 'c' when printable, else its value (binary input).
std::string shown_byte(int c) {
  if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
  static const char* const kHex = "0123456789abcdef";
  return std::string("byte 0x") + kHex[(c >> 4) & 15] + kHex[c & 15];
}

// "'PATH' line L: read error ...", L the line that holds the damage where zlib could
// tell (BGZF loses the whole block it cannot finish), else the line reached.
std::string read_error_text(const std::string& path, const BgzfInput::Damage& d) {
  const size_t line = d.damaged_line > d.line_reached ? d.damaged_line : d.line_reached;
  return "'" + path + "' line " + std::to_string(line) + ": read error (truncated or corrupt compressed stream)";
}

}  // namespace

SeqReader::SeqReader(const std::string& path) : path_(path) {
  hFILE* file = BgzfInput::open_local(path);
  htsFormat format{};
  errno = 0;
  if (hts_detect_format(file, &format) < 0) {
    const int err = errno;
    hclose_abruptly(file);
    throw InputError("cannot read '" + path + "': " + std::strerror(err ? err : EIO));
  }
  if (format.format == sam || format.format == bam || format.format == cram)
    hts_ = std::make_unique<HtsReads>(file, path);
  else
    in_.emplace(file, path, kBufferBytes, read_error_text);
}

SeqReader::~SeqReader() = default;

uint64_t SeqReader::records_read() const { return hts_ ? hts_->records_read() : n_records_; }

void SeqReader::fail(const std::string& what, size_t line, const SeqRecord* rec) const {
  std::string msg = "'" + in_->path() + "' line " + std::to_string(line);
  if (rec) {
    msg += " (record " + std::to_string(n_records_ + 1) + " '" + rec->name + "', starting at line " +
           std::to_string(header_line_) + ")";
  }
  throw InputError(msg + ": " + what);
}

bool SeqReader::read_line_into(std::string& s) {
  if (!in_->append_line(s)) return false;
  if (s.size() > 1 && s.back() == '\r') s.pop_back();
  return true;
}

// Finds the next header byte (kseq skips anything before it) and reads name and comment.
bool SeqReader::read_header(SeqRecord& rec) {
  int c = pending_;
  if (c == 0) {
    const bool first = n_records_ == 0;
    while ((c = in_->getc()) != -1 && c != '>' && c != '@') {
      if (first && !is_space(c)) {
        fail(std::string("not FASTA or FASTQ: expected '>' or '@', found ") + shown_byte(c), in_->line(),
             nullptr);
      }
    }
    if (c == -1) return false;
  }
  header_line_ = in_->line();
  pending_ = 0;
  rec.name.clear(), rec.comment.clear(), rec.seq.clear(), rec.qual.clear();
  bool got = false;
  while ((c = in_->getc()) != -1 && !is_space(c)) rec.name.push_back(static_cast<char>(c)), got = true;
  if (!got && c == -1) return false;  // a lone header byte at the end of the input
  if (c != '\n') read_line_into(rec.comment);
  return true;
}

void SeqReader::read_quality(SeqRecord& rec) {
  int c;
  while ((c = in_->getc()) != -1 && c != '\n') {
  }
  if (c == -1) fail("missing quality string", in_->last_line(), &rec);
  // As kseq: quality lines until the string is at least as long as the sequence. When a
  // short quality string swallowed the next record's header, report the length before it.
  size_t before = 0, line_before = in_->last_line();
  do {
    before = rec.qual.size(), line_before = in_->last_line();
  } while (read_line_into(rec.qual) && rec.qual.size() < rec.seq.size());
  if (rec.qual.size() != rec.seq.size()) {
    const bool swallowed_header =
        before < rec.seq.size() && rec.qual.size() > rec.seq.size() && rec.qual[before] == '@';
    const size_t len = swallowed_header ? before : rec.qual.size();
    fail("quality string length " + std::to_string(len) + " differs from sequence length " +
             std::to_string(rec.seq.size()) + (swallowed_header ? " (the next line, a header, was read as quality)" : ""),
         swallowed_header ? line_before : in_->last_line(), &rec);
  }
}

bool SeqReader::next(SeqRecord& rec) {
  if (hts_) return hts_->next(rec);
  if (!read_header(rec)) return false;
  int c;
  while ((c = in_->getc()) != -1 && c != '>' && c != '+' && c != '@') {
    if (c == '\n') continue;
    rec.seq.push_back(static_cast<char>(c));  // counts towards the '\r' rule, as in kseq
    read_line_into(rec.seq);
  }
  if (c == '>' || c == '@') pending_ = c;
  if (c == '+') read_quality(rec);
  normalize_bases(rec.seq);
  ++n_records_;
  return true;
}

std::vector<SeqRecord> SeqReader::next_batch(uint64_t min_bases, bool name_and_seq_only) {
  std::vector<SeqRecord> batch;
  uint64_t bases = 0;
  // `rec` keeps its buffers from record to record; the batch gets exact-size copies, so
  // a batch holds its bases once, not the doubling slack of growing strings.
  SeqRecord rec;
  do {  // at least one record, as minimap2 checks the size after adding each
    if (!next(rec)) break;
    bases += rec.seq.size();
    SeqRecord& out = batch.emplace_back();
    out.name = rec.name;
    out.seq = rec.seq;
    if (!name_and_seq_only) out.comment = rec.comment, out.qual = rec.qual;
  } while (bases < min_bases);
  return batch;
}

}  // namespace agatha::io
