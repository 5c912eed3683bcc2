// src/index/reference.hpp — the reference sequences: names, lengths and bases stored
// 4 bits per base as codes 0..4 (seq_nt4_table; agatha/nt4.hpp), two bases per byte, in file order
// (the reference id of a sequence is its 0-based rank in the FASTA).
//
// Threading: const methods may be called from any number of threads.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace agatha::index {

struct RefSeq {
  std::string name;
  uint64_t offset = 0;  // of the first base in the concatenation of all sequences
  uint32_t len = 0;
};

class Reference {
 public:
  // Appends a sequence (raw bases; anything but ACGTU is stored as 4). Returns its id.
  // Throws InputError if the name is already present or the sequence is >= 2^31 bases.
  uint32_t add(std::string name, std::string_view bases);

  size_t size() const { return seqs_.size(); }
  const RefSeq& seq(uint32_t rid) const { return seqs_[rid]; }
  std::span<const RefSeq> seqs() const { return seqs_; }
  uint64_t total_length() const { return total_; }
  // The id of the sequence named `name`, or -1.
  int64_t find(std::string_view name) const;

  // Code (0..4) of base `pos` of sequence rid.
  uint8_t base(uint32_t rid, uint32_t pos) const { return code_at(seqs_[rid].offset + pos); }
  // Writes the codes of bases [st, en) of sequence rid to out (en - st bytes).
  void fetch(uint32_t rid, uint32_t st, uint32_t en, uint8_t* out) const;

  // Raw storage, for .agi files: 4-bit codes, base i in the low nibble when i is even.
  const std::vector<uint8_t>& packed() const { return packed_; }
  // Rebuilds from stored parts (sequence offsets are recomputed). Throws InputError,
  // starting with `what`, if the names repeat, a length is >= 2^31, `packed` does not
  // hold exactly the summed lengths, or a stored code is not one add writes.
  static Reference from_parts(std::vector<std::string> names, const std::vector<uint32_t>& lengths,
                              std::vector<uint8_t> packed, const std::string& what);

 private:
  uint8_t code_at(uint64_t i) const { return packed_[i >> 1] >> ((i & 1) << 2) & 0xf; }

  std::vector<RefSeq> seqs_;
  std::unordered_map<std::string, uint32_t> by_name_;
  std::vector<uint8_t> packed_;
  uint64_t total_ = 0;
};

}  // namespace agatha::index
