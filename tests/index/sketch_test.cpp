// mm_sketch on hand-checked small sequences, against a brute-force window minimum
// on random sequences where no window holds two equal hashes (the state machine then
// has no quirk to show, so both definitions agree), and against a one-pass model of the
// state machine on long sequences with ties, ambiguous bases and homopolymers (sketch()
// runs in blocks of steps; the model does not).
#include "../../src/index/sketch.hpp"

#include <gtest/gtest.h>

#include <agatha/nt4.hpp>

#include <algorithm>
#include <deque>
#include <random>
#include <set>

namespace agatha::index {
namespace {

std::vector<Minimizer> run(const std::string& s, int w, int k, bool hpc = false, uint32_t rid = 0) {
  std::vector<Minimizer> out;
  sketch(s, w, k, rid, hpc, out);
  return out;
}

TEST(Hash64, HandComputedValues) {
  // k=1, key 0: ~0&3 = 3, and every later step keeps 3.
  EXPECT_EQ(hash64(0, 3), 3u);
  // k=2, key 0: 15; (15+120+3840)&15 = 7; (7+28+112)&15 = 3; (3+3<<31)&15 = 3.
  EXPECT_EQ(hash64(0, 15), 3u);
  // Invertible on 2k bits: distinct inputs give distinct outputs.
  std::set<uint64_t> seen;
  for (uint64_t key = 0; key < 1024; ++key) seen.insert(hash64(key, 1023));
  EXPECT_EQ(seen.size(), 1024u);
}

// The vector hashings give hash64's value on every lane and in the tail, for every k.
void expect_hash_keys_exact(int isa) {
  std::mt19937_64 rng(0x5eed0033);
  for (int k : {1, 5, 15, 19, 28}) {
    const uint64_t mask = (uint64_t{1} << 2 * k) - 1;
    for (int n : {0, 1, 7, 8, 9, 31, 100}) {
      std::vector<uint64_t> key(n), want(n);
      std::vector<uint16_t> span(n);
      for (int j = 0; j < n; ++j) key[j] = rng() & mask, span[j] = static_cast<uint16_t>(rng() % 256);
      for (int j = 0; j < n; ++j) want[j] = hash64(key[j], mask) << 8 | span[j];
      hash_keys(key.data(), span.data(), n, mask, isa);
      EXPECT_EQ(key, want) << "isa " << isa << " k " << k << " n " << n;
    }
  }
}

TEST(HashKeys, Avx2EqualsHash64) {
  if (!__builtin_cpu_supports("avx2")) GTEST_SKIP() << "this processor has no AVX2";
  expect_hash_keys_exact(1);
}

TEST(HashKeys, Avx512EqualsHash64) {
  if (!__builtin_cpu_supports("avx512f")) GTEST_SKIP() << "this processor has no AVX-512F";
  expect_hash_keys_exact(2);
}

TEST(HashKeys, SketchUsesTheWidestThereIs) {
  EXPECT_EQ(sketch_hash_isa(), __builtin_cpu_supports("avx512f") ? 2 : __builtin_cpu_supports("avx2") ? 1 : 0);
  expect_hash_keys_exact(0);
}

TEST(Sketch, ShortOrEmptySequencesGiveNothing) {
  EXPECT_TRUE(run("", 5, 3).empty());
  EXPECT_TRUE(run("AC", 5, 3).empty());
  EXPECT_TRUE(run("NNNNNNNN", 2, 3).empty());
}

TEST(Sketch, WindowOfOneEmitsEveryKmer) {
  // k=3 (odd: no palindromes). ACGTTG: ACG CGT GTT TTG ending at 2..5.
  const auto m = run("ACGTTG", 1, 3);
  ASSERT_EQ(m.size(), 4u);
  // ACG = 0b000110 = 6, its reverse complement CGT = 27: forward, hash of 6.
  EXPECT_EQ(m[0], (Minimizer{hash64(6, 63) << 8 | 3, 2 << 1 | 0}));
  // CGT = 27 vs ACG = 6: reverse strand, the same canonical k-mer.
  EXPECT_EQ(m[1], (Minimizer{hash64(6, 63) << 8 | 3, 3 << 1 | 1}));
  // GTT = 0b101111 = 47 vs AAC = 1: reverse.
  EXPECT_EQ(m[2], (Minimizer{hash64(1, 63) << 8 | 3, 4 << 1 | 1}));
  // TTG = 0b111110 = 62 vs CAA = 16: reverse.
  EXPECT_EQ(m[3], (Minimizer{hash64(16, 63) << 8 | 3, 5 << 1 | 1}));
}

TEST(Sketch, RidAndLowerCase) {
  const auto upper = run("ACGTTG", 1, 3, false, 7);
  const auto lower = run("acgutg", 1, 3, false, 7);  // u counts as T
  ASSERT_EQ(upper.size(), lower.size());
  for (size_t i = 0; i < upper.size(); ++i) {
    EXPECT_EQ(upper[i], lower[i]);
    EXPECT_EQ(upper[i].y >> 32, 7u);
  }
}

TEST(Sketch, PalindromesAreSkippedForEvenK) {
  // k=2: AA (pos 1) = 0 vs TT = 15; AT (pos 2) is its own reverse complement: skipped.
  const auto m = run("AAT", 1, 2);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0], (Minimizer{hash64(0, 15) << 8 | 2, 1 << 1 | 0}));
  // AATA: the palindrome does not reset the valid count, TA (pos 3) = 12 vs TA: also a
  // palindrome; AATC: TC (pos 3) = 13 vs GA = 8: reverse.
  EXPECT_EQ(run("AATA", 1, 2).size(), 1u);
  const auto m2 = run("AATC", 1, 2);
  ASSERT_EQ(m2.size(), 2u);
  EXPECT_EQ(m2[1], (Minimizer{hash64(8, 15) << 8 | 2, 3 << 1 | 1}));
}

