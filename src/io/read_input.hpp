// src/io/read_input.hpp — the reads of `agatha align` as minimap2 2.24 reads them
// (bseq.c: mm_bseq_read3, mm_bseq_read_frag2; map.c: worker_pipeline's grouping into
// fragments):
//   - one file, not in fragment mode: every record is a read of its own;
//   - one file in fragment mode (--frag=yes, set by -x sr): consecutive records whose
//     names are equal once a trailing `/<digit>` is dropped (mm_qname_same) are the
//     segments of one fragment (interleaved pairs);
//   - several files in fragment mode: the files are read in step, one record of each in
//     turn, and the records so interleaved are grouped by name as above (so r1.fq and
//     r2.fq give pairs when their names agree up to /1 /2);
//   - several files, not in fragment mode: one file after another, every record a read
//     of its own (minimap2's main maps each file in turn).
// A batch never splits a fragment. A fragment of more than kMaxSegments reads (minimap2
// fails an assertion) is an InputError. Where minimap2 warns that the files hold different
// numbers of records and drops the surplus, this reader throws InputError naming both
// files.
//
// Threading: one reader per thread (read_ahead's thread aside, which next_batch waits
// for); not copyable.
#pragma once

#include <atomic>
#include <cstdint>
#include <future>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "seq_reader.hpp"

namespace agatha::io {

// The most segments a fragment may have (minimap2's MM_MAX_SEG; a segment's number is
// 8 bits of an anchor).
inline constexpr uint32_t kMaxSegments = 255;

// A read name without a trailing `/<digit>` when it is at least 3 bytes long
// (mm_qname_len): the part compared to group segments, and the QNAME of a segment's SAM
// records.
[[nodiscard]] std::string_view fragment_name(std::string_view name);

// Records in input order and their fragments: fragment k is
// reads[frag_start[k], frag_start[k + 1]).
struct ReadBatch {
  std::vector<SeqRecord> reads;
  std::vector<uint32_t> frag_start;  // fragments + 1 entries (empty when no reads)
  size_t fragments() const { return frag_start.empty() ? 0 : frag_start.size() - 1; }
  bool empty() const { return reads.empty(); }
};

class ReadInput {
 public:
  // Opens every file (InputError if one cannot be opened). frag_mode: --frag=yes (set
  // by -x sr).
  ReadInput(const std::vector<std::string>& paths, bool frag_mode);
  // One reader already open, not in fragment mode; it must outlive this input.
  explicit ReadInput(SeqReader& reader);
  ReadInput(const ReadInput&) = delete;
  ReadInput& operator=(const ReadInput&) = delete;

  // Reads fragments until their total sequence length reaches min_bases (the fragment
  // crossing the threshold included) or the input ends; empty at the end.
  // name_and_seq_only: as SeqReader::next_batch.
  [[nodiscard]] ReadBatch next_batch(uint64_t min_bases, bool name_and_seq_only = false);

  // Starts reading the next batch, next_batch(min_bases, name_and_seq_only), on a thread
  // of its own; the next call of next_batch returns it (or rethrows what reading it
  // threw), whatever that call's min_bases. A batch boundary does not change any read's
  // output. agatha align reads the first batch while the index is built, as minimap2
  // reads it after. Asking next_batch for comments and qualities that the batch read
  // ahead left out is a logic error (Error).
  //
  // Only regular files are read ahead: returns false, and starts nothing, when an input
  // is standard input, a pipe or a device, whose reading could wait on its writer for as
  // long as that takes. An input destroyed before its batch is taken (an error elsewhere)
  // stops the reading at the next record.
  bool read_ahead(uint64_t min_bases, bool name_and_seq_only = false);
  ~ReadInput();

  bool frag_mode() const { return frag_mode_; }
  size_t files() const { return readers_.size(); }

 private:
  // next_batch, without the batch read ahead.
  ReadBatch read_batch(uint64_t min_bases, bool name_and_seq_only);
  // The next unit: one record, or one record of each file (several files). False at the
  // end of the input; InputError when only some files ended.
  bool next_unit(std::vector<SeqRecord>& unit);

  std::vector<std::unique_ptr<SeqReader>> owned_;
  std::vector<SeqReader*> readers_;
  bool frag_mode_ = false;
  size_t current_ = 0;  // not in fragment mode: the file being read
  std::vector<SeqRecord> pending_;  // a unit read ahead that starts the next fragment
  // read_ahead's batch, and the flag that stops its reading. Declared last: destroyed
  // (so waited for) before the readers.
  std::atomic<bool> stop_ahead_{false};
  std::future<ReadBatch> ahead_;
  bool ahead_name_and_seq_only_ = false;
};

}  // namespace agatha::io
