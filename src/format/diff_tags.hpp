// src/format/diff_tags.hpp — the MD:Z and cs:Z difference strings minimap2 2.24 writes
// about a base-level alignment (format.c: write_MD_core, write_cs_core, write_cs_or_MD),
// and 2.31's ds:Z (write_cs_ds_core, write_indel_ds).
//
// CIGARs use BAM's encoding (agatha/cigar.hpp). `query` is the
// aligned part of the read on the alignment strand (reverse-complemented for a reverse
// alignment), `target` the aligned part of the forward reference, both as codes 0..4
// (A, C, G, T, anything else). Equality of codes decides match or mismatch, so N
// against N counts as identical in MD, cs and =/X, while NM and nn count it as
// ambiguous.
//
// All functions are pure and thread-safe; they keep no references to their arguments.
// Those taking a CIGAR throw agatha::Error when it holds an op other than M, I, D, N,
// = or X, or does not span exactly `query` and `target`.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace agatha::format {

// The MD:Z value: matching bases counted, a mismatch as the count so far and the
// reference base, a deletion as the count, '^' and the deleted reference bases (upper
// case, N for code 4); N (intron) ops are skipped. Unlike the SAM specification a
// trailing count of 0 is left out ("10A", not "10A0").
[[nodiscard]] std::string md_tag_value(std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                                       std::span<const uint8_t> target);

// The cs:Z value: ":N" identical bases (long form: "=" and the bases, upper case),
// "*" reference base, read base for a mismatch, "+" inserted / "-" deleted bases, and
// "~" with the intron's first two bases, its length and last two bases; all bases lower
// case except those of "=".
[[nodiscard]] std::string cs_tag_value(std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                                       std::span<const uint8_t> target, bool long_form);

// The ds:Z value (minimap2 2.31's --ds): cs (long_form as --cs=long), but an inserted or
// deleted run has the bases it shares with its flanks bracketed: "[first]" the bases it
// could also be placed after (its first bases, equal to those that follow it), "[last]"
// those it could be placed before (its last bases, equal to those before it), and the
// whole run bracketed once when the two cover it ("+[ac]" for an AC inserted into ACAC).
[[nodiscard]] std::string ds_tag_value(std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                                       std::span<const uint8_t> target, bool long_form);

// Which difference tag the output carries: --MD wins over --ds, --ds over --cs (minimap2
// writes one); --ds takes --cs=long's long form.
enum class DiffTag { kNone, kCsShort, kCsLong, kMd, kDsShort, kDsLong };
[[nodiscard]] DiffTag diff_tag_kind(bool md, bool cs, bool cs_long, bool ds = false);

// The whole tag without the leading tab, "MD:Z:...", "cs:Z:..." or "ds:Z:...", empty for
// kNone.
[[nodiscard]] std::string diff_tag(DiffTag kind, std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                                   std::span<const uint8_t> target);

}  // namespace agatha::format
