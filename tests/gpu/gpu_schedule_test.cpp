// The GPU engine's decision logic, on the CPU: the best-cell reduction against the
// reference's sequential four-lane rule, the tile layout against the reference's
// computed cells, warp bucketing, rejoining, and the independence of results from the
// schedule (slice length, lane grouping).
#include "../../kernels/gpu/gpu_sim.hpp"
#include "../../kernels/gpu/host_plan.hpp"
#include "../../src/io/task_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace agatha::gpu {
namespace {

// The reference's rule, stated sequentially: start from (H[en0], en0); positions
// st0.. in groups of four form lanes that keep their first strictly larger value; lanes
// merge 0..3 with strict '>'; the tail [en1, en0) replaces only when strictly larger.
std::pair<int32_t, int32_t> sequential_best(const std::vector<int32_t>& h, int32_t st0, int32_t en0) {
  int32_t best = h[en0], best_t = en0;
  const int32_t en1 = st0 + (en0 - st0) / 4 * 4;
  int32_t lane_h[4] = {best, best, best, best}, lane_t[4] = {en0, en0, en0, en0};
  for (int32_t t = st0; t < en1; ++t) {
    const int k = (t - st0) % 4;
    if (h[t] > lane_h[k]) lane_h[k] = h[t], lane_t[k] = t;
  }
  for (int k = 0; k < 4; ++k)
    if (lane_h[k] > best) best = lane_h[k], best_t = lane_t[k];
  for (int32_t t = en1; t < en0; ++t)
    if (h[t] > best) best = h[t], best_t = t;
  return {best, best_t};
}

TEST(GpuDecisions, BestCellReductionMatchesTheSequentialRuleInAnyOrder) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 20000; ++iter) {
    const int32_t st0 = static_cast<int32_t>(rng() % 20), len = 1 + static_cast<int32_t>(rng() % 40);
    const int32_t en0 = st0 + len - 1;
    std::vector<int32_t> h(en0 + 1);
    const int range = 1 + static_cast<int>(rng() % 6);  // few values: many ties
    for (auto& x : h) x = static_cast<int32_t>(rng() % range);
    Range g{st0, en0, st0 / 16 * 16, (en0 + 16) / 16 * 16 - 1, true};
    // Cells contribute in a random order, split over random "lanes" merged at the end.
    std::vector<int32_t> order(len);
    for (int32_t k = 0; k < len; ++k) order[k] = st0 + k;
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<BestKey> lanes(1 + rng() % 5, 0);
    for (int32_t t : order) key_max(lanes[rng() % lanes.size()], best_key(h[t], key_priority(g, t), t));
    BestKey all = 0;
    for (const auto& k : lanes) key_max(all, k);
    const auto want = sequential_best(h, st0, en0);
    ASSERT_EQ(key_h(all), want.first) << "iteration " << iter;
    ASSERT_EQ(key_t(all), want.second) << "iteration " << iter;
  }
}

// The key keeps H's sign and full range, and target positions up to its limit.
TEST(GpuDecisions, BestKeysOrderByHThenPriorityThenLowestT) {
  for (int32_t h : {-0x40000000, -5, 0, 7, 0x3fffffff})
    for (int32_t t : {0, 1, 1000, kMaxKeyTarget - 1}) {
      const BestKey k = best_key(h, 3, t);
      EXPECT_EQ(key_h(k), h);
      EXPECT_EQ(key_t(k), t);
      EXPECT_GT(best_key(h + 1, 0, kMaxKeyTarget - 1), k);
      EXPECT_GT(best_key(h, 4, kMaxKeyTarget - 1), k);
      if (t > 0) {
        EXPECT_GT(best_key(h, 3, t - 1), k);
      }
    }
  EXPECT_GT(best_key(-0x40000000, 0, kMaxKeyTarget - 1), BestKey{0}) << "0 is no cell";
}

