// src/map/rmq_tree.hpp — the balanced search tree with range-minimum queries that
// minimap2 2.24's RMQ chaining (lchain.c: mg_lchain_rmq) runs on: an AVL tree (krmq.h)
// whose nodes also carry a pointer to the subtree's minimum. krmq's nodes carry their
// subtree's size too; chaining only ever reads the whole tree's, which is kept as a
// count here, and no balancing decision reads a size. Without it, and with the anchor
// index held in 32 bits, a node is 32 bytes: two to a cache line on the descent.
//
// Why a literal port of krmq's algorithms rather than any correct RMQ structure: when
// two candidates have equal priority, the one returned depends on the tree's shape and
// on which node each subtree-minimum pointer happens to name, and chaining output
// depends on that choice. So insertion (with its early stop when refreshing minima),
// deletion (with its successor splice), the two rotations (with their argument order in
// the minimum refresh) and the query walk all follow krmq.h step by step.
//
// Keys are (y, i) — query position, then anchor index; the priority is a double and
// smaller is better. Nodes live in a per-tree pool addressed by 32-bit indices; index 0
// is the scratch "fake root" that deletion uses. An erased node's slot is reused by the
// next insertion (as krmq's users free nodes to a pool), so the pool stays as large as
// the tree, not as the number of insertions. Not thread-safe; one tree per call.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace agatha::map {

class RmqTree {
 public:
  using NodeId = int32_t;
  static constexpr NodeId kNull = -1;
  static constexpr int kMaxDepth = 64;  // an AVL tree of n nodes is < 1.45 log2(n + 2) deep

  struct Key {
    int32_t y = 0;
    int64_t i = 0;
  };

  RmqTree() { nodes_.emplace_back(); }  // slot 0: the fake root of erase()

  // Room for n nodes without reallocation.
  void reserve(size_t n) { nodes_.reserve(n + 1); }
  size_t size() const { return count_; }
  Key key(NodeId n) const { return {nodes_[n].y, nodes_[n].i}; }
  double priority(NodeId n) const { return nodes_[n].pri; }

  // Inserts (key, pri), 0 <= key.i < 2^31; a key already present is left alone and its
  // node returned.
  NodeId insert(const Key& key, double pri);
  // The node with this key, or kNull.
  NodeId find(const Key& key) const;
  // Removes a node of this tree.
  void erase(NodeId node) { erase(key(node)); }
  // Removes the node with this key, if any (one descent, as krmq_erase); true if it was there.
  bool erase(const Key& key);
  // The node of minimum priority among keys in the closed range [lo, hi], or kNull.
  NodeId range_min(const Key& lo, const Key& hi) const;
  // The largest node with key <= k, or kNull (krmq_interval's lower bound).
  NodeId floor(const Key& k) const;

  // In-order cursor that walks toward smaller keys (krmq_itr_find + krmq_itr_prev).
  class Cursor {
   public:
    NodeId at() const { return depth_ == 0 ? kNull : stack_[depth_ - 1]; }
    // Moves to the previous key in order; false (and at() == kNull) past the first.
    bool prev();

   private:
    friend class RmqTree;
    const RmqTree* tree_ = nullptr;
    int depth_ = 0;
    NodeId stack_[kMaxDepth];  // the path from the root; an AVL tree is < 64 deep
  };
  // A cursor on the node with key k (the path toward where k would be if absent).
  Cursor seek(const Key& k) const;
  // A cursor on floor(k), found in the same descent (at() == kNull when there is none):
  // seek(key(floor(k))) without descending twice.
  Cursor seek_floor(const Key& k) const;

 private:
  struct Node {
    int32_t y = 0, i = 0;  // the key (an anchor index fits 32 bits)
    double pri = 0;
    NodeId child[2] = {kNull, kNull};
    NodeId min = kNull;  // node of minimum priority in this subtree
    int8_t balance = 0;  // height(right) - height(left)
  };
  static constexpr NodeId kFake = 0;
  static_assert(sizeof(Node) == 32);

  static int compare(const Key& a, const Node& b) {
    if (a.y != b.y) return a.y < b.y ? -1 : 1;
    return (a.i > b.i) - (a.i < b.i);
  }
  bool less_pri(NodeId a, NodeId b) const { return nodes_[a].pri < nodes_[b].pri; }
  void refresh_min(NodeId p, NodeId first, NodeId second);
  NodeId rotate1(NodeId p, int dir);
  NodeId rotate2(NodeId p, int dir);

