// The minimizer index: lists sorted by y with duplicates kept, reference storage, .agi
// round trip, and clear errors for wrong, truncated, damaged, foreign or inconsistent
// files (every field the loader must check, each with a correct checksum so that the
// field check itself is what fires).
#include "../../src/index/index.hpp"
#include "../../src/index/sketch.hpp"
#include "../../src/io/index_file.hpp"
#include "../../src/io/seq_reader.hpp"

#include <agatha/error.hpp>

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <span>

#include "support/errors.hpp"
#include "support/files.hpp"
#include "support/paths.hpp"

namespace agatha::index {
namespace {

std::string error_of(const std::function<void()>& f) { return test::error_of<InputError>(f); }

MinimizerIndex small_index() {
  AlignOptions opt;
  opt.k = 5, opt.w = 3;
  const std::string unit = "ACGTTGCATGGCA";
  return MinimizerIndex::build({{"s1", unit + unit + "NNNN" + unit}, {"s2", "acgttgcatggcaTTTT"}, {"empty", ""}}, opt);
}

TEST(Index, ListsAreSortedByPositionAndCountRepeats) {
  const auto idx = small_index();
  size_t total = 0;
  std::vector<Minimizer> mins;
  sketch("ACGTTGCATGGCA", 3, 5, 0, false, mins);
  ASSERT_FALSE(mins.empty());
  const auto hits = idx.lookup(mins[0].x >> 8);
  // The unit occurs three times in s1 and once (lower case) in s2.
  EXPECT_GE(hits.size(), 4u);
  EXPECT_TRUE(std::is_sorted(hits.begin(), hits.end()));
  for (uint32_t c : idx.occurrence_counts()) total += c;
  EXPECT_EQ(total, idx.total_occurrences());
}

TEST(Index, BuildErrors) {
  AlignOptions opt;
  EXPECT_EQ(error_of([&] {
              MinimizerIndex::build({{"a", "ACGT"}, {"b", "ACGT"}, {"a", "A"}}, opt);
            }),
            "reference record 3: duplicate sequence name 'a'");
  EXPECT_EQ(error_of([&] { MinimizerIndex::build(std::vector<std::pair<std::string, std::string>>{}, opt); }),
            "reference: no sequences");
  const test::TempDir dir;
  const std::string empty = dir.write("empty.fa", "");
  EXPECT_EQ(error_of([&] { (void)io::build_index_from_file(empty, opt); }), "'" + empty + "': no sequences");
  // The bucket bits a loaded index may have are the ones the builder takes.
  for (int bits : {-1, 25}) {
    opt.bucket_bits = bits;
    EXPECT_THROW(MinimizerIndex::build({{"a", "ACGTACGTAC"}}, opt), OptionError) << bits;
  }
  opt.bucket_bits = 24;
  EXPECT_EQ(error_of([&] { MinimizerIndex::build({{"a", "ACGTACGTAC"}}, opt); }), "");
}

TEST(Agi, RoundTripKeepsEverything) {
  AlignOptions opt;
  opt.apply_preset("map-pb");
  const auto idx = io::build_index_from_file(test::source_path("tests/data/seeds/rep.fa.gz"), opt);
  const test::TempDir dir;
  const std::string path = dir.file("rep.agi");
  io::save_index(idx, path);
  const auto back = MinimizerIndex::load(path);
  EXPECT_EQ(back.k(), 19);
  EXPECT_EQ(back.w(), 10);
  EXPECT_TRUE(back.hpc());
  ASSERT_EQ(back.reference().size(), idx.reference().size());
  EXPECT_EQ(back.reference().packed(), idx.reference().packed());
  for (uint32_t i = 0; i < idx.reference().size(); ++i) {
    EXPECT_EQ(back.reference().seq(i).name, idx.reference().seq(i).name);
    EXPECT_EQ(back.reference().seq(i).len, idx.reference().seq(i).len);
  }
  EXPECT_EQ(back.occurrence_counts(), idx.occurrence_counts());
  EXPECT_EQ(resolve_mid_occ(back, opt), resolve_mid_occ(idx, opt));
  std::vector<Minimizer> mins;
  sketch("ACGTACGGATCGATCGATTAGCTAGCTAGGATCGATCGA", 10, 19, 0, true, mins);
  for (const auto& m : mins) {
    const auto a = idx.lookup(m.x >> 8), b = back.lookup(m.x >> 8);
    EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end()));
  }
}

// The sequences of a FASTA file, in order.
std::vector<std::pair<std::string, std::string>> read_sequences(const std::string& path) {
  std::vector<std::pair<std::string, std::string>> seqs;
  io::SeqReader in(path);
  io::SeqRecord rec;
  while (in.next(rec)) seqs.emplace_back(rec.name, rec.seq);
  return seqs;
}

