// Index construction (sketch every reference sequence, group occurrences by hash, sort
// each list by y), lookup, mid_occ, and the .agi file format:
//
//   offset  field
//   0       magic "AGATHAIX" (8 bytes)
//   8       u32 format version (kAgiVersion)
//   12      u32 k, u32 w, u32 flags (bit 0: HPC), u32 bucket bits
//   28      u64 number of sequences; then per sequence: u32 name length, name bytes,
//           u32 sequence length
//           u64 packed-base bytes, packed bases (4 bits per base)
//           u64 number of distinct hashes n; the n hashes, strictly ascending, as
//             - k <= 16: n u32;
//             - 16 < k <= 24: for each value h of a hash's bits above the low 32
//               (2^(2k-32) of them), u64 the index of the first hash with those bits,
//               then u64 n; then each hash's low 32 bits, n u32;
//             - k > 24: n u64;
//           n u64 values: the occurrence of a hash that occurs once, else
//             2^63 | the number of its occurrences (at least 2);
//           u64 number m of occurrences of the repeated hashes; the m occurrences,
//             list after list in hash order, each list ascending
//   end-12  u32 CRC-32 (zlib's) of every byte before it
//   end-8   magic "AGIXEND\0"
// All integers little-endian (the host order on every supported platform).
//
// Version 2 added the checksum, version 3 the compact hash and occurrence encoding;
// older files are refused (rebuild them). load trusts
// nothing in the file: every count is checked against the bytes the file still holds
// before anything is allocated, and every field that later code indexes with (sequence
// ids and positions in occurrences, base codes, list bounds) is checked against the
// header, so a damaged or hostile file is an InputError and never a bad memory access.
#include "index.hpp"

#include <agatha/error.hpp>

#include <zlib.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdio>
#include <cstring>
#include <future>
#include <limits>
#include <memory>
#include <utility>

#include "../util/parallel_for.hpp"
#include "sketch.hpp"

