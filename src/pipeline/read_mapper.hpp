// src/pipeline/read_mapper.hpp — mapping one read without base-level alignment, as
// minimap2 2.24's mm_map_frag does it for a single-segment read without -c:
// sketch -> seeds -> anchors -> chains (+ long join) -> regions (parent, select_sub,
// divergence, strand filter, MAPQ) -> PAF lines.
//
// Threading: a ReadMapper is immutable once built; map_paf may run on any number of
// threads at once. It refers to the index, which must outlive it.
#pragma once

#include <agatha/options.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../index/index.hpp"
#include "../map/chain.hpp"
#include "../map/regions.hpp"

namespace agatha::pipeline {

// The regions of one read and what PAF output needs besides them.
struct ReadMapping {
  std::vector<map::Region> regions;  // in output order
  int32_t rep_len = 0;
  map::Chains chains;  // the anchors the regions refer to
};

class ReadMapper {
 public:
  // Resolves everything that depends on the index (mid_occ, bw_long >= bw, reference
  // lengths) once. opt must be validated.
  ReadMapper(const index::MinimizerIndex& idx, const AlignOptions& opt);

  ReadMapping map(std::string_view name, std::string_view seq) const;
  // The PAF lines of the read (minimap2 without -a/-c); empty when it has no hit.
  std::string map_paf(std::string_view name, std::string_view seq) const;

  int32_t mid_occ() const { return mid_occ_; }
  const index::MinimizerIndex& index() const { return idx_; }

 private:
  const index::MinimizerIndex& idx_;
  AlignOptions opt_;
  int32_t mid_occ_ = 0;
  map::ChainParams chain_;
  map::RegionParams region_;
  std::vector<int32_t> ref_lens_;
};

// The chaining and region parameters minimap2 derives from its options
// (mm_mapopt_update: bw_long is raised to bw; -G unset means the -g limit).
map::ChainParams chain_params(const AlignOptions& opt);
map::RegionParams region_params(const AlignOptions& opt);

}  // namespace agatha::pipeline
