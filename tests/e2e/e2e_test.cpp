// tests/e2e/e2e_test.cpp — `agatha align` end to end against minimap2 2.24 and 2.31:
// SAM, and PAF with base alignment (-c).
// tests/data/e2e/cases.tsv lists the cases (options, reference, reads) and
// tests/data/e2e/README.md says how minimap2 made each expected file. Every case runs
// against both releases agatha is compatible with: `agatha align --compat 2.24 OPTIONS`
// against minimap2 2.24's output (expected/) and `agatha align OPTIONS` (the default
// release, 2.31) against minimap2 2.31's (expected-2.31/); the test names end in the
// release (__2_24, __2_31). Each must give minimap2's lines exactly, @PG lines aside
// (they hold the command line). Besides: the output does not depend on -t, -K or the DP backend;
// samtools accepts it; every read is reported once as primary or unmapped; BAM output;
// an unwritable -o and a bad -R fail with a message and exit code 1; a closed pipe ends
// the run by SIGPIPE as it ends minimap2; -o never replaces a device, FIFO or link, nor
// an input, and an interrupted run leaves no temporary file.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/dp.hpp"
#include "support/files.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"
#include "support/sam_text.hpp"
#include "support/text.hpp"

namespace agatha {
namespace {

namespace fs = std::filesystem;

// The tests choose the release themselves (--compat 2.24, or nothing: the default), so
// an AGATHA_COMPAT of the caller's environment is dropped for the whole executable.
[[maybe_unused]] const bool kCompatFromEnvironmentDropped = (::unsetenv("AGATHA_COMPAT"), true);

// ---- files, lines and their differences ----

// The file's bytes as they are (agatha's output); the whole file gunzipped when it is
// gzip (zlib reads plain files as they are): the fixtures, and BAM's BGZF blocks.
using test::read_file;
using test::read_gz;

// Lines with their '\n' (a last line without one stays without), @PG lines dropped.
std::vector<std::string> lines_without_pg(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t pos = 0; pos < text.size();) {
    const size_t nl = text.find('\n', pos);
    const size_t end = nl == std::string::npos ? text.size() : nl + 1;
    if (text.compare(pos, 3, "@PG") != 0) lines.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  return lines;
}

// The tab-separated fields of a line (its newline aside).
std::vector<std::string> fields(const std::string& line) { return test::split_tabs(line.substr(0, line.find('\n'))); }

// The lines to hold against minimap2's: all of them, except that a record with a hard
// clip whose copied comment (-y) has base modifications loses its MM/ML/MN (and Mm/Ml)
// tags. minimap2 copies them as the whole read's; agatha rewrites them for the slice
// of the read that SEQ holds (format/base_mods.hpp), which mods_e2e_test.cpp checks
// with htslib's decoding of the modifications.
std::vector<std::string> comparable(std::vector<std::string> lines) {
  for (std::string& line : lines) {
    if (line.empty() || line[0] == '@') continue;
    std::vector<std::string> f = fields(line);
    if (f.size() < 12 || f[5].find('H') == std::string::npos) continue;
    const auto is_mod_tag = [](const std::string& t) {
      return t.starts_with("MM:Z:") || t.starts_with("ML:B:") || t.starts_with("Mm:Z:") || t.starts_with("Ml:B:") ||
             t.starts_with("MN:i:");
    };
    if (std::none_of(f.begin() + 11, f.end(), [](const std::string& t) { return t.starts_with("MM:Z:") || t.starts_with("Mm:Z:"); }))
      continue;
    std::string out;
    for (size_t i = 0; i < f.size(); ++i) {
      if (i >= 11 && is_mod_tag(f[i])) continue;
      if (!out.empty()) out += '\t';
      out += f[i];
    }
    line = out + (line.back() == '\n' ? "\n" : "");
  }
  return lines;
}

std::string shorten(const std::string& s, size_t max = 300) {
  return s.size() <= max ? s : s.substr(0, max) + "... (" + std::to_string(s.size()) + " characters)";
}

// A line for a message: without its newline, or marked when it has none.
std::string show_line(const std::string& line) {
  if (!line.empty() && line.back() == '\n') return shorten(line.substr(0, line.size() - 1));
  return shorten(line) + " [no newline at end]";
}

// Empty when the two agree; otherwise how many lines differ (position by position) and
// the first differing pair, with the first differing tab-separated column.
std::string describe_difference(const std::vector<std::string>& want, const std::vector<std::string>& got) {
  size_t n_diff = 0, first = 0;
  for (size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
    if (i < want.size() && i < got.size() && want[i] == got[i]) continue;
    if (n_diff++ == 0) first = i;
  }
  if (n_diff == 0) return "";
  std::ostringstream m;
  m << n_diff << " line(s) differ (expected " << want.size() << " lines, got " << got.size()
    << ", @PG lines aside); first at line " << first + 1 << ":\n";
  m << "  expected: " << (first < want.size() ? show_line(want[first]) : "<none>") << "\n";
  m << "  got:      " << (first < got.size() ? show_line(got[first]) : "<none>") << "\n";
  if (first < want.size() && first < got.size()) {
    const auto a = fields(want[first]), b = fields(got[first]);
    for (size_t c = 0; c < std::max(a.size(), b.size()); ++c) {
      if (c < a.size() && c < b.size() && a[c] == b[c]) continue;
      m << "  first differing column " << c + 1 << ": expected '" << (c < a.size() ? shorten(a[c], 120) : "<none>")
        << "', got '" << (c < b.size() ? shorten(b[c], 120) : "<none>") << "'\n";
      break;
    }
  }
  return m.str();
}

using test::last_line;
using test::last_lines;
using test::shell_quote;

std::string src(const std::string& rel) { return test::quoted_source_path(rel); }

// The words of a cases.tsv field separated by single spaces (READS: one file, or the
// files of fragments).
std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  for (size_t pos = 0; pos <= text.size();) {
    size_t end = text.find(' ', pos);
    if (end == std::string::npos) end = text.size();
    if (end > pos) out.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

// Each reads file of a case as a quoted path into the source tree.
std::string src_files(const std::string& rels) {
  std::string out;
  for (const std::string& rel : words(rels)) out += (out.empty() ? "" : " ") + src(rel);
  return out;
}

bool have_samtools() { return test::run_shell("command -v samtools > /dev/null 2>&1").code == 0; }

// `bash SCRIPT`'s exit code (its stdout discarded: no process the script leaves behind
// holds the pipe run_shell reads).
int run_script(const std::filesystem::path& script) {
  return test::run_shell("bash " + shell_quote(script) + " > /dev/null").code;
}

// Read names (up to the first blank) of a FASTA or four-line FASTQ file, in order; of a
// SAM, BAM or CRAM file, the QNAMEs of the records that are reads (not 0x100 or 0x800),
// with /1 or /2 as agatha reads them (io/hts_reads.hpp).
std::vector<std::string> read_names(const std::string& rel) {
  if (rel.ends_with(".bam") || rel.ends_with(".cram") || rel.ends_with(".sam.gz")) {
    std::vector<std::string> names;
    for (const std::string& rec : test::read_hts(test::source_path(rel)).records) {
      const auto f = test::split_tabs(rec);
      const int flag = std::atoi(f.at(1).c_str());
      if (flag & 0x900) continue;
      const bool first = flag & 0x40, last = flag & 0x80;
      names.push_back(f[0] + ((flag & 1) && first != last ? (first ? "/1" : "/2") : ""));
    }
    return names;
  }
  const std::string text = read_gz(test::source_path(rel));
  std::vector<std::string> names;
  std::istringstream in(text);
  const bool fastq = !text.empty() && text[0] == '@';
  size_t i = 0;
  for (std::string line; std::getline(in, line); ++i) {
    if (fastq ? i % 4 == 0 : (!line.empty() && line[0] == '>'))
      names.push_back(line.substr(1, line.find_first_of(" \t") - 1));
  }
  return names;
}

// ---- the cases of tests/data/e2e/cases.tsv ----

// The minimap2 releases agatha is compatible with: the directory of each one's fixtures
// (tests/data/e2e/...) and the agatha options that choose it (none: the default release).
struct Release {
  std::string version, fixtures, option;
  std::string tag() const {  // for test names: 2_24
    std::string t = version;
    std::replace(t.begin(), t.end(), '.', '_');
    return t;
  }
};
const Release kRelease224{"2.24", "expected", "--compat 2.24 "};
const Release kRelease231{"2.31", "expected-2.31", ""};  // the default release
const Release kReleases[] = {kRelease224, kRelease231};

// The fixture NAME (e.g. "mt_map_pb.sam.gz") of a release.
std::string fixture(const Release& rel, const std::string& name) {
  return "tests/data/e2e/" + rel.fixtures + "/" + name;
}

struct Case {
  std::string name, output, reference, reads, options;  // output: "sam" or "paf"; reads: files separated by spaces
  Release release = kRelease224;
  std::string expected() const { return fixture(release, name + "." + output + ".gz"); }
  // "exit CODE\nLAST LINE OF STDERR\n" where the release rejects the case's options (a
  // preset of 2.31 that 2.24 lacks; make-fixtures.sh), in place of expected().
  std::string error_file() const { return fixture(release, name + ".error"); }
  bool rejected() const { return fs::exists(test::source_path(error_file())); }
  // agatha's options: the release's, then the case's; a PAF case with neither -a nor -c
  // is minimap2's mapping-only PAF, which `agatha align` writes with --map-only.
  std::string agatha_options() const {
    if (output != "paf") return release.option + options;
    for (const std::string& w : words(options))
      if (w == "-c" || w == "-a" || (w.size() > 1 && w[0] == '-' && w[1] != '-' && w.find_first_of("ac") != std::string::npos))
        return release.option + options;
    return release.option + "--map-only " + options;
  }
  // Whether the reads are fragments (SAM names their segments without /1 /2).
  // (-x sr, and 2.31's -x splice:sr, set fragment mode before any other option; the
  // last --frag wins.)
  bool fragments() const {
    bool frag = false;
    for (const std::string& w : words(options))
      if (w == "sr" || w == "-xsr" || w == "-axsr") frag = true;
      else if (w == "splice:sr" && release.version == "2.31") frag = true;  // 2.24: the splice preset
    for (const std::string& w : words(options))
      if (w == "--frag=yes" || w == "--frag=no") frag = w == "--frag=yes";
    return frag;
  }
};

const std::string kCasesFile = "tests/data/e2e/cases.tsv";

// Well-formed lines only; CasesFile.IsWellFormed reports the others.
std::vector<Case> load_cases(const std::string& output = "") {
  std::ifstream in(test::source_path(kCasesFile));
  std::vector<Case> cases;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto f = fields(line);
    if (f.size() != 5 || (!output.empty() && f[1] != output)) continue;
    cases.push_back({f[0], f[1], f[2], f[3], f[4]});
  }
  return cases;
}

// Every case once per release, but where the release rejects it (or, with rejected,
// only those).
std::vector<Case> load_cases_of_both_releases(const std::string& output = "", bool rejected = false) {
  std::vector<Case> cases;
  for (const Release& rel : kReleases)
    for (Case c : load_cases(output)) {
      c.release = rel;
      if (c.rejected() == rejected) cases.push_back(c);
    }
  return cases;
}

// The options with each word that names a file of the repository (tests/...: the
// annotation of --junc-bed) made a path into the source tree; the tests run elsewhere.
std::string with_source_paths(const std::string& options) {
  std::string out;
  for (size_t pos = 0; pos <= options.size();) {
    size_t end = options.find(' ', pos);
    if (end == std::string::npos) end = options.size();
    const std::string word = options.substr(pos, end - pos);
    out += (out.empty() ? "" : " ") + (word.starts_with("tests/") ? src(word) : word);
    pos = end + 1;
  }
  return out;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return info.param.name + "__" + info.param.release.tag();
}

// How gtest shows a case (instead of its bytes).
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.agatha_options() << " " << c.reference << " " << c.reads << " -> " << c.expected();
}

TEST(CasesFile, IsWellFormed) {
  std::ifstream in(test::source_path(kCasesFile));
  ASSERT_TRUE(in) << kCasesFile;
  std::set<std::string> names;
  int n = 0, line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    const auto f = fields(line);
    SCOPED_TRACE(kCasesFile + " line " + std::to_string(line_no));
    ASSERT_EQ(f.size(), 5u) << line;
    EXPECT_TRUE(names.insert(f[0]).second) << "duplicate name " << f[0];
    EXPECT_TRUE(std::all_of(f[0].begin(), f[0].end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; }))
        << f[0];
    EXPECT_TRUE(f[1] == "sam" || f[1] == "paf") << f[1];
    std::vector<std::string> files = words(f[3]);
    files.push_back(f[2]);
    for (const Release& rel : kReleases) {
      const Case c{f[0], f[1], f[2], f[3], f[4], rel};
      EXPECT_NE(fs::exists(test::source_path(c.expected())), c.rejected())
          << "exactly one of " << c.expected() << " and " << c.error_file();
    }
    for (const std::string& rel : files) EXPECT_TRUE(fs::exists(test::source_path(rel))) << rel;
    ++n;
  }
  EXPECT_EQ(n, static_cast<int>(load_cases().size()));
  EXPECT_GT(n, 0);
}

