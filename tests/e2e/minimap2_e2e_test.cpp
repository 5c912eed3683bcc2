// tests/e2e/minimap2_e2e_test.cpp — the minimap2 front end end to end: every case of
// tests/data/e2e/minimap2-cases.tsv run as `agatha minimap2 ARGS` and as `minimap2 ARGS`
// through a link named minimap2 first on PATH must print minimap2's output (@PG aside),
// for each release agatha is compatible with: `agatha minimap2 --compat=2.24 ARGS` (the
// link: AGATHA_COMPAT=2.24 in its environment) that of minimap2 2.24
// (tests/data/e2e/expected/), `agatha minimap2 ARGS` (the default release) that of 2.31
// (expected-2.31/; NAME.error there: a case 2.31 rejects, with its exit code and the last
// line of stderr). Test names end in the release (__2_24, __2_31). Besides: -V, -h, the
// usage text, and minimap2's errors with their exit codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/files.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"
#include "support/text.hpp"

namespace agatha {
namespace {

namespace fs = std::filesystem;
using test::shell_quote;

// A release: its version, its fixtures' directory, and what chooses it for
// `agatha minimap2` (an option) and for the link (an environment variable); empty: the
// default release.
struct Release {
  std::string version, fixtures, option, env;
  std::string tag() const {
    std::string t = version;
    std::replace(t.begin(), t.end(), '.', '_');
    return t;
  }
};
const Release kReleases[] = {{"2.24", "expected", "--compat=2.24 ", "AGATHA_COMPAT=2.24 "},
                             {"2.31", "expected-2.31", "", ""}};

struct Mm2Case {
  std::string name, output, args;
  Release release = kReleases[0];
  std::string dir() const { return "tests/data/e2e/" + release.fixtures + "/"; }
  std::string expected() const { return dir() + name + "." + output + ".gz"; }
  // "exit CODE\nLAST LINE OF STDERR\n": a case the release rejects (make-fixtures.sh).
  std::string error_file() const { return dir() + name + ".error"; }
};

// How gtest shows a case (instead of its bytes).
void PrintTo(const Mm2Case& c, std::ostream* os) { *os << c.release.option << c.args << " -> " << c.expected(); }

const std::string kCasesFile = "tests/data/e2e/minimap2-cases.tsv";

std::vector<Mm2Case> load_cases() {
  std::ifstream in(test::source_path(kCasesFile));
  std::vector<Mm2Case> cases;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto f = test::split_tabs(line);
    if (f.size() == 3) cases.push_back({f[0], f[1], f[2]});
  }
  return cases;
}

std::string without_pg(const std::string& text) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.starts_with("@PG")) out += line + "\n";
  return out;
}

// The first line where two texts differ, for a message.
std::string first_difference(const std::string& want, const std::string& got) {
  std::istringstream a(want), b(got);
  std::string la, lb;
  for (int n = 1;; ++n) {
    const bool ea = !std::getline(a, la), eb = !std::getline(b, lb);
    if (ea && eb) return "";
    if (ea || eb || la != lb)
      return "line " + std::to_string(n) + ":\n  expected: " + (ea ? "<end>" : la.substr(0, 300)) +
             "\n  got:      " + (eb ? "<end>" : lb.substr(0, 300));
  }
}

TEST(Minimap2CasesFile, IsWellFormed) {
  std::ifstream in(test::source_path(kCasesFile));
  ASSERT_TRUE(in) << kCasesFile;
  std::set<std::string> names;
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto f = test::split_tabs(line);
    ASSERT_EQ(f.size(), 3u) << line;
    EXPECT_TRUE(names.insert(f[0]).second) << "duplicate name " << f[0];
    EXPECT_TRUE(f[1] == "sam" || f[1] == "paf") << line;
    for (const Release& rel : kReleases) {
      const Mm2Case c{f[0], f[1], f[2], rel};
      EXPECT_NE(fs::exists(test::source_path(c.expected())), fs::exists(test::source_path(c.error_file())))
          << f[0] << ": exactly one of " << c.expected() << " and " << c.error_file();
    }
    ++n;
  }
  EXPECT_EQ(n, static_cast<int>(load_cases().size()));
  EXPECT_GT(n, 0);
}

