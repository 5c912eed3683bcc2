// src/index/index_parts.hpp — where minimap2 2.24 cuts a reference into index parts
// (`-I NUM`; index.c: mm_idx_gen and its worker_pipeline, bseq.c: mm_bseq_read).
//
// mm_idx_gen reads the reference in mini-batches: a mini-batch takes sequences until
// their bases reach min(50M, NUM) (the sequence crossing the threshold included, as
// mm_bseq_read checks the size after adding each sequence). Before each mini-batch it
// checks the part: once the part holds more than NUM bases, the part is closed and the
// next mini-batch starts the next part. So a part can exceed NUM by up to a mini-batch,
// a sequence longer than NUM ends its part (it is the last one of the mini-batch that
// reached the limit), and a part holding exactly NUM bases takes one more mini-batch.
// Every part holds at least one sequence; sequences of length 0 count as sequences.
//
// Checked against `minimap2 -I NUM -d` on references of equal and unequal sequences
// (tests/index/index_parts_test.cpp lists the cases).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace agatha::index {

// minimap2's mini_batch_size of the index (mm_idxopt_init): the bases read at a time.
inline constexpr uint64_t kIndexMiniBatchBases = 50'000'000;

// The part rule, fed one sequence length at a time in reference order.
class PartCutter {
 public:
  explicit PartCutter(uint64_t part_bases, uint64_t mini_batch_bases = kIndexMiniBatchBases)
      : part_bases_(part_bases), mini_batch_(mini_batch_bases < part_bases ? mini_batch_bases : part_bases) {}

  // Adds the next sequence; true when it starts a new part (never for the first one).
  bool add(uint64_t len) {
    bool new_part = false;
    if (!in_batch_) {                      // a mini-batch starts here: first the part is checked
      new_part = part_sum_ > part_bases_;  // false before the first sequence
      if (new_part) part_sum_ = 0;
      in_batch_ = true, batch_sum_ = 0;
    }
    part_sum_ += len, batch_sum_ += len;
    if (batch_sum_ >= mini_batch_) in_batch_ = false;
    return new_part;
  }

 private:
  uint64_t part_bases_, mini_batch_;
  uint64_t part_sum_ = 0, batch_sum_ = 0;
  bool in_batch_ = false;
};

// The number of sequences of each part, for sequences of the given lengths.
[[nodiscard]] inline std::vector<size_t> part_sizes(std::span<const uint64_t> lengths, uint64_t part_bases,
                                                    uint64_t mini_batch_bases = kIndexMiniBatchBases) {
  PartCutter cut(part_bases, mini_batch_bases);
  std::vector<size_t> sizes;
  for (const uint64_t len : lengths) {
    if (cut.add(len) || sizes.empty()) sizes.push_back(0);
    ++sizes.back();
  }
  return sizes;
}

}  // namespace agatha::index
