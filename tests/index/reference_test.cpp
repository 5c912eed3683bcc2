// Reference storage (src/index/reference.cpp): names, lengths, lookup by name and the
// packed bases of the sequences an index is built from.
#include "../../src/index/reference.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../src/index/index.hpp"

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

}  // namespace
}  // namespace agatha::index
