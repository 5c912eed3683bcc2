#include "reference.hpp"

#include <agatha/error.hpp>

#include <limits>

#include "nt4.hpp"

namespace agatha::index {

uint32_t Reference::add(std::string name, std::string_view bases) {
  if (bases.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
    throw InputError("reference sequence '" + name + "' is longer than 2^31-1 bases");
  if (by_name_.count(name)) throw InputError("duplicate reference sequence name '" + name + "'");
  const auto rid = static_cast<uint32_t>(seqs_.size());
  by_name_.emplace(name, rid);
  seqs_.push_back({std::move(name), total_, static_cast<uint32_t>(bases.size())});
  packed_.resize((total_ + bases.size() + 1) / 2, 0);
  for (char c : bases) {
    packed_[total_ >> 1] |= static_cast<uint8_t>(nt4(c) << ((total_ & 1) << 2));
    ++total_;
  }
  return rid;
}

int64_t Reference::find(std::string_view name) const {
  const auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? -1 : static_cast<int64_t>(it->second);
}

void Reference::fetch(uint32_t rid, uint32_t st, uint32_t en, uint8_t* out) const {
  const uint64_t off = seqs_[rid].offset;
  for (uint64_t i = off + st; i < off + en; ++i) *out++ = code_at(i);
}

Reference Reference::from_parts(std::vector<std::string> names, const std::vector<uint32_t>& lengths,
                                std::vector<uint8_t> packed, const std::string& what) {
  Reference r;
  for (size_t i = 0; i < names.size(); ++i) {
    if (r.by_name_.count(names[i])) throw InputError(what + ": duplicate reference sequence name '" + names[i] + "'");
    r.by_name_.emplace(names[i], static_cast<uint32_t>(i));
    r.seqs_.push_back({std::move(names[i]), r.total_, lengths[i]});
    r.total_ += lengths[i];
  }
  if (packed.size() != (r.total_ + 1) / 2)
    throw InputError(what + ": sequence storage does not match the sequence lengths");
  r.packed_ = std::move(packed);
  return r;
}

}  // namespace agatha::index
