// src/io/bam_writer.hpp — BAM output of the SAM text agatha formats (src/format/sam.hpp):
// htslib parses the header and each record line (sam_hdr_add_lines, sam_parse1) and
// writes them BGZF-compressed (sam_hdr_write, sam_write1), through the pieces of
// bam_stream.hpp. SortedBamWriter (bam_sort.hpp) writes the same records sorted.
//
// Why records go through their SAM text rather than being built with bam_set1 and
// bam_aux_append: one formatter defines every record's content, so the SAM and the BAM
// output cannot drift apart, and htslib then chooses the encoding of every field exactly
// as `samtools view -b` does when it converts minimap2's SAM (the smallest integer type
// that holds each i tag's value, B arrays with their stated subtype, f tags as 32-bit
// floats), so `samtools view` of the BAM prints the SAM. The round trip costs little:
// on data/ (155 reads, 1.2 MB of SAM) sam_parse1 of every line takes about 2 ms, BGZF
// compression about 40 ms, the whole `agatha align -t 1` about 200 ms.
//
// A path is written through a temporary file beside it ("PATH.tmp.PID") that close()
// renames to PATH, as OutputFile does (both through PendingOutput, output_path.hpp); a
// device or FIFO (/dev/null) is written in place and "-" is standard output. A
// BamWriter destroyed without a successful close() (an error elsewhere stopped the run)
// removes its temporary file, so PATH is either a complete BAM file or untouched.
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
#include <optional>
#include <string>
#include <string_view>

#include "output_path.hpp"

namespace agatha::io {

class BamWriter {
 public:
  // Creates the destination. threads > 0 gives BGZF compression a pool of that many
  // threads (hts_tpool).
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
  [[nodiscard]] int64_t records() const { return n_records_; }

 private:
  struct Handles;  // the stream, header, record and parser (bam_stream.hpp)

  std::string path_;                     // as given, or "standard output"
  std::optional<PendingOutput> target_;  // a path's; none for standard output
  std::unique_ptr<Handles> h_;           // destroyed before target_ removes the file
  bool header_written_ = false;
  int64_t n_records_ = 0;
};

}  // namespace agatha::io