TEST(Sketch, AmbiguousBaseRestartsTheKmerAndDropsThePendingMinimizer) {
  // k=3, w=1. ACG (pos 2) is the pending minimum when N (pos 3) arrives; the window
  // state machine only emits it while l >= w+k-1, and l is 0 at the N: it is lost
  // (as in minimap2's mm_sketch). GTT (pos 6, reverse: AAC smaller) is emitted at the end.
  const auto m = run("ACGNGTT", 1, 3);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0], (Minimizer{hash64(1, 63) << 8 | 3, 6 << 1 | 1}));
  EXPECT_TRUE(run("ACGNGT", 1, 3).empty());
  // Followed by a base instead of N, ACG is emitted.
  EXPECT_EQ(run("ACGT", 1, 3).size(), 2u);
}

TEST(Sketch, HomopolymerCompression) {
  // Runs A3 C3 G1 T1: HPC k-mers ACG (ends at base 6, spans 3+3+1 = 7 bases) and CGT
  // (ends at 7, spans 3+1+1 = 5); both canonical to ACG = 6.
  const auto m = run("AAACCCGT", 1, 3, true);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0], (Minimizer{hash64(6, 63) << 8 | 7, 6 << 1 | 0}));
  EXPECT_EQ(m[1], (Minimizer{hash64(6, 63) << 8 | 5, 7 << 1 | 1}));
  // An N resets the runs (CGT, pending at the N, is lost as above); AGT after it spans
  // only its own runs AA GG TT.
  const auto n = run("AAACCCGTNAAGGTT", 1, 3, true);
  ASSERT_EQ(n.size(), 2u);
  EXPECT_EQ(n[0], m[0]);
  EXPECT_EQ(n[1].x & 0xff, 6u);
  EXPECT_EQ(n[1].y >> 1, 14u);
}

