// src/index/index.hpp — the minimizer index of a reference (spec 3): for every minimizer
// hash (x >> 8 of a Minimizer) the list of its reference occurrences y
// (rid << 32 | pos << 1 | strand), sorted ascending by y. Duplicate occurrences produced
// by the sketch are kept, so a list's length is the hash's occurrence count.
//
// Layout: distinct hashes in ascending order (keys_), their list starts (starts_, one
// more than keys_) into one array of occurrences (ys_), and a table over the top bits
// of the 2k-bit hash (`bucket_bits` of them, fewer for few keys) that narrows the binary
// search for a key.
//
// Single index part: minimap2's -I splitting is not implemented (4G bases, the 2.24
// default, holds a human genome in one part).
//
// Threading: a built or loaded index is immutable; lookups may run on any thread.
#pragma once

#include <agatha/options.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "reference.hpp"

namespace agatha::index {

class MinimizerIndex {
 public:
  // Reads the reference FASTA/FASTQ (plain or gzip) and sketches it with opt.k, opt.w,
  // opt.hpc. Throws InputError for an unreadable file, no sequences or duplicate names.
  static MinimizerIndex build(const std::string& fasta_path, const AlignOptions& opt);
  // Same from (name, bases) pairs already in memory.
  static MinimizerIndex build(const std::vector<std::pair<std::string, std::string>>& seqs, const AlignOptions& opt);

  // The .agi file: a versioned, checksummed binary image of the whole index (see
  // index.cpp). save throws Error if the file cannot be written; load throws InputError
  // for a missing, foreign, old, truncated, damaged or inconsistent file, and checks
  // every count against the file's size before allocating for it.
  void save(const std::string& path) const;
  static MinimizerIndex load(const std::string& path);
  // True when the file is named *.agi, or starts with the .agi magic (all of it, or all
  // of a shorter file), so that a short or damaged index gets load's error rather than
  // the FASTA reader's. False for anything else, including a file that cannot be opened
  // (the FASTA reader then reports why).
  static bool is_agi_file(const std::string& path);

  int k() const { return k_; }
  int w() const { return w_; }
  bool hpc() const { return hpc_; }
  const Reference& reference() const { return ref_; }

  // Occurrences of a hash, ascending by y; empty if absent.
  std::span<const uint64_t> lookup(uint64_t hash) const;
  size_t distinct_hashes() const { return keys_.size(); }
  size_t total_occurrences() const { return ys_.size(); }
  // Occurrence count of each distinct hash, in key order.
  std::vector<uint32_t> occurrence_counts() const;

 private:
  class Builder;
  void build_buckets();

  int k_ = 0, w_ = 0;
  bool hpc_ = false;
  int bucket_bits_ = 0;  // min(bucket_bits option, 2k); kept in the .agi
  Reference ref_;
  std::vector<uint64_t> keys_, starts_, ys_;
  // First key index per bucket (+1 sentinel). A bucket is a hash's top bits: at most
  // bucket_bits_ of them, fewer when there are few keys (see build_buckets).
  std::vector<uint64_t> bucket_start_;
  int bucket_shift_ = 0;  // hash >> bucket_shift_ is the bucket
};

// The occurrence threshold mid_occ (spec 3.4; options.c mm_mapopt_update, index.c
// mm_idx_cal_max_occ): opt.mid_occ if > 0; otherwise computed from the index with
// opt.mid_occ_frac, then clamped to [min_mid_occ, max_mid_occ] (the upper clamp only when
// max_mid_occ > min_mid_occ). A seed is high-occurrence when its count is > mid_occ.
int32_t resolve_mid_occ(const MinimizerIndex& idx, const AlignOptions& opt);

}  // namespace agatha::index
