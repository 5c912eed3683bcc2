// src/map/rmq_tree.hpp — the balanced search tree with range-minimum queries that
// minimap2 2.24's RMQ chaining (lchain.c: mg_lchain_rmq) runs on: an AVL tree (krmq.h)
// whose nodes also carry a pointer to the subtree's minimum. krmq's nodes carry their
// subtree's size too; chaining only ever reads the whole tree's, which is kept as a
// count here, and no balancing decision reads a size. A node also keeps the priority of
// its subtree's minimum next to the pointer, so that refreshing a minimum reads the two
// children and not, through their pointers, two more nodes; the key is one 64-bit word.
//
// Why a literal port of krmq's algorithms rather than any correct RMQ structure: when
// two candidates have equal priority, the one returned depends on the tree's shape and
// on which node each subtree-minimum pointer happens to name, and chaining output
// depends on that choice. So insertion (with its early stop when refreshing minima),
// deletion (with its successor splice), the two rotations (with their argument order in
// the minimum refresh) and the query walk all follow krmq.h step by step.
//
// Keys are (y, i) — query position, then anchor index — packed by make_key into one
// int64 that orders as the pair; the priority is a double and smaller is better. Nodes
// live in a per-tree pool addressed by 32-bit indices; index 0 is the scratch "fake
// root" that deletion uses. An erased node's slot is reused by the next insertion (as
// krmq's users free nodes to a pool), so the pool stays as large as the tree, not as
// the number of insertions. Not thread-safe; one tree per call. chain.cpp asks it only
// where several anchors tie for a range minimum, the one case its shape decides.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace agatha::map {

class RmqTree {
 public:
  using NodeId = int32_t;
  using Key = int64_t;
  static constexpr NodeId kNull = -1;
  static constexpr int kMaxDepth = 64;  // an AVL tree of n nodes is < 1.45 log2(n + 2) deep

  // The key of (y, i), 0 <= i < 2^32: y * 2^32 + i, so keys order as the pairs do.
  static constexpr Key make_key(int32_t y, int64_t i) {
    return static_cast<Key>(static_cast<uint64_t>(static_cast<int64_t>(y)) << 32 | static_cast<uint32_t>(i));
  }
  static constexpr int32_t key_y(Key k) { return static_cast<int32_t>(k >> 32); }
  static constexpr int64_t key_i(Key k) { return static_cast<int64_t>(static_cast<uint32_t>(k)); }

  RmqTree() { nodes_.emplace_back(); }  // slot 0: the fake root of erase()

  // Room for n nodes without reallocation.
  void reserve(size_t n) { nodes_.reserve(n + 1); }
  size_t size() const { return count_; }
  Key key(NodeId n) const { return nodes_[n].key; }
  double priority(NodeId n) const { return nodes_[n].pri; }

  // Inserts (key, pri), key_i(key) < 2^31; a key already present is left alone and its
  // node returned.
  NodeId insert(Key key, double pri);
  // The node with this key, or kNull.
  NodeId find(Key key) const;
  // Removes a node of this tree.
  void erase(NodeId node) { erase(key(node)); }
  // Removes the node with this key, if any (one descent, as krmq_erase); true if it was there.
  bool erase(Key key);
  // The node of minimum priority among keys in the closed range [lo, hi], or kNull.
  NodeId range_min(Key lo, Key hi) const;

 private:
  struct Node {
    Key key = 0;
    double pri = 0;
    double min_pri = 0;  // nodes_[min].pri
    NodeId child[2] = {kNull, kNull};
    NodeId min = kNull;  // node of minimum priority in this subtree
    int8_t balance = 0;  // height(right) - height(left)
  };
  static constexpr NodeId kFake = 0;
  static_assert(sizeof(Node) == 40);

  void set_min(Node& n, const Node& from) { n.min = from.min, n.min_pri = from.min_pri; }
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
  if (first == kNull || n.pri < nodes_[first].min_pri)
    n.min = p, n.min_pri = n.pri;
  else
    set_min(n, nodes_[first]);
  if (second != kNull && !(n.min_pri < nodes_[second].min_pri)) set_min(n, nodes_[second]);
}

// Single rotation: (a,(b,c)q)p => ((a,b)p,c)q for dir 0, mirrored for dir 1.
inline RmqTree::NodeId RmqTree::rotate1(NodeId p, int dir) {
  const int opp = 1 - dir;
  const NodeId q = nodes_[p].child[opp];
  const Node old = nodes_[p];
  refresh_min(p, nodes_[p].child[dir], nodes_[q].child[dir]);
  set_min(nodes_[q], old);
  nodes_[p].child[opp] = nodes_[q].child[dir];
  nodes_[q].child[dir] = p;
  return q;
}