// ---- running agatha ----

using Outcome = test::CommandResult;

class E2e : public ::testing::Test {
 protected:
  // `agatha ARGS` through the shell: stdout in `out`, stderr in `err`.
  static Outcome run(const std::string& args) { return test::run_agatha(args); }

  // `agatha align OPTIONS REF READS -o FILE`: FILE's content in `out`.
  Outcome align(const std::string& options, const std::string& ref, const std::string& reads,
                const std::string& file = "out") const {
    const fs::path path = dir_ / file;
    Outcome r = run("align " + with_source_paths(options) + " " + ref + " " + reads + " -o " + shell_quote(path));
    r.out = read_file(path);
    return r;
  }

  fs::path path(const std::string& name) const { return dir_ / name; }

  test::TempDir dir_;
};

#define ASSERT_RAN(r, what) ASSERT_EQ((r).code, 0) << (what) << "\nstderr:\n" << last_lines((r).err)

const std::string kAgatha = shell_quote(test::agatha_binary());
const std::string kMtRef = src("data/ref.fa"), kMtReads = src("data/reads.fq");
const std::string kMtExpected = "mt_map_pb.sam.gz";  // fixture(release, kMtExpected)

// ---- every case equals minimap2 ----

class E2eCase : public E2e, public ::testing::WithParamInterface<Case> {
 protected:
  // `align` with the case's own options, reference and reads, run once per process and
  // shared by the tests of the case (each checks another property of the same output;
  // that runs agree with each other is E2eSame's business). The output is also written
  // to `file` in this test's directory.
  Outcome align_case(const std::string& file = "out") const {
    static std::map<std::string, Outcome> runs;
    const Case& c = GetParam();
    const std::string key = c.agatha_options() + '\n' + c.reference + '\n' + c.reads;
    auto it = runs.find(key);
    if (it == runs.end())
      return runs.emplace(key, align(c.agatha_options(), src(c.reference), src_files(c.reads), file)).first->second;
    EXPECT_TRUE(test::write_file(path(file).string(), it->second.out)) << path(file);
    return it->second;
  }
};

