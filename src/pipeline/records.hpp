// src/pipeline/records.hpp — the output records of one read from its final regions, as
// minimap2 2.24's worker_pipeline writes them (map.c, step 2: mm_write_sam3 for each
// region, or for an unmapped read; mm_write_paf3 with -c): SAM records with their SA
// tags, or PAF lines with the cg tag; --secondary=no, --sam-hit-only and --paf-no-hit
// decide which are written. The reference is only names and lengths here: whatever
// needs its bases (--eqx, --MD, --cs) comes in through a PrintRegion.
//
// Used by ReadAligner for a read it has just aligned, and by the merge of a split
// index (split_merge.hpp) for the regions of all parts. Thread-safe.
#pragma once

#include <agatha/compat.hpp>

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "../format/diff_tags.hpp"
#include "../format/sam.hpp"
#include "../index/reference.hpp"
#include "../io/seq_reader.hpp"
#include "../map/hit.hpp"

namespace agatha::pipeline {

// kRegions: no records, the regions themselves for the merge of a split index
// (--split-prefix; split_merge.hpp: append_part_result).
enum class OutputKind { kSam, kPaf, kRegions };

// What the records look like beyond AlignOptions.
struct OutputOptions {
  OutputKind kind = OutputKind::kSam;
  // The minimap2 release whose records to write (AlignOptions::release; ReadAligner and
  // merge_parts take it from their AlignOptions).
  Release release = kDefaultRelease;
  [[nodiscard]] const ReleaseRules& rules() const { return rules_of(release); }
  format::SamOptions sam;                         // -Y, -L, -R's ID
  bool sam_hit_only = false;                      // --sam-hit-only: no record for an unmapped read
  bool paf_no_hit = false;                        // --paf-no-hit: a PAF line for an unmapped read
  format::DiffTag diff = format::DiffTag::kNone;  // --MD / --cs[=long]
  bool eqx = false;                               // --eqx: =/X instead of M
  bool paf_cg = true;                             // PAF: the cg tag (minimap2's -c; --cs alone aligns without it)
  bool no_qual = false;                           // -Q: SAM QUAL `*`
  bool qstrand = false;  // --qstrand: a reverse-strand region's rs/re are on that strand (PAF writes them back)
};

// The CIGAR to print (empty: the region's own) and the MD/cs tag (empty: none) of an
// aligned region.
struct PrintedRegion {
  std::vector<uint32_t> cigar;
  std::string diff_tag;
};
using PrintRegion = std::function<PrintedRegion(const map::Region&)>;

// A read's final regions in output order, and the rl:i value of its records.
struct ReadRegions {
  const io::SeqRecord& read;
  std::span<const map::Region> regions;
  int32_t rep_len = 0;
};

// Appends the read's SAM records (oo.kind kSam) or PAF lines (kPaf). refs[rid] names
// each region's reference sequence. print_secondary: --secondary; copy_comment: -y.
// `printed`, when given, supplies the printed CIGAR and MD/cs tag of each region.
void append_records(std::string& out, const ReadRegions& rr, std::span<const index::RefSeq> refs,
                    const OutputOptions& oo, bool print_secondary, bool copy_comment, const PrintRegion& printed = {});

// The records of a fragment's segments, segment after segment: SAM records as
// mm_write_sam3 writes them for n_seg > 1 (QNAME without a trailing /1 /2, FLAG's pair
// bits, RNEXT/PNEXT/TLEN from the next segment's SAM primary, an unmapped segment placed
// at its mate's position, FI:i with more than two segments), or each segment's PAF lines
// as for a read (2.24's mm_write_paf3 knows nothing of fragments; 2.31's mm_write_paf4
// appends "/1", "/2" ... to the query name: ReleaseRules::paf_segment_suffix). A
// fragment of one segment is a read. printed(seg, region) as PrintRegion.
using PrintSegmentRegion = std::function<PrintedRegion(size_t, const map::Region&)>;
void append_fragment_records(std::string& out, std::span<const ReadRegions> segs, std::span<const index::RefSeq> refs,
                             const OutputOptions& oo, bool print_secondary, bool copy_comment,
                             const PrintSegmentRegion& printed = {});

}  // namespace agatha::pipeline
