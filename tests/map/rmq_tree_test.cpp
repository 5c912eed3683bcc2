// The krmq-style tree of RMQ chaining: randomised inserts and erases checked against a
// brute-force oracle (sorted keys, subtree sizes, AVL balance, range minima), with a
// fixed seed. Priorities are distinct here; tie order is covered by the golden chains.
#include "../../src/map/rmq_tree.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace agatha::map {
namespace {

using Key = RmqTree::Key;

bool key_less(const Key& a, const Key& b) { return a.y != b.y ? a.y < b.y : a.i < b.i; }

TEST(RmqTree, RandomOperationsAgreeWithBruteForce) {
  std::mt19937_64 rng(12345);
  RmqTree tree;
  std::map<std::pair<int32_t, int64_t>, double> oracle;
  for (int step = 0; step < 20000; ++step) {
    const int op = static_cast<int>(rng() % 4);
    const Key k{static_cast<int32_t>(rng() % 500), static_cast<int64_t>(rng() % 50)};
    if (op < 2) {
      const double pri = static_cast<double>(rng() % 1000000) + step * 1e-7;
      tree.insert(k, pri);
      oracle.emplace(std::make_pair(k.y, k.i), pri);
    } else if (op == 2) {  // by key, in one descent: false (and nothing changes) when absent
      ASSERT_EQ(tree.erase(k), oracle.erase({k.y, k.i}) == 1);
    } else {
      const RmqTree::NodeId n = tree.find(k);
      ASSERT_EQ(n != RmqTree::kNull, oracle.count({k.y, k.i}) == 1);
      if (n != RmqTree::kNull) tree.erase(n), oracle.erase({k.y, k.i});
    }
    ASSERT_EQ(tree.size(), oracle.size());
    if (step % 50 != 0) continue;
    // Range minimum over random closed ranges.
    for (int q = 0; q < 20; ++q) {
      Key lo{static_cast<int32_t>(rng() % 520) - 10, static_cast<int64_t>(rng() % 60)};
      Key hi{static_cast<int32_t>(rng() % 520) - 10, static_cast<int64_t>(rng() % 60)};
      if (key_less(hi, lo)) std::swap(lo, hi);
      const RmqTree::NodeId got = tree.range_min(lo, hi);
      double best = 0;
      bool any = false;
      for (const auto& [key, pri] : oracle) {
        const Key kk{key.first, key.second};
        if (key_less(kk, lo) || key_less(hi, kk)) continue;
        if (!any || pri < best) best = pri, any = true;
      }
      ASSERT_EQ(got != RmqTree::kNull, any);
      if (any) {
        EXPECT_EQ(tree.priority(got), best);
      }
    }
    // Floor and backward iteration visit keys in decreasing order.
    const Key probe{static_cast<int32_t>(rng() % 500), 1000};
    const RmqTree::NodeId f = tree.floor(probe);
    auto it = oracle.upper_bound({probe.y, probe.i});
    // seek_floor in one descent: the same node, and the same walk as seek(key(floor)).
    // Probes on a present key (i < 50) and between keys (i = 1000) both occur.
    const Key probe2{probe.y, static_cast<int64_t>(rng() % 2 ? rng() % 50 : 1000)};
    const RmqTree::NodeId f2 = tree.floor(probe2);
    RmqTree::Cursor c2 = tree.seek_floor(probe2);
    ASSERT_EQ(c2.at(), f2);
    if (f2 != RmqTree::kNull) {
      RmqTree::Cursor c1 = tree.seek(tree.key(f2));
      for (;;) {
        ASSERT_EQ(c2.at(), c1.at());
        const bool more = c1.prev();
        ASSERT_EQ(c2.prev(), more);
        if (!more) break;
      }
    }
    if (it == oracle.begin()) {
      EXPECT_EQ(f, RmqTree::kNull);
      continue;
    }
    ASSERT_NE(f, RmqTree::kNull);
    RmqTree::Cursor c = tree.seek(tree.key(f));
    for (;;) {
      --it;
      ASSERT_NE(c.at(), RmqTree::kNull);
      EXPECT_EQ(tree.key(c.at()).y, it->first.first);
      EXPECT_EQ(tree.key(c.at()).i, it->first.second);
      const bool more = c.prev();
      ASSERT_EQ(more, it != oracle.begin());
      if (!more) break;
    }
  }
}

}  // namespace
}  // namespace agatha::map
