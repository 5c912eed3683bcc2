// Mapping one read: the stages of src/index and src/map in minimap2's order (map.c:
// mm_map_frag with n_segs == 1 and no base alignment; format.c: mm_write_paf3 for the
// output). See read_mapper.hpp.
#include "read_mapper.hpp"

#include <algorithm>
#include <span>

#include "../align/cigar_fix.hpp"
#include "../io/junction_bed.hpp"
#include "../io/line_reader.hpp"
#include "../format/paf.hpp"
#include "../format/sam.hpp"
#include "../map/fragment.hpp"
#include "../map/est_err.hpp"
#include "../map/seed.hpp"

namespace agatha::pipeline {
namespace {

// Thomas Wang's 32-bit integer hash.
uint32_t wang_hash(uint32_t key) {
  key += ~(key << 15);
  key ^= key >> 10;
  key += key << 3;
  key ^= key >> 6;
  key += ~(key << 11);
  key ^= key >> 16;
  return key;
}

}  // namespace

uint32_t read_hash(std::string_view qname, int qlen, int seed, bool hash_name) {
  uint32_t h = 0;
  if (hash_name && !qname.empty()) {  // X31 over the name's bytes as (signed) char
    h = static_cast<uint32_t>(static_cast<signed char>(qname[0]));
    if (h != 0)
      for (size_t i = 1; i < qname.size() && qname[i] != '\0'; ++i)
        h = (h << 5) - h + static_cast<uint32_t>(static_cast<signed char>(qname[i]));
  }
  h ^= wang_hash(static_cast<uint32_t>(qlen)) + wang_hash(static_cast<uint32_t>(seed));
  return wang_hash(h);
}

std::vector<map::Region> regions_unaligned(std::string_view qname, int qlen, int k, int rep_len,
                                           const map::Chains& chains, const std::vector<uint64_t>& mini_pos,
                                           const std::vector<int32_t>& ref_lens, const map::RegionParams& p) {
  std::vector<map::Region> regs =
      map::gen_regions(read_hash(qname, qlen, p.seed, p.hash_name), qlen, chains, p.qstrand);
  map::mark_alt(regs, p.alt_refs, p.alt_drop);
  if (!p.all_chains) {
    map::set_parent(regs, p.mask_level, p.mask_len, p.sub_diff, p.hard_mask_level, p.alt_drop);
    map::select_sub(regs, p.pri_ratio, k * 2, p.best_n, true, p.min_strand_sc, p.select_sub_decide_first);
  }
  if (!p.short_read && !p.qstrand) {
    map::estimate_divergence(regs, qlen, chains.anchors.data(), mini_pos, ref_lens);
    map::filter_strand_retained(regs, p.select_sub_decide_first);
  }
  map::set_mapq(regs, p.min_chain_score, p.match_sc, rep_len, p.mapq_short_read, p.mapq_sr_splice);
  return regs;
}

std::string paf_query_name(std::string_view name, int seg, const ReleaseRules& rules) {
  std::string s(name);
  if (seg >= 0 && rules.paf_segment_suffix) s += '/', s += std::to_string(seg + 1);
  return s;
}

format::RegionTags region_tags(const map::Region& r, bool ms_dp_max0) {
  format::RegionTags t;
  t.aligned = r.aligned;
  if (r.aligned) {
    align::AlignmentStats s;
    s.mlen = r.mlen, s.blen = r.blen, s.n_ambi = r.n_ambi, s.n_gap = r.n_gap, s.n_gapo = r.n_gapo;
    t.nm = align::edit_distance(s), t.ms = ms_dp_max0 ? r.dp_max0 : r.dp_max, t.as = r.dp_score, t.nn = r.n_ambi;
    t.de = align::divergence(s);
  }
  if (r.aligned && (r.trans_strand == 1 || r.trans_strand == 2)) t.ts = r.trans_strand == 1 ? '+' : '-';
  t.tp = r.id == r.parent ? (r.inv ? 'I' : 'P') : (r.inv ? 'i' : 'S');
  t.cm = r.cnt, t.s1 = r.score;
  if (r.id == r.parent) t.s2 = r.subsc;
  t.dv = r.div;
  t.zd = r.split;
  return t;
}

std::string paf_line(std::string_view qname, int qlen, std::string_view rname, int32_t rlen, const map::Region& r,
                     int rep_len, bool qstrand) {
  format::PafRecord p;
  p.qname = qname, p.qlen = qlen, p.qs = r.qs, p.qe = r.qe, p.rev = r.rev;
  p.rname = rname, p.rlen = rlen, p.rs = r.rs, p.re = r.re;
  if (qstrand && r.rev) p.rs = rlen - r.re, p.re = rlen - r.rs;  // back to the forward strand (mm_write_paf3)
  p.mlen = r.mlen, p.blen = r.blen, p.mapq = r.mapq;
  p.tags = region_tags(r, false);  // unaligned: no ms:i
  p.rl = rep_len;
  std::string s;
  format::append_paf(s, p);
  return s;
}

ReadMapper::ReadMapper(const index::MinimizerIndex& idx, const AlignOptions& opt)
    : idx_(idx),
      opt_(opt),
      mid_occ_(index::resolve_mid_occ(idx, opt)),
      chain_(map::chain_params(opt)),
      region_(map::region_params(opt)) {
  const index::Reference& ref = idx.reference();
  ref_lens_.reserve(ref.size());
  for (uint32_t i = 0; i < ref.size(); ++i) ref_lens_.push_back(static_cast<int32_t>(ref.seq(i).len));
  // minimap2 reads the annotation for each index part (mm_idx_bed_read).
  if (!opt.junc_bed.empty()) junctions_ = io::read_junction_bed(opt.junc_bed, ref);
  // --alt, read for each index part as minimap2 does (mm_idx_alt_read): the first word of
  // each line names an ALT contig; names not in this part are passed over. With none
  // found the list stays empty (minimap2's n_alt == 0: no re-sort).
  if (!opt.alt_list.empty()) {
    io::LineReader in(opt.alt_list);
    std::vector<uint8_t> alt(ref.size(), 0);
    bool any = false;
    for (std::string line; in.next(line);) {
      const int64_t rid = ref.find(std::string_view(line).substr(0, line.find_first_of(" \t\r\v\f")));
      if (rid >= 0) alt[static_cast<size_t>(rid)] = 1, any = true;
    }
    if (any) region_.alt_refs = std::move(alt);
  }
}

ReadMapping ReadMapper::map(std::string_view name, std::string_view seq, int threads) const {
  map::ChainParams chain = chain_;
  chain.threads = std::max(1, threads);
  ReadMapping m;
  if (seq.empty()) return m;  // minimap2 returns before seeding an empty read
  const int qlen = static_cast<int>(seq.size());
  if (opt_.max_qlen > 0 && qlen > opt_.max_qlen) return m;  // --max-qlen: unmapped, as mm_map_frag leaves it
  const std::span<const std::string_view> segs(&seq, 1);
  map::ReadSeeds looked_up = map::look_up_read(segs, idx_, opt_, mid_occ_, chain.threads);
  // The seeds are kept for a second pass only where one can happen (rechain_wanted: not
  // with RMQ chaining, nor when max_occ does not exceed mid_occ); else they are filtered
  // in place — for a chromosome-length query, tens of megabytes not copied.
  const bool may_rechain = chain_.max_occ > mid_occ_ && !chain_.rmq;
  map::SeedResult seeds = may_rechain
                              ? map::collect_anchors(looked_up, name, idx_, opt_, mid_occ_, chain.threads)
                              : map::collect_anchors(std::move(looked_up), name, idx_, opt_, mid_occ_, chain.threads);
  // Without a second seeding the anchors are not read after chaining: chain_read frees
  // them after its first pass.
  m.chains = may_rechain ? map::chain_read(seeds.anchors, qlen, 1, idx_.k(), chain)
                         : map::chain_read(std::move(seeds.anchors), qlen, 1, idx_.k(), chain);
  if (may_rechain && map::rechain_wanted(m.chains, 1, mid_occ_, seeds.rep_len, chain_)) {
    seeds = map::collect_anchors(looked_up, name, idx_, opt_, chain_.max_occ, chain.threads);
    m.chains = map::chain_dp_pass(seeds.anchors, qlen, 1, idx_.k(), chain_);
  }
  m.rep_len = seeds.rep_len;
  m.frag_gap = map::gap_limits(chain_, qlen).ref;
  m.regions = regions_unaligned(name, qlen, idx_.k(), seeds.rep_len, m.chains, seeds.mini_pos, ref_lens_, region_);
  return m;
}

void flip_region(map::Region& r, int qlen) {
  const int32_t qs = r.qs;
  r.qs = qlen - r.qe;
  r.qe = qlen - qs;
  r.rev = !r.rev;
  // The transcript strand is relative to the read, so it flips too (2.31's worker_for;
  // 2.24 never has one here: it refuses --splice with --frag, and only a fragment's
  // segments are flipped).
  if (r.trans_strand == 1 || r.trans_strand == 2) r.trans_strand = static_cast<uint8_t>(3 - r.trans_strand);
}

FragmentMapping ReadMapper::map_fragment(std::span<const std::string_view> names, std::span<const std::string_view> seqs,
                                         bool for_alignment, int threads) const {
  FragmentMapping f;
  const size_t n_segs = seqs.size();
  f.segs.resize(n_segs);
  std::vector<int> qlens(n_segs);
  int qlen_sum = 0;
  for (size_t i = 0; i < n_segs; ++i) qlen_sum += qlens[i] = static_cast<int>(seqs[i].size());
  if (opt_.independent_segments || n_segs == 1) {  // MM_F_INDEPEND_SEG: each segment a read of its own
    for (size_t i = 0; i < n_segs; ++i) {
      f.segs[i] = map(names[i], seqs[i], threads);
      f.frag_gap = f.segs[i].frag_gap;
    }
    return f;
  }
  if (weak_pairing(n_segs, for_alignment)) {  // mm_map_frag (2.31): mm_map_frag_core on each, then mm_pair
    for (size_t i = 0; i < n_segs; ++i) f.segs[i] = map(names[0], seqs[i]);
    // worker_for takes rep_len and frag_gap from the mapping buffer: the last segment's.
    for (ReadMapping& m : f.segs) {
      m.own_rep_len = m.rep_len;
      m.rep_len = f.segs.back().rep_len, m.frag_gap = f.segs.back().frag_gap;
    }
    f.frag_gap = opt_.max_gap_ref;
    return f;
  }
  f.frag_gap = map::gap_limits(chain_, qlen_sum).ref;
  for (ReadMapping& m : f.segs) m.frag_gap = f.frag_gap;
  if (qlen_sum == 0 || (opt_.max_qlen > 0 && qlen_sum > opt_.max_qlen)) return f;
  // mm_map_frag: seeds of all segments, chains across them (again with more seeds when
  // the best chain misses a segment, sr), regions of the fragment.
  const int n = static_cast<int>(n_segs);
  const map::ReadSeeds looked_up = map::look_up_read(seqs, idx_, opt_, mid_occ_);
  map::SeedResult seeds = map::collect_anchors(looked_up, names[0], idx_, opt_, mid_occ_);
  map::Chains chains = map::chain_read(seeds.anchors, qlen_sum, n, idx_.k(), chain_);
  if (map::rechain_wanted(chains, n, mid_occ_, seeds.rep_len, chain_)) {
    seeds = map::collect_anchors(looked_up, names[0], idx_, opt_, chain_.max_occ);
    chains = map::chain_dp_pass(seeds.anchors, qlen_sum, n, idx_.k(), chain_);
  }
  const uint32_t hash = read_hash(names[0], qlen_sum, region_.seed, region_.hash_name);
  std::vector<map::Region> regs = map::gen_regions(hash, qlen_sum, chains, region_.qstrand);
  // ALT contigs mark the fragment's regions only: mm_seg_gen makes the segments' afresh.
  map::mark_alt(regs, region_.alt_refs, region_.alt_drop);
  if (!region_.all_chains) {
    map::set_parent(regs, region_.mask_level, region_.mask_len, region_.sub_diff, region_.hard_mask_level,
                    region_.alt_drop);
    map::select_sub_multi(regs, region_.pri_ratio, 0.2f, 0.7f, f.frag_gap, idx_.k() * 2, region_.best_n, qlens,
                          region_.select_sub_decide_first);
  }
  if (!region_.short_read && !region_.qstrand) {
    map::estimate_divergence(regs, qlen_sum, chains.anchors.data(), seeds.mini_pos, ref_lens_);
    map::filter_strand_retained(regs, region_.select_sub_decide_first);
  }
  // mm_seg_gen, then each segment's mm_set_parent (and without alignment its MAPQ).
  std::vector<map::SegmentChains> parts = map::split_fragment(hash, qlens, regs, chains.anchors);
  for (size_t i = 0; i < n_segs; ++i) {
    ReadMapping& m = f.segs[i];
    m.rep_len = seeds.rep_len;
    m.chains = std::move(parts[i].chains);
    m.regions = std::move(parts[i].regions);
    map::set_parent(m.regions, region_.mask_level, region_.mask_len, region_.sub_diff, region_.hard_mask_level,
                    region_.alt_drop);
    if (!for_alignment)
      map::set_mapq(m.regions, region_.min_chain_score, region_.match_sc, seeds.rep_len, region_.mapq_short_read,
                    region_.mapq_sr_splice);
  }
  return f;
}

FragmentMapping ReadMapper::map_fragment_as_read(std::span<const io::SeqRecord> reads) const {
  const size_t n = reads.size();
  std::vector<std::string> flipped(n);
  std::vector<std::string_view> names(n), seqs(n);
  for (size_t i = 0; i < n; ++i) {
    names[i] = reads[i].name;
    if (segment_flipped(opt_.pe_ori, n, i)) flipped[i] = format::reverse_complement(reads[i].seq);
    seqs[i] = segment_flipped(opt_.pe_ori, n, i) ? std::string_view(flipped[i]) : std::string_view(reads[i].seq);
  }
  FragmentMapping f = map_fragment(names, seqs, false);
  for (size_t i = 0; i < n; ++i)
    if (segment_flipped(opt_.pe_ori, n, i))
      for (map::Region& r : f.segs[i].regions) flip_region(r, static_cast<int>(reads[i].seq.size()));
  return f;
}

std::string ReadMapper::map_paf_fragment(std::span<const io::SeqRecord> reads) const {
  if (reads.size() == 1) return map_paf(reads[0].name, reads[0].seq);
  const FragmentMapping f = map_fragment_as_read(reads);
  std::string out;
  const index::Reference& ref = idx_.reference();
  for (size_t i = 0; i < reads.size(); ++i) {
    const int qlen = static_cast<int>(reads[i].seq.size());
    for (const map::Region& r : f.segs[i].regions) {
      if (!opt_.print_secondary && r.id != r.parent) continue;
      const index::RefSeq& rs = ref.seq(static_cast<uint32_t>(r.rid));
      out += paf_line(paf_query_name(reads[i].name, static_cast<int>(i), opt_.rules()), qlen, rs.name,
                      static_cast<int32_t>(rs.len), r, f.segs[i].rep_len, opt_.qstrand);
    }
  }
  return out;
}

std::string ReadMapper::map_paf(std::string_view name, std::string_view seq) const {
  const ReadMapping m = map(name, seq);
  std::string out;
  const index::Reference& ref = idx_.reference();
  for (const map::Region& r : m.regions) {
    if (!opt_.print_secondary && r.id != r.parent) continue;
    const index::RefSeq& rs = ref.seq(static_cast<uint32_t>(r.rid));
    out += paf_line(name, static_cast<int>(seq.size()), rs.name, static_cast<int32_t>(rs.len), r, m.rep_len,
                    opt_.qstrand);
  }
  return out;
}

}  // namespace agatha::pipeline
