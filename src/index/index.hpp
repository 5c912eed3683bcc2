// src/index/index.hpp — the minimizer index of a reference, as minimap2's mm_idx_gen
// builds it (index.c): for every minimizer hash (x >> 8 of a Minimizer) the list of its
// reference occurrences y (rid << 32 | pos << 1 | strand), sorted ascending by y.
// Duplicate occurrences produced by the sketch are kept, so a list's length is the
// hash's occurrence count.
//
// The index is built from sequences handed to it (Builder, or build() from memory), or
// from occurrences another index holds (from_occurrences), and saved to a byte sink:
// reading FASTA/FASTQ files and minimap2's .mmi files, and writing .agi files, is
// src/io's (io/index_file.hpp, io/mmi_file.hpp).
//
// Layout: distinct hashes in ascending order (keys_), one value per hash (vals_): the
// occurrence itself when the hash occurs once (the usual case), else kListFlag | the
// offset of its list in lists_, where the list's length is followed by its occurrences;
// and a table of buckets over the 2k-bit hash range (about 4-8 keys a bucket, at least
// 2^bucket_bits buckets when there are that many keys) that narrows the binary search
// for a key.
// Occurrences never have bit 63 set (sequence ids are below 2^31), so kListFlag tells
// the two kinds apart: 16 bytes a hash plus 8 an occurrence of a repeated hash, as
// minimap2's mm_idx_t keeps them.
//
// One index part: minimap2's -I splitting happens before, in io::IndexParts, which
// builds one MinimizerIndex per part (index_parts.hpp has the rule).
//
// Threading: a built or loaded index is immutable; lookups may run on any thread.
#pragma once

#include <agatha/options.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <future>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "../util/uninit_vector.hpp"
#include "reference.hpp"
#include "sketch.hpp"

namespace agatha::index {

class MinimizerIndex {
 public:
  class Builder;

  // Sketches (name, bases) pairs with opt.k, opt.w, opt.hpc. Throws InputError
  // "reference record N: duplicate sequence name 'X'" or "reference: no sequences".
  static MinimizerIndex build(const std::vector<std::pair<std::string, std::string>>& seqs, const AlignOptions& opt);

  // The index of given parts: k, w, HPC, the reference, and every occurrence as a
  // (hash, y) pair in any order (grouped by hash here, each list ascending by y). The one
  // place the lookup layout is made from occurrences: Builder::finish comes through it,
  // and so do readers of other index formats (io/mmi_file.hpp). bucket_bits is limited
  // to 0..min(2k, 24). The caller vouches for the parts: k and w in range, hashes below
  // 4^k, occurrences within the reference's sequences.
  [[nodiscard]] static MinimizerIndex from_occurrences(int k, int w, bool hpc, int bucket_bits, Reference ref,
                                                       std::vector<std::pair<uint64_t, uint64_t>> hits);

  // Receives the bytes of the .agi image in order; reports a failure by throwing.
  using ByteSink = std::function<void(std::span<const uint8_t>)>;

  // The .agi file: a versioned, checksummed binary image of the whole index (see
  // index.cpp). save hands the image to `out` piece by piece (what out throws passes
  // through); load throws InputError for a missing, foreign, old, truncated, damaged or
  // inconsistent file, and checks every count against the file's size before
  // allocating for it.
  void save(const ByteSink& out) const;
  static MinimizerIndex load(const std::string& path);
  // True when the file is named *.agi, or starts with the .agi magic (all of it, or all
  // of a shorter file), so that a short or damaged index gets load's error rather than
  // the FASTA reader's. False for anything else, including a file that cannot be opened
  // (the FASTA reader then reports why).
  [[nodiscard]] static bool is_agi_file(const std::string& path);

  int k() const { return k_; }
  int w() const { return w_; }
  bool hpc() const { return hpc_; }
  // The bucket bits the index was built or loaded with (minimap2's b: min(-b, 2k)); the
  // .mmi writer's bucket count is 2^bucket_bits().
  int bucket_bits() const { return bucket_bits_; }
  const Reference& reference() const { return ref_; }

