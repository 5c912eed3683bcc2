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
//           n+1 u64 list starts (starts[0] = 0, non-decreasing);
//           u64 number of occurrences m (= starts[n]); m u64 occurrences
//   end     magic "AGIXEND\0"
// All integers little-endian (the host order on every supported platform).
#include "index.hpp"

#include <agatha/error.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

#include "../io/seq_reader.hpp"
#include "sketch.hpp"

namespace agatha::index {
namespace {

constexpr char kMagic[8] = {'A', 'G', 'A', 'T', 'H', 'A', 'I', 'X'};
constexpr char kEndMagic[8] = {'A', 'G', 'I', 'X', 'E', 'N', 'D', '\0'};
constexpr uint32_t kAgiVersion = 1;
constexpr uint32_t kFlagHpc = 1;

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// Checked binary writer.
class Writer {
 public:
  explicit Writer(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "wb")) {
    if (!f_) throw Error("cannot create '" + path + "': " + std::strerror(errno));
  }
  void bytes(const void* p, size_t n) {
    if (n && std::fwrite(p, 1, n, f_.get()) != n) throw Error("error writing '" + path_ + "'");
  }
  template <class T>
  void pod(T v) {
    bytes(&v, sizeof v);
  }
  template <class T>
  void array(const std::vector<T>& v) {
    bytes(v.data(), v.size() * sizeof(T));
  }
  void close() {
    if (std::fclose(f_.release()) != 0) throw Error("error writing '" + path_ + "'");
  }

 private:
  std::string path_;
  File f_;
};

// Checked binary reader: every count is checked against the bytes left in the file
// before anything is allocated, so a corrupt count cannot ask for absurd memory.
class Reader {
 public:
  explicit Reader(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "rb")) {
    if (!f_) throw InputError("cannot open '" + path + "': " + std::strerror(errno));
    if (std::fseek(f_.get(), 0, SEEK_END) != 0) fail("not a seekable file");
    left_ = static_cast<uint64_t>(std::ftell(f_.get()));
    std::rewind(f_.get());
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError("'" + path_ + "' is not a valid agatha index (.agi): " + what);
  }
  void bytes(void* p, uint64_t n) {
    if (n > left_ || (n && std::fread(p, 1, n, f_.get()) != n)) fail("file is truncated");
    left_ -= n;
  }
  template <class T>
  T pod() {
    T v;
    bytes(&v, sizeof v);
    return v;
  }
  template <class T>
  std::vector<T> array(uint64_t n) {
    if (n > left_ / sizeof(T)) fail("file is truncated");
    std::vector<T> v(n);
    bytes(v.data(), n * sizeof(T));
    return v;
  }
  uint64_t left() const { return left_; }

 private:
  std::string path_;
  File f_;
  uint64_t left_ = 0;
};

}  // namespace

// Collects the sequences and their minimizers, then groups them by hash.
class MinimizerIndex::Builder {
 public:
  Builder(const AlignOptions& opt, std::string what) : opt_(opt), what_(std::move(what)) { opt.validate(); }

  void add(const std::string& name, const std::string& bases, uint64_t record_no) {
    if (idx_.ref_.find(name) >= 0)
      throw InputError(what_ + " record " + std::to_string(record_no) + ": duplicate sequence name '" + name + "'");
    const uint32_t rid = idx_.ref_.add(name, bases);
    mins_.clear();
    sketch(bases, opt_.w, opt_.k, rid, opt_.hpc, mins_);
    for (const Minimizer& m : mins_) hits_.emplace_back(m.x >> 8, m.y);
  }

