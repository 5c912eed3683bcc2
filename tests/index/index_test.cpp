// The minimizer index: lists sorted by y with duplicates kept, reference storage, .agi
// round trip, and clear errors for wrong, truncated, damaged, foreign or inconsistent
// files (every field the loader must check, each with a correct checksum so that the
// field check itself is what fires).
#include "../../src/index/index.hpp"
#include "../../src/index/sketch.hpp"
#include "../../src/io/index_file.hpp"

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

#include "support/files.hpp"
#include "support/paths.hpp"

namespace agatha::index {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

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
// found by walking the bytes independently of the loader.
struct AgiLayout {
  static constexpr size_t kVersion = 8, kK = 12, kW = 16, kFlags = 20, kBucketBits = 24, kNSeq = 28;
  std::vector<size_t> name_len, seq_len;  // each sequence's u32 fields
  size_t n_packed = 0, n_keys = 0, keys = 0, starts = 0, n_ys = 0, ys = 0;
  uint64_t key_count = 0, y_count = 0;

  explicit AgiLayout(const std::string& b) {
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
    starts = keys + 8 * key_count;
    n_ys = starts + 8 * (key_count + 1);
    y_count = get<uint64_t>(b, n_ys);
    ys = n_ys + 8;
    EXPECT_EQ(ys + 8 * y_count + kTrailer, b.size());
  }
  size_t packed() const { return n_packed + 8; }
  size_t key(uint64_t i) const { return keys + 8 * i; }
  size_t start(uint64_t i) const { return starts + 8 * i; }
  size_t y(uint64_t j) const { return ys + 8 * j; }
};

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
  EXPECT_EQ(get<uint32_t>(bytes_, AgiLayout::kVersion), 2u);
  EXPECT_EQ(sealed(bytes_), bytes_);
  EXPECT_EQ(bytes_.substr(bytes_.size() - 8), std::string("AGIXEND\0", 8));
  const AgiLayout at(bytes_);
  EXPECT_EQ(at.name_len.size(), 3u);
  EXPECT_EQ(at.y_count, small_index().total_occurrences());
}

TEST_F(AgiCorrupt, ForeignShortAndOldFiles) {
  EXPECT_EQ(load_error(">chr1\nACGT\n"), prefix() + "bad magic (not an agatha index)");
  EXPECT_EQ(load_error("AGATHAIY" + bytes_.substr(8)), prefix() + "bad magic (not an agatha index)");
  for (const std::string tiny : {"", "A", "AG", "AGAT", "AGATHAI"})
    EXPECT_EQ(load_error(tiny),
              prefix() + "file is too short (" + std::to_string(tiny.size()) + " bytes) to be an agatha index");
  std::string v = bytes_;
  put<uint32_t>(v, AgiLayout::kVersion, 1);
  EXPECT_EQ(load_error(v), prefix() +
                               "format version 1 is out of date (this agatha reads version 2): "
                               "rebuild the index with `agatha index`");
  put<uint32_t>(v, AgiLayout::kVersion, 9);
  EXPECT_EQ(load_error(v), prefix() + "unknown format version 9 (this agatha reads version 2)");
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
  EXPECT_EQ(with(at.n_ys, at.y_count + 1),
            prefix() + std::to_string(at.y_count + 1) + " occurrences run past the end of the index data");
  EXPECT_EQ(with(at.n_ys, ~uint64_t{0}),
            prefix() + "18446744073709551615 occurrences run past the end of the index data");
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
  const auto with = [&](size_t off, uint64_t v) {
    std::string b = bytes_;
    put(b, off, v);
    return field_error(b);
  };
  EXPECT_EQ(with(at.key(1), get<uint64_t>(bytes_, at.key(0))), prefix() + "hash 1 is out of order");
  EXPECT_EQ(with(at.key(at.key_count - 1), uint64_t{1} << 10),
            prefix() + "hash " + std::to_string(at.key_count - 1) + " has more than 2k bits");
  EXPECT_EQ(with(at.start(0), 1), prefix() + "the first occurrence list starts at 1");
  EXPECT_EQ(with(at.start(at.key_count), at.y_count - 1), prefix() + "the occurrence lists end at " +
                                                              std::to_string(at.y_count - 1) + " but there are " +
                                                              std::to_string(at.y_count) + " occurrences");
  EXPECT_EQ(with(at.start(1), 0), prefix() + "hash 0 has a list of 0 occurrences");

  // Occurrences: y = rid << 32 | pos << 1 | strand, checked against the sequence table.
  const auto y_of = [&](uint64_t j) { return get<uint64_t>(bytes_, at.y(j)); };
  const uint64_t j = at.y_count / 2;
  const uint64_t strand = y_of(j) & 1, pos_bits = y_of(j) & 0xfffffffe;
  EXPECT_EQ(with(at.y(j), uint64_t{3} << 32 | pos_bits | strand),
            prefix() + "occurrence " + std::to_string(j) + " names sequence 3 of 3");
  EXPECT_EQ(with(at.y(j), uint64_t{0xffffffff} << 32 | pos_bits),
            prefix() + "occurrence " + std::to_string(j) + " names sequence 4294967295 of 3");
  EXPECT_EQ(with(at.y(j), uint64_t{2} << 32 | strand),  // the empty sequence
            prefix() + "occurrence " + std::to_string(j) + " is at position 0 of sequence 'empty' (0 bases, k = 5)");
  EXPECT_EQ(with(at.y(j), uint64_t{1} << 32 | 17 << 1),
            prefix() + "occurrence " + std::to_string(j) + " is at position 17 of sequence 's2' (17 bases, k = 5)");
  EXPECT_EQ(
      with(at.y(j), uint64_t{1} << 32 | 0x7fffffffu << 1 | 1),
      prefix() + "occurrence " + std::to_string(j) + " is at position 2147483647 of sequence 's2' (17 bases, k = 5)");
  EXPECT_EQ(with(at.y(j), uint64_t{1} << 32 | 3 << 1),  // before the end of the first 5-mer
            prefix() + "occurrence " + std::to_string(j) + " is at position 3 of sequence 's2' (17 bases, k = 5)");
  EXPECT_EQ(with(at.y(j), uint64_t{1} << 32 | 4 << 1), "");  // the first 5-mer's end: fine

  // Each list ascending by y: swap the ends of a list with two different occurrences.
  for (uint64_t i = 0; i < at.key_count; ++i) {
    const uint64_t st = get<uint64_t>(bytes_, at.start(i)), en = get<uint64_t>(bytes_, at.start(i + 1));
    if (y_of(st) == y_of(en - 1)) continue;
    std::string b = bytes_;
    put(b, at.y(st), y_of(en - 1));
    put(b, at.y(en - 1), y_of(st));
    EXPECT_EQ(field_error(b), prefix() + "occurrence " + std::to_string(st + 1) +
                                  " is out of order in the list of hash " + std::to_string(i));
    break;
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

// A random reference of 20 kb at k = 16: an index file of about 80 kB, whose header
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
  EXPECT_GT(image.size(), 60000u);
  EXPECT_LT(image.size(), 120000u);
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
