// Reading minimap2 2.24's index files. The layout, as minimap2's mm_idx_dump writes it and
// mm_idx_load reads it back (integers in the host's byte order; little-endian on every
// platform agatha builds for):
//
//   "MMI\2"                           magic (4 bytes)
//   u32 w, k, b, n_seq, flag          b: bucket bits (mm_idx_init keeps b <= 2k);
//                                     flag: 1 HPC, 2 no bases stored, 4 no names
//   n_seq times: u8 name length l, l bytes of name, u32 sequence length
//   2^b buckets, each:
//     u32 n, then n u64 occurrences   those of the bucket's hashes that occur more than once
//     u32 size, then size pairs of u64 (key, value): the bucket's hash table, in table order
//   unless flag & 2: ceil(L / 8) u32 words of bases (L: the summed lengths), eight to a
//     word, 4 bits each, base i in bits 4(i % 8).. of word i / 8: codes 0-4 (A C G T,
//     anything else 4)
//
// A minimizer hash h (the 2k bits of mm_sketch's x >> 8) belongs to bucket h & (2^b - 1)
// (minimap2's mm_idx_add) and is stored under the key (h >> b) << 1, whose bit 0 is set
// when h occurs once: the value is then its one occurrence y; otherwise it is
// start << 32 | count, and its occurrences are the bucket's n occurrences
// [start, start + count), ascending (minimap2's worker_post; mm_idx_get looks them up
// so). The full hash is rebuilt as (key >> 1) << b | bucket.
//
// minimap2 -d with -I below the reference's size writes one such image per part, one
// after another (mm_idx_reader_read dumps each part as it is built).
#include "mmi_file.hpp"

#include <agatha/error.hpp>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "../index/reference.hpp"
#include "../index/sketch.hpp"

namespace agatha::io {
namespace {

static_assert(std::endian::native == std::endian::little, "the .mmi reader takes integers as the file holds them");

constexpr char kMagic[4] = {'M', 'M', 'I', '\2'};
// minimap2's MM_I_HPC, MM_I_NO_SEQ, MM_I_NO_NAME.
constexpr uint32_t kFlagHpc = 1, kFlagNoSeq = 2, kFlagNoName = 4;
// Bulk data is read in pieces of this size.
constexpr size_t kChunkBytes = size_t{1} << 20;
// At most this many occurrences are reserved for ahead of reading them (1 GiB).
constexpr uint64_t kMaxHitReserve = uint64_t{1} << 26;

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

// Where in the file a read is, for messages: a part of it, and the bucket when in one.
struct Where {
  const char* part;
  int64_t bucket = -1;
  [[nodiscard]] std::string str() const {
    return bucket < 0 ? std::string(part) : std::string(part) + " of bucket " + std::to_string(bucket);
  }
};

}  // namespace

// Checked reader of the file: no read goes past the end, and no array is allocated
// before the bytes that fill it are known to be there.
class MmiReader {
 public:
  explicit MmiReader(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "rb")) {
    if (!f_) throw InputError("cannot open '" + path + "': " + std::strerror(errno));
    if (std::fseek(f_.get(), 0, SEEK_END) != 0) fail("not a seekable file");
    const long end = std::ftell(f_.get());
    if (end < 0) fail("not a seekable file");
    size_ = left_ = static_cast<uint64_t>(end);
    std::rewind(f_.get());
  }

  // The start of every message about this file.
  [[nodiscard]] std::string what() const { return "'" + path_ + "' is not a valid minimap2 index (.mmi)"; }
  [[noreturn]] void fail(const std::string& problem) const { throw InputError(what() + ": " + problem); }

  [[nodiscard]] uint64_t size() const { return size_; }
  [[nodiscard]] uint64_t left() const { return left_; }

