// util::Progress: the status line's helpers (commas, megabases, rates), and the ticker:
// lines rewritten in place at the interval, the final line with the final counts and a
// newline, nothing at all for work that ends before the first tick.
#include "src/util/progress.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "support/text.hpp"

namespace agatha::util {
namespace {

using namespace std::chrono_literals;

TEST(ProgressText, CommasBetweenGroupsOfThreeDigits) {
  EXPECT_EQ(with_commas(0), "0");
  EXPECT_EQ(with_commas(999), "999");
  EXPECT_EQ(with_commas(1000), "1,000");
  EXPECT_EQ(with_commas(12345), "12,345");
  EXPECT_EQ(with_commas(1234567), "1,234,567");
  EXPECT_EQ(with_commas(18446744073709551615ull), "18,446,744,073,709,551,615");
}

TEST(ProgressText, MegabasesWithOneDecimal) {
  EXPECT_EQ(megabases(0), "0.0 Mb");
  EXPECT_EQ(megabases(98'700'000), "98.7 Mb");
  EXPECT_EQ(megabases(400'000'000), "400.0 Mb");
  EXPECT_EQ(megabases(49'999), "0.0 Mb");
  EXPECT_EQ(megabases(50'001), "0.1 Mb");
}

TEST(ProgressText, RateWithOneDecimalBelowAHundredAndCommasAbove) {
  EXPECT_EQ(per_second(0, 0), "0");   // no time yet
  EXPECT_EQ(per_second(10, -1), "0");
  EXPECT_EQ(per_second(91.2, 2), "45.6");
  EXPECT_EQ(per_second(12340, 10), "1,234");
  EXPECT_EQ(per_second(12345, 10), "1,235");  // halves away from zero
  EXPECT_EQ(per_second(99.94, 1), "99.9");
  EXPECT_EQ(per_second(100, 1), "100");
}

// A Progress writing to a temporary file, and what it wrote.
class ProgressOut : public ::testing::Test {
 protected:
  void SetUp() override {
    f_ = std::tmpfile();
    ASSERT_NE(f_, nullptr);
  }
  void TearDown() override { std::fclose(f_); }
  std::string written() {
    std::fflush(f_);
    std::rewind(f_);
    std::string s;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f_)) > 0) s.append(buf, n);
    return s;
  }
  // The texts between "\r" and "\033[K", in order.
  static std::vector<std::string> lines(const std::string& s) { return test::status_lines(s); }
  static std::string text(const ProgressCounts& c) {
    return std::to_string(c.items) + " items " + std::to_string(c.bases) + " bases stage " + std::to_string(c.stage) +
           (c.done ? " done" : "");
  }
  // Waits (at most 10 s) until p has shown n lines.
  static void wait_for_lines(const Progress& p, uint64_t n) {
    for (int i = 0; i < 10000 && p.lines_shown() < n; ++i) std::this_thread::sleep_for(1ms);
  }
  std::FILE* f_ = nullptr;
};

TEST_F(ProgressOut, RewritesOneLineAtTheIntervalAndEndsItWithTheFinalCounts) {
  Progress p(f_, text, 5ms);
  p.add(3, 300);
  // The second line shown from now on was made after the add, whatever the scheduling.
  wait_for_lines(p, p.lines_shown() + 2);
  p.add(4, 400);
  p.set_stage(1);
  wait_for_lines(p, p.lines_shown() + 2);
  p.finish();
  const uint64_t shown = p.lines_shown();
  p.finish();  // again: nothing more
  EXPECT_EQ(p.lines_shown(), shown);
  const std::string s = written();
  const std::vector<std::string> v = lines(s);
  ASSERT_GE(v.size(), 5u);
  EXPECT_EQ(v.size(), shown);
  for (const std::string& l : v)
    EXPECT_TRUE(l == "0 items 0 bases stage 0" || l == "3 items 300 bases stage 0" || l == "3 items 300 bases stage 1" ||
                l == "7 items 700 bases stage 0" || l == "7 items 700 bases stage 1" || l == "7 items 700 bases stage 1 done")
        << l;
  EXPECT_NE(std::find(v.begin(), v.end(), "3 items 300 bases stage 0"), v.end());
  EXPECT_EQ(v[v.size() - 2], "7 items 700 bases stage 1");
  EXPECT_EQ(v.back(), "7 items 700 bases stage 1 done");
  // Every line rewrites the one before; only the last ends with a newline.
  EXPECT_EQ(s.substr(0, 1), "\r");
  EXPECT_TRUE(s.ends_with("\033[K\n"));
  EXPECT_EQ(s.find('\n'), s.size() - 1);
}

TEST_F(ProgressOut, WorkEndingBeforeTheFirstTickShowsNothing) {
  {
    Progress p(f_, text, std::chrono::hours(1));
    p.add(10, 1000);
    p.finish();
    EXPECT_EQ(p.lines_shown(), 0u);
    EXPECT_EQ(p.counts().items, 10u);
    EXPECT_EQ(p.counts().bases, 1000u);
  }
  EXPECT_EQ(written(), "");
}

TEST_F(ProgressOut, WorkEndedByAnExceptionEndsTheLineWithoutCallingItDone) {
  try {
    Progress p(f_, text, 5ms);
    p.add(1, 2);
    wait_for_lines(p, 1);
    throw std::runtime_error("stop");
  } catch (const std::runtime_error&) {
  }
  const std::vector<std::string> v = lines(written());
  ASSERT_GE(v.size(), 2u);
  EXPECT_EQ(v.back(), "1 items 2 bases stage 0");
  EXPECT_TRUE(written().ends_with("\033[K\n"));
}

TEST_F(ProgressOut, CountsFromManyThreadsAddUp) {
  Progress p(f_, text, 2ms);
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; ++t)
    workers.emplace_back([&p] {
      for (int i = 0; i < 10000; ++i) p.add(1, 3);
    });
  for (std::thread& w : workers) w.join();
  wait_for_lines(p, 1);
  p.finish();
  EXPECT_EQ(p.counts().items, 40000u);
  EXPECT_EQ(p.counts().bases, 120000u);
  EXPECT_EQ(lines(written()).back(), "40000 items 120000 bases stage 0 done");
}

}  // namespace
}  // namespace agatha::util