TEST_P(E2eCase, EqualsMinimap2) {
  const Case& c = GetParam();
  const std::string want_text = read_gz(test::source_path(c.expected()));
  ASSERT_FALSE(want_text.empty()) << c.expected();
  const Outcome r = align_case();
  ASSERT_RAN(r, "agatha align " + c.agatha_options());
  const std::string diff = describe_difference(comparable(lines_without_pg(want_text)), comparable(lines_without_pg(r.out)));
  EXPECT_TRUE(diff.empty()) << "agatha align " << c.agatha_options() << " " << c.reference << " " << c.reads << " vs "
                            << c.expected() << ": " << diff;
}

INSTANTIATE_TEST_SUITE_P(Minimap2, E2eCase, ::testing::ValuesIn(load_cases_of_both_releases()), case_name);

// A case the release rejects (2.24 and a preset of 2.31): agatha align exits with
// minimap2's code, its last message ending as minimap2's does (minimap2 "[ERROR] unknown
// preset 'lr:hq'", agatha "[E::align] unknown preset 'lr:hq'").
class E2eRejected : public E2eCase {};

TEST_P(E2eRejected, AsMinimap2) {
  const Case& c = GetParam();
  std::istringstream want(test::read_file(test::source_path(c.error_file())));
  std::string exit_line, message;
  std::getline(want, exit_line);
  std::getline(want, message);
  ASSERT_TRUE(exit_line.starts_with("exit ")) << c.error_file();
  const std::string prefix = "[ERROR] ";
  ASSERT_TRUE(message.starts_with(prefix)) << c.error_file() << ": " << message;
  message = message.substr(prefix.size());
  const Outcome r = align_case();
  EXPECT_EQ("exit " + std::to_string(r.code), exit_line) << c.agatha_options();
  EXPECT_TRUE(test::last_line(r.err).ends_with(message)) << "agatha: " << test::last_line(r.err) << "\nminimap2: " << message;
}

INSTANTIATE_TEST_SUITE_P(Minimap2, E2eRejected, ::testing::ValuesIn(load_cases_of_both_releases("", true)), case_name);

// The CUDA backend's own kernel and launcher, run on the host emulation of CUDA: the
// same bytes as the default backend's run of the case (the cpu backend where no GPU is
// usable, the GPU where one is), and so as minimap2, on every case. Groups of at most
// 5,000 read bases, so that the pipeline runs one group's DP rounds beside the next
// group's seeding and chaining.
class E2eGpuEmu : public E2eCase {};

