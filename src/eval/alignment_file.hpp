// src/eval/alignment_file.hpp — reads alignment records from SAM, BAM (both through
// htslib) or minimap2-style PAF, one record at a time, in file order. The format is
// detected from the content, not the name.
//
// Not thread-safe; one reader per file. Throws InputError naming the file and the
// record (SAM/BAM) or line (PAF) on malformed input.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace agatha::eval {

enum class AlnFormat { kSam, kBam, kPaf };

const char* format_name(AlnFormat f);

struct AlnRecord {
  std::string qname;
  bool mapped = false;
  // SAM: flag 0x100. PAF: tp:A:S, or (without a tp tag) s1 present and s2 absent, as
  // minimap2 writes secondaries.
  bool secondary = false;
  // SAM: flag 0x800. PAF marks supplementaries tp:A:P like the primary, so a tp:A:P
  // line that follows another tp:A:P line of the same read is taken as one.
  bool supplementary = false;
  std::string contig = "*";
  int64_t start = 0, end = 0;  // reference interval, 0-based, half-open
  char strand = '+';
  int mapq = 0;
  std::string cigar = "*";        // SAM column 6; PAF: the cg:Z value
  std::vector<std::string> tags;  // optional fields as written, sorted (PAF: cg excluded)
  std::string text;               // the record as one SAM or PAF line
  size_t record_no = 0;           // 1-based among the file's records (headers not counted)

  bool primary() const { return !secondary && !supplementary; }
};

class AlignmentReader {
 public:
  // Opens PATH and detects its format; throws InputError if it cannot be opened or is
  // none of SAM, BAM, PAF. An empty file is valid PAF without records.
  explicit AlignmentReader(const std::string& path);
  ~AlignmentReader();
  AlignmentReader(const AlignmentReader&) = delete;
  AlignmentReader& operator=(const AlignmentReader&) = delete;

  // The next record; false at the end of the file.
  bool next(AlnRecord& rec);
  AlnFormat format() const { return format_; }
  const std::string& path() const { return path_; }

 private:
  struct Sam;
  struct Paf;
  std::string path_;
  AlnFormat format_ = AlnFormat::kPaf;
  size_t n_records_ = 0;
  std::unique_ptr<Sam> sam_;
  std::unique_ptr<Paf> paf_;
};

}  // namespace agatha::eval
