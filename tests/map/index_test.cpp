// The minimizer index: lists sorted by y with duplicates kept, reference storage, .agi
// round trip, and clear errors for wrong, truncated or foreign files.
#include "../../src/index/index.hpp"
#include "../../src/index/sketch.hpp"

#include <agatha/error.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>

#include "../test_support.hpp"

namespace agatha::index {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("agatha_idx_" + std::to_string(::getpid()) + "_" + name)).string();
}

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

TEST(Reference, StoresCodesAndNames) {
  const auto idx = small_index();
  const Reference& ref = idx.reference();
  ASSERT_EQ(ref.size(), 3u);
  EXPECT_EQ(ref.seq(1).name, "s2");
  EXPECT_EQ(ref.seq(1).len, 17u);
  EXPECT_EQ(ref.seq(2).len, 0u);  // empty reference sequences are kept (minimap2 prints LN:0)
  EXPECT_EQ(ref.find("s2"), 1);
  EXPECT_EQ(ref.find("nope"), -1);
  std::vector<uint8_t> codes(6);
  ref.fetch(0, 24, 30, codes.data());  // CA + NNNN
  EXPECT_EQ(codes, (std::vector<uint8_t>{1, 0, 4, 4, 4, 4}));
  EXPECT_EQ(ref.base(1, 0), 0);
  EXPECT_EQ(ref.base(1, 16), 3);
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
  const auto empty = temp_path("empty.fa");
  std::ofstream(empty) << "";
  EXPECT_EQ(error_of([&] { MinimizerIndex::build(empty, opt); }), "'" + empty + "': no sequences");
  std::filesystem::remove(empty);
}

TEST(Agi, RoundTripKeepsEverything) {
  AlignOptions opt;
  opt.apply_preset("map-pb");
  const auto idx = MinimizerIndex::build(test::source_path("tests/data/seeds/rep.fa.gz"), opt);
  const auto path = temp_path("rep.agi");
  idx.save(path);
  const auto back = MinimizerIndex::load(path);
  std::filesystem::remove(path);
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

class AgiCorrupt : public ::testing::Test {
 protected:
  void SetUp() override {
    good_ = temp_path("good.agi");
    bad_ = temp_path("bad.agi");
    small_index().save(good_);
    std::ifstream in(good_, std::ios::binary);
    bytes_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  void TearDown() override {
    std::filesystem::remove(good_);
    std::filesystem::remove(bad_);
  }
  std::string load_error(const std::string& content) {
    std::ofstream(bad_, std::ios::binary) << content;
    return error_of([&] { MinimizerIndex::load(bad_); });
  }
  std::string prefix() const { return "'" + bad_ + "' is not a valid agatha index (.agi): "; }
  std::string good_, bad_;
  std::string bytes_;
};

TEST_F(AgiCorrupt, EveryDamageIsACleanError) {
  EXPECT_EQ(error_of([&] { MinimizerIndex::load(good_); }), "");
  EXPECT_EQ(load_error(">chr1\nACGT\n"), prefix() + "wrong magic number");
  EXPECT_EQ(load_error("AG"), prefix() + "file is too short");
  std::string v = bytes_;
  v[8] = 9;
  EXPECT_EQ(load_error(v), prefix() + "format version 9, expected 1");
  for (size_t cut : {size_t{12}, size_t{40}, bytes_.size() / 2, bytes_.size() - 9, bytes_.size() - 1}) {
    EXPECT_EQ(load_error(bytes_.substr(0, cut)), prefix() + "file is truncated") << cut;
  }
  EXPECT_EQ(load_error(bytes_ + "x"), prefix() + "trailing bytes after the end marker");
  std::string k = bytes_;
  k[12] = 40;  // k = 40
  EXPECT_EQ(load_error(k), prefix() + "bad parameters in the header");
  EXPECT_EQ(error_of([] { MinimizerIndex::load("/nonexistent.agi"); }),
            "cannot open '/nonexistent.agi': No such file or directory");
}

}  // namespace
}  // namespace agatha::index
