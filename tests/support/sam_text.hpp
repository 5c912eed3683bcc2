// tests/support/sam_text.hpp — SAM as text for comparisons: split into header and record
// lines, and SAM/BAM files read back through htslib.
#pragma once

#include <string>
#include <vector>

namespace agatha::test {

// Header lines (each ending in '\n') and record lines (without).
struct SamText {
  std::string header;
  std::vector<std::string> records;
};

// Splits SAM lines into header and records; empty lines are skipped.
SamText split_sam(const std::vector<std::string>& lines);

// A SAM or BAM file read through htslib, records as sam_format1 prints them. A file that
// cannot be opened or read is a test failure (ADD_FAILURE / EXPECT), with what was read.
// format, if given, receives htslib's format of the file (htsExactFormat: bam, sam, ...).
SamText read_hts(const std::string& path, int* format = nullptr);

}  // namespace agatha::test