// Every cell the reference computes (its anti-diagonal's rounded range, inside the
// matrix) lies in a stored tile, and stored tiles never overlap.
TEST(GpuDecisions, TileLayoutCoversEveryComputedCell) {
  for (int w : {0, 1, 5, 16, 17, 40, 100, 751}) {
    for (auto [qlen, tlen] : {std::pair{37, 41}, {200, 90}, {8, 300}, {513, 511}}) {
      TaskParams p{};
      p.qlen = qlen, p.tlen = tlen, p.w = w, p.active = true;
      const TileLayout l = make_layout(p);
      const auto off = tile_row_offsets(l);
      for (int32_t J = 0; J + 1 < static_cast<int32_t>(off.size()); ++J)
        ASSERT_EQ(off[J + 1] - off[J], std::max(0, row_t_hi(l, J) - row_t_lo(l, J) + 1));
      for (int32_t r = 0; r < qlen + tlen - 1; ++r) {
        const Range g = range_of(p, r);
        if (!g.ok) break;
        for (int32_t t = std::max(g.st, r - qlen + 1); t <= std::min({g.en, tlen - 1, r}); ++t) {
          const int32_t T = t / kTile, J = (r - t) / kTile;
          ASSERT_GE(T, row_t_lo(l, J)) << "w " << w << " r " << r << " t " << t;
          ASSERT_LE(T, row_t_hi(l, J)) << "w " << w << " r " << r << " t " << t;
          ASSERT_GE(T, diag_t_lo(l, T + J));
          ASSERT_LE(T, diag_t_hi(l, T + J));
        }
      }
    }
  }
}

// Long tasks with wide bands go to thread blocks of their own, longest first; the rest
// is bucketed as before.
TEST(GpuDecisions, BucketingSendsLongWideTasksToBlocks) {
  auto params = [](int32_t len, int32_t w) {
    TaskParams p{};
    p.qlen = p.tlen = len, p.w = w, p.active = true;
    return p;
  };
  const std::vector<TaskParams> ps = {params(1000, 500), params(100000, 20000), params(200000, 100),
                                      params(300, 300), params(50000, 20000)};
  std::vector<int64_t> work;
  std::vector<char> is_block;
  for (const auto& p : ps) work.push_back(tile_cells(p)), is_block.push_back(block_task(p));
  EXPECT_EQ(is_block, (std::vector<char>{0, 1, 0, 0, 1})) << "a long narrow band stays on a warp";
  std::vector<uint32_t> blocks;
  const auto warps = plan_warps(work, 4, &blocks, &is_block);
  EXPECT_EQ(blocks, (std::vector<uint32_t>{1, 4}));
  ASSERT_EQ(warps.size(), 1u);
  EXPECT_EQ(warps[0], (std::vector<uint32_t>{2, 3, 0}));
}

TEST(GpuDecisions, BucketingGivesEachWarpOneLongTaskFirst) {
  const std::vector<int64_t> work = {5, 100, 1, 50, 7, 3, 80, 2, 9};
  const auto warps = plan_warps(work, 4);
  std::vector<int> seen(work.size(), 0);
  for (const auto& w : warps) {
    ASSERT_LE(w.size(), 4u);
    for (uint32_t t : w) ++seen[t];
  }
  for (int s : seen) EXPECT_EQ(s, 1);
  ASSERT_EQ(warps.size(), 3u);
  EXPECT_EQ(warps[0], (std::vector<uint32_t>{1, 2, 7, 5}));  // 100, then 1, 2, 3
  EXPECT_EQ(warps[1], (std::vector<uint32_t>{6, 0, 4, 8}));  // 80, then 5, 7, 9
  EXPECT_EQ(warps[2], (std::vector<uint32_t>{3}));
}

TEST(GpuDecisions, RejoinPicksTheTaskWithMostWorkLeft) {
  const int32_t remaining[4] = {5, 9, 9, 30};
  const bool running[4] = {true, true, true, false};
  EXPECT_EQ(rejoin_target(remaining, running, 4), 1);
  const bool none[4] = {false, false, false, false};
  EXPECT_EQ(rejoin_target(remaining, none, 4), -1);
}

