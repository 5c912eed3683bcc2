// `agatha compare`: minimap2 2.24 SAM against itself and against altered copies.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eval_test.hpp"
#include "support/files.hpp"

namespace agatha {
namespace {

using test::agatha;
using test::eval_data;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> v;
  size_t s = 0;
  for (size_t nl; (nl = text.find('\n', s)) != std::string::npos; s = nl + 1) v.push_back(text.substr(s, nl - s));
  return v;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& l : v) s += l + "\n";
  return s;
}

// Replaces tab-separated column COL (0-based) of LINE.
std::string set_column(const std::string& line, int col, const std::string& value) {
  size_t s = 0;
  for (int i = 0; i < col; ++i) s = line.find('\t', s) + 1;
  const size_t e = line.find('\t', s);
  return line.substr(0, s) + value + line.substr(e);
}

TEST(CompareCli, IdenticalToItself) {
  const std::string sam = eval_data("mm.map-pb.sam");
  const auto r = agatha("compare --fail-on-diff " + sam + " " + sam);
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out,
            "reads\tref 8\ttest 8\tboth 8\nidentical\t8\t100.00%\nsame_position\t8\t100.00%\nsame_cigar\t8\t100.00%\n"
            "same_mapq\t8\t100.00%\nsame_tags\t8\t100.00%\nmissing_in_test\t0\nextra_in_test\t0\n");
}

TEST(CompareCli, ReportsEachAlteredRead) {
  test::TempDir d;
  std::vector<std::string> l = lines(test::read_file(eval_data("mm.map-pb.sam")));
  ASSERT_EQ(l.size(), 10u);                           // 2 header lines, reads S1_1..S1_8
  l[2] = set_column(l[2], 3, "9900");                 // S1_1 position
  l[3] = set_column(l[3], 4, "7");                    // S1_2 MAPQ
  l[4].replace(l[4].find("\tNM:i:"), 6, "\tNM:i:9");  // S1_3 tag
  l[5] = set_column(l[5], 1, l[5].find("\t16\t") != std::string::npos ? "0" : "16");  // S1_4 strand
  l.erase(l.begin() + 6);                                                             // S1_5 missing
  l.push_back("extra1\t4\t*\t0\t0\t*\t*\t0\t0\tACGT\t*");
  const std::string ref = eval_data("mm.map-pb.sam"), alt = d.write("alt.sam", join(l));
  const auto r = agatha("compare --fail-on-diff --show 10 " + ref + " " + alt);
  EXPECT_EQ(r.code, 1);
  const std::vector<std::string> out = lines(r.out);
  ASSERT_GE(out.size(), 8u) << r.out;
  EXPECT_EQ(
      join({out.begin(), out.begin() + 8}),
      "reads\tref 8\ttest 8\tboth 7\nidentical\t3\t37.50%\nsame_position\t5\t62.50%\nsame_cigar\t7\t87.50%\n"
      "same_mapq\t6\t75.00%\nsame_tags\t6\t75.00%\nmissing_in_test\t1\te.g. S1_5\nextra_in_test\t1\te.g. extra1\n");
  std::vector<std::string> diffs;
  for (const std::string& s : out)
    if (s.rfind("diff\t", 0) == 0) diffs.push_back(s);
  EXPECT_EQ(join(diffs),
            "diff\tS1_1\tposition,records\ndiff\tS1_2\tmapq,records\ndiff\tS1_3\ttags,records\n"
            "diff\tS1_4\tposition,records\n");
  EXPECT_NE(r.out.find("<\tS1_2\t"), std::string::npos);
  EXPECT_NE(r.out.find(">\tS1_2\t"), std::string::npos);
}

TEST(CompareCli, SamAgainstBamAndPaf) {
  test::TempDir d;
  const std::string sam = eval_data("cases.sam"), bam = eval_data("cases.bam");
  auto r = agatha("compare --fail-on-diff " + sam + " " + bam);
  EXPECT_EQ(r.code, 0) << r.out;
  r = agatha("compare " + eval_data("cases.paf") + " " + eval_data("cases.paf"));
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("identical\t8\t100.00%\n"), std::string::npos) << r.out;
}

// CLI11 alone reads a size_t with strtoull in base 0: "-1" as the largest value, "010"
// as 8.
TEST(CompareCli, ShowTakesADecimalCount) {
  const std::string sam = eval_data("cases.sam");
  for (const char* v : {"-1", "1.5", "x", "0x10", " 1"}) {
    const auto r = agatha("compare '--show=" + std::string(v) + "' " + sam + " " + sam);
    EXPECT_EQ(r.code, 1) << v;
    EXPECT_NE(r.out.find("--show: '" + std::string(v) + "' is not a non-negative integer"), std::string::npos)
        << v << ": " << r.out;
  }
  // 12 reads that differ in MAPQ: --show 010 shows 10 of them.
  test::TempDir d;
  std::string a, b;
  for (int i = 0; i < 12; ++i) {
    const std::string name = std::to_string(i);
    a.append(name).append("\t4\t*\t0\t0\t*\t*\t0\t0\tACGT\t*\n");
    b.append(name).append("\t4\t*\t0\t1\t*\t*\t0\t0\tACGT\t*\n");
  }
  const auto r = agatha("compare --show 010 " + d.write("a.sam", a) + " " + d.write("b.sam", b));
  EXPECT_EQ(r.code, 0);
  size_t shown = 0;
  for (const std::string& l : lines(r.out)) shown += l.rfind("diff\t", 0) == 0;
  EXPECT_EQ(shown, 10u) << r.out;
  EXPECT_EQ(agatha("compare --show 0 " + sam + " " + sam).code, 0);
}

TEST(CompareCli, MissingFileIsAnError) {
  const auto r = agatha("compare /nonexistent/a.sam /nonexistent/b.sam");
  EXPECT_EQ(r.code, 1);  // a command-line error, as minimap2 exits
  EXPECT_NE(r.out.find("File does not exist: /nonexistent/a.sam"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace agatha