class Minimap2FrontEnd : public ::testing::Test {
 protected:
  Minimap2FrontEnd() {
    fs::create_directories(dir_ / "bin");
    fs::create_symlink(test::agatha_binary(), dir_ / "bin" / "minimap2");
  }
  // `agatha minimap2 ARGS` (link: `minimap2 ARGS` with the link first on PATH), run from
  // the repository root, @OUT replaced by a scratch file; the release chosen as `rel`
  // says (by default: none, the default release).
  // by_env: the release chosen through AGATHA_COMPAT rather than --compat=VER (which,
  // as a word of the command line, would be the word some of minimap2's messages name).
  test::CommandResult run(std::string args, bool link, const Release& rel = kReleases[1], bool by_env = false) const {
    for (size_t at; (at = args.find("@OUT")) != std::string::npos;) args.replace(at, 4, shell_quote(out_file()));
    // The release is the test's to choose, not the caller's environment's.
    const std::string cd = "cd " + shell_quote(test::source_path("")) + " && unset AGATHA_COMPAT && ";
    if (link)
      return test::run_shell(cd + rel.env + "PATH=" + shell_quote((dir_ / "bin").string()) + ":\"$PATH\" minimap2 " +
                             args);
    if (by_env) return test::run_shell(cd + rel.env + shell_quote(test::agatha_binary()) + " minimap2 " + args);
    return test::run_shell(cd + shell_quote(test::agatha_binary()) + " minimap2 " + rel.option + args);
  }
  std::string out_file() const { return (dir_ / "out").string(); }

  test::TempDir dir_;
};

class Minimap2Case : public Minimap2FrontEnd, public ::testing::WithParamInterface<std::tuple<Mm2Case, bool>> {};

TEST_P(Minimap2Case, EqualsMinimap2) {
  const auto& [c, link] = GetParam();
  if (fs::exists(test::source_path(c.error_file()))) {
    const test::CommandResult r = run(c.args, link, c.release);
    const std::string want = test::read_file(test::source_path(c.error_file()));
    EXPECT_EQ("exit " + std::to_string(r.code) + "\n" + test::last_line(r.err) + "\n", want)
        << c.args << " vs " << c.error_file();
    EXPECT_EQ(r.out, "") << "an error: nothing on stdout";
    return;
  }
  const std::string want = test::read_gz(test::source_path(c.expected()));
  const test::CommandResult r = run(c.args, link, c.release);
  ASSERT_EQ(r.code, 0) << c.args << "\n" << test::last_lines(r.err);
  const bool to_file = c.args.find("@OUT") != std::string::npos;
  const std::string got = to_file ? test::read_file(out_file()) : r.out;
  if (to_file) {
    EXPECT_EQ(r.out, "") << "-o: nothing on stdout";
  }
  EXPECT_EQ(first_difference(without_pg(want), without_pg(got)), "")
      << (link ? c.release.env + "minimap2 " : "agatha minimap2 " + c.release.option) << c.args << " vs "
      << c.expected();
}

