// src/map/key_blocks.hpp — ordered sets of keys for RMQ chaining (mg_lchain_rmq):
//
//   KeyBlocks  the keys alone: the set its near-predecessor walk runs on (the second
//              tree, of the anchors within the inner distance), which is only ever
//              walked in key order from a floor and never asked for a minimum.
//   MinBlocks  keys with a priority each, and the minimum priority over a range of keys
//              with the number of keys that reach it: the range-minimum queries of the
//              first tree. A unique minimum is the one answer any exact structure gives;
//              only a tie depends on which structure holds the keys (see chain.cpp).
//
// Keys are unique, so which structure holds them cannot change a walk in key order.
// Keys live in sorted blocks of at most kBlock keys; parallel arrays hold each block's
// largest key (which finds a block by binary search) and, in a MinBlocks, its smallest
// priority, how many of its keys have it and, when one does, that key. An insertion or
// erasure moves at most one block's keys (and, when a block splits, empties or merges,
// one entry of the block list); the backward walk steps through contiguous keys; a range
// minimum reads the minima of the blocks between the range's two end blocks, and the
// keys of an end block only where the block's own minimum cannot answer for the part of
// it in the range. Not thread-safe.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace agatha::map {

// A priority as a 64-bit integer that orders as the double does (the sign bit as is,
// the other bits flipped for negative values); zero of either sign maps to +0's. NaN is
// not a priority.
constexpr int64_t priority_order(double pri) {
  const auto bits = std::bit_cast<int64_t>(pri == 0 ? 0.0 : pri);
  return bits >= 0 ? bits : bits ^ INT64_MAX;
}

template <bool kWithMin>
class OrderedBlocks {
 public:
  static constexpr int kBlock = 64;

  size_t size() const { return count_; }

  // Adds k, which must not be present (with its priority's order, priority_order(pri),
  // in a MinBlocks).
  void insert(int64_t k, int64_t ord = 0);
  // Removes k; false (and nothing changes) when it is absent.
  bool erase(int64_t k);

  // A position in key order that walks toward smaller keys.
  class Cursor {
   public:
    bool valid() const { return keys_ != nullptr; }
    int64_t key() const { return keys_[pos_]; }
    // Moves to the next smaller key; afterwards !valid() past the smallest.
    void prev() {
      if (pos_ > 0) {
        --pos_;
      } else if (blk_ > 0) {
        const Block& b = set_->pool_[set_->order_[--blk_]];
        keys_ = b.k, pos_ = b.n - 1;
      } else {
        keys_ = nullptr;
      }
    }

   private:
    friend class OrderedBlocks;
    const OrderedBlocks* set_ = nullptr;
    const int64_t* keys_ = nullptr;  // the current block's keys; null when not valid
    size_t blk_ = 0;                 // its place in the block list
    int pos_ = 0;
  };
  // A cursor on the largest key <= k (not valid when there is none). The set must not
  // change while the cursor is used.
  Cursor floor(int64_t k) const;

  // The smallest priority order among the keys in [lo, hi], how many keys there have it
  // (0: the range holds no key) and, when one does, which.
  struct Min {
    int64_t ord = INT64_MAX;
    int64_t key = 0;
    int64_t count = 0;
  };
  Min range_min(int64_t lo, int64_t hi) const requires kWithMin;

  // Whether the block list is consistent: keys ascending within and across blocks, no
  // block empty or over kBlock, the count, each block's largest key, and (MinBlocks) each
  // block's and each group's minimum and count. For tests; linear in the size.
  bool consistent() const;

 private:
  struct Keys {
    int32_t n = 0;
    int64_t k[kBlock];
  };
  struct KeysOrds : Keys {
    int64_t o[kBlock];
  };
  using Block = std::conditional_t<kWithMin, KeysOrds, Keys>;
  // The smallest priority order of some keys, how many of them have it and, when one
  // does, its key.
  struct BlockMin {
    int64_t ord = INT64_MAX;
    int64_t count = 0;
    int64_t key = 0;  // meaningful when count == 1
    void add(const BlockMin& o) {
      if (o.ord < ord)
        *this = o;
      else if (o.ord == ord)
        count += o.count;
    }
  };
  // MinBlocks: the blocks' minima are also kept by groups of kGroup consecutive blocks of
  // the block list, so that a range minimum reads a group's where the range covers it.
  static constexpr size_t kGroup = 16;