  void bytes(void* p, uint64_t n, const Where& where) {
    if (n > left_) fail("file is truncated (in " + where.str() + ")");
    auto* out = static_cast<unsigned char*>(p);
    while (n > 0) {
      const size_t c = static_cast<size_t>(std::min<uint64_t>(n, kChunkBytes));
      if (std::fread(out, 1, c, f_.get()) != c) fail("read error");
      out += c, n -= c, left_ -= c;
    }
  }
  template <class T>
  [[nodiscard]] T pod(const Where& where) {
    T v;
    bytes(&v, sizeof v, where);
    return v;
  }
  // n elements of T into v, checked against the bytes left before v grows.
  template <class T>
  void array(std::vector<T>& v, uint64_t n, const Where& where) {
    if (n > left_ / sizeof(T))
      fail("file is truncated (" + std::to_string(n) + " " + where.str() + " run past its end)");
    v.resize(static_cast<size_t>(n));
    bytes(v.data(), n * sizeof(T), where);
  }

 private:
  std::string path_;
  std::unique_ptr<std::FILE, FileCloser> f_;
  uint64_t size_ = 0, left_ = 0;
};

namespace {

// What the occurrences of the file are checked against.
struct SeqTable {
  std::vector<std::string> names;
  std::vector<uint32_t> lengths;
  uint32_t k = 0;
};

// An occurrence y = rid << 32 | pos << 1 | strand (mm_sketch), pos the k-mer's last base:
// rid names a sequence and k-1 <= pos < its length, as every later read through it
// (mm_idx_getseq's, the chains') needs.
void check_occurrence(const MmiReader& in, const SeqTable& t, uint64_t y, uint64_t bucket) {
  const uint64_t rid = y >> 32;
  const uint32_t pos = static_cast<uint32_t>(y) >> 1;
  if (rid >= t.lengths.size())
    in.fail("bucket " + std::to_string(bucket) + " has an occurrence on sequence " + std::to_string(rid) + " of " +
            std::to_string(t.lengths.size()));
  if (pos >= t.lengths[rid] || pos + 1 < t.k)
    in.fail("bucket " + std::to_string(bucket) + " has an occurrence at position " + std::to_string(pos) +
            " of sequence '" + t.names[rid] + "' (" + std::to_string(t.lengths[rid]) +
            " bases, k = " + std::to_string(t.k) + ")");
}

}  // namespace

bool has_mmi_magic(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char head[3] = {};
  const size_t n = std::fread(head, 1, sizeof head, f);
  std::fclose(f);
  return n > 0 && std::memcmp(head, kMagic, n) == 0;
}

