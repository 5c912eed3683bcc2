// tests/cli/getopt_test.cpp — OptionScanner reads a command line as minimap2 2.24's
// ketopt does: permutation, clusters, attached and separate values, long options with
// prefixes and =VALUE, optional values, "--", and the word minimap2 names in its
// "unknown option" message (checked against minimap2 2.24's own output, quoted here).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "src/cli/getopt.hpp"

namespace agatha::cli {
namespace {

const LongOption kLongs[] = {
    {"secondary", ArgKind::kRequired, 300}, {"seed", ArgKind::kRequired, 301},  {"splice", ArgKind::kNone, 302},
    {"splice-flank", ArgKind::kRequired, 303}, {"cs", ArgKind::kOptional, 304}, {"sam", ArgKind::kNone, 'a'},
};
const char* const kShort = "ak:x:O:cH";

// Every option as "id" or "id=value" (id: the letter, or the long option's number), then
// "|" and the arguments; or "id!word" for kUnknown (word: the word minimap2 names) and
// ":" for kMissing, where the scan stops.
std::string scan(std::vector<std::string> words) {
  words.insert(words.begin(), "minimap2");
  OptionScanner s(std::move(words), kShort, kLongs);
  std::string out;
  for (int c; (c = s.next()) != OptionScanner::kEnd;) {
    if (c == OptionScanner::kUnknown) return out + "?!" + s.word_before();
    if (c == OptionScanner::kMissing) return out + ":";
    out += c < 256 ? std::string(1, static_cast<char>(c)) : std::to_string(c);
    if (s.value()) out += "=" + *s.value();
    out += " ";
  }
  out += "|";
  for (const std::string& a : s.arguments()) out += " " + a;
  return out;
}

TEST(OptionScanner, OptionsMayFollowArguments) {
  EXPECT_EQ(scan({"ref.fa", "-a", "reads.fq", "-k", "15"}), "a k=15 | ref.fa reads.fq");
  EXPECT_EQ(scan({"ref.fa", "reads.fq"}), "| ref.fa reads.fq");
  EXPECT_EQ(scan({"-", "-a"}), "a | -") << "'-' alone is an argument (standard input)";
}

TEST(OptionScanner, ShortOptionClustersAndAttachedValues) {
  EXPECT_EQ(scan({"-ax", "sr", "ref"}), "a x=sr | ref");
  EXPECT_EQ(scan({"-axsr", "ref"}), "a x=sr | ref");
  EXPECT_EQ(scan({"-cx", "asm5"}), "c x=asm5 |");
  EXPECT_EQ(scan({"-k15", "-O4,24"}), "k=15 O=4,24 |");
  EXPECT_EQ(scan({"-cH"}), "c H |");
  EXPECT_EQ(scan({"-k", "-5"}), "k=-5 |") << "a value is the next word, whatever it looks like";
}

TEST(OptionScanner, LongOptions) {
  EXPECT_EQ(scan({"--seed", "3", "--seed=4"}), "301=3 301=4 |");
  EXPECT_EQ(scan({"--sec=no"}), "300=no |") << "a unique prefix";
  EXPECT_EQ(scan({"--splice"}), "302 |") << "an exact name wins over longer ones";
  EXPECT_EQ(scan({"--splice-f", "yes"}), "303=yes |");
  EXPECT_EQ(scan({"--sam"}), "a |") << "a long name of a short option";
  // An optional value is only ever given with '='.
  EXPECT_EQ(scan({"--cs", "long"}), "304 | long");
  EXPECT_EQ(scan({"--cs=long"}), "304=long |");
  EXPECT_EQ(scan({"--cs="}), "304= |");
}

TEST(OptionScanner, DoubleDashEndsTheOptions) {
  EXPECT_EQ(scan({"ref", "-a", "--", "-k", "x"}), "a | ref -k x");
  EXPECT_EQ(scan({"--"}), "|");
}

TEST(OptionScanner, MissingValue) {
  EXPECT_EQ(scan({"ref", "-k"}), ":");
  EXPECT_EQ(scan({"ref", "--seed"}), ":");
  EXPECT_EQ(scan({"-a", "-x"}), "a :");
}

// minimap2 2.24 prints `[ERROR] unknown option in "WORD"` with the word before its scan
// position once the words are permuted: `minimap2 ref.fa -Z` names ref.fa, `minimap2 -Za
// ref.fa` and an ambiguous prefix (`--se=no`) the program, `minimap2 -aZ ref.fa` "-aZ".
TEST(OptionScanner, UnknownOptionsNameTheWordMinimap2Names) {
  EXPECT_EQ(scan({"ref.fa", "-Z"}), "?!ref.fa");
  EXPECT_EQ(scan({"-Za", "ref.fa"}), "?!minimap2");
  EXPECT_EQ(scan({"-aZ", "ref.fa"}), "a ?!-aZ");
  EXPECT_EQ(scan({"--bogus", "ref.fa"}), "?!--bogus");
  EXPECT_EQ(scan({"--se=no", "-a"}), "?!minimap2") << "ambiguous: secondary, seed";
  EXPECT_EQ(scan({"--s"}), "?!minimap2");
}

TEST(OptionScanner, OptionWordIsTheWordAsGiven) {
  OptionScanner s({"prog", "ref", "-aZ"}, kShort, kLongs);
  EXPECT_EQ(s.next(), 'a');
  EXPECT_EQ(s.next(), OptionScanner::kUnknown);
  EXPECT_EQ(s.option_word(), "-aZ");
}

}  // namespace
}  // namespace agatha::cli
