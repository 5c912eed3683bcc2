// src/io/aln_tags.hpp — what minimap2 2.24 writes about a base-level alignment beyond
// the CIGAR: the MD:Z and cs:Z difference strings (format.c: write_MD_core,
// write_cs_core, write_cs_or_MD), the --eqx CIGAR (align.c: mm_update_cigar_eqx), and
// the PAF line of `-c` (format.c: write_tags, mm_write_paf3).
//
// CIGARs use BAM's encoding: len << 4 | op, op in "MIDNSHP=X" order. `query` is the
// aligned part of the read on the alignment strand (reverse-complemented for a reverse
// alignment), `target` the aligned part of the forward reference, both as codes 0..4
// (A, C, G, T, anything else). Equality of codes decides match or mismatch, so N
// against N counts as identical in MD, cs and =/X, while NM and nn count it as
// ambiguous (spec 9.4).
//
// All functions are pure and thread-safe; they keep no references to their arguments.
// Those taking a CIGAR throw agatha::Error when it holds an op other than M, I, D, N,
// = or X, or does not span exactly `query` and `target`.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agatha::io {

// ---- difference strings ----

// The MD:Z value: matching bases counted, a mismatch as the count so far and the
// reference base, a deletion as the count, '^' and the deleted reference bases (upper
// case, N for code 4); N (intron) ops are skipped. Unlike the SAM specification a
// trailing count of 0 is left out ("10A", not "10A0").
std::string md_tag_value(std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                         std::span<const uint8_t> target);

// The cs:Z value: ":N" identical bases (long form: "=" and the bases, upper case),
// "*" reference base, read base for a mismatch, "+" inserted / "-" deleted bases, and
// "~" with the intron's first two bases, its length and last two bases; all bases lower
// case except those of "=".
std::string cs_tag_value(std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                         std::span<const uint8_t> target, bool long_form);

// Which difference tag the output carries: --MD wins over --cs (minimap2 writes one).
enum class DiffTag { kNone, kCsShort, kCsLong, kMd };
DiffTag diff_tag_kind(bool md, bool cs, bool cs_long);

// The whole tag without the leading tab, "MD:Z:..." or "cs:Z:...", empty for kNone.
std::string diff_tag(DiffTag kind, std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                     std::span<const uint8_t> target);

// ---- --eqx ----

// The CIGAR with every M op split into alternating runs of = (equal codes) and X; the
// other ops are copied. Runs never merge across the original ops, as in minimap2.
std::vector<uint32_t> eqx_cigar(std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                                std::span<const uint8_t> target);

// ---- PAF ----

// One base-aligned region as `minimap2 -c` prints it. Coordinates are 0-based, half
// open; [qs, qe) is on the read's forward strand.
struct PafRecord {
  std::string_view qname;
  int32_t qlen = 0, qs = 0, qe = 0;
  bool rev = false;
  std::string_view rname;
  int32_t rlen = 0, rs = 0, re = 0;
  int32_t mlen = 0, blen = 0;  // columns 10 and 11: the alignment's matches and length
  int mapq = 0;
  // Tags, in print order.
  int32_t nm = 0, ms = 0, as = 0, nn = 0;
  char ts = 0;    // splice mode: transcript strand '+' or '-'; 0 prints no ts:A
  char tp = 'P';  // P primary, S secondary, I / i inversion primary / secondary
  int32_t cm = 0, s1 = 0;
  std::optional<int32_t> s2;        // printed only for id == parent
  double de = 0.0;                  // printed "%.4f", or "0" when exactly 0
  int32_t zd = 0;                   // split flags; printed when non-zero
  int32_t rl = 0;                   // rep_len
  std::span<const uint32_t> cigar;  // cg:Z, BAM encoding
  std::string_view diff_tag;        // from diff_tag(); empty for none
  std::string_view comment;         // -y: the read's comment; empty for none
};

// Appends the line, '\n' included:
//   qname qlen qs qe +|- rname rlen rs re mlen blen mapq NM:i ms:i AS:i nn:i [ts:A]
//   tp:A cm:i s1:i [s2:i] de:f [zd:i] rl:i cg:Z [cs:Z|MD:Z] [comment]
void append_paf_aligned(std::string& out, const PafRecord& r);

// The line of a read without a region (--paf-no-hit):
//   qname qlen 0 0 * * 0 0 0 0 0 0 rl:i
void append_paf_unmapped(std::string& out, std::string_view qname, int32_t qlen, int32_t rl);

}  // namespace agatha::io
