// The status lines of long work, end to end: `agatha align`, `agatha index` and
// `agatha minimap2` run with stderr a pseudo-terminal show their progress (bases
// indexed, reads aligned, rate) on one rewritten line whose counts grow to the totals;
// with stderr a pipe, with --quiet or with -v below 3 they show none; stdout is the same
// byte for byte either way. The interval is shortened with AGATHA_PROGRESS_INTERVAL_MS
// so that the checks do not depend on the machine's speed.
//
// The inputs are generated: a 2 Mb random reference with 10,000 reads of 1-2 kb drawn
// from it (either strand), and for the index build a 400 Mb random reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "src/cli/progress_lines.hpp"
#include "src/io/index_file.hpp"
#include "support/files.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"
#include "support/text.hpp"

namespace agatha {
namespace {

constexpr int kReads = 10000;

TEST(ProgressLines, ReadsTextCountsRateAndVerb) {
  util::ProgressCounts c;
  c.items = 12340, c.bases = 98'700'000, c.seconds = 10;
  EXPECT_EQ(cli::reads_text("align", "aligned")(c), "[M::align] aligned 12,340 reads (98.7 Mb), 1,234 reads/s");
  c.items = 5, c.bases = 7000, c.seconds = 2;
  EXPECT_EQ(cli::reads_text("align", "mapped")(c), "[M::align] mapped 5 reads (0.0 Mb), 2.5 reads/s");
}

TEST(ProgressLines, IndexingTextReadingBuildingDone) {
  util::ProgressCounts c;
  c.items = 10, c.bases = 123'400'000, c.seconds = 2.5;
  EXPECT_EQ(cli::indexing_text("align")(c), "[M::align] indexing: 123.4 Mb read, 49.4 Mb/s");
  c.stage = io::IndexParts::kBuilding, c.seconds = 31.24;
  EXPECT_EQ(cli::indexing_text("align")(c), "[M::align] indexing: 123.4 Mb read; building the index (31.2 s)");
  c.done = true, c.seconds = 35;
  EXPECT_EQ(cli::indexing_text("index")(c), "[M::index] indexed 123.4 Mb in 35.0 s");
}

// Random bases, 32 from each draw.
std::string random_bases(std::mt19937_64& rng, size_t n) {
  std::string s(n, 'A');
  uint64_t bits = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i % 32 == 0) bits = rng();
    s[i] = "ACGT"[bits & 3];
    bits >>= 2;
  }
  return s;
}

std::string reverse_complement(const std::string& s) {
  std::string r(s.rbegin(), s.rend());
  for (char& c : r) c = c == 'A' ? 'T' : c == 'C' ? 'G' : c == 'G' ? 'C' : 'A';
  return r;
}

using test::status_lines;