// Every hash's list as the index must hold it, sketched sequence by sequence.
std::map<uint64_t, std::vector<uint64_t>> expected_lists(const std::vector<std::pair<std::string, std::string>>& seqs,
                                                         const AlignOptions& opt) {
  std::map<uint64_t, std::vector<uint64_t>> lists;
  std::vector<Minimizer> mins;
  for (size_t i = 0; i < seqs.size(); ++i) {
    mins.clear();
    sketch(seqs[i].second, opt.w, opt.k, static_cast<uint32_t>(i), opt.hpc, mins);
    for (const Minimizer& m : mins) lists[m.x >> 8].push_back(m.y);
  }
  for (auto& [hash, ys] : lists) std::sort(ys.begin(), ys.end());
  return lists;
}

// The index holds exactly the expected lists: each one found by lookup, and no other
// (the counts add up).
void expect_lists(const MinimizerIndex& idx, const std::map<uint64_t, std::vector<uint64_t>>& want,
                  const std::string& what) {
  size_t total = 0;
  for (const auto& [hash, ys] : want) {
    const auto got = idx.lookup(hash);
    ASSERT_TRUE(std::equal(got.begin(), got.end(), ys.begin(), ys.end())) << what << " hash " << hash;
    total += ys.size();
  }
  EXPECT_EQ(idx.distinct_hashes(), want.size()) << what;
  EXPECT_EQ(idx.total_occurrences(), total) << what;
  const auto counts = idx.occurrence_counts();
  EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), size_t{0}), total) << what;
}

std::string image_of(const MinimizerIndex& idx) {
  std::string image;
  idx.save([&](std::span<const uint8_t> b) { image.append(reinterpret_cast<const char*>(b.data()), b.size()); });
  return image;
}

// The hashes are written as u32 (k <= 16), as u32 under a table of their high bits
// (16 < k <= 24) or as u64 (k > 24); every size round-trips to the same lists, which
// are the sketch's, and the tests' repeats give every kind of list.
TEST(Agi, EveryHashWidthRoundTrips) {
  const auto seqs = read_sequences(test::source_path("tests/data/seeds/rep.fa.gz"));
  for (int k : {5, 15, 16, 17, 19, 24, 25, 28}) {
    AlignOptions opt;
    opt.k = k, opt.w = 10, opt.hpc = k == 19;
    const auto want = expected_lists(seqs, opt);
    const auto idx = MinimizerIndex::build(seqs, opt);
    expect_lists(idx, want, "built, k = " + std::to_string(k));
    const test::TempDir dir;
    std::string name = "k";  // (appended: GCC 12 warns falsely on "k" + std::to_string(k) here)
    name += std::to_string(k) + ".agi";
    const std::string path = dir.file(name);
    io::save_index(idx, path);
    const auto back = MinimizerIndex::load(path);
    expect_lists(back, want, "loaded, k = " + std::to_string(k));
    EXPECT_EQ(image_of(back), image_of(idx)) << k;
    size_t repeated = 0;
    for (const auto& [hash, ys] : want) repeated += ys.size() > 1;
    EXPECT_GT(repeated, 0u) << k;
    EXPECT_LT(repeated, want.size()) << k;
  }
}

// Sketched in batches on any number of threads, the index is the same, byte for byte.
TEST(Index, SameForAnyThreadsAndBatches) {
  const auto seqs = read_sequences(test::source_path("tests/data/seeds/rep.fa.gz"));
  AlignOptions opt;
  opt.apply_preset("map-ont");
  const std::string one = image_of(MinimizerIndex::build(seqs, opt));
  for (int threads : {1, 2, 3, 8}) {
    for (uint64_t batch : {uint64_t{1}, uint64_t{5000}, MinimizerIndex::Builder::kSketchBatchBases}) {
      opt.threads = threads;
      MinimizerIndex::Builder b(opt, "reference", batch);
      for (size_t i = 0; i < seqs.size(); ++i) b.add(seqs[i].first, seqs[i].second, i + 1);
      const auto idx = b.finish();
      EXPECT_EQ(image_of(idx), one) << threads << " threads, batches of " << batch;
    }
  }
  EXPECT_GE(seqs.size(), 3u);
}

