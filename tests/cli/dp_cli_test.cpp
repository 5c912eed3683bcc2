// `agatha dp` end to end: exact messages and exit codes for bad input, --check,
// output format, empty and truncated files. Then the command line of every subcommand:
// exit codes of command-line errors, minimap2's option checks and option order.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "support/files.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"
#include "support/text.hpp"

namespace agatha {
namespace {

namespace fs = std::filesystem;

using Outcome = test::CommandResult;

// `agatha dp ARGS`, stdout and stderr together.
Outcome dp(const std::string& args) { return test::run_agatha("dp " + args + " 2>&1"); }

class DpCli : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) { return dir_.write(name, text); }
  test::TempDir dir_;
};

const std::string kTask = "t1\t0\t2\t4\t1\t4\t2\t24\t1\t-1\t-1\t0\tACGT\tACGT";
// mte_q is r minus the 16-rounded band end, as in the reference: 6 - 15 = -9.
const std::string kAnswer = "\t8\t8\t3\t3\t8\t3\t8\t-9\t0\t0\t1\t4M";

TEST_F(DpCli, WritesIdAndAnswerColumns) {
  const Outcome r = dp(write("a.tsv", kTask + "\n"));
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "t1" + kAnswer + "\n");
}

TEST_F(DpCli, ExtraColumnsAreIgnoredAndCheckPasses) {
  const Outcome r = dp("--check " + write("a.tsv", kTask + kAnswer + "\n"));
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "checked 1, mismatches 0\n");
}

TEST_F(DpCli, CheckReportsADifferenceAndFails) {
  std::string wrong = kAnswer;
  wrong.replace(wrong.find("4M"), 2, "3M");
  const std::string path = write("a.tsv", kTask + wrong + "\n");
  const Outcome r = dp("--check --backend scalar " + path);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out,
            "[W::dp] '" + path + "' line 1 task t1 differs: cigar expected 3M got 4M;\n" + "checked 1, mismatches 1\n");
}

TEST_F(DpCli, CheckWithoutAnswersIsAnError) {
  const std::string path = write("a.tsv", kTask + "\n");
  const Outcome r = dp("--check " + path);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "[E::dp] '" + path + "' line 1: --check needs the answer columns 15-26\n");
}

TEST_F(DpCli, MalformedLineNamesFileAndLine) {
  const std::string path = write("bad.tsv", kTask + "\n" + "t2\t0\t2\n");
  const Outcome r = dp(path);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("[E::dp] '" + path + "' line 2: expected at least 14 tab-separated columns, found 3\n"),
            std::string::npos)
      << r.out;
}

TEST_F(DpCli, MissingFile) {
  const Outcome r = dp((dir_ / "nope.tsv").string());
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "[E::dp] cannot open '" + (dir_ / "nope.tsv").string() + "': No such file or directory\n");
}

TEST_F(DpCli, EmptyFileIsValid) {
  const Outcome r = dp(write("empty.tsv", ""));
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "");
}

TEST_F(DpCli, TruncatedGzipIsAnError) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += kTask + "\n";
  const fs::path gz = dir_.write_gz("t.tsv.gz", text);
  fs::resize_file(gz, fs::file_size(gz) / 2);
  const Outcome r = dp(gz.string() + " -o " + (dir_ / "out.tsv").string());
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("[E::dp] error reading '" + gz.string() + "' after line"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("truncated gzip stream"), std::string::npos) << r.out;
}

TEST_F(DpCli, UnwritableOutput) {
  const Outcome r = dp(write("a.tsv", kTask + "\n") + " -o " + (dir_ / "no" / "such" / "dir.tsv").string());
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("[E::dp] cannot create"), std::string::npos) << r.out;
}

