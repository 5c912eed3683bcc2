// tests/format/base_mods_test.cpp — MM/ML/MN rewritten for a slice of the read
// (format/base_mods.hpp): hand-made cases, and random reads, modifications and slices on
// both strands checked against htslib's decoding of the whole read's tags.
#include "src/format/base_mods.hpp"

#include <gtest/gtest.h>
#include <htslib/sam.h>

#include <random>
#include <set>
#include <string>
#include <tuple>

namespace agatha::format {
namespace {

std::string trim(std::string_view comment, std::string_view seq, int32_t b, int32_t e) {
  const auto t = trim_base_mods(comment, seq, b, e);
  return t ? *t : "<unchanged>";
}

TEST(BaseMods, FirstCallClipped) {
  // C at 1, 2, 5, 7; calls on the 1st, 2nd and 4th C.
  EXPECT_EQ(trim("MM:Z:C+m?,0,0,1;\tML:B:C,10,20,30", "ACCGTCAC", 2, 8), "MM:Z:C+m?,0,1;\tML:B:C,20,30\tMN:i:6");
}

TEST(BaseMods, LastCallClipped) {
  EXPECT_EQ(trim("MM:Z:C+m?,0,0,1;\tML:B:C,10,20,30", "ACCGTCAC", 0, 6), "MM:Z:C+m?,0,0;\tML:B:C,10,20\tMN:i:6");
}

TEST(BaseMods, AllCallsClipped) {
  EXPECT_EQ(trim("MM:Z:C+m?,0,0,1;\tML:B:C,10,20,30", "ACCGTCAC", 3, 5), "MM:Z:\tML:B:C\tMN:i:2");
  // Only the types left without calls go.
  EXPECT_EQ(trim("MM:Z:A+a.,0;C+m?,0,0,1;\tML:B:C,9,10,20,30", "ACCGTCAC", 3, 8), "MM:Z:C+m?,1;\tML:B:C,30\tMN:i:5");
}

TEST(BaseMods, TypeWithoutCallsAndNoMl) {
  EXPECT_EQ(trim("qs:i:9\tMM:Z:C+m?;", "ACCGTCAC", 1, 4), "qs:i:9\tMM:Z:\tMN:i:3");
}

TEST(BaseMods, NCountsEveryBase) {
  // Calls on bases 2 and 3 (any base): the slice [3, 5) keeps the second, first in it.
  EXPECT_EQ(trim("MM:Z:N+n?,2,0;\tML:B:C,5,6", "ACGTA", 3, 5), "MM:Z:N+n?,0;\tML:B:C,6\tMN:i:2");
}

TEST(BaseMods, SeveralCodesSeveralProbabilitiesACall) {
  // C+mh: two probabilities a call; A+a. (implicit mode) after it in ML.
  EXPECT_EQ(trim("MM:Z:C+mh?,0,1;A+a.,1;\tML:B:C,1,2,3,4,9", "CACCAA", 1, 6),
            "MM:Z:C+mh?,1;A+a.,1;\tML:B:C,3,4,9\tMN:i:5");
  EXPECT_EQ(trim("MM:Z:C+mh?,0,1;A+a.,1;\tML:B:C,1,2,3,4,9", "CACCAA", 0, 3),
            "MM:Z:C+mh?,0;\tML:B:C,1,2\tMN:i:3");
}

TEST(BaseMods, MnReplacedAndOtherTagsKeptInPlace) {
  EXPECT_EQ(trim("ch:i:3\tMN:i:8\tMM:Z:C+m.,1;\tdu:f:1.5\tML:B:C,7", "ACCGTCAC", 2, 8),
            "ch:i:3\tMN:i:6\tMM:Z:C+m.,0;\tdu:f:1.5\tML:B:C,7");
}

TEST(BaseMods, OlderTagNames) {
  EXPECT_EQ(trim("Mm:Z:C+m,0,0,1;\tMl:B:C,10,20,30", "ACCGTCAC", 2, 8), "Mm:Z:C+m,0,1;\tMl:B:C,20,30\tMN:i:6");
}

TEST(BaseMods, LowerCaseBasesAndUracil) {
  EXPECT_EQ(trim("MM:Z:U+b?,1;\tML:B:C,44", "atat", 2, 4), "MM:Z:U+b?,0;\tML:B:C,44\tMN:i:2");
}

TEST(BaseMods, NothingToDoOrNothingTrueToWrite) {
  EXPECT_EQ(trim("qs:i:9\tch:i:3", "ACGT", 1, 3), "<unchanged>");                           // no MM
  EXPECT_EQ(trim("MM:Z:C+m?,5;\tML:B:C,1", "ACCG", 0, 2), "<unchanged>");                   // more calls than Cs
  EXPECT_EQ(trim("MM:Z:C+m?,0,0;\tML:B:C,1", "ACCG", 0, 2), "<unchanged>");                 // ML too short
  EXPECT_EQ(trim("MM:Z:C+m?,0\tML:B:C,1", "ACCG", 0, 2), "<unchanged>");                    // no ';'
  EXPECT_EQ(trim("MM:Z:X+m?,0;\tML:B:C,1", "ACCG", 0, 2), "<unchanged>");                   // not a base
  EXPECT_EQ(trim("MM:Z:C+m?,0;\tML:B:C,300", "ACCG", 0, 2), "<unchanged>");                 // not 8 bits
  EXPECT_EQ(trim("MM:Z:C+m?,0;\tML:B:C,1", "ACCG", 3, 9), "<unchanged>");                   // slice past the end
}

// ---- against htslib ----

char complement(char c) {
  switch (c) {
    case 'A': return 'T';
    case 'C': return 'G';
    case 'G': return 'C';
    case 'T': return 'A';
    default: return 'N';
  }
}

std::string reverse_complement(const std::string& s) {
  std::string r(s.rbegin(), s.rend());
  for (char& c : r) c = complement(c);
  return r;
}

// The calls htslib decodes from a record of `read[b, e)` (reverse-complemented in SEQ
// when rev) carrying `tags`: (position in the whole read as sequenced, strand, code,
// probability).
std::set<std::tuple<int, int, int, int>> htslib_calls(const std::string& read, int b, int e, bool rev,
                                                      const std::string& tags) {
  const std::string slice = read.substr(static_cast<size_t>(b), static_cast<size_t>(e - b));
  const std::string seq = rev ? reverse_complement(slice) : slice;
  const std::string line = "r\t" + std::to_string(rev ? 16 : 0) + "\tc\t1\t60\t" + std::to_string(seq.size()) +
                           "M\t*\t0\t0\t" + seq + "\t*\t" + tags;
  sam_hdr_t* hdr = sam_hdr_parse(24, "@SQ\tSN:c\tLN:1000000\n");
  bam1_t* rec = bam_init1();
  kstring_t ks = {line.size(), line.size() + 1, strdup(line.c_str())};
  std::set<std::tuple<int, int, int, int>> calls;
  EXPECT_EQ(sam_parse1(&ks, hdr, rec), 0) << line;
  hts_base_mod_state* st = hts_base_mod_state_alloc();
  EXPECT_EQ(bam_parse_basemod(rec, st), 0) << tags;
  hts_base_mod mods[8];
  int pos = 0, n;
  while ((n = bam_next_basemod(rec, st, mods, 8, &pos)) > 0) {
    // SEQ index -> index in the read as sequenced.
    const int at = rev ? b + (e - b - 1 - pos) : b + pos;
    for (int j = 0; j < n && j < 8; ++j) calls.emplace(at, mods[j].strand, mods[j].modified_base, mods[j].qual);
  }
  EXPECT_EQ(n, 0) << tags;
  hts_base_mod_state_free(st);
  free(ks.s);
  bam_destroy1(rec);
  sam_hdr_destroy(hdr);
  return calls;
}

TEST(BaseMods, ReverseStrandRecordKeepsItsCallsOnTheirBases) {
  // A reverse-strand hard-clipped record holds the reverse complement of read[2, 8): the
  // tags stay in the read's own orientation, and htslib places the kept calls (read
  // positions 2 and 7) on the right bases of SEQ.
  const std::string read = "ACCGTCAC", tags = "MM:Z:C+m?,0,0,1;\tML:B:C,10,20,30";
  const std::string trimmed = trim(tags, read, 2, 8);
  EXPECT_EQ(trimmed, "MM:Z:C+m?,0,1;\tML:B:C,20,30\tMN:i:6");
  const std::set<std::tuple<int, int, int, int>> want = {{2, 0, 'm', 20}, {7, 0, 'm', 30}};
  EXPECT_EQ(htslib_calls(read, 2, 8, true, trimmed), want);
  EXPECT_EQ(htslib_calls(read, 2, 8, false, trimmed), want);
}

TEST(BaseMods, RandomSlicesOnBothStrandsDecodeAsTheWholeReadsCallsOnTheirBases) {
  std::mt19937 rng(20261206);
  const std::string types[] = {"C+mh?", "A+a.", "G-m?", "T+17802.", "N+n?", "C+m"};
  int compared = 0;
  for (int iter = 0; iter < 300; ++iter) {
    const int n = 20 + static_cast<int>(rng() % 200);
    std::string read(static_cast<size_t>(n), 'A');
    for (char& c : read) c = "ACGT"[rng() % 4];
    std::string mm = "MM:Z:", ml = "ML:B:C";
    for (const std::string& t : types) {
      if (rng() % 3 == 0) continue;
      const char base = t[0];
      const size_t codes = t.find_first_of(".?", 2) == std::string::npos ? t.size() - 2 : t.find_first_of(".?", 2) - 2;
      const size_t n_codes = (t[2] >= '0' && t[2] <= '9') ? 1 : codes;
      // Types with at least one call: htslib 1.16 misdecodes a `.` type without calls
      // (the referee, not the code under test, would be wrong).
      std::string entry = t, probs;
      int run = 0;
      for (const char c : read) {
        if (base != 'N' && c != base) continue;
        if (rng() % 3 == 0) {
          entry += "," + std::to_string(run), run = 0;
          for (size_t k = 0; k < n_codes; ++k) probs += "," + std::to_string(rng() % 256);
        } else {
          ++run;
        }
      }
      if (probs.empty()) continue;
      mm += entry + ";", ml += probs;
    }
    const std::string tags = mm + "\t" + ml;
    const int b = static_cast<int>(rng() % static_cast<unsigned>(n));
    const int e = b + 1 + static_cast<int>(rng() % static_cast<unsigned>(n - b));
    const auto trimmed = trim_base_mods(tags, read, b, e);
    ASSERT_TRUE(trimmed) << tags;
    ASSERT_NE(trimmed->find("\tMN:i:" + std::to_string(e - b)), std::string::npos) << *trimmed;
    for (const bool rev : {false, true}) {
      auto whole = htslib_calls(read, 0, n, rev, tags);
      std::erase_if(whole, [&](const auto& c) { return std::get<0>(c) < b || std::get<0>(c) >= e; });
      EXPECT_EQ(htslib_calls(read, b, e, rev, *trimmed), whole)
          << "read " << read << " slice [" << b << ", " << e << ") rev " << rev << "\n" << tags << "\n" << *trimmed;
      compared += static_cast<int>(whole.size());
    }
  }
  EXPECT_GT(compared, 1000);
}

}  // namespace
}  // namespace agatha::format