// One chromosome-length sequence is sketched in pieces cut to the thread count (at least
// kMinPieceBases each) with the default piece size: the same index for any thread count.
TEST(Index, OneLongSequenceIsTheSameForAnyThreads) {
  std::mt19937 rng(7);
  std::string seq(1'500'000, 'A');
  for (char& c : seq) c = "ACGT"[rng() % 4];
  for (size_t i = 0; i < 200'000; ++i) seq[700'000 + i] = seq[100'000 + i];  // a repeat across pieces
  ASSERT_GT(seq.size(), 4u * MinimizerIndex::Builder::kMinPieceBases);  // cut into pieces at 2 threads and up
  AlignOptions opt;
  opt.apply_preset("map-hifi");
  std::string one;
  for (int threads : {1, 2, 3, 8}) {
    opt.threads = threads;
    MinimizerIndex::Builder b(opt, "reference");
    b.add("chr", seq, 1);
    const std::string image = image_of(b.finish());
    if (threads == 1)
      one = image;
    else
      EXPECT_EQ(image, one) << threads << " threads";
  }
  EXPECT_FALSE(one.empty());
}

// Every hash's list is the sketch's occurrences of it, sorted by y, and the keys are
// exactly the sketched hashes: the index's grouping and sorting (radix passes over the
// hash bits that differ, in parts of the hash space) checked against a plain map.
TEST(Index, LookupIsTheSketchGroupedByHash) {
  const auto seqs = read_sequences(test::source_path("tests/data/seeds/rep.fa.gz"));
  for (const char* preset : {"map-ont", "map-hifi", "map-pb", "splice"}) {
    AlignOptions opt;
    opt.apply_preset(preset);
    opt.threads = 2;
    std::map<uint64_t, std::vector<uint64_t>> want;
    for (size_t i = 0; i < seqs.size(); ++i) {
      std::vector<Minimizer> mins;
      sketch(seqs[i].second, opt.w, opt.k, static_cast<uint32_t>(i), opt.hpc, mins);
      for (const Minimizer& m : mins) want[m.x >> 8].push_back(m.y);
    }
    MinimizerIndex::Builder b(opt, "reference", 20000);
    for (size_t i = 0; i < seqs.size(); ++i) b.add(seqs[i].first, seqs[i].second, i + 1);
    const auto idx = b.finish();
    ASSERT_EQ(idx.distinct_hashes(), want.size()) << preset;
    size_t total = 0, repeated = 0;
    for (auto& [hash, ys] : want) {
      std::sort(ys.begin(), ys.end());
      const auto got = idx.lookup(hash);
      ASSERT_EQ(std::vector<uint64_t>(got.begin(), got.end()), ys) << preset << " hash " << hash;
      total += ys.size(), repeated += ys.size() > 1;
      // A hash one above is absent unless sketched.
      if (!want.contains(hash + 1)) {
        EXPECT_TRUE(idx.lookup(hash + 1).empty());
      }
    }
    EXPECT_EQ(idx.total_occurrences(), total);
    EXPECT_GT(repeated, 100u) << preset;
    // lookup_batch answers as lookup does, for present hashes, absent ones and hashes
    // beyond 2k bits.
    std::vector<uint64_t> hashes;
    for (const auto& [hash, ys] : want) hashes.insert(hashes.end(), {hash, hash + 1, hash ^ (uint64_t{1} << 2 * opt.k)});
    hashes.push_back(~uint64_t{0});
    std::vector<std::span<const uint64_t>> got(hashes.size());
    std::vector<uint64_t> scratch(hashes.size());
    idx.lookup_batch(hashes.data(), hashes.size(), got.data(), scratch.data());
    for (size_t i = 0; i < hashes.size(); ++i) {
      const auto one = idx.lookup(hashes[i]);
      ASSERT_EQ(got[i].data(), one.data()) << preset << " hash " << hashes[i];
      ASSERT_EQ(got[i].size(), one.size()) << preset << " hash " << hashes[i];
    }
  }
}

// Minimizers are the smallest hashes of their windows, so the index's hashes crowd
// towards 0; the bucket table still gives every lookup a bucket of a few keys (a table
// cut at fixed top bits gave lookups of HiFi reads on E. coli buckets of 44 keys on
// average).
TEST(Index, BucketsStaySmallWhereMinimizerHashesCrowd) {
  const auto seqs = read_sequences(test::source_path("tests/data/seeds/rep.fa.gz"));
  for (const char* preset : {"map-ont", "map-hifi"}) {
    AlignOptions opt;
    opt.apply_preset(preset);
    opt.bucket_bits = 0;  // as many buckets as the keys ask for, no more
    std::vector<std::pair<std::string, std::string>> in(seqs.begin(), seqs.end());
    const auto idx = MinimizerIndex::build(in, opt);
    double sum = 0;
    size_t n = 0, largest = 0;
    for (size_t i = 0; i < seqs.size(); ++i) {
      std::vector<Minimizer> mins;
      sketch(seqs[i].second, opt.w, opt.k, static_cast<uint32_t>(i), opt.hpc, mins);
      for (const Minimizer& m : mins) {
        const size_t b = idx.bucket_size(m.x >> 8);
        sum += static_cast<double>(b), ++n, largest = std::max(largest, b);
      }
    }
    ASSERT_GT(n, 10000u) << preset;
    EXPECT_LE(sum / static_cast<double>(n), 10.0) << preset;
    EXPECT_LE(largest, 64u) << preset;
  }
}

// What the sink throws (a full disk, say) comes out of save, wherever in the image it
// happens: in the first bytes, mid-way, or at the trailer.
TEST(Agi, SaveRethrowsTheSinksError) {
  std::mt19937_64 rng(3);
  std::string bases(4'000'000, 'A');
  for (char& c : bases) c = "ACGT"[rng() % 4];
  AlignOptions opt;
  opt.apply_preset("map-ont");
  const auto idx = MinimizerIndex::build({{"random", bases}}, opt);
  const size_t size = image_of(idx).size();
  ASSERT_GT(size, size_t{8} << 20);  // several of save's staging buffers
  for (const size_t limit : {size_t{0}, size_t{100}, size / 2, size - 1}) {
    size_t sent = 0;
    auto sink = [&](std::span<const uint8_t> b) {
      if (sent + b.size() > limit) throw std::runtime_error("no space left on device");
      sent += b.size();
    };
    try {
      idx.save(sink);
      ADD_FAILURE() << "no error with a limit of " << limit << " bytes";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "no space left on device");
    }
    EXPECT_LE(sent, limit);
  }
}