// AGATHA_DP_RECORD: `agatha align` writes every DP task it computed, with its answer, to
// a task file that `agatha dp --check` reproduces; the alignments are those of a run
// without it.
TEST_F(DpCli, AlignRecordsItsDpTasks) {
  const std::string inputs = " " + test::quoted_source_path("data/ref.fa") + " " +
                             test::quoted_source_path("data/reads.fq");
  const std::string tasks = dir_.file("tasks.tsv");
  const Outcome plain = test::run_agatha("align -t 2" + inputs + " 2>/dev/null");
  const Outcome recorded =
      test::run_shell("AGATHA_DP_RECORD=" + test::shell_quote(tasks) + " " + test::shell_quote(test::agatha_binary()) +
                      " align -t 2" + inputs);
  ASSERT_EQ(plain.code, 0);
  ASSERT_EQ(recorded.code, 0) << recorded.err;
  EXPECT_EQ(test::lines_without_pg(recorded.out), test::lines_without_pg(plain.out));
  EXPECT_NE(recorded.err.find("DP tasks to '" + tasks + "'"), std::string::npos) << recorded.err;
  const Outcome check = dp("--backend scalar --check -o /dev/null " + test::shell_quote(tasks));
  EXPECT_EQ(check.code, 0) << check.out;
  EXPECT_NE(check.out.find(", mismatches 0"), std::string::npos) << check.out;
  EXPECT_EQ(check.out.find("checked 0,"), std::string::npos) << check.out;  // tasks were recorded
  // A transition penalty (-b) has no column: refused before anything runs.
  const std::string refused = dir_.file("refused.tsv");
  const Outcome b = test::run_shell("AGATHA_DP_RECORD=" + test::shell_quote(refused) + " " +
                                    test::shell_quote(test::agatha_binary()) + " align -b 2" + inputs + " 2>&1 >/dev/null");
  EXPECT_EQ(b.code, 1);
  EXPECT_NE(b.out.find("AGATHA_DP_RECORD: a task file has no column for -b's transition penalty"), std::string::npos)
      << b.out;
  EXPECT_FALSE(fs::exists(refused));
}

TEST_F(DpCli, UnknownBackendIsRejected) {
  const Outcome r = dp("--backend quantum " + write("a.tsv", kTask + "\n"));
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("quantum"), std::string::npos) << r.out;
}

// Command-line errors exit 1, as minimap2's do, whatever CLI11 calls them; --help and
// --version exit 0.
TEST_F(DpCli, CommandLineErrorsExitOne) {
  for (const char* args : {"dp", "dp a.tsv --no-such-option", "dp a.tsv -t 0", "align", "align -x"}) {
    const Outcome r = test::run_agatha(std::string(args) + " 2>&1");
    EXPECT_EQ(r.code, 1) << args << ": " << r.out;
    EXPECT_FALSE(r.out.empty()) << args;
  }
  EXPECT_EQ(test::run_agatha("dp --help >/dev/null 2>&1").code, 0);
  EXPECT_EQ(test::run_agatha("--version >/dev/null 2>&1").code, 0);
}

// ---- the command line of every subcommand ----

class Cli : public DpCli {
 protected:
  // `agatha ARGS`, stdout and stderr together.
  static Outcome agatha(const std::string& args) { return test::run_agatha(args + " 2>&1"); }
  // The source file's path, quoted for the shell.
  static std::string src(const std::string& rel) { return test::quoted_source_path(rel); }
};

using test::last_line;

// An argument no subcommand expects is a command-line error: exit code 1 (not CLI11's
// 109), with CLI11's message; --help exits 0 on every subcommand.
TEST_F(Cli, UnexpectedArgumentExitsOneOnEverySubcommand) {
  const std::string sam = src("tests/data/eval/cases.sam"), ref = src("data/ref.fa"), reads = src("data/reads.fq");
  const std::string out = "'" + (dir_ / "out").string() + "'";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"dp " + write("a.tsv", kTask + "\n") + " extra", "extra"},
      {"index " + ref + " -o " + out + " extra", "extra"},
      {"eval " + sam + " --no-such-option", "--no-such-option"},
      {"compare " + sam + " " + sam + " extra", "extra"},
      {"gpu-info extra", "extra"},
  };
  for (const auto& [args, extra] : cases) {
    SCOPED_TRACE(args);
    const Outcome r = agatha(args);
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_NE(r.out.find("The following argument was not expected: " + extra), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(dir_ / "out"));
  }
  // align reads minimap2's options by minimap2's rules (several query files may follow the
  // reference): an unknown option is minimap2's error, naming the option.
  for (const std::string& args : {"align " + ref + " " + reads + " --no-such-option", "align -aZ " + ref + " " + reads}) {
    SCOPED_TRACE(args);
    const Outcome r = agatha(args);
    EXPECT_EQ(r.code, 1) << r.out;
    const std::string word = args.find("-aZ") != std::string::npos ? "-aZ" : "--no-such-option";
    EXPECT_EQ(last_line(r.out), "[E::align] unknown option in \"" + word + "\"") << r.out;
  }
  for (const char* sub : {"dp", "index", "align", "eval", "compare", "gpu-info"}) {
    const Outcome r = agatha(std::string(sub) + " --help");
    EXPECT_EQ(r.code, 0) << sub << ": " << r.out;
    EXPECT_NE(r.out.find("Usage:"), std::string::npos) << sub << ": " << r.out;
  }
}

