// Writing minimap2 2.24's index files (the layout: mmi_file.cpp's opening comment), byte
// for byte as minimap2's mm_idx_dump writes the index its mm_idx_gen builds.
//
// What decides the bytes beyond the header, the sequence table and the bases:
//  - A hash h goes to bucket h & (2^b - 1) (mm_idx_add). In a bucket, worker_post
//    takes the hashes in ascending order: the occurrence array holds, hash after hash,
//    the occurrences (ascending) of the hashes that occur more than once, and the hash
//    table gets each hash in that order, under the key (h >> b) << 1 (bit 0 set when it
//    occurs once), with the value y of its one occurrence or start << 32 | count.
//  - The table is klib's khash as minimap2 2.24 ships it: 2^m slots (at least 4),
//    emptied and sized by kh_resize(n_keys) before the first insertion; a key's home slot
//    is the low m bits of the 32-bit truncation of key >> 1; a taken slot sends the
//    search on by 1, 2, 3, ... slots (i += ++step, modulo the slot count). Once the
//    table holds (khint_t)(slots * 0.77 + 0.5) keys, the next insertion first grows it
//    to twice the slots (kh_put asks kh_resize for slots + 1, rounded up to a power of
//    2), which rehashes in place: the old slots are visited in order, each live key is
//    taken out and put at the first free slot of the new table from its home, and the
//    live key it finds there, if the old table still had one there, is taken out in turn
//    and placed the same way.
//  - mm_idx_dump writes a bucket's occurrence count and array, then its key count and
//    the table's live slots in slot order, (key, value) each.
#include "mmi_file.hpp"

#include <agatha/error.hpp>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "../util/parallel_for.hpp"

namespace agatha::io {
namespace {

static_assert(std::endian::native == std::endian::little, "the .mmi writer writes integers in the host's order");

constexpr char kMagic[4] = {'M', 'M', 'I', '\2'};
// minimap2's MM_I_HPC, MM_I_NO_SEQ.
constexpr uint32_t kFlagHpc = 1, kFlagNoSeq = 2;
// The longest name the one-byte length of the sequence table holds.
constexpr size_t kMaxNameBytes = 255;
// The writer hands the image to the sink in pieces of about this size.
constexpr size_t kFlushBytes = size_t{1} << 20;

// The bytes of the image, handed to the sink a piece at a time.
class ImageOut {
 public:
  explicit ImageOut(const index::MinimizerIndex::ByteSink& sink) : sink_(sink) { buf_.reserve(kFlushBytes + 64); }
  void bytes(const void* p, size_t n) {
    if (n >= kFlushBytes) {
      flush();
      sink_({static_cast<const uint8_t*>(p), n});
      return;
    }
    const auto* b = static_cast<const uint8_t*>(p);
    buf_.insert(buf_.end(), b, b + n);
    if (buf_.size() >= kFlushBytes) flush();
  }
  template <class T>
  void pod(T v) {
    bytes(&v, sizeof v);
  }
  void flush() {
    if (buf_.empty()) return;
    sink_(buf_);
    buf_.clear();
  }

 private:
  const index::MinimizerIndex::ByteSink& sink_;
  std::vector<uint8_t> buf_;
};

// One bucket's hash table, slot for slot as khash lays it out (see above).
class BucketTable {
 public:
  struct Slot {
    uint64_t key, value;
  };

  // An empty table sized for n keys (worker_post's kh_resize).
  explicit BucketTable(uint32_t n) { grow_to(n); }

  // Puts a key not in the table yet (kh_put; the keys of a bucket are distinct).
  void put(uint64_t key, uint64_t value) {
    if (size_ >= limit_) {
      const auto slots = static_cast<uint32_t>(slots_.size());
      grow_to(slots > (size_ << 1) ? slots - 1 : slots + 1);
    }
    const uint32_t mask = static_cast<uint32_t>(slots_.size()) - 1;
    uint32_t i = home(key) & mask;
    for (uint32_t step = 0; live_[i];) i = (i + ++step) & mask;
    slots_[i] = {key, value};
    live_[i] = 1;
    ++size_;
  }

