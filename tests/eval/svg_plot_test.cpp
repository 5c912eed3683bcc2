// SVG plots: well-formed XML, two axes with labels, one curve and one legend per input.
// Parsed as text; no browser needed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eval_test.hpp"
#include "support/files.hpp"

namespace agatha {
namespace {

using test::agatha;

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = 0; (p = s.find(what, p)) != std::string::npos; p += what.size()) ++n;
  return n;
}

// Every start tag is closed in order (a minimal well-formedness check).
bool balanced(const std::string& svg) {
  std::vector<std::string> stack;
  for (size_t p = 0; (p = svg.find('<', p)) != std::string::npos; ++p) {
    const size_t e = svg.find('>', p);
    if (e == std::string::npos) return false;
    const std::string tag = svg.substr(p + 1, e - p - 1);
    if (tag[0] == '?' || tag.back() == '/') continue;
    const std::string name = tag.substr(tag[0] == '/' ? 1 : 0, tag.find_first_of(" \t\n") - (tag[0] == '/' ? 1 : 0));
    if (tag[0] != '/') {
      stack.push_back(name);
    } else {
      if (stack.empty() || stack.back() != name) return false;
      stack.pop_back();
    }
  }
  return stack.empty();
}

TEST(SvgPlot, EvalPlotOfTwoInputs) {
  test::TempDir d;
  const std::string svg = (d / "p.svg").string();
  const auto r = agatha("eval --truth " + test::eval_data("truth.maf") + " -l 'sam<1>' -l paf " +
                            test::eval_data("cases.sam") + " " + test::eval_data("cases.paf") + " --plot " + svg,
                        "2>/dev/null >/dev/null");
  ASSERT_EQ(r.code, 0);
  const std::string s = test::read_file(svg);
  EXPECT_TRUE(balanced(s));
  EXPECT_EQ(count(s, "<svg xmlns=\"http://www.w3.org/2000/svg\""), 1u);
  EXPECT_EQ(count(s, "<g class=\"axis x\">"), 1u);
  EXPECT_EQ(count(s, "<g class=\"axis y\">"), 1u);
  EXPECT_EQ(count(s, "class=\"axis-label\""), 2u);
  EXPECT_NE(s.find("error rate of reads mapped at MAPQ &gt;= Q (log scale)"), std::string::npos);
  EXPECT_EQ(count(s, "<g class=\"curve\""), 2u);
  EXPECT_EQ(count(s, "<polyline"), 2u);
  EXPECT_EQ(count(s, "<circle"), 14u);  // 7 thresholds per input
  EXPECT_NE(s.find("class=\"legend\">sam&lt;1&gt;</text>"), std::string::npos) << s;
  EXPECT_NE(s.find("class=\"legend\">paf</text>"), std::string::npos);
}

TEST(SvgPlot, ComparePlot) {
  test::TempDir d;
  const std::string svg = (d / "c.svg").string();
  const std::string sam = test::eval_data("mm.map-pb.sam");
  ASSERT_EQ(agatha("compare " + sam + " " + sam + " --plot " + svg, ">/dev/null").code, 0);
  const std::string s = test::read_file(svg);
  EXPECT_TRUE(balanced(s));
  EXPECT_EQ(count(s, "<g class=\"bar\">"), 7u);
  EXPECT_NE(s.find(">8 (100.00%)</text>"), std::string::npos);
}

}  // namespace
}  // namespace agatha