// Sequences sketched in pieces on the workers (each piece scanned from a warm-up before
// it, or from the start where the warm-up cannot reproduce the state) give the index of
// whole sequences, for pieces shorter than the warm-up, longer, and whole sequences.
TEST(Index, SameForAnyPieceSize) {
  const auto seqs = read_sequences(test::source_path("tests/data/seeds/rep.fa.gz"));
  for (const char* preset : {"map-ont", "map-pb", "map-hifi"}) {
    AlignOptions opt;
    opt.apply_preset(preset);
    const std::string one = image_of(MinimizerIndex::build(seqs, opt));
    for (int threads : {1, 3}) {
      for (int piece : {997, 5000, 40000}) {
        opt.threads = threads;
        MinimizerIndex::Builder b(opt, "reference", MinimizerIndex::Builder::kSketchBatchBases, piece);
        for (size_t i = 0; i < seqs.size(); ++i) b.add(seqs[i].first, seqs[i].second, i + 1);
        EXPECT_EQ(image_of(b.finish()), one) << preset << ", " << threads << " threads, pieces of " << piece;
      }
    }
  }
  size_t longest = 0;
  for (const auto& s : seqs) longest = std::max(longest, s.second.size());
  EXPECT_GT(longest, 2 * 40000u);  // every piece size cuts some sequence
}

// Integers in an .agi image (little-endian, the host order).
template <class T>
T get(const std::string& b, size_t at) {
  T v;
  std::memcpy(&v, b.data() + at, sizeof v);
  return v;
}
template <class T>
void put(std::string& b, size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof v);
}

constexpr size_t kTrailer = 12;  // u32 CRC-32 of everything before it, "AGIXEND\0"

// Recomputes the trailer's checksum, so that a deliberately inconsistent image reaches
// the loader's field checks instead of stopping at the checksum.
std::string sealed(std::string b) {
  put(b, b.size() - kTrailer,
      static_cast<uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(b.data()), b.size() - kTrailer)));
  return b;
}

// Where each field of an .agi image lies, as the format in index.cpp lays them out,
// found by walking the bytes independently of the loader. For images of k <= 16 (hashes
// written as u32), the only kind the corruption tests make.
struct AgiLayout {
  static constexpr size_t kVersion = 8, kK = 12, kW = 16, kFlags = 20, kBucketBits = 24, kNSeq = 28;
  std::vector<size_t> name_len, seq_len;  // each sequence's u32 fields
  size_t n_packed = 0, n_keys = 0, keys = 0, vals = 0, n_listed = 0, listed = 0;
  uint64_t key_count = 0, listed_count = 0;

  explicit AgiLayout(const std::string& b) {
    EXPECT_LE(get<uint32_t>(b, kK), 16u);
    size_t at = kNSeq + 8;
    for (uint64_t i = get<uint64_t>(b, kNSeq); i > 0; --i) {
      name_len.push_back(at);
      at += 4 + get<uint32_t>(b, at);
      seq_len.push_back(at);
      at += 4;
    }
    n_packed = at;
    at += 8 + get<uint64_t>(b, at);
    n_keys = at;
    key_count = get<uint64_t>(b, at);
    keys = at + 8;
    vals = keys + 4 * key_count;
    n_listed = vals + 8 * key_count;
    listed_count = get<uint64_t>(b, n_listed);
    listed = n_listed + 8;
    EXPECT_EQ(listed + 8 * listed_count + kTrailer, b.size());
  }
  size_t packed() const { return n_packed + 8; }
  size_t key(uint64_t i) const { return keys + 4 * i; }
  size_t val(uint64_t i) const { return vals + 8 * i; }
  size_t listed_y(uint64_t j) const { return listed + 8 * j; }
};

