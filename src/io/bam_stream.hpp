// src/io/bam_stream.hpp — the pieces every BAM file agatha writes is made of, shared by
// BamWriter (bam_writer.hpp: records in input order) and SortedBamWriter (bam_sort.hpp:
// coordinate-sorted, with its temporary runs and its index):
//
//   sam_header_from_text  SAM header text -> sam_hdr_t (sam_hdr_add_lines)
//   SamLineParser         one SAM record line -> bam1_t (sam_parse1), with the checks
//                         htslib leaves out: an RNAME or RNEXT the header lacks is an
//                         error, not an unplaced record
//   BamOutStream          an htsFile writing BGZF-compressed BAM to a descriptor: an
//                         optional shared thread pool for compression, an optional
//                         index built while writing (sam_idx_init), and a close that
//                         reports every failure and frees everything even when the
//                         disk is full (finish)
//
// Every failure throws agatha::Error naming the destination as the caller gave it.
// Not thread-safe; each object belongs to one thread.
#pragma once

#include <htslib/hts.h>
#include <htslib/sam.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "hts_handles.hpp"

namespace agatha::io {

// "'PATH'", or "standard output" as it is: how messages name a destination.
[[nodiscard]] std::string quoted_destination(const std::string& path);

// The header of the SAM text `sam_header` (every @ line, each ending in '\n', the last
// may lack it; empty: a header without lines). Throws Error "cannot parse the SAM
// header for BAM file DEST".
[[nodiscard]] SamHeaderPtr sam_header_from_text(std::string_view sam_header, const std::string& dest);

class SamLineParser {
 public:
  explicit SamLineParser(std::string dest) : dest_(std::move(dest)) {}

  // Parses `line` (no '\n') against `h` into `b`. `record_no` (1-based) and the QNAME
  // name the record in the Error thrown for a line htslib rejects or whose RNAME/RNEXT
  // is not an @SQ of the header.
  void parse(std::string_view line, sam_hdr_t* h, bam1_t* b, int64_t record_no);

 private:
  std::string dest_;
  KString line_;  // a private copy: sam_parse1 cuts its input at the tabs
};

// Where BamOutStream writes an index while it writes the file.
struct BamIndexSpec {
  std::string path;   // the file hts_idx_save writes (empty: no index)
  int min_shift = 0;  // 0: BAI; > 0: CSI with bins of 2^min_shift bases at the finest level
};

class BamOutStream {
 public:
  // Takes `fd` (closed by finish() or the destructor, also on a throw). `mode` is
  // htslib's ("wb": default compression, "wb1": fastest). With `pool`, BGZF blocks are
  // compressed on its threads; it must outlive this stream.
  BamOutStream(int fd, std::string dest, const char* mode, hts_tpool* pool);
  ~BamOutStream();  // closes without throwing; drops what was not flushed
  BamOutStream(const BamOutStream&) = delete;
  BamOutStream& operator=(const BamOutStream&) = delete;

  // The header, once, before any record. With `index`, the records that follow are
  // indexed as they are written (the header's @SQ lines give the references).
  void write_header(sam_hdr_t* h, const BamIndexSpec& index = {});
  void write(const sam_hdr_t* h, const bam1_t* b);

  // Flushes everything, writes the index (if any) and the end-of-file block, and
  // closes; throws Error "cannot write BAM file DEST: REASON" (or "cannot write the
  // index ... of BAM file DEST") after closing when a step fails, which leaves the file
  // incomplete. A second call does nothing.
  void finish();

 private:
  void close_discarding() noexcept;
  [[noreturn]] void fail_write(int err) const;

  std::string dest_;
  HtsFilePtr file_;
  int fd_ = -1;  // the descriptor under file_ (htslib closes it)
  htsThreadPool pool_{nullptr, 0};
  bool indexed_ = false;
  std::string index_path_;  // htslib writes the index here (it keeps the pointer)
};

}  // namespace agatha::io