// Option values and combinations minimap2 rejects, in minimap2's words (and agatha's for
// its own options): "[E::COMMAND] MESSAGE" as the last line, exit code 1.
TEST_F(Cli, OptionErrorsAreWordedAsMinimap2) {
  const std::string inputs = " " + src("data/ref.fa") + " " + src("data/reads.fq");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"align --for-only --rev-only" + inputs,
       "[E::align] --for-only and --rev-only can't be applied at the same time"},
      {"align -x map-pb --rev-only --for-only" + inputs,
       "[E::align] --for-only and --rev-only can't be applied at the same time"},
      {"align --mask-len 5x" + inputs, "[E::align] invalid value '5x' for --mask-len"},
      {"align --cap-sw-mem big" + inputs, "[E::align] invalid value 'big' for --cap-sw-mem"},
      {"align -f 0.1x" + inputs, "[E::align] invalid value '0.1x' for -f"},
      {"align -U 10,x" + inputs, "[E::align] invalid value 'x' for -U"},
      {"align -K 5q" + inputs, "[E::align] invalid value '5q' for -K"},
      {"align --dp-batch 0" + inputs, "[E::align] --dp-batch must be positive"},
      {"align --cs=longer" + inputs, "[E::align] --cs only takes 'short', 'long' or 'none'"},
      {"align --format cram" + inputs, "[E::align] --format only takes 'sam' or 'bam'"},
      {"align --secondary=maybe" + inputs, "[E::align] --secondary only takes 'yes' or 'no'"},
      {"align -x map-pb -x foo" + inputs, "[E::align] unknown preset 'foo'"},
      {"align -x sr" + inputs + " " + src("data/reads.fq") + " " + src("data/reads.fq"),
       "[E::align] incorrect input: in the sr mode, please specify no more than two query files."},
      {"align -O 4,24 -E 1,2" + inputs, "[E::align] dual gap penalties violating E1>E2 and O1+E1<O2+E2"},
      {"align -x map-pb -O 6" + inputs, "[E::align] dual gap penalties violating E1>E2 and O1+E1<O2+E2"},
      {"index --bucket-bits 25 " + src("data/ref.fa") + " -o /dev/null",
       "[E::index] bucket bits must be within 0 and 24"},
      {"index -x foo " + src("data/ref.fa") + " -o /dev/null", "[E::index] unknown preset 'foo'"},
  };
  for (const auto& [args, message] : cases) {
    SCOPED_TRACE(args);
    const Outcome r = agatha(args);
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_EQ(last_line(r.out), message) << r.out;
  }
  // A choice agatha adds to minimap2's options: CLI11 checks it and names the choices.
  const Outcome r = agatha("align --dp-backend quantum" + inputs);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("--dp-backend: quantum not in {scalar,cpu,gpu,gpu-sim,gpu-emu,auto}"), std::string::npos)
      << r.out;
}

// minimap2 applies -x before every other option, wherever it stands: -k 17 -w 8 before
// -x map-pb still give k 17 and w 8 (tests/data/e2e case rep_k_w_before_x compares
// with minimap2), in align and in index (the .agi holds them).
TEST_F(Cli, PresetAppliesBeforeEveryOtherOption) {
  const std::string ref = src("data/ref.fa"), reads = " " + src("tests/data/e2e/mt.sub.fq.gz");
  const auto map_only = [&](const std::string& args) {
    const Outcome r = test::run_agatha("align --map-only " + args + reads + " 2>/dev/null");
    EXPECT_EQ(r.code, 0) << args;
    EXPECT_FALSE(r.out.empty()) << args;
    return r.out;
  };
  const std::string want = map_only("-x map-pb -k 17 -w 8 " + ref);
  EXPECT_NE(want, map_only("-x map-pb " + ref)) << "-k 17 -w 8 change nothing here: a weak test";
  EXPECT_EQ(map_only("-k 17 -w 8 -x map-pb " + ref), want);
  EXPECT_EQ(map_only("-k 17 -x map-ont -w 8 -x map-pb " + ref), want) << "presets layered in order";
  const std::string agi = "'" + (dir_ / "ref.agi").string() + "'";
  ASSERT_EQ(agatha("index -k 17 -w 8 -x map-pb " + ref + " -o " + agi).code, 0);
  EXPECT_EQ(map_only("-x map-pb " + agi), want);
}

