// Reference storage (src/index/reference.cpp): names, lengths, lookup by name and the
// packed bases of the sequences an index is built from.
#include "../../src/index/reference.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "../../src/index/index.hpp"

#include <agatha/nt4.hpp>

namespace agatha::index {
namespace {

TEST(Reference, StoresCodesAndNames) {
  AlignOptions opt;
  opt.k = 5, opt.w = 3;
  const std::string unit = "ACGTTGCATGGCA";
  const auto idx =
      MinimizerIndex::build({{"s1", unit + unit + "NNNN" + unit}, {"s2", "acgttgcatggcaTTTT"}, {"empty", ""}}, opt);
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

// fetch() of every range, odd and even ends, empty ones included, in sequences at odd
// and even offsets of the packed storage, against base() position by position.
TEST(Reference, FetchOfAnyRangeIsTheBasesOneByOne) {
  AlignOptions opt;
  opt.k = 5, opt.w = 3;
  std::mt19937 rng(3);
  std::vector<std::pair<std::string, std::string>> seqs;
  for (const int len : {1, 2, 37, 64, 101}) {
    std::string s;
    for (int i = 0; i < len; ++i) s += "ACGTN"[rng() % 5];
    seqs.push_back({"s" + std::to_string(len), s});
  }
  const auto idx = MinimizerIndex::build(seqs, opt);
  const Reference& ref = idx.reference();
  for (uint32_t rid = 0; rid < ref.size(); ++rid) {
    const uint32_t len = ref.seq(rid).len;
    for (uint32_t st = 0; st <= len; ++st)
      for (uint32_t en = st; en <= len; ++en) {
        std::vector<uint8_t> got(en - st + 1, 99);
        ref.fetch(rid, st, en, got.data());
        for (uint32_t i = st; i < en; ++i) ASSERT_EQ(got[i - st], ref.base(rid, i)) << rid << " " << st << " " << en;
        ASSERT_EQ(got[en - st], 99) << "wrote past the range";
      }
  }
}

// Sequences of odd and even lengths one after another (each starting at an odd or even
// offset of the packed storage): every base reads back as its input letter's code.
TEST(Reference, EveryBaseIsItsLettersCode) {
  AlignOptions opt;
  opt.k = 5, opt.w = 3;
  std::mt19937 rng(7);
  std::vector<std::pair<std::string, std::string>> seqs;
  for (const int len : {1, 3, 2, 37, 64, 101, 5, 1}) {
    std::string s;
    for (int i = 0; i < len; ++i) s += "ACGTNacgtnRY"[rng() % 12];
    seqs.push_back({"s" + std::to_string(seqs.size()), s});
  }
  const auto idx = MinimizerIndex::build(seqs, opt);
  const Reference& ref = idx.reference();
  ASSERT_EQ(ref.size(), seqs.size());
  for (uint32_t rid = 0; rid < ref.size(); ++rid) {
    const std::string& s = seqs[rid].second;
    ASSERT_EQ(ref.seq(rid).len, s.size());
    for (uint32_t i = 0; i < s.size(); ++i) ASSERT_EQ(ref.base(rid, i), nt4(s[i])) << rid << " " << i;
  }
}

}  // namespace
}  // namespace agatha::index
