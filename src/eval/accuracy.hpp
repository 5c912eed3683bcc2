// src/eval/accuracy.hpp — mapping accuracy of one alignment file against the truth, in
// the convention of minimap2's `paftools.js mapeval`.
//
// Definitions (also printed by `agatha eval --help`):
//  - Each truth read is judged once, by its primary record (SAM: neither 0x100 nor
//    0x800; PAF: the first tp:A:P line of the read). A read whose primary is
//    unmapped, that has no primary, or that never appears counts as unmapped.
//  - The primary is correct when it lies on the true contig and strand and
//    overlap / union of its reference interval and the true one exceeds `overlap`
//    (0.1 by default): overlap = min(ends) - max(starts), union = max(ends) - min(starts).
//  - MAPQ is capped at 60. For a threshold Q:
//      mapped(Q) = reads whose primary is mapped with MAPQ >= Q (a cumulative count),
//      frac(Q)   = mapped(Q) / truth reads,
//      wrong(Q)  = reads among mapped(Q) whose primary is not correct,
//      error(Q)  = wrong(Q) / mapped(Q)  (0 when mapped(Q) is 0).
#pragma once

#include "alignment_file.hpp"
#include "truth.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace agatha::eval {

inline constexpr int kMaxMapq = 60;
inline constexpr size_t kExamples = 3;  // read names kept per anomaly, for messages

// True when ALN (mapped) lies on TRUE's contig and strand with overlap/union > RATIO.
bool is_correct(const Origin& truth, const AlnRecord& aln, double ratio);

struct Anomaly {
  size_t count = 0;
  std::vector<std::string> examples;  // the first kExamples read names
  void add(const std::string& read);
};

struct Threshold {
  int mapq = 0;
  uint64_t mapped = 0, wrong = 0;
  double frac = 0, error = 0;
};

struct AccuracyReport {
  std::string path;
  AlnFormat format = AlnFormat::kPaf;
  size_t truth_reads = 0, records = 0;
  size_t unmapped = 0;  // truth reads judged unmapped (all reasons below included)
  Anomaly absent;       // truth reads the file never mentions
  Anomaly no_primary;   // truth reads with only secondary/supplementary records
  Anomaly unknown;      // reads in the file but not in the truth (ignored)
  Anomaly duplicate;    // reads with more than one primary record (the first is judged)
  std::array<uint64_t, kMaxMapq + 1> mapped_at{}, wrong_at{};  // by (capped) MAPQ

  // The cumulative row for threshold Q (see the definitions above).
  Threshold at(int q) const;
};

// Reads PATH and judges it against TRUTH. Throws InputError on malformed input.
AccuracyReport evaluate(const Truth& truth, const std::string& path, double overlap);

// As evaluate(), with the truth taken from the file's own read names
// (parse_origin_name); throws InputError on a name that encodes no origin.
AccuracyReport evaluate_by_names(const std::string& path, double overlap);

}  // namespace agatha::eval
