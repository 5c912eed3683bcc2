// `agatha dp` end to end: exact messages and exit codes for bad input, --check,
// output format, empty and truncated files.
#include "../test_support.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace agatha {
namespace {

namespace fs = std::filesystem;

using Outcome = test::CommandResult;

// `agatha dp ARGS`, stdout and stderr together.
Outcome dp(const std::string& args) { return test::run_agatha("dp " + args + " 2>&1"); }

class DpCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("agatha-cli-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  fs::path dir_;
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
  const fs::path gz = dir_ / "t.tsv.gz";
  gzFile f = gzopen(gz.c_str(), "wb");
  gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
  gzclose(f);
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

TEST_F(DpCli, BundledExampleChecks) {
  for (const char* backend : {"scalar", "cpu"}) {
    const Outcome r = dp(std::string("--check --backend ") + backend + " " + test::source_path("data/mt.dp.tsv.gz"));
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(r.out, "checked 43, mismatches 0\n");
  }
}

TEST_F(DpCli, BenchPrintsThroughput) {
  const Outcome r = dp("--bench -o /dev/null " + test::source_path("data/mt.dp.tsv.gz"));
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("tasks=43 cells="), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cells_per_s="), std::string::npos) << r.out;
}

}  // namespace
}  // namespace agatha
