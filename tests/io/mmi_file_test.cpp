// minimap2's .mmi index files read as agatha's index: the indexes minimap2 2.24 wrote
// for tests/data/mmi/small.fa (see tests/data/README.md) load into the same index agatha
// builds from the FASTA with the file's k, w and HPC — same sequences, same bases, same
// occurrence lists for every minimizer — and every kind of bad file is an InputError
// that names the file and the problem: another magic or version, every truncation, each
// header field and table entry the reader must check, trailing data, a multi-part index.
#include "../../src/index/index.hpp"
#include "../../src/index/sketch.hpp"
#include "../../src/io/index_file.hpp"
#include "../../src/io/mmi_file.hpp"
#include "../../src/io/seq_reader.hpp"

#include <agatha/error.hpp>

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/errors.hpp"
#include "support/files.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace agatha::io {
namespace {

namespace fs = std::filesystem;
using index::MinimizerIndex;

const std::string kFasta = "tests/data/mmi/small.fa";
// minimap2 --bucket-bits 6 -k 5 -w 3 [-H] -d: 64 buckets, several keys in each.
const std::string kPlain = "tests/data/mmi/small.k5w3.mmi";
const std::string kHpc = "tests/data/mmi/small.k5w3H.mmi";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string error_of(const std::function<void()>& f) { return test::error_of<InputError>(f); }

// Integers in an .mmi image (little-endian, the host order).
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

// Where each field of an .mmi image lies, found by walking the bytes as minimap2's
// mm_idx_dump lays them out, independently of the reader.
struct MmiLayout {
  static constexpr size_t kW = 4, kK = 8, kB = 12, kNSeq = 16, kFlag = 20, kSeqTable = 24;
  struct Bucket {
    size_t n_occ_at, n_keys_at;
    uint32_t n_occ, n_keys;
    size_t occ_at() const { return n_occ_at + 4; }
    size_t key_at(uint32_t j) const { return n_keys_at + 4 + 16 * size_t{j}; }
    size_t value_at(uint32_t j) const { return key_at(j) + 8; }
  };
  std::vector<size_t> name_len_at, seq_len_at;
  std::vector<Bucket> buckets;
  size_t bases_at = 0, end = 0;

  explicit MmiLayout(const std::string& b) {
    const uint32_t n_seq = get<uint32_t>(b, kNSeq), bits = get<uint32_t>(b, kB);
    size_t at = kSeqTable;
    uint64_t total = 0;
    for (uint32_t i = 0; i < n_seq; ++i) {
      name_len_at.push_back(at);
      at += 1 + static_cast<uint8_t>(b[at]);
      seq_len_at.push_back(at);
      total += get<uint32_t>(b, at);
      at += 4;
    }
    for (uint64_t i = 0; i < (uint64_t{1} << bits); ++i) {
      Bucket k{};
      k.n_occ_at = at, k.n_occ = get<uint32_t>(b, at);
      at += 4 + 8 * size_t{k.n_occ};
      k.n_keys_at = at, k.n_keys = get<uint32_t>(b, at);
      at += 4 + 16 * size_t{k.n_keys};
      buckets.push_back(k);
    }
    bases_at = at;
    end = at + (total + 7) / 8 * 4;
  }

