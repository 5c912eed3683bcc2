// SDUST and the masking of read minimizers (-T). The intervals must equal those of
// minimap2 2.24's own sdust program (tests/data/sdust/expected.tsv, recorded by
// scripts/record-sdust-golden.sh) on low-complexity and random sequences and on reads;
// the masking follows mm_dust_minier's rule, positions and segment offsets included.
// Seeding with -T against minimap2's --print-seeds is SeedsGolden.mt_map_pb_T10
// (seed_test.cpp); mapping with -T is in the e2e cases.
#include "../../src/map/sdust.hpp"
#include "../../src/index/index.hpp"
#include "../../src/io/line_reader.hpp"
#include "../../src/io/seq_reader.hpp"
#include "../../src/map/seed.hpp"
#include "support/paths.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace agatha::map {
namespace {

std::string show(const std::vector<DustInterval>& v) {
  std::ostringstream o;
  for (const DustInterval& d : v) o << " [" << d.start << "," << d.end << ")";
  return v.empty() ? " (none)" : o.str();
}

TEST(Sdust, IntervalsEqualMinimap2s) {
  // (W, T, file) -> record name -> intervals
  std::map<std::tuple<int, int, std::string>, std::map<std::string, std::vector<DustInterval>>> want;
  io::LineReader in(test::source_path("tests/data/sdust/expected.tsv"));
  std::string line;
  size_t n_want = 0;
  while (in.next(line)) {
    std::istringstream f(line);
    int w = 0, t = 0;
    std::string file, name;
    DustInterval d;
    ASSERT_TRUE(f >> w >> t >> file >> name >> d.start >> d.end) << "expected.tsv line " << in.line_number();
    auto& group = want[{w, t, file}];
    if (name != "-") group[name].push_back(d), ++n_want;
  }
  ASSERT_EQ(want.size(), 12u);  // 6 (W, T) runs x 2 files
  size_t n_records = 0, n_got = 0;
  for (const auto& [key, by_name] : want) {
    const auto& [w, t, file] = key;
    io::SeqReader reads(test::source_path(file));
    io::SeqRecord r;
    size_t named = 0;
    while (reads.next(r)) {
      const std::vector<DustInterval> got = sdust(r.seq, t, w);
      const auto it = by_name.find(r.name);
      const std::vector<DustInterval> expect = it == by_name.end() ? std::vector<DustInterval>{} : it->second;
      named += it != by_name.end();
      EXPECT_EQ(got, expect) << file << " " << r.name << " W " << w << " T " << t << "\n  agatha:  " << show(got)
                             << "\n  minimap2:" << show(expect);
      ++n_records, n_got += got.size();
    }
    EXPECT_EQ(named, by_name.size()) << "records of expected.tsv missing from " << file;
  }
  EXPECT_EQ(n_got, n_want);
  RecordProperty("records", static_cast<int>(n_records));
  RecordProperty("intervals", static_cast<int>(n_want));
}

TEST(Sdust, EmptyAndAmbiguousSequencesHaveNoInterval) {
  EXPECT_TRUE(sdust("", 20).empty());
  EXPECT_TRUE(sdust(std::string(500, 'N'), 20).empty());
  EXPECT_THROW((void)sdust("ACGT", 20, 2), std::invalid_argument);
}

// A minimizer of span `span` whose last base is at `pos` (collect_minimizers' layout).
index::Minimizer minimizer(int32_t pos, int span) {
  return {static_cast<uint64_t>(0xabcdULL) << 8 | static_cast<uint64_t>(span), static_cast<uint64_t>(pos) << 1};
}

std::vector<int32_t> kept_positions(const std::vector<index::Minimizer>& mv) {
  std::vector<int32_t> out;
  for (const auto& m : mv) out.push_back(static_cast<int32_t>(static_cast<uint32_t>(m.y) >> 1));
  return out;
}

// A 90-base homopolymer between random flanks gives one interval around it; a minimizer
// is dropped exactly when more than half its span (rounded down) lies inside.
TEST(MaskLowComplexity, DropsMinimizersMoreThanHalfInside) {
  std::mt19937 rng(7);
  std::string seq;
  for (int i = 0; i < 150; ++i) seq.push_back("ACGT"[rng() % 4]);
  seq += std::string(90, 'A');
  for (int i = 0; i < 150; ++i) seq.push_back("ACGT"[rng() % 4]);
  const std::vector<DustInterval> iv = sdust(seq, 20);
  ASSERT_EQ(iv.size(), 1u) << show(iv);
  const int32_t a = iv[0].start, b = iv[0].end;
  ASSERT_LE(a, 150);
  ASSERT_GE(b, 240);
  for (const int span : {15, 20}) {
    const int half = span / 2;
    // the minimizer's bases are [pos - span + 1, pos + 1)
    const int32_t left_kept = a + half - 1, left_dropped = a + half;  // `half` / `half + 1` bases inside
    const int32_t right_kept = b - 1 + span - half, right_dropped = b - 2 + span - half;
    const int32_t outside_left = a - 1, inside = (a + b) / 2, outside_right = b + span - 1;
    std::vector<index::Minimizer> mv = {minimizer(5, 3)};  // before `first`: never touched
    for (const int32_t p : {outside_left, left_kept, left_dropped, inside, right_dropped, right_kept, outside_right})
      mv.push_back(minimizer(p, span));
    mask_low_complexity(mv, 1, seq, 20);
    EXPECT_EQ(kept_positions(mv), (std::vector<int32_t>{5, outside_left, left_kept, right_kept, outside_right}))
        << "span " << span << ", interval [" << a << "," << b << ")";
  }
  std::vector<index::Minimizer> mv = {minimizer(a + 7, 15), minimizer((a + b) / 2, 15)};
  mask_low_complexity(mv, 0, seq, 0);  // -T 0: no masking
  EXPECT_EQ(mv.size(), 2u);
}

// The bases of a minimizer in several intervals add up; minimizers are taken in order.
TEST(MaskLowComplexity, OverlapsWithSeveralIntervalsAddUp) {
  const std::vector<DustInterval> iv = {{10, 14}, {16, 20}, {40, 60}};
  // span 15 over [8, 23): 4 + 4 = 8 bases inside (> 7): dropped; over [9, 24) the same;
  // over [12, 27): 2 + 4 = 6: kept; span 16 over [8, 24): 8 (not > 8): kept
  std::vector<index::Minimizer> mv = {minimizer(22, 15), minimizer(23, 15), minimizer(26, 15),
                                      minimizer(23, 16), minimizer(39, 15), minimizer(54, 15)};
  drop_minimizers_in(mv, 0, iv);
  EXPECT_EQ(kept_positions(mv), (std::vector<int32_t>{26, 23, 39}));
  // With one interval 3 bases long the first has 3 + 4 = 7 inside: kept.
  std::vector<index::Minimizer> mv2 = {minimizer(22, 15)};
  const std::vector<DustInterval> iv2 = {{10, 13}, {16, 20}};
  drop_minimizers_in(mv2, 0, iv2);
  EXPECT_EQ(mv2.size(), 1u);
}

// minimap2 masks each segment with its own intervals but compares them with the
// minimizers' positions offset by the earlier segments: a low-complexity run at the
// start of a second segment is not masked where it is, but where the offset puts it.
TEST(MaskLowComplexity, LaterSegmentsComparedAtTheirOffsetPositions) {
  std::mt19937 rng(3);
  auto random_bases = [&](int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s.push_back("ACGT"[rng() % 4]);
    return s;
  };
  AlignOptions opt;
  opt.apply_preset("map-ont");
  opt.validate();
  const auto idx = index::MinimizerIndex::build({{"r", random_bases(2000)}}, opt);
  // The first segment's length puts the second one's minimizers past its own intervals.
  const std::string seg1 = random_bases(300);
  const std::string seg2 = std::string(20, 'T') + [] {
    std::string s;
    for (int i = 0; i < 60; ++i) s += "CAG";
    return s;
  }() + random_bases(100);
  ASSERT_FALSE(sdust(seg2, 20).empty());
  const std::string_view alone[] = {seg2};
  const std::string_view pair[] = {seg1, seg2};
  const auto seg2_alone_masked = query_minimizers(alone, idx, 20);
  const auto seg2_alone = query_minimizers(alone, idx, 0);
  EXPECT_LT(seg2_alone_masked.size(), seg2_alone.size());  // masked where it stands alone
  const auto both_masked = query_minimizers(pair, idx, 20);
  const auto both = query_minimizers(pair, idx, 0);
  auto of_seg2 = [](const std::vector<index::Minimizer>& mv) {
    size_t n = 0;
    for (const auto& m : mv) n += (m.y >> 32) == 1;
    return n;
  };
  // Offset by 300, the second segment's minimizers lie beyond its intervals; the first
  // segment has none.
  ASSERT_TRUE(sdust(seg1, 20).empty());
  EXPECT_EQ(both_masked, both);
  EXPECT_GT(of_seg2(both), 0u);
}

}  // namespace
}  // namespace agatha::map