TEST_P(E2eGpuEmu, EqualsDefaultBackendAndMinimap2) {
  const Case& c = GetParam();
  const auto want = comparable(lines_without_pg(read_gz(test::source_path(c.expected()))));
  ASSERT_FALSE(want.empty()) << c.expected();
  const Outcome def = align_case("default.out");
  ASSERT_RAN(def, "agatha align " + c.agatha_options());
  const Outcome emu = align("--dp-backend gpu-emu -t 2 --dp-batch 5000 " + c.agatha_options(), src(c.reference),
                            src_files(c.reads), "emu.out");
  ASSERT_RAN(emu, "--dp-backend gpu-emu " + c.agatha_options());
  const auto got = lines_without_pg(emu.out);
  EXPECT_EQ(describe_difference(lines_without_pg(def.out), got), "") << "gpu-emu vs the default backend: " << c.agatha_options();
  EXPECT_EQ(describe_difference(want, comparable(got)), "") << "gpu-emu vs " << c.expected();
}

INSTANTIATE_TEST_SUITE_P(Minimap2, E2eGpuEmu, ::testing::ValuesIn(load_cases_of_both_releases()), case_name);

// Every case of the default release at -t 1, 2, 8 and 16 gives the bytes of its run at
// the default -t 3, which EqualsMinimap2 compares with minimap2: the work's cut into
// threads (queries spread by bases, a long query's chaining blocks and DP fragments)
// never shows in the output. (The --compat 2.24 cases run the same threading code.)
class E2eThreads : public E2eCase {};

TEST_P(E2eThreads, SameOutputForAnyThreadCount) {
  const Case& c = GetParam();
  const Outcome def = align_case("default.out");
  ASSERT_RAN(def, "agatha align " + c.agatha_options());
  const auto want = lines_without_pg(def.out);
  for (int t : {1, 2, 8, 16}) {
    const std::string options = c.agatha_options() + " -t " + std::to_string(t);
    const Outcome r = align(options, src(c.reference), src_files(c.reads), "threads.out");
    ASSERT_RAN(r, "agatha align " + options);
    EXPECT_EQ(describe_difference(want, lines_without_pg(r.out)), "") << "-t " << t << " vs -t 3: " << options;
  }
}

std::vector<Case> cases_of_default_release() {
  std::vector<Case> out;
  for (const Case& c : load_cases_of_both_releases())
    if (c.release.version == kRelease231.version) out.push_back(c);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Minimap2, E2eThreads, ::testing::ValuesIn(cases_of_default_release()), case_name);

// ---- properties of the SAM output of every SAM case ----

class E2eSam : public E2eCase {};

// Each input read has exactly one record that is neither secondary (0x100) nor
// supplementary (0x800): its primary line, or its unmapped line; no other names. The
// segments of a fragment share a name without /1 /2: as many records as segments, and
// with two segments one first (0x40) and one last (0x80).
TEST_P(E2eSam, EachReadOncePrimaryOrUnmapped) {
  const Case& c = GetParam();
  const Outcome r = align_case();
  ASSERT_RAN(r, "agatha align " + c.agatha_options());
  std::map<std::string, int> want, primary, seg_bits;
  auto trimmed = [&c](const std::string& name) {
    return c.fragments() && name.size() >= 3 && name[name.size() - 2] == '/' &&
                   std::isdigit(static_cast<unsigned char>(name.back()))
               ? name.substr(0, name.size() - 2)
               : name;
  };
  std::vector<std::string> names;
  for (const std::string& file : words(c.reads))
    for (const std::string& name : read_names(file)) names.push_back(name), ++want[trimmed(name)];
  // A fragment of one segment is a read: its name is printed whole.
  for (const std::string& name : names) {
    if (want[trimmed(name)] == 1 && trimmed(name) != name) want.erase(trimmed(name)), want[name] = 1;
    primary[want.count(name) ? name : trimmed(name)] = 0;
  }
  ASSERT_FALSE(primary.empty()) << c.reads;
  int bad = 0;
  for (const std::string& line : lines_without_pg(r.out)) {
    if (line[0] == '@') continue;
    const auto f = fields(line);
    ASSERT_GE(f.size(), 11u) << show_line(line);
    const int flag = std::atoi(f[1].c_str());
    if (flag & 0x900) continue;
    const auto it = primary.find(f[0]);
    if (it == primary.end()) {
      if (bad++ < 5) ADD_FAILURE() << "record for a read not in " << c.reads << ": " << show_line(line);
      continue;
    }
    ++it->second;
    seg_bits[f[0]] += flag & 0xc0;
  }
  for (const auto& [name, n] : primary) {
    if (n != want[name] && bad++ < 5) ADD_FAILURE() << name << ": " << n << " primary or unmapped records";
    if (c.fragments() && want[name] == 2 && seg_bits[name] != 0xc0 && bad++ < 5) ADD_FAILURE() << name << ": not one first, one last";
  }
  EXPECT_EQ(bad, 0) << "reads reported other than once";
}

TEST_P(E2eSam, SamtoolsAcceptsOutput) {
  if (!have_samtools()) GTEST_SKIP() << "samtools is not installed: SAM output not checked by samtools";
  const Case& c = GetParam();
  const Outcome r = align_case("out.sam");
  ASSERT_RAN(r, "agatha align " + c.agatha_options());
  const std::string sam = shell_quote(path("out.sam")), log = shell_quote(path("samtools.log"));
  EXPECT_EQ(test::run_shell("samtools quickcheck -v " + sam + " > " + log + " 2>&1").code, 0)
      << last_lines(read_file(path("samtools.log")));
  const std::string bam = shell_quote(path("out.bam"));
  EXPECT_EQ(test::run_shell("samtools view -b -o " + bam + " " + sam + " > " + log + " 2>&1").code, 0)
      << last_lines(read_file(path("samtools.log")));
}