// Results never depend on the slice length or how lanes are grouped.
TEST(GpuDecisions, ScheduleDoesNotChangeResults) {
  std::mt19937_64 rng(11);
  std::vector<std::vector<uint8_t>> seqs;
  std::vector<DpTask> tasks;
  for (int i = 0; i < 300; ++i) {
    std::vector<uint8_t> t(1 + rng() % 300), q;
    for (auto& c : t) c = static_cast<uint8_t>(rng() % 4);
    for (uint8_t c : t)
      if (rng() % 10) q.push_back(rng() % 20 ? c : static_cast<uint8_t>(rng() % 5));
    seqs.push_back(std::move(q));
    seqs.push_back(std::move(t));
  }
  static constexpr uint32_t kFlags[] = {0, 2, 8, 64, 194, 1};
  for (size_t i = 0; i < seqs.size(); i += 2) {
    DpTask task;
    task.query = seqs[i], task.target = seqs[i + 1];
    task.flag = kFlags[rng() % 6];
    task.w = static_cast<int32_t>(rng() % 3 == 0 ? -1 : rng() % 60);
    task.zdrop = static_cast<int32_t>(rng() % 2 ? 30 : -1);
    tasks.push_back(task);
  }
  auto run = [&](Schedule s) {
    std::vector<DpResult> r(tasks.size());
    make_gpu_sim_backend(1, s)->run(tasks, r);
    return r;
  };
  const auto base = run(Schedule{});
  for (Schedule s : {Schedule{1, 8, 32}, Schedule{5, 4, 8}, Schedule{2, 1, 3}, Schedule{7, 32, 32}}) {
    const auto other = run(s);
    for (size_t i = 0; i < tasks.size(); ++i) {
      ASSERT_EQ(io::format_answer(base[i]), io::format_answer(other[i]))
          << "task " << i << " slice " << s.slice << " subwarp " << s.subwarp;
      ASSERT_EQ(base[i].cells, other[i].cells);
    }
  }
}

}  // namespace
}  // namespace agatha::gpu

