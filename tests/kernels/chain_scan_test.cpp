// The chaining predecessor scan (kernels/chain_scan.*) against the oracle: every vector
// version gives chain_scores_scalar's scores, chain_scores_scalar gives map::pair_score's
// for single-segment reads, every chain_scan gives chain_scan_scalar's best, stop and
// marks, and chain_dp with each scan returns exactly the chains of the pair-at-a-time
// loop, on seeded random anchor sets shaped like real ones (colinear runs
// with indels, repeats, other strands and references, spans of 15-28, HPC-like gaps).
#include "kernels/chain_scan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "src/map/chain.hpp"
#include "src/map/radix_sort.hpp"

namespace agatha::kernels {
namespace {

using map::Anchor;

Anchor make_anchor(uint32_t rid, bool rev, uint32_t rpos, uint32_t qpos, uint32_t span) {
  Anchor a;
  a.x = (rev ? map::anchor_bit::kReverse : 0) | static_cast<uint64_t>(rid) << 32 | rpos;
  a.y = static_cast<uint64_t>(span) << 32 | qpos;
  return a;
}

// A read's anchors: a few colinear runs (the true mappings and repeats) with random
// indels and dropped seeds, plus scattered noise; sorted by x as chaining wants them.
std::vector<Anchor> random_anchors(std::mt19937_64& rng, int qlen) {
  std::vector<Anchor> a;
  std::uniform_int_distribution<int> coin(0, 99);
  const int runs = 1 + static_cast<int>(rng() % 4);
  for (int r = 0; r < runs; ++r) {
    const uint32_t rid = static_cast<uint32_t>(rng() % 2), span = 15 + static_cast<uint32_t>(rng() % 14);
    const bool rev = rng() % 2;
    int64_t rpos = 1000 + static_cast<int64_t>(rng() % 1000000), qpos = span + static_cast<int64_t>(rng() % 200);
    while (qpos < qlen) {
      if (coin(rng) < 80)
        a.push_back(make_anchor(rid, rev, static_cast<uint32_t>(rpos), static_cast<uint32_t>(qpos), span));
      const int step = 1 + static_cast<int>(rng() % 30);
      qpos += step;
      rpos += step;
      if (coin(rng) < 10) rpos += static_cast<int64_t>(rng() % 40) - 20;  // an indel
      if (coin(rng) < 2) rpos += static_cast<int64_t>(rng() % 3000);      // a large deletion
      if (rpos < 0) rpos = 0;
    }
  }
  const int noise = static_cast<int>(rng() % 200);
  for (int i = 0; i < noise; ++i)
    a.push_back(make_anchor(static_cast<uint32_t>(rng() % 2), rng() % 2, static_cast<uint32_t>(rng() % 1002000),
                            static_cast<uint32_t>(rng() % static_cast<uint64_t>(qlen)),
                            15 + static_cast<uint32_t>(rng() % 14)));
  map::radix_sort_by_x(a.data(), a.data() + a.size());
  return a;
}

struct Soa {
  std::vector<uint32_t> x;
  std::vector<int32_t> y, span;
  ChainAnchors view() const { return {x.data() + kChainBlock, y.data() + kChainBlock, span.data() + kChainBlock}; }
};

Soa soa_of(const std::vector<Anchor>& a) {
  Soa s;
  s.x.assign(a.size() + kChainBlock, 0), s.y.assign(a.size() + kChainBlock, 0),
      s.span.assign(a.size() + kChainBlock, 0);
  for (size_t j = 0; j < a.size(); ++j) {
    s.x[j + kChainBlock] = static_cast<uint32_t>(a[j].x);
    s.y[j + kChainBlock] = static_cast<int32_t>(a[j].y);
    s.span[j + kChainBlock] = map::anchor_span(a[j]);
  }
  return s;
}

std::vector<std::string> isas() { return {"scalar", "sse41", "avx2", "avx512"}; }

class ChainScan : public ::testing::TestWithParam<std::string> {};

// Scores of every pair within a window, block by block, against pair_score.
TEST_P(ChainScan, ScoresEqualPairScore) {
  const ChainScoresFn fn = chain_scores_for(GetParam().c_str());
  if (!fn) GTEST_SKIP() << "this processor cannot run " << GetParam();
  std::mt19937_64 rng(20261202);
  const float gaps[] = {0.8f * 0.01f * 15, 0.8f * 0.01f * 19, 0.0f, 0.37f};
  const float skips[] = {0.0f, 0.0f, 0.05f, 0.0f};
  size_t compared = 0;
  for (int read = 0; read < 300; ++read) {
    const std::vector<Anchor> a = random_anchors(rng, 2000 + static_cast<int>(rng() % 20000));
    const Soa s = soa_of(a);
    const int lim_case = read % 4;
    const map::PairLimits lim{5000 + 1000 * lim_case, 5000 - 500 * lim_case, 500 + 200 * lim_case, false, 1};
    const map::GapPenalty pen{gaps[lim_case], skips[lim_case]};
    const ChainScanParams p{lim.max_dist_ref, lim.max_dist_qry, lim.bw, pen.gap, pen.skip};
    for (int64_t i = 1; i < static_cast<int64_t>(a.size()); i += 1 + static_cast<int64_t>(rng() % 3)) {
      const int64_t lo_min = std::max<int64_t>(0, i - 64);
      for (int64_t hi = i - 1; hi >= lo_min;) {
        const int n =
            static_cast<int>(std::min<int64_t>(1 + static_cast<int64_t>(rng() % kChainBlock), hi - lo_min + 1));
        int32_t out[kChainBlock];
        fn(s.view(), i, hi - n + 1, n, p, out);
        for (int m = 0; m < n; ++m) {
          const int64_t j = hi - n + 1 + m;
          ASSERT_EQ(out[m], map::pair_score(a[i], a[j], lim, pen))
              << GetParam() << " read " << read << " i " << i << " j " << j;
          ++compared;
        }
        hi -= n;
      }
    }
  }
  EXPECT_GT(compared, 100000u);
}

// One anchor's scan against the scalar scan, from states a chaining pass could be in and
// from arbitrary ones (random scores, predecessors and marks, so that skips and early
// stops are frequent): the same best, skip count, stop index and marks.
TEST_P(ChainScan, ScanEqualsScalarScan) {
  const ChainScanFn fn = chain_scan_for(GetParam().c_str());
  if (!fn) GTEST_SKIP() << "this processor cannot run " << GetParam();
  std::mt19937_64 rng(314159);
  size_t scans = 0, stopped = 0, taken = 0;
  for (int read = 0; read < 200; ++read) {
    const std::vector<Anchor> a = random_anchors(rng, 2000 + static_cast<int>(rng() % 20000));
    const int64_t n = static_cast<int64_t>(a.size());
    const Soa s = soa_of(a);
    const ChainScanParams p{5000, 5000, read % 2 ? 500 : 100, 0.8f * 0.01f * 15, 0.0f, static_cast<int32_t>(rng() % 8)};
    std::vector<int32_t> f(a.size()), t(a.size());
    std::vector<int32_t> pred(a.size());
    for (int64_t j = 0; j < n; ++j) {
      f[j] = static_cast<int32_t>(rng() % 400);
      pred[j] = j == 0 || rng() % 4 == 0 ? -1 : static_cast<int32_t>(rng() % static_cast<uint64_t>(j));
    }
    for (int64_t i = 1; i < n; i += 1 + static_cast<int64_t>(rng() % 15)) {
      const int64_t st = std::max<int64_t>(0, i - 1 - static_cast<int64_t>(rng() % 300));
      for (int64_t j = 0; j < n; ++j) t[j] = rng() % 3 == 0 ? static_cast<int32_t>(i) : 0;
      std::vector<int32_t> t_want = t;
      const ChainDpArrays want_dp{f.data(), pred.data(), t_want.data()}, got_dp{f.data(), pred.data(), t.data()};
      ChainBest want{15, -1, 0}, got = want;
      const int64_t want_end = chain_scan_scalar(s.view(), want_dp, i, st, p, want);
      const int64_t got_end = fn(s.view(), got_dp, i, st, p, got);
      ASSERT_EQ(got_end, want_end) << GetParam() << " read " << read << " i " << i;
      ASSERT_EQ(got.max_f, want.max_f) << GetParam() << " read " << read << " i " << i;
      ASSERT_EQ(got.max_j, want.max_j) << GetParam() << " read " << read << " i " << i;
      ASSERT_EQ(got.n_skip, want.n_skip) << GetParam() << " read " << read << " i " << i;
      ASSERT_EQ(t, t_want) << GetParam() << " read " << read << " i " << i;
      ++scans, stopped += want_end >= st, taken += want.max_j >= 0;
    }
  }
  EXPECT_GT(scans, 10000u);
  EXPECT_GT(stopped, scans / 20);  // early stops are exercised
  EXPECT_GT(taken, scans / 4);
}

// Whole chaining passes: chain_dp with the scan equals the pair-at-a-time loop.
TEST_P(ChainScan, ChainDpEqualsPairAtATime) {
  const ChainScanFn fn = chain_scan_for(GetParam().c_str());
  if (!fn) GTEST_SKIP() << "this processor cannot run " << GetParam();
  std::mt19937_64 rng(7);
  size_t chains = 0;
  for (int read = 0; read < 200; ++read) {
    const std::vector<Anchor> a = random_anchors(rng, 1000 + static_cast<int>(rng() % 30000));
    const int k = 15 + read % 5;
    map::ChainParams cp{};
    cp.chain_gap_scale = 0.8f;
    const map::GapPenalty pen = map::gap_penalty(cp, k);
    const int bw = read % 3 == 0 ? 500 : 1000, max_skip = 25, max_iter = read % 5 == 0 ? 50 : 5000;
    const map::Chains want = map::chain_dp(a, 5000, 5000, bw, max_skip, max_iter, 3, 40, pen, false, 1, nullptr);
    const map::Chains got = map::chain_dp(a, 5000, 5000, bw, max_skip, max_iter, 3, 40, pen, false, 1, fn);
    ASSERT_EQ(got.u, want.u) << GetParam() << " read " << read;
    ASSERT_EQ(got.anchors, want.anchors) << GetParam() << " read " << read;
    chains += want.size();
  }
  EXPECT_GT(chains, 200u);
}

INSTANTIATE_TEST_SUITE_P(Isa, ChainScan, ::testing::ValuesIn(isas()), [](const auto& info) { return info.param; });

}  // namespace
}  // namespace agatha::kernels