  [[nodiscard]] uint32_t size() const { return size_; }
  // The live slots in slot order.
  template <class Fn>
  void for_each(Fn&& fn) const {
    for (size_t i = 0; i < slots_.size(); ++i)
      if (live_[i]) fn(slots_[i]);
  }

 private:
  // idx_hash: key >> 1, as the table's 32-bit hash value.
  static uint32_t home(uint64_t key) { return static_cast<uint32_t>(key >> 1); }
  // The key count that makes the next insertion grow a table of `slots` slots.
  static uint32_t limit_of(uint32_t slots) { return static_cast<uint32_t>(slots * 0.77 + 0.5); }

  // kh_resize: to `wanted` slots rounded up to a power of 2 (at least 4), unless that
  // many cannot hold the keys already in; rehashes in place (see above).
  void grow_to(uint32_t wanted) {
    const uint32_t n = wanted <= 4 ? 4 : std::bit_ceil(wanted);
    if (size_ >= limit_of(n)) return;
    const size_t old = slots_.size();
    const uint32_t mask = n - 1;
    std::vector<uint8_t> taken(n, 0);
    if (n > old) slots_.resize(n);
    for (size_t j = 0; j < old; ++j) {
      if (!live_[j]) continue;
      Slot moving = slots_[j];
      live_[j] = 0;
      for (;;) {
        uint32_t i = home(moving.key) & mask;
        for (uint32_t step = 0; taken[i];) i = (i + ++step) & mask;
        taken[i] = 1;
        if (i < old && live_[i]) {  // a key not moved yet: take it out, and place it next
          std::swap(moving, slots_[i]);
          live_[i] = 0;
        } else {
          slots_[i] = moving;
          break;
        }
      }
    }
    slots_.resize(n);
    live_ = std::move(taken);
    limit_ = limit_of(n);
  }