namespace {

// The magic of the first part, held to minimap2 2.24's.
void read_magic(MmiReader& in) {
  if (in.size() < sizeof kMagic)
    in.fail("file is too short (" + std::to_string(in.size()) + " bytes) to be a minimap2 index");
  char magic[sizeof kMagic];
  in.bytes(magic, sizeof magic, {"the magic"});
  if (std::memcmp(magic, kMagic, 3) != 0) in.fail("bad magic (not a minimap2 index)");
  if (magic[3] != kMagic[3])
    in.fail("another format version (magic \"MMI\\" + std::to_string(static_cast<unsigned char>(magic[3])) +
            "\"; minimap2 2.24 writes \"MMI\\2\"): rebuild it with minimap2 2.24's -d, or give the FASTA");
}

// One index image, its magic already read: header, sequences, buckets, bases.
index::MinimizerIndex read_part(MmiReader& in) {
  // The header, held to what minimap2's mm_idx_init and agatha's sketch accept.
  uint32_t header[5];
  in.bytes(header, sizeof header, {"the header"});
  const uint32_t w = header[0], k = header[1], b = header[2], n_seq = header[3], flag = header[4];
  if (k < 1 || k > static_cast<uint32_t>(index::kMaxK))
    in.fail("k = " + std::to_string(k) + " is outside 1-" + std::to_string(index::kMaxK));
  if (w < 1 || w > static_cast<uint32_t>(index::kMaxW))
    in.fail("w = " + std::to_string(w) + " is outside 1-" + std::to_string(index::kMaxW));
  if (b > 2 * k) in.fail(std::to_string(b) + " bucket bits exceed 2k = " + std::to_string(2 * k));
  if ((flag & ~(kFlagHpc | kFlagNoSeq | kFlagNoName)) != 0) in.fail("unknown flags " + std::to_string(flag));
  if ((flag & kFlagNoSeq) != 0)
    in.fail(
        "it holds no reference bases (built with --idx-no-seq), and alignment needs them: rebuild it "
        "without --idx-no-seq");
  if ((flag & kFlagNoName) != 0) in.fail("it holds no sequence names");

  // The sequence table: a record takes at least 5 bytes, which bounds the count; past a
  // modest reserve the vectors grow only with records read.
  if (n_seq == 0) in.fail("no sequences");
  if (n_seq > in.left() / 5) in.fail("file is truncated (" + std::to_string(n_seq) + " sequences run past its end)");
  SeqTable seqs;
  seqs.k = k;
  seqs.names.reserve(std::min<uint32_t>(n_seq, 1 << 16));
  seqs.lengths.reserve(std::min<uint32_t>(n_seq, 1 << 16));
  uint64_t total = 0;  // < 2^32 sequences of < 2^32 bases: no overflow
  for (uint32_t i = 0; i < n_seq; ++i) {
    const auto name_len = in.pod<uint8_t>({"the sequence table"});
    std::string name(name_len, '\0');
    in.bytes(name.data(), name_len, {"the sequence table"});
    const auto len = in.pod<uint32_t>({"the sequence table"});
    seqs.names.push_back(std::move(name));
    seqs.lengths.push_back(len);
    total += len;
  }
  // The bases come last; their size is known now, and bounds what the buckets may take.
  const uint64_t base_bytes = (total + 7) / 8 * 4;
  if (base_bytes > in.left())
    in.fail("file is truncated (the " + std::to_string(total) + " bases of the sequences run past its end)");
  const uint64_t bucket_bytes = in.left() - base_bytes;
  const uint64_t n_buckets = uint64_t{1} << b;
  if (n_buckets > bucket_bytes / 8)
    in.fail("file is truncated (" + std::to_string(n_buckets) + " buckets of " + std::to_string(b) +
            " bucket bits run past its end)");

  // The buckets. An occurrence takes at least 8 bytes of them (16 when its hash occurs
  // once), so this reserve is about the occurrences there are, never more than the file.
  std::vector<std::pair<uint64_t, uint64_t>> hits;  // (hash, y)
  // (A multi-part file's later parts count in bucket_bytes too: the reserve is capped.)
  hits.reserve(static_cast<size_t>(std::min<uint64_t>((bucket_bytes - 8 * n_buckets) / 16, kMaxHitReserve)));
  const uint64_t key_limit = uint64_t{1} << (2 * k - b);  // key >> 1 is the hash's top 2k - b bits
  std::vector<uint64_t> occ, table, hashes;
  std::vector<std::pair<uint64_t, uint64_t>> lists;  // (start, count) of the keys with several occurrences
  for (uint64_t i = 0; i < n_buckets; ++i) {
    const auto bucket = static_cast<int64_t>(i);
    const auto at = [i] { return "bucket " + std::to_string(i); };
    const auto n_occ = in.pod<uint32_t>({"the occurrence count", bucket});
    in.array(occ, n_occ, {"occurrences", bucket});
    const auto n_keys = in.pod<uint32_t>({"the key count", bucket});
    in.array(table, 2 * uint64_t{n_keys}, {"key and value words", bucket});

    hashes.clear(), lists.clear();
    for (uint32_t j = 0; j < n_keys; ++j) {
      const uint64_t key = table[2 * j], value = table[2 * j + 1];
      if (key >> 1 >= key_limit) in.fail(at() + " has a key of a hash of more than 2k bits");
      hashes.push_back(((key >> 1) << b) | i);
      if ((key & 1) != 0) {
        check_occurrence(in, seqs, value, i);
        hits.emplace_back(hashes.back(), value);
        continue;
      }
      const uint64_t start = value >> 32, count = static_cast<uint32_t>(value);
      if (count == 0 || start > n_occ || count > n_occ - start)
        in.fail(at() + " has a key of " + std::to_string(count) + " occurrences from " + std::to_string(start) +
                ", outside its " + std::to_string(n_occ) + " occurrences");
      lists.emplace_back(start, count);
    }
    std::sort(hashes.begin(), hashes.end());
    if (std::adjacent_find(hashes.begin(), hashes.end()) != hashes.end()) in.fail(at() + " holds a key twice");
    // The lists of the keys tile the bucket's occurrences, as worker_post lays them out:
    // so the occurrences taken below are each taken once.
    std::sort(lists.begin(), lists.end());
    uint64_t next = 0;
    for (const auto& [start, count] : lists) {
      if (start != next) break;
      next += count;
    }
    if (next != n_occ) in.fail(at() + ": the occurrence lists of its keys overlap or leave occurrences out");
    for (uint32_t j = 0; j < n_keys; ++j) {
      const uint64_t key = table[2 * j], value = table[2 * j + 1];
      if ((key & 1) != 0) continue;
      const uint64_t hash = ((key >> 1) << b) | i, start = value >> 32, end = start + static_cast<uint32_t>(value);
      for (uint64_t p = start; p < end; ++p) {
        check_occurrence(in, seqs, occ[p], i);
        if (p > start && occ[p] < occ[p - 1]) in.fail(at() + " has a list of occurrences out of order");
        hits.emplace_back(hash, occ[p]);
      }
    }
  }

  // The bases: the words' nibbles, in order, are agatha's packed bytes (two bases to a
  // byte, the even base in the low nibble); the nibbles after the last base are padding.
  std::vector<uint8_t> packed;
  in.array(packed, base_bytes, {"bytes of bases"});
  packed.resize(static_cast<size_t>((total + 1) / 2));
  if ((total & 1) != 0) packed.back() &= 0x0f;

  index::Reference ref =
      index::Reference::from_parts(std::move(seqs.names), seqs.lengths, std::move(packed), in.what());
  return index::MinimizerIndex::from_occurrences(static_cast<int>(k), static_cast<int>(w), (flag & kFlagHpc) != 0,
                                                 static_cast<int>(b), std::move(ref), std::move(hits));
}

}  // namespace