constexpr uint64_t kListFlag = uint64_t{1} << 63;  // a value that is a list's length

class AgiCorrupt : public ::testing::Test {
 protected:
  void SetUp() override {
    io::save_index(small_index(), good_);
    bytes_ = test::read_file(good_);
  }
  std::string load_error(const std::string& content) {
    // A new file each time: truncating one in place can wait on the disk (ext4 discard).
    std::filesystem::remove(bad_);
    test::write_file(bad_, content);
    return error_of([&] { MinimizerIndex::load(bad_); });
  }
  // The error for `content` with its checksum made right.
  std::string field_error(const std::string& content) { return load_error(sealed(content)); }
  std::string prefix() const { return "'" + bad_ + "' is not a valid agatha index (.agi): "; }
  std::string damaged() const {
    return prefix() + "checksum mismatch: the file is damaged (rebuild it with `agatha index`)";
  }
  const test::TempDir dir_;
  const std::string good_ = dir_.file("good.agi"), bad_ = dir_.file("bad.agi");
  std::string bytes_;
};

TEST_F(AgiCorrupt, TheTrailerIsTheCrc32OfThePayload) {
  EXPECT_EQ(error_of([&] { MinimizerIndex::load(good_); }), "");
  EXPECT_EQ(get<uint32_t>(bytes_, AgiLayout::kVersion), 3u);
  EXPECT_EQ(sealed(bytes_), bytes_);
  EXPECT_EQ(bytes_.substr(bytes_.size() - 8), std::string("AGIXEND\0", 8));
  const AgiLayout at(bytes_);
  EXPECT_EQ(at.name_len.size(), 3u);
  // Each hash's value is its occurrence or its list's length; the lists hold the rest.
  uint64_t occurrences = 0, listed = 0;
  for (uint64_t i = 0; i < at.key_count; ++i) {
    const uint64_t v = get<uint64_t>(bytes_, at.val(i));
    occurrences += (v & kListFlag) ? v & ~kListFlag : 1;
    listed += (v & kListFlag) ? v & ~kListFlag : 0;
  }
  EXPECT_EQ(occurrences, small_index().total_occurrences());
  EXPECT_EQ(listed, at.listed_count);
  EXPECT_GT(listed, 0u);
}

TEST_F(AgiCorrupt, ForeignShortAndOldFiles) {
  EXPECT_EQ(load_error(">chr1\nACGT\n"), prefix() + "bad magic (not an agatha index)");
  EXPECT_EQ(load_error("AGATHAIY" + bytes_.substr(8)), prefix() + "bad magic (not an agatha index)");
  for (const std::string tiny : {"", "A", "AG", "AGAT", "AGATHAI"})
    EXPECT_EQ(load_error(tiny),
              prefix() + "file is too short (" + std::to_string(tiny.size()) + " bytes) to be an agatha index");
  std::string v = bytes_;
  for (uint32_t old : {1u, 2u}) {
    put<uint32_t>(v, AgiLayout::kVersion, old);
    EXPECT_EQ(load_error(v), prefix() + "format version " + std::to_string(old) +
                                 " is out of date (this agatha reads version 3): "
                                 "rebuild the index with `agatha index`");
  }
  put<uint32_t>(v, AgiLayout::kVersion, 9);
  EXPECT_EQ(load_error(v), prefix() + "unknown format version 9 (this agatha reads version 3)");
  EXPECT_EQ(error_of([] { MinimizerIndex::load("/nonexistent.agi"); }),
            "cannot open '/nonexistent.agi': No such file or directory");
}

TEST_F(AgiCorrupt, EveryTruncationIsAnError) {
  for (size_t cut = 0; cut < bytes_.size(); ++cut) {
    const std::string e = load_error(bytes_.substr(0, cut));
    if (cut < 8)
      EXPECT_EQ(e, prefix() + "file is too short (" + std::to_string(cut) + " bytes) to be an agatha index");
    else if (cut < 12 + kTrailer)  // no room for the version and the trailer
      EXPECT_EQ(e, prefix() + "file is truncated") << cut;
    else
      EXPECT_EQ(e, prefix() + "file is truncated (it does not end with the end marker)") << cut;
  }
  EXPECT_EQ(load_error(bytes_ + "x"), prefix() + "file is truncated (it does not end with the end marker)");
}

