// Chaining and region selection against minimap2 2.24 itself. tests/data/chain holds,
// per read, the sorted anchors minimap2 printed (--print-seeds: SD lines), the chains
// it printed after mm_gen_regs (CN lines, region by region in score order) and its PAF
// output without -c. Each test rebuilds the anchors, chains them with agatha, orders the
// chains as regions and compares anchor by anchor; then it runs region selection, the
// divergence estimate and MAPQ and compares the PAF lines. tests/data/chain/README.md
// has the commands that made the files.
#include "../../src/map/chain.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "../../src/io/line_reader.hpp"
#include "../../src/map/hit.hpp"
#include "../../src/pipeline/read_mapper.hpp"
#include "support/paths.hpp"
#include "support/text.hpp"

namespace agatha::map {
namespace {

using test::split_tabs;

struct RefSet {
  std::map<std::string, int32_t> rid;
  std::vector<std::string> names;
  std::vector<int32_t> lens;
};

RefSet load_refs(const std::string& path) {
  RefSet r;
  io::LineReader in(path);
  for (std::string line; in.next(line);) {
    const auto f = split_tabs(line);
    r.rid[f[0]] = static_cast<int32_t>(r.names.size());
    r.names.push_back(f[0]);
    r.lens.push_back(std::stoi(f[1]));
  }
  return r;
}

// One read of a --print-seeds dump.
struct SeedRead {
  std::string name;
  int qlen = 0, rep_len = 0;
  std::vector<Anchor> anchors;              // SD lines: sorted anchors
  std::vector<std::vector<Anchor>> chains;  // CN lines: chains in region order
};

// Anchor from the columns rname, rpos, strand, qpos, span. The printed columns carry
// neither the TANDEM flag nor other y flags; only the hash of equal-score chains sees them.
Anchor parse_anchor(const std::vector<std::string>& f, size_t at, const RefSet& refs) {
  const uint64_t rid = static_cast<uint64_t>(refs.rid.at(f[at]));
  const uint64_t rev = f[at + 2] == "-" ? 1 : 0;
  Anchor a;
  a.x = rev << 63 | rid << 32 | static_cast<uint32_t>(std::stol(f[at + 1]));
  a.y = static_cast<uint64_t>(std::stoi(f[at + 4])) << 32 | static_cast<uint32_t>(std::stol(f[at + 3]));
  return a;
}

std::vector<SeedRead> load_seeds(const std::string& path, const RefSet& refs) {
  std::vector<SeedRead> reads;
  io::LineReader in(path);
  for (std::string line; in.next(line);) {
    const auto f = split_tabs(line);
    if (f[0] == "QR") {
      reads.emplace_back();
      reads.back().name = f[1];
      reads.back().qlen = std::stoi(f[3]);
    } else if (f[0] == "RS") {
      reads.back().rep_len = std::stoi(f[1]);
    } else if (f[0] == "SD") {
      reads.back().anchors.push_back(parse_anchor(f, 1, refs));
    } else if (f[0] == "CN") {
      const size_t j = std::stoul(f[1]);
      auto& chains = reads.back().chains;
      if (chains.size() <= j) chains.resize(j + 1);
      chains[j].push_back(parse_anchor(f, 2, refs));
    }
  }
  return reads;
}

// span << 32 | forward position of every seed that produced anchors, by position: a seed
// printed k times at one (x, y) stands for k query minimizers at that position.
std::vector<uint64_t> seed_positions(const SeedRead& r) {
  std::map<std::pair<uint64_t, uint64_t>, int> copies;
  for (const Anchor& a : r.anchors) ++copies[{a.x, a.y}];
  std::map<uint64_t, int> at;  // span << 32 | pos -> seeds there
  for (const auto& [xy, n] : copies) {
    const Anchor a{xy.first, xy.second};
    int32_t pos = anchor_qpos(a);
    if (anchor_reverse(a)) pos = r.qlen - 1 - (pos + 1 - anchor_span(a));
    int& m = at[static_cast<uint64_t>(anchor_span(a)) << 32 | static_cast<uint32_t>(pos)];
    m = std::max(m, n);
  }
  std::vector<uint64_t> mini_pos;
  for (const auto& [v, n] : at) mini_pos.insert(mini_pos.end(), n, v);
  std::stable_sort(mini_pos.begin(), mini_pos.end(),
                   [](uint64_t a, uint64_t b) { return static_cast<uint32_t>(a) < static_cast<uint32_t>(b); });
  return mini_pos;
}

struct Case {
  std::string seeds, paf, refs;
  std::string anchors_from;  // when the seeds file holds only CN lines: the file with the SD lines
  int k;
  ChainParams chain;
  RegionParams region;
};

// The options minimap2 ran with (-x PRESET) make the parameters.
AlignOptions preset(const char* name) {
  AlignOptions o;
  o.apply_preset(name);
  return o;
}
ChainParams map_pb_chain() { return chain_params(preset("map-pb")); }
RegionParams map_pb_region() { return region_params(preset("map-pb")); }
ChainParams asm20_chain() { return chain_params(preset("asm20")); }
RegionParams asm20_region() { return region_params(preset("asm20")); }

std::string anchor_text(const Anchor& a) {
  return std::to_string(anchor_rid(a)) + ":" + std::to_string(anchor_rpos(a)) + (anchor_reverse(a) ? "-" : "+") +
         std::to_string(anchor_qpos(a)) + "/" + std::to_string(anchor_span(a));
}

// Empty when agatha's regions carry the same anchors in the same order as minimap2's CN
// lines; otherwise a description of the first difference.
std::string compare_chains(const SeedRead& r, const Chains& chains, const std::vector<Region>& regs) {
  if (regs.size() != r.chains.size())
    return "regions: agatha " + std::to_string(regs.size()) + ", minimap2 " + std::to_string(r.chains.size());
  for (size_t j = 0; j < regs.size(); ++j) {
    const auto& want = r.chains[j];
    if (static_cast<size_t>(regs[j].cnt) != want.size())
      return "region " + std::to_string(j) + ": " + std::to_string(regs[j].cnt) + " anchors, minimap2 " +
             std::to_string(want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      const Anchor& got = chains.anchors[regs[j].as + i];
      if (got.x != want[i].x || (got.y & 0xffffffffffULL) != want[i].y)
        return "region " + std::to_string(j) + " anchor " + std::to_string(i) + ": " + anchor_text(got) +
               " vs minimap2 " + anchor_text(want[i]);
    }
  }
  return "";
}

std::map<std::string, std::string> load_paf(const std::string& path) {
  std::map<std::string, std::string> by_read;
  io::LineReader in(path);
  for (std::string line; in.next(line);) by_read[line.substr(0, line.find('\t'))] += line + "\n";
  return by_read;
}

class ChainGolden : public ::testing::TestWithParam<Case> {};

TEST_P(ChainGolden, ChainsAndPafMatchMinimap2) {
  const Case& c = GetParam();
  const RefSet refs = load_refs(test::source_path("tests/data/chain/" + c.refs));
  auto reads = load_seeds(test::source_path("tests/data/chain/" + c.seeds), refs);
  if (!c.anchors_from.empty()) {  // the same reads and anchors, chained differently
    const auto with_anchors = load_seeds(test::source_path("tests/data/chain/" + c.anchors_from), refs);
    ASSERT_EQ(with_anchors.size(), reads.size());
    for (size_t i = 0; i < reads.size(); ++i) reads[i].anchors = with_anchors[i].anchors;
  }
  const auto paf =
      c.paf.empty() ? std::map<std::string, std::string>{} : load_paf(test::source_path("tests/data/chain/" + c.paf));
  ASSERT_FALSE(reads.empty());
  int chain_ok = 0, paf_ok = 0, shown = 0;
  for (const SeedRead& r : reads) {
    const Chains chains = chain_read(r.anchors, r.qlen, 1, c.k, c.chain);
    {  // the overload that frees the anchors after the first pass chains the same
      const Chains owned = chain_read(std::vector<Anchor>(r.anchors), r.qlen, 1, c.k, c.chain);
      ASSERT_EQ(owned.u, chains.u) << r.name;
      ASSERT_EQ(owned.anchors.size(), chains.anchors.size()) << r.name;
      for (size_t i = 0; i < owned.anchors.size(); ++i)
        ASSERT_TRUE(owned.anchors[i].x == chains.anchors[i].x && owned.anchors[i].y == chains.anchors[i].y)
            << r.name << " anchor " << i;
    }
    const std::vector<Region> regs =
        gen_regions(pipeline::read_hash(r.name, r.qlen, c.region.seed, c.region.hash_name), r.qlen, chains);
    const std::string diff = compare_chains(r, chains, regs);
    if (diff.empty()) {
      ++chain_ok;
    } else if (shown++ < 5) {
      ADD_FAILURE() << r.name << ": " << diff;
    }
    if (c.paf.empty()) continue;
    const auto sel =
        pipeline::regions_unaligned(r.name, r.qlen, c.k, r.rep_len, chains, seed_positions(r), refs.lens, c.region);
    std::string got;
    for (const Region& g : sel)
      got += pipeline::paf_line(r.name, r.qlen, refs.names[g.rid], refs.lens[g.rid], g, r.rep_len);
    const auto it = paf.find(r.name);
    const std::string want = it == paf.end() ? "" : it->second;
    if (got == want) {
      ++paf_ok;
    } else if (shown++ < 5) {
      ADD_FAILURE() << r.name << " PAF:\n agatha:\n" << got << " minimap2:\n" << want;
    }
  }
  std::printf("[ chain    ] %s: chains identical for %d/%zu reads", c.seeds.c_str(), chain_ok, reads.size());
  if (!c.paf.empty()) std::printf(", PAF identical for %d/%zu", paf_ok, reads.size());
  std::printf("\n");
  EXPECT_EQ(chain_ok, static_cast<int>(reads.size()));
  if (!c.paf.empty()) {
    EXPECT_EQ(paf_ok, static_cast<int>(reads.size()));
  }
}

ChainParams no_long_join(ChainParams p) {
  p.long_join = false;
  return p;
}

INSTANTIATE_TEST_SUITE_P(
    Minimap2, ChainGolden,
    ::testing::Values(
        Case{"mt_pb.seeds.gz", "mt_pb.paf", "mt.refs.tsv", "", 19, map_pb_chain(), map_pb_region()},
        Case{"rep_pb.seeds.gz", "rep_pb.paf", "rep.refs.tsv", "", 19, map_pb_chain(), map_pb_region()},
        Case{"rep_pb_nolj.chains.gz", "", "rep.refs.tsv", "rep_pb.seeds.gz", 19, no_long_join(map_pb_chain()),
             map_pb_region()},
        Case{"rep_asm20.seeds.gz", "rep_asm20.paf", "rep.refs.tsv", "", 19, asm20_chain(), asm20_region()},
        Case{"strand_pb.seeds.gz", "strand_pb.paf", "strand.refs.tsv", "", 19, map_pb_chain(), map_pb_region()}),
    [](const auto& info) {
      std::string n = info.param.seeds.substr(0, info.param.seeds.find('.'));
      return n;
    });

TEST(FastLog2, MatchesMinimap2Polynomial) {
  // 2 = 2^1 * 1.0: exponent term 1 - 1, polynomial at m = 1.
  EXPECT_EQ(fast_log2(2.0f), (-0.34484843f * 1.0f + 2.02466578f) * 1.0f - 0.67487759f);
  EXPECT_NEAR(fast_log2(1024.0f), 10.0f, 0.01f);
}

}  // namespace
}  // namespace agatha::map