INSTANTIATE_TEST_SUITE_P(Minimap2, E2eSam, ::testing::ValuesIn(load_cases_of_both_releases("sam")), case_name);

// ---- the command line ----

// SAM is the default and -a changes nothing, also in getopt's bundled form -ax (each
// release).
TEST_F(E2e, SamIsTheDefaultAndDashAIsANoOp) {
  for (const Release& rel : kReleases) {
    const auto want = lines_without_pg(read_gz(test::source_path(fixture(rel, kMtExpected))));
    ASSERT_FALSE(want.empty());
    for (const char* options : {"-x map-pb", "-ax map-pb"}) {
      const Outcome r = align(rel.option + options, kMtRef, kMtReads);
      ASSERT_RAN(r, rel.option + options);
      EXPECT_EQ(describe_difference(want, lines_without_pg(r.out)), "") << rel.option << options;
    }
  }
}

TEST_F(E2e, PafOptionIsDashC) {
  for (const Release& rel : kReleases) {
    const auto want = lines_without_pg(read_gz(test::source_path(fixture(rel, "sub_paf_c.paf.gz"))));
    ASSERT_FALSE(want.empty());
    const Outcome r = align(rel.option + "--paf -x map-pb", kMtRef, src("tests/data/e2e/mt.sub.fq.gz"));
    ASSERT_RAN(r, rel.option + "--paf");
    EXPECT_EQ(describe_difference(want, lines_without_pg(r.out)), "") << rel.option << "--paf";
  }
}

// ---- output independent of how the work is cut and of the DP backend ----

class E2eSame : public E2e {
 protected:
  // Both option sets on the bundled example: the same bytes, @PG lines aside.
  void expect_same(const std::string& a, const std::string& b) const {
    const Outcome ra = align("-x map-pb " + a, kMtRef, kMtReads, "a.sam");
    ASSERT_RAN(ra, a);
    const Outcome rb = align("-x map-pb " + b, kMtRef, kMtReads, "b.sam");
    ASSERT_RAN(rb, b);
    const auto la = lines_without_pg(ra.out);
    ASSERT_GT(la.size(), 155u) << a;
    EXPECT_EQ(describe_difference(la, lines_without_pg(rb.out)), "") << "'" << a << "' vs '" << b << "'";
  }
};

TEST_F(E2eSame, ForOneAndTwoThreads) { expect_same("-t 1", "-t 2"); }

TEST_F(E2eSame, ForSmallBatches) { expect_same("-t 2", "-t 2 -K 20k"); }

// Groups of a few reads: many small DP rounds instead of one per batch.
TEST_F(E2eSame, ForSmallDpGroups) { expect_same("-t 2", "-t 2 --dp-batch 20k"); }

TEST_F(E2eSame, ForScalarAndCpuDpBackends) { expect_same("--dp-backend scalar", "--dp-backend cpu"); }

// Read pairs: the same records for one and two threads, batches and DP groups of a few
// pairs (a fragment is never split between them) and the scalar backend.
TEST_F(E2eSame, ForFragmentsWhateverTheThreadsBatchesAndBackend) {
  const std::string ref = src("tests/data/e2e/ont.ref.fa.gz");
  const std::string reads = src_files("tests/data/e2e/pe.r1.fq.gz tests/data/e2e/pe.r2.fq.gz");
  const std::string base = "-x sr ";
  const Outcome want = align(base + "-t 1", ref, reads, "a.sam");
  ASSERT_RAN(want, "-t 1");
  const auto lw = lines_without_pg(want.out);
  ASSERT_GT(lw.size(), 320u);
  for (const char* other : {"-t 2 -K 2k", "-t 2 --dp-batch 1k", "-t 2 --dp-backend scalar"}) {
    const Outcome r = align(base + other, ref, reads, "b.sam");
    ASSERT_RAN(r, other);
    EXPECT_EQ(describe_difference(lw, lines_without_pg(r.out)), "") << "'-t 1' vs '" << other << "'";
  }
}

// The GPU engine's host simulation answers the rounds too (the CUDA kernel runs the
// same tile rules; scripts/gpu-check.sh compares it on a device): minimap2's SAM on the
// small read set and on the inversion reads, whose splits take several rounds.
TEST_F(E2e, GpuSimDpBackendEqualsMinimap2) {
  const std::pair<const char*, const char*> cases[] = {{"sub_map_pb", "-x map-pb"}, {"inv_map_ont", ""}};
  for (const Release& rel : kReleases) {
    for (const auto& [name, options] : cases) {
      const std::string expected = fixture(rel, std::string(name) + ".sam.gz");
      const auto want = lines_without_pg(read_gz(test::source_path(expected)));
      ASSERT_FALSE(want.empty()) << expected;
      const bool sub = std::string(name) == "sub_map_pb";
      const Outcome r = align(rel.option + "--dp-backend gpu-sim " + options, sub ? kMtRef : src("tests/data/e2e/t-inv.fa.gz"),
                              src(sub ? "tests/data/e2e/mt.sub.fq.gz" : "tests/data/e2e/q-inv.fa.gz"));
      ASSERT_RAN(r, expected);
      EXPECT_EQ(describe_difference(want, lines_without_pg(r.out)), "") << expected;
    }
  }
}