MmiParts::MmiParts(const std::string& path) : in_(std::make_unique<MmiReader>(path)) {}
MmiParts::~MmiParts() = default;

std::optional<index::MinimizerIndex> MmiParts::next() {
  if (parts_ == 0)
    read_magic(*in_);
  else if (at_end())
    return std::nullopt;
  next_magic_read_ = false;
  ++parts_;
  return read_part(*in_);
}

bool MmiParts::at_end() {
  if (parts_ == 0 || next_magic_read_) return false;
  if (in_->left() == 0) return true;
  // What follows a part is another part (minimap2 -d with -I below the reference's
  // size) or nothing.
  char next[sizeof kMagic] = {};
  const uint64_t extra = in_->left();
  const uint64_t n = std::min<uint64_t>(extra, sizeof next);
  in_->bytes(next, n, {"the end"});
  if (n < sizeof next || std::memcmp(next, kMagic, sizeof next) != 0)
    in_->fail(std::to_string(extra) + " bytes of unknown data after the index");
  next_magic_read_ = true;
  return false;
}

void MmiParts::fail(const std::string& problem) const { in_->fail(problem); }

index::MinimizerIndex load_mmi(const std::string& path) {
  MmiParts parts(path);
  index::MinimizerIndex idx = *parts.next();
  if (!parts.at_end())
    parts.fail(
        "it is a multi-part index (minimap2 -d with -I below the reference's size writes one part after "
        "another): map against it part by part (agatha align), or rebuild it with a larger -I");
  return idx;
}

}  // namespace agatha::io
