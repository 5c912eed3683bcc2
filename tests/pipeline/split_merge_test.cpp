// The merge of a split index (src/pipeline/split_merge.cpp), on hand-made regions: a
// part's results written and read back field for field; minimap2's merge_hits on the
// regions of two parts (parents, forgotten per-part values, MAPQ with the parts' largest
// rep_len); the last pass on scratch files (sequence ids shifted by part, rl:i:0, reads
// and files out of step); the scratch files' names and removal (io::ScratchSeries).
// tests/e2e/split_e2e_test.cpp compares whole runs with minimap2.
#include "../../src/pipeline/split_merge.hpp"

#include <gtest/gtest.h>
#include <agatha/error.hpp>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "../../src/io/output_path.hpp"
#include "support/files.hpp"

namespace agatha::pipeline {
namespace {

namespace fs = std::filesystem;
using map::Region;

Region aligned_region(int32_t qs, int32_t qe, int32_t rid, int32_t rs, int32_t dp_max, int32_t score, int32_t cnt) {
  Region r;
  r.qs = qs, r.qe = qe, r.rid = rid, r.rs = rs, r.re = rs + (qe - qs);
  r.aligned = true, r.dp_max = dp_max, r.dp_score = dp_max - 10;
  r.score = r.score0 = score, r.cnt = cnt;
  r.mlen = (qe - qs) * 95 / 100, r.blen = qe - qs;
  r.cigar = {static_cast<uint32_t>(qe - qs) << 4};
  return r;
}

std::string error_of(const auto& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// ---- a part's results ----

TEST(PartResult, RegionsComeBackFieldForField) {
  Region r = aligned_region(3, 1203, 7, 5000, 1900, 800, 90);
  r.id = 1, r.parent = 0, r.score0 = 820, r.subsc = 400, r.as = 12, r.n_sub = 2, r.mapq = 17;
  r.dp_max2 = 1500, r.n_ambi = 3, r.n_gap = 4, r.n_gapo = 2, r.hash = 0xdeadbeef, r.div = 0.0125f;
  r.rev = true, r.inv = true, r.strand_retained = true, r.sam_pri = true, r.is_alt = true, r.split = 2;
  r.cigar = {5u << 4, 2u << 4 | 1, 1193u << 4};
  Region u;  // unaligned, all defaults
  u.qs = 1, u.qe = 2;
  test::TempDir dir;
  std::string bytes;
  append_part_result(bytes, 1300, 77, std::vector<Region>{r, u});
  append_part_result(bytes, 20, 0, {});
  const std::string path = dir.write("part.tmp", bytes);

  PartResultReader in(path);
  PartResult got;
  in.next(got);
  EXPECT_EQ(got.qlen, 1300);
  EXPECT_EQ(got.rep_len, 77);
  ASSERT_EQ(got.regions.size(), 2u);
  const Region& g = got.regions[0];
  EXPECT_EQ(std::vector<int32_t>({g.id,     g.cnt,     g.rid,      g.score,  g.score0, g.qs,    g.qe,    g.rs,
                                  g.re,     g.parent,  g.subsc,    g.as,     g.mlen,   g.blen,  g.n_sub, g.mapq,
                                  g.dp_max, g.dp_max2, g.dp_score, g.n_ambi, g.n_gap,  g.n_gapo}),
            std::vector<int32_t>({r.id,     r.cnt,     r.rid,      r.score,  r.score0, r.qs,    r.qe,    r.rs,
                                  r.re,     r.parent,  r.subsc,    r.as,     r.mlen,   r.blen,  r.n_sub, r.mapq,
                                  r.dp_max, r.dp_max2, r.dp_score, r.n_ambi, r.n_gap,  r.n_gapo}));
  EXPECT_EQ(g.hash, r.hash);
  EXPECT_EQ(g.div, r.div);
  EXPECT_TRUE(g.rev && g.inv && g.strand_retained && g.aligned && g.sam_pri && g.is_alt);
  EXPECT_EQ(g.split, 2);
  EXPECT_EQ(g.cigar, r.cigar);
  const Region& h = got.regions[1];
  EXPECT_FALSE(h.rev || h.inv || h.strand_retained || h.aligned || h.sam_pri || h.is_alt);
  EXPECT_EQ(h.div, -1.0f);
  EXPECT_TRUE(h.cigar.empty());
  in.next(got);
  EXPECT_EQ(got.qlen, 20);
  EXPECT_TRUE(got.regions.empty());
  in.expect_end();
  EXPECT_EQ(error_of([&] { in.next(got); }), "'" + path + "': ends before the results of every read");
}

TEST(PartResult, TruncatedOrLongerFilesAreErrors) {
  test::TempDir dir;
  std::string bytes;
  append_part_result(bytes, 500, 0, std::vector<Region>{aligned_region(0, 500, 0, 0, 900, 400, 50)});
  const std::string cut = dir.write("cut.tmp", bytes.substr(0, bytes.size() - 2));
  PartResultReader in(cut);
  PartResult r;
  EXPECT_EQ(error_of([&] { in.next(r); }), "'" + cut + "': ends before the results of every read");

  const std::string longer = dir.write("long.tmp", bytes + bytes);
  PartResultReader in2(longer);
  in2.next(r);
  EXPECT_EQ(error_of([&] { in2.expect_end(); }), "'" + longer + "': holds results for more reads than were read again");
  EXPECT_EQ(error_of([&] { PartResultReader missing(dir.file("none.tmp")); }),
            "cannot open '" + dir.file("none.tmp") + "': No such file or directory");
}

// ---- merge_hits ----

// Two parts' regions for one read of 400 bases (below rank_min_len: no mm_update_dp_max),
// given in part order: part 1 found b (dp_max 600), part 2 a (dp_max 700), both over the
// whole read. Each was its part's primary, with the per-part values of that part.
struct TwoParts {
  std::vector<Region> regs;
  TwoParts() {
    Region b = aligned_region(10, 400, 0, 500, 600, 290, 50);
    b.id = b.parent = 0, b.mapq = 60, b.sam_pri = true;
    Region a = aligned_region(0, 400, 3, 1000, 700, 300, 60);
    a.id = a.parent = 0, a.mapq = 5, a.sam_pri = true, a.hash = 7;
    a.subsc = 250, a.n_sub = 3, a.dp_max2 = 650;  // what part 2 alone left: forgotten
    regs = {b, a};
  }
};

TEST(MergePartRegions, BestAlignmentBecomesThePrimaryOfAllParts) {
  TwoParts t;
  merge_part_regions(t.regs, 400, 0, 15, AlignOptions{});
  ASSERT_EQ(t.regs.size(), 2u);
  const Region &a = t.regs[0], &b = t.regs[1];
  EXPECT_EQ(a.rid, 3);  // sorted by dp_max
  EXPECT_EQ(a.id, 0);
  EXPECT_EQ(a.parent, 0);
  EXPECT_TRUE(a.sam_pri);
  EXPECT_EQ(b.id, 1);
  EXPECT_EQ(b.parent, 0);  // the secondary of a
  EXPECT_FALSE(b.sam_pri);
  EXPECT_EQ(b.mapq, 0);
  // mm_set_parent over both parts: subsc is b's chain score, dp_max2 b's dp_max; b has
  // fewer anchors and a dp_max 100 below a's (more than 2a + b = 8): n_sub stays 0.
  EXPECT_EQ(a.subsc, 290);
  EXPECT_EQ(a.dp_max2, 600);
  EXPECT_EQ(a.n_sub, 0);
  // mm_set_mapq: identity 380/400, x = 600 * 290 / 700 / 300 = 0.8286,
  // 0.95 * 40 * (1 - x^2) * ln(700 / 2) = 69.8, capped at 60 (the BWA-like value is 272).
  EXPECT_EQ(a.mapq, 60);
}

// A region on an ALT contig (marked by its part, --alt) ranks by its dp_max scaled by
// 1 - --alt-drop (mm_hit_sort): a's 700 becomes round(700 * 0.85) = 595, below b's 600,
// so b becomes the primary; with --alt-drop 0 a stays first.
TEST(MergePartRegions, AltRegionsRankWithTheirScoreScaled) {
  TwoParts t;
  t.regs[1].is_alt = true;
  merge_part_regions(t.regs, 400, 0, 15, AlignOptions{});
  ASSERT_EQ(t.regs.size(), 2u);
  EXPECT_EQ(t.regs[0].rid, 0);
  EXPECT_TRUE(t.regs[0].sam_pri);
  EXPECT_EQ(t.regs[1].rid, 3);
  EXPECT_TRUE(t.regs[1].is_alt);
  TwoParts u;
  u.regs[1].is_alt = true;
  AlignOptions no_drop;
  no_drop.alt_drop = 0.0f;
  merge_part_regions(u.regs, 400, 0, 15, no_drop);
  EXPECT_EQ(u.regs[0].rid, 3);
}

// The parts' largest rep_len lowers the MAPQ: 300 against a's score of 300 halves the
// unique ratio, 0.95 * 0.5 * 40 * (1 - x^2) * ln(350) = 34.9.
TEST(MergePartRegions, MapqUsesTheLargestRepLen) {
  TwoParts t;
  merge_part_regions(t.regs, 400, 300, 15, AlignOptions{});
  EXPECT_EQ(t.regs[0].mapq, 34);
}

// A secondary too weak for -p is dropped, and the rest renumbered.
TEST(MergePartRegions, WeakSecondariesOfOtherPartsAreDropped) {
  TwoParts t;
  t.regs[0].score = 200;  // below 0.8 * 300, and more than 2k below it
  merge_part_regions(t.regs, 400, 0, 15, AlignOptions{});
  ASSERT_EQ(t.regs.size(), 1u);
  EXPECT_EQ(t.regs[0].rid, 3);
  EXPECT_EQ(t.regs[0].subsc, 200);  // it was counted before it was dropped, as in minimap2
}

// ---- the last pass ----

// A FASTA of reads named and sized as given (all A).
std::string fasta(const std::vector<std::pair<std::string, size_t>>& reads) {
  std::string text;
  for (const auto& [name, len] : reads) {
    text += '>';
    text += name;
    text += '\n';
    text.append(len, 'A');
    text += '\n';
  }
  return text;
}

class MergeParts : public ::testing::Test {
 protected:
  // Part 1 holds sequences A and B, part 2 sequence C.
  SplitParts parts() const {
    SplitParts p;
    p.files = {dir_.file("p.0000.tmp"), dir_.file("p.0001.tmp")};
    p.first_rid = {0, 2};
    p.refs = {{"A", 0, 5000}, {"B", 0, 6000}, {"C", 0, 7000}};
    p.k = 15;
    return p;
  }
  // Mapping-only regions (not aligned) of read r1 (1000 bases) in each part; r2 (50
  // bases) has none.
  void write_parts(bool extra_read = false) const {
    Region p;  // part 1, sequence B
    p.id = p.parent = 0, p.qs = 0, p.qe = 1000, p.rid = 1, p.rs = 100, p.re = 1100;
    p.score = p.score0 = 500, p.cnt = 50, p.mlen = 900, p.blen = 1000, p.div = 0.01f, p.hash = 3, p.mapq = 60;
    Region q = p;  // part 2, its sequence 0: C
    q.rid = 0, q.rs = 2000, q.re = 3000, q.score = q.score0 = 450, q.cnt = 45, q.mlen = 850, q.div = 0.02f, q.hash = 5;
    std::string one, two;
    append_part_result(one, 1000, 100, std::vector<Region>{p});
    append_part_result(one, 50, 0, {});
    append_part_result(two, 1000, 400, std::vector<Region>{q});
    append_part_result(two, 50, 0, {});
    if (extra_read) append_part_result(two, 20, 0, {});
    dir_.write("p.0000.tmp", one);
    dir_.write("p.0001.tmp", two);
  }
  std::string merge(const std::string& reads_text) const {
    io::SeqReader reads(dir_.write("reads.fa", reads_text));
    std::string out;
    OutputOptions oo;
    oo.kind = OutputKind::kPaf;
    (void)merge_parts(
        parts(), reads, AlignOptions{}, oo, true, [&out](std::string_view s) { out += s; }, 2, 1);
    return out;
  }

  test::TempDir dir_;
};

// r1's regions: B of part 1 (score 500) is the primary, C of part 2 (450, sequence id
// 0 + 2) its secondary; MAPQ with the parts' largest rep_len, 400: uniq 500 / 900,
// 0.5556 * 40 * (1 - 450 / 500) * ln(500) = 13.8. Every line prints rl:i:0.
TEST_F(MergeParts, RegionsOfAllPartsAreMergedInReferenceIds) {
  write_parts();
  EXPECT_EQ(
      merge(fasta({{"r1", 1000}, {"r2", 50}})),
      "r1\t1000\t0\t1000\t+\tB\t6000\t100\t1100\t900\t1000\t13\ttp:A:P\tcm:i:50\ts1:i:500\ts2:i:450\tdv:f:0.0100\t"
      "rl:i:0\n"
      "r1\t1000\t0\t1000\t+\tC\t7000\t2000\t3000\t850\t1000\t0\ttp:A:S\tcm:i:45\ts1:i:450\tdv:f:0.0200\trl:i:0\n");
}

TEST_F(MergeParts, ReadsAndResultsOutOfStepAreErrors) {
  write_parts();
  const std::string first = dir_.file("p.0000.tmp"), second = dir_.file("p.0001.tmp");
  EXPECT_EQ(error_of([&] {
              (void)merge(fasta({{"r1", 1000}, {"r2", 50}, {"r3", 4}}));
            }),
            "'" + first + "': ends before the results of every read");
  EXPECT_EQ(error_of([&] {
              (void)merge(fasta({{"r1", 1000}, {"r2", 51}}));
            }),
            "'" + first + "': read 'r2' of 51 bases was mapped with 50: the reads changed between the passes");
  write_parts(true);
  EXPECT_EQ(error_of([&] {
              (void)merge(fasta({{"r1", 1000}, {"r2", 50}}));
            }),
            "'" + second + "': holds results for more reads than were read again");
}

// ---- the scratch files ----

TEST(ScratchSeries, NamesAsMinimap2AndRemovesEveryFile) {
  test::TempDir dir;
  const std::string prefix = dir.file("run");
  {
    io::ScratchSeries s(prefix);
    EXPECT_EQ(s.add(), prefix + ".0000.tmp");
    EXPECT_EQ(s.add(), prefix + ".0001.tmp");
    EXPECT_EQ(s.path(12345), prefix + ".12345.tmp");
    for (size_t i = 0; i < s.size(); ++i) ASSERT_TRUE(test::write_file(s.path(i), "x"));
    ASSERT_TRUE(fs::exists(prefix + ".0001.tmp"));
  }
  EXPECT_EQ(dir.entries(), 0u);
  io::ScratchSeries s(prefix);
  ASSERT_TRUE(test::write_file(s.add(), "x"));
  s.remove_all();
  EXPECT_EQ(dir.entries(), 0u);
  EXPECT_EQ(s.size(), 0u);
  EXPECT_EQ(error_of([] { io::ScratchSeries empty(""); }), "the prefix of the scratch files is empty");
}

}  // namespace
}  // namespace agatha::pipeline