// No trace of a status line.
void expect_no_status(const test::CommandResult& r) {
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("\033[K"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("reads/s"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("indexing:"), std::string::npos) << r.err;
}

uint64_t number(const std::string& with_commas) {
  std::string digits;
  for (char c : with_commas)
    if (c != ',') digits += c;
  return std::stoull(digits);
}

// SAM text without its @PG line (which holds the command line).
std::string without_pg(const std::string& sam) {
  std::string out;
  for (size_t at = 0; at < sam.size();) {
    size_t end = sam.find('\n', at);
    end = end == std::string::npos ? sam.size() : end + 1;
    if (sam.compare(at, 4, "@PG\t") != 0) out.append(sam, at, end - at);
    at = end;
  }
  return out;
}

// "AGATHA_PROGRESS_INTERVAL_MS=MS AGATHA ARGS"
std::string with_interval(int ms, const std::string& args) {
  return "AGATHA_PROGRESS_INTERVAL_MS=" + std::to_string(ms) + " " + test::shell_quote(test::agatha_binary()) + " " +
         args;
}

class Progress : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<test::TempDir>();
    std::mt19937_64 rng(20240531);
    std::vector<std::string> chroms;
    std::string ref;
    for (int c = 0; c < 4; ++c) {
      chroms.push_back(random_bases(rng, 500'000));
      ref += ">chr" + std::to_string(c) + "\n" + chroms.back() + "\n";
    }
    std::string reads;
    for (int i = 0; i < kReads; ++i) {
      const std::string& chrom = chroms[rng() % chroms.size()];
      const size_t len = 1000 + rng() % 1001;
      std::string r = chrom.substr(rng() % (chrom.size() - len), len);
      if (rng() % 2) r = reverse_complement(r);
      reads += ">read" + std::to_string(i) + "\n" + r + "\n";
      read_bases_ += len;
    }
    ref_ = dir_->write("ref.fa", ref);
    reads_ = dir_->write("reads.fa", reads);
  }
  static void TearDownTestSuite() { dir_.reset(); }

  static std::unique_ptr<test::TempDir> dir_;
  static std::string ref_, reads_;
  static uint64_t read_bases_;
};
std::unique_ptr<test::TempDir> Progress::dir_;
std::string Progress::ref_, Progress::reads_;
uint64_t Progress::read_bases_ = 0;

// The read counts of the status lines "[M::PREFIX] VERB N reads (X Mb), R reads/s", in
// order; checks each line's form.
std::vector<uint64_t> read_counts(const std::vector<std::string>& lines, const std::string& prefix,
                                  const std::string& verb, std::string* last_mb) {
  const std::regex form("\\[M::" + prefix + "\\] " + verb +
                        " ([0-9]{1,3}(,[0-9]{3})*) reads \\(([0-9]+\\.[0-9]) Mb\\), ([0-9][0-9,.]*) reads/s");
  std::vector<uint64_t> counts;
  for (const std::string& l : lines) {
    std::smatch m;
    if (!std::regex_match(l, m, form)) {
      ADD_FAILURE() << "not a status line of " << verb << " reads: '" << l << "'";
      continue;
    }
    counts.push_back(number(m[1]));
    *last_mb = m[3];
  }
  return counts;
}

// Counts that never go down, none above the total, some strictly between 0 and the
// total, and the last the total.
void expect_growing_to(const std::vector<uint64_t>& counts, uint64_t total) {
  ASSERT_GE(counts.size(), 2u);
  bool between = false;
  for (size_t i = 0; i < counts.size(); ++i) {
    EXPECT_LE(counts[i], total);
    if (i > 0) {
      EXPECT_GE(counts[i], counts[i - 1]);
    }
    between |= counts[i] > 0 && counts[i] < total;
  }
  EXPECT_TRUE(between) << "no line shows the work under way";
  EXPECT_EQ(counts.back(), total);
}

TEST_F(Progress, AlignmentShowsReadsAlignedOnATerminalOnly) {
  const std::string args = "align --dp-backend cpu -t 2 " + ref_ + " " + reads_;
  const test::CommandResult tty = test::run_shell_on_tty(with_interval(50, args));
  ASSERT_EQ(tty.code, 0) << tty.err;
  std::vector<std::string> lines = status_lines(tty.err);
  // The reference's index build may show lines of its own first.
  std::erase_if(lines, [](const std::string& l) { return l.starts_with("[M::align] index"); });
  std::string last_mb;
  expect_growing_to(read_counts(lines, "align", "aligned", &last_mb), kReads);
  char mb[32];
  std::snprintf(mb, sizeof mb, "%.1f", static_cast<double>(read_bases_) / 1e6);
  EXPECT_EQ(last_mb, mb);
  // The last status line is ended before the summary, which follows on a line of its own.
  EXPECT_NE(tty.err.find("reads/s\033[K\n[M::align] "), std::string::npos) << tty.err;
  EXPECT_NE(tty.err.find("] aligned 10000 sequences ("), std::string::npos);

  const test::CommandResult pipe = test::run_shell(with_interval(50, args));
  ASSERT_EQ(pipe.code, 0) << pipe.err;
  expect_no_status(pipe);
  EXPECT_NE(pipe.err.find("] aligned 10000 sequences ("), std::string::npos);
  EXPECT_EQ(tty.out.size(), pipe.out.size());
  EXPECT_TRUE(tty.out == pipe.out) << "stdout differs with stderr a terminal";
  EXPECT_EQ(std::count(pipe.out.begin(), pipe.out.end(), '\n'), kReads + 6);  // @HD, 4 @SQ, @PG

  const test::CommandResult quiet = test::run_shell_on_tty(with_interval(50, args + " --quiet"));
  ASSERT_EQ(quiet.code, 0) << quiet.err;
  expect_no_status(quiet);
  EXPECT_NE(quiet.err.find("] aligned 10000 sequences ("), std::string::npos);  // -v's lines stay
  EXPECT_TRUE(without_pg(quiet.out) == without_pg(pipe.out));  // @PG's CL has --quiet
  EXPECT_NE(quiet.out.find("\tCL:"), std::string::npos);
}

TEST_F(Progress, VerbosityBelowThreeShowsNoStatusLine) {
  const test::CommandResult r =
      test::run_shell_on_tty(with_interval(20, "align --map-only -v 2 " + ref_ + " " + reads_));
  ASSERT_EQ(r.code, 0) << r.err;
  expect_no_status(r);
  EXPECT_EQ(r.err, "");
}

TEST_F(Progress, Minimap2CommandShowsReadsMappedOnATerminal) {
  // minimap2's command line has no --quiet: the terminal and -v decide.
  const std::string args = "minimap2 -t 2 -K 2M " + ref_ + " " + reads_;
  const test::CommandResult tty = test::run_shell_on_tty(with_interval(20, args));
  ASSERT_EQ(tty.code, 0) << tty.err;
  std::vector<std::string> lines = status_lines(tty.err);
  std::erase_if(lines, [](const std::string& l) { return l.starts_with("[M::align] index"); });
  std::string last_mb;
  const std::vector<uint64_t> counts = read_counts(lines, "align", "mapped", &last_mb);
  ASSERT_FALSE(counts.empty());
  EXPECT_EQ(counts.back(), static_cast<uint64_t>(kReads));
  const test::CommandResult pipe = test::run_shell(with_interval(20, args));
  ASSERT_EQ(pipe.code, 0) << pipe.err;
  expect_no_status(pipe);
  EXPECT_TRUE(tty.out == pipe.out);
  EXPECT_FALSE(pipe.out.empty());
  const test::CommandResult quiet = test::run_agatha("minimap2 --quiet " + ref_ + " " + reads_ + " 2>&1");
  EXPECT_EQ(quiet.code, 1);  // not one of minimap2's options
}

TEST_F(Progress, IndexCommandShowsBasesReadOnATerminalUnlessQuiet) {
  const std::string args = "index " + ref_ + " -o " + dir_->file("ref.agi");
  const test::CommandResult tty = test::run_shell_on_tty(with_interval(1, args));
  ASSERT_EQ(tty.code, 0) << tty.err;
  const std::vector<std::string> lines = status_lines(tty.err);
  ASSERT_FALSE(lines.empty()) << tty.err;
  EXPECT_TRUE(std::regex_match(lines.back(), std::regex("\\[M::index\\] indexed 2\\.0 Mb in [0-9]+\\.[0-9] s")))
      << lines.back();
  EXPECT_NE(tty.err.find(" s\033[K\n[M::index] 4 target sequence(s)"), std::string::npos) << tty.err;
  const std::string agi = test::read_file(dir_->file("ref.agi"));
  const test::CommandResult pipe = test::run_shell(with_interval(1, args));
  ASSERT_EQ(pipe.code, 0) << pipe.err;
  expect_no_status(pipe);
  EXPECT_TRUE(test::read_file(dir_->file("ref.agi")) == agi);  // the same index either way
  const test::CommandResult quiet = test::run_shell_on_tty(with_interval(1, args + " --quiet"));
  ASSERT_EQ(quiet.code, 0) << quiet.err;
  expect_no_status(quiet);
}

// A 400 Mb reference (400 sequences of 1 Mb) indexed by `agatha align -d`: the bases
// read grow to 400.0 Mb, then the index is built and the final line says so.
TEST(ProgressLargeIndex, IndexBuildOf400MbShowsBasesRead) {
  test::TempDir dir;
  const std::string ref = dir.file("big.fa");
  {
    std::ofstream f(ref, std::ios::binary);
    std::mt19937_64 rng(400);
    for (int i = 0; i < 400; ++i) f << ">s" << i << "\n" << random_bases(rng, 1'000'000) << "\n";
    ASSERT_TRUE(f.good());
  }
  const auto t0 = std::chrono::steady_clock::now();
  const test::CommandResult tty = test::run_shell_on_tty(with_interval(200, "align -d /dev/null " + ref));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(tty.code, 0) << tty.err;
  const std::vector<std::string> lines = status_lines(tty.err);
  const std::regex reading("\\[M::align\\] indexing: ([0-9]+\\.[0-9]) Mb read, ([0-9][0-9,.]*) Mb/s");
  const std::regex building("\\[M::align\\] indexing: 400\\.0 Mb read; building the index \\([0-9]+\\.[0-9] s\\)");
  std::vector<double> read_mb;
  size_t building_lines = 0;
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    std::smatch m;
    if (std::regex_match(lines[i], m, reading)) {
      EXPECT_EQ(building_lines, 0u) << "reading after building: " << lines[i];
      read_mb.push_back(std::stod(m[1]));
    } else if (std::regex_match(lines[i], building)) {
      ++building_lines;
    } else {
      ADD_FAILURE() << "not a status line of the index build: '" << lines[i] << "'";
    }
  }
  ASSERT_FALSE(read_mb.empty()) << tty.err;
  for (size_t i = 0; i < read_mb.size(); ++i) {
    EXPECT_LE(read_mb[i], 400.0);
    if (i > 0) {
      EXPECT_GE(read_mb[i], read_mb[i - 1]);
    }
  }
  EXPECT_LT(read_mb.front(), 400.0) << "no line shows the reading under way";
  ASSERT_FALSE(lines.empty());
  EXPECT_TRUE(std::regex_match(lines.back(), std::regex("\\[M::align\\] indexed 400\\.0 Mb in [0-9]+\\.[0-9] s")))
      << lines.back();
  EXPECT_NE(tty.err.find(" s\033[K\n[M::align::"), std::string::npos);
  EXPECT_NE(tty.err.find("loaded/built the index for 400 target sequence(s)"), std::string::npos);
  std::printf("[ info ] 400 Mb index build: %.1f s, %zu status lines (%zu while reading, %zu while building)\n",
              seconds, lines.size(), read_mb.size(), building_lines);
}

}  // namespace
}  // namespace agatha