// Every case through `agatha minimap2`; the first ones (the front end's own: defaults,
// clusters, options after the files, -o, several files) also through the link, which
// runs the same code once main has seen the name.
std::vector<std::tuple<Mm2Case, bool>> runs() {
  std::vector<std::tuple<Mm2Case, bool>> out;
  for (const Release& rel : kReleases) {
    const std::vector<Mm2Case> cases = load_cases();
    for (size_t i = 0; i < cases.size(); ++i) {
      Mm2Case c = cases[i];
      c.release = rel;
      out.emplace_back(c, false);
      if (i < 8) out.emplace_back(c, true);
    }
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Minimap2, Minimap2Case, ::testing::ValuesIn(runs()),
                         [](const ::testing::TestParamInfo<std::tuple<Mm2Case, bool>>& info) {
                           const Mm2Case& c = std::get<0>(info.param);
                           return c.name + (std::get<1>(info.param) ? "_link__" : "_agatha__") + c.release.tag();
                         });

// minimap2 prints its version for -V and --version, wherever they stand among valid
// options (pipelines parse it): 2.24-r1122 for 2.24, 2.31-r1302 for 2.31.
TEST_F(Minimap2FrontEnd, VersionIsMinimap2s) {
  const std::pair<Release, std::string> versions[] = {{kReleases[0], "2.24-r1122\n"}, {kReleases[1], "2.31-r1302\n"}};
  for (const auto& [rel, version] : versions) {
    for (const bool link : {false, true}) {
      for (const char* args : {"-V", "--version", "-x map-pb -V -u z"}) {
        const test::CommandResult r = run(args, link, rel);
        EXPECT_EQ(r.code, 0) << rel.option << args;
        EXPECT_EQ(r.out, version) << (link ? rel.env : rel.option) << args;
      }
    }
  }
  EXPECT_EQ(test::run_agatha("--version").out.rfind("agatha ", 0), 0u) << "agatha's own --version stays";
  EXPECT_EQ(test::run_agatha("align -V").out.rfind("agatha ", 0), 0u) << "agatha align -V: agatha's version";
}

// -h: the usage text on stdout, exit 0, with the values of the options given (checked
// against each release's own text); no arguments: the same text on stderr, exit 1.
TEST_F(Minimap2FrontEnd, HelpAndUsageAreMinimap2s) {
  for (const Release& rel : kReleases) {
    SCOPED_TRACE("minimap2 " + rel.version);
    const Mm2Case help_case{"mm2_help", "txt", "", rel}, sr_case{"mm2_help_sr_t8", "txt", "", rel};
    const std::string help = test::read_gz(test::source_path(help_case.expected()));
    const std::string help_sr = test::read_gz(test::source_path(sr_case.expected()));
    ASSERT_FALSE(help.empty());
    for (const bool link : {false, true}) {
      test::CommandResult r = run("-h", link, rel);
      EXPECT_EQ(r.code, 0);
      EXPECT_EQ(r.out, help);
      r = run("--help", link, rel);
      EXPECT_EQ(r.out, help);
      r = run("-x sr -t 8 -h", link, rel);
      EXPECT_EQ(r.out, help_sr);
      r = run("", link, rel);
      EXPECT_EQ(r.code, 1);
      EXPECT_EQ(r.out, "");
      EXPECT_EQ(r.err, help);
    }
  }
}

// minimap2 2.24's errors: its text (colour codes aside) as the last line of stderr,
// exit 1, nothing on stdout (with --compat=2.24, the link with AGATHA_COMPAT=2.24).
TEST_F(Minimap2FrontEnd, ErrorsAreMinimap2s) {
  const std::string ref = "data/ref.fa", reads = " tests/data/e2e/mt.sub.fq.gz";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {ref + " -Z", "[ERROR] unknown option in \"data/ref.fa\""},
      {"-aZ " + ref, "[ERROR] unknown option in \"-aZ\""},
      {"--se=no " + ref, "[ERROR] unknown option in \"minimap2\""},
      {ref + " -k", "[ERROR] missing option argument"},
      {"-x foo " + ref, "[ERROR] unknown preset 'foo'"},
      {"-u z " + ref, "[ERROR] unrecognized cDNA direction"},
      {"-x splice --frag=yes " + ref + reads, "[ERROR] --splice and --frag should not be specified at the same time."},
      {"-r 30k " + ref + reads, "[ERROR] with '-rNUM1,NUM2', NUM1 (30000) can't be larger than NUM2 (20000)"},
      {ref, "[ERROR] missing input: please specify a query file to map or option -d to keep the index"},
      {"-x sr " + ref + " a.fq b.fq c.fq",
       "[ERROR] incorrect input: in the sr mode, please specify no more than two query files."},
      {"--idx-no-seq -a " + ref + reads, "[ERROR] the prebuilt index doesn't contain sequences."},
      {"-a nosuch.fa" + reads, "[ERROR] failed to open file 'nosuch.fa': No such file or directory"},
      {ref + reads + " nosuch.fq", "ERROR: failed to map the query file"},
      {"--qstrand -a " + ref + reads, "[ERROR] --qstrand doesn't work with -a, -H, --frag or --splice"},
  };
  for (const auto& [args, message] : cases) {
    for (const bool link : {false, true}) {
      SCOPED_TRACE(args + (link ? " (link)" : ""));
      const test::CommandResult r = run(args, link, kReleases[0], true);
      EXPECT_EQ(r.code, 1) << r.err;
      EXPECT_EQ(r.out, "");
      EXPECT_EQ(test::last_line(r.err), message) << r.err;
    }
  }
}

// -v: progress lines at 3 (the default), warnings at 2, neither below.
TEST_F(Minimap2FrontEnd, VerboseLevels) {
  const std::string args = " -x map-pb -S data/ref.fa tests/data/e2e/mt.sub.fq.gz";
  const std::string warning = "[WARNING] option -S is deprecated";
  test::CommandResult r = run(args, false);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string out = r.out;
  EXPECT_NE(r.err.find("[M::"), std::string::npos);
  EXPECT_NE(r.err.find(warning), std::string::npos);
  r = run("-v 2" + args, false);
  EXPECT_EQ(r.err.find("[M::"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(warning), std::string::npos);
  r = run("-v1" + args, false);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, out) << "-v changes stderr only";
}

// -d without query files writes the index, minimap2's .mmi as minimap2 writes it, and
// stops; an index file given alone is loaded and nothing more happens (exit 0, no
// output), as minimap2 does with its .mmi (minimap2 2.24's).
TEST_F(Minimap2FrontEnd, IndexWithoutQueries) {
  const Release& rel = kReleases[0];
  const std::string mmi = shell_quote((dir_ / "ref.mmi").string());
  test::CommandResult r = run("-x map-pb -d " + mmi + " data/ref.fa", true, rel);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(test::read_file((dir_ / "ref.mmi").string()) ==
              test::read_gz(test::source_path("tests/data/mmi/dump/ref.map-pb.mmi.gz")))
      << "minimap2 -x map-pb -d writes minimap2's own index";
  r = run(mmi, true, rel);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  // And it maps as the reference it was built from.
  const std::string want =
      test::read_gz(test::source_path("tests/data/e2e/expected/mm2_map_pb_paf.paf.gz"));
  r = run("-x map-pb " + mmi + " tests/data/e2e/mt.sub.fq.gz", true, rel);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, want);
}

}  // namespace
}  // namespace agatha
