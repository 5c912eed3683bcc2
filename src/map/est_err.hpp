// src/map/est_err.hpp — minimap2 2.24's esterr.c: the sequence divergence of each region
// estimated from its anchors (mm_est_err), printed as dv:f in mapping-only PAF and used
// by mm_filter_strand_retained.
#pragma once

#include <cstdint>
#include <vector>

#include "anchor.hpp"
#include "hit.hpp"

namespace agatha::map {

// mm_est_err. `mini_pos` holds span << 32 | forward query position of every kept seed,
// increasing; `ref_lens` the reference lengths. Sets every region's div (-1 when
// unknown).
void estimate_divergence(std::vector<Region>& regs, int qlen, const Anchor* a, const std::vector<uint64_t>& mini_pos,
                         const std::vector<int32_t>& ref_lens);

}  // namespace agatha::map