// mm_sketch's state machine in one pass, base by base, written plainly: the k-mer of each
// base is hashed and stepped through the window at once.
std::vector<Minimizer> one_pass(const std::string& seq, int w, int k, uint32_t rid, bool hpc) {
  constexpr uint64_t kE = ~uint64_t{0};
  const Minimizer none{kE, kE};
  std::vector<Minimizer> out, buf(static_cast<size_t>(w), none);
  const uint64_t mask = (uint64_t{1} << 2 * k) - 1;
  uint64_t fwd = 0, rev = 0;
  int l = 0, span = 0, pos = 0, min_pos = 0;
  std::deque<int> runs;
  Minimizer mn = none;
  const int len = static_cast<int>(seq.size());
  auto ties = [&](int a0, int a1, int b0, int b1) {
    for (int j = a0; j < a1; ++j)
      if (buf[j].x == mn.x && buf[j].y != mn.y) out.push_back(buf[j]);
    for (int j = b0; j < b1; ++j)
      if (buf[j].x == mn.x && buf[j].y != mn.y) out.push_back(buf[j]);
  };
  for (int i = 0; i < len; ++i) {
    const int c = nt4(seq[i]);
    Minimizer info = none;
    if (c < 4) {
      if (hpc) {
        int run = 1;
        while (i + run < len && nt4(seq[i + run]) == c) ++run;
        i += run - 1;
        runs.push_back(run), span += run;
        if (static_cast<int>(runs.size()) > k) span -= runs.front(), runs.pop_front();
      } else {
        span = std::min(l + 1, k);
      }
      fwd = (fwd << 2 | static_cast<uint64_t>(c)) & mask;
      rev = rev >> 2 | (uint64_t{3} ^ static_cast<uint64_t>(c)) << (2 * k - 2);
      if (fwd == rev) continue;
      const uint64_t z = fwd < rev ? 0 : 1;
      if (++l >= k && span < 256)
        info = {hash64(z ? rev : fwd, mask) << 8 | static_cast<uint64_t>(span),
                uint64_t{rid} << 32 | static_cast<uint32_t>(static_cast<uint32_t>(i) << 1) | z};
    } else {
      l = 0, span = 0, runs.clear();
    }
    buf[pos] = info;
    if (l == w + k - 1 && mn.x != kE) ties(pos + 1, w, 0, pos);
    if (info.x <= mn.x) {
      if (l >= w + k && mn.x != kE) out.push_back(mn);
      mn = info, min_pos = pos;
    } else if (pos == min_pos) {
      if (l >= w + k - 1 && mn.x != kE) out.push_back(mn);
      mn.x = kE;
      for (int j = pos + 1; j < w; ++j)
        if (mn.x >= buf[j].x) mn = buf[j], min_pos = j;
      for (int j = 0; j <= pos; ++j)
        if (mn.x >= buf[j].x) mn = buf[j], min_pos = j;
      if (l >= w + k - 1 && mn.x != kE) ties(pos + 1, w, 0, pos + 1);
    }
    if (++pos == w) pos = 0;
  }
  if (mn.x != kE) out.push_back(mn);
  return out;
}

TEST(Sketch, BlocksGiveTheOnePassResult) {
  std::mt19937_64 rng(5);
  int with_ties = 0;
  for (int iter = 0; iter < 60; ++iter) {
    const int k = 2 + static_cast<int>(rng() % 27), w = 1 + static_cast<int>(rng() % (iter % 3 ? 25 : 255));
    const bool hpc = rng() % 2;
    // Low-complexity stretches (two letters, short tandem repeats, homopolymers), N runs
    // and lower case in a sequence long enough for several blocks of steps.
    std::string s;
    while (s.size() < 9000 + rng() % 12000) {
      const int kind = static_cast<int>(rng() % 6), n = 1 + static_cast<int>(rng() % 300);
      for (int i = 0; i < n; ++i) {
        switch (kind) {
          case 0: s += "AC"[rng() % 2]; break;
          case 1: s += "ACGTTGCA"[i % 8]; break;
          case 2: s += std::string(1 + rng() % 6, "ACGT"[rng() % 4]); break;
          case 3: s += "NnRY"[rng() % 4]; break;
          case 4: s += "acgt"[rng() % 4]; break;
          default: s += "ACGT"[rng() % 4];
        }
      }
    }
    const uint32_t rid = static_cast<uint32_t>(rng() % 1000);
    const auto want = one_pass(s, w, k, rid, hpc);
    std::set<uint64_t> xs;
    for (const Minimizer& m : want) xs.insert(m.x);
    with_ties += xs.size() < want.size();
    ASSERT_EQ(run(s, w, k, hpc, rid), want) << "k=" << k << " w=" << w << " hpc=" << hpc << " len=" << s.size();
  }
  EXPECT_GT(with_ties, 10);  // the sequences do exercise equal hashes
}