  // The first bucket for which pred(bucket) holds; fails the test if none does.
  const Bucket& find(const std::function<bool(const Bucket&)>& pred) const {
    for (const Bucket& k : buckets)
      if (pred(k)) return k;
    ADD_FAILURE() << "no bucket of the fixture has the shape the test needs";
    return buckets.front();
  }
};

// Images altered by the tests go to an in-memory file (memfd), named
// /proc/self/fd/N: thousands of them are loaded, and a disk file would take most of the
// time.
class Mmi : public ::testing::Test {
 protected:
  void SetUp() override {
    good_ = slurp(test::source_path(kPlain));
    ASSERT_GT(good_.size(), 1000u) << kPlain;
    fd_ = ::memfd_create("agatha-mmi-test", 0);
    ASSERT_GE(fd_, 0);
    bad_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  void TearDown() override { ::close(fd_); }

  // Makes the image the content of bad_.
  void write(const std::string& image) const {
    ASSERT_EQ(::ftruncate(fd_, 0), 0);
    ASSERT_EQ(::pwrite(fd_, image.data(), image.size(), 0), static_cast<ssize_t>(image.size()));
  }

  // What loading the image gives: "" when it loads, else the message after the prefix
  // naming the file (or the whole message if it lacks the prefix).
  std::string load_error(const std::string& image) const {
    write(image);
    const std::string e = error_of([&] { (void)load_mmi(bad_); });
    const std::string prefix = "'" + bad_ + "' is not a valid minimap2 index (.mmi): ";
    return e.starts_with(prefix) ? e.substr(prefix.size()) : e;
  }

  std::string good_, bad_;
  int fd_ = -1;
};

// The sequences of small.fa, as agatha's reader gives them.
std::vector<std::pair<std::string, std::string>> fasta_records() {
  SeqReader reader(test::source_path(kFasta));
  std::vector<std::pair<std::string, std::string>> seqs;
  SeqRecord rec;
  while (reader.next(rec)) seqs.emplace_back(rec.name, rec.seq);
  return seqs;
}

// Everything mapping reads from an index: parameters, sequences, bases, and the
// occurrence list of every minimizer of the reference.
void expect_same_index(const MinimizerIndex& want, const MinimizerIndex& got,
                       const std::vector<std::pair<std::string, std::string>>& seqs) {
  EXPECT_EQ(got.k(), want.k());
  EXPECT_EQ(got.w(), want.w());
  EXPECT_EQ(got.hpc(), want.hpc());
  ASSERT_EQ(got.reference().size(), want.reference().size());
  for (uint32_t i = 0; i < want.reference().size(); ++i) {
    EXPECT_EQ(got.reference().seq(i).name, want.reference().seq(i).name) << i;
    EXPECT_EQ(got.reference().seq(i).len, want.reference().seq(i).len) << i;
  }
  EXPECT_EQ(got.reference().packed(), want.reference().packed());
  EXPECT_EQ(got.distinct_hashes(), want.distinct_hashes());
  EXPECT_EQ(got.total_occurrences(), want.total_occurrences());
  EXPECT_EQ(got.occurrence_counts(), want.occurrence_counts());
  std::vector<index::Minimizer> mins;
  for (size_t i = 0; i < seqs.size(); ++i)
    index::sketch(seqs[i].second, want.w(), want.k(), static_cast<uint32_t>(i), want.hpc(), mins);
  ASSERT_FALSE(mins.empty());
  size_t found = 0;
  for (const index::Minimizer& m : mins) {
    const auto a = want.lookup(m.x >> 8), b = got.lookup(m.x >> 8);
    EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end())) << "hash " << (m.x >> 8);
    found += !b.empty();
  }
  EXPECT_EQ(found, mins.size()) << "every minimizer of the reference is in the index";
}

TEST(MmiLoad, Minimap2sIndexesEqualAgathasOwn) {
  const auto seqs = fasta_records();
  ASSERT_EQ(seqs.size(), 4u);
  for (const auto& [file, hpc] : {std::pair{kPlain, false}, std::pair{kHpc, true}}) {
    SCOPED_TRACE(file);
    AlignOptions opt;
    opt.k = 5, opt.w = 3, opt.hpc = hpc;
    const MinimizerIndex want = MinimizerIndex::build(seqs, opt);
    const MinimizerIndex got = load_mmi(test::source_path(file));
    expect_same_index(want, got, seqs);
    // The name stops at the first blank (chrB's description is not part of it); the
    // empty sequence is kept.
    EXPECT_EQ(got.reference().seq(1).name, "chrB");
    EXPECT_EQ(got.reference().seq(2).len, 0u);
    EXPECT_EQ(got.reference().total_length() % 2, 1u) << "the fixture's bases end in a padding nibble";
  }
}

