// tests/oracles/oracles_test.cpp — the end-to-end fixtures are the oracles' own output:
// every case of tests/data/e2e/cases.tsv and minimap2-cases.tsv is run through each
// minimap2 release that agatha is compatible with, and what it prints must equal the
// committed fixture, @PG lines aside (they hold the command line): minimap2 2.24
// (Debian's package, `2.24-r1122`) against tests/data/e2e/expected/, minimap2 2.31
// (built from PyPI's mappy 2.31 sdist by scripts/minimap2-231.sh, the Meson target
// tests/minimap2-2.31) against expected-2.31/. A case that a release rejects has
// NAME.error there instead ("exit CODE", then the last line of stderr). The help texts
// (mm2_help*.txt.gz) are compared whole. Each test skips, saying why, when its release's
// program is not available. The cases run in parallel threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/files.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"
#include "support/text.hpp"

#ifndef AGATHA_MINIMAP2_224
#define AGATHA_MINIMAP2_224 ""
#endif
#ifndef AGATHA_MINIMAP2_231
#define AGATHA_MINIMAP2_231 ""
#endif

namespace agatha {
namespace {

namespace fs = std::filesystem;
using test::shell_quote;

struct Release {
  const char* name;       // for the test's name: 2_24, 2_31
  const char* version;    // what `minimap2 --version` prints
  const char* expected;   // the fixtures' directory under tests/data/e2e
  const char* env;        // an environment variable that names the program instead
  const char* built_in;   // the path Meson knows (found or built), may be empty
};

const Release kReleases[] = {
    {"2_24", "2.24-r1122", "expected", "MINIMAP2_224", AGATHA_MINIMAP2_224},
    {"2_31", "2.31-r1302", "expected-2.31", "MINIMAP2_231", AGATHA_MINIMAP2_231},
};

// One run of the oracle: the shell command (from the repository root), the fixture's
// path (without .gz for an error case), and whether its stdout or an -o file is the output.
struct OracleRun {
  std::string label, args, fixture_base, out_file;
  std::string reads_from;  // SAM/BAM/CRAM reads: given to minimap2 on stdin by samtools fastq
};

bool alignment_format(const std::string& reads) {
  return reads.ends_with(".bam") || reads.ends_with(".cram") || reads.ends_with(".sam.gz");
}

std::string without_pg(const std::string& text) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.starts_with("@PG")) out += line + "\n";
  return out;
}

std::string first_difference(const std::string& want, const std::string& got) {
  std::istringstream a(want), b(got);
  std::string la, lb;
  for (int n = 1;; ++n) {
    const bool ea = !std::getline(a, la), eb = !std::getline(b, lb);
    if (ea && eb) return "";
    if (ea || eb || la != lb)
      return "line " + std::to_string(n) + ":\n  fixture: " + (ea ? "<end>" : la.substr(0, 300)) +
             "\n  oracle:  " + (eb ? "<end>" : lb.substr(0, 300));
  }
}

// The runs of both case files (cases.tsv: OPTIONS REFERENCE READS; minimap2-cases.tsv:
// ARGS with @OUT for an -o file) and of the two help texts.
std::vector<OracleRun> load_runs(const std::string& dir, const fs::path& scratch) {
  std::vector<OracleRun> runs;
  const std::string e2e = "tests/data/e2e/";
  {
    std::ifstream in(test::source_path(e2e + "cases.tsv"));
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      const auto f = test::split_tabs(line);
      if (f.size() != 5) continue;
      // SAM/BAM/CRAM reads reach minimap2 as `samtools fastq -T '*'` writes them
      // (make-fixtures.sh).
      if (alignment_format(f[3]))
        runs.push_back({f[0], f[4] + " " + f[2] + " -", e2e + dir + "/" + f[0] + "." + f[1], "", f[3]});
      else
        runs.push_back({f[0], f[4] + " " + f[2] + " " + f[3], e2e + dir + "/" + f[0] + "." + f[1], ""});
    }
  }
  {
    std::ifstream in(test::source_path(e2e + "minimap2-cases.tsv"));
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      const auto f = test::split_tabs(line);
      if (f.size() != 3) continue;
      std::string args = f[2], out;
      if (const size_t at = args.find("@OUT"); at != std::string::npos) {
        out = (scratch / (f[0] + ".out")).string();
        for (size_t p; (p = args.find("@OUT")) != std::string::npos;) args.replace(p, 4, shell_quote(out));
      }
      runs.push_back({f[0], args, e2e + dir + "/" + f[0] + "." + f[1], out});
    }
  }
  runs.push_back({"mm2_help", "-h", e2e + dir + "/mm2_help.txt", ""});
  runs.push_back({"mm2_help_sr_t8", "-x sr -t 8 -h", e2e + dir + "/mm2_help_sr_t8.txt", ""});
  return runs;
}