  // The first block (in key order) whose largest key is >= k; order_.size() if none.
  size_t find_block(int64_t k) const {
    return static_cast<size_t>(std::lower_bound(max_.begin(), max_.end(), k) - max_.begin());
  }
  Block& block(size_t bi) { return pool_[static_cast<size_t>(order_[bi])]; }
  const Block& block(size_t bi) const { return pool_[static_cast<size_t>(order_[bi])]; }
  int32_t new_block();
  void insert_block(size_t bi, int32_t id, int64_t max);
  void drop_block(size_t bi);
  // Moves keys [from, from + n) of src (and their orders) to dst at `to`.
  static void move_keys(Block& dst, int to, const Block& src, int from, int n) {
    std::memmove(dst.k + to, src.k + from, sizeof(int64_t) * static_cast<size_t>(n));
    if constexpr (kWithMin) std::memmove(dst.o + to, src.o + from, sizeof(int64_t) * static_cast<size_t>(n));
  }
  // min_[bi] from block bi's keys (its group's minimum is left as it was).
  void recount(size_t bi) requires kWithMin;
  // group_min_ of the groups from block bi's on (after blocks came or went there), or of
  // block bi's group alone (after its minimum changed).
  void regroup_from(size_t bi);
  void regroup(size_t bi) {
    if constexpr (kWithMin) {
      BlockMin m;
      const size_t g = bi / kGroup;
      for (size_t b = g * kGroup; b < std::min(order_.size(), (g + 1) * kGroup); ++b) m.add(min_[b]);
      group_min_[g] = m;
    }
  }

  std::vector<Block> pool_;
  std::vector<int32_t> free_;        // unused slots of pool_
  std::vector<int32_t> order_;       // blocks in key order
  std::vector<int64_t> max_;         // the largest key of each block of order_
  std::vector<BlockMin> min_;        // MinBlocks: the minimum of each block of order_
  std::vector<BlockMin> group_min_;  // and of each group of kGroup of them
  size_t count_ = 0;
};

using KeyBlocks = OrderedBlocks<false>;
using MinBlocks = OrderedBlocks<true>;

// ---- implementation -------------------------------------------------------------------

template <bool kWithMin>
int32_t OrderedBlocks<kWithMin>::new_block() {
  if (!free_.empty()) {
    const int32_t b = free_.back();
    free_.pop_back();
    pool_[static_cast<size_t>(b)].n = 0;
    return b;
  }
  pool_.emplace_back();
  return static_cast<int32_t>(pool_.size() - 1);
}

template <bool kWithMin>
void OrderedBlocks<kWithMin>::insert_block(size_t bi, int32_t id, int64_t max) {
  order_.insert(order_.begin() + static_cast<std::ptrdiff_t>(bi), id);
  max_.insert(max_.begin() + static_cast<std::ptrdiff_t>(bi), max);
  if constexpr (kWithMin) min_.insert(min_.begin() + static_cast<std::ptrdiff_t>(bi), BlockMin{});
}

template <bool kWithMin>
void OrderedBlocks<kWithMin>::drop_block(size_t bi) {
  free_.push_back(order_[bi]);
  order_.erase(order_.begin() + static_cast<std::ptrdiff_t>(bi));
  max_.erase(max_.begin() + static_cast<std::ptrdiff_t>(bi));
  if constexpr (kWithMin) min_.erase(min_.begin() + static_cast<std::ptrdiff_t>(bi));
}

template <bool kWithMin>
void OrderedBlocks<kWithMin>::regroup_from(size_t bi) {
  if constexpr (kWithMin) {
    group_min_.resize((order_.size() + kGroup - 1) / kGroup);
    for (size_t g = bi / kGroup; g < group_min_.size(); ++g) regroup(g * kGroup);
  }
}

template <bool kWithMin>
void OrderedBlocks<kWithMin>::recount(size_t bi) requires kWithMin {
  const Block& b = block(bi);
  BlockMin m;
  for (int p = 0; p < b.n; ++p) {
    if (b.o[p] < m.ord)
      m = {b.o[p], 1, b.k[p]};
    else if (b.o[p] == m.ord)
      ++m.count;
  }
  min_[bi] = m;
}