// -N 0 is minimap2's "-N <value before it> --secondary=no", with a warning; the value
// before it is the preset's when the preset sets one (asm5: 50).
TEST_F(Cli, DashNZeroKeepsThePreviousValueAndTurnsSecondariesOff) {
  const std::string inputs = " " + src("data/ref.fa") + " " + src("tests/data/e2e/mt.sub.fq.gz") + " -o /dev/null";
  for (const auto& [options, n] : std::vector<std::pair<std::string, std::string>>{
           {"-N 0", "5"}, {"-N 0 -x asm5", "50"}, {"-x map-pb -N 0", "5"}}) {
    SCOPED_TRACE(options);
    const Outcome r = agatha("align --map-only " + options + inputs);
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("[W::align] changed '-N 0' to '-N " + n + " --secondary=no'.\n"), std::string::npos) << r.out;
  }
  // --secondary=yes does not undo it (minimap2 converts -N 0 after reading every option).
  const std::string rep =
      " " + src("tests/data/seeds/rep.fa.gz") + " " + src("tests/data/seeds/rep.fq") + " 2>/dev/null";
  const Outcome with = test::run_agatha("align --map-only -x map-hifi -p 0.1" + rep);
  const Outcome yes = test::run_agatha("align --map-only -x map-hifi -p 0.1 -N 0 --secondary=yes" + rep);
  const Outcome no = test::run_agatha("align --map-only -x map-hifi -p 0.1 --secondary=no" + rep);
  EXPECT_NE(with.out.find("tp:A:S"), std::string::npos) << "no secondaries to turn off: a weak test";
  EXPECT_EQ(yes.code, 0);
  EXPECT_EQ(yes.out, no.out);
  EXPECT_EQ(yes.out.find("tp:A:S"), std::string::npos);
}

TEST_F(DpCli, BundledExampleChecks) {
  for (const char* backend : {"scalar", "cpu"}) {
    const Outcome r = dp(std::string("--check --backend ") + backend + " " + test::source_path("data/mt.dp.tsv.gz"));
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(r.out, "checked 43, mismatches 0\n");
  }
}

TEST_F(DpCli, SpliceGoldenTasksCheck) {
  for (const char* backend : {"scalar", "cpu"}) {
    const Outcome r = dp(std::string("--check --backend ") + backend + " " +
                         test::source_path("tests/data/splice/edge.golden.tsv.gz"));
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(r.out, "checked 2042, mismatches 0\n");
  }
  // The GPU backends compute splice tasks themselves: no note of tasks handed to the CPU.
  for (const char* backend : {"gpu-sim", "gpu-emu"}) {
    const Outcome r = dp(std::string("--check --backend ") + backend + " " +
                         test::source_path("tests/data/splice/drna.golden.tsv.gz"));
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(r.out, "checked 500, mismatches 0\n") << backend;
  }
  // Scorings outside the engines' range (tests/data/splice/wide) still go to the scalar
  // kernel, with a note.
  const Outcome r = dp("--check --backend gpu-sim " + test::source_path("tests/data/splice/wide.golden.tsv.gz"));
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("[M::dp] backend gpu-sim: single-affine"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("checked 2022, mismatches 0\n"), std::string::npos) << r.out;
}

TEST_F(DpCli, SpliceTaskAnswerHasIntron) {
  // Two exons around a GT..AG intron of 40 bases, minimap2 -x splice scoring:
  // 16 matches - q2 = -16, the intron placed at its motifs (q + 40e = 42 > q2).
  const std::string intron = "GTAAGT" + std::string(28, 'C') + "TTTCAG";
  const std::string task =
      "s1\t65792\t1\t2\t1\t2\t1\t32\t9\t9\t-1\t*\tATCCATGCTCCATCCA\tATCCATGC" + intron + "TCCATCCA";
  const Outcome r = dp(write("s.tsv", task + "\n"));
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("\t3\t8M40N8M\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.substr(0, 7), "s1\t-16\t") << r.out;
}

TEST_F(DpCli, BenchPrintsThroughput) {
  const Outcome r = dp("--bench -o /dev/null " + test::source_path("data/mt.dp.tsv.gz"));
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("tasks=43 cells="), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cells_per_s="), std::string::npos) << r.out;
}

// --bench runs each batch once untimed before timing it, except with --profile: the
// kernel's path counts hold every task once (mt.dp.tsv.gz: 43 tasks).
TEST_F(DpCli, BenchWithProfileCountsEachTaskOnce) {
  const Outcome r =
      dp("--backend gpu-sim --profile --bench -o /dev/null " + test::source_path("data/mt.dp.tsv.gz"));
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("tasks=43 cells="), std::string::npos) << r.out;
  long profiled = 0;
  for (size_t at = r.out.find("profile: kind="); at != std::string::npos; at = r.out.find("profile: kind=", at + 1)) {
    const size_t t = r.out.find(" tasks=", at);
    ASSERT_NE(t, std::string::npos) << r.out;
    profiled += std::stol(r.out.substr(t + 7));
  }
  EXPECT_EQ(profiled, 43) << r.out;
}

}  // namespace
}  // namespace agatha