  std::vector<Slot> slots_;
  std::vector<uint8_t> live_;
  uint32_t size_ = 0, limit_ = 0;
};

// The keys of the index grouped by bucket: first[b] .. first[b + 1] of `ranks` are the
// ranks (MinimizerIndex::hash_at) of bucket b's hashes, ascending.
struct BucketRanks {
  std::vector<uint64_t> first;
  std::vector<uint32_t> ranks;
};

BucketRanks group_by_bucket(const index::MinimizerIndex& idx, int bits) {
  const uint64_t n_buckets = uint64_t{1} << bits, mask = n_buckets - 1;
  BucketRanks g;
  g.first.assign(n_buckets + 1, 0);
  const size_t n = idx.distinct_hashes();
  for (size_t i = 0; i < n; ++i) ++g.first[(idx.hash_at(i) & mask) + 1];
  for (uint64_t b = 0; b < n_buckets; ++b) g.first[b + 1] += g.first[b];
  std::vector<uint64_t> at(g.first.begin(), g.first.end() - 1);
  g.ranks.resize(n);
  for (size_t i = 0; i < n; ++i) g.ranks[at[idx.hash_at(i) & mask]++] = static_cast<uint32_t>(i);
  return g;
}

std::string shortened(const std::string& s) { return s.size() <= 40 ? s : s.substr(0, 37) + "..."; }

template <class T>
void append(std::vector<uint8_t>& out, const T* p, size_t n) {
  const auto* b = reinterpret_cast<const uint8_t*>(p);
  out.insert(out.end(), b, b + n * sizeof(T));
}

// Appends the bytes of one bucket (see above) to out: its occurrence count and array, its
// key count and table. `ranks`: the bucket's hashes (MinimizerIndex::hash_at), ascending.
void encode_bucket(const index::MinimizerIndex& idx, int bits, std::span<const uint32_t> ranks,
                   std::vector<uint64_t>& occ, std::vector<uint8_t>& out) {
  occ.clear();
  for (const uint32_t r : ranks) {
    const std::span<const uint64_t> o = idx.occurrences_at(r);
    if (o.size() > 1) occ.insert(occ.end(), o.begin(), o.end());
  }
  const auto n_occ = static_cast<uint32_t>(occ.size());
  append(out, &n_occ, 1);
  append(out, occ.data(), occ.size());
  if (ranks.empty()) {  // no table: its size is 0
    const uint32_t zero = 0;
    append(out, &zero, 1);
    return;
  }
  BucketTable table(static_cast<uint32_t>(ranks.size()));
  uint64_t start = 0;
  for (const uint32_t r : ranks) {
    const uint64_t key = idx.hash_at(r) >> bits << 1;
    const std::span<const uint64_t> o = idx.occurrences_at(r);
    if (o.size() == 1) {
      table.put(key | 1, o[0]);
    } else {
      table.put(key, start << 32 | o.size());
      start += o.size();
    }
  }
  const uint32_t size = table.size();
  append(out, &size, 1);
  table.for_each([&out](const BucketTable::Slot& s) {
    const uint64_t kv[2] = {s.key, s.value};
    append(out, kv, 2);
  });
}

// Buckets are encoded in blocks of this many, several blocks at once on the threads,
// and handed over in order.
constexpr size_t kBlockBuckets = 16;

}  // namespace

void write_mmi(const index::MinimizerIndex& idx, bool with_bases, const index::MinimizerIndex::ByteSink& sink,
               int threads) {
  const index::Reference& ref = idx.reference();
  const std::string cannot = "cannot write a minimap2 index (.mmi): ";
  for (const index::RefSeq& s : ref.seqs())
    if (s.name.size() > kMaxNameBytes)
      throw InputError(cannot + "sequence '" + shortened(s.name) + "' has a name of " + std::to_string(s.name.size()) +
                       " bytes, and the format holds names of at most " + std::to_string(kMaxNameBytes));
  if (idx.distinct_hashes() > std::numeric_limits<uint32_t>::max())
    throw InputError(cannot + std::to_string(idx.distinct_hashes()) +
                     " distinct minimizers in one part: give a smaller -I");
  if (ref.size() > std::numeric_limits<uint32_t>::max())
    throw InputError(cannot + "more than 2^32 - 1 sequences in one part: give a smaller -I");

  ImageOut out(sink);
  const int bits = idx.bucket_bits();
  out.bytes(kMagic, sizeof kMagic);
  const uint32_t flag = (idx.hpc() ? kFlagHpc : 0) | (with_bases ? 0 : kFlagNoSeq);
  for (const uint32_t v : {static_cast<uint32_t>(idx.w()), static_cast<uint32_t>(idx.k()),
                           static_cast<uint32_t>(bits), static_cast<uint32_t>(ref.size()), flag})
    out.pod(v);
  for (const index::RefSeq& s : ref.seqs()) {
    out.pod(static_cast<uint8_t>(s.name.size()));
    out.bytes(s.name.data(), s.name.size());
    out.pod(s.len);
  }

  const BucketRanks g = group_by_bucket(idx, bits);
  const size_t n_buckets = g.first.size() - 1, n_blocks = (n_buckets + kBlockBuckets - 1) / kBlockBuckets;
  const size_t workers = static_cast<size_t>(std::max(1, threads));
  std::vector<std::vector<uint8_t>> blocks(std::min(n_blocks, 2 * workers));
  std::vector<std::vector<uint64_t>> occ(workers);
  for (size_t first = 0; first < n_blocks; first += blocks.size()) {
    const size_t n = std::min(blocks.size(), n_blocks - first);
    util::parallel_for(n, threads, [&](size_t i, int worker) {
      std::vector<uint8_t>& block = blocks[i];
      block.clear();
      const size_t end = std::min(n_buckets, (first + i + 1) * kBlockBuckets);
      for (size_t b = (first + i) * kBlockBuckets; b < end; ++b)
        encode_bucket(idx, bits, {g.ranks.data() + g.first[b], g.first[b + 1] - g.first[b]},
                      occ[static_cast<size_t>(worker)], block);
    });
    for (size_t i = 0; i < n; ++i) out.bytes(blocks[i].data(), blocks[i].size());
  }

  if (with_bases) {
    // Eight bases to a 32-bit word: agatha's packed bytes (two bases to a byte, the even
    // base in the low nibble), zero-padded to a whole word.
    const std::vector<uint8_t>& packed = ref.packed();
    out.bytes(packed.data(), packed.size());
    const uint64_t word_bytes = (ref.total_length() + 7) / 8 * 4;
    static constexpr uint8_t kZeros[4] = {};
    out.bytes(kZeros, static_cast<size_t>(word_bytes - packed.size()));
  }
  out.flush();
}

}  // namespace agatha::io
