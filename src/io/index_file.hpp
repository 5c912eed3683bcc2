// src/io/index_file.hpp — the minimizer index and its files: built from a FASTA/FASTQ
// file (read with SeqReader), loaded from an .agi file or from minimap2's .mmi
// (mmi_file.hpp), or written to an .agi file through OutputFile. src/index only builds
// from sequences handed to it and saves to a byte sink; the files are read and written
// here.
#pragma once

#include <agatha/options.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>

#include "../index/index.hpp"
#include "../index/index_parts.hpp"
#include "../util/progress.hpp"
#include "mmi_file.hpp"
#include "output_file.hpp"
#include "seq_reader.hpp"

namespace agatha::io {

// Reads the reference FASTA/FASTQ (plain, gzip or bgzip; "-" for standard input) and
// sketches it with opt.k, opt.w, opt.hpc. Throws InputError for an unreadable file, no
// sequences ("'PATH': no sequences") or duplicate names ("'PATH' record N: duplicate
// sequence name 'X'").
[[nodiscard]] index::MinimizerIndex build_index_from_file(const std::string& path, const AlignOptions& opt);

// The reference of `agatha align`, told by its first bytes, then by its name: a file
// starting with minimap2's index magic (has_mmi_magic) is loaded as a minimap2 .mmi, an
// .agi file (MinimizerIndex::is_agi_file) as agatha's index, each with its own k, w and
// HPC; any other file named *.mmi is loaded as .mmi too (and gets its error); anything
// else is read as FASTA/FASTQ and indexed with opt's k, w and HPC.
[[nodiscard]] index::MinimizerIndex load_or_build_index(const std::string& path, const AlignOptions& opt);

// The reference of `agatha align` as index parts, one at a time (minimap2's
// mm_idx_reader_read): a FASTA/FASTQ file is cut into parts of about opt.part_bases (-I)
// bases by minimap2's rule (index/index_parts.hpp), each indexed with opt's k, w and HPC
// when it is reached; an .agi file is one part; a minimap2 .mmi file holds one part or
// several, each read as it is reached. The file is told as load_or_build_index tells it.
// Only one part is in memory at a time: the caller drops a part before asking for the next.
// Sequence ids are the part's own (0 for its first sequence); first_rid() gives their
// offset in the whole reference. Sequence names are unique across all parts.
class IndexParts {
 public:
  // Opens the file; throws InputError if it cannot be opened. sequences_only: read it as
  // FASTA/FASTQ whatever it holds (`agatha index`).
  IndexParts(const std::string& path, const AlignOptions& opt, bool sequences_only = false);

  // The next part, or nullopt after the last. The first call throws InputError for a
  // reference without sequences ("'PATH': no sequences"); any call throws the index
  // builder's and readers' errors (duplicate names, with record numbers counted over
  // the whole file). With `progress`, a part built from sequences counts each sequence
  // and its bases as it is read, then goes to stage kBuilding while the part is built;
  // a part loaded from an index file counts nothing.
  static constexpr int kBuilding = 1;
  [[nodiscard]] std::optional<index::MinimizerIndex> next(util::Progress* progress = nullptr);
  // After next(): true when no part follows (minimap2's mm_idx_reader_eof).
  [[nodiscard]] bool at_end();
  // Parts returned so far, and the id in the whole reference of the first sequence of
  // the last part returned.
  [[nodiscard]] size_t parts_read() const { return parts_; }
  [[nodiscard]] uint32_t first_rid() const { return first_rid_; }
  // True for an index file (.agi, .mmi), whose parts -I does not decide.
  [[nodiscard]] bool from_index_file() const { return kind_ != Kind::kSequences; }

 private:
  enum class Kind { kSequences, kAgi, kMmi };
  // Reads the next record into ahead_ (reset at the end of the file) and feeds the part
  // rule its length.
  void read_ahead();
  [[nodiscard]] index::MinimizerIndex next_from_sequences(util::Progress* progress);

  std::string path_;
  AlignOptions opt_;
  Kind kind_;
  size_t parts_ = 0;
  uint32_t first_rid_ = 0, n_seqs_ = 0;
  // kSequences: the reader, the record read ahead (the next part's first) and its
  // number, the part rule and every name so far (unique across parts).
  std::unique_ptr<SeqReader> reader_;
  std::optional<SeqRecord> ahead_;
  uint64_t ahead_no_ = 0;
  bool ahead_starts_part_ = false;
  index::PartCutter cut_;
  std::unordered_set<std::string> names_;
  // kMmi
  std::unique_ptr<MmiParts> mmi_;
};

// Writes the .agi image of idx to out (closing it is the caller's: close() makes the
// file complete). Throws Error on a write failure.
void write_index(const index::MinimizerIndex& idx, OutputFile& out);
// Writes idx as the .agi file `path` (a regular file under a temporary name renamed when
// complete; see OutputFile).
void save_index(const index::MinimizerIndex& idx, const std::string& path);

}  // namespace agatha::io
