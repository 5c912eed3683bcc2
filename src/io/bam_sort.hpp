// src/io/bam_sort.hpp — coordinate-sorted BAM output with its index (`agatha align
// --sort`): the records of `samtools sort` applied to what BamWriter would write, in
// bounded memory, and the index `samtools index` would build, both written through
// htslib.
//
// The order is samtools sort's: by reference (in @SQ order; unmapped records, whose
// reference is -1, after all others), then position, then strand (forward before
// reverse); records equal in all three keep their input order (the sort is stable).
// The header gets `@HD VN:1.6 SO:coordinate` (or SO:coordinate set on its @HD line), as
// samtools sort gives it.
//
// How memory stays bounded: records are parsed into BAM records and buffered until
// they take `mem_bytes`; then the buffer is sorted and written to a temporary BAM file
// (a run) beside the output, "PATH.tmp.PID.NNNN.bam" (the PID keeps two processes
// apart; a run never replaces an existing file). Runs are merged as they pile up:
// `fan_in` runs of one level, the latest ones, become one run of the next level, which
// stands for the input they covered; so every record is rewritten about
// log_fan_in(runs) times, no merge reads more than `fan_in` files, and fewer than
// fan_in runs per level exist at once. close() merges what is left (tail groups first
// while more than fan_in remain), with the last buffer, into the output. Ties across
// runs go to the earlier run, which holds the earlier input: stable overall.
//
// The output is written as BamWriter writes a path: under a temporary name renamed into
// place when complete, and so is its index, PATH.csi (CSI, min_shift 14) or PATH.bai
// (BAI), built while the output is written (sam_idx_init) and given a modification time
// not before the BAM file's (htslib warns about an index older than its data). An index
// of the other format beside PATH is removed when the new one is in place: it would
// describe the file just replaced, and htslib looks for .csi first. An error anywhere,
// or a SIGINT/SIGTERM/SIGHUP, removes every temporary file and leaves PATH and its
// index as they were.
//
// Compression (of the runs at level 1, of the output at the default level) and the
// runs' decompression share one htslib thread pool of `threads` threads (none with 1).
//
// Not thread-safe: one thread (the pipeline's ordered output step) makes all calls.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "output_path.hpp"

namespace agatha::io {

enum class IndexFormat { kCsi, kBai };

struct SortOptions {
  // --sort-mem: the records buffered before a run is written. One budget for the whole
  // sort (samtools sort's -m, also 768M by default, is per thread: agatha sorts in one
  // buffer).
  uint64_t mem_bytes = uint64_t{768} << 20;
  IndexFormat index = IndexFormat::kCsi;  // --index-format
  int threads = 1;                        // -t: the compression thread pool
  int fan_in = 64;                        // runs merged at once (at least 2)
};

// A size as `--sort-mem` takes it: a positive whole number of bytes with an optional
// suffix K, M or G (upper or lower case: 2^10, 2^20, 2^30 bytes, as samtools sort -m
// reads them). Throws OptionError naming `option` for anything else (no digits, another
// suffix, trailing text, zero, more than 2^63 bytes).
[[nodiscard]] uint64_t parse_mem_size(std::string_view text, const std::string& option = "--sort-mem");

// The index file of `bam_path` in `format`: PATH.csi or PATH.bai.
[[nodiscard]] std::string index_path_for(const std::string& bam_path, IndexFormat format);

class SortedBamWriter {
 public:
  // Creates the output's and the index's temporary files (so that an output that cannot
  // be written fails now, not after the alignment). `path` must be a file to write: a
  // regular file or a new name, not "-", a device or a FIFO (Error otherwise).
  SortedBamWriter(const std::string& path, const SortOptions& opt);
  ~SortedBamWriter();  // without a successful close(): removes every file it made
  SortedBamWriter(const SortedBamWriter&) = delete;
  SortedBamWriter& operator=(const SortedBamWriter&) = delete;

  // As BamWriter's: the SAM header once, then record lines ('\n'-separated, in any
  // number per call). A record whose RNAME or RNEXT is not in the header is an error.
  void write_header(std::string_view sam_header);
  void write_records(std::string_view sam_lines);

  // Sorts and merges what is left into the output, writes the index, moves both into
  // place. A second call does nothing.
  void close();

  [[nodiscard]] int64_t records() const { return n_records_; }
  // Runs written so far, merged runs included (0: everything was sorted in memory).
  [[nodiscard]] int runs_written() const;
  [[nodiscard]] const std::string& index_path() const { return index_path_; }

 private:
  struct State;  // the header, buffer, runs, thread pool and output stream (bam_sort.cpp)

  std::string path_;
  std::string index_path_;
  SortOptions opt_;
  std::optional<PendingOutput> out_target_;    // the BAM file
  std::optional<PendingOutput> index_target_;  // its index
  std::unique_ptr<State> st_;                  // destroyed before the targets remove their files
  bool header_written_ = false;
  bool closed_ = false;
  int64_t n_records_ = 0;
};

}  // namespace agatha::io
