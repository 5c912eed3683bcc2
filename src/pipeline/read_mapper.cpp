// Mapping one read: the stages of src/map in minimap2's order (map.c: mm_map_frag with
// n_segs == 1 and no base alignment; format.c: mm_write_paf3 for the output).
#include "read_mapper.hpp"

#include <algorithm>
#include <span>

#include "../map/seed.hpp"

namespace agatha::pipeline {

map::ChainParams chain_params(const AlignOptions& opt) {
  map::ChainParams p;
  p.max_gap = opt.max_gap;
  p.max_gap_ref = opt.max_gap_ref > 0 ? opt.max_gap_ref : 0;
  p.bw = opt.bw;
  p.bw_long = std::max(opt.bw_long, opt.bw);
  p.max_chain_skip = opt.max_chain_skip;
  p.max_chain_iter = opt.max_chain_iter;
  p.min_cnt = opt.min_cnt;
  p.min_chain_score = opt.min_chain_score;
  p.chain_gap_scale = opt.chain_gap_scale;
  p.chain_skip_scale = opt.chain_skip_scale;
  p.rmq_inner_dist = opt.rmq_inner_dist;
  p.rmq_size_cap = opt.rmq_size_cap;
  p.rmq_rescue_size = opt.rmq_rescue_size;
  p.rmq_rescue_ratio = opt.rmq_rescue_ratio;
  p.rmq = opt.rmq;
  p.long_join = !opt.no_long_join;
  return p;
}

map::RegionParams region_params(const AlignOptions& opt) {
  map::RegionParams p;
  p.mask_level = opt.mask_level;
  p.mask_len = opt.mask_len;
  p.pri_ratio = opt.pri_ratio;
  p.best_n = opt.best_n;
  p.max_gap = opt.max_gap;
  p.a = opt.a, p.b = opt.b;
  p.min_chain_score = opt.min_chain_score;
  p.seed = opt.seed;
  p.hash_name = opt.hash_name;
  p.all_chains = opt.all_chains;
  return p;
}

ReadMapper::ReadMapper(const index::MinimizerIndex& idx, const AlignOptions& opt)
    : idx_(idx),
      opt_(opt),
      mid_occ_(index::resolve_mid_occ(idx, opt)),
      chain_(chain_params(opt)),
      region_(region_params(opt)) {
  const index::Reference& ref = idx.reference();
  ref_lens_.reserve(ref.size());
  for (uint32_t i = 0; i < ref.size(); ++i) ref_lens_.push_back(static_cast<int32_t>(ref.seq(i).len));
}

ReadMapping ReadMapper::map(std::string_view name, std::string_view seq) const {
  ReadMapping m;
  if (seq.empty()) return m;  // minimap2 returns before seeding an empty read
  const int qlen = static_cast<int>(seq.size());
  const map::SeedResult seeds = map::seed_read(name, std::span<const std::string_view>(&seq, 1), idx_, opt_, mid_occ_);
  m.rep_len = seeds.rep_len;
  m.chains = map::chain_read(seeds.anchors, qlen, 1, idx_.k(), chain_);
  m.regions = map::regions_unaligned(name, qlen, idx_.k(), seeds.rep_len, m.chains, seeds.mini_pos, ref_lens_, region_);
  return m;
}

std::string ReadMapper::map_paf(std::string_view name, std::string_view seq) const {
  const ReadMapping m = map(name, seq);
  std::string out;
  const index::Reference& ref = idx_.reference();
  for (const map::Region& r : m.regions) {
    if (!opt_.print_secondary && r.id != r.parent) continue;
    const index::RefSeq& rs = ref.seq(static_cast<uint32_t>(r.rid));
    out += map::paf_line(name, static_cast<int>(seq.size()), rs.name, static_cast<int32_t>(rs.len), r, m.rep_len);
  }
  return out;
}

}  // namespace agatha::pipeline