// The sr preset (short reads: an ungapped fill per region, redone as DP only where it
// Z-drops, and splits) on every CPU DP backend and instruction set, and with the DP in
// rounds (gpu-sim; small groups, one thread, small batches): minimap2's bytes each time.
// The cases of cases.tsv run on the default backend and gpu-emu only.
TEST_F(E2e, ShortReadsEqualMinimap2OnEveryDpBackend) {
  struct SrCase {
    const char *name, *output, *ref, *reads, *options;
  };
  const SrCase cases[] = {
      {"sr_ecoli", "sam", "tests/data/e2e/ont.ref.fa.gz", "tests/data/e2e/sr.ecoli.fq.gz", "-a -x sr"},
      {"sr_rep_paf_sec_N5", "paf", "tests/data/seeds/rep.fa.gz", "tests/data/e2e/sr.rep.fq.gz",
       "-c -x sr --secondary=yes -N 5"}};
  std::vector<std::string> backends = {"--dp-backend scalar", "--dp-backend cpu --isa sse41",
                                       "--dp-backend gpu-sim --dp-batch 3k", "--dp-backend cpu -t 1 -K 5k"};
  if (test::try_backend("cpu-avx2")) backends.emplace_back("--dp-backend cpu --isa avx2");
  if (test::try_backend("cpu-avx512")) backends.emplace_back("--dp-backend cpu --isa avx512");
  for (const Release& rel : kReleases) {
    for (const SrCase& c : cases) {
      const std::string expected = fixture(rel, std::string(c.name) + "." + c.output + ".gz");
      const auto want = lines_without_pg(read_gz(test::source_path(expected)));
      ASSERT_GT(want.size(), 400u) << expected;
      for (const std::string& backend : backends) {
        const Outcome r = align(rel.option + backend + " " + c.options, src(c.ref), src(c.reads));
        ASSERT_RAN(r, rel.option + backend + " " + c.options);
        EXPECT_EQ(describe_difference(want, lines_without_pg(r.out)), "") << expected << ": " << backend;
      }
    }
  }
}

// Scorings away from the presets' (README, `agatha dp`): dual affine with other values,
// single affine (-O and -E with one number: ksw_extz2's tasks, on the scalar kernel
// whatever the backend), and wide ones whose 8-bit differences wrap (dual and single
// affine), on every CPU DP backend and instruction set and on both GPU emulations:
// minimap2's bytes each time. (The cases of cases.tsv run on the default backend and
// gpu-emu only.)
TEST_F(E2e, ScoringsEqualMinimap2OnEveryDpBackend) {
  struct ScoringCase {
    const char *name, *output, *ref, *reads, *options;
  };
  const ScoringCase cases[] = {
      {"sub_paf_scoring", "paf", "data/ref.fa", "tests/data/e2e/mt.sub.fq.gz", "-c -x map-pb -A3 -B5 -O6,30 -E3,1"},
      {"sub_paf_O6_E3", "paf", "data/ref.fa", "tests/data/e2e/mt.sub.fq.gz", "-c -x map-pb -O6 -E3"},
      {"inv_paf_wide", "paf", "tests/data/e2e/t-inv.fa.gz", "tests/data/e2e/q-inv.fa.gz",
       "-c -A100 -B200 -O30,60 -E5,1"},
      {"sub_wide_single", "sam", "data/ref.fa", "tests/data/e2e/mt.sub.fq.gz", "-a -x map-pb -A60 -B100 -O50 -E10"}};
  std::vector<std::string> backends = {"--dp-backend scalar", "--dp-backend cpu --isa sse41",
                                       "--dp-backend gpu-sim --dp-batch 3k", "--dp-backend gpu-emu --dp-batch 3k"};
  if (test::try_backend("cpu-avx2")) backends.emplace_back("--dp-backend cpu --isa avx2");
  if (test::try_backend("cpu-avx512")) backends.emplace_back("--dp-backend cpu --isa avx512");
  for (const Release& rel : kReleases) {
    for (const ScoringCase& c : cases) {
      const std::string expected = fixture(rel, std::string(c.name) + "." + c.output + ".gz");
      const auto want = lines_without_pg(read_gz(test::source_path(expected)));
      ASSERT_GE(want.size(), 6u) << expected;
      for (const std::string& backend : backends) {
        const Outcome r = align(rel.option + backend + " " + c.options, src(c.ref), src(c.reads));
        ASSERT_RAN(r, rel.option + backend + " " + c.options);
        EXPECT_EQ(describe_difference(want, lines_without_pg(r.out)), "") << expected << ": " << backend;
      }
    }
  }
}

// ---- BAM ----

// BGZF: a gzip member with the extra subfield 'BC'; inside, the magic "BAM\1".
void expect_bam(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  char head[18] = {};
  in.read(head, sizeof head);
  ASSERT_EQ(in.gcount(), 18) << p;
  EXPECT_EQ(std::string(head, 4), std::string("\x1f\x8b\x08\x04", 4)) << p << ": not gzip with extra fields";
  EXPECT_EQ(std::string(head + 12, 2), "BC") << p << ": not BGZF";
  EXPECT_EQ(read_gz(p).substr(0, 4), std::string("BAM\x01", 4)) << p;
}

// The records samtools decodes from FILE (SAM, BAM, gzipped SAM), @PG lines aside.
std::vector<std::string> samtools_view(const std::string& file) {
  return lines_without_pg(test::run_shell("samtools view -h " + file).out);
}

TEST_F(E2e, BamOutputHoldsTheSameRecords) {
  const Outcome by_name = align("-x map-pb", kMtRef, kMtReads, "out.bam");
  ASSERT_RAN(by_name, "-o out.bam");
  expect_bam(path("out.bam"));
  const Outcome by_format = align("--format bam -x map-pb", kMtRef, kMtReads, "out.data");
  ASSERT_RAN(by_format, "--format bam");
  expect_bam(path("out.data"));
  if (!have_samtools()) GTEST_SKIP() << "samtools is not installed: BAM records not decoded";
  // samtools prints both through htslib, which formats floats its own way. agatha's
  // default release: 2.31.
  const auto want = samtools_view(src(fixture(kRelease231, kMtExpected)));
  ASSERT_GT(want.size(), 155u);
  EXPECT_EQ(describe_difference(want, samtools_view(shell_quote(path("out.bam")))), "") << "-o out.bam";
  EXPECT_EQ(describe_difference(want, samtools_view(shell_quote(path("out.data")))), "") << "--format bam";
}

// ---- failures: a message, exit code 1, no crash ----

