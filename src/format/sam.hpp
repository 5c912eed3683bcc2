// src/format/sam.hpp — SAM text exactly as minimap2 2.24 writes it (format.c:
// mm_write_sam_hdr, sam_write_rg_line, mm_write_sam3, write_sam_cigar, write_tags) for
// single reads and the segments of fragments. The caller decides which regions become records
// (--secondary=no, --sam-hit-only) and supplies every value; this file only formats.
//
// Functions append to a caller-owned string; they keep no state and are thread-safe.
#pragma once

#include <agatha/compat.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tags.hpp"

namespace agatha::format {

// The output switches that change a record's text.
struct SamOptions {
  bool soft_clip = false;   // -Y: S for supplementaries too, and SEQ/QUAL on every record
  bool long_cigar = false;  // -L: a CIGAR that BAM cannot hold (clips included) goes to CG:B:I
  std::string rg_id;        // ID of the -R read group; non-empty adds RG:Z to every record
  // --secondary-seq (2.31, MM_F_SECONDARY_SEQ): secondaries get SEQ/QUAL and hard clips as
  // supplementaries do (else SEQ and QUAL `*` and soft clips).
  bool secondary_seq = false;
};

// The most CIGAR ops -L leaves in the CIGAR field (BAM's limit is 65535; minimap2 keeps
// room for the two clips).
inline constexpr size_t kMaxSamCigarOps = 65533;

// The -R argument parsed: the @RG line with "\t" and "\\" escapes expanded (another
// backslash escape is dropped, as minimap2's mm_escape does) and its ID.
struct ReadGroup {
  std::string line;
  std::string id;
};

// Throws OptionError with minimap2's reasons: not starting with @RG, a literal tab, no
// ID, an ID longer than 255 characters. (minimap2 prints the reason and carries on
// without a read group.)
[[nodiscard]] ReadGroup parse_read_group(std::string_view arg);

struct SamReference {
  std::string_view name;
  int64_t length = 0;
};

// The header: `@HD VN:1.6 SO:unsorted GO:query` where the release writes it
// (ReleaseRules::sam_hd_line, minimap2 2.31), one @SQ per reference (pass none when the
// index has several parts), the @RG line when `read_group` is non-null, and `@PG
// ID:agatha PN:agatha VN:<version> DS:minimap2 <release> compatible CL:agatha <argv[1]>
// ...`. This @PG line is the one intended difference from minimap2.
void append_sam_header(std::string& out, std::span<const SamReference> refs, const ReadGroup* read_group,
                       std::span<const std::string> argv, const ReleaseRules& rules = rules_of(kDefaultRelease));
// The @SQ lines alone, as append_sam_header writes them (minimap2's mm_split_merge writes
// a split index's after the @PG line).
void append_sam_sq_lines(std::string& out, std::span<const SamReference> refs);

// The fields a segment of a fragment (a read of a pair) adds to its records
// (mm_write_sam3 with n_seg > 1): FLAG bits 0x1 and whichever of 0x2 (proper pair),
// 0x8 (mate unmapped), 0x20 (mate reverse), 0x40 (first), 0x80 (last) apply, RNEXT,
// PNEXT, TLEN, and FI:i with more than two segments.
struct SamMate {
  int flags = 0;
  std::string_view rnext = "*";  // "=" for the record's own reference
  int64_t pnext = 0;             // 1-based; 0 for none
  int64_t tlen = 0;
  int fi = -1;  // FI:i value; -1: no tag
};

// One aligned record. Coordinates are 0-based; [qs, qe) is on the read's forward strand.
struct SamRecord {
  std::string_view qname;
  std::string_view seq;   // the read as input (forward, case kept)
  std::string_view qual;  // empty for FASTA input or -Q: QUAL `*`
  bool rev = false;
  bool secondary = false;      // FLAG 0x100 (parent != id)
  bool supplementary = false;  // FLAG 0x800 (primary chain, not sam_pri); ignored if secondary
  std::string_view rname;
  int32_t rs = 0;  // POS - 1
  int32_t qs = 0, qe = 0;
  int mapq = 0;
  std::span<const uint32_t> cigar;  // the alignment, BAM encoding, without clips
  // Tags, in print order: [RG:Z] the region's, [SA:Z] [MD:Z|cs:Z] [CG:B:I] rl:i [comment].
  RegionTags tags;
  std::string_view sa;     // SA:Z value from format_sa, empty for none
  std::string_view md_cs;  // "MD:Z:..." or "cs:Z:..." (--MD / --cs), empty for none
  int32_t rl = 0;
  std::string_view comment;  // -y: the FASTQ comment, appended after a tab when non-empty
  const SamMate* mate = nullptr;  // a segment of a fragment; nullptr: a single read
};

void append_sam_record(std::string& out, const SamRecord& r, const SamOptions& opt);

// The record of a read without a region: `QNAME 4 * 0 0 * * 0 0 SEQ QUAL [RG:Z] rl:i`.
// A segment of a fragment (mate non-null) is placed at `rname`/`pos` (1-based; a
// mapped mate's position, or "*" and 0) and has the mate fields and FI:i.
void append_sam_unmapped(std::string& out, std::string_view qname, std::string_view seq, std::string_view qual,
                         int32_t rl, const SamOptions& opt, std::string_view comment = {},
                         const SamMate* mate = nullptr, std::string_view rname = "*", int64_t pos = 0);

// Another primary-chain region of the same read, as the SA tag lists it.
struct SaPart {
  std::string_view rname;
  int32_t rs = 0, re = 0, qs = 0, qe = 0;  // [qs, qe) on the forward strand
  bool rev = false;
  int mapq = 0;
  int32_t nm = 0;
};

// The SA:Z value: `rname,rs+1,strand,[clip5 S][M][I|D][clip3 S],mapq,NM;` per part, with
// M the shorter of the two spans and the surplus as I or D.
[[nodiscard]] std::string format_sa(std::span<const SaPart> parts, int32_t qlen);

// Reverse complement with minimap2's seq_comp_table (IUPAC codes, case kept, bytes >= 128
// unchanged).
[[nodiscard]] std::string reverse_complement(std::string_view seq);

}  // namespace agatha::format