// The program for a release, or empty with the reason in `why`.
std::string find_oracle(const Release& rel, std::string& why) {
  std::string path;
  if (const char* env = std::getenv(rel.env); env && *env) {
    path = env;
  } else {
    path = rel.built_in;
  }
  if (path.empty()) {
    why = std::string("no minimap2 ") + rel.version + " found at configure time (set " + rel.env + ")";
    return "";
  }
  if (!fs::exists(path)) {
    why = path + " is not there";
    // The Meson target records why it could not build the program (no network, ...).
    if (const std::string reason = test::read_file(path + ".why"); !reason.empty()) why += ": " + reason;
    return "";
  }
  std::error_code ec;
  if (fs::equivalent(path, test::agatha_binary(), ec)) {
    why = path + " is agatha itself, not an oracle";
    return "";
  }
  const test::CommandResult v = test::run_shell(shell_quote(path) + " --version");
  std::string printed = v.out;
  while (!printed.empty() && printed.back() == '\n') printed.pop_back();
  if (v.code != 0 || printed != rel.version) {
    why = path + " --version prints '" + printed + "', not " + rel.version;
    return "";
  }
  return path;
}

class Oracle : public ::testing::TestWithParam<Release> {};

TEST_P(Oracle, FixturesAreItsOutput) {
  const Release& rel = GetParam();
  std::string why;
  const std::string mm = find_oracle(rel, why);
  if (mm.empty()) GTEST_SKIP() << "minimap2 " << rel.version << " not available: " << why;

  test::TempDir scratch;
  const std::vector<OracleRun> runs = load_runs(rel.expected, scratch.path());
  ASSERT_GT(runs.size(), 100u);
  std::vector<std::string> failures(runs.size());
  std::atomic<size_t> next{0}, skipped{0};
  const bool have_samtools = test::run_shell("command -v samtools > /dev/null 2>&1").code == 0;
  auto work = [&] {
    for (size_t i; (i = next++) < runs.size();) {
      const OracleRun& r = runs[i];
      std::string& fail = failures[i];
      const std::string gz = r.fixture_base + ".gz", err = r.fixture_base.substr(0, r.fixture_base.rfind('.')) + ".error";
      const bool want_error = fs::exists(test::source_path(err));
      if (want_error == fs::exists(test::source_path(gz))) {
        fail = "needs exactly one of " + gz + " and " + err;
        continue;
      }
      if (!r.reads_from.empty() && !have_samtools) {
        ++skipped;
        continue;
      }
      const std::string feed = r.reads_from.empty() ? "" : "samtools fastq -T '*' " + r.reads_from + " 2>/dev/null | ";
      const test::CommandResult got =
          test::run_shell("cd " + test::quoted_source_path("") + " && " + feed + shell_quote(mm) + " " + r.args);
      if (want_error) {
        const std::string got_error = "exit " + std::to_string(got.code) + "\n" + test::last_line(got.err) + "\n";
        if (got_error != test::read_file(test::source_path(err)))
          fail = err + ": " + first_difference(test::read_file(test::source_path(err)), got_error);
        continue;
      }
      if (got.code != 0) {
        fail = "exit code " + std::to_string(got.code) + ":\n" + test::last_lines(got.err);
        continue;
      }
      const std::string out = r.out_file.empty() ? got.out : test::read_file(r.out_file);
      const std::string want = test::read_gz(test::source_path(gz));
      const bool help = r.label.starts_with("mm2_help");
      const std::string diff = help ? first_difference(want, out) : first_difference(without_pg(want), without_pg(out));
      if (!diff.empty()) fail = gz + ": " + diff;
    }
  };
  const unsigned n_threads = std::max(2u, std::min(8u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < n_threads; ++t) threads.emplace_back(work);
  for (std::thread& t : threads) t.join();
  int n_failed = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    if (failures[i].empty()) continue;
    ++n_failed;
    ADD_FAILURE() << "minimap2 " << rel.version << " " << runs[i].label << " (" << runs[i].args << "): " << failures[i];
  }
  EXPECT_EQ(n_failed, 0) << "of " << runs.size() << " runs";
  if (skipped > 0)
    std::cout << "[ SKIPPED  ] " << skipped << " cases with SAM/BAM/CRAM reads: samtools is not installed\n";
}

INSTANTIATE_TEST_SUITE_P(Releases, Oracle, ::testing::ValuesIn(kReleases),
                         [](const ::testing::TestParamInfo<Release>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace agatha
