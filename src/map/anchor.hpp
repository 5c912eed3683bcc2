// src/map/anchor.hpp — an anchor: one seed hit, a query k-mer matched to a reference
// k-mer, in minimap2 2.24's 128-bit layout (map.c: collect_seed_hits). Chaining sorts
// and scores anchors by these exact bits, so the layout is part of the output contract.
#pragma once

#include <cstdint>

namespace agatha::map {

// x: bit 63 = strand (1: the read's reverse complement matches the reference),
//    bits 32..62 = reference id, bits 0..31 = reference position of the k-mer's last base.
// y: bits 48..55 = segment id, bit 43 = SELF (only in all-vs-all modes),
//    bit 42 = TANDEM (a neighbouring query minimizer has the same hash),
//    bits 40/41 = LONG_JOIN / IGNORE (set during alignment), bits 32..39 = k-mer span,
//    bits 0..31 = query position of the k-mer's last base, on the reverse-complemented
//    read when the strand bit is set.
struct Anchor {
  uint64_t x = 0, y = 0;
  friend bool operator==(const Anchor&, const Anchor&) = default;
};

namespace anchor_bit {
inline constexpr uint64_t kReverse = 1ULL << 63;
inline constexpr int kSegShift = 48;
inline constexpr uint64_t kSelf = 1ULL << 43;
inline constexpr uint64_t kTandem = 1ULL << 42;
inline constexpr uint64_t kIgnore = 1ULL << 41;
inline constexpr uint64_t kLongJoin = 1ULL << 40;
}  // namespace anchor_bit

inline int32_t anchor_rid(const Anchor& a) { return static_cast<int32_t>(a.x << 1 >> 33); }
inline int32_t anchor_rpos(const Anchor& a) { return static_cast<int32_t>(a.x); }
inline bool anchor_reverse(const Anchor& a) { return (a.x >> 63) != 0; }
inline int32_t anchor_qpos(const Anchor& a) { return static_cast<int32_t>(a.y); }
inline int32_t anchor_span(const Anchor& a) { return static_cast<int32_t>(a.y >> 32 & 0xff); }
inline int32_t anchor_seg(const Anchor& a) { return static_cast<int32_t>(a.y >> anchor_bit::kSegShift & 0xff); }

}  // namespace agatha::map