// An index minimap2 builds now, with its default 14 bucket bits (hashes split over 16384
// buckets) and a preset's k, w and HPC, for a reference of several sequences.
TEST(MmiLoad, IndexBuiltByMinimap2NowEqualsAgathasOwn) {
  if (std::system("command -v minimap2 > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "minimap2 is not installed: no .mmi built at test time";
  const std::string fa = test::source_path("tests/data/seeds/rep.fa.gz");
  const std::string mmi =
      (fs::temp_directory_path() / ("agatha_mmi_now_" + std::to_string(::getpid()) + ".mmi")).string();
  for (const char* preset : {"map-pb", "map-hifi"}) {
    SCOPED_TRACE(preset);
    const std::string cmd = std::string("minimap2 -x ") + preset + " -d '" + mmi + "' '" + fa + "' 2> /dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    AlignOptions opt;
    opt.apply_preset(preset);
    SeqReader reader(fa);
    std::vector<std::pair<std::string, std::string>> seqs;
    SeqRecord rec;
    while (reader.next(rec)) seqs.emplace_back(rec.name, rec.seq);
    ASSERT_GT(seqs.size(), 1u);
    const MinimizerIndex want = build_index_from_file(fa, opt);
    const MinimizerIndex got = load_mmi(mmi);
    expect_same_index(want, got, seqs);
    EXPECT_EQ(index::resolve_mid_occ(got, opt), index::resolve_mid_occ(want, opt));
  }
  fs::remove(mmi);
}

// Told by the magic whatever the name; loaded with its own k, w and HPC, not the options'.
TEST(MmiLoad, FoundByMagicAndNameWithTheFilesParameters) {
  const std::string dir = (fs::temp_directory_path() / ("agatha_mmi_dir_" + std::to_string(::getpid()))).string();
  fs::create_directories(dir);
  const std::string renamed = dir + "/index.bin", fasta_named = dir + "/ref.fa";
  fs::copy_file(test::source_path(kHpc), renamed);
  fs::copy_file(test::source_path(kHpc), fasta_named);
  EXPECT_TRUE(has_mmi_magic(test::source_path(kHpc)));
  EXPECT_TRUE(has_mmi_magic(renamed));
  EXPECT_FALSE(has_mmi_magic(test::source_path(kFasta)));
  EXPECT_FALSE(has_mmi_magic(dir + "/missing.mmi"));
  AlignOptions opt;  // map-ont: k 15, w 10, no HPC
  for (const std::string& path : {renamed, fasta_named}) {
    const MinimizerIndex idx = load_or_build_index(path, opt);
    EXPECT_EQ(idx.k(), 5) << path;
    EXPECT_EQ(idx.w(), 3) << path;
    EXPECT_TRUE(idx.hpc()) << path;
  }
  // Named *.mmi but not one: the .mmi reader's error, not the FASTA reader's.
  const std::string text = dir + "/text.mmi";
  std::ofstream(text) << ">a\nACGT\n";
  EXPECT_EQ(error_of([&] { (void)load_or_build_index(text, opt); }),
            "'" + text + "' is not a valid minimap2 index (.mmi): bad magic (not a minimap2 index)");
  // An .agi named *.mmi is still an .agi.
  const std::string agi = dir + "/agi.mmi";
  save_index(MinimizerIndex::build(fasta_records(), opt), agi);
  EXPECT_EQ(load_or_build_index(agi, opt).k(), 15);
  fs::remove_all(dir);
}

TEST(MmiFromOccurrences, GroupsAndSortsAnyOrder) {
  const std::vector<std::pair<std::string, std::string>> seqs = {{"a", std::string(100, 'A')}};
  index::Reference ref;
  ref.add("a", seqs[0].second);
  // Hashes out of order and each list's occurrences reversed.
  std::vector<std::pair<uint64_t, uint64_t>> hits = {{9, 40}, {3, 30}, {9, 20}, {3, 10}, {9, 12}, {1, 50}};
  // Bucket bits beyond 2k and 24 are limited, not taken: lookups still find every hash.
  const MinimizerIndex idx = MinimizerIndex::from_occurrences(5, 3, false, 40, std::move(ref), hits);
  EXPECT_EQ(idx.distinct_hashes(), 3u);
  EXPECT_EQ(idx.total_occurrences(), 6u);
  EXPECT_EQ(idx.occurrence_counts(), (std::vector<uint32_t>{1, 2, 3}));
  const auto nine = idx.lookup(9);
  EXPECT_EQ(std::vector<uint64_t>(nine.begin(), nine.end()), (std::vector<uint64_t>{12, 20, 40}));
  const auto three = idx.lookup(3);
  EXPECT_EQ(std::vector<uint64_t>(three.begin(), three.end()), (std::vector<uint64_t>{10, 30}));
  EXPECT_TRUE(idx.lookup(2).empty());
  EXPECT_EQ(idx.reference().seq(0).len, 100u);
}

// ---- bad files ----

TEST_F(Mmi, ForeignShortAndOtherVersions) {
  EXPECT_EQ(load_error(""), "file is too short (0 bytes) to be a minimap2 index");
  EXPECT_EQ(load_error("MMI"), "file is too short (3 bytes) to be a minimap2 index");
  std::string b = good_;
  b[0] = 'X';
  EXPECT_EQ(load_error(b), "bad magic (not a minimap2 index)");
  b = good_;
  b[3] = '\1';
  EXPECT_EQ(load_error(b),
            "another format version (magic \"MMI\\1\"; minimap2 2.24 writes \"MMI\\2\"): rebuild it with minimap2 "
            "2.24's -d, or give the FASTA");
  EXPECT_EQ(load_error(slurp(test::source_path(kFasta))), "bad magic (not a minimap2 index)");
  EXPECT_EQ(error_of([] { (void)load_mmi("/nonexistent/x.mmi"); }),
            "cannot open '/nonexistent/x.mmi': No such file or directory");
}

TEST_F(Mmi, TheFixtureLoads) { EXPECT_EQ(load_error(good_), ""); }

// Every cut short file is refused as truncated, wherever the cut falls.
TEST_F(Mmi, EveryTruncationIsAnError) {
  const MmiLayout layout(good_);
  ASSERT_EQ(layout.end, good_.size()) << "the walk of the fixture covers the file";
  for (size_t n = 4; n < good_.size(); ++n) {
    const std::string e = load_error(good_.substr(0, n));
    ASSERT_TRUE(e.starts_with("file is truncated (")) << "cut at " << n << ": " << e;
  }
}

TEST_F(Mmi, HeaderFields) {
  const std::vector<std::tuple<size_t, uint32_t, std::string>> cases = {
      {MmiLayout::kK, 0, "k = 0 is outside 1-28"},
      {MmiLayout::kK, 29, "k = 29 is outside 1-28"},
      {MmiLayout::kW, 0, "w = 0 is outside 1-255"},
      {MmiLayout::kW, 256, "w = 256 is outside 1-255"},
      {MmiLayout::kB, 11, "11 bucket bits exceed 2k = 10"},
      {MmiLayout::kFlag, 8, "unknown flags 8"},
      {MmiLayout::kFlag, 2,
       "it holds no reference bases (built with --idx-no-seq), and alignment needs them: rebuild it without "
       "--idx-no-seq"},
      {MmiLayout::kFlag, 4, "it holds no sequence names"},
      {MmiLayout::kNSeq, 0, "no sequences"},
      {MmiLayout::kNSeq, 0xffffffffu, "file is truncated (4294967295 sequences run past its end)"},
  };
  for (const auto& [at, value, want] : cases) {
    std::string b = good_;
    put<uint32_t>(b, at, value);
    EXPECT_EQ(load_error(b), want) << "field at " << at << " = " << value;
  }
  // A wrong bucket-bit count in range walks the buckets wrongly: some later check fires.
  for (uint32_t bits : {0u, 9u}) {
    std::string b = good_;
    put<uint32_t>(b, MmiLayout::kB, bits);
    EXPECT_NE(load_error(b), "") << bits << " bucket bits";
  }
}

TEST_F(Mmi, SequenceTable) {
  const MmiLayout layout(good_);
  ASSERT_EQ(layout.name_len_at.size(), 4u);
  std::string b = good_;
  // chrD renamed chrA: two sequences of one name.
  b[layout.name_len_at[3] + 4] = 'A';
  EXPECT_EQ(load_error(b), "duplicate reference sequence name 'chrA'");
  // A longer sequence than the bases stored: its bases run past the end.
  b = good_;
  put<uint32_t>(b, layout.seq_len_at[0], 1u << 30);
  EXPECT_TRUE(load_error(b).starts_with("file is truncated (the ")) << load_error(b);
  // A base code minimap2 never stores.
  b = good_;
  b[layout.bases_at + 3] = static_cast<char>(0x73);
  EXPECT_EQ(load_error(b), "base 7 of sequence 'chrA' has code 7 (codes are 0-4)");
}

// The nibbles after the last base are never read by minimap2 (mm_idx_getseq stops at the
// sequence's end): whatever they hold, the bases loaded are the same.
TEST_F(Mmi, PaddingAfterTheLastBaseIsIgnored) {
  const MmiLayout layout(good_);
  std::string b = good_;
  b[layout.end - 1] = static_cast<char>(0xff);
  b[layout.end - 2] = static_cast<char>(0xf0 | (b[layout.end - 2] & 0x0f));
  write(b);
  const MinimizerIndex padded = load_mmi(bad_);
  EXPECT_EQ(padded.reference().packed(), load_mmi(test::source_path(kPlain)).reference().packed());
}

TEST_F(Mmi, BucketsAndOccurrences) {
  const MmiLayout layout(good_);
  const uint32_t k = get<uint32_t>(good_, MmiLayout::kK);
  auto is_list = [&](const MmiLayout::Bucket& bk, uint32_t j) { return (get<uint64_t>(good_, bk.key_at(j)) & 1) == 0; };
  auto bucket_no = [&](const MmiLayout::Bucket& bk) { return std::to_string(&bk - layout.buckets.data()); };

  // Counts that do not fit the file.
  const auto& any = layout.find([](const auto& bk) { return bk.n_keys > 0; });
  std::string b = good_;
  put<uint32_t>(b, any.n_occ_at, 0x7fffffff);
  EXPECT_EQ(load_error(b),
            "file is truncated (2147483647 occurrences of bucket " + bucket_no(any) + " run past its end)");
  b = good_;
  put<uint32_t>(b, any.n_keys_at, 0xffffffff);
  EXPECT_EQ(load_error(b),
            "file is truncated (8589934590 key and value words of bucket " + bucket_no(any) + " run past its end)");

  // A key with more hash bits than 2k - b.
  b = good_;
  put<uint64_t>(b, any.key_at(0), ~uint64_t{0});
  EXPECT_EQ(load_error(b), "bucket " + bucket_no(any) + " has a key of a hash of more than 2k bits");

  // Two keys of one hash (two keys of hashes that occur once, the second given the
  // first's key).
  auto singletons = [&](const MmiLayout::Bucket& bk) {
    std::vector<uint32_t> js;
    for (uint32_t j = 0; j < bk.n_keys; ++j)
      if (!is_list(bk, j)) js.push_back(j);
    return js;
  };
  const auto& two = layout.find([&](const auto& bk) { return singletons(bk).size() >= 2; });
  const auto js = singletons(two);
  b = good_;
  put<uint64_t>(b, two.key_at(js[1]), get<uint64_t>(good_, two.key_at(js[0])));
  EXPECT_EQ(load_error(b), "bucket " + bucket_no(two) + " holds a key twice");

  // A singleton's occurrence: on a sequence that does not exist, past its sequence's
  // end, before the k-th base.
  const auto& single = layout.find([&](const auto& bk) {
    for (uint32_t j = 0; j < bk.n_keys; ++j)
      if (!is_list(bk, j)) return true;
    return false;
  });
  uint32_t sj = 0;
  while (is_list(single, sj)) ++sj;
  const std::string at_single = "bucket " + bucket_no(single) + " has an occurrence ";
  b = good_;
  put<uint64_t>(b, single.value_at(sj), uint64_t{4} << 32 | 20);
  EXPECT_EQ(load_error(b), at_single + "on sequence 4 of 4");
  b = good_;
  put<uint64_t>(b, single.value_at(sj), uint64_t{1} << 32 | 500u << 1);
  EXPECT_EQ(load_error(b), at_single + "at position 500 of sequence 'chrB' (230 bases, k = 5)");
  b = good_;
  put<uint64_t>(b, single.value_at(sj), uint64_t{0} << 32 | (k - 2) << 1);
  EXPECT_EQ(load_error(b), at_single + "at position 3 of sequence 'chrA' (386 bases, k = 5)");
  b = good_;
  put<uint64_t>(b, single.value_at(sj), uint64_t{2} << 32);
  EXPECT_EQ(load_error(b), at_single + "at position 0 of sequence 'empty' (0 bases, k = 5)");

  // A list: empty, outside the bucket's occurrences, leaving one out, out of order.
  const auto& list = layout.find([&](const auto& bk) {
    for (uint32_t j = 0; j < bk.n_keys; ++j)
      if (is_list(bk, j) &&
          get<uint64_t>(good_, bk.occ_at() + 8 * (get<uint64_t>(good_, bk.value_at(j)) >> 32)) !=
              get<uint64_t>(good_, bk.occ_at() + 8 * ((get<uint64_t>(good_, bk.value_at(j)) >> 32) + 1)))
        return true;
    return false;
  });
  uint32_t lj = 0;
  while (!is_list(list, lj)) ++lj;
  const uint64_t value = get<uint64_t>(good_, list.value_at(lj));
  const uint64_t start = value >> 32, count = static_cast<uint32_t>(value);
  ASSERT_GE(count, 2u);
  const std::string at_list = "bucket " + bucket_no(list);
  b = good_;
  put<uint64_t>(b, list.value_at(lj), start << 32);
  EXPECT_EQ(load_error(b), at_list + " has a key of 0 occurrences from " + std::to_string(start) + ", outside its " +
                               std::to_string(list.n_occ) + " occurrences");
  b = good_;
  put<uint64_t>(b, list.value_at(lj), (start + 1) << 32 | (list.n_occ - start));
  EXPECT_EQ(load_error(b), at_list + " has a key of " + std::to_string(list.n_occ - start) + " occurrences from " +
                               std::to_string(start + 1) + ", outside its " + std::to_string(list.n_occ) +
                               " occurrences");
  b = good_;
  put<uint64_t>(b, list.value_at(lj), start << 32 | (count - 1));
  EXPECT_EQ(load_error(b), at_list + ": the occurrence lists of its keys overlap or leave occurrences out");
  b = good_;
  const size_t first = list.occ_at() + 8 * start;
  put<uint64_t>(b, first, get<uint64_t>(good_, first + 8));
  put<uint64_t>(b, first + 8, get<uint64_t>(good_, first));
  EXPECT_EQ(load_error(b), at_list + " has a list of occurrences out of order");
  // A list's occurrence checked as a singleton's is.
  b = good_;
  put<uint64_t>(b, first, uint64_t{7} << 32);
  EXPECT_EQ(load_error(b), at_list + " has an occurrence on sequence 7 of 4");
}

TEST_F(Mmi, TrailingDataAndMultiPartIndexes) {
  EXPECT_EQ(load_error(good_ + "xyz"), "3 bytes of unknown data after the index");
  EXPECT_EQ(load_error(good_ + "MMI"), "3 bytes of unknown data after the index");
  EXPECT_EQ(load_error(good_ + slurp(test::source_path(kHpc))),
            "it is a multi-part index (minimap2 -d with -I below the reference's size writes one part after "
            "another): map against it part by part (agatha align), or rebuild it with a larger -I");
}

// A multi-part index read part by part (MmiParts): each part as load_mmi reads it alone;
// data after a part that is not another part is an error.
TEST_F(Mmi, MultiPartIndexesAreReadPartByPart) {
  const std::string hpc = slurp(test::source_path(kHpc));
  write(good_ + hpc);
  MmiParts parts(bad_);
  std::optional<MinimizerIndex> first = parts.next();
  ASSERT_TRUE(first);
  EXPECT_FALSE(parts.at_end());
  EXPECT_FALSE(parts.at_end());  // asking again reads nothing more
  std::optional<MinimizerIndex> second = parts.next();
  ASSERT_TRUE(second);
  EXPECT_TRUE(parts.at_end());
  EXPECT_FALSE(parts.next());
  EXPECT_EQ(parts.parts_read(), 2u);
  const MinimizerIndex plain = load_mmi(test::source_path(kPlain)), hpc_alone = load_mmi(test::source_path(kHpc));
  for (const auto& [got, want] : {std::pair{&*first, &plain}, std::pair{&*second, &hpc_alone}}) {
    EXPECT_EQ(got->k(), want->k());
    EXPECT_EQ(got->hpc(), want->hpc());
    EXPECT_EQ(got->reference().packed(), want->reference().packed());
    EXPECT_EQ(got->occurrence_counts(), want->occurrence_counts());
  }
  write(good_ + hpc + "xyz");
  MmiParts trailing(bad_);
  (void)trailing.next();
  (void)trailing.next();
  EXPECT_EQ(error_of([&] { (void)trailing.at_end(); }),
            "'" + bad_ + "' is not a valid minimap2 index (.mmi): 3 bytes of unknown data after the index");
}

// A flipped bit: the file loads (a changed base, a changed but valid occurrence) or is
// refused with an InputError; nothing else escapes, and an index that loads can be looked
// up and read through. Every bit of the first 1024 bytes (header, sequence table, the
// first buckets), one bit of every later byte.
TEST_F(Mmi, FlippedBitsLoadOrAreInputErrors) {
  int refused = 0, loaded = 0, tried = 0;
  for (size_t at = 0; at < good_.size(); ++at) {
    for (int bit = 0; bit < 8; ++bit) {
      if (at >= 1024 && bit != static_cast<int>(at % 8)) continue;
      ++tried;
      std::string b = good_;
      b[at] = static_cast<char>(b[at] ^ (1 << bit));
      write(b);
      try {
        const MinimizerIndex idx = load_mmi(bad_);
        for (uint64_t h : {0ull, 1ull, 0x3ffull, static_cast<uint64_t>(at) * 2654435761ull}) (void)idx.lookup(h);
        const index::Reference& ref = idx.reference();
        for (uint32_t i = 0; i < ref.size(); ++i) {
          std::vector<uint8_t> codes(ref.seq(i).len);
          if (!codes.empty()) ref.fetch(i, 0, ref.seq(i).len, codes.data());
        }
        ++loaded;
      } catch (const InputError& e) {
        ASSERT_TRUE(std::string(e.what()).starts_with("'" + bad_ + "' is not a valid minimap2 index (.mmi): "))
            << e.what();
        ++refused;
      }
    }
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(loaded, 0);
  EXPECT_EQ(refused + loaded, tried);
}

}  // namespace
}  // namespace agatha::io
