// src/io/seq_reader.hpp — streaming FASTA/FASTQ reader (plain, gzip or bgzip, a path or
// "-" for standard input), read through htslib's BGZF layer (bgzf_input.hpp, the byte
// source LineReader uses too).
//
// Records are parsed with the rules of the kseq parser minimap2 2.24 uses, so names,
// comments and sequences come out byte for byte as minimap2 sees them:
//   - the name runs from after '>'/'@' to the first whitespace byte; the comment is the
//     rest of the header line;
//   - sequence lines are concatenated verbatim (empty lines skipped) until a line that
//     starts with '>', '@' or '+'; a FASTQ quality string is read line by line until it
//     is at least as long as the sequence;
//   - a '\r' ending a line is dropped, unless it would be the only byte read so far
//     into that field (kseq's `l > 1` rule);
//   - every 'U'/'u' of the sequence becomes 'T'/'t', as kseq2bseq does;
//   - the bytes 0x00-0x03 become A, C, G, T and any other byte that is not a letter,
//     '=' or '.' becomes N: the bases minimap2 aligns them as, written so that SAM SEQ
//     stays valid (minimap2 writes such bytes verbatim).
// Where minimap2 only warns (a record it cannot parse), this reader throws InputError
// naming the file, the record number and name, and the line.
//
// SAM, BAM and CRAM input (told from FASTA/FASTQ by htslib's hts_detect_format, which
// peeks at the first bytes) is read by HtsReads (hts_reads.hpp), as `samtools fastq -T '*'`
// would turn it into FASTQ.
//
// Threading: one reader per thread; not copyable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bgzf_input.hpp"

namespace agatha::io {

class HtsReads;

struct SeqRecord {
  std::string name, comment, seq, qual;  // qual empty for FASTA
};

class SeqReader {
 public:
  // Throws InputError if the file cannot be opened.
  explicit SeqReader(const std::string& path);
  ~SeqReader();
  SeqReader(const SeqReader&) = delete;
  SeqReader& operator=(const SeqReader&) = delete;

  // Reads the next record into rec; false at the end of the input. Throws InputError on
  // input that is not FASTA/FASTQ, a quality string of the wrong length, a missing
  // quality string, or a read error (e.g. a truncated gzip stream).
  [[nodiscard]] bool next(SeqRecord& rec);

  // Reads records until their total sequence length reaches min_bases (the record
  // crossing the threshold included, as minimap2's mm_bseq_read checks the size after
  // adding each record) or the input ends. Empty at the end.
  // name_and_seq_only leaves comment and qual empty (they are still read and checked),
  // as minimap2 keeps them only for SAM output and -y.
  [[nodiscard]] std::vector<SeqRecord> next_batch(uint64_t min_bases, bool name_and_seq_only = false);

  const std::string& path() const { return path_; }
  // Records read so far (SAM/BAM/CRAM: skipped secondary and supplementary ones included).
  uint64_t records_read() const;
  // True when the input is SAM, BAM or CRAM.
  bool alignment_format() const { return hts_ != nullptr; }

 private:
  // Appends bytes up to the end of the line (the '\n' is consumed, not stored); applies
  // the '\r' rule. Returns false if the input ended before any byte was read.
  bool read_line_into(std::string& s);
  bool read_header(SeqRecord& rec);
  void read_quality(SeqRecord& rec);
  [[noreturn]] void fail(const std::string& what, size_t line, const SeqRecord* rec) const;

  std::string path_;
  std::optional<BgzfInput> in_;     // FASTA/FASTQ (in place: getc is the parser's inner loop)
  std::unique_ptr<HtsReads> hts_;   // SAM/BAM/CRAM
  int pending_ = 0;         // header byte ('>' or '@') already consumed, or 0
  size_t header_line_ = 0;  // line of the current record's header
  uint64_t n_records_ = 0;
};

}  // namespace agatha::io