// A payload cut short but given a valid trailer: every count that now reaches past the
// data must be caught by the size checks themselves (the checksum is right).
TEST_F(AgiCorrupt, EveryShortenedPayloadIsAnError) {
  const std::string trailer = bytes_.substr(bytes_.size() - kTrailer);
  for (size_t cut = 12; cut + kTrailer < bytes_.size(); ++cut) {
    const std::string e = field_error(bytes_.substr(0, cut) + trailer);
    EXPECT_EQ(e.rfind(prefix(), 0), 0u) << cut << ": " << e;
    EXPECT_NE(e, damaged()) << cut;
  }
  EXPECT_EQ(field_error(bytes_.substr(0, bytes_.size() - kTrailer) + "x" + trailer),
            prefix() + "1 bytes of unknown data before the end marker");
}

// Every single flipped bit: the error names the damage, whatever field the bit is in.
TEST_F(AgiCorrupt, EveryFlippedBitIsAnError) {
  for (size_t i = 0; i < bytes_.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string b = bytes_;
      b[i] = static_cast<char>(b[i] ^ (1 << bit));
      const std::string e = load_error(b);
      if (i < 8)
        EXPECT_EQ(e, prefix() + "bad magic (not an agatha index)") << i;
      else if (i < 12)
        EXPECT_NE(e.find("format version"), std::string::npos) << i << ": " << e;
      else if (i + 8 < bytes_.size())
        EXPECT_EQ(e, damaged()) << i << " bit " << bit;  // the header, the data, the checksum itself
      else
        EXPECT_EQ(e, prefix() + "file is truncated (it does not end with the end marker)") << i;
    }
  }
}

TEST_F(AgiCorrupt, HeaderOutsideTheBuildersRanges) {
  const auto with = [&](size_t at, uint32_t v) {
    std::string b = bytes_;
    put(b, at, v);
    return field_error(b);
  };
  EXPECT_EQ(with(AgiLayout::kK, 0), prefix() + "k = 0 is outside 1-28");
  EXPECT_EQ(with(AgiLayout::kK, 40), prefix() + "k = 40 is outside 1-28");
  EXPECT_EQ(with(AgiLayout::kW, 0), prefix() + "w = 0 is outside 1-255");
  EXPECT_EQ(with(AgiLayout::kW, 256), prefix() + "w = 256 is outside 1-255");
  EXPECT_EQ(with(AgiLayout::kFlags, 2), prefix() + "unknown flags 2");
  EXPECT_EQ(with(AgiLayout::kBucketBits, 11), prefix() + "bucket bits 11 exceed 10 (the most for k = 5)");
  EXPECT_EQ(with(AgiLayout::kBucketBits, 31), prefix() + "bucket bits 31 exceed 10 (the most for k = 5)");
  EXPECT_EQ(with(AgiLayout::kBucketBits, 0), "");  // any bucket count finds the same lists
}

TEST_F(AgiCorrupt, CountsThatDoNotFitTheFile) {
  const AgiLayout at(bytes_);
  const auto with = [&](size_t off, auto v) {
    std::string b = bytes_;
    put(b, off, v);
    return field_error(b);
  };
  EXPECT_EQ(with(AgiLayout::kNSeq, uint64_t{0}), prefix() + "no sequences");
  EXPECT_EQ(with(AgiLayout::kNSeq, uint64_t{1} << 40),
            prefix() + "1099511627776 sequences run past the end of the index data");
  EXPECT_EQ(with(AgiLayout::kNSeq, ~uint64_t{0}),
            prefix() + "18446744073709551615 sequences run past the end of the index data");
  EXPECT_EQ(with(at.name_len[1], ~uint32_t{0}),
            prefix() + "the name of sequence 1 runs past the end of the index data");
  EXPECT_EQ(with(at.seq_len[0], uint32_t{1} << 31), prefix() + "sequence 0 claims 2147483648 bases (at most 2^31-1)");
  EXPECT_EQ(with(at.seq_len[0], uint32_t{44}), prefix() + "30 bytes of packed bases for sequences of 61 bases in all");
  EXPECT_EQ(with(at.n_packed, uint64_t{31}), prefix() + "31 bytes of packed bases for sequences of 60 bases in all");
  EXPECT_EQ(with(at.n_keys, uint64_t{1} << 61),
            prefix() + "2305843009213693952 hashes run past the end of the index data");
  EXPECT_EQ(with(at.n_keys, ~uint64_t{0}), prefix() + "18446744073709551615 hashes run past the end of the index data");
  EXPECT_EQ(with(at.n_listed, at.listed_count + 1), prefix() + std::to_string(at.listed_count + 1) +
                                                        " listed occurrences run past the end of the index data");
  EXPECT_EQ(with(at.n_listed, ~uint64_t{0}),
            prefix() + "18446744073709551615 listed occurrences run past the end of the index data");
}