template <bool kWithMin>
void OrderedBlocks<kWithMin>::insert(int64_t k, int64_t ord) {
  ++count_;
  if (order_.empty()) {
    const int32_t b = new_block();
    insert_block(0, b, k);
    Block& nb = block(0);
    nb.k[0] = k, nb.n = 1;
    if constexpr (kWithMin) nb.o[0] = ord, min_[0] = {ord, 1, k}, regroup_from(0);
    return;
  }
  size_t bi = std::min(find_block(k), order_.size() - 1);  // past every key: the last block
  if (block(bi).n == kBlock) {                             // split in halves
    const int32_t nb = new_block();
    insert_block(bi + 1, nb, max_[bi]);
    Block &lo = block(bi), &hi = block(bi + 1);
    constexpr int kHalf = kBlock / 2;
    move_keys(hi, 0, lo, kHalf, kBlock - kHalf);
    hi.n = kBlock - kHalf, lo.n = kHalf;
    max_[bi] = lo.k[kHalf - 1];
    if constexpr (kWithMin) recount(bi), recount(bi + 1), regroup_from(bi);
    if (k > max_[bi]) ++bi;
  }
  Block& b = block(bi);
  const int pos = static_cast<int>(std::lower_bound(b.k, b.k + b.n, k) - b.k);
  move_keys(b, pos + 1, b, pos, b.n - pos);
  b.k[pos] = k;
  if (pos == b.n) max_[bi] = k;
  ++b.n;
  if constexpr (kWithMin) {
    b.o[pos] = ord;
    if (ord <= min_[bi].ord) {
      min_[bi].add({ord, 1, k});
      regroup(bi);
    }
  }
}

template <bool kWithMin>
bool OrderedBlocks<kWithMin>::erase(int64_t k) {
  const size_t bi = find_block(k);
  if (bi == order_.size()) return false;
  Block& b = block(bi);
  const int pos = static_cast<int>(std::lower_bound(b.k, b.k + b.n, k) - b.k);
  if (pos == b.n || b.k[pos] != k) return false;
  --count_;
  int64_t ord = 0;
  if constexpr (kWithMin) ord = b.o[pos];
  move_keys(b, pos, b, pos + 1, b.n - pos - 1);
  --b.n;
  if (b.n == 0) {
    drop_block(bi);
    regroup_from(bi);
    return true;
  }
  if (pos == b.n) max_[bi] = b.k[b.n - 1];
  if constexpr (kWithMin) {
    if (ord == min_[bi].ord) {
      // Down to one key with the minimum: which one is found by a recount.
      if (--min_[bi].count <= 1) recount(bi);
      regroup(bi);
    }
  }
  // A block down to a quarter joins a neighbour that has room, so that the block list
  // stays short (at most about 4 / kBlock of the keys' count, plus one).
  constexpr int kJoin = kBlock * 3 / 4;
  if (b.n > kBlock / 4) return true;
  size_t into = bi, from = bi + 1;  // block `from` is appended to block `into`
  if (bi + 1 < order_.size() && block(bi + 1).n + b.n <= kJoin) {
  } else if (bi > 0 && block(bi - 1).n + b.n <= kJoin) {
    into = bi - 1, from = bi;
  } else {
    return true;
  }
  Block &dst = block(into), &src = block(from);
  move_keys(dst, dst.n, src, 0, src.n);
  dst.n += src.n;
  max_[into] = max_[from];
  if constexpr (kWithMin) min_[into].add(min_[from]);
  drop_block(from);
  regroup_from(into);
  return true;
}

template <bool kWithMin>
typename OrderedBlocks<kWithMin>::Cursor OrderedBlocks<kWithMin>::floor(int64_t k) const {
  Cursor c;
  c.set_ = this;
  if (order_.empty()) return c;
  size_t bi = find_block(k);
  if (bi < order_.size()) {
    const Block& b = block(bi);
    const int pos = static_cast<int>(std::upper_bound(b.k, b.k + b.n, k) - b.k) - 1;
    if (pos >= 0) {
      c.keys_ = b.k, c.blk_ = bi, c.pos_ = pos;
      return c;
    }
    if (bi == 0) return c;
  }
  --bi;  // every key of the block before is < k
  const Block& b = block(bi);
  c.keys_ = b.k, c.blk_ = bi, c.pos_ = b.n - 1;
  return c;
}

