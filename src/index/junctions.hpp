// src/index/junctions.hpp — annotated introns for spliced alignment (--junc-bed), read
// and looked up as minimap2 2.24 does it (index.c: mm_idx_read_bed, mm_idx_bed_read,
// mm_idx_bed_junc).
//
// A BED line names a reference sequence, a 0-based half-open interval and, in its sixth
// column, a strand. A BED12 line (12 or more columns, a number of blocks in the tenth)
// gives one intron per gap between consecutive blocks; any other line is one intron
// itself. Lines naming an unknown sequence, with a negative start or end, or an empty
// interval are skipped, as minimap2 skips them; introns without a strand ('+' or '-') are
// kept but never marked.
//
// The file itself is read in the I/O layer (src/io/junction_bed.hpp: read_junction_bed),
// which hands each line to a Junctions::Builder.
//
// Threading: immutable once built; lookups are thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reference.hpp"

namespace agatha::index {

class Junctions {
 public:
  struct Intron {
    int32_t st = 0, en = 0;  // [st, en) on the reference
    int8_t strand = 0;       // 1 '+', -1 '-', 0 unknown
  };

  // Collects the introns of BED lines (given one at a time, without the newline)
  // against `ref`'s names.
  class Builder {
   public:
    explicit Builder(const Reference& ref) : ref_(ref), per_seq_(ref.size()) {}
    // Adds the introns of one line; false if minimap2 would skip the line.
    bool add_line(std::string_view line);
    Junctions finish() && { return Junctions(std::move(per_seq_)); }

   private:
    const Reference& ref_;
    std::vector<std::vector<Intron>> per_seq_;
  };

  Junctions() = default;
  // From introns per reference sequence (tests).
  explicit Junctions(std::vector<std::vector<Intron>> per_seq);

  bool empty() const { return per_seq_.empty(); }

  // Fills out[0 .. en - st) with the dp_junc bits of [st, en) of sequence rid: for each
  // intron wholly inside it, its first base gets kJuncForStart and its last kJuncForEnd
  // ('+'), or kJuncRevEnd and kJuncRevStart ('-'). Zeros where nothing is annotated.
  void mark(uint32_t rid, int32_t st, int32_t en, std::span<uint8_t> out) const;

 private:
  std::vector<std::vector<Intron>> per_seq_;  // each sorted by start
};

}  // namespace agatha::index
