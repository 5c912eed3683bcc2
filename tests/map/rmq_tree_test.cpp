// The krmq-style tree of RMQ chaining: randomised inserts and erases checked against a
// brute-force oracle (sorted keys, range minima), with a fixed seed. Priorities are
// distinct here; tie order is covered by the golden chains. Also the ordered key set of
// the near-predecessor walk (KeyBlocks) against std::set: membership, floor and the
// backward walk, through splits, emptied blocks and joins.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

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

}  // namespace
}  // namespace agatha::map
