// src/map/key_blocks.hpp — the ordered set of keys that RMQ chaining's near-predecessor
// walk runs on (mg_lchain_rmq's second tree, of the anchors within the inner distance).
// That tree is only ever walked in key order from a floor; it is never asked for a
// minimum. Keys are unique, so which structure holds them cannot change the walk, and a
// structure without priorities, subtree minima or rebalancing serves.
//
// Keys live in sorted blocks of at most kBlock keys; a parallel array of each block's
// largest key finds a block by binary search. An insertion or erasure moves at most one
// block's keys (and, when a block splits, empties or merges, one entry of the block
// list); the backward walk steps through contiguous keys. Not thread-safe.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace agatha::map {

class KeyBlocks {
 public:
  static constexpr int kBlock = 64;

  size_t size() const { return count_; }

  // Adds k, which must not be present.
  void insert(int64_t k);
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
    friend class KeyBlocks;
    const KeyBlocks* set_ = nullptr;
    const int64_t* keys_ = nullptr;  // the current block's keys; null when not valid
    size_t blk_ = 0;                 // its place in the block list
    int pos_ = 0;
  };
  // A cursor on the largest key <= k (not valid when there is none). The set must not
  // change while the cursor is used.
  Cursor floor(int64_t k) const;

 private:
  struct Block {
    int32_t n = 0;
    int64_t k[kBlock];
  };
  // The first block (in key order) whose largest key is >= k; order_.size() if none.
  size_t find_block(int64_t k) const {
    return static_cast<size_t>(std::lower_bound(max_.begin(), max_.end(), k) - max_.begin());
  }
  int32_t new_block();
  void drop_block(size_t bi);

  std::vector<Block> pool_;
  std::vector<int32_t> free_;   // unused slots of pool_
  std::vector<int32_t> order_;  // blocks in key order
  std::vector<int64_t> max_;    // the largest key of each block of order_
  size_t count_ = 0;
};

// ---- implementation -------------------------------------------------------------------

inline int32_t KeyBlocks::new_block() {
  if (!free_.empty()) {
    const int32_t b = free_.back();
    free_.pop_back();
    pool_[static_cast<size_t>(b)].n = 0;
    return b;
  }
  pool_.emplace_back();
  return static_cast<int32_t>(pool_.size() - 1);
}

inline void KeyBlocks::drop_block(size_t bi) {
  free_.push_back(order_[bi]);
  order_.erase(order_.begin() + static_cast<std::ptrdiff_t>(bi));
  max_.erase(max_.begin() + static_cast<std::ptrdiff_t>(bi));
}

inline void KeyBlocks::insert(int64_t k) {
  ++count_;
  if (order_.empty()) {
    const int32_t b = new_block();
    pool_[static_cast<size_t>(b)].k[0] = k, pool_[static_cast<size_t>(b)].n = 1;
    order_.push_back(b), max_.push_back(k);
    return;
  }
  size_t bi = std::min(find_block(k), order_.size() - 1);  // past every key: the last block
  if (pool_[static_cast<size_t>(order_[bi])].n == kBlock) {  // split in halves
    const int32_t nb = new_block();
    Block &lo = pool_[static_cast<size_t>(order_[bi])], &hi = pool_[static_cast<size_t>(nb)];
    constexpr int kHalf = kBlock / 2;
    std::memcpy(hi.k, lo.k + kHalf, sizeof(int64_t) * (kBlock - kHalf));
    hi.n = kBlock - kHalf, lo.n = kHalf;
    order_.insert(order_.begin() + static_cast<std::ptrdiff_t>(bi + 1), nb);
    max_.insert(max_.begin() + static_cast<std::ptrdiff_t>(bi + 1), max_[bi]);
    max_[bi] = lo.k[kHalf - 1];
    if (k > max_[bi]) ++bi;
  }
  Block& b = pool_[static_cast<size_t>(order_[bi])];
  const int pos = static_cast<int>(std::lower_bound(b.k, b.k + b.n, k) - b.k);
  std::memmove(b.k + pos + 1, b.k + pos, sizeof(int64_t) * static_cast<size_t>(b.n - pos));
  b.k[pos] = k;
  if (pos == b.n) max_[bi] = k;
  ++b.n;
}

inline bool KeyBlocks::erase(int64_t k) {
  const size_t bi = find_block(k);
  if (bi == order_.size()) return false;
  Block& b = pool_[static_cast<size_t>(order_[bi])];
  const int pos = static_cast<int>(std::lower_bound(b.k, b.k + b.n, k) - b.k);
  if (pos == b.n || b.k[pos] != k) return false;
  --count_;
  std::memmove(b.k + pos, b.k + pos + 1, sizeof(int64_t) * static_cast<size_t>(b.n - pos - 1));
  --b.n;
  if (b.n == 0) {
    drop_block(bi);
    return true;
  }
  if (pos == b.n) max_[bi] = b.k[b.n - 1];
  // A block down to a quarter joins a neighbour that has room, so that the block list
  // stays short (at most about 4 / kBlock of the keys' count, plus one).
  constexpr int kJoin = kBlock * 3 / 4;
  if (b.n > kBlock / 4) return true;
  if (bi + 1 < order_.size() && pool_[static_cast<size_t>(order_[bi + 1])].n + b.n <= kJoin) {
    const Block& next = pool_[static_cast<size_t>(order_[bi + 1])];
    std::memcpy(b.k + b.n, next.k, sizeof(int64_t) * static_cast<size_t>(next.n));
    b.n += next.n;
    max_[bi] = max_[bi + 1];
    drop_block(bi + 1);
  } else if (bi > 0 && pool_[static_cast<size_t>(order_[bi - 1])].n + b.n <= kJoin) {
    Block& prev = pool_[static_cast<size_t>(order_[bi - 1])];
    std::memcpy(prev.k + prev.n, b.k, sizeof(int64_t) * static_cast<size_t>(b.n));
    prev.n += b.n;
    max_[bi - 1] = max_[bi];
    drop_block(bi);
  }
  return true;
}

inline KeyBlocks::Cursor KeyBlocks::floor(int64_t k) const {
  Cursor c;
  c.set_ = this;
  if (order_.empty()) return c;
  size_t bi = find_block(k);
  if (bi < order_.size()) {
    const Block& b = pool_[static_cast<size_t>(order_[bi])];
    const int pos = static_cast<int>(std::upper_bound(b.k, b.k + b.n, k) - b.k) - 1;
    if (pos >= 0) {
      c.keys_ = b.k, c.blk_ = bi, c.pos_ = pos;
      return c;
    }
    if (bi == 0) return c;
  }
  --bi;  // every key of the block before is < k
  const Block& b = pool_[static_cast<size_t>(order_[bi])];
  c.keys_ = b.k, c.blk_ = bi, c.pos_ = b.n - 1;
  return c;
}

}  // namespace agatha::map