template <bool kWithMin>
bool OrderedBlocks<kWithMin>::consistent() const {
  size_t total = 0;
  int64_t prev = INT64_MIN;
  bool first = true;
  if (max_.size() != order_.size()) return false;
  for (size_t bi = 0; bi < order_.size(); ++bi) {
    const Block& b = block(bi);
    if (b.n < 1 || b.n > kBlock || b.k[b.n - 1] != max_[bi]) return false;
    for (int p = 0; p < b.n; ++p) {
      if (!first && b.k[p] <= prev) return false;
      prev = b.k[p], first = false;
    }
    total += static_cast<size_t>(b.n);
    if constexpr (kWithMin) {
      BlockMin m;
      for (int p = 0; p < b.n; ++p) m.add({b.o[p], 1, b.k[p]});
      if (min_.size() != order_.size() || m.ord != min_[bi].ord || m.count != min_[bi].count) return false;
      if (m.count == 1 && m.key != min_[bi].key) return false;
    }
  }
  if constexpr (kWithMin) {
    if (group_min_.size() != (order_.size() + kGroup - 1) / kGroup) return false;
    for (size_t g = 0; g < group_min_.size(); ++g) {
      BlockMin m;
      for (size_t bi = g * kGroup; bi < std::min(order_.size(), (g + 1) * kGroup); ++bi) m.add(min_[bi]);
      if (m.ord != group_min_[g].ord || m.count != group_min_[g].count) return false;
      if (m.count == 1 && m.key != group_min_[g].key) return false;
    }
  }
  return total == count_;
}

template <bool kWithMin>
typename OrderedBlocks<kWithMin>::Min OrderedBlocks<kWithMin>::range_min(int64_t lo,
                                                                         int64_t hi) const requires kWithMin {
  Min m;
  if (order_.empty() || lo > hi) return m;
  const size_t bl = find_block(lo);
  if (bl == order_.size()) return m;
  const size_t bh = std::min(find_block(hi), order_.size() - 1);
  // Blocks the range holds whole are read by their minima, and where whole groups of
  // them lie in the range, by the groups'. Then the range's end blocks, where it holds
  // part of them: not at all if the block's minimum is above the minimum so far (the
  // part's cannot be lower); by the block's minimum if that is its only key with it and
  // lies in the range (the part's minimum, then); else key by key. The count and the
  // minimum do not depend on the order of reading, and a unique minimum's key comes with
  // it from every source.
  const auto take = [&](const BlockMin& c) {
    if (c.ord < m.ord)
      m = {c.ord, c.key, c.count};
    else if (c.ord == m.ord)
      m.count += c.count;
  };
  const auto part = [&](size_t bi, int from, int to) {
    const BlockMin& c = min_[bi];
    if (c.ord > m.ord) return;
    if (c.count == 1 && c.key >= lo && c.key <= hi) return take(c);
    const Block& b = block(bi);
    for (int p = from; p < to; ++p) {
      if (b.o[p] < m.ord)
        m = {b.o[p], b.k[p], 1};
      else if (b.o[p] == m.ord)
        ++m.count;
    }
  };
  const Block& first = block(bl);
  const Block& last = block(bh);
  const int from = static_cast<int>(std::lower_bound(first.k, first.k + first.n, lo) - first.k);
  const int to = static_cast<int>(std::upper_bound(last.k, last.k + last.n, hi) - last.k);
  size_t whole_lo = bl, whole_hi = bh + 1;  // the blocks [whole_lo, whole_hi) lie in the range whole
  const bool one_part = bl == bh && (from > 0 || to < last.n);
  if (one_part) {
    whole_hi = bl;
  } else {
    if (from > 0) whole_lo = bl + 1;
    if (to < last.n) whole_hi = bh;
  }
  size_t bi = whole_lo;
  for (; bi < whole_hi && bi % kGroup != 0; ++bi) take(min_[bi]);
  for (; bi + kGroup <= whole_hi; bi += kGroup) take(group_min_[bi / kGroup]);
  for (; bi < whole_hi; ++bi) take(min_[bi]);
  if (one_part) {
    part(bl, from, to);
  } else {
    if (from > 0) part(bl, from, first.n);
    if (to < last.n) part(bh, 0, to);
  }
  return m;
}

}  // namespace agatha::map