// Restores SIGPIPE's disposition when it goes out of scope.
class DefaultSigpipe {
 public:
  DefaultSigpipe() : old_(std::signal(SIGPIPE, SIG_DFL)) {}
  ~DefaultSigpipe() { std::signal(SIGPIPE, old_); }

 private:
  void (*old_)(int);
};

// `agatha align ... | head -n 1`: head exits after one line and agatha's next write
// fails (the SAM is ~1 MB, the pipe holds 64 kB). Like minimap2, agatha then ends by
// SIGPIPE without a message (the shell sees 141), even if its parent ignored SIGPIPE.
TEST_F(E2e, ClosedPipeEndsQuietlyBySigpipeLikeMinimap2) {
  const fs::path script = path("pipe.sh"), err = path("stderr");
  for (const char* parent : {"", "trap '' PIPE\n"}) {
    SCOPED_TRACE(*parent ? "SIGPIPE ignored by the parent" : "SIGPIPE at its default");
    std::ofstream(script) << parent << kAgatha << " align -x map-pb " << kMtRef << " " << kMtReads << " 2> "
                          << shell_quote(err) << " | head -n 1 > /dev/null\nexit ${PIPESTATUS[0]}\n";
    DefaultSigpipe sigpipe;
    const int code = run_script(script);
    const std::string msg = read_file(err);
    EXPECT_EQ(code, 128 + SIGPIPE) << "stderr:\n" << last_lines(msg);
    EXPECT_EQ(msg.find("[E::"), std::string::npos) << "an error message; stderr:\n" << last_lines(msg);
  }
  if (test::run_shell("command -v minimap2 > /dev/null 2>&1").code == 0) {
    std::ofstream(script) << "minimap2 -a -x map-pb " << kMtRef << " " << kMtReads
                          << " 2> /dev/null | head -n 1 > /dev/null\nexit ${PIPESTATUS[0]}\n";
    DefaultSigpipe sigpipe;
    EXPECT_EQ(run_script(script), 128 + SIGPIPE) << "minimap2 itself";
  }
}

// ---- output paths: what -o names is written, never replaced by something else ----

// -o through a symlink to /dev/stdout with stdout redirected to a file: the SAM reaches
// the file, and the link stays a link (a rename over it used to leave the file empty).
TEST_F(E2e, OutputThroughALinkToStdoutReachesTheRedirectedFile) {
  fs::create_symlink("/dev/stdout", path("to-stdout"));
  const Outcome direct = run("align -x map-pb " + kMtRef + " " + kMtReads);
  ASSERT_RAN(direct, "agatha align");
  const Outcome r = run("align -x map-pb " + kMtRef + " " + kMtReads + " -o " + shell_quote(path("to-stdout")));
  ASSERT_RAN(r, "agatha align -o to-stdout");
  EXPECT_EQ(describe_difference(lines_without_pg(direct.out), lines_without_pg(r.out)), "");
  EXPECT_TRUE(fs::is_symlink(path("to-stdout")));
  for (const auto& e : fs::directory_iterator(dir_.path()))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
}

// `agatha index -o` to a link to /dev/null and to a FIFO: written in place, the link
// and the FIFO stay what they are (the index was always renamed over the path).
TEST_F(E2e, IndexIntoADeviceOrFifoWritesThroughIt) {
  fs::create_symlink("/dev/null", path("to-null"));
  ASSERT_RAN(run("index -x map-pb " + kMtRef + " -o " + shell_quote(path("to-null"))), "agatha index -o to-null");
  EXPECT_TRUE(fs::is_symlink(path("to-null")));
  EXPECT_TRUE(fs::is_character_file("/dev/null"));

  ASSERT_RAN(run("index -x map-pb " + kMtRef + " -o " + shell_quote(path("ref.agi"))), "agatha index -o ref.agi");
  const fs::path fifo = path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const fs::path script = path("fifo.sh");
  std::ofstream(script) << "cat " << shell_quote(fifo) << " > " << shell_quote(path("copy.agi")) << " &\n"
                        << kAgatha << " index -x map-pb " << kMtRef << " -o " << shell_quote(fifo)
                        << " 2> /dev/null\ncode=$?\nwait\nexit $code\n";
  EXPECT_EQ(run_script(script), 0);
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_EQ(read_file(path("copy.agi")), read_file(path("ref.agi")));
}

// A link to a regular file: the file gets the output and keeps its permission bits; the
// link stays a link.
TEST_F(E2e, OutputThroughALinkToAFileReplacesTheFileAndKeepsItsMode) {
  const fs::path file = path("real.sam"), link = path("link.sam");
  std::ofstream(file) << "old\n";
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  fs::create_symlink(file, link);
  const Outcome r = align("-x map-pb", kMtRef, kMtReads, "out.sam");
  ASSERT_RAN(r, "agatha align -o out.sam");
  ASSERT_RAN(run("align -x map-pb " + kMtRef + " " + kMtReads + " -o " + shell_quote(link)),
             "agatha align -o link.sam");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(describe_difference(lines_without_pg(r.out), lines_without_pg(read_file(file))), "");
  EXPECT_EQ(fs::status(file).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
}

// SIGINT, SIGTERM or SIGHUP while the output is being written: the process ends by that
// signal and no temporary file is left (the reads come from a FIFO that stalls).
TEST_F(E2e, InterruptedRunLeavesNoTemporaryFile) {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    // Started under nohup, the test's children inherit SIGHUP ignored, and agatha keeps
    // an ignored signal ignored (as it must): that case cannot be checked here.
    if (sig == SIGHUP && test::signal_ignored(SIGHUP)) {
      std::printf("[  SKIPPED ] SIGHUP: ignored by whoever started the tests (nohup)\n");
      continue;
    }
    SCOPED_TRACE("signal " + std::to_string(sig));
    const fs::path fifo = path("reads.fifo"), out = path("out.sam"), script = path("stall.sh");
    fs::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // Job control: a background job of a script would otherwise start with SIGINT ignored.
    std::ofstream(script) << "set -m\n(head -n 8 " << kMtReads << "; exec sleep 60) > " << shell_quote(fifo)
                          << " &\nW=$!\n"
                          << kAgatha << " align -x map-pb " << kMtRef << " " << shell_quote(fifo) << " -o "
                          << shell_quote(out) << " 2> /dev/null &\nP=$!\n"
                          << "for i in $(seq 300); do ls " << shell_quote(out)
                          << ".tmp.* > /dev/null 2>&1 && break; sleep 0.1; done\n"
                          << "ls " << shell_quote(out) << ".tmp.* > /dev/null 2>&1 || { kill $P $W; exit 99; }\n"
                          << "kill -" << sig << " $P\nwait $P\ncode=$?\nkill $W\nexit $code\n";
    EXPECT_EQ(run_script(script), 128 + sig) << "99: no temporary file seen";
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(dir_.path()))
      if (e.path().filename().string().starts_with("out.sam")) left.push_back(e.path().filename().string());
    EXPECT_TRUE(left.empty()) << "left behind: " << left.front();
  }
}

