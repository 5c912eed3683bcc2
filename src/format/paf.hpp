// src/format/paf.hpp — PAF lines exactly as minimap2 2.24 writes them (format.c:
// mm_write_paf3 with write_tags): a mapping without base alignment (minimap2 without -c),
// a base-aligned region (-c: with the cg:Z CIGAR), and a read without a region
// (--paf-no-hit).
//
// Functions append to a caller-owned string; they keep no state and are thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "tags.hpp"

namespace agatha::format {

// One region. Coordinates are 0-based, half open; [qs, qe) is on the read's forward
// strand.
struct PafRecord {
  std::string_view qname;
  int32_t qlen = 0, qs = 0, qe = 0;
  bool rev = false;
  std::string_view rname;
  int32_t rlen = 0, rs = 0, re = 0;
  int32_t mlen = 0, blen = 0;  // columns 10 and 11: matching bases and alignment block length
  int mapq = 0;
  RegionTags tags;                  // tags.aligned: a base-aligned region (-c)
  int32_t rl = 0;                   // rep_len
  std::span<const uint32_t> cigar;  // cg:Z of an aligned region, BAM encoding
  std::string_view diff_tag;        // "MD:Z:..." or "cs:Z:..." (--MD / --cs); empty for none
  std::string_view comment;         // -y: the read's comment; empty for none
  bool cg = true;                   // the cg:Z tag of an aligned region (minimap2 -c); without -c,
                                    // --cs aligns but prints no cg
};

// Appends the line, '\n' included:
//   qname qlen qs qe +|- rname rlen rs re mlen blen mapq <region tags> rl:i
//   [cg:Z (aligned)] [cs:Z|MD:Z] [comment]
void append_paf(std::string& out, const PafRecord& r);

// The line of a read without a region (--paf-no-hit):
//   qname qlen 0 0 * * 0 0 0 0 0 0 rl:i
void append_paf_unmapped(std::string& out, std::string_view qname, int32_t qlen, int32_t rl);

}  // namespace agatha::format
