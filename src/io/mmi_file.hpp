// src/io/mmi_file.hpp — minimap2's own index files (.mmi, written by `minimap2 -d`) as
// the reference of `agatha align`. A minimap2 2.24 index is read into a MinimizerIndex
// that holds what minimap2's mm_idx_load gives it — k, w, the HPC flag, the sequence
// names, lengths and bases, and every minimizer's occurrences — so mapping against it is
// mapping against the index minimap2 loads.
//
// The file is not trusted: every count is checked against the bytes the file still
// holds before anything is allocated for it, and every field later code indexes with
// (sequence ids and positions in occurrences, occurrence ranges, base codes) is checked,
// so a damaged, truncated or hostile file is an InputError naming the file, never a bad
// memory access. Refused with a message: another format version (magic other than
// "MMI\2") and an index built with --idx-no-seq (no bases to align to). A multi-part
// index (minimap2 -d with -I smaller than the reference: one image per part, one after
// another) is read part by part (MmiParts); load_mmi wants a single part.
//
// write_mmi writes an index as minimap2 2.24's mm_idx_dump does, byte for byte the file
// `minimap2 -d` writes for the same reference and options (mmi_writer.cpp); a multi-part
// index is its parts written one after another.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "../index/index.hpp"

namespace agatha::io {

// True when the file starts with "MMI", the magic of minimap2's index files without its
// version byte (so that another version gets load_mmi's error rather than the FASTA
// reader's), or is a non-empty file shorter than that holding the start of it. False for
// anything else, including a file that cannot be opened.
[[nodiscard]] bool has_mmi_magic(const std::string& path);

class MmiReader;  // the checked reader of the file (mmi_file.cpp)

// The parts of a minimap2 2.24 index file in order, one at a time, each checked as
// load_mmi checks a whole file (mm_idx_reader_read on an index: one mm_idx_load a part).
class MmiParts {
 public:
  // Throws InputError if the file cannot be opened.
  explicit MmiParts(const std::string& path);
  ~MmiParts();
  MmiParts(const MmiParts&) = delete;
  MmiParts& operator=(const MmiParts&) = delete;

  // The next part; nullopt after the last. Throws InputError as load_mmi does (the first
  // part's magic and version included).
  [[nodiscard]] std::optional<index::MinimizerIndex> next();
  // After next(): true when no part follows. Throws InputError for data after a part
  // that is not another part.
  [[nodiscard]] bool at_end();
  [[nodiscard]] size_t parts_read() const { return parts_; }
  // Throws InputError "'PATH' is not a valid minimap2 index (.mmi): PROBLEM".
  [[noreturn]] void fail(const std::string& problem) const;

 private:
  std::unique_ptr<MmiReader> in_;
  size_t parts_ = 0;
  bool next_magic_read_ = false;  // at_end() read the magic of the part next() reads
};

// Reads the minimap2 2.24 index `path`. Throws InputError "'PATH' is not a valid minimap2
// index (.mmi): PROBLEM" for a file that is not one, is of another version, is truncated
// or inconsistent, or that agatha cannot map against (see above), or that holds more than
// one part.
[[nodiscard]] index::MinimizerIndex load_mmi(const std::string& path);

// Hands the minimap2 2.24 index image of idx (one part) to `out`, as mm_idx_dump writes
// it: with_bases false is --idx-no-seq (flag 2, no bases). Throws InputError, before
// anything is written, for what the format cannot hold: a sequence name longer than 255
// bytes (minimap2 stores its length in one byte, and would write a cut name), or more
// than 2^32 - 1 distinct hashes. The buckets are laid out on `threads` threads; the
// bytes do not depend on their number.
void write_mmi(const index::MinimizerIndex& idx, bool with_bases, const index::MinimizerIndex::ByteSink& out,
               int threads = 1);

}  // namespace agatha::io
