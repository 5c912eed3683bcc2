// src/io/bam_writer.hpp — BAM output of the SAM text agatha formats (sam_format.hpp):
// htslib parses the header and each record line and writes them BGZF-compressed.
//
// A path is written through a temporary file beside it ("PATH.tmp.PID") that close()
// renames to PATH, as OutputFile does; a device or FIFO (/dev/null) is written in place
// and "-" is standard output. A BamWriter destroyed without a successful close() (an
// error elsewhere stopped the run) removes its temporary file, so PATH is either a
// complete BAM file or untouched.
//
// Every failure throws agatha::Error naming the destination: it cannot be created, the
// header or a record does not parse (the message names the record's QNAME and number),
// a write or the final flush fails (a full disk).
//
// Not thread-safe: one thread (the pipeline's ordered output step) makes all calls. The
// writer owns its htslib handles.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "output_path.hpp"

namespace agatha::io {

class BamWriter {
 public:
  // Creates the destination. threads > 0 gives BGZF compression that many extra
  // threads (hts_set_threads).
  explicit BamWriter(const std::string& path, int threads = 0);
  ~BamWriter();  // closes without throwing; drops an unfinished file
  BamWriter(const BamWriter&) = delete;
  BamWriter& operator=(const BamWriter&) = delete;

  // The SAM header: every @ line, each ending in '\n' (the last may lack it). Call once,
  // before any record; an empty text gives a header without lines.
  void write_header(std::string_view sam_header);

  // One or more SAM record lines, separated by '\n' (a trailing '\n' is optional; empty
  // lines are skipped). Every RNAME and RNEXT other than "*" and "=" must be an @SQ of
  // the header (htslib alone would write the record as unplaced). BAM keeps bases as
  // 4-bit codes, so lower-case bases of SEQ read back in upper case.
  void write_records(std::string_view sam_lines);

  // Writes the header if none was written, flushes, closes and moves the file into
  // place. Throws on a failure the BGZF buffer was hiding. A second call does nothing.
  void close();

  // Records written so far.
  int64_t records() const { return n_records_; }

 private:
  struct Handles;  // htsFile, sam_hdr_t and bam1_t with their deleters

  void write_line(std::string_view line);
  [[noreturn]] void fail_write(int err) const;

  std::string path_;  // as given, or "standard output"
  OutputTarget target_;  // how a path is written (output_path.hpp)
  std::unique_ptr<Handles> h_;
  std::string line_;  // a record's private copy: sam_parse1 writes into its input
  bool header_written_ = false;
  int64_t n_records_ = 0;
};

}  // namespace agatha::io