namespace agatha::index {
namespace {

constexpr char kMagic[8] = {'A', 'G', 'A', 'T', 'H', 'A', 'I', 'X'};
constexpr char kEndMagic[8] = {'A', 'G', 'I', 'X', 'E', 'N', 'D', '\0'};
constexpr uint32_t kAgiVersion = 3;
constexpr uint32_t kFlagHpc = 1;
constexpr uint64_t kTrailerBytes = 4 + sizeof kEndMagic;  // CRC-32, end magic
// The most bucket bits an index may have: 2^24 buckets (128 MiB of table) already give a
// human genome's ~10^8 distinct hashes a handful of keys per bucket.
constexpr int kMaxBucketBits = 24;
// Fuzzing builds (libFuzzer's convention) accept any checksum, so that mutated files reach
// the field checks behind it.
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
constexpr bool kVerifyChecksum = false;
#else
constexpr bool kVerifyChecksum = true;
#endif
// Bulk data is read and checksummed in pieces of this size, so each piece is summed
// while it is still in cache.
constexpr size_t kChunkBytes = size_t{1} << 20;

// Sequence ids are below this, so that an occurrence (rid << 32 | ...) never has bit 63,
// the list flag of the index's values.
constexpr uint64_t kMaxSequences = uint64_t{1} << 31;

// Returns the free pages of the heap to the system (glibc keeps them otherwise), so
// that memory a build step has finished with does not count twice in its peak.
void release_free_memory() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

// How the hashes of a k-mer size are written (see the format above).
enum class KeyCoding { kU32, kHighGroups, kU64 };
KeyCoding key_coding(int k) { return k <= 16 ? KeyCoding::kU32 : k <= 24 ? KeyCoding::kHighGroups : KeyCoding::kU64; }

uint32_t crc32_of(uint32_t crc, const void* p, size_t n) {
  return static_cast<uint32_t>(crc32_z(crc, static_cast<const Bytef*>(p), n));
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// Hands the image to the sink; sums everything it writes for the trailer. The bytes are
// gathered in a staging buffer; a full buffer is summed and handed to the sink on a
// thread of its own while the next one fills, so that the checksum and the write of a
// large index overlap the work of laying it out. What the sink throws is rethrown by
// the next call.
class Writer {
 public:
  explicit Writer(const MinimizerIndex::ByteSink& out) : out_(out) { stage_.reserve(kStageBytes); }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  ~Writer() {
    if (busy_.valid()) busy_.wait();
  }
  void bytes(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    while (n > 0) {
      const size_t c = std::min(n, kStageBytes - stage_.size());
      stage_.insert(stage_.end(), b, b + c);
      b += c, n -= c;
      if (stage_.size() == kStageBytes) hand_off();
    }
  }
  template <class T>
  void pod(T v) {
    bytes(&v, sizeof v);
  }
  template <class T, class A>
  void array(const std::vector<T, A>& v) {
    bytes(v.data(), v.size() * sizeof(T));
  }
  // The trailer: the checksum of all bytes so far, the end magic.
  void finish() {
    hand_off();
    busy_.get();
    const uint32_t crc = crc_;
    raw(&crc, sizeof crc);
    raw(kEndMagic, sizeof kEndMagic);
  }

 private:
  static constexpr size_t kStageBytes = size_t{4} << 20;

  // Waits for the previous buffer (rethrowing its error), then sends this one.
  void hand_off() {
    if (busy_.valid()) busy_.get();
    std::swap(stage_, sending_);
    stage_.clear();
    busy_ = std::async(std::launch::async, [this] {
      crc_ = crc32_of(crc_, sending_.data(), sending_.size());
      raw(sending_.data(), sending_.size());
    });
  }
  void raw(const void* p, size_t n) {
    if (n) out_(std::span<const uint8_t>(static_cast<const uint8_t*>(p), n));
  }

  const MinimizerIndex::ByteSink& out_;
  std::vector<uint8_t> stage_, sending_;
  std::future<void> busy_;  // the buffer being summed and sent
  uint32_t crc_ = 0;        // of the bytes sent so far (written by the sending thread)
};

// Checked, checksumming binary reader. Once open_payload has read the trailer, reads are
// limited to the payload before it, and every count is checked against the payload
// bytes left before anything is allocated, so a corrupt count cannot ask for memory the
// file does not back.
class Reader {
 public:
  explicit Reader(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "rb")) {
    if (!f_) throw InputError("cannot open '" + path + "': " + std::strerror(errno));
    if (std::fseek(f_.get(), 0, SEEK_END) != 0) fail("not a seekable file");
    const long end = std::ftell(f_.get());
    if (end < 0) fail("not a seekable file");
    size_ = left_ = static_cast<uint64_t>(end);
    std::rewind(f_.get());
  }

  // The start of every message about this file.
  std::string what() const { return "'" + path_ + "' is not a valid agatha index (.agi)"; }

  // Throws the InputError for `problem`, unless the payload's checksum shows the file is
  // damaged: a flipped byte trips some rule sooner or later, and then the checksum is
  // the true cause. The rest of the payload is read for that, on this error path only.
  [[noreturn]] void fail(const std::string& problem) {
    if (kVerifyChecksum && sealed_ && !verified_ && drain() && crc_ != stored_crc_)
      throw InputError(what() + ": " + kDamaged);
    throw InputError(what() + ": " + problem);
  }

  uint64_t size() const { return size_; }
  uint64_t left() const { return left_; }

  // n bytes; `name` says what they are, for the error when the file has fewer.
  void bytes(void* p, uint64_t n, const std::string& name) {
    if (n > left_) fail(sealed_ ? name + " run past the end of the index data" : "file is truncated");
    auto* out = static_cast<unsigned char*>(p);
    while (n > 0) {
      const size_t c = static_cast<size_t>(std::min<uint64_t>(n, kChunkBytes));
      if (std::fread(out, 1, c, f_.get()) != c) {
        sealed_ = false;  // the rest cannot be summed either
        fail("read error");
      }
      crc_ = crc32_of(crc_, out, c);
      out += c, n -= c, left_ -= c;
    }
  }
  template <class T>
  T pod(const std::string& name) {
    T v;
    bytes(&v, sizeof v, name);
    return v;
  }
  // n elements of T, checked against the bytes left before the allocation.
  template <class T, class Vector = std::vector<T>>
  Vector array(uint64_t n, const std::string& name) {
    if (n > left_ / sizeof(T)) fail(std::to_string(n) + " " + name + " run past the end of the index data");
    Vector v(n);
    bytes(v.data(), n * sizeof(T), name);
    return v;
  }

  // Reads the trailer (checksum, end magic) and limits further reads to the payload.
  void open_payload() {
    if (left_ < kTrailerBytes) fail("file is truncated");
    const uint64_t at = size_ - left_;
    unsigned char trailer[kTrailerBytes];
    if (std::fseek(f_.get(), static_cast<long>(size_ - kTrailerBytes), SEEK_SET) != 0 ||
        std::fread(trailer, 1, sizeof trailer, f_.get()) != sizeof trailer ||
        std::fseek(f_.get(), static_cast<long>(at), SEEK_SET) != 0)
      fail("read error");
    if (std::memcmp(trailer + 4, kEndMagic, sizeof kEndMagic) != 0)
      fail("file is truncated (it does not end with the end marker)");
    std::memcpy(&stored_crc_, trailer, sizeof stored_crc_);
    left_ -= kTrailerBytes;
    sealed_ = true;
  }
  // Checks that the payload was read exactly and that its checksum matches.
  void close_payload() {
    if (left_ != 0) fail(std::to_string(left_) + " bytes of unknown data before the end marker");
    verified_ = true;
    if (kVerifyChecksum && crc_ != stored_crc_) throw InputError(what() + ": " + kDamaged);
  }

 private:
  static constexpr const char* kDamaged = "checksum mismatch: the file is damaged (rebuild it with `agatha index`)";

  // Sums the unread rest of the payload; false if it cannot be read.
  bool drain() {
    std::vector<unsigned char> buf(static_cast<size_t>(std::min<uint64_t>(left_, kChunkBytes)));
    while (left_ > 0) {
      const size_t c = static_cast<size_t>(std::min<uint64_t>(left_, buf.size()));
      if (std::fread(buf.data(), 1, c, f_.get()) != c) return false;
      crc_ = crc32_of(crc_, buf.data(), c);
      left_ -= c;
    }
    return true;
  }

  std::string path_;
  File f_;
  uint64_t size_ = 0, left_ = 0;
  uint32_t crc_ = 0, stored_crc_ = 0;
  bool sealed_ = false;    // the trailer is read: left_ counts payload bytes only
  bool verified_ = false;  // the whole payload is read and its checksum matched
};

}  // namespace

// Collects the sequences, sketches them in batches on the worker threads, then groups
// the minimizers by hash.
MinimizerIndex::Builder::Builder(const AlignOptions& opt, std::string source, uint64_t sketch_batch_bases,
                                 int piece_bases)
    : k_(opt.k),
      w_(opt.w),
      bucket_bits_(opt.bucket_bits),
      threads_(std::max(1, opt.threads)),
      part_shift_(std::max(0, 2 * opt.k - kPartBits)),
      batch_bases_(sketch_batch_bases),
      piece_bases_(std::max(1, piece_bases)),
      hpc_(opt.hpc),
      source_(std::move(source)),
      parts_(size_t{1} << kPartBits) {
  opt.validate();
  if (opt.bucket_bits < 0 || opt.bucket_bits > kMaxBucketBits)
    throw OptionError("bucket bits must be within 0 and " + std::to_string(kMaxBucketBits));
}

void MinimizerIndex::Builder::add(const std::string& name, std::string_view bases, uint64_t record_no) {
  if (idx_.ref_.find(name) >= 0)
    throw InputError(source_ + " record " + std::to_string(record_no) + ": duplicate sequence name '" + name + "'");
  if (idx_.ref_.size() >= kMaxSequences)
    throw InputError(source_ + " record " + std::to_string(record_no) + ": more than " + std::to_string(kMaxSequences) +
                     " sequences");
  const uint32_t rid = idx_.ref_.add(name, bases);
  pending_.push_back({rid, std::string(bases)});
  pending_bases_ += bases.size();
  if (pending_bases_ >= batch_bases_) sketch_pending();
}

// Hands the collected sequences to a sketching thread, after the previous batch's has
// finished, so that reading the next batch overlaps sketching this one (as minimap2's
// mm_idx_gen pipelines them).
void MinimizerIndex::Builder::sketch_pending() {
  wait_for_sketching();
  if (pending_.empty()) return;
  sketching_ =
      std::async(std::launch::async, [this, batch = std::move(pending_)]() mutable { sketch_batch(std::move(batch)); });
  pending_.clear();
  pending_bases_ = 0;
}

void MinimizerIndex::Builder::wait_for_sketching() {
  if (sketching_.valid()) sketching_.get();  // rethrows what the batch threw
}

MinimizerIndex::Builder::~Builder() {
  if (sketching_.valid()) sketching_.wait();
}

void MinimizerIndex::Builder::sketch_batch(std::vector<Pending> batch) {
  // Sequences are sketched in pieces of about kPieceBases, each by one worker into the
  // worker's own list (sketch_piece: a piece is scanned from a little before its start,
  // further back when that warm-up cannot reproduce the state), so that one long
  // chromosome keeps every worker busy. The parts are sorted in finish(), so which worker
  // sketched what, and in which order, does not matter. A worker's minimizers stay in the
  // vector it sketched them into, their x turned into the hash in place (no second copy
  // of the batch's occurrences).
  struct Piece {
    size_t seq;
    int from, to;
  };
  // With several workers a piece is also at most a quarter of a worker's share of the
  // batch (but not below kMinPieceBases, where the warm-up would start to cost): a
  // reference of one 5 Mb chromosome is then sketched by every worker, not by one.
  uint64_t batch_bases = 0;
  for (const Pending& sq : batch) batch_bases += sq.bases.size();
  int piece_bases = piece_bases_;
  if (threads_ > 1) {
    const uint64_t share = batch_bases / (4 * static_cast<uint64_t>(threads_));
    piece_bases = static_cast<int>(std::min<uint64_t>(piece_bases, std::max<uint64_t>(share, kMinPieceBases)));
  }
  std::vector<Piece> pieces;
  for (size_t i = 0; i < batch.size(); ++i) {
    const int len = static_cast<int>(batch[i].bases.size());
    const int n = std::max(1, len / piece_bases);
    for (int p = 0; p < n; ++p)
      pieces.push_back({i, static_cast<int>(int64_t{len} * p / n), static_cast<int>(int64_t{len} * (p + 1) / n)});
  }
  // Each worker's minimizers go to a list that is kept from batch to batch (cleared, not
  // freed): after the first batch no list grows, and its pages are not handed back and
  // faulted in again. The first reservation is the batch's expected share of a worker
  // (random sequence has about 2 / (w + 1) minimizers a base), with some room.
  std::vector<std::vector<Minimizer>>& found = found_;
  if (found.empty()) {
    found.resize(static_cast<size_t>(threads_));
    const uint64_t expect = batch_bases_ * 2 / static_cast<uint64_t>(w_ + 1) / static_cast<uint64_t>(threads_);
    for (auto& f : found) f.reserve(static_cast<size_t>(expect + expect / 4));
  }
  for (auto& f : found) f.clear();
  util::parallel_for(pieces.size(), threads_, [&](size_t i, int worker) {
    std::vector<Minimizer>& f = found[static_cast<size_t>(worker)];
    const size_t start = f.size();
    const Piece& pc = pieces[i];
    const Pending& sq = batch[pc.seq];
    sketch_range(sq.bases, w_, k_, sq.rid, hpc_, kWarmupBases, pc.from, pc.to, f);
    for (size_t j = start; j < f.size(); ++j) f[j].x >>= 8;  // hash << 8 | span -> hash
  });
  for (Pending& sq : batch) std::string().swap(sq.bases);
  // Each part gets one chunk of exactly what this batch adds to it: no part is regrown,
  // and no chunk holds unused capacity. Each worker's list is counted by part, which
  // gives every list its offsets in the chunks; then each list is copied into them. Both
  // passes go over each list once, on the workers.
  const size_t n_parts = parts_.size(), n_lists = found.size();
  std::vector<std::vector<size_t>> at(n_lists, std::vector<size_t>(n_parts, 0));
  util::parallel_for(n_lists, threads_, [&](size_t l, int) {
    for (const Minimizer& m : found[l]) ++at[l][part_of(m.x)];
  });
  std::vector<Hit*> chunk(n_parts, nullptr);
  for (size_t p = 0; p < n_parts; ++p) {
    size_t n = 0;
    for (size_t l = 0; l < n_lists; ++l) n += std::exchange(at[l][p], n);  // counts -> offsets
    if (n > 0) {
      util::UninitVector<Hit>& c = parts_[p].emplace_back();
      c.resize(n);
      chunk[p] = c.data();
    }
  }
  util::parallel_for(n_lists, threads_, [&](size_t l, int) {
    std::vector<size_t>& next = at[l];
    for (const Minimizer& m : found[l]) {
      const size_t p = part_of(m.x);
      chunk[p][next[p]++] = {m.x, m.y};
    }
  });
}

MinimizerIndex MinimizerIndex::Builder::finish() {
  sketch_pending();
  wait_for_sketching();
  std::vector<std::vector<Minimizer>>().swap(found_);
  release_free_memory();
  if (idx_.ref_.size() == 0) throw InputError(source_ + ": no sequences");
  return assemble(k_, w_, hpc_, bucket_bits_, std::move(idx_.ref_), parts_, threads_);
}

MinimizerIndex MinimizerIndex::from_occurrences(int k, int w, bool hpc, int bucket_bits, Reference ref,
                                                std::vector<std::pair<uint64_t, uint64_t>> hits) {
  const int shift = std::max(0, 2 * k - kPartBits);
  std::vector<Chunks> parts(size_t{1} << kPartBits, Chunks(1));
  std::vector<size_t> size(parts.size(), 0);
  for (const Hit& h : hits) ++size[static_cast<size_t>(h.first >> shift)];
  for (size_t p = 0; p < parts.size(); ++p) parts[p][0].reserve(size[p]);
  for (const Hit& h : hits) parts[static_cast<size_t>(h.first >> shift)][0].push_back(h);
  std::vector<Hit>().swap(hits);
  return assemble(k, w, hpc, bucket_bits, std::move(ref), parts, 1);
}

namespace {

using Hit = std::pair<uint64_t, uint64_t>;

// LSD radix sort of a part's hits by hash, stable, over the low bits in which the
// hashes of the part differ (the part's top bits are shared), in passes of at most
// kMaxSortBits; a part is small enough for its hits and the scratch to stay in the L2
// cache. The first pass moves the hits out of the chunks (which it frees), so the part is
// gathered and sorted in one go; `spare` is scratch of the calling worker. Then each run
// of one hash is sorted by y: the order of std::sort on the (hash, y) pairs.
constexpr int kMaxSortBits = 11;

void sort_part(std::vector<util::UninitVector<Hit>>& chunks, util::UninitVector<Hit>& out, util::UninitVector<Hit>& spare) {
  size_t n = 0;
  uint64_t first = 0, differ = 0;
  for (const auto& c : chunks)
    for (const Hit& h : c) first = n++ == 0 ? h.first : first, differ |= h.first ^ first;
  const int bits = static_cast<int>(std::bit_width(differ));
  const int passes = (bits + kMaxSortBits - 1) / kMaxSortBits;
  const int width = passes == 0 ? 0 : (bits + passes - 1) / passes;
  const uint64_t mask = (uint64_t{1} << width) - 1;
  std::vector<size_t> count(static_cast<size_t>(passes) << width, 0);
  for (const auto& c : chunks)
    for (const Hit& h : c)
      for (int d = 0; d < passes; ++d) ++count[(static_cast<size_t>(d) << width) + (h.first >> (d * width) & mask)];
  // The first pass (or a plain copy when no bit differs) reads the chunks into `out` or
  // `spare`, chosen so that the last pass ends in `out`.
  util::UninitVector<Hit>* dst = passes % 2 == 1 || passes == 0 ? &out : &spare;
  dst->resize(n);
  // One stable scatter by digit d of what for_each_range hands over, into dst.
  auto scatter = [&](int d, auto&& for_each_range, Hit* to) {
    size_t* at = count.data() + (static_cast<size_t>(d) << width);
    size_t sum = 0;
    for (size_t b = 0; b <= mask; ++b) sum += at[b], at[b] = sum - at[b];
    const int shift = d * width;
    for_each_range([&](const Hit* b, const Hit* e) {
      for (const Hit* h = b; h != e; ++h) to[at[h->first >> shift & mask]++] = *h;
    });
  };
  auto from_chunks = [&](auto&& fn) {
    for (auto& c : chunks) {
      fn(c.data(), c.data() + c.size());
      util::UninitVector<Hit>().swap(c);
    }
  };
  if (passes == 0) {
    Hit* o = out.data();
    from_chunks([&](const Hit* b, const Hit* e) { o = std::copy(b, e, o); });
  } else {
    scatter(0, from_chunks, dst->data());
    for (int d = 1; d < passes; ++d) {
      util::UninitVector<Hit>* src = dst;
      dst = src == &out ? &spare : &out;
      dst->resize(n);
      scatter(d, [&](auto&& fn) { fn(src->data(), src->data() + n); }, dst->data());
    }
  }
  chunks.clear();
  for (size_t i = 0, j; i < n; i = j) {
    for (j = i + 1; j < n && out[j].first == out[i].first;) ++j;
    if (j - i > 1) std::sort(out.begin() + static_cast<ptrdiff_t>(i), out.begin() + static_cast<ptrdiff_t>(j));
  }
}

}  // namespace

// Sorts each part by hash, then y (each list ascending by y), then lays the lists out
// part after part: each part's keys, values and list words go to offsets known from the
// counts of the parts before it, so the parts are written in parallel, each freed once
// written.
MinimizerIndex MinimizerIndex::assemble(int k, int w, bool hpc, int bucket_bits, Reference ref,
                                        std::vector<Chunks>& parts, int threads) {
  MinimizerIndex idx;
  idx.k_ = k, idx.w_ = w, idx.hpc_ = hpc;
  idx.bucket_bits_ = std::clamp(bucket_bits, 0, std::min(2 * k, kMaxBucketBits));
  idx.ref_ = std::move(ref);
  struct Count {
    size_t keys = 0, list_words = 0;
  };
  std::vector<Count> counts(parts.size());
  std::vector<util::UninitVector<Hit>> sorted(parts.size()), spare(static_cast<size_t>(std::max(1, threads)));
  util::parallel_for(parts.size(), threads, [&](size_t p, int worker) {
    util::UninitVector<Hit>& part = sorted[p];
    sort_part(parts[p], part, spare[static_cast<size_t>(worker)]);
    for (size_t i = 0, j; i < part.size(); i = j) {
      for (j = i + 1; j < part.size() && part[j].first == part[i].first;) ++j;
      ++counts[p].keys;
      if (j - i > 1) counts[p].list_words += 1 + (j - i);
    }
    // The chunks' memory goes back to the system as the sorted parts take their place.
    if ((p + 1) % (parts.size() / 8 + 1) == 0) release_free_memory();
  });
  parts.clear();
  spare.clear();
  release_free_memory();
  std::vector<Count> at(sorted.size());
  size_t n_keys = 0, n_words = 0;
  for (size_t p = 0; p < sorted.size(); ++p) {
    at[p] = {n_keys, n_words};
    n_keys += counts[p].keys, n_words += counts[p].list_words;
    idx.occurrences_ += sorted[p].size();
  }
  idx.keys_.resize(n_keys);
  idx.vals_.resize(n_keys);
  idx.lists_.resize(n_words);
  util::parallel_for(sorted.size(), threads, [&](size_t p, int) {
    util::UninitVector<Hit>& part = sorted[p];
    size_t key = at[p].keys, word = at[p].list_words;
    for (size_t i = 0, j; i < part.size(); i = j) {
      for (j = i + 1; j < part.size() && part[j].first == part[i].first;) ++j;
      idx.keys_[key] = part[i].first;
      if (j - i == 1) {
        idx.vals_[key] = part[i].second;
      } else {
        idx.vals_[key] = kListFlag | word;
        idx.lists_[word++] = j - i;
        for (size_t t = i; t < j; ++t) idx.lists_[word++] = part[t].second;
      }
      ++key;
    }
    util::UninitVector<Hit>().swap(part);
    // What the written parts held goes back to the system as the index grows.
    if ((p + 1) % (sorted.size() / 8 + 1) == 0) release_free_memory();
  });
  sorted.clear();
  release_free_memory();
  idx.build_buckets();
  return idx;
}

MinimizerIndex MinimizerIndex::build(const std::vector<std::pair<std::string, std::string>>& seqs,
                                     const AlignOptions& opt) {
  Builder b(opt, "reference");
  for (size_t i = 0; i < seqs.size(); ++i) b.add(seqs[i].first, seqs[i].second, i + 1);
  return b.finish();
}

void MinimizerIndex::build_buckets() {
  // Each segment gets 2^b buckets with 2^b <= its keys / 4 (4-8 keys a bucket, one or
  // two 64-byte lines of keys), raised towards 2^bucket_bits buckets in all but never to
  // more buckets than the segment has keys, which cannot narrow the search further: the
  // table's size follows the keys actually present, and a loaded index never asks for
  // more table than its file holds hashes.
  constexpr int kKeysPerBucketBits = 2;
  const int seg_bits = std::min(kSegmentBits, 2 * k_);
  segment_shift_ = 2 * k_ - seg_bits;
  const size_t n_seg = size_t{1} << seg_bits;
  std::vector<uint64_t> count(n_seg, 0);
  for (uint64_t key : keys_)
    if ((key >> segment_shift_) < n_seg) ++count[key >> segment_shift_];
  segments_.assign(n_seg, {});
  uint64_t n_buckets = 0;
  for (size_t s = 0; s < n_seg; ++s) {
    const int by_keys = static_cast<int>(std::bit_width(count[s]));
    const int wanted = std::max(by_keys - kKeysPerBucketBits - 1, bucket_bits_ - seg_bits);
    const int bits = std::clamp(std::min(wanted, by_keys), 0, segment_shift_);
    segments_[s] = {n_buckets, segment_shift_ - bits};
    n_buckets += uint64_t{1} << bits;
  }
  // One more bucket for hashes out of range, and the end sentinel.
  bucket_start_.assign(n_buckets + 2, 0);
  for (uint64_t key : keys_) ++bucket_start_[bucket_of(key) + 1];
  for (size_t i = 1; i < bucket_start_.size(); ++i) bucket_start_[i] += bucket_start_[i - 1];
}

std::span<const uint64_t> MinimizerIndex::lookup(uint64_t hash) const {
  if (bucket_start_.empty()) return {};
  const uint64_t bucket = bucket_of(hash);
  const uint64_t i = find_in_bucket(hash, bucket_start_[bucket], bucket_start_[bucket + 1] - bucket_start_[bucket]);
  if (i == kNotFound) return {};
  const uint64_t v = vals_[i];
  if ((v & kListFlag) == 0) return {vals_.data() + i, 1};
  const uint64_t at = v & ~kListFlag;
  return {lists_.data() + at + 1, static_cast<size_t>(lists_[at])};
}

void MinimizerIndex::lookup_batch(const uint64_t* hashes, size_t n, std::span<const uint64_t>* out,
                                  uint64_t* pos) const {
  if (bucket_start_.empty()) {
    std::fill(out, out + n, std::span<const uint64_t>{});
    return;
  }
  const uint64_t* starts = bucket_start_.data();
  // Step 1: each hash's bucket, [pos, pos + out's size) of keys_.
  for (size_t i = 0; i < n; ++i) {
    const uint64_t bucket = bucket_of(hashes[i]);
    pos[i] = starts[bucket];
    out[i] = {keys_.data(), static_cast<size_t>(starts[bucket + 1] - starts[bucket])};
  }
  // Step 2: the search in each bucket. Its loop count depends only on the bucket's
  // size (read in step 1); the key comparisons narrow by conditional moves.
  for (size_t i = 0; i < n; ++i) pos[i] = find_in_bucket(hashes[i], pos[i], out[i].size());
  // Step 3: the value of each hash found.
  for (size_t i = 0; i < n; ++i) {
    if (pos[i] == kNotFound) {
      out[i] = {};
      continue;
    }
    out[i] = {vals_.data() + pos[i], 1};
    pos[i] = vals_[pos[i]];
  }
  // Step 4: the occurrence lists of repeated hashes.
  for (size_t i = 0; i < n; ++i) {
    if (out[i].empty() || (pos[i] & kListFlag) == 0) continue;
    const uint64_t at = pos[i] & ~kListFlag;
    out[i] = {lists_.data() + at + 1, static_cast<size_t>(lists_[at])};
  }
}

std::vector<uint32_t> MinimizerIndex::occurrence_counts() const {
  std::vector<uint32_t> c(keys_.size());
  for (size_t i = 0; i < keys_.size(); ++i)
    c[i] = (vals_[i] & kListFlag) == 0 ? 1 : static_cast<uint32_t>(lists_[vals_[i] & ~kListFlag]);
  return c;
}

void MinimizerIndex::save(const ByteSink& sink) const {
  Writer out(sink);
  out.bytes(kMagic, sizeof kMagic);
  out.pod<uint32_t>(kAgiVersion);
  out.pod<uint32_t>(static_cast<uint32_t>(k_));
  out.pod<uint32_t>(static_cast<uint32_t>(w_));
  out.pod<uint32_t>(hpc_ ? kFlagHpc : 0);
  out.pod<uint32_t>(static_cast<uint32_t>(bucket_bits_));
  out.pod<uint64_t>(ref_.size());
  for (uint32_t i = 0; i < ref_.size(); ++i) {
    const RefSeq& s = ref_.seq(i);
    out.pod<uint32_t>(static_cast<uint32_t>(s.name.size()));
    out.bytes(s.name.data(), s.name.size());
    out.pod<uint32_t>(s.len);
  }
  out.pod<uint64_t>(ref_.packed().size());
  out.array(ref_.packed());
  out.pod<uint64_t>(keys_.size());
  // Hashes, by key_coding; values and lists through a buffer, list lengths moved from
  // lists_ into the values.
  std::vector<uint64_t> buf;
  buf.reserve(kChunkBytes / 8);
  auto flush = [&] {
    out.array(buf);
    buf.clear();
  };
  auto put = [&](uint64_t v) {
    buf.push_back(v);
    if (buf.size() == buf.capacity()) flush();
  };
  const KeyCoding coding = key_coding(k_);
  if (coding == KeyCoding::kU64) {
    out.array(keys_);
  } else {
    if (coding == KeyCoding::kHighGroups) {
      const uint64_t groups = uint64_t{1} << (2 * k_ - 32);
      size_t i = 0;
      for (uint64_t h = 0; h < groups; ++h) {
        while (i < keys_.size() && (keys_[i] >> 32) < h) ++i;
        put(i);
      }
      put(keys_.size());
      flush();
    }
    std::vector<uint32_t> low;
    low.reserve(kChunkBytes / 4);
    for (size_t i = 0; i < keys_.size(); ++i) {
      low.push_back(static_cast<uint32_t>(keys_[i]));
      if (low.size() == low.capacity() || i + 1 == keys_.size()) {
        out.array(low);
        low.clear();
      }
    }
  }
  uint64_t n_lists = 0;
  for (uint64_t v : vals_) {
    const bool listed = (v & kListFlag) != 0;
    n_lists += listed;
    put(listed ? kListFlag | lists_[v & ~kListFlag] : v);
  }
  flush();
  out.pod<uint64_t>(lists_.size() - n_lists);
  for (size_t at = 0; at < lists_.size(); at += 1 + lists_[at])
    for (uint64_t j = 1; j <= lists_[at]; ++j) put(lists_[at + j]);
  flush();
  out.finish();
}

bool MinimizerIndex::is_agi_file(const std::string& path) {
  if (path.ends_with(".agi")) return true;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char head[sizeof kMagic] = {};
  const size_t n = std::fread(head, 1, sizeof head, f);
  std::fclose(f);
  return n > 0 && std::memcmp(head, kMagic, n) == 0;
}

MinimizerIndex MinimizerIndex::load(const std::string& path) {
  Reader in(path);
  char magic[sizeof kMagic];
  if (in.size() < sizeof magic)
    in.fail("file is too short (" + std::to_string(in.size()) + " bytes) to be an agatha index");
  in.bytes(magic, sizeof magic, "magic");
  if (std::memcmp(magic, kMagic, sizeof magic) != 0) in.fail("bad magic (not an agatha index)");
  const auto version = in.pod<uint32_t>("version");
  if (version < kAgiVersion)
    in.fail("format version " + std::to_string(version) + " is out of date (this agatha reads version " +
            std::to_string(kAgiVersion) + "): rebuild the index with `agatha index`");
  if (version != kAgiVersion)
    in.fail("unknown format version " + std::to_string(version) + " (this agatha reads version " +
            std::to_string(kAgiVersion) + ")");
  in.open_payload();

  // The header: the same ranges the builder accepts (AlignOptions::validate, Builder).
  MinimizerIndex idx;
  const auto k = in.pod<uint32_t>("the header"), w = in.pod<uint32_t>("the header");
  const auto flags = in.pod<uint32_t>("the header"), bucket_bits = in.pod<uint32_t>("the header");
  if (k < 1 || k > static_cast<uint32_t>(kMaxK))
    in.fail("k = " + std::to_string(k) + " is outside 1-" + std::to_string(kMaxK));
  if (w < 1 || w > static_cast<uint32_t>(kMaxW))
    in.fail("w = " + std::to_string(w) + " is outside 1-" + std::to_string(kMaxW));
  if ((flags & ~kFlagHpc) != 0) in.fail("unknown flags " + std::to_string(flags));
  const auto max_bits = static_cast<uint32_t>(std::min(2 * static_cast<int>(k), kMaxBucketBits));
  if (bucket_bits > max_bits)
    in.fail("bucket bits " + std::to_string(bucket_bits) + " exceed " + std::to_string(max_bits) +
            " (the most for k = " + std::to_string(k) + ")");
  idx.k_ = static_cast<int>(k), idx.w_ = static_cast<int>(w);
  idx.hpc_ = (flags & kFlagHpc) != 0;
  idx.bucket_bits_ = static_cast<int>(bucket_bits);

  // The sequence table. A record takes at least 8 bytes, which bounds the count; past a
  // modest reserve the vectors grow only with records actually read.
  const auto n_seq = in.pod<uint64_t>("the sequence count");
  if (n_seq == 0) in.fail("no sequences");
  if (n_seq > std::numeric_limits<uint32_t>::max() || n_seq > in.left() / 8)
    in.fail(std::to_string(n_seq) + " sequences run past the end of the index data");
  std::vector<std::string> names;
  std::vector<uint32_t> lengths;
  names.reserve(static_cast<size_t>(std::min<uint64_t>(n_seq, 1 << 16)));
  lengths.reserve(static_cast<size_t>(std::min<uint64_t>(n_seq, 1 << 16)));
  uint64_t total = 0;  // < 2^32 sequences of < 2^31 bases: no overflow
  for (uint64_t i = 0; i < n_seq; ++i) {
    const auto name_len = in.pod<uint32_t>("the sequence table");
    if (name_len > in.left())
      in.fail("the name of sequence " + std::to_string(i) + " runs past the end of the index data");
    std::string name(name_len, '\0');
    in.bytes(name.data(), name_len, "the sequence table");
    const auto len = in.pod<uint32_t>("the sequence table");
    if (len > static_cast<uint32_t>(std::numeric_limits<int32_t>::max()))
      in.fail("sequence " + std::to_string(i) + " claims " + std::to_string(len) + " bases (at most 2^31-1)");
    names.push_back(std::move(name));
    lengths.push_back(len);
    total += len;
  }
  const auto n_packed = in.pod<uint64_t>("the packed-base count");
  if (n_packed != (total + 1) / 2)
    in.fail(std::to_string(n_packed) + " bytes of packed bases for sequences of " + std::to_string(total) +
            " bases in all");
  auto packed = in.array<uint8_t>(n_packed, "bytes of packed bases");

  // The hashes, by key_coding: a hash takes at least 4 bytes and has a value of 8.
  const auto n_keys = in.pod<uint64_t>("the hash count");
  if (n_keys > in.left() / 12) in.fail(std::to_string(n_keys) + " hashes run past the end of the index data");
  const KeyCoding coding = key_coding(idx.k_);
  if (coding == KeyCoding::kU64) {
    idx.keys_ = in.array<uint64_t, util::UninitVector<uint64_t>>(n_keys, "hashes");
  } else {
    std::vector<uint64_t> group_start;
    if (coding == KeyCoding::kHighGroups) {
      group_start = in.array<uint64_t>((uint64_t{1} << (2 * idx.k_ - 32)) + 1, "hash group starts");
      if (group_start.front() != 0 || group_start.back() != n_keys)
        in.fail("the hash groups cover " + std::to_string(group_start.front()) + "-" +
                std::to_string(group_start.back()) + " of " + std::to_string(n_keys) + " hashes");
      for (size_t h = 1; h < group_start.size(); ++h)
        if (group_start[h] < group_start[h - 1]) in.fail("hash group " + std::to_string(h) + " is out of order");
    } else {
      group_start = {0, n_keys};
    }
    const std::vector<uint32_t> low = in.array<uint32_t>(n_keys, "hashes");
    idx.keys_.resize(n_keys);
    for (size_t h = 0; h + 1 < group_start.size(); ++h)
      for (uint64_t i = group_start[h]; i < group_start[h + 1]; ++i) idx.keys_[i] = uint64_t{h} << 32 | low[i];
  }
  util::UninitVector<uint64_t> vals = in.array<uint64_t, util::UninitVector<uint64_t>>(n_keys, "hash values");
  const auto n_listed = in.pod<uint64_t>("the listed occurrence count");
  const std::vector<uint64_t> listed = in.array<uint64_t>(n_listed, "listed occurrences");
  in.close_payload();

  // The payload is as written; now check that what was written is an index, so no later
  // read through these fields (minimap2's mm_idx_get, mm_idx_getseq) leaves its array.
  idx.ref_ = Reference::from_parts(std::move(names), lengths, std::move(packed), in.what());
  // Occurrences: y = rid << 32 | pos << 1 | strand, with pos the k-mer's last base
  // (sketch), so k-1 <= pos < len.
  const Reference& ref = idx.ref_;
  // `list_at`: the occurrence's place in its hash's list, or -1 for a hash's only one.
  auto check_occurrence = [&](uint64_t y, uint64_t hash_i, int64_t list_at) {
    const uint64_t rid = y >> 32;
    const uint32_t pos = static_cast<uint32_t>(y) >> 1;
    if (rid < lengths.size() && pos < lengths[rid] && pos + 1 >= k) return;
    const std::string which = list_at < 0
                                  ? "the occurrence of hash " + std::to_string(hash_i)
                                  : "occurrence " + std::to_string(list_at) + " of hash " + std::to_string(hash_i);
    if (rid >= lengths.size())
      in.fail(which + " names sequence " + std::to_string(rid) + " of " + std::to_string(lengths.size()));
    if (pos >= lengths[rid] || pos + 1 < k) {
      const RefSeq& s = ref.seq(static_cast<uint32_t>(rid));
      in.fail(which + " is at position " + std::to_string(pos) + " of sequence '" + s.name + "' (" +
              std::to_string(s.len) + " bases, k = " + std::to_string(k) + ")");
    }
  };
  // Hashes strictly ascending below 4^k (lookup's binary search); a repeated hash's list
  // of 2 to 2^32-1 occurrences (occurrence_counts' uint32), ascending by y as lookup
  // promises, the lists together exactly the listed occurrences.
  const uint64_t key_limit = uint64_t{1} << 2 * idx.k_;
  const util::UninitVector<uint64_t>& keys = idx.keys_;
  uint64_t used = 0, n_lists = 0;
  for (uint64_t i = 0; i < n_keys; ++i) {
    if (keys[i] >= key_limit) in.fail("hash " + std::to_string(i) + " has more than 2k bits");
    if (i > 0 && keys[i] <= keys[i - 1]) in.fail("hash " + std::to_string(i) + " is out of order");
    if ((vals[i] & kListFlag) == 0) {
      check_occurrence(vals[i], i, -1);
      continue;
    }
    const uint64_t n = vals[i] & ~kListFlag;
    if (n < 2 || n > std::numeric_limits<uint32_t>::max() || n > n_listed - used)
      in.fail("hash " + std::to_string(i) + " has a list of " + std::to_string(n) + " occurrences" +
              (n < 2 ? "" : " (" + std::to_string(n_listed - used) + " left)"));
    for (uint64_t j = used; j < used + n; ++j) {
      check_occurrence(listed[j], i, static_cast<int64_t>(j - used));
      if (j > used && listed[j] < listed[j - 1])
        in.fail("occurrence " + std::to_string(j - used) + " is out of order in the list of hash " + std::to_string(i));
    }
    used += n;
    ++n_lists;
  }
  if (used != n_listed)
    in.fail("the lists hold " + std::to_string(used) + " of the " + std::to_string(n_listed) + " listed occurrences");
  // In memory each list is preceded by its length, and a value points at the length.
  idx.lists_.reserve(n_listed + n_lists);
  used = 0;
  for (uint64_t i = 0; i < n_keys; ++i) {
    if ((vals[i] & kListFlag) == 0) continue;
    const uint64_t n = vals[i] & ~kListFlag;
    vals[i] = kListFlag | idx.lists_.size();
    idx.lists_.push_back(n);
    idx.lists_.insert(idx.lists_.end(), listed.begin() + static_cast<ptrdiff_t>(used),
                      listed.begin() + static_cast<ptrdiff_t>(used + n));
    used += n;
  }
  idx.vals_ = std::move(vals);
  idx.occurrences_ = n_keys - n_lists + n_listed;
  idx.build_buckets();
  return idx;
}

int32_t resolve_mid_occ(const MinimizerIndex& idx, const AlignOptions& opt) {
  if (opt.mid_occ > 0) return opt.mid_occ;
  int64_t occ = std::numeric_limits<int32_t>::max();  // mid_occ_frac <= 0 disables the cutoff
  if (opt.mid_occ_frac > 0.0f) {
    std::vector<uint32_t> counts = idx.occurrence_counts();
    const size_t n = counts.size();
    if (n > 0) {
      // The ⌊(1-f)·n⌋-th smallest count (0-based), f promoted from float to double.
      auto kth = static_cast<size_t>(
          static_cast<uint32_t>((1.0 - static_cast<double>(opt.mid_occ_frac)) * static_cast<double>(n)));
      kth = std::min(kth, n - 1);
      std::nth_element(counts.begin(), counts.begin() + static_cast<ptrdiff_t>(kth), counts.end());
      occ = static_cast<int64_t>(counts[kth]) + 1;
    }
    // n == 0: minimap2's selection has no element to return; we treat the cutoff as
    // unbounded, which the clamp below turns into max_mid_occ (as its log shows).
  }
  if (occ < opt.min_mid_occ) occ = opt.min_mid_occ;
  if (opt.max_mid_occ > opt.min_mid_occ && occ > opt.max_mid_occ) occ = opt.max_mid_occ;
  return static_cast<int32_t>(occ);
}

}  // namespace agatha::index
