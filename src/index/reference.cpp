#include "reference.hpp"

#include <agatha/error.hpp>

#include <algorithm>
#include <cstring>
#include <limits>

#include <agatha/nt4.hpp>

namespace agatha::index {

uint32_t Reference::add(std::string name, std::string_view bases) {
  if (bases.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
    throw InputError("reference sequence '" + name + "' is longer than 2^31-1 bases");
  if (by_name_.count(name)) throw InputError("duplicate reference sequence name '" + name + "'");
  const auto rid = static_cast<uint32_t>(seqs_.size());
  by_name_.emplace(name, rid);
  seqs_.push_back({std::move(name), total_, static_cast<uint32_t>(bases.size())});
  packed_.resize((total_ + bases.size() + 1) / 2, 0);
  size_t i = 0;
  if ((total_ & 1) && i < bases.size()) packed_[total_ >> 1] |= static_cast<uint8_t>(nt4(bases[i++]) << 4);
  // Then two bases to a byte, low nibble first (the byte after an odd end keeps its zero
  // high nibble).
  uint8_t* out = packed_.data() + ((total_ + i) >> 1);
  for (; i + 2 <= bases.size(); i += 2) *out++ = static_cast<uint8_t>(nt4(bases[i]) | nt4(bases[i + 1]) << 4);
  if (i < bases.size()) *out = nt4(bases[i]);
  total_ += bases.size();
  return rid;
}

int64_t Reference::find(std::string_view name) const {
  const auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? -1 : static_cast<int64_t>(it->second);
}

void Reference::fetch(uint32_t rid, uint32_t st, uint32_t en, uint8_t* out) const {
  uint64_t i = seqs_[rid].offset + st;
  const uint64_t end = seqs_[rid].offset + en;
  if (i < end && (i & 1)) *out++ = code_at(i++);
  // Whole bytes, two bases each (low nibble first): a loop the compiler vectorises.
  const uint8_t* p = packed_.data() + (i >> 1);
  const uint64_t pairs = (end - i) / 2;
  for (uint64_t k = 0; k < pairs; ++k) {
    const uint8_t b = p[k];
    out[2 * k] = b & 0xf;
    out[2 * k + 1] = b >> 4;
  }
  out += 2 * pairs, i += 2 * pairs;
  if (i < end) *out = code_at(i);
}

namespace {

// Nonzero in the high bit of every nibble of x above 4, the largest base code:
// n > 4 exactly when bit 3 is set, or bit 2 and one of bits 1, 0.
uint64_t nibbles_above_4(uint64_t x) {
  constexpr uint64_t kHigh = 0x8888888888888888ULL;
  return (x | (x << 1 & (x << 2 | x << 3))) & kHigh;
}

}  // namespace

Reference Reference::from_parts(std::vector<std::string> names, const std::vector<uint32_t>& lengths,
                                std::vector<uint8_t> packed, const std::string& what) {
  Reference r;
  for (size_t i = 0; i < names.size(); ++i) {
    if (r.by_name_.count(names[i])) throw InputError(what + ": duplicate reference sequence name '" + names[i] + "'");
    if (lengths[i] > static_cast<uint32_t>(std::numeric_limits<int32_t>::max()))
      throw InputError(what + ": reference sequence '" + names[i] + "' is longer than 2^31-1 bases");
    r.by_name_.emplace(names[i], static_cast<uint32_t>(i));
    r.seqs_.push_back({std::move(names[i]), r.total_, lengths[i]});
    r.total_ += lengths[i];
  }
  if (packed.size() != (r.total_ + 1) / 2)
    throw InputError(what + ": sequence storage does not match the sequence lengths");
  r.packed_ = std::move(packed);
  // Every nibble is a code add can store (the one after an odd total is add's zero
  // padding): base and fetch hand codes on as table indices. Whole words first, for
  // speed; nibbles are looked at one by one only to name a bad one.
  const std::vector<uint8_t>& p = r.packed_;
  uint64_t bad = 0;
  size_t i = 0;
  for (; i + 8 <= p.size(); i += 8) {
    uint64_t x;
    std::memcpy(&x, p.data() + i, sizeof x);
    bad |= nibbles_above_4(x);
  }
  for (; i < p.size(); ++i) bad |= nibbles_above_4(p[i]);
  if (r.total_ & 1 && p.back() >> 4 != 0) throw InputError(what + ": nonzero padding after the last base");
  if (bad != 0) {
    for (uint64_t b = 0; b < r.total_; ++b) {
      const uint8_t c = r.code_at(b);
      if (c <= 4) continue;
      // The last sequence starting at or before b; it is not empty, as the next starts after b.
      auto s =
          std::upper_bound(r.seqs_.begin(), r.seqs_.end(), b, [](uint64_t v, const RefSeq& q) { return v < q.offset; });
      --s;
      throw InputError(what + ": base " + std::to_string(b - s->offset) + " of sequence '" + s->name + "' has code " +
                       std::to_string(c) + " (codes are 0-4)");
    }
  }
  return r;
}

}  // namespace agatha::index