// Double rotation: (a,((b,c)r,d)q)p => ((a,b)p,(c,d)q)r for dir 0, mirrored for dir 1.
inline RmqTree::NodeId RmqTree::rotate2(NodeId p, int dir) {
  const int opp = 1 - dir;
  const NodeId q = nodes_[p].child[opp];
  const NodeId r = nodes_[q].child[dir];
  const Node old = nodes_[p];
  refresh_min(p, nodes_[p].child[dir], nodes_[r].child[dir]);
  refresh_min(q, nodes_[q].child[opp], nodes_[r].child[opp]);
  set_min(nodes_[r], old);
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

inline RmqTree::NodeId RmqTree::insert(Key key, double pri) {
  // Descend, remembering the path, and the deepest unbalanced node (top) with its parent:
  // only the subtree below `top` can need a rotation.
  NodeId path[kMaxDepth];
  uint8_t dirs[kMaxDepth];
  int path_len = 0, n_dirs = 0, which = 0;
  NodeId top = root_, top_parent = kNull, parent = kNull;
  for (NodeId p = root_; p != kNull; parent = p, p = nodes_[p].child[which]) {
    if (key == nodes_[p].key) return p;
    if (nodes_[p].balance != 0) top_parent = parent, top = p, n_dirs = 0;
    dirs[n_dirs++] = static_cast<uint8_t>(which = key > nodes_[p].key);
    path[path_len++] = p;
  }
  Node node;
  assert(key_i(key) <= INT32_MAX);
  node.key = key, node.pri = node.min_pri = pri;
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

inline RmqTree::NodeId RmqTree::find(Key key) const {
  NodeId p = root_;
  while (p != kNull && key != nodes_[p].key) p = nodes_[p].child[key > nodes_[p].key];
  return p;
}

inline bool RmqTree::erase(Key key) {
  if (root_ == kNull) return false;
  // The fake root is a copy of the root whose left child is the root, so that the root
  // has a parent like every other node (krmq_erase).
  NodeId path[kMaxDepth];
  uint8_t dir[kMaxDepth];
  int d = 0;
  nodes_[kFake] = nodes_[root_];
  nodes_[kFake].child[0] = root_, nodes_[kFake].child[1] = kNull;
  NodeId p = kFake;
  for (int which = 0;; which = key > nodes_[p].key) {
    dir[d] = static_cast<uint8_t>(which), path[d++] = p;
    p = nodes_[p].child[which];
    if (p == kNull) return false;
    if (key == nodes_[p].key) break;
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

inline RmqTree::NodeId RmqTree::range_min(Key lo, Key hi) const {
  // krmq_rmq: the search paths of lo and hi share a prefix down to their lowest common
  // node inside [lo, hi] (the LCA); none such when the shared descent falls off the tree.
  NodeId p = root_;
  while (p != kNull) {
    const Key k = nodes_[p].key;
    if (hi < k)
      p = nodes_[p].child[0];
    else if (lo > k)
      p = nodes_[p].child[1];
    else
      break;
  }
  if (p == kNull) return kNull;
  NodeId min = p;
  double min_pri = nodes_[p].pri;
  // Below the LCA: on the lower path, nodes >= lo and their right subtrees; then on the
  // upper path, nodes <= hi and their left subtrees, each path from the top down. Only a
  // strictly smaller priority replaces (the order of consideration decides ties).
  auto consider = [&](const Node& nd, NodeId n, int side) {
    if (nd.pri < min_pri) min = n, min_pri = nd.pri;
    const NodeId sub = nd.child[side];
    if (sub != kNull && nodes_[sub].min_pri < min_pri) min = nodes_[sub].min, min_pri = nodes_[sub].min_pri;
  };
  const Key lca_key = nodes_[p].key;
  if (lo < lca_key) {
    for (NodeId n = nodes_[p].child[0]; n != kNull;) {
      const Node& nd = nodes_[n];
      if (lo > nd.key) {
        n = nd.child[1];
        continue;
      }
      consider(nd, n, 1);
      if (lo == nd.key) break;
      n = nd.child[0];
    }
  }
  if (hi > lca_key) {
    for (NodeId n = nodes_[p].child[1]; n != kNull;) {
      const Node& nd = nodes_[n];
      if (hi < nd.key) {
        n = nd.child[0];
        continue;
      }
      consider(nd, n, 0);
      if (hi == nd.key) break;
      n = nd.child[1];
    }
  }
  return min;
}

}  // namespace agatha::map
