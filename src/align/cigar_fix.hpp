// src/align/cigar_fix.hpp — the clean-up of a base-level alignment's CIGAR, the
// statistics minimap2 2.24 derives from it (align.c: mm_fix_cigar, mm_update_extra;
// format.c: mm_event_identity) and its =/X form (align.c: mm_update_cigar_eqx).
//
// CIGARs use BAM's encoding (agatha/cigar.hpp).
// Sequences are nucleotide codes 0..4 (A, C, G, T, other); 4 is "N" on either side.
// All functions are pure and thread-safe; they keep no references to their arguments.
#pragma once

#include <agatha/cigar.hpp>
#include <agatha/dp.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace agatha::align {

// What the region's coordinates lose when fix_cigar drops a leading I (query) or D
// (target): the aligned query/target now start that many bases later.
struct CigarShift {
  int32_t qshift = 0, tshift = 0;
};

// mm_fix_cigar, in place: left-shift I/D flanked by M, rewrite I/D runs of >= 3
// ops that start with an adjacent I,D or D,I pair as one I and one D, squeeze out
// zero-length ops and merge neighbours (only when something changed, as minimap2 does),
// drop a leading I or D. `query` is the aligned part of the read on the alignment strand,
// `target` the aligned part of the forward reference. Throws agatha::Error when the
// CIGAR does not span exactly `query` and `target`. A CIGAR of 0 or 1 ops is unchanged.
[[nodiscard]] CigarShift fix_cigar(std::vector<uint32_t>& cigar, std::span<const uint8_t> query,
                                   std::span<const uint8_t> target);

// The scoring dp_max is computed with: DpScoring::substitution for each M column; each
// gap costs q + e * mg_log2(1 + len) (log_gap, the long-read presets) or q + e (sr).
struct StatsScoring : DpScoring {
  bool log_gap = true;
};

// Statistics of a fixed CIGAR (mm_update_extra): mlen = M columns that match, blen =
// columns without an N, n_ambi = N bases in M columns and gaps, n_diff = mismatching M
// columns, n_gap / n_gapo = I+D bases / I and D ops, dp_max = best local score.
struct AlignmentStats {
  int32_t mlen = 0, blen = 0, n_ambi = 0, n_diff = 0, n_gap = 0, n_gapo = 0;
  int32_t dp_max = 0;
};

// Stats of `cigar` over `query` and `target` (mm_update_extra without the fixing). Throws
// agatha::Error when the CIGAR does not span them exactly.
[[nodiscard]] AlignmentStats alignment_stats(std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                                             std::span<const uint8_t> target, const StatsScoring& sc);

// A region's aligned coordinates: query [qs, qe) on the read's forward strand, target
// [rs, re); rev when the read aligns reverse-complemented.
struct AlignedSpan {
  int32_t qs = 0, qe = 0, rs = 0, re = 0;
  bool rev = false;
};

// mm_update_extra: fix_cigar, the coordinate adjustment of a dropped leading I (qs += L,
// or qe -= L when rev) or D (rs += L), then the statistics of the fixed CIGAR (left
// zero without `stats`: an alignment on provisional DP answers, dp_rounds.hpp).
[[nodiscard]] AlignmentStats update_extra(AlignedSpan& span, std::vector<uint32_t>& cigar,
                                          std::span<const uint8_t> query, std::span<const uint8_t> target,
                                          const StatsScoring& sc, bool stats = true);

// de:f (mm_event_identity, write_tags): 1 - mlen / (blen + n_ambi - n_gap + n_gapo), gap-compressed divergence.
[[nodiscard]] double divergence(const AlignmentStats& s);

// NM:i (write_tags): mismatches, N positions and indel bases, blen - mlen + n_ambi.
[[nodiscard]] inline int32_t edit_distance(const AlignmentStats& s) { return s.blen - s.mlen + s.n_ambi; }

// mm_update_cigar_eqx (--eqx): every M op split into alternating runs of = (equal
// codes) and X; the other ops are copied. Runs never merge across the original ops.
// N against N counts as equal. Throws agatha::Error when the CIGAR does not span
// exactly `query` and `target`.
[[nodiscard]] std::vector<uint32_t> eqx_cigar(std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                                              std::span<const uint8_t> target);

}  // namespace agatha::align
