// Seeding against minimap2 2.24's own output: for every read, the anchors after the
// radix sort (with sr: the heap merge) and rep_len must equal the QR/RS/SD lines of
// `minimap2 --print-seeds` (tests/data/seeds/make-expected.sh records the commands), and
// mid_occ must equal the value minimap2 logs (`[M::mm_mapopt_update] mid_occ = N`).
#include "../../src/map/seed.hpp"
#include "../../src/index/index.hpp"
#include "../../src/io/index_file.hpp"
#include "../../src/io/line_reader.hpp"
#include "../../src/io/seq_reader.hpp"
#include "support/paths.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace agatha::map {
namespace {

struct SeedCase {
  std::string expected, ref, reads, preset;
  int32_t fixed_mid_occ;     // -f N (0: computed)
  int32_t minimap2_mid_occ;  // from minimap2's log
  int sdust_thres = 0;       // -T
};

// minimap2's --print-seeds lines for one read (map.c: mm_map_frag).
std::vector<std::string> print_seeds(const io::SeqRecord& r, const SeedResult& s, const index::Reference& ref) {
  std::vector<std::string> out{"QR\t" + r.name + "\t0\t" + std::to_string(r.seq.size())};
  if (r.seq.empty()) return out;
  out.push_back("RS\t" + std::to_string(s.rep_len));
  const auto& a = s.anchors;
  for (size_t i = 0; i < a.size(); ++i) {
    const int32_t diff =
        i == 0 ? 0 : (anchor_qpos(a[i]) - anchor_qpos(a[i - 1])) - (anchor_rpos(a[i]) - anchor_rpos(a[i - 1]));
    out.push_back("SD\t" + ref.seq(static_cast<uint32_t>(anchor_rid(a[i]))).name + "\t" +
                  std::to_string(anchor_rpos(a[i])) + "\t" + (anchor_reverse(a[i]) ? "-" : "+") + "\t" +
                  std::to_string(anchor_qpos(a[i])) + "\t" + std::to_string(anchor_span(a[i])) + "\t" +
                  std::to_string(diff));
  }
  return out;
}

class SeedsGolden : public ::testing::TestWithParam<SeedCase> {};

TEST_P(SeedsGolden, AnchorsEqualMinimap2) {
  const SeedCase& c = GetParam();
  AlignOptions opt;
  opt.apply_preset(c.preset);
  if (c.fixed_mid_occ != 0) opt.mid_occ = c.fixed_mid_occ;
  opt.sdust_thres = c.sdust_thres;
  opt.validate();
  const auto idx = io::build_index_from_file(test::source_path(c.ref), opt);
  const int32_t mid_occ = index::resolve_mid_occ(idx, opt);
  EXPECT_EQ(mid_occ, c.minimap2_mid_occ);

  io::LineReader expected(test::source_path("tests/data/seeds/" + c.expected + ".seeds.gz"));
  io::SeqReader reads(test::source_path(c.reads));
  io::SeqRecord r;
  std::string want;
  size_t n_reads = 0, n_anchors = 0;
  while (reads.next(r)) {
    std::string_view seg = r.seq;
    const SeedResult s = seed_read(r.name, std::span<const std::string_view>(&seg, 1), idx, opt, mid_occ);
    for (const std::string& got : print_seeds(r, s, idx.reference())) {
      ASSERT_TRUE(expected.next(want)) << "read " << r.name << ": agatha has more lines, first: " << got;
      ASSERT_EQ(got, want) << "read " << r.name << ", expected-file line " << expected.line_number();
    }
    ++n_reads, n_anchors += s.anchors.size();
  }
  EXPECT_FALSE(expected.next(want)) << "minimap2 has more lines, first: " << want;
  EXPECT_GT(n_anchors, 0u);
  RecordProperty("reads", static_cast<int>(n_reads));
  RecordProperty("anchors", static_cast<int>(n_anchors));
}

INSTANTIATE_TEST_SUITE_P(
    Minimap2, SeedsGolden,
    ::testing::Values(
        SeedCase{"mt.map-pb", "data/ref.fa", "data/reads.fq", "map-pb", 0, 10},
        // -T 10: SDUST masking, with HPC spans longer than k
        SeedCase{"mt.map-pb.T10", "data/ref.fa", "data/reads.fq", "map-pb", 0, 10, 10},
        SeedCase{"mt.map-ont", "data/ref.fa", "data/reads.fq", "map-ont", 0, 10},
        SeedCase{"mt.map-hifi", "data/ref.fa", "data/reads.fq", "map-hifi", 0, 50},
        SeedCase{"rep.map-hifi", "tests/data/seeds/rep.fa.gz", "tests/data/seeds/rep.fq", "map-hifi", 0, 500},
        SeedCase{"rep.map-pb.f20", "tests/data/seeds/rep.fa.gz", "tests/data/seeds/rep.fq", "map-pb", 20, 20},
        SeedCase{"rep.map-ont.f20", "tests/data/seeds/rep.fa.gz", "tests/data/seeds/rep.fq", "map-ont", 20, 20},
        // sr: mid_occ 1000 from the preset; the heap order
        SeedCase{"rep.sr", "tests/data/seeds/rep.fa.gz", "tests/data/seeds/rep.fq", "sr", 0, 1000}),
    [](const auto& info) {
      std::string n = info.param.expected;
      for (char& ch : n)
        if (ch == '.' || ch == '-') ch = '_';
      return n;
    });

// mid_occ above minimap2's clamps, from its log on the repeat reference (the 160 kb
// tandem array puts the 1-2e-4 quantile in the thousands); asm20 clamps to 500.
TEST(MidOcc, EqualsMinimap2OnRepeatReference) {
  const std::vector<std::pair<std::string, int32_t>> cases = {
      {"map-pb", 4467}, {"map-ont", 4473}, {"map-hifi", 500}, {"asm20", 500}};
  for (const auto& [preset, want] : cases) {
    AlignOptions opt;
    opt.apply_preset(preset);
    const auto idx = io::build_index_from_file(test::source_path("tests/data/seeds/rep.fa.gz"), opt);
    EXPECT_EQ(index::resolve_mid_occ(idx, opt), want) << preset;
  }
}

TEST(MidOcc, FractionAndClamps) {
  AlignOptions opt;  // map-ont: min 10
  const auto idx = io::build_index_from_file(test::source_path("tests/data/seeds/rep.fa.gz"), opt);
  opt.min_mid_occ = 5000;  // -U 5000 (max 1e6): the lower clamp wins
  EXPECT_EQ(index::resolve_mid_occ(idx, opt), 5000);
  opt.min_mid_occ = 10, opt.max_mid_occ = 100;  // -U 10,100
  EXPECT_EQ(index::resolve_mid_occ(idx, opt), 100);
  opt.max_mid_occ = 5;  // max <= min: no upper clamp
  EXPECT_EQ(index::resolve_mid_occ(idx, opt), 4473);
  opt.mid_occ_frac = 0.0f;  // -f 0: no cutoff
  opt.max_mid_occ = 1'000'000;
  EXPECT_EQ(index::resolve_mid_occ(idx, opt), 1'000'000);
  opt.mid_occ = 7;  // -f 7
  EXPECT_EQ(index::resolve_mid_occ(idx, opt), 7);
}

// A contig as a query: its lookups, the query-repeat filter's sort and the anchors are
// made in pieces on several threads, and must give what one thread gives — the same
// seeds (position, span, hits, tandem mark), the same anchors in the same order, rep_len
// and mini_pos — for thread counts that split it in 1 to 5 pieces, with the options
// that skip hits (which keep the serial loop) too.
TEST(SeedsOnThreads, LongQueryGivesTheSerialResult) {
  std::mt19937_64 rng(29);
  std::string genome(1600000, 'A');
  for (char& c : genome) c = "ACGT"[rng() % 4];
  // Repeats: a 3 kb unit copied 40 times (high-occurrence seeds, the query-repeat filter).
  const std::string unit = genome.substr(5000, 3000);
  for (int c = 0; c < 40; ++c) genome.replace(200000 + c * 3100, unit.size(), unit);
  AlignOptions opt;
  opt.apply_preset("asm5");
  opt.validate();
  const auto idx = index::MinimizerIndex::build({{"chr", genome}}, opt);
  // The query: a copy of most of the genome with a substitution every ~300 bases.
  std::string query = genome.substr(1000, 1500000);
  for (size_t i = 0; i < query.size(); i += 200 + rng() % 200) query[i] = "ACGT"[(query[i] + 1) % 4];
  const std::vector<std::string_view> segs{query};
  for (const bool skip_options : {false, true}) {
    AlignOptions o = opt;
    o.q_occ_frac = 0.0001f;  // the query's own repeats are filtered too
    if (skip_options) o.no_dual = true;  // (the query "a" sorts before "chr": its hits are kept)
    const int32_t mid_occ = 5;
    const ReadSeeds one = look_up_read(segs, idx, o, mid_occ, 1);
    ASSERT_GT(one.seeds.size(), size_t{5} << 14);  // five pieces of at least 2^14
    const SeedResult want = collect_anchors(one, "a", idx, o, mid_occ, 1);
    ASSERT_GT(want.anchors.size(), size_t{70000});
    for (const int threads : {2, 3, 5}) {
      const ReadSeeds got = look_up_read(segs, idx, o, mid_occ, threads);
      ASSERT_EQ(got.seeds.size(), one.seeds.size()) << threads;
      for (size_t i = 0; i < one.seeds.size(); ++i) {
        const Seed &a = one.seeds[i], &b = got.seeds[i];
        ASSERT_TRUE(a.q_pos == b.q_pos && a.q_span == b.q_span && a.seg_id == b.seg_id && a.hit == b.hit &&
                    a.n_hits == b.n_hits && a.is_tandem == b.is_tandem)
            << "seed " << i << " threads " << threads;
      }
      const SeedResult res = collect_anchors(got, "a", idx, o, mid_occ, threads);
      EXPECT_EQ(res.rep_len, want.rep_len);
      EXPECT_EQ(res.mini_pos, want.mini_pos);
      ASSERT_EQ(res.anchors.size(), want.anchors.size());
      for (size_t i = 0; i < want.anchors.size(); ++i)
        ASSERT_TRUE(res.anchors[i].x == want.anchors[i].x && res.anchors[i].y == want.anchors[i].y)
            << "anchor " << i << " threads " << threads << " skip options " << skip_options;
    }
  }
}

}  // namespace
}  // namespace agatha::map