  std::vector<Node> nodes_;
  NodeId root_ = kNull;
  NodeId free_ = kNull;  // erased slots, linked through child[0]
  size_t count_ = 0;     // nodes in the tree
};

// ---- implementation -------------------------------------------------------------------

// p.min = the minimum of p, first's subtree and second's subtree, where a tie keeps the
// earlier candidate over p but lets `second` win over the running minimum (krmq_update_min).
inline void RmqTree::refresh_min(NodeId p, NodeId first, NodeId second) {
  Node& n = nodes_[p];
  n.min = (first == kNull || less_pri(p, nodes_[first].min)) ? p : nodes_[first].min;
  if (second != kNull && !less_pri(n.min, nodes_[second].min)) n.min = nodes_[second].min;
}

// Single rotation: (a,(b,c)q)p => ((a,b)p,c)q for dir 0, mirrored for dir 1.
inline RmqTree::NodeId RmqTree::rotate1(NodeId p, int dir) {
  const int opp = 1 - dir;
  const NodeId q = nodes_[p].child[opp];
  const NodeId old_min = nodes_[p].min;
  refresh_min(p, nodes_[p].child[dir], nodes_[q].child[dir]);
  nodes_[q].min = old_min;
  nodes_[p].child[opp] = nodes_[q].child[dir];
  nodes_[q].child[dir] = p;
  return q;
}

// Double rotation: (a,((b,c)r,d)q)p => ((a,b)p,(c,d)q)r for dir 0, mirrored for dir 1.
inline RmqTree::NodeId RmqTree::rotate2(NodeId p, int dir) {
  const int opp = 1 - dir;
  const NodeId q = nodes_[p].child[opp];
  const NodeId r = nodes_[q].child[dir];
  const NodeId old_min = nodes_[p].min;
  refresh_min(p, nodes_[p].child[dir], nodes_[r].child[dir]);
  refresh_min(q, nodes_[q].child[opp], nodes_[r].child[opp]);
  nodes_[r].min = old_min;
  nodes_[p].child[opp] = nodes_[r].child[dir];
  nodes_[r].child[dir] = p;
  nodes_[q].child[dir] = nodes_[r].child[opp];
  nodes_[r].child[opp] = q;
  const int b1 = dir == 0 ? +1 : -1;
  if (nodes_[r].balance == b1) {
    nodes_[q].balance = 0, nodes_[p].balance = static_cast<int8_t>(-b1);
  } else if (nodes_[r].balance == 0) {
    nodes_[q].balance = nodes_[p].balance = 0;
  } else {
    nodes_[q].balance = static_cast<int8_t>(b1), nodes_[p].balance = 0;
  }
  nodes_[r].balance = 0;
  return r;
}

inline RmqTree::NodeId RmqTree::insert(const Key& key, double pri) {
  // Descend, remembering the path, and the deepest unbalanced node (top) with its parent:
  // only the subtree below `top` can need a rotation.
  NodeId path[kMaxDepth];
  uint8_t dirs[kMaxDepth];
  int path_len = 0, n_dirs = 0, which = 0;
  NodeId top = root_, top_parent = kNull, parent = kNull;
  for (NodeId p = root_; p != kNull; parent = p, p = nodes_[p].child[which]) {
    const int cmp = compare(key, nodes_[p]);
    if (cmp == 0) return p;
    if (nodes_[p].balance != 0) top_parent = parent, top = p, n_dirs = 0;
    dirs[n_dirs++] = static_cast<uint8_t>(which = cmp > 0);
    path[path_len++] = p;
  }
  Node node;
  assert(key.i >= 0 && key.i <= INT32_MAX);
  node.y = key.y, node.i = static_cast<int32_t>(key.i), node.pri = pri;
  NodeId x = free_;
  if (x != kNull) {
    free_ = nodes_[x].child[0];
    nodes_[x] = node;
  } else {
    x = static_cast<NodeId>(nodes_.size());
    nodes_.push_back(node);
  }
  nodes_[x].min = x;
  if (parent == kNull)
    root_ = x;
  else
    nodes_[parent].child[which] = x;
  ++count_;
  if (top == kNull) return x;

  for (int i = path_len - 1; i >= 0; --i) {  // stops once x is no longer a subtree minimum
    refresh_min(path[i], nodes_[path[i]].child[0], nodes_[path[i]].child[1]);
    if (nodes_[path[i]].min != x) break;
  }
  int d = 0;
  for (NodeId p = top; p != x; p = nodes_[p].child[dirs[d]], ++d) nodes_[p].balance += dirs[d] == 0 ? -1 : +1;
  if (nodes_[top].balance > -2 && nodes_[top].balance < 2) return x;

  which = nodes_[top].balance < 0;
  const int b1 = which == 0 ? +1 : -1;
  const NodeId q = nodes_[top].child[1 - which];
  NodeId r;
  if (nodes_[q].balance == b1) {
    r = rotate1(top, which);
    nodes_[q].balance = nodes_[top].balance = 0;
  } else {
    r = rotate2(top, which);
  }
  if (top_parent == kNull)
    root_ = r;
  else
    nodes_[top_parent].child[top != nodes_[top_parent].child[0]] = r;
  return x;
}

