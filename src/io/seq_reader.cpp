// FASTA/FASTQ parsing with kseq's rules (see the header), over a BGZF byte stream.
#include "seq_reader.hpp"

#include <agatha/error.hpp>

#include <htslib/bgzf.h>

#include <cerrno>
#include <cstring>

namespace agatha::io {
namespace {

constexpr size_t kBufferBytes = 1 << 16;

bool is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

void u_to_t(std::string& seq) {
  for (char& c : seq)
    if (c == 'U' || c == 'u') --c;  // 'U'-1 == 'T', 'u'-1 == 't'
}

}  // namespace

SeqReader::SeqReader(const std::string& path) : path_(path), buf_(kBufferBytes) {
  errno = 0;
  fp_ = bgzf_open(path.c_str(), "r");
  if (!fp_) throw InputError("cannot open '" + path + "': " + std::strerror(errno ? errno : EIO));
}

SeqReader::~SeqReader() {
  if (fp_) bgzf_close(fp_);
}

void SeqReader::fail(const std::string& what, size_t line, const SeqRecord* rec) const {
  std::string msg = "'" + path_ + "' line " + std::to_string(line);
  if (rec) {
    msg += " (record " + std::to_string(n_records_ + 1) + " '" + rec->name + "', starting at line " +
           std::to_string(header_line_) + ")";
  }
  throw InputError(msg + ": " + what);
}

int SeqReader::getc() {
  if (pos_ == len_) {
    if (eof_) return -1;
    const ssize_t n = bgzf_read(fp_, buf_.data(), buf_.size());
    if (n < 0) fail("read error (truncated or corrupt compressed stream)", line_, nullptr);
    if (n == 0) {
      eof_ = true;
      return -1;
    }
    pos_ = 0, len_ = static_cast<size_t>(n);
  }
  const int c = static_cast<unsigned char>(buf_[pos_++]);
  last_line_ = line_;
  if (c == '\n') ++line_;
  return c;
}

bool SeqReader::read_line_into(std::string& s) {
  // Whole runs of the buffer up to the next '\n' at a time (getc's bookkeeping, in bulk).
  bool got = false;
  for (;;) {
    if (pos_ == len_) {
      const int c = getc();  // refills the buffer, or reports the end
      if (c == -1) break;
      got = true;
      if (c == '\n') break;
      s.push_back(static_cast<char>(c));
      continue;
    }
    got = true;
    const char* start = buf_.data() + pos_;
    const auto* nl = static_cast<const char*>(std::memchr(start, '\n', len_ - pos_));
    const size_t n = nl ? static_cast<size_t>(nl - start) : len_ - pos_;
    s.append(start, n);
    pos_ += n;
    last_line_ = line_;
    if (nl) {
      ++pos_, ++line_;
      break;
    }
  }
  if (!got) return false;
  if (s.size() > 1 && s.back() == '\r') s.pop_back();
  return true;
}

// Finds the next header byte (kseq skips anything before it) and reads name and comment.
bool SeqReader::read_header(SeqRecord& rec) {
  int c = pending_;
  if (c == 0) {
    const bool first = n_records_ == 0;
    while ((c = getc()) != -1 && c != '>' && c != '@') {
      if (first && !is_space(c)) {
        fail(std::string("not FASTA or FASTQ: expected '>' or '@', found '") + static_cast<char>(c) + "'", line_,
             nullptr);
      }
    }
    if (c == -1) return false;
  }
  header_line_ = line_;
  pending_ = 0;
  rec.name.clear(), rec.comment.clear(), rec.seq.clear(), rec.qual.clear();
  bool got = false;
  while ((c = getc()) != -1 && !is_space(c)) rec.name.push_back(static_cast<char>(c)), got = true;
  if (!got && c == -1) return false;  // a lone header byte at the end of the input
  if (c != '\n') read_line_into(rec.comment);
  return true;
}

void SeqReader::read_quality(SeqRecord& rec) {
  int c;
  while ((c = getc()) != -1 && c != '\n') {
  }
  if (c == -1) fail("missing quality string", last_line_, &rec);
  while (read_line_into(rec.qual) && rec.qual.size() < rec.seq.size()) {
  }
  if (rec.qual.size() != rec.seq.size()) {
    fail("quality string length " + std::to_string(rec.qual.size()) + " differs from sequence length " +
             std::to_string(rec.seq.size()),
         last_line_, &rec);
  }
}

bool SeqReader::next(SeqRecord& rec) {
  if (!read_header(rec)) return false;
  int c;
  while ((c = getc()) != -1 && c != '>' && c != '+' && c != '@') {
    if (c == '\n') continue;
    rec.seq.push_back(static_cast<char>(c));  // counts towards the '\r' rule, as in kseq
    read_line_into(rec.seq);
  }
  if (c == '>' || c == '@') pending_ = c;
  if (c == '+') read_quality(rec);
  u_to_t(rec.seq);
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