  // Occurrences of a hash, ascending by y; empty if absent.
  [[nodiscard]] std::span<const uint64_t> lookup(uint64_t hash) const;
  // lookup() of n hashes at once: out[i] = lookup(hashes[i]). Each step (table entry,
  // key search, value) runs over every hash before the next step starts, and no branch
  // depends on a value still in flight, so the cache misses of different hashes overlap
  // instead of each lookup waiting for the last. `pos` is scratch (n entries).
  void lookup_batch(const uint64_t* hashes, size_t n, std::span<const uint64_t>* out, uint64_t* pos) const;
  // How many keys share hash's bucket: what lookup(hash) searches.
  size_t bucket_size(uint64_t hash) const {
    if (bucket_start_.empty()) return 0;
    const uint64_t b = bucket_of(hash);
    return static_cast<size_t>(bucket_start_[b + 1] - bucket_start_[b]);
  }
  size_t distinct_hashes() const { return keys_.size(); }
  // The distinct hashes in ascending order, by rank i < distinct_hashes(), and the
  // occurrences of each, ascending by y (what lookup(hash_at(i)) gives).
  uint64_t hash_at(size_t i) const { return keys_[i]; }
  std::span<const uint64_t> occurrences_at(size_t i) const {
    if ((vals_[i] & kListFlag) == 0) return {vals_.data() + i, 1};
    const uint64_t at = vals_[i] & ~kListFlag;
    return {lists_.data() + at + 1, static_cast<size_t>(lists_[at])};
  }
  size_t total_occurrences() const { return occurrences_; }
  // Occurrence count of each distinct hash, in key order.
  [[nodiscard]] std::vector<uint32_t> occurrence_counts() const;

 private:
  void build_buckets();

  int k_ = 0, w_ = 0;
  bool hpc_ = false;
  int bucket_bits_ = 0;  // min(bucket_bits option, 2k); kept in the .agi
  Reference ref_;
  using Hit = std::pair<uint64_t, uint64_t>;  // (hash, y) of a minimizer
  // Minimizers are grouped in parts by the hash's top kPartBits bits, so that the parts
  // are sorted in parallel and each is freed once indexed. A part arrives as chunks (one
  // per sketched batch), which its sort gathers.
  static constexpr int kPartBits = 12;
  using Chunks = std::vector<util::UninitVector<Hit>>;
  [[nodiscard]] static MinimizerIndex assemble(int k, int w, bool hpc, int bucket_bits, Reference ref,
                                               std::vector<Chunks>& parts, int threads);
  // A value with this bit is a list's offset in lists_; without, the occurrence itself.
  static constexpr uint64_t kListFlag = uint64_t{1} << 63;
  // Filled in parallel (assemble) or by a read (load) right after they are sized.
  util::UninitVector<uint64_t> keys_, vals_, lists_;
  size_t occurrences_ = 0;
  // The bucket table: first key index per bucket (+1 sentinel). Selected minimizers are
  // the smallest hashes of their windows, so hashes crowd towards 0 (on a bacterial
  // genome with w = 19, half of them lie in the lowest 1/16 of the range): buckets cut
  // at fixed top bits would be unevenly full. The range is split into 2^kSegmentBits
  // segments by the top bits, within which the density is nearly even, and each segment
  // into as many buckets as its keys ask for (segments_[s]: where its buckets start, and
  // the shift that gives a hash's bucket within it).
  static constexpr int kSegmentBits = 8;
  struct Segment {
    uint64_t first_bucket = 0;
    int shift = 0;
  };
  std::vector<Segment> segments_;
  std::vector<uint64_t> bucket_start_;
  int segment_shift_ = 0;  // hash >> segment_shift_ is the segment
  // A hash's bucket; a hash beyond 2k bits gets the table's last bucket, which holds the
  // keys beyond 2k bits (none in a valid index).
  // Where hash is among the len keys from keys_[first] (one bucket), or kNotFound. A
  // binary search without branches on the keys: the candidate range keeps the hash if
  // present and narrows by a conditional move, where a branch on each comparison would
  // be mispredicted half the time.
  static constexpr uint64_t kNotFound = ~uint64_t{0};
  uint64_t find_in_bucket(uint64_t hash, uint64_t first, size_t len) const {
    if (len == 0) return kNotFound;
    const uint64_t* b = keys_.data() + first;
    while (len > 1) {
      const size_t half = len / 2;
      b = b[half] <= hash ? b + half : b;
      len -= half;
    }
    return *b == hash ? static_cast<uint64_t>(b - keys_.data()) : kNotFound;
  }
  uint64_t bucket_of(uint64_t hash) const {
    const uint64_t s = hash >> segment_shift_;
    if (s >= segments_.size()) return bucket_start_.size() - 2;
    const Segment& seg = segments_[s];
    return seg.first_bucket + ((hash - (s << segment_shift_)) >> seg.shift);
  }
};

// Builds an index from sequences added one at a time, in reference order (a sequence's
// id is its rank), keeping what the index holds (the packed bases and the minimizers)
// and the raw bases of at most one batch of sequences, which are sketched together on
// opt.threads threads (in pieces: one long sequence keeps them all busy) while the next
// batch is read, as minimap2's mm_idx_gen does its mini-batches. The index does not
// depend on the number of threads. `source` names the input in messages ("'ref.fa'",
// "reference").
class MinimizerIndex::Builder {
 public:
  // Throws OptionError for options the index cannot have (AlignOptions::validate, bucket
  // bits outside 0-24).
  // Bases of sequences collected before they are sketched together (minimap2's
  // mini_batch_size); tests pass smaller batches.
  static constexpr uint64_t kSketchBatchBases = 50'000'000;
  // Sequences are sketched in pieces of about this many bases (at least one piece a
  // sequence; tests pass smaller pieces), each scanned from kWarmupBases before its
  // start (sketch_piece).
  static constexpr int kPieceBases = 4'000'000;
  // With several threads, pieces are smaller where that spreads a batch over them all,
  // down to this many bases.
  static constexpr int kMinPieceBases = 256 * 1024;
  static constexpr int kWarmupBases = 4096;
  Builder(const AlignOptions& opt, std::string source, uint64_t sketch_batch_bases = kSketchBatchBases,
          int piece_bases = kPieceBases);
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;
  ~Builder();  // waits for the batch being sketched