inline RmqTree::NodeId RmqTree::find(const Key& key) const {
  NodeId p = root_;
  while (p != kNull) {
    const int cmp = compare(key, nodes_[p]);
    if (cmp == 0) break;
    p = nodes_[p].child[cmp > 0];
  }
  return p;
}

inline bool RmqTree::erase(const Key& key) {
  if (root_ == kNull) return false;
  // The fake root is a copy of the root whose left child is the root, so that the root
  // has a parent like every other node (krmq_erase).
  NodeId path[kMaxDepth];
  uint8_t dir[kMaxDepth];
  int d = 0;
  nodes_[kFake] = nodes_[root_];
  nodes_[kFake].child[0] = root_, nodes_[kFake].child[1] = kNull;
  NodeId p = kFake;
  for (int cmp = -1; cmp != 0; cmp = compare(key, nodes_[p])) {
    const int which = cmp > 0;
    dir[d] = static_cast<uint8_t>(which), path[d++] = p;
    p = nodes_[p].child[which];
    if (p == kNull) return false;
  }
  --count_;

  if (nodes_[p].child[1] == kNull) {  // ((1,.)2,3)4 => (1,3)4; p=2
    nodes_[path[d - 1]].child[dir[d - 1]] = nodes_[p].child[0];
  } else {
    NodeId q = nodes_[p].child[1];
    if (nodes_[q].child[0] == kNull) {  // ((1,2)3,4)5 => ((1)2,4)5; p=3, q=2
      nodes_[q].child[0] = nodes_[p].child[0];
      nodes_[q].balance = nodes_[p].balance;
      nodes_[path[d - 1]].child[dir[d - 1]] = q;
      path[d] = q, dir[d++] = 1;
    } else {  // p's successor r (leftmost of the right subtree) takes p's place
      NodeId r;
      const int e = d++;
      for (;;) {
        dir[d] = 0, path[d++] = q;
        r = nodes_[q].child[0];
        if (nodes_[r].child[0] == kNull) break;
        q = r;
      }
      nodes_[r].child[0] = nodes_[p].child[0];
      nodes_[q].child[0] = nodes_[r].child[1];
      nodes_[r].child[1] = nodes_[p].child[1];
      nodes_[r].balance = nodes_[p].balance;
      nodes_[path[e - 1]].child[dir[e - 1]] = r;
      path[e] = r, dir[e] = 1;
    }
  }
  for (int i = d - 1; i >= 0; --i) refresh_min(path[i], nodes_[path[i]].child[0], nodes_[path[i]].child[1]);

  while (--d > 0) {  // rebalance upward
    const NodeId q = path[d];
    const int which = dir[d], other = 1 - which;
    const int b1 = which ? -1 : 1, b2 = which ? -2 : 2;
    nodes_[q].balance += b1;
    if (nodes_[q].balance == b1) break;
    if (nodes_[q].balance != b2) continue;
    const NodeId r = nodes_[q].child[other];
    if (nodes_[r].balance == -b1) {
      nodes_[path[d - 1]].child[dir[d - 1]] = rotate2(q, which);
    } else {
      nodes_[path[d - 1]].child[dir[d - 1]] = rotate1(q, which);
      if (nodes_[r].balance == 0) {
        nodes_[r].balance = static_cast<int8_t>(-b1);
        nodes_[q].balance = static_cast<int8_t>(b1);
        break;
      }
      nodes_[r].balance = nodes_[q].balance = 0;
    }
  }
  root_ = nodes_[kFake].child[0];
  nodes_[p].child[0] = free_, free_ = p;  // p is the erased node: its slot is free
  return true;
}

