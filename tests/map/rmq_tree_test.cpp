// The krmq-style tree of RMQ chaining: randomised inserts and erases checked against a
// brute-force oracle (sorted keys, range minima), with a fixed seed. Priorities are
// distinct here; tie order is covered by the golden chains. Also the ordered key sets of
// key_blocks.hpp against std::set / std::map: membership, floor and the backward walk
// (KeyBlocks), and range minima with their tie counts (MinBlocks), through splits,
// emptied blocks and joins.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "../../src/map/key_blocks.hpp"
#include "../../src/map/rmq_tree.hpp"

namespace agatha::map {
namespace {

RmqTree::Key key(int64_t y, int64_t i) { return RmqTree::make_key(static_cast<int32_t>(y), i); }

TEST(RmqTree, KeysOrderAsPairs) {
  const int32_t ys[] = {INT32_MIN, -70000, -1, 0, 1, 5, 70000, INT32_MAX};
  const int64_t is[] = {0, 1, 50, INT32_MAX, 0xffffffffLL};
  for (int32_t y1 : ys)
    for (int64_t i1 : is) {
      EXPECT_EQ(RmqTree::key_y(key(y1, i1)), y1);
      EXPECT_EQ(RmqTree::key_i(key(y1, i1)), i1);
      for (int32_t y2 : ys)
        for (int64_t i2 : is) EXPECT_EQ(key(y1, i1) < key(y2, i2), std::make_pair(y1, i1) < std::make_pair(y2, i2));
    }
}

TEST(RmqTree, RandomOperationsAgreeWithBruteForce) {
  std::mt19937_64 rng(12345);
  RmqTree tree;
  std::map<std::pair<int32_t, int64_t>, double> oracle;
  for (int step = 0; step < 20000; ++step) {
    const int op = static_cast<int>(rng() % 4);
    const int32_t y = static_cast<int32_t>(rng() % 500);
    const int64_t i = static_cast<int64_t>(rng() % 50);
    const RmqTree::Key k = key(y, i);
    if (op < 2) {
      const double pri = static_cast<double>(rng() % 1000000) + step * 1e-7;
      const RmqTree::NodeId n = tree.insert(k, pri);
      oracle.emplace(std::make_pair(y, i), pri);
      ASSERT_EQ(tree.key(n), k);
      ASSERT_EQ(tree.priority(n), oracle.at({y, i}));  // a present key keeps its priority
    } else if (op == 2) {  // by key, in one descent: false (and nothing changes) when absent
      ASSERT_EQ(tree.erase(k), oracle.erase({y, i}) == 1);
    } else {
      const RmqTree::NodeId n = tree.find(k);
      ASSERT_EQ(n != RmqTree::kNull, oracle.count({y, i}) == 1);
      if (n != RmqTree::kNull) tree.erase(n), oracle.erase({y, i});
    }
    ASSERT_EQ(tree.size(), oracle.size());
    if (step % 50 != 0) continue;
    // Range minimum over random closed ranges.
    for (int q = 0; q < 20; ++q) {
      std::pair<int32_t, int64_t> lo{static_cast<int32_t>(rng() % 520) - 10, static_cast<int64_t>(rng() % 60)};
      std::pair<int32_t, int64_t> hi{static_cast<int32_t>(rng() % 520) - 10, static_cast<int64_t>(rng() % 60)};
      if (hi < lo) std::swap(lo, hi);
      const RmqTree::NodeId got = tree.range_min(key(lo.first, lo.second), key(hi.first, hi.second));
      double best = 0;
      bool any = false;
      for (const auto& [kk, pri] : oracle) {
        if (kk < lo || hi < kk) continue;
        if (!any || pri < best) best = pri, any = true;
      }
      ASSERT_EQ(got != RmqTree::kNull, any);
      if (any) {
        EXPECT_EQ(tree.priority(got), best);
      }
    }
  }
}

// Random inserts and erases on a set that grows, shrinks to empty and grows again, with
// runs of ascending keys (the common case in chaining) and random ones.
TEST(KeyBlocks, RandomOperationsAgreeWithStdSet) {
  std::mt19937_64 rng(777);
  KeyBlocks set;
  std::set<int64_t> oracle;
  int64_t ascending = 0;
  for (int step = 0; step < 60000; ++step) {
    const int phase = step / 10000;  // even phases grow, odd ones shrink
    const int64_t k = rng() % 3 == 0 ? ascending++ : static_cast<int64_t>(rng() % 5000) - 1000;
    const bool grow = phase % 2 == 0 ? rng() % 4 != 0 : rng() % 4 == 0;
    if (grow) {
      if (oracle.insert(k).second) set.insert(k);
    } else {
      // Erase a present key half the time (so that shrinking phases do shrink).
      int64_t e = k;
      if (!oracle.empty() && rng() % 2 == 0) {
        auto it = oracle.lower_bound(k);
        e = it == oracle.end() ? *oracle.begin() : *it;
      }
      ASSERT_EQ(set.erase(e), oracle.erase(e) == 1);
    }
    ASSERT_EQ(set.size(), oracle.size());
    ASSERT_TRUE(set.consistent()) << step;
    if (step % 97 != 0) continue;
    // floor and the whole backward walk from it.
    const int64_t probe = static_cast<int64_t>(rng() % 7000) - 1500;
    KeyBlocks::Cursor c = set.floor(probe);
    auto it = oracle.upper_bound(probe);
    while (it != oracle.begin()) {
      --it;
      ASSERT_TRUE(c.valid());
      ASSERT_EQ(c.key(), *it);
      c.prev();
    }
    ASSERT_FALSE(c.valid());
  }
}

TEST(KeyBlocks, EmptyAndSingle) {
  KeyBlocks set;
  EXPECT_FALSE(set.floor(0).valid());
  EXPECT_FALSE(set.erase(3));
  set.insert(3);
  EXPECT_FALSE(set.floor(2).valid());
  ASSERT_TRUE(set.floor(3).valid());
  EXPECT_EQ(set.floor(100).key(), 3);
  EXPECT_TRUE(set.erase(3));
  EXPECT_EQ(set.size(), 0u);
  EXPECT_FALSE(set.floor(100).valid());
}

TEST(MinBlocks, PriorityOrderOrdersAsDoubles) {
  std::mt19937_64 rng(99);
  std::vector<double> v = {0.0,
                           -0.0,
                           1.0,
                           -1.0,
                           0.5,
                           -0.5,
                           1e-300,
                           -1e-300,
                           1e300,
                           -1e300,
                           std::numeric_limits<double>::denorm_min(),
                           -std::numeric_limits<double>::denorm_min(),
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity()};
  for (int i = 0; i < 200; ++i) {
    const double x = static_cast<double>(static_cast<int64_t>(rng() % 2000001) - 1000000) * 0.095;
    v.push_back(x), v.push_back(std::nextafter(x, 1e9)), v.push_back(-x);
  }
  for (const double x : v)
    for (const double y : v) {
      ASSERT_EQ(x < y, priority_order(x) < priority_order(y)) << x << " " << y;
      ASSERT_EQ(x == y, priority_order(x) == priority_order(y)) << x << " " << y;
    }
}

// Random inserts and erases, with priorities from a small set (many ties) or a large one,
// and range minima over random ranges against a brute-force scan: the minimum, how many
// keys in the range have it, and the key when it is one.
TEST(MinBlocks, RangeMinimaAndTiesAgreeWithBruteForce) {
  for (const int64_t distinct : {int64_t{5}, int64_t{1} << 40}) {
    std::mt19937_64 rng(4242 + static_cast<uint64_t>(distinct));
    MinBlocks set;
    std::map<int64_t, int64_t> oracle;  // key -> order
    int64_t ascending = 0;
    int64_t ties_seen = 0, unique_seen = 0;
    for (int step = 0; step < 40000; ++step) {
      const int phase = step / 8000;  // even phases grow, odd ones shrink
      const int64_t k = rng() % 3 == 0 ? ascending++ : static_cast<int64_t>(rng() % 6000) - 1000;
      const bool grow = phase % 2 == 0 ? rng() % 4 != 0 : rng() % 4 == 0;
      if (grow) {
        const int64_t ord = priority_order(-static_cast<double>(static_cast<int64_t>(rng() % distinct)) * 0.25);
        if (oracle.emplace(k, ord).second) set.insert(k, ord);
      } else {
        int64_t e = k;
        if (!oracle.empty() && rng() % 2 == 0) {
          auto it = oracle.lower_bound(k);
          e = it == oracle.end() ? oracle.begin()->first : it->first;
        }
        ASSERT_EQ(set.erase(e), oracle.erase(e) == 1);
      }
      ASSERT_EQ(set.size(), oracle.size());
      ASSERT_TRUE(set.consistent()) << step;
      // Every step the whole set (which reads every group's minimum) and a random range;
      // every 23rd step seven more ranges.
      for (int q = 0; q < (step % 23 == 0 ? 9 : 2); ++q) {
        int64_t lo = static_cast<int64_t>(rng() % 9000) - 1500, hi = static_cast<int64_t>(rng() % 9000) - 1500;
        if (q == 0) lo = INT64_MIN, hi = INT64_MAX;
        if (q == 1) hi = lo + static_cast<int64_t>(rng() % 50);  // within a block or two
        const MinBlocks::Min got = set.range_min(lo, hi);
        MinBlocks::Min want;
        for (auto it = oracle.lower_bound(lo); it != oracle.end() && it->first <= hi; ++it) {
          if (it->second < want.ord)
            want = {it->second, it->first, 1};
          else if (it->second == want.ord)
            ++want.count;
        }
        ASSERT_EQ(got.count, want.count) << step << " [" << lo << ", " << hi << "]";
        if (want.count == 0) continue;
        ASSERT_EQ(got.ord, want.ord);
        if (want.count == 1) {
          ASSERT_EQ(got.key, want.key);
          ++unique_seen;
        } else {
          ++ties_seen;
        }
      }
    }
    // Then everything goes, in random order (blocks empty, some between full ones).
    std::vector<int64_t> left;
    for (const auto& [k, ord] : oracle) left.push_back(k);
    std::shuffle(left.begin(), left.end(), rng);
    for (const int64_t k : left) {
      ASSERT_TRUE(set.erase(k));
      ASSERT_TRUE(set.consistent());
    }
    EXPECT_EQ(set.size(), 0u);
    EXPECT_EQ(set.range_min(INT64_MIN, INT64_MAX).count, 0);
    // Both outcomes occur (with 5 priorities ties are the rule, with 2^40 unique minima).
    EXPECT_GT(unique_seen, 300) << distinct;
    if (distinct == 5) {
      EXPECT_GT(ties_seen, 3000);
    }
  }
}

}  // namespace
}  // namespace agatha::map