  // Adds a sequence; record_no (1-based) names it in messages. Throws InputError
  // "SOURCE record N: duplicate sequence name 'X'" (and Reference::add's errors).
  void add(const std::string& name, std::string_view bases, uint64_t record_no);
  // The index of the sequences added; throws InputError "SOURCE: no sequences" if none
  // was. Call once.
  [[nodiscard]] MinimizerIndex finish();

 private:
  struct Pending {
    uint32_t rid;
    std::string bases;
  };
  void sketch_pending();
  void sketch_batch(std::vector<Pending> batch);
  void wait_for_sketching();
  [[nodiscard]] size_t part_of(uint64_t hash) const { return static_cast<size_t>(hash >> part_shift_); }

  int k_, w_, bucket_bits_, threads_, part_shift_;
  uint64_t batch_bases_;
  int piece_bases_;
  bool hpc_;
  std::string source_;
  MinimizerIndex idx_;
  std::vector<Pending> pending_;
  uint64_t pending_bases_ = 0;
  // Per part, one chunk per sketched batch; written by the sketching thread and its
  // workers only.
  std::vector<Chunks> parts_;
  // Each sketching worker's minimizers of the batch (sketch_batch); kept between batches.
  std::vector<std::vector<Minimizer>> found_;
  std::future<void> sketching_;  // the batch being sketched, if any
};

// The occurrence threshold mid_occ (options.c mm_mapopt_update, index.c
// mm_idx_cal_max_occ): opt.mid_occ if > 0; otherwise computed from the index with
// opt.mid_occ_frac, then clamped to [min_mid_occ, max_mid_occ] (the upper clamp only when
// max_mid_occ > min_mid_occ). A seed is high-occurrence when its count is > mid_occ.
[[nodiscard]] int32_t resolve_mid_occ(const MinimizerIndex& idx, const AlignOptions& opt);

}  // namespace agatha::index
