// The rule that cuts a reference into index parts (-I; src/index/index_parts.hpp), on
// the part sizes `minimap2 -x map-ont -I NUM -d x.mmi REF` 2.24 reports ("loaded/built
// the index for N target sequence(s)", one line a part) for the references below.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "../../src/index/index_parts.hpp"

namespace agatha::index {
namespace {

using Sizes = std::vector<size_t>;

Sizes parts(const std::vector<uint64_t>& lengths, uint64_t part_bases,
            uint64_t mini_batch_bases = kIndexMiniBatchBases) {
  return part_sizes(lengths, part_bases, mini_batch_bases);
}

// Five sequences of 50,000 bases (tests/data/e2e/ont.ref.fa.gz cut in five).
TEST(IndexParts, FiveEqualSequencesAsMinimap2CutsThem) {
  const std::vector<uint64_t> five(5, 50'000);
  // A mini-batch of 50k is one sequence; the part holds exactly 50k after it, which is not
  // more than -I, so a second mini-batch joins it.
  EXPECT_EQ(parts(five, 50'000), (Sizes{2, 2, 1}));
  EXPECT_EQ(parts(five, 60'000), (Sizes{2, 2, 1}));
  // 100k: the first mini-batch (two sequences) makes exactly 100k; the part takes the
  // next mini-batch too.
  EXPECT_EQ(parts(five, 100'000), (Sizes{4, 1}));
  EXPECT_EQ(parts(five, 120'000), (Sizes{3, 2}));
  EXPECT_EQ(parts(five, 200'000), (Sizes{5}));
  EXPECT_EQ(parts(five, 250'000), (Sizes{5}));
  // Every sequence longer than -I: one part each; -I 0 too.
  EXPECT_EQ(parts(five, 10'000), (Sizes{1, 1, 1, 1, 1}));
  EXPECT_EQ(parts(five, 0), (Sizes{1, 1, 1, 1, 1}));
  EXPECT_EQ(parts(five, 4'000'000'000), (Sizes{5}));
}

// The reference of tests/e2e/split_e2e_test.cpp: 50k, 50k, 25,906, 58k, 50k, 26,439,
// 58k and 185,537 bases.
TEST(IndexParts, UnequalSequencesAsMinimap2CutsThem) {
  const std::vector<uint64_t> ref{50'000, 50'000, 25'906, 58'000, 50'000, 26'439, 58'000, 185'537};
  EXPECT_EQ(parts(ref, 50'000), (Sizes{2, 2, 3, 1}));
  EXPECT_EQ(parts(ref, 60'000), (Sizes{2, 2, 2, 2}));
  EXPECT_EQ(parts(ref, 100'000), (Sizes{5, 3}));
  EXPECT_EQ(parts(ref, 300'000), (Sizes{7, 1}));
}

// Above 50M bases a mini-batch is 50M, not -I: six sequences of 20M with -I 90M make one
// part in minimap2 (mini-batches of three sequences: 60M, then 120M), where mini-batches
// of 90M would have closed the part after five.
TEST(IndexParts, MiniBatchesAreAtMostFiftyMillionBases) {
  const std::vector<uint64_t> six(6, 20'000'000);
  EXPECT_EQ(parts(six, 90'000'000), (Sizes{6}));
  EXPECT_EQ(parts(six, 90'000'000, 90'000'000), (Sizes{5, 1}));
}

// Sequences of length 0 add nothing to a part: they never close one (minimap2 -I 0 on
// sequences of 0, 0, 5, 0 and 7 bases: parts of 3 and 2).
TEST(IndexParts, EmptySequencesJoinThePartTheyFollow) {
  EXPECT_EQ(parts({0, 0, 5, 0, 7}, 0), (Sizes{3, 2}));
  EXPECT_EQ(parts({0, 0, 0}, 0), (Sizes{3}));
  EXPECT_EQ(parts({}, 10), Sizes{});
}

// A sequence that starts a part is reported once, with the lengths fed one at a time.
TEST(IndexParts, CutterReportsEachNewPartOnce) {
  PartCutter cut(100, 40);
  std::vector<bool> starts;
  for (uint64_t len : {30, 30, 30, 30, 30, 200, 1, 1}) starts.push_back(cut.add(len));
  // Mini-batches: {30, 30} 60 -> {30, 30} 120 > 100 -> new part at the fifth sequence;
  // {30, 200} 230 > 100 -> new part at the seventh.
  EXPECT_EQ(starts, (std::vector<bool>{false, false, false, false, true, false, true, false}));
}

}  // namespace
}  // namespace agatha::index
