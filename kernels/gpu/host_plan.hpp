// kernels/gpu/host_plan.hpp — host-side preparation shared by the CUDA launcher and
// gpu-sim: task parameters from a DpTask, per-task memory sizes, and the bucketing of
// tasks into warps and thread blocks.
#pragma once

#include <agatha/dp.hpp>

#include "../dp_common.hpp"
#include "../splice_common.hpp"
#include "tile_schedule.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace agatha::gpu {

// What the kernels' set-ups (kernels::Setup, kernels::SpliceSetup) share, and the flags.
template <class Setup>
void copy_setup(const DpTask& task, const Setup& s, TaskParams& p) {
  p.long_thres = s.long_thres;
  p.q = s.q, p.e = s.e, p.q2 = s.q2, p.qe = s.qe;
  p.qe_row0 = s.qe_row0;
  p.long_diff = s.long_diff;
  p.sc_match = s.sc_match, p.sc_mismatch = s.sc_mismatch, p.sc_ambi = s.sc_ambi;
  p.with_cigar = s.with_cigar, p.approx_max = s.approx_max;
  p.approx_drop = (task.flag & dp_flag::kApproxDrop) != 0;
  p.extz_only = (task.flag & dp_flag::kExtzOnly) != 0;
  p.rev_cigar = (task.flag & dp_flag::kRevCigar) != 0;
}

// The task's lengths, flags, Z-drop and end bonus.
inline TaskParams task_shape(const DpTask& task) {
  TaskParams p{};
  p.qlen = static_cast<int32_t>(task.query.size());
  p.tlen = static_cast<int32_t>(task.target.size());
  p.flag = task.flag;
  p.zdrop = task.zdrop, p.end_bonus = task.end_bonus;
  return p;
}

// A splice (ksw_exts2) task's parameters: see TaskParams::splice.
inline TaskParams make_splice_params(const DpTask& task) {
  TaskParams p = task_shape(task);
  kernels::SpliceSetup s;
  p.active = kernels::prepare_splice(task, s);
  p.splice = true;
  if (!p.active) return p;
  copy_setup(task, s, p);
  p.w = p.qlen > p.tlen ? p.qlen : p.tlen;
  p.e2 = 0, p.qe2 = s.q2;
  return p;
}

// The splice-site scores a splice task's cells read (TaskMem::donor, acceptor): donor at
// [0, tlen), acceptor at [stride, stride + tlen); stride is tlen rounded up to 8, so that
// a tile's eight acceptor scores are one aligned 64-bit word.
inline size_t splice_site_stride(size_t tlen) { return (tlen + kTile - 1) / kTile * kTile; }
inline std::vector<int8_t> splice_site_bytes(const DpTask& task) {
  const size_t stride = splice_site_stride(task.target.size());
  std::vector<int8_t> b(2 * stride, 0);
  kernels::splice_site_rows(task, b.data(), b.data() + stride, static_cast<int>(task.target.size()));
  return b;
}

inline TaskParams make_params(const DpTask& task) {
  if (task.flag & dp_flag::kSplice) return make_splice_params(task);
  TaskParams p = task_shape(task);
  kernels::Setup s;
  p.active = kernels::prepare(task, s);
  if (!p.active) return p;
  copy_setup(task, s, p);
  p.w = s.w;
  p.e2 = s.e2, p.qe2 = s.qe2;
  return p;
}

// Tasks the GPU engine cannot hold: a target so long that a target position no longer
// fits the best-cell key (see BestKey). The CUDA backend refuses them with an error (under
// `auto` they run on the CPU).
inline bool too_long_for_gpu(const TaskParams& p) { return p.active && p.tlen >= kMaxKeyTarget; }

// Words of a packed sequence of n bases: ceil(n / 8), plus one word of zeros that
// score_at may read past the end.
inline size_t packed_words(size_t n) { return (n + kTile - 1) / kTile + 1; }

// Packs codes 0..4 four bits a base, eight to a word (see base_at); the last word is
// padded with zeros.
inline std::vector<uint32_t> pack_bases(std::span<const uint8_t> seq) {
  std::vector<uint32_t> w(packed_words(seq.size()), 0);
  for (size_t i = 0; i < seq.size(); ++i) w[i / kTile] |= static_cast<uint32_t>(seq[i] & 0xf) << (4 * (i % kTile));
  return w;
}

// First stored tile of each tile row (n_j + 1 entries; the last is the total).
inline std::vector<int64_t> tile_row_offsets(const TileLayout& l) {
  std::vector<int64_t> off(static_cast<size_t>(l.n_j) + 1, 0);
  for (int32_t J = 0; J < l.n_j; ++J) off[J + 1] = off[J] + std::max(0, row_t_hi(l, J) - row_t_lo(l, J) + 1);
  return off;
}

// Work estimate of a task: the cells of its tiles.
inline int64_t tile_cells(const TaskParams& p) {
  if (!p.active) return 0;
  return tile_row_offsets(make_layout(p)).back() * kTile * kTile;
}

// Widest tile anti-diagonal of a task, in tiles: the parallelism one step offers.
inline int32_t tile_width(const TaskParams& p) {
  if (!p.active) return 0;
  const TileLayout l = make_layout(p);
  return imin(imin(l.n_t, l.n_j), (l.dhi - l.dlo) / 2 + 1);
}

// Whether a task runs alone on a thread block (see TilePolicy::block_min_cells).
inline bool block_task(const TaskParams& p) {
  return tile_cells(p) >= kTilePolicy.block_min_cells && tile_width(p) >= kTilePolicy.block_min_width;
}

// Uneven bucketing: tasks sorted by work, longest first; warp k gets the k-th longest
// task and then the shortest remaining ones until it holds `per_warp` tasks, so the
// lanes freed by short tasks rejoin the long one. Returns task indices per warp. With
// `blocks`, the tasks marked in `is_block` (long, wide tasks: block_task) go there
// instead, longest first, one thread block each.
inline std::vector<std::vector<uint32_t>> plan_warps(const std::vector<int64_t>& work, int32_t per_warp,
                                                     std::vector<uint32_t>* blocks = nullptr,
                                                     const std::vector<char>* is_block = nullptr) {
  std::vector<uint32_t> order;
  order.reserve(work.size());
  for (uint32_t i = 0; i < work.size(); ++i)
    if (!blocks || !is_block || !(*is_block)[i]) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return work[a] > work[b]; });
  if (blocks) {
    blocks->clear();
    if (is_block)
      for (uint32_t i = 0; i < work.size(); ++i)
        if ((*is_block)[i]) blocks->push_back(i);
    std::stable_sort(blocks->begin(), blocks->end(), [&](uint32_t a, uint32_t b) { return work[a] > work[b]; });
  }
  std::vector<std::vector<uint32_t>> warps;
  size_t lo = 0, hi = order.size();
  while (lo < hi) {
    std::vector<uint32_t> w{order[lo++]};
    while (static_cast<int32_t>(w.size()) < per_warp && lo < hi) w.push_back(order[--hi]);
    warps.push_back(std::move(w));
  }
  return warps;
}

}  // namespace agatha::gpu