// Pieces of a sequence, each scanned from a little before its start, give sketch()'s
// output together; a warm-up that cannot reproduce the state (an ambiguous base in it,
// too few k-mers) is refused, and the piece is scanned again from further back.
TEST(Sketch, PiecesGiveTheWholeResult) {
  std::mt19937_64 rng(17);
  int warm_ok = 0, warm_refused = 0;
  for (int iter = 0; iter < 40; ++iter) {
    const int k = 2 + static_cast<int>(rng() % 27), w = 1 + static_cast<int>(rng() % (iter % 3 ? 25 : 255));
    const bool hpc = rng() % 2;
    std::string s;
    while (s.size() < 20000 + rng() % 20000) {
      const int kind = static_cast<int>(rng() % 6), n = 1 + static_cast<int>(rng() % 400);
      for (int i = 0; i < n; ++i) {
        switch (kind) {
          case 0: s += "AC"[rng() % 2]; break;
          case 1: s += "ACGT"[i % 4]; break;  // palindromic k-mers for even k
          case 2: s += std::string(1 + rng() % 9, "ACGT"[rng() % 4]); break;
          case 3: s += (rng() % 8 ? "ACGT"[rng() % 4] : 'N'); break;
          default: s += "ACGT"[rng() % 4];
        }
      }
    }
    const uint32_t rid = static_cast<uint32_t>(rng() % 100);
    const int len = static_cast<int>(s.size());
    std::vector<int> cuts = {0, len};
    for (int c = 0; c < 4; ++c) cuts.push_back(static_cast<int>(rng() % static_cast<uint64_t>(len)));
    std::sort(cuts.begin(), cuts.end());
    std::vector<Minimizer> pieces;
    for (size_t p = 0; p + 1 < cuts.size(); ++p) {
      const int from = cuts[p], to = cuts[p + 1];
      bool done = false;
      for (const int back : {300, 3000}) {
        if (from - back <= 0) break;
        if (sketch_piece(s, w, k, rid, hpc, from - back, from, to, pieces)) {
          ++warm_ok, done = true;
          break;
        }
        ++warm_refused;
      }
      if (!done) {
        ASSERT_TRUE(sketch_piece(s, w, k, rid, hpc, 0, from, to, pieces));
      }
    }
    ASSERT_EQ(pieces, run(s, w, k, hpc, rid)) << "k=" << k << " w=" << w << " hpc=" << hpc << " len=" << len;
  }
  EXPECT_GT(warm_ok, 40);
  EXPECT_GT(warm_refused, 5);
}

// A long sequence on several threads (a contig as a query): sketch_parallel appends
// exactly sketch()'s output after what out already holds, for any thread count and piece
// size, N runs and homopolymer compression included.
TEST(Sketch, ParallelPiecesGiveTheWholeResult) {
  std::mt19937_64 rng(23);
  for (int iter = 0; iter < 12; ++iter) {
    const int k = 5 + static_cast<int>(rng() % 24), w = 1 + static_cast<int>(rng() % 40);
    const bool hpc = iter % 3 == 0;
    std::string s(30000 + rng() % 30000, 'A');
    for (char& c : s) c = rng() % 500 ? "ACGT"[rng() % 4] : 'N';
    if (iter % 4 == 1) std::fill(s.begin() + 9000, s.begin() + 15000, 'N');  // a long gap over a piece start
    const std::vector<Minimizer> want = run(s, w, k, hpc, 7);
    for (int threads : {1, 2, 3, 5})
      for (int min_piece : {1000, 7000, 100000}) {
        std::vector<Minimizer> got = {{1, 2}};  // appended after what is there
        sketch_parallel(s, w, k, 7, hpc, threads, min_piece, got);
        ASSERT_EQ(got.size(), want.size() + 1);
        EXPECT_TRUE(std::equal(want.begin(), want.end(), got.begin() + 1))
            << "k=" << k << " w=" << w << " hpc=" << hpc << " threads=" << threads << " min_piece=" << min_piece;
      }
  }
}

TEST(Sketch, MatchesBruteForceWithoutTies) {
  std::mt19937_64 rng(11);
  int checked = 0;
  for (int iter = 0; iter < 300; ++iter) {
    const int k = 5 + static_cast<int>(rng() % 20), w = 1 + static_cast<int>(rng() % 20);
    std::string s(50 + rng() % 400, 'A');
    for (char& c : s) c = "ACGT"[rng() % 4];
    if (k % 2) {  // odd k: no palindromes, so every position holds a k-mer
      std::vector<Minimizer> all;
      for (int i = k - 1; i < static_cast<int>(s.size()); ++i) {
        auto one = run(s.substr(i - k + 1, k), 1, k);
        all.push_back({one[0].x, static_cast<uint64_t>(i) << 1 | (one[0].y & 1)});
      }
      std::vector<Minimizer> want;
      bool ties = false;
      for (size_t st = 0; st + w <= all.size(); ++st) {
        auto lo = std::min_element(all.begin() + st, all.begin() + st + w,
                                   [](const Minimizer& a, const Minimizer& b) { return a.x < b.x; });
        ties |=
            std::count_if(all.begin() + st, all.begin() + st + w, [&](const Minimizer& m) { return m.x == lo->x; }) > 1;
        if (want.empty() || !(want.back() == *lo)) want.push_back(*lo);
      }
      if (ties || all.size() < static_cast<size_t>(w)) continue;
      EXPECT_EQ(run(s, w, k), want) << "k=" << k << " w=" << w << " seq=" << s;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
}

}  // namespace
}  // namespace agatha::index
