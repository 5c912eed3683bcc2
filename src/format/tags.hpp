// src/format/tags.hpp — the tags minimap2 2.24 prints about a region, in SAM records and
// PAF lines alike (format.c: write_tags), and the decimal format of its divergences.
//
// Functions append to a caller-owned string; they keep no state and are thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace agatha::format {

// What write_tags prints about one region, in its order:
//   [NM:i ms:i AS:i nn:i] [ts:A] tp:A cm:i s1:i [s2:i] de:f|dv:f [zd:i]
// The bracketed alignment tags and de:f belong to base-aligned regions; a region without
// an alignment prints dv:f instead of de:f, and only when its divergence is known.
struct RegionTags {
  bool aligned = true;
  int32_t nm = 0, ms = 0, as = 0, nn = 0;  // NM (edit distance), ms (dp_max), AS (dp_score), nn (N bases)
  char ts = 0;                             // splice mode: transcript strand '+' or '-'; 0 prints no ts:A
  char tp = 'P';                           // P primary, S secondary, I / i inversion primary / secondary
  int32_t cm = 0, s1 = 0;                  // anchors, chain score
  std::optional<int32_t> s2;               // best sub-optimal chain score; only for id == parent
  double de = 0.0;                         // aligned: gap-compressed divergence
  float dv = -1.0f;                        // unaligned: estimated divergence; printed within [0, 1]
  int32_t zd = 0;                          // split flags; printed when non-zero
};

// Appends the tags, each after a tab.
void append_region_tags(std::string& out, const RegionTags& t);

// A divergence as write_tags prints it: "%.4f", or "0" when exactly 0.
void append_divergence(std::string& out, double x);

}  // namespace agatha::format