  MinimizerIndex finish() {
    if (idx_.ref_.size() == 0) throw InputError(what_ + ": no sequences");
    idx_.k_ = opt_.k, idx_.w_ = opt_.w, idx_.hpc_ = opt_.hpc;
    idx_.bucket_bits_ = std::min(opt_.bucket_bits, 2 * opt_.k);
    std::sort(hits_.begin(), hits_.end());  // by hash, then y: each list ascending by y
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

 private:
  const AlignOptions& opt_;
  std::string what_;
  MinimizerIndex idx_;
  std::vector<Minimizer> mins_;
  std::vector<std::pair<uint64_t, uint64_t>> hits_;
};

MinimizerIndex MinimizerIndex::build(const std::string& fasta_path, const AlignOptions& opt) {
  io::SeqReader reader(fasta_path);
  Builder b(opt, "'" + fasta_path + "'");
  io::SeqRecord rec;
  while (reader.next(rec)) b.add(rec.name, rec.seq, reader.records_read());
  return b.finish();
}

MinimizerIndex MinimizerIndex::build(const std::vector<std::pair<std::string, std::string>>& seqs,
                                     const AlignOptions& opt) {
  Builder b(opt, "reference");
  for (size_t i = 0; i < seqs.size(); ++i) b.add(seqs[i].first, seqs[i].second, i + 1);
  return b.finish();
}

void MinimizerIndex::build_buckets() {
  const int shift = 2 * k_ - bucket_bits_;
  bucket_start_.assign((size_t{1} << bucket_bits_) + 1, 0);
  for (uint64_t key : keys_) ++bucket_start_[(key >> shift) + 1];
  for (size_t i = 1; i < bucket_start_.size(); ++i) bucket_start_[i] += bucket_start_[i - 1];
}

std::span<const uint64_t> MinimizerIndex::lookup(uint64_t hash) const {
  const uint64_t top = hash >> (2 * k_ - bucket_bits_);
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

void MinimizerIndex::save(const std::string& path) const {
  Writer out(path);
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
  out.bytes(kEndMagic, sizeof kEndMagic);
  out.close();
}

MinimizerIndex MinimizerIndex::load(const std::string& path) {
  Reader in(path);
  char magic[8];
  if (in.left() < sizeof magic) in.fail("file is too short");
  in.bytes(magic, sizeof magic);
  if (std::memcmp(magic, kMagic, sizeof magic) != 0) in.fail("wrong magic number");
  const auto version = in.pod<uint32_t>();
  if (version != kAgiVersion)
    in.fail("format version " + std::to_string(version) + ", expected " + std::to_string(kAgiVersion));
  MinimizerIndex idx;
  idx.k_ = static_cast<int>(in.pod<uint32_t>());
  idx.w_ = static_cast<int>(in.pod<uint32_t>());
  const auto flags = in.pod<uint32_t>();
  idx.hpc_ = (flags & kFlagHpc) != 0;
  idx.bucket_bits_ = static_cast<int>(in.pod<uint32_t>());
  if (idx.k_ <= 0 || idx.k_ > kMaxK || idx.w_ <= 0 || idx.w_ > kMaxW || (flags & ~kFlagHpc) != 0 ||
      idx.bucket_bits_ < 0 || idx.bucket_bits_ > 2 * idx.k_)
    in.fail("bad parameters in the header");

  const auto n_seq = in.pod<uint64_t>();
  if (n_seq == 0) in.fail("no sequences");
  if (n_seq > in.left() / 8) in.fail("file is truncated");
  std::vector<std::string> names(n_seq);
  std::vector<uint32_t> lengths(n_seq);
  for (uint64_t i = 0; i < n_seq; ++i) {
    const auto len = in.pod<uint32_t>();
    const auto chars = in.array<char>(len);
    names[i].assign(chars.begin(), chars.end());
    lengths[i] = in.pod<uint32_t>();
  }
  auto packed = in.array<uint8_t>(in.pod<uint64_t>());
  idx.ref_ = Reference::from_parts(std::move(names), lengths, std::move(packed), "'" + path + "'");

  const auto n_keys = in.pod<uint64_t>();
  idx.keys_ = in.array<uint64_t>(n_keys);
  idx.starts_ = in.array<uint64_t>(n_keys + 1);
  idx.ys_ = in.array<uint64_t>(in.pod<uint64_t>());
  in.bytes(magic, sizeof magic);
  if (std::memcmp(magic, kEndMagic, sizeof magic) != 0) in.fail("missing end marker");
  if (in.left() != 0) in.fail("trailing bytes after the end marker");

  const uint64_t key_limit = uint64_t{1} << 2 * idx.k_;
  for (size_t i = 0; i < n_keys; ++i) {
    if (idx.keys_[i] >= key_limit || (i > 0 && idx.keys_[i] <= idx.keys_[i - 1])) in.fail("hashes out of order");
    if (idx.starts_[i + 1] <= idx.starts_[i]) in.fail("empty or inverted occurrence list");
  }
  if (idx.starts_[0] != 0 || idx.starts_[n_keys] != idx.ys_.size()) in.fail("occurrence lists do not match");
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
