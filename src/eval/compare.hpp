// src/eval/compare.hpp — read-by-read comparison of two alignment files (SAM, BAM or
// PAF, not necessarily the same format).
//
// Both files are held in memory, grouped by read name. For each read present in both,
// the primary records (AlnRecord::primary(); the first one if a file has several) are
// compared field by field, and all the read's records line by line for "identical".
#pragma once

#include "alignment_file.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace agatha::eval {

// What differs between the two versions of one read (bit set).
enum Diff : unsigned {
  kDiffPosition = 1u << 0,  // primary contig, start or strand (or mapped vs unmapped)
  kDiffCigar = 1u << 1,
  kDiffMapq = 1u << 2,
  kDiffTags = 1u << 3,
  kDiffRecords = 1u << 4,  // any record text, or the number of records
};

// "position,cigar,..." for a Diff set.
std::string diff_names(unsigned diffs);

struct ReadDiff {
  std::string read;
  unsigned diffs = 0;
  std::vector<std::string> ref_lines, test_lines;
};

struct CompareReport {
  std::string ref_path, test_path;
  size_t ref_reads = 0, test_reads = 0, both = 0;
  size_t identical = 0, same_position = 0, same_cigar = 0, same_mapq = 0, same_tags = 0;
  size_t missing = 0, extra = 0;  // reads only in REF, only in TEST
  std::vector<std::string> missing_examples, extra_examples;
  size_t ref_duplicate_primary = 0, test_duplicate_primary = 0;
  std::vector<ReadDiff> shown;  // the first `show` differing reads, in REF order

  bool all_identical() const { return identical == ref_reads && missing == 0 && extra == 0; }
};

// Compares TEST against REF; keeps up to SHOW differing reads. Throws InputError on
// malformed input.
CompareReport compare_files(const std::string& ref, const std::string& test, size_t show);

}  // namespace agatha::eval