namespace agatha::map {
namespace {

// Anchors for RMQ chaining, sorted by x: noisy diagonals (with repeats off the diagonal)
// on 5 sequences, both strands, blocks of very different sizes; each sequence's first
// stretch also hit by a second copy further along the query, so that chains start at the
// same reference position (their order is then the backtracking's). `step` (> 0) is the
// largest step along the diagonal, 5 + step - 1 bases.
std::vector<Anchor> rmq_test_anchors(uint64_t seed, int step) {
  std::mt19937_64 rng(seed);
  std::vector<Anchor> a;
  for (uint64_t rid = 0; rid < 5; ++rid)
    for (uint64_t rev = 0; rev < 2; ++rev) {
      const int n = static_cast<int>(200 + rng() % (rev ? 500 : 6000));
      int32_t x = 1000, y = static_cast<int32_t>(rng() % 500);
      for (int i = 0; i < n; ++i) {
        x += 5 + static_cast<int32_t>(rng() % static_cast<uint64_t>(step));
        y += 5 + static_cast<int32_t>(rng() % static_cast<uint64_t>(step));
        const int32_t yy = rng() % 10 == 0 ? static_cast<int32_t>(rng() % 100000) : y;  // a repeat hit
        a.push_back({rev << 63 | rid << 32 | static_cast<uint32_t>(x), uint64_t{15} << 32 | static_cast<uint32_t>(yy)});
        if (i < 150 && yy == y)  // the second copy
          a.push_back({rev << 63 | rid << 32 | static_cast<uint32_t>(x),
                       uint64_t{15} << 32 | static_cast<uint32_t>(yy + 200000 + static_cast<int32_t>(rid) * 1000)});
      }
    }
  std::sort(a.begin(), a.end(), [](const Anchor& u, const Anchor& v) { return u.x != v.x ? u.x < v.x : u.y < v.y; });
  return a;
}

// RMQ chaining runs its blocks of anchors (one reference sequence and strand each) on
// several threads; the chains are those of one thread.
TEST(ChainRmq, SameChainsForAnyNumberOfThreads) {
  const std::vector<Anchor> a = rmq_test_anchors(38, 20);
  const GapPenalty pen{0.8f * 0.01f * 15, 0.0f};
  const Chains want = chain_rmq(a, 10000, 1000, 2000, 25, 100000, 3, 40, pen, true, 1);
  ASSERT_GT(want.size(), 9u);
  // Chains that start at the same reference position (the copies'): their order is the
  // order in which the backtracking accepted them.
  int same_start = 0;
  for (size_t i = 1, k = Chains::count(want.u[0]); i < want.size(); k += Chains::count(want.u[i]), ++i)
    same_start += want.anchors[k].x == want.anchors[k - Chains::count(want.u[i - 1])].x;
  EXPECT_GT(same_start, 0);
  for (const int threads : {2, 3, 8}) {
    const Chains got = chain_rmq(a, 10000, 1000, 2000, 25, 100000, 3, 40, pen, true, threads);
    EXPECT_EQ(got.u, want.u) << threads;
    EXPECT_EQ(got.anchors, want.anchors) << threads;
  }
}

// One reference sequence and strand, its anchors in stretches along one diagonal with
// reference steps of 10000 (max_dist: a chain still crosses it), 10001 and 60000 between them: the
// trees empty at the larger steps, so the blocks chained apart end there, and the chains
// are those of one thread and of the literal pass. Off-diagonal repeat hits throughout.
TEST(ChainRmq, BlocksEndWhereTheAnchorsStepPastMaxDist) {
  std::mt19937_64 rng(44);
  std::vector<Anchor> a;
  int32_t x = 1000, y = 500;
  for (const int32_t step : {10000, 10001, 10000, 60000, 10000, 10001, 0}) {
    const int n = static_cast<int>(300 + rng() % 900);
    for (int i = 0; i < n; ++i) {
      const int32_t yy = rng() % 10 == 0 ? static_cast<int32_t>(rng() % 300000) : y;
      a.push_back({uint64_t{2} << 32 | static_cast<uint32_t>(x), uint64_t{15} << 32 | static_cast<uint32_t>(yy)});
      x += 5 + static_cast<int32_t>(rng() % 20);
      y += 5 + static_cast<int32_t>(rng() % 20);
    }
    // The last anchor on the diagonal: the next stretch starts `step` after it on the
    // reference, one less on the query (the query range of a predecessor is open below).
    a.push_back({uint64_t{2} << 32 | static_cast<uint32_t>(x), uint64_t{15} << 32 | static_cast<uint32_t>(y)});
    x += step, y += step - 1;
  }
  std::sort(a.begin(), a.end(), [](const Anchor& u, const Anchor& v) { return u.x != v.x ? u.x < v.x : u.y < v.y; });
  const GapPenalty pen{0.8f * 0.01f * 15, 0.0f};
  const Chains want = chain_rmq(a, 10000, 1000, 2000, 25, 100000, 3, 40, pen, true, 1, true);
  // Chains link the stretches either side of a step of 10000 (a block ended there would
  // cut them), never those of a larger step.
  int crossing = 0;
  for (size_t c = 0, k = 0; c < want.size(); k += static_cast<size_t>(Chains::count(want.u[c])), ++c)
    for (size_t j = k + 1; j < k + static_cast<size_t>(Chains::count(want.u[c])); ++j) {
      const uint64_t dx = want.anchors[j].x - want.anchors[j - 1].x;
      EXPECT_LE(dx, 10000u);
      crossing += dx >= 10000;
    }
  EXPECT_GE(crossing, 2);
  for (const int threads : {1, 2, 3, 8}) {
    const Chains got = chain_rmq(a, 10000, 1000, 2000, 25, 100000, 3, 40, pen, true, threads);
    EXPECT_EQ(got.u, want.u) << threads;
    EXPECT_EQ(got.anchors, want.anchors) << threads;
  }
}

// The range minima come from krmq's tree only where several anchors tie for one; the
// chains are those of asking the tree every time, as mg_lchain_rmq does. With no gap
// penalty an anchor's priority is -f, and with a gap penalty of 0.5 a multiple of 0.25 on
// anchors whose steps are whole: ties are then everywhere, and which of the tied anchors
// krmq returns (the tree's shape) decides the chains. Also with minimap2's penalty for
// k = 15, where ties are rare. The literal pass also scores every near predecessor in
// full, where the other computes a pair's penalty only where the pair could beat the best.
TEST(ChainRmq, TiedRangeMinimaTakeKrmqsAnswer) {
  // A band of 2000 admits every near predecessor (within 1000 on both sequences); one of
  // 30 rejects those off the diagonal by more.
  for (const int bw : {2000, 30})
    for (const GapPenalty pen : {GapPenalty{0.0f, 0.0f}, GapPenalty{0.5f, 0.0f}, GapPenalty{0.8f * 0.01f * 15, 0.0f}})
      for (const int step : {1, 3, 20}) {
        const std::vector<Anchor> a = rmq_test_anchors(40 + static_cast<uint64_t>(step), step);
        const Chains want = chain_rmq(a, 10000, 1000, bw, 25, 100000, 3, 40, pen, true, 1, true);
        ASSERT_GT(want.size(), 5u) << bw << " " << pen.gap << " " << step;
        for (const int threads : {1, 3}) {
          const Chains got = chain_rmq(a, 10000, 1000, bw, 25, 100000, 3, 40, pen, true, threads, false);
          EXPECT_EQ(got.u, want.u) << bw << " " << pen.gap << " " << step << " " << threads;
          EXPECT_EQ(got.anchors, want.anchors) << bw << " " << pen.gap << " " << step << " " << threads;
        }
        // A small cap on the window: anchors also leave it by the size rule.
        const Chains capped = chain_rmq(a, 10000, 1000, bw, 25, 50, 3, 40, pen, true, 1, true);
        const Chains got = chain_rmq(a, 10000, 1000, bw, 25, 50, 3, 40, pen, true, 1, false);
        EXPECT_EQ(got.u, capped.u) << bw << " " << pen.gap << " " << step;
        EXPECT_EQ(got.anchors, capped.anchors) << bw << " " << pen.gap << " " << step;
      }
}

}  // namespace
}  // namespace agatha::map
