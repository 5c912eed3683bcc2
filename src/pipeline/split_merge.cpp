// The scratch files of a split index, minimap2's merge_hits, and the passes that write
// and merge them (--split-prefix). See split_merge.hpp.
//
//   append_part_result / PartResultReader   one read's result in a part's file
//   merge_part_regions                      merge_hits for one read
//   map_reads_to_part                       a part's pass without base alignment
//   merge_parts                             mm_split_merge: the last pass
#include "split_merge.hpp"

#include <agatha/error.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <type_traits>

#include "../map/fragment.hpp"
#include "../util/parallel_for.hpp"
#include "batch_loop.hpp"

namespace agatha::pipeline {
namespace {

using map::Region;

// A result in the file: the header, then per region its fixed fields and its CIGAR.
struct ResultHeader {
  int32_t qlen, rep_len, frag_gap;
  uint32_t n_regions;
};
struct PackedRegion {
  int32_t id, cnt, rid, score, score0, qs, qe, rs, re, parent, subsc, as, mlen, blen, n_sub, mapq;
  int32_t dp_max, dp_max2, dp_score, n_ambi, n_gap, n_gapo, dp_max0;
  uint32_t hash;
  float div;
  uint32_t n_cigar;
  uint8_t flags, split, trans_strand;
  uint8_t pad;
};
static_assert(std::is_trivially_copyable_v<PackedRegion> && std::is_trivially_copyable_v<ResultHeader>);
static_assert(sizeof(PackedRegion) == 108 && sizeof(ResultHeader) == 16, "the sizes split_merge.hpp states");
constexpr uint8_t kRev = 1, kInv = 2, kStrandRetained = 4, kAligned = 8, kSamPri = 16, kProperFrag = 32, kSegSplit = 64,
                  kAlt = 128;
// No read has more regions than this (a sanity bound for a damaged file: minimap2 keeps
// at most -N secondaries per primary).
constexpr uint32_t kMaxRegions = 1u << 24;

PackedRegion pack(const Region& r) {
  PackedRegion p{};
  p.id = r.id, p.cnt = r.cnt, p.rid = r.rid, p.score = r.score, p.score0 = r.score0;
  p.qs = r.qs, p.qe = r.qe, p.rs = r.rs, p.re = r.re, p.parent = r.parent, p.subsc = r.subsc, p.as = r.as;
  p.mlen = r.mlen, p.blen = r.blen, p.n_sub = r.n_sub, p.mapq = r.mapq;
  p.dp_max = r.dp_max, p.dp_max2 = r.dp_max2, p.dp_score = r.dp_score, p.n_ambi = r.n_ambi, p.dp_max0 = r.dp_max0;
  p.n_gap = r.n_gap, p.n_gapo = r.n_gapo, p.hash = r.hash, p.div = r.div;
  p.n_cigar = static_cast<uint32_t>(r.cigar.size());
  p.flags = static_cast<uint8_t>((r.rev ? kRev : 0) | (r.inv ? kInv : 0) | (r.strand_retained ? kStrandRetained : 0) |
                                 (r.aligned ? kAligned : 0) | (r.sam_pri ? kSamPri : 0) |
                                 (r.proper_frag ? kProperFrag : 0) | (r.seg_split ? kSegSplit : 0) |
                                 (r.is_alt ? kAlt : 0));
  p.split = r.split, p.trans_strand = r.trans_strand;
  return p;
}

Region unpack(const PackedRegion& p) {
  Region r;
  r.id = p.id, r.cnt = p.cnt, r.rid = p.rid, r.score = p.score, r.score0 = p.score0;
  r.qs = p.qs, r.qe = p.qe, r.rs = p.rs, r.re = p.re, r.parent = p.parent, r.subsc = p.subsc, r.as = p.as;
  r.mlen = p.mlen, r.blen = p.blen, r.n_sub = p.n_sub, r.mapq = p.mapq;
  r.dp_max = p.dp_max, r.dp_max2 = p.dp_max2, r.dp_score = p.dp_score, r.n_ambi = p.n_ambi, r.dp_max0 = p.dp_max0;
  r.n_gap = p.n_gap, r.n_gapo = p.n_gapo, r.hash = p.hash, r.div = p.div;
  r.rev = (p.flags & kRev) != 0, r.inv = (p.flags & kInv) != 0, r.strand_retained = (p.flags & kStrandRetained) != 0;
  r.aligned = (p.flags & kAligned) != 0, r.sam_pri = (p.flags & kSamPri) != 0;
  r.proper_frag = (p.flags & kProperFrag) != 0, r.seg_split = (p.flags & kSegSplit) != 0;
  r.is_alt = (p.flags & kAlt) != 0;
  r.split = p.split, r.trans_strand = p.trans_strand;
  return r;
}

template <class T>
void append_pod(std::string& out, const T& v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

}  // namespace

void append_part_result(std::string& out, int32_t qlen, int32_t rep_len, std::span<const Region> regions,
                        int32_t frag_gap) {
  append_pod(out, ResultHeader{qlen, rep_len, frag_gap, static_cast<uint32_t>(regions.size())});
  for (const Region& r : regions) {
    append_pod(out, pack(r));
    out.append(reinterpret_cast<const char*>(r.cigar.data()), r.cigar.size() * sizeof(uint32_t));
  }
}

PartResultReader::PartResultReader(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "rb")) {
  if (!f_) throw Error("cannot open '" + path + "': " + std::strerror(errno));
}

PartResultReader::~PartResultReader() {
  if (f_) std::fclose(f_);
}

void PartResultReader::fail(const std::string& what) const { throw Error("'" + path_ + "': " + what); }

void PartResultReader::read(void* p, size_t n) {
  if (n == 0) return;
  if (std::fread(p, 1, n, f_) != n)
    fail(std::ferror(f_) ? std::string("read error: ") + std::strerror(errno)
                         : "ends before the results of every read");
}

void PartResultReader::next(PartResult& r) {
  ResultHeader h;
  read(&h, sizeof h);
  if (h.qlen < 0 || h.n_regions > kMaxRegions) fail("not a result agatha wrote");
  r.qlen = h.qlen, r.rep_len = h.rep_len, r.frag_gap = h.frag_gap;
  r.regions.resize(h.n_regions);
  for (Region& reg : r.regions) {
    PackedRegion p;
    read(&p, sizeof p);
    if (p.n_cigar > static_cast<uint32_t>(h.qlen) * 2 + 2) fail("not a result agatha wrote");
    reg = unpack(p);
    reg.cigar.resize(p.n_cigar);
    read(reg.cigar.data(), reg.cigar.size() * sizeof(uint32_t));
  }
}

void PartResultReader::expect_end() {
  if (std::fgetc(f_) != EOF) fail("holds results for more reads than were read again");
}

void merge_part_regions(std::vector<Region>& regs, int qlen, int32_t rep_len, int k, const AlignOptions& opt) {
  const map::RegionParams p = map::region_params(opt);
  if (!opt.sr && qlen >= opt.rank_min_len) map::update_dp_max(qlen, regs, opt.rank_frac, opt.a, opt.b);
  for (Region& r : regs) r.dp_max2 = 0, r.subsc = 0, r.n_sub = 0;  // recomputed over all parts
  map::hit_sort(regs, p.alt_drop);  // with each part's ALT marks, kept in its file
  map::set_parent(regs, p.mask_level, p.mask_len, p.sub_diff, p.hard_mask_level, p.alt_drop);
  if (!p.all_chains) {
    map::select_sub(regs, p.pri_ratio, k * 2, p.best_n, false, p.min_strand_sc, p.select_sub_decide_first);
    map::set_sam_pri(regs);
  }
  map::set_mapq(regs, p.min_chain_score, p.match_sc, rep_len, p.mapq_short_read, p.mapq_sr_splice);
  map::set_inversion_mapq(regs);
}

PipelineStats map_reads_to_part(const ReadMapper& mapper, io::SeqReader& reads, const RecordWriter& write, int threads,
                                uint64_t batch_bases) {
  io::ReadInput input(reads);
  return map_reads_to_part(mapper, input, write, threads, batch_bases);
}

PipelineStats map_reads_to_part(const ReadMapper& mapper, io::ReadInput& input, const RecordWriter& write, int threads,
                                uint64_t batch_bases, util::Progress* progress) {
  PipelineStats stats;
  run_batches(input, write, threads, batch_bases, true, stats,
              [&](const io::ReadBatch& rb, std::vector<std::string>& lines) {
                const std::span<const io::SeqRecord> reads(rb.reads);
                const std::vector<uint32_t>& fs = rb.frag_start;
                util::parallel_for(rb.fragments(), threads, [&](size_t f, int) {
                  const std::span<const io::SeqRecord> frag = reads.subspan(fs[f], fs[f + 1] - fs[f]);
                  const FragmentMapping m = mapper.map_fragment_as_read(frag);
                  for (size_t i = 0; i < frag.size(); ++i)
                    append_part_result(lines[fs[f]], static_cast<int32_t>(frag[i].seq.size()), m.segs[i].rep_len,
                                       m.segs[i].regions, m.segs[i].frag_gap);
                  count_done(progress, frag);
                });
              });
  return stats;
}

namespace {

// The merged output of one fragment (or read): each segment's regions of every part,
// merged (merge_hits), the two segments of a pair paired again over all parts (mm_pair
// with the fragment gap of the first part, whatever --no-pairing said), as records.
void merged_records(std::string& out, std::span<const io::SeqRecord> frag, std::span<std::vector<Region>> regs,
                    std::span<const int32_t> rep_len, int32_t frag_gap, const SplitParts& parts,
                    const AlignOptions& opt, const OutputOptions& oo, bool map_only) {
  for (size_t i = 0; i < frag.size(); ++i)
    merge_part_regions(regs[i], static_cast<int32_t>(frag[i].seq.size()), rep_len[i], parts.k, opt);
  if (frag.size() == 2 && opt.pe_ori >= 0 && !map_only)
    map::pair_segments(frag_gap, opt.pe_bonus, opt.a * 2 + opt.b, opt.a, regs[0], regs[1]);
  // merge_hits keeps rep_len for MAPQ only: the records print rl:i:0.
  if (!map_only) {
    std::vector<ReadRegions> segs;
    for (size_t i = 0; i < frag.size(); ++i) segs.push_back(ReadRegions{frag[i], regs[i], 0});
    append_fragment_records(out, segs, parts.refs, oo, opt.print_secondary, opt.copy_comment);
    return;
  }
  for (size_t i = 0; i < frag.size(); ++i) {
    const auto qlen = static_cast<int32_t>(frag[i].seq.size());
    for (const Region& r : regs[i]) {
      if (!opt.print_secondary && r.id != r.parent) continue;
      const index::RefSeq& rs = parts.refs[static_cast<size_t>(r.rid)];
      const int seg = frag.size() > 1 ? static_cast<int>(i) : -1;
      out += paf_line(paf_query_name(frag[i].name, seg, opt.rules()), qlen, rs.name, static_cast<int32_t>(rs.len), r, 0,
                      opt.qstrand);
    }
  }
}

}  // namespace

PipelineStats merge_parts(const SplitParts& parts, io::SeqReader& reads, const AlignOptions& opt,
                          const OutputOptions& oo, bool map_only, const RecordWriter& write, int threads,
                          uint64_t batch_bases) {
  io::ReadInput input(reads);
  return merge_parts(parts, input, opt, oo, map_only, write, threads, batch_bases);
}

PipelineStats merge_parts(const SplitParts& parts, io::ReadInput& input, const AlignOptions& opt,
                          const OutputOptions& oo_in, bool map_only, const RecordWriter& write, int threads,
                          uint64_t batch_bases, util::Progress* progress) {
  OutputOptions oo = oo_in;
  oo.release = opt.release;  // the records follow the release the options follow
  if (oo.eqx || oo.diff != format::DiffTag::kNone) throw Error("merge_parts: --eqx, --MD and --cs are the parts' own");
  std::vector<std::unique_ptr<PartResultReader>> files;
  for (const std::string& f : parts.files) files.push_back(std::make_unique<PartResultReader>(f));
  PipelineStats stats;
  std::vector<std::vector<Region>> regs;
  std::vector<int32_t> rep_len, frag_gap;
  PartResult r;
  run_batches(input, write, threads, batch_bases, map_only, stats,
              [&](const io::ReadBatch& rb, std::vector<std::string>& lines) {
                const std::vector<io::SeqRecord>& batch = rb.reads;
                // The parts' results in order (the files are read in one sequence), then
                // the merge and the records on the threads.
                regs.assign(batch.size(), {});
                rep_len.assign(batch.size(), 0);
                frag_gap.assign(batch.size(), 0);
                for (size_t i = 0; i < batch.size(); ++i) {
                  for (size_t j = 0; j < files.size(); ++j) {
                    files[j]->next(r);
                    if (j == 0) frag_gap[i] = r.frag_gap;
                    if (r.qlen != static_cast<int32_t>(batch[i].seq.size()))
                      throw Error("'" + parts.files[j] + "': read '" + batch[i].name + "' of " +
                                  std::to_string(batch[i].seq.size()) + " bases was mapped with " +
                                  std::to_string(r.qlen) + ": the reads changed between the passes");
                    rep_len[i] = std::max(rep_len[i], r.rep_len);
                    for (Region& reg : r.regions) {
                      reg.rid += static_cast<int32_t>(parts.first_rid[j]);
                      regs[i].push_back(std::move(reg));
                    }
                  }
                }
                const std::vector<uint32_t>& fs = rb.frag_start;
                util::parallel_for(rb.fragments(), threads, [&](size_t f, int) {
                  const size_t first = fs[f], n = fs[f + 1] - fs[f];
                  // the last segment's gap, as merge_hits keeps it (all segments have the same)
                  merged_records(lines[first], std::span<const io::SeqRecord>(batch).subspan(first, n),
                                 std::span<std::vector<Region>>(regs).subspan(first, n),
                                 std::span<const int32_t>(rep_len).subspan(first, n), frag_gap[first + n - 1], parts,
                                 opt, oo, map_only);
                  for (size_t i = first; i < first + n; ++i) std::vector<Region>().swap(regs[i]);
                  count_done(progress, std::span<const io::SeqRecord>(batch).subspan(first, n));
                });
              });
  for (auto& f : files) f->expect_end();
  return stats;
}

}  // namespace agatha::pipeline