namespace agatha::gpu {
namespace {

// tile_path is sound: every cell of a tile it sends to the fast path as interior (kFast)
// lies strictly inside (st0, en1) of its anti-diagonal — no border, no margin, no
// end-of-band cell, an ordinary four-lane candidate for the best cell — and every cell of
// an APPROX_MAX edge tile (kFastEdge) meets the weaker rules of that mode; for ksw_extd2
// bands of every width and for splice tasks (the whole matrix).
TEST(GpuDecisions, FastPathTilesHoldOnlyOrdinaryCells) {
  std::mt19937_64 rng(3);
  size_t fast = 0, edge = 0;
  for (int i = 0; i < 300; ++i) {
    std::vector<uint8_t> q(1 + rng() % 200, 0), t(1 + rng() % 200, 1);
    DpTask task;
    task.query = q, task.target = t;
    if (i % 3 == 0) {
      task.flag = dp_flag::kSplice;
      task.scoring = {1, 2, 1, 2, 1, 32, 0};
    } else {
      task.w = static_cast<int32_t>(rng() % 3 == 0 ? -1 : rng() % 80);
    }
    if (i % 2) task.flag |= dp_flag::kApproxMax;
    const TaskParams p = make_params(task);
    ASSERT_TRUE(p.active);
    const TileLayout l = make_layout(p);
    for (int32_t J = 0; J < l.n_j; ++J)
      for (int32_t T = row_t_lo(l, J); T <= row_t_hi(l, J); ++T) {
        const TilePath path = tile_path(p, T, J);
        if (path == TilePath::kFastEdge) {
          // APPROX_MAX only: every live cell fresh (in [st0, en0]); its left neighbour a
          // band cell of r-1, or on column 0 st0 = 0 (the border); the cell above a band
          // cell of r-1, or on row 0 the border.
          ++edge;
          ASSERT_TRUE(p.approx_max);
          for (int32_t j = J * kTile; j < std::min(J * kTile + kTile, p.qlen); ++j)
            for (int32_t tt = T * kTile; tt < std::min(T * kTile + kTile, p.tlen); ++tt) {
              const Range g = range_of(p, tt + j), h = range_of(p, tt + j - 1);
              const bool fresh = g.ok && g.st0 <= tt && tt <= g.en0;
              const bool left = tt == 0 ? g.st0 == 0 : h.ok && h.st0 <= tt - 1 && tt - 1 <= h.en0;
              const bool up = j == 0 || (h.ok && h.st0 <= tt && tt <= h.en0);
              ASSERT_TRUE(fresh && left && up)
                  << "task " << i << " edge tile " << T << "," << J << " cell " << tt << "," << j;
            }
          continue;
        }
        if (path != TilePath::kFast) continue;
        ++fast;
        for (int32_t j = J * kTile; j < J * kTile + kTile; ++j)
          for (int32_t tt = T * kTile; tt < T * kTile + kTile; ++tt) {
            const Range g = range_of(p, tt + j);
            const int32_t en1 = g.st0 + (g.en0 - g.st0) / 4 * 4;
            ASSERT_TRUE(g.ok && g.st0 < tt && tt < en1 && tt < p.tlen - 1 && j < p.qlen - 1)
                << "task " << i << " tile " << T << "," << J << " cell " << tt << "," << j;
          }
      }
  }
  EXPECT_GT(fast, 1000u);
  EXPECT_GT(edge, 100u);
}

// gpu-sim's profile of the device's tile paths: every tile of a task that runs to the
// end is counted once, on one path; every anti-diagonal is finalized; the traceback
// recomputes tiles only with a CIGAR; APPROX_MAX tasks keep u, v on some fast calls.
TEST(GpuDecisions, ProfileCountsEveryTileOnce) {
  std::mt19937_64 rng(9);
  std::vector<std::vector<uint8_t>> seqs;
  std::vector<DpTask> tasks;
  for (int i = 0; i < 40; ++i) {
    std::vector<uint8_t> t(100 + rng() % 300), q;
    for (auto& c : t) c = static_cast<uint8_t>(rng() % 4);
    for (uint8_t c : t) q.push_back(rng() % 30 ? c : static_cast<uint8_t>(rng() % 4));
    seqs.push_back(std::move(q));
    seqs.push_back(std::move(t));
  }
  int64_t tiles[TileProfile::kKinds] = {}, diagonals[TileProfile::kKinds] = {};
  for (size_t i = 0; i < seqs.size(); i += 2) {
    DpTask task;
    task.query = seqs[i], task.target = seqs[i + 1];
    const int k = static_cast<int>(i / 2 % 4);
    task.flag = (k & 1 ? dp_flag::kApproxMax : 0) | (k & 2 ? dp_flag::kSplice : 0) | (i % 3 ? 0 : dp_flag::kScoreOnly);
    if (k & 2) task.scoring = {1, 2, 1, 2, 1, 32, 0};
    task.w = 40;
    tasks.push_back(task);
    const TaskParams p = make_params(task);
    const TileLayout l = make_layout(p);
    tiles[k] += tile_row_offsets(l).back();
    diagonals[k] += p.qlen + p.tlen - 1;
  }
  TileProfile prof;
  std::vector<DpResult> res(tasks.size());
  make_gpu_sim_backend(2, Schedule{}, &prof)->run(tasks, res);
  for (const DpResult& r : res) ASSERT_FALSE(r.zdropped);
  for (int k = 0; k < TileProfile::kKinds; ++k) {
    const TileProfile::Counts& c = prof.kind[k];
    SCOPED_TRACE(TileProfile::kKindName[k]);
    EXPECT_EQ(c.tasks, 10u);
    EXPECT_EQ(static_cast<int64_t>(2 * c.fast_pairs + c.fast_singles + c.general_far + c.general_task_edge +
                                   c.general_band_edge),
              tiles[k]);
    EXPECT_EQ(static_cast<int64_t>(c.anti_diagonals), diagonals[k]);
    EXPECT_GT(c.fast_pairs, 0u);
    EXPECT_GT(c.traceback_tiles, 0u);
    EXPECT_LE(c.traceback_fast_tiles, c.traceback_tiles);
    EXPECT_EQ(c.fast_keep_uv > 0, k == TileProfile::kApprox || k == TileProfile::kSpliceApprox);
  }
}

}  // namespace
}  // namespace agatha::gpu