TEST_F(AgiCorrupt, ReferenceStorage) {
  const AgiLayout at(bytes_);
  std::string b = bytes_;
  b[at.packed()] = static_cast<char>(0x0f);  // s1 base 0: code 15
  EXPECT_EQ(field_error(b), prefix() + "base 0 of sequence 's1' has code 15 (codes are 0-4)");
  b = bytes_;
  b[at.packed() + 22] = static_cast<char>((b[at.packed() + 22] & 0x0f) | 0x50);  // base 45 = s2 base 2
  EXPECT_EQ(field_error(b), prefix() + "base 2 of sequence 's2' has code 5 (codes are 0-4)");
  b = bytes_;
  b[at.packed() + 29] = static_cast<char>(0x88);  // the last two bases, s2 15-16
  EXPECT_EQ(field_error(b), prefix() + "base 15 of sequence 's2' has code 8 (codes are 0-4)");
  b = bytes_;
  b[at.name_len[1] + 5] = '1';  // "s2" -> "s1"
  EXPECT_EQ(field_error(b), prefix() + "duplicate reference sequence name 's1'");

  // An odd number of bases: the last byte's high nibble is padding, and must stay 0.
  AlignOptions opt;
  opt.k = 5, opt.w = 3;
  io::save_index(MinimizerIndex::build({{"odd", "ACGTTGCATGGCA"}}, opt), good_);
  b = test::read_file(good_);
  const AgiLayout odd(b);
  EXPECT_EQ(get<uint64_t>(b, odd.n_packed), 7u);
  b[odd.packed() + 6] = static_cast<char>(b[odd.packed() + 6] | 0x10);
  EXPECT_EQ(field_error(b), prefix() + "nonzero padding after the last base");
}

TEST_F(AgiCorrupt, HashListsAndOccurrences) {
  const AgiLayout at(bytes_);
  ASSERT_GE(at.key_count, 3u);
  const auto with = [&](size_t off, auto v) {
    std::string b = bytes_;
    put(b, off, v);
    return field_error(b);
  };
  const auto key = [&](uint64_t i) { return get<uint32_t>(bytes_, at.key(i)); };
  const auto val = [&](uint64_t i) { return get<uint64_t>(bytes_, at.val(i)); };
  EXPECT_EQ(with(at.key(1), key(0)), prefix() + "hash 1 is out of order");
  EXPECT_EQ(with(at.key(at.key_count - 1), uint32_t{1} << 10),
            prefix() + "hash " + std::to_string(at.key_count - 1) + " has more than 2k bits");

  // A hash that occurs once (its value is the occurrence) and the last one with a list
  // (so that changing its length moves no other list).
  uint64_t one = at.key_count, many = at.key_count, before_many = 0;
  for (uint64_t i = 0; i < at.key_count; ++i) ((val(i) & kListFlag) ? many : one) = i;
  for (uint64_t i = 0; i < many; ++i)
    if (val(i) & kListFlag) before_many += val(i) & ~kListFlag;
  ASSERT_LT(one, at.key_count);
  ASSERT_LT(many, at.key_count);
  const std::string hash_one = "hash " + std::to_string(one), hash_many = "hash " + std::to_string(many);
  const uint64_t n_many = val(many) & ~kListFlag;
  EXPECT_EQ(with(at.val(many), kListFlag | 1), prefix() + hash_many + " has a list of 1 occurrences");
  EXPECT_EQ(with(at.val(many), kListFlag), prefix() + hash_many + " has a list of 0 occurrences");
  EXPECT_EQ(with(at.val(many), kListFlag | (at.listed_count + 1)),
            prefix() + hash_many + " has a list of " + std::to_string(at.listed_count + 1) + " occurrences (" +
                std::to_string(at.listed_count - before_many) + " left)");
  EXPECT_EQ(with(at.val(many), kListFlag | (n_many - 1)),
            prefix() + "the lists hold " + std::to_string(at.listed_count - 1) + " of the " +
                std::to_string(at.listed_count) + " listed occurrences");

  // Occurrences: y = rid << 32 | pos << 1 | strand, checked against the sequence table,
  // whether a hash's only one or one in a list.
  const uint64_t y = val(one), strand = y & 1, pos_bits = y & 0xfffffffe;
  const std::string the_one = "the occurrence of " + hash_one;
  EXPECT_EQ(with(at.val(one), uint64_t{3} << 32 | pos_bits | strand), prefix() + the_one + " names sequence 3 of 3");
  EXPECT_EQ(with(at.val(one), uint64_t{0x7fffffff} << 32 | pos_bits),
            prefix() + the_one + " names sequence 2147483647 of 3");
  EXPECT_EQ(with(at.val(one), uint64_t{2} << 32 | strand),  // the empty sequence
            prefix() + the_one + " is at position 0 of sequence 'empty' (0 bases, k = 5)");
  EXPECT_EQ(with(at.val(one), uint64_t{1} << 32 | 17 << 1),
            prefix() + the_one + " is at position 17 of sequence 's2' (17 bases, k = 5)");
  EXPECT_EQ(with(at.val(one), uint64_t{1} << 32 | 0x7fffffffu << 1 | 1),
            prefix() + the_one + " is at position 2147483647 of sequence 's2' (17 bases, k = 5)");
  EXPECT_EQ(with(at.val(one), uint64_t{1} << 32 | 3 << 1),  // before the end of the first 5-mer
            prefix() + the_one + " is at position 3 of sequence 's2' (17 bases, k = 5)");
  EXPECT_EQ(with(at.val(one), uint64_t{1} << 32 | 4 << 1), "");  // the first 5-mer's end: fine
  // The first list in the file belongs to the first hash with one.
  uint64_t first_list = 0;
  while ((val(first_list) & kListFlag) == 0) ++first_list;
  const std::string in_list = "occurrence 1 of hash " + std::to_string(first_list);
  EXPECT_EQ(with(at.listed_y(1), uint64_t{3} << 32), prefix() + in_list + " names sequence 3 of 3");
  EXPECT_EQ(with(at.listed_y(1), uint64_t{0} << 32 | 2 << 1),
            prefix() + in_list + " is at position 2 of sequence 's1' (43 bases, k = 5)");

  // Each list ascending by y: swap the ends of a list with two different occurrences.
  for (uint64_t i = 0, st = 0; i < at.key_count; ++i) {
    if ((val(i) & kListFlag) == 0) continue;
    const uint64_t en = st + (val(i) & ~kListFlag);
    const uint64_t ys = get<uint64_t>(bytes_, at.listed_y(st)), ye = get<uint64_t>(bytes_, at.listed_y(en - 1));
    if (ys != ye) {
      std::string b = bytes_;
      put(b, at.listed_y(st), ye);
      put(b, at.listed_y(en - 1), ys);
      EXPECT_EQ(field_error(b), prefix() + "occurrence 1 is out of order in the list of hash " + std::to_string(i));
      break;
    }
    st = en;
  }
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define AGATHA_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define AGATHA_TEST_SANITIZED 1
#endif
#endif
#ifndef AGATHA_TEST_SANITIZED
#define AGATHA_TEST_SANITIZED 0
#endif

#if !AGATHA_TEST_SANITIZED
// In a child process (a death test): limits the address space to what is in use plus
// 1 GiB, then loads `path`; the InputError's message, or "" for none (a bad_alloc
// included).
std::string load_error_under_1gib_more(const std::string& path) {
  long pages = 0;
  std::ifstream("/proc/self/statm") >> pages;
  const auto limit = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE)) + (rlim_t{1} << 30);
  const rlimit lim{limit, limit};
  if (::setrlimit(RLIMIT_AS, &lim) != 0) return "setrlimit failed";
  try {
    std::vector<uint64_t> two_gib(size_t{1} << 28);
    return "the limit is not in force";
  } catch (const std::bad_alloc&) {
  }
  try {
    MinimizerIndex::load(path);
  } catch (const InputError& e) {
    return e.what();
  } catch (...) {
  }
  return "";
}
#endif