// -o naming an input (directly or through a link) is refused before anything is written.
TEST_F(E2e, OutputThatIsAnInputIsRefused) {
  const fs::path reads = path("reads.fq"), ref = path("ref.fa"), link = path("reads-link.fq");
  fs::copy_file(test::source_path("data/reads.fq"), reads);
  fs::copy_file(test::source_path("data/ref.fa"), ref);
  fs::create_symlink(reads, link);
  const std::string before = read_file(reads);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"align -x map-pb " + shell_quote(ref) + " " + shell_quote(reads) + " -o " + shell_quote(reads), reads.string()},
      {"align -x map-pb " + shell_quote(ref) + " " + shell_quote(link) + " -o " + shell_quote(reads), link.string()},
      {"align -x map-pb " + shell_quote(ref) + " " + shell_quote(reads) + " -o " + shell_quote(ref), ref.string()},
      {"index -x map-pb " + shell_quote(ref) + " -o " + shell_quote(ref), ref.string()},
  };
  for (const auto& [args, input] : cases) {
    SCOPED_TRACE(args);
    const Outcome r = run(args);
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(last_line(r.err).find("is the input file '" + input + "'"), std::string::npos) << last_line(r.err);
  }
  EXPECT_EQ(read_file(reads), before);
  EXPECT_EQ(read_file(ref), read_file(test::source_path("data/ref.fa")));
}

// Bytes 0x00-0x03 in a read are A, C, G, T to minimap2 (seq_nt4_table): the read aligns
// as its lettered copy does, and SEQ holds the letters, so samtools reads the SAM back.
TEST_F(E2e, BytesBelowFourInAReadAlignAsTheirBases) {
  std::ifstream in(test::source_path("data/reads.fq"));
  std::string name, seq, plus, qual;
  std::getline(in, name), std::getline(in, seq), std::getline(in, plus), std::getline(in, qual);
  std::string coded = seq;
  for (size_t i = 0; i < coded.size(); i += 7) {
    const size_t k = std::string_view("ACGT").find(coded[i]);
    if (k != std::string_view::npos) coded[i] = static_cast<char>(k);
  }
  std::ofstream(path("letters.fq"), std::ios::binary) << name << '\n' << seq << "\n+\n" << qual << '\n';
  std::ofstream(path("coded.fq"), std::ios::binary) << name << '\n' << coded << "\n+\n" << qual << '\n';
  const Outcome want = align("-x map-pb", kMtRef, shell_quote(path("letters.fq")), "letters.sam");
  const Outcome got = align("-x map-pb", kMtRef, shell_quote(path("coded.fq")), "coded.sam");
  ASSERT_RAN(want, "letters");
  ASSERT_RAN(got, "coded");
  EXPECT_EQ(describe_difference(lines_without_pg(want.out), lines_without_pg(got.out)), "");
  EXPECT_NE(want.out.find("\t60\t"), std::string::npos) << "the read maps with MAPQ 60";
  if (have_samtools()) {
    EXPECT_EQ(test::run_shell("samtools view " + shell_quote(path("coded.sam")) + " > /dev/null 2>&1").code, 0);
  }
}

TEST_F(E2e, UnwritableOutputIsAnError) {
  const Outcome r = run("align -x map-pb " + kMtRef + " " + kMtReads + " -o /nonexistent/dir/x.sam");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(last_line(r.err), "[E::align] cannot create '/nonexistent/dir/x.sam': No such file or directory");
  EXPECT_EQ(r.out, "");
}

// A full disk: every write fails with ENOSPC (Linux's /dev/full), for SAM and BAM.
TEST_F(E2e, FullDiskIsAnError) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this system";
  for (const char* format : {"sam", "bam"}) {
    const Outcome r =
        run("align -x map-pb --format " + std::string(format) + " " + kMtRef + " " + kMtReads + " -o /dev/full");
    EXPECT_EQ(r.code, 1) << format;
    EXPECT_NE(last_line(r.err).find("No space left on device"), std::string::npos) << format << ": " << last_line(r.err);
  }
}

// minimap2 2.24 prints "[ERROR] no ID within the read group line" (or "[ERROR] the read
// group line is not started with @RG") and exits with 1; agatha words it the same with
// its own prefix, and leaves no -o file.
TEST_F(E2e, BadReadGroupLineIsRejected) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"'@RG\\tSM:y'", "[E::align] no ID within the read group line"},
      {"'RG\\tID:x'", "[E::align] the read group line is not started with @RG"},
  };
  for (const auto& [rg, message] : cases) {
    SCOPED_TRACE("-R " + rg);
    const fs::path out = path("out.sam");
    const Outcome r = run("align -x map-pb -R " + rg + " " + kMtRef + " " + kMtReads + " -o " + shell_quote(out));
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(last_line(r.err), message) << "stderr:\n" << last_lines(r.err);
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(fs::exists(out));
  }
}

}  // namespace
}  // namespace agatha
