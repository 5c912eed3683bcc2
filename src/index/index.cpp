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
//           u64 number of distinct hashes n; n u64 hashes (strictly ascending);
//           n+1 u64 list starts (starts[0] = 0, increasing);
//           u64 number of occurrences m (= starts[n]); m u64 occurrences
//   end-12  u32 CRC-32 (zlib's) of every byte before it
//   end-8   magic "AGIXEND\0"
// All integers little-endian (the host order on every supported platform).
//
// Version 2 added the checksum; version 1 files are refused (rebuild them). load trusts
// nothing in the file: every count is checked against the bytes the file still holds
// before anything is allocated, and every field that later code indexes with (sequence
// ids and positions in occurrences, base codes, list bounds) is checked against the
// header, so a damaged or hostile file is an InputError and never a bad memory access.
#include "index.hpp"

#include <agatha/error.hpp>

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

#include "../util/parallel_for.hpp"
#include "sketch.hpp"

namespace agatha::index {
namespace {

constexpr char kMagic[8] = {'A', 'G', 'A', 'T', 'H', 'A', 'I', 'X'};
constexpr char kEndMagic[8] = {'A', 'G', 'I', 'X', 'E', 'N', 'D', '\0'};
constexpr uint32_t kAgiVersion = 2;
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

uint32_t crc32_of(uint32_t crc, const void* p, size_t n) {
  return static_cast<uint32_t>(crc32_z(crc, static_cast<const Bytef*>(p), n));
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// Hands the image to the sink; sums everything it writes for the trailer.
class Writer {
 public:
  explicit Writer(const MinimizerIndex::ByteSink& out) : out_(out) {}
  void bytes(const void* p, size_t n) {
    raw(p, n);
    crc_ = crc32_of(crc_, p, n);
  }
  template <class T>
  void pod(T v) {
    bytes(&v, sizeof v);
  }
  template <class T>
  void array(const std::vector<T>& v) {
    bytes(v.data(), v.size() * sizeof(T));
  }
  // The trailer: the checksum of all bytes so far, the end magic.
  void finish() {
    const uint32_t crc = crc_;
    raw(&crc, sizeof crc);
    raw(kEndMagic, sizeof kEndMagic);
  }

 private:
  void raw(const void* p, size_t n) {
    if (n) out_(std::span<const uint8_t>(static_cast<const uint8_t*>(p), n));
  }

  const MinimizerIndex::ByteSink& out_;
  uint32_t crc_ = 0;
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
  template <class T>
  std::vector<T> array(uint64_t n, const std::string& name) {
    if (n > left_ / sizeof(T)) fail(std::to_string(n) + " " + name + " run past the end of the index data");
    std::vector<T> v(n);
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
MinimizerIndex::Builder::Builder(const AlignOptions& opt, std::string source)
    : k_(opt.k),
      w_(opt.w),
      bucket_bits_(opt.bucket_bits),
      threads_(std::max(1, opt.threads)),
      hpc_(opt.hpc),
      source_(std::move(source)) {
  opt.validate();
  if (opt.bucket_bits < 0 || opt.bucket_bits > kMaxBucketBits)
    throw OptionError("bucket bits must be within 0 and " + std::to_string(kMaxBucketBits));
}

void MinimizerIndex::Builder::add(const std::string& name, std::string_view bases, uint64_t record_no) {
  if (idx_.ref_.find(name) >= 0)
    throw InputError(source_ + " record " + std::to_string(record_no) + ": duplicate sequence name '" + name + "'");
  const uint32_t rid = idx_.ref_.add(name, bases);
  pending_.push_back({rid, std::string(bases)});
  pending_bases_ += bases.size();
  if (pending_bases_ >= kSketchBatchBases) sketch_pending();
}

void MinimizerIndex::Builder::sketch_pending() {
  // Each sequence is sketched by one worker into the worker's own list; the lists are
  // sorted together in finish(), so which worker sketched what does not matter.
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> found(static_cast<size_t>(threads_));
  std::vector<std::vector<Minimizer>> mins(static_cast<size_t>(threads_));
  util::parallel_for(pending_.size(), threads_, [&](size_t i, int worker) {
    std::vector<Minimizer>& mv = mins[static_cast<size_t>(worker)];
    mv.clear();
    sketch(pending_[i].bases, w_, k_, pending_[i].rid, hpc_, mv);
    for (const Minimizer& m : mv) found[static_cast<size_t>(worker)].emplace_back(m.x >> 8, m.y);
  });
  for (auto& f : found) hits_.insert(hits_.end(), f.begin(), f.end());
  pending_.clear();
  pending_bases_ = 0;
}

namespace {

// Sorts (hash, y) pairs ascending on `threads` threads: an in-place partition by the
// hash's top 8 bits (hashes are uniform, so the parts are even), then each part sorted
// by a worker. The result is the one total order of the pairs, whatever the threads.
void sort_hits(std::vector<std::pair<uint64_t, uint64_t>>& hits, int key_bits, int threads) {
  constexpr int kPartBits = 8;
  constexpr size_t kParts = size_t{1} << kPartBits;
  const int shift = std::max(0, key_bits - kPartBits);
  auto part_of = [shift](const std::pair<uint64_t, uint64_t>& h) { return static_cast<size_t>(h.first >> shift) & (kParts - 1); };
  std::vector<size_t> start(kParts + 1, 0);
  for (const auto& h : hits) ++start[part_of(h) + 1];
  for (size_t p = 0; p < kParts; ++p) start[p + 1] += start[p];
  std::vector<size_t> next(start.begin(), start.end() - 1);
  for (size_t p = 0; p < kParts; ++p) {  // cycle each pair to its part (American flag sort)
    while (next[p] < start[p + 1]) {
      size_t dest = part_of(hits[next[p]]);
      if (dest == p) {
        ++next[p];
        continue;
      }
      while (dest != p) {
        std::swap(hits[next[p]], hits[next[dest]++]);
        dest = part_of(hits[next[p]]);
      }
      ++next[p];
    }
  }
  util::parallel_for(kParts, threads, [&](size_t p, int) {
    std::sort(hits.begin() + static_cast<std::ptrdiff_t>(start[p]), hits.begin() + static_cast<std::ptrdiff_t>(start[p + 1]));
  });
}

}  // namespace

MinimizerIndex MinimizerIndex::Builder::finish() {
  sketch_pending();
  if (idx_.ref_.size() == 0) throw InputError(source_ + ": no sequences");
  idx_.k_ = k_, idx_.w_ = w_, idx_.hpc_ = hpc_;
  idx_.bucket_bits_ = std::min(bucket_bits_, 2 * k_);
  sort_hits(hits_, 2 * k_, threads_);  // by hash, then y: each list ascending by y
  for (size_t i = 0; i < hits_.size(); ++i) {
    if (i == 0 || hits_[i].first != hits_[i - 1].first) {
      idx_.keys_.push_back(hits_[i].first);
      idx_.starts_.push_back(i);
    }
    idx_.ys_.push_back(hits_[i].second);
  }
  idx_.starts_.push_back(hits_.size());
  std::vector<std::pair<uint64_t, uint64_t>>().swap(hits_);
  idx_.build_buckets();
  return std::move(idx_);
}

MinimizerIndex MinimizerIndex::build(const std::vector<std::pair<std::string, std::string>>& seqs,
                                     const AlignOptions& opt) {
  Builder b(opt, "reference");
  for (size_t i = 0; i < seqs.size(); ++i) b.add(seqs[i].first, seqs[i].second, i + 1);
  return b.finish();
}

void MinimizerIndex::build_buckets() {
  // The table narrows lookup's binary search to the keys of one bucket. At least
  // 2^bucket_bits buckets, and enough for about 8 keys a bucket (one 64-byte line of
  // keys, so a lookup touches the table, one line of keys and the list); never more than
  // about twice the keys, which cannot narrow the search further: the table's size
  // follows the keys actually present, and a loaded index never asks for more table than
  // its file holds hashes.
  constexpr int kKeysPerBucketBits = 3;
  const int by_keys = static_cast<int>(std::bit_width(keys_.size()));
  const int bits = std::min(by_keys, std::max(bucket_bits_, by_keys - kKeysPerBucketBits));
  bucket_shift_ = 2 * k_ - bits;
  bucket_start_.assign((size_t{1} << bits) + 1, 0);
  for (uint64_t key : keys_) ++bucket_start_[(key >> bucket_shift_) + 1];
  for (size_t i = 1; i < bucket_start_.size(); ++i) bucket_start_[i] += bucket_start_[i - 1];
}

std::span<const uint64_t> MinimizerIndex::lookup(uint64_t hash) const {
  const uint64_t top = hash >> bucket_shift_;
  if (top + 1 >= bucket_start_.size()) return {};
  const auto first = keys_.begin() + static_cast<ptrdiff_t>(bucket_start_[top]);
  const auto last = keys_.begin() + static_cast<ptrdiff_t>(bucket_start_[top + 1]);
  const auto it = std::lower_bound(first, last, hash);
  if (it == last || *it != hash) return {};
  const size_t i = static_cast<size_t>(it - keys_.begin());
  return {ys_.data() + starts_[i], starts_[i + 1] - starts_[i]};
}

std::vector<uint32_t> MinimizerIndex::occurrence_counts() const {
  std::vector<uint32_t> c(keys_.size());
  for (size_t i = 0; i < keys_.size(); ++i) c[i] = static_cast<uint32_t>(starts_[i + 1] - starts_[i]);
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
  out.array(keys_);
  out.array(starts_);
  out.pod<uint64_t>(ys_.size());
  out.array(ys_);
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

  // The hash lists: n keys and n+1 starts need 16n+8 bytes.
  const auto n_keys = in.pod<uint64_t>("the hash count");
  if (in.left() < 8 || n_keys > (in.left() - 8) / 16)
    in.fail(std::to_string(n_keys) + " hashes run past the end of the index data");
  idx.keys_ = in.array<uint64_t>(n_keys, "hashes");
  idx.starts_ = in.array<uint64_t>(n_keys + 1, "list starts");
  idx.ys_ = in.array<uint64_t>(in.pod<uint64_t>("the occurrence count"), "occurrences");
  in.close_payload();

  // The payload is as written; now check that what was written is an index, so no later
  // read through these fields (minimap2's mm_idx_get, mm_idx_getseq) leaves its array.
  idx.ref_ = Reference::from_parts(std::move(names), lengths, std::move(packed), in.what());
  const std::vector<uint64_t>& keys = idx.keys_;
  const std::vector<uint64_t>& starts = idx.starts_;
  const std::vector<uint64_t>& ys = idx.ys_;
  // Occurrences: y = rid << 32 | pos << 1 | strand, with pos the k-mer's last base
  // (sketch), so k-1 <= pos < len. A flat pass: most lists hold one occurrence.
  const Reference& ref = idx.ref_;
  for (uint64_t j = 0; j < ys.size(); ++j) {
    const uint64_t rid = ys[j] >> 32;
    const uint32_t pos = static_cast<uint32_t>(ys[j]) >> 1;
    if (rid >= lengths.size())
      in.fail("occurrence " + std::to_string(j) + " names sequence " + std::to_string(rid) + " of " +
              std::to_string(lengths.size()));
    if (pos >= lengths[rid] || pos + 1 < k) {
      const RefSeq& s = ref.seq(static_cast<uint32_t>(rid));
      in.fail("occurrence " + std::to_string(j) + " is at position " + std::to_string(pos) + " of sequence '" + s.name +
              "' (" + std::to_string(s.len) + " bases, k = " + std::to_string(k) + ")");
    }
  }
  // Hashes strictly ascending below 4^k (lookup's binary search); lists not empty (the
  // builder makes none), within the occurrences, of a size occurrence_counts' uint32
  // holds, and ascending by y as lookup promises.
  if (starts[0] != 0) in.fail("the first occurrence list starts at " + std::to_string(starts[0]));
  if (starts[n_keys] != ys.size())
    in.fail("the occurrence lists end at " + std::to_string(starts[n_keys]) + " but there are " +
            std::to_string(ys.size()) + " occurrences");
  const uint64_t key_limit = uint64_t{1} << 2 * idx.k_;
  for (uint64_t i = 0; i < n_keys; ++i) {
    if (keys[i] >= key_limit) in.fail("hash " + std::to_string(i) + " has more than 2k bits");
    if (i > 0 && keys[i] <= keys[i - 1]) in.fail("hash " + std::to_string(i) + " is out of order");
    const uint64_t st = starts[i], en = starts[i + 1];
    if (en <= st || en > ys.size() || en - st > std::numeric_limits<uint32_t>::max())
      in.fail("hash " + std::to_string(i) + " has a list of " + std::to_string(static_cast<int64_t>(en - st)) +
              " occurrences");
    for (uint64_t j = st + 1; j < en; ++j)
      if (ys[j] < ys[j - 1])
        in.fail("occurrence " + std::to_string(j) + " is out of order in the list of hash " + std::to_string(i));
  }
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