// A random reference of 20 kb at k = 16: an index file of about 55 kB, whose header
// asks for 2^30 or 2^31 buckets (8 or 16 GiB of table). The load must refuse it, within
// an address-space limit far below that.
TEST_F(AgiCorrupt, HugeBucketTableIsRefusedWithoutAllocating) {
  std::string seq;
  uint64_t x = 12345;
  for (int i = 0; i < 20000; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    seq += "ACGT"[x >> 62];
  }
  AlignOptions opt;
  opt.k = 16, opt.w = 10;
  io::save_index(MinimizerIndex::build({{"r", seq}}, opt), good_);
  const std::string image = test::read_file(good_);
  EXPECT_GT(image.size(), 40000u);
  EXPECT_LT(image.size(), 80000u);
  for (uint32_t bits : {30u, 31u}) {
    std::string b = image;
    put(b, AgiLayout::kBucketBits, bits);
    test::write_file(bad_, sealed(b));
    const std::string want = prefix() + "bucket bits " + std::to_string(bits) + " exceed 24 (the most for k = 16)";
    EXPECT_EQ(error_of([&] { MinimizerIndex::load(bad_); }), want);
#if AGATHA_TEST_SANITIZED
    // Sanitizers reserve terabytes of address space: no limit can be set under them.
#else
    EXPECT_EXIT(std::_Exit(load_error_under_1gib_more(bad_) == want ? 0 : 1), ::testing::ExitedWithCode(0), "");
#endif
  }
  // In range, it loads; the table it builds follows the keys present, not 2^24.
  std::string b = image;
  put(b, AgiLayout::kBucketBits, 24u);
  EXPECT_EQ(field_error(b), "");
}

}  // namespace
}  // namespace agatha::index