inline RmqTree::NodeId RmqTree::range_min(const Key& lo, const Key& hi) const {
  if (root_ == kNull) return kNull;
  // The search paths of both bounds; their lowest common node inside [lo, hi] is the LCA.
  NodeId path[2][kMaxDepth];
  int pcmp[2][kMaxDepth], plen[2] = {0, 0};
  const Key* bound[2] = {&lo, &hi};
  for (int s = 0; s < 2; ++s) {
    for (NodeId p = root_; p != kNull;) {
      const int cmp = compare(*bound[s], nodes_[p]);
      path[s][plen[s]] = p, pcmp[s][plen[s]++] = cmp;
      if (cmp == 0) break;
      p = nodes_[p].child[cmp > 0];
    }
  }
  int i = 0;
  for (; i < plen[0] && i < plen[1]; ++i)
    if (path[0][i] == path[1][i] && pcmp[0][i] <= 0 && pcmp[1][i] >= 0) break;
  if (i == plen[0] || i == plen[1]) return kNull;
  const int lca = i;
  NodeId min = path[0][lca];
  // Below the LCA: on the lower path, nodes >= lo and their right subtrees; on the upper
  // path, nodes <= hi and their left subtrees. Only a strictly smaller priority replaces.
  for (i = lca + 1; i < plen[0]; ++i) {
    if (pcmp[0][i] > 0) continue;
    const NodeId n = path[0][i], right = nodes_[n].child[1];
    if (less_pri(n, min)) min = n;
    if (right != kNull && less_pri(nodes_[right].min, min)) min = nodes_[right].min;
  }
  for (i = lca + 1; i < plen[1]; ++i) {
    if (pcmp[1][i] < 0) continue;
    const NodeId n = path[1][i], left = nodes_[n].child[0];
    if (less_pri(n, min)) min = n;
    if (left != kNull && less_pri(nodes_[left].min, min)) min = nodes_[left].min;
  }
  return min;
}

inline RmqTree::NodeId RmqTree::floor(const Key& k) const {
  NodeId lower = kNull;
  for (NodeId p = root_; p != kNull;) {
    const int cmp = compare(k, nodes_[p]);
    if (cmp == 0) return p;
    if (cmp > 0) lower = p;
    p = nodes_[p].child[cmp > 0];
  }
  return lower;
}

inline RmqTree::Cursor RmqTree::seek(const Key& k) const {
  Cursor c;
  c.tree_ = this;
  for (NodeId p = root_; p != kNull;) {
    c.stack_[c.depth_++] = p;
    const int cmp = compare(k, nodes_[p]);
    if (cmp == 0) break;
    p = nodes_[p].child[cmp > 0];
  }
  return c;
}

inline RmqTree::Cursor RmqTree::seek_floor(const Key& k) const {
  Cursor c;
  c.tree_ = this;
  int floor_depth = 0;  // the path up to the last node with a smaller key
  for (NodeId p = root_; p != kNull;) {
    c.stack_[c.depth_++] = p;
    const int cmp = compare(k, nodes_[p]);
    if (cmp == 0) return c;
    if (cmp > 0) floor_depth = c.depth_;
    p = nodes_[p].child[cmp > 0];
  }
  c.depth_ = floor_depth;
  return c;
}

inline bool RmqTree::Cursor::prev() {
  if (depth_ == 0) return false;
  NodeId p = tree_->nodes_[stack_[depth_ - 1]].child[0];
  if (p != kNull) {  // down: the rightmost node of the left subtree
    for (; p != kNull; p = tree_->nodes_[p].child[1]) stack_[depth_++] = p;
    return true;
  }
  do {  // up: until we arrive from a right child
    p = stack_[--depth_];
  } while (depth_ > 0 && p == tree_->nodes_[stack_[depth_ - 1]].child[0]);
  return depth_ > 0;
}

}  // namespace agatha::map
