// src/pipeline/split_merge.hpp — mapping against a split index with --split-prefix, as
// minimap2 2.24 does it (map.c: worker_pipeline's output step with split_prefix,
// merge_hits, mm_split_merge; splitidx.c: mm_split_init, mm_split_merge_prep,
// mm_split_rm_tmp).
//
// Each index part maps every read; instead of records, each read's final regions (CIGARs
// included) and rep_len go to a scratch file of the part's own (append_part_result; the
// files are named PREFIX.0000.tmp, ... as minimap2 names them, see io::ScratchSeries).
// Then a last pass reads the reads once more and, for each read, the results of every
// part in part order, merges them (merge_part_regions) and writes the read's records
// once, naming sequences in the whole reference (a part's sequence ids are shifted by
// the number of sequences of the parts before it). So memory holds one part's index at
// a time and, in the last pass, one batch of reads (-K) with their regions; the scratch
// files hold every read's regions of every part (16 bytes a read and part, 108 a region,
// 4 a CIGAR operation).
//
// Fragments (read pairs) as minimap2 does them: each part's pass maps, aligns and pairs
// the fragment and stores each segment's regions (on the read's own strand, with the
// proper-pair flags the part's pairing set) and the fragment gap; the merge merges each
// segment's regions over the parts and runs mm_pair once more on the merged regions of
// a pair, with the first part's fragment gap, also with --no-pairing.
//
// What minimap2 does, and agatha with it (all checked against minimap2 2.24's output):
//   - the merged regions' MAPQ uses the largest rep_len of the parts, but every record
//     prints rl:i:0 (merge_hits keeps rep_len for mm_set_mapq only);
//   - each part's alignment leaves out mm_update_dp_max (align_skeleton), which the merge
//     runs over all parts' regions (2.31 too with all chains, as its mm_split_merge does);
//     the scratch records keep each region's dp_max0 for 2.31's ms:i; the merge also forgets each region's subsc, n_sub
//     and dp_max2 before mm_set_parent recomputes them over all parts;
//   - the SAM header holds every part's @SQ lines, after @PG;
//   - with --alt each part marks the regions on its own ALT contigs (mm_mark_alt with the
//     part's list); the marks are kept in the scratch files and the merge's sort and
//     parent selection scale those regions' scores by 1 - --alt-drop, as each part's did;
//   - --MD and --cs are refused (the merge has no reference bases); --eqx is kept: each
//     part stores its regions' =/X CIGARs.
#pragma once

#include <agatha/options.hpp>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "../index/reference.hpp"
#include "../io/read_input.hpp"
#include "../io/seq_reader.hpp"
#include "../map/hit.hpp"
#include "batch_aligner.hpp"
#include "read_mapper.hpp"
#include "records.hpp"

namespace agatha::pipeline {

// ---- a part's scratch file: one result per read, in input order ----

// One read's result against one part.
struct PartResult {
  int32_t qlen = 0;  // the read's length, checked against the read in the merge
  int32_t rep_len = 0;
  int32_t frag_gap = 0;              // the fragment gap of mm_pair (the read's fragment)
  std::vector<map::Region> regions;  // final, in output order; sequence ids the part's own
};

// Appends the result of a read of qlen bases to `out`, as PartResultReader reads it back
// (agatha's own layout, written and read by the same binary: host byte order).
void append_part_result(std::string& out, int32_t qlen, int32_t rep_len, std::span<const map::Region> regions,
                        int32_t frag_gap = 0);

// Reads a part's scratch file back, result by result.
class PartResultReader {
 public:
  // Throws Error "cannot open 'PATH': REASON".
  explicit PartResultReader(const std::string& path);
  ~PartResultReader();
  PartResultReader(const PartResultReader&) = delete;
  PartResultReader& operator=(const PartResultReader&) = delete;

  // The next read's result. Throws Error "'PATH': ..." at the end of the file, on a read
  // error or on a record that is not one append_part_result writes.
  void next(PartResult& r);
  // Throws Error unless every result has been read.
  void expect_end();

 private:
  void read(void* p, size_t n);
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_;
  std::FILE* f_ = nullptr;
};

// ---- minimap2's merge_hits ----

// Merges the regions of one read from all parts, given concatenated in part order with
// sequence ids in the whole reference: mm_update_dp_max (reads of at least rank_min_len
// bases), subsc, n_sub and dp_max2 forgotten, mm_hit_sort and mm_set_parent (ALT regions scaled by --alt-drop), mm_select_sub
// (without the strand rescue) and mm_set_sam_pri (unless all chains are kept),
// mm_set_mapq with rep_len and mm_set_inv_mapq. k: the index's k-mer size.
void merge_part_regions(std::vector<map::Region>& regs, int qlen, int32_t rep_len, int k, const AlignOptions& opt);

// ---- the passes ----

// A part's pass of --map-only with --split-prefix: every read or fragment mapped
// (ReadMapper::map_fragment_as_read),
// its result appended to `write` in input order; batches, threads and `progress` as
// map_reads.
PipelineStats map_reads_to_part(const ReadMapper& mapper, io::ReadInput& reads, const RecordWriter& write, int threads,
                                uint64_t batch_bases, util::Progress* progress = nullptr);
PipelineStats map_reads_to_part(const ReadMapper& mapper, io::SeqReader& reads, const RecordWriter& write, int threads,
                                uint64_t batch_bases);

// What the merge needs from the parts' passes.
struct SplitParts {
  std::vector<std::string> files;   // the scratch files, in part order
  std::vector<uint32_t> first_rid;  // per part: the id of its first sequence in the whole reference
  std::vector<index::RefSeq> refs;  // the whole reference's names and lengths
  int k = 0;                        // the index's k-mer size (minimap2 takes the last part's)
};

// The last pass (mm_split_merge): reads every read of `reads` again, with the next result
// of every part's file, and writes the merged records in input order — SAM or PAF as
// oo.kind says (oo.eqx and oo.diff must be off: the CIGARs are printed as stored), or with
// map_only the mapping-only PAF lines. Batches (-K) and threads as align_reads. Throws
// Error when a file ends early, holds results for more reads, or a result's read length
// is not the read's (the reads changed between the passes). `progress`, if given, counts
// each fragment's reads and bases as its records are made.
PipelineStats merge_parts(const SplitParts& parts, io::ReadInput& reads, const AlignOptions& opt,
                          const OutputOptions& oo, bool map_only, const RecordWriter& write, int threads,
                          uint64_t batch_bases, util::Progress* progress = nullptr);
PipelineStats merge_parts(const SplitParts& parts, io::SeqReader& reads, const AlignOptions& opt,
                          const OutputOptions& oo, bool map_only, const RecordWriter& write, int threads,
                          uint64_t batch_bases);

}  // namespace agatha::pipeline
