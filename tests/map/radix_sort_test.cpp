// The radix sort: sorted output for all sizes, and minimap2's tie order. The tie order is
// checked against a second model of minimap2's radix_sort_128x (ksort.h's
// KRADIX_SORT_INIT: in-place MSD radix sort) written with index arithmetic (bucket
// begin/end indices, a carried element); the golden seed tests check it end to end
// against minimap2's own anchor order.
#include "../../src/map/radix_sort.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace agatha::map {
namespace {

// KRADIX_SORT_INIT's sort on indices: 8-bit digits from the top, buckets permuted in
// place by cycle-leader, insertion sort at <= 64 records.
struct Model {
  std::vector<Anchor>& v;
  void ins(size_t b, size_t e) {
    for (size_t i = b + 1; i < e; ++i)
      if (v[i].x < v[i - 1].x) {
        Anchor t = v[i];
        size_t j = i;
        for (; j > b && t.x < v[j - 1].x; --j) v[j] = v[j - 1];
        v[j] = t;
      }
  }
  void rs(size_t beg, size_t end, int s) {
    size_t bb[256], be[256];
    for (int i = 0; i < 256; ++i) bb[i] = be[i] = beg;
    for (size_t i = beg; i < end; ++i) ++be[v[i].x >> s & 255];
    for (int k = 1; k < 256; ++k) be[k] += be[k - 1] - beg, bb[k] = be[k - 1];
    for (int k = 0; k < 256;) {
      if (bb[k] != be[k]) {
        int l = static_cast<int>(v[bb[k]].x >> s & 255);
        if (l != k) {
          Anchor tmp = v[bb[k]], swp;
          do {
            swp = tmp, tmp = v[bb[l]], v[bb[l]++] = swp;
            l = static_cast<int>(tmp.x >> s & 255);
          } while (l != k);
          v[bb[k]++] = tmp;
        } else {
          ++bb[k];
        }
      } else {
        ++k;
      }
    }
    bb[0] = beg;
    for (int k = 1; k < 256; ++k) bb[k] = be[k - 1];
    if (s) {
      s = s > 8 ? s - 8 : 0;
      for (int k = 0; k < 256; ++k)
        if (be[k] - bb[k] > 64)
          rs(bb[k], be[k], s);
        else if (be[k] - bb[k] > 1)
          ins(bb[k], be[k]);
    }
  }
  void sort() {
    if (v.size() <= 64)
      ins(0, v.size());
    else
      rs(0, v.size(), 56);
  }
};

TEST(RadixSort, SortsAndReproducesTieOrder) {
  std::mt19937_64 rng(7);
  for (size_t n : {0, 1, 2, 63, 64, 65, 300, 5000, 40000}) {
    for (int keyspace : {3, 1000, 0}) {
      std::vector<Anchor> a(n);
      for (size_t i = 0; i < n; ++i) {
        uint64_t key = keyspace ? rng() % keyspace : rng();
        // Spread small keys over several digits so that many radix levels are used.
        if (keyspace) key = key << 40 | key << 20 | key;
        a[i] = {key, i};
      }
      std::vector<Anchor> want = a;
      Model{want}.sort();
      radix_sort_by_x(a.data(), a.data() + a.size());
      ASSERT_TRUE(std::is_sorted(a.begin(), a.end(), [](const Anchor& p, const Anchor& q) { return p.x < q.x; }));
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(a[i].y, want[i].y) << "n=" << n << " i=" << i;
    }
  }
}

// On several threads (a contig's anchors): the order, ties included, is radix_sort's.
TEST(RadixSort, ParallelGivesTheSameOrder) {
  std::mt19937_64 rng(19);
  for (size_t n : {0, 1, 64, 65, 5000, 100000}) {
    for (int keyspace : {3, 1000, 0}) {
      std::vector<Anchor> a(n);
      for (size_t i = 0; i < n; ++i) {
        uint64_t key = keyspace ? rng() % keyspace : rng();
        if (keyspace) key = key << 40 | key << 20 | key;
        if (i % 3 == 0) key |= uint64_t{1} << 63;  // a shared top digit for some
        a[i] = {key, i};
      }
      std::vector<Anchor> want = a;
      radix_sort_by_x(want.data(), want.data() + want.size());
      for (int threads : {1, 2, 3, 8}) {
        std::vector<Anchor> got = a;
        radix_sort_by_x(got.data(), got.data() + got.size(), threads);
        for (size_t i = 0; i < n; ++i) ASSERT_EQ(got[i].y, want[i].y) << "n=" << n << " threads=" << threads;
      }
    }
  }
}

// Anchors of one long query: nearly all on the forward strand and one reference
// sequence, with repeated positions. The bucket of the first pass that holds most of
// them is itself split on all threads (msd_sort_parallel), at every level where one
// bucket holds more than a thread's share: the order, ties included, is radix_sort's.
TEST(RadixSort, ParallelSplitsADominantBucket) {
  std::mt19937_64 rng(37);
  for (size_t n : {3000, 200000}) {
    for (uint64_t span : {2000ull, 1ull << 24}) {
      std::vector<Anchor> a(n);
      for (size_t i = 0; i < n; ++i) {
        const uint64_t strand = rng() % 100 == 0, rid = rng() % 50 == 0 ? 1 + rng() % 2 : 0;
        a[i] = {strand << 63 | rid << 32 | rng() % span, i};
      }
      std::vector<Anchor> want = a;
      radix_sort_by_x(want.data(), want.data() + want.size());
      for (int threads : {2, 3, 5, 16}) {
        std::vector<Anchor> got = a;
        radix_sort_by_x(got.data(), got.data() + got.size(), threads);
        for (size_t i = 0; i < n; ++i)
          ASSERT_EQ(got[i].y, want[i].y) << "n=" << n << " span=" << span << " threads=" << threads;
      }
    }
  }
}

// Keys shaped like anchors (strand << 63 | rid << 32 | position), whose high digits are
// shared by the whole range or by a bucket: the passes skipped over shared digits must
// leave the same order as the model, which makes every pass.
TEST(RadixSort, SharedHighDigitsKeepTieOrder) {
  std::mt19937_64 rng(11);
  for (size_t n : {65, 200, 3000, 20000}) {
    for (uint64_t span : {1ull, 50ull, 5000ull, 1ull << 20, 1ull << 30}) {
      for (int rids : {1, 3}) {
        std::vector<Anchor> a(n);
        const uint64_t base = rng() % (1ull << 31);
        for (size_t i = 0; i < n; ++i) {
          const uint64_t strand = rng() & 1, rid = rng() % rids, pos = base + rng() % span;
          a[i] = {strand << 63 | rid << 32 | pos, i};
        }
        std::vector<Anchor> want = a;
        Model{want}.sort();
        radix_sort_by_x(a.data(), a.data() + a.size());
        for (size_t i = 0; i < n; ++i)
          ASSERT_EQ(a[i].y, want[i].y) << "n=" << n << " span=" << span << " rids=" << rids << " i=" << i;
      }
    }
  }
}

TEST(RadixSort, SmallInputsAreStable) {
  std::vector<Anchor> a = {{5, 0}, {1, 1}, {5, 2}, {1, 3}, {0, 4}};
  radix_sort_by_x(a.data(), a.data() + a.size());
  const std::vector<uint64_t> order = {4, 1, 3, 0, 2};
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].y, order[i]);
}

TEST(RadixSort, PlainU64) {
  std::mt19937_64 rng(3);
  std::vector<uint64_t> v(10000);
  for (auto& x : v) x = rng() >> (rng() % 64);
  auto want = v;
  std::sort(want.begin(), want.end());
  radix_sort_u64(v.data(), v.data() + v.size());
  EXPECT_EQ(v, want);
}

}  // namespace
}  // namespace agatha::map
