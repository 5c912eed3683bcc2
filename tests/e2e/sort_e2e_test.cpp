// tests/e2e/sort_e2e_test.cpp — `agatha align -o out.bam --sort` end to end: with a
// --sort-mem small enough that several temporary files are merged, `samtools view -h`
// of the sorted BAM equals that of `samtools sort` applied to agatha's unsorted BAM
// (@PG lines aside: samtools adds its own), on the bundled example, on three
// references with secondary records, and on reads given three times (ties kept in input
// order, unmapped reads last); samtools quickcheck and samtools index accept it; the
// index (CSI by default, BAI with --index-format bai) answers region queries and
// idxstats as the one samtools builds; no temporary file remains. Bad combinations of
// options are usage errors (exit 1, a message, no file); an error in the reads, or a
// signal, after temporary files were written leaves no file behind. Tests that need
// samtools skip, saying so, without it.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/files.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace agatha {
namespace {

namespace fs = std::filesystem;
using test::last_line;
using test::last_lines;
using test::read_file;
using test::shell_quote;

bool have_samtools() { return test::run_shell("command -v samtools > /dev/null 2>&1").code == 0; }

// Lines of `text` without @PG lines.
std::string without_pg(const std::string& text) {
  std::string out;
  for (size_t pos = 0; pos < text.size();) {
    const size_t nl = text.find('\n', pos);
    const size_t end = nl == std::string::npos ? text.size() : nl + 1;
    if (text.compare(pos, 3, "@PG") != 0) out.append(text, pos, end - pos);
    pos = end;
  }
  return out;
}

// The N of "sorted R records (N temporary file(s))" in agatha's log; -1 when absent.
int temporary_files(const std::string& err) {
  const size_t at = err.find("sorted ");
  const size_t open = at == std::string::npos ? at : err.find(" records (", at);
  if (open == std::string::npos) return -1;
  const size_t digits = open + std::string(" records (").size();
  const size_t end = err.find(" temporary file", digits);
  if (end == std::string::npos || end == digits) return -1;
  return std::stoi(err.substr(digits, end - digits));
}

const std::string kMtRef = test::quoted_source_path("data/ref.fa");
const std::string kMtReads = test::quoted_source_path("data/reads.fq");

class Sort : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return dir_.file(name); }
  std::string q(const std::string& name) const { return shell_quote(path(name)); }

  // `samtools CMD` in the test directory: its stdout; a failure is a test failure.
  std::string samtools(const std::string& args) const {
    const test::CommandResult r = test::run_shell("cd " + shell_quote(dir_.string()) + " && samtools " + args);
    EXPECT_EQ(r.code, 0) << "samtools " << args << "\n" << last_lines(r.err);
    return r.out;
  }

  // Entries of the test directory other than `keep`, by name.
  std::vector<std::string> others(const std::vector<std::string>& keep) const {
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(dir_.path())) {
      const std::string name = e.path().filename().string();
      if (std::find(keep.begin(), keep.end(), name) == keep.end()) left.push_back(name);
    }
    return left;
  }

  // Aligns REF READS with OPTIONS twice, unsorted (u.bam) and sorted with `sort_options`
  // (s.bam), and checks s.bam against samtools sort of u.bam; returns the number of
  // temporary files the sort reported.
  int check_against_samtools(const std::string& options, const std::string& ref, const std::string& reads,
                             const std::string& sort_options, const std::string& index_ext) {
    const test::CommandResult u = test::run_agatha("align " + options + " " + ref + " " + reads + " -o " + q("u.bam"));
    EXPECT_EQ(u.code, 0) << last_lines(u.err);
    const test::CommandResult s = test::run_agatha("align " + options + " " + ref + " " + reads + " -o " + q("s.bam") +
                                                   " --sort " + sort_options);
    EXPECT_EQ(s.code, 0) << last_lines(s.err);
    EXPECT_TRUE(fs::exists(path("s.bam" + index_ext))) << "no s.bam" << index_ext;
    EXPECT_EQ(others({"u.bam", "s.bam", "s.bam" + index_ext}), std::vector<std::string>{})
        << "files besides the outputs";
    samtools("sort -o ref-sorted.bam u.bam");
    const std::string want = without_pg(samtools("view -h ref-sorted.bam"));
    EXPECT_NE(want.find("@HD\tVN:1.6\tSO:coordinate\n"), std::string::npos);
    EXPECT_EQ(without_pg(samtools("view -h s.bam")), want);
    samtools("quickcheck -v s.bam");
    // samtools index accepts the file (and builds its own index, to compare with).
    samtools("index " + std::string(index_ext == ".bai" ? "-b" : "-c") + " -o ref-index" + index_ext + " s.bam");
    fs::remove(path("ref-sorted.bam"));
    return temporary_files(s.err);
  }

  test::TempDir dir_;
};

TEST_F(Sort, BundledExampleEqualsSamtoolsSortThroughSeveralTemporaryFiles) {
  if (!have_samtools()) GTEST_SKIP() << "samtools is not installed: sorted BAM not compared with samtools sort";
  const int runs = check_against_samtools("-x map-pb -t 2", kMtRef, kMtReads, "--sort-mem 64K", ".csi");
  EXPECT_GT(runs, 3) << "the records went through several temporary files";
  // The index: idxstats and region queries as with the index samtools built (for a
  // copy of the file, since idxstats finds the index by the file's name).
  fs::copy_file(path("s.bam"), path("copy.bam"));
  samtools("index -c copy.bam");
  const std::string stats = samtools("idxstats s.bam");
  EXPECT_EQ(stats, samtools("idxstats copy.bam"));
  EXPECT_EQ(stats, "MT_orang\t16499\t155\t0\n*\t0\t0\t0\n") << "every read of the example maps";
  for (const std::string region : {"MT_orang:1000-2000", "MT_orang:16000-16499", "MT_orang:5366"}) {
    const std::string got = samtools("view -X s.bam s.bam.csi " + region);
    EXPECT_FALSE(got.empty()) << region;
    EXPECT_EQ(got, samtools("view -X s.bam ref-index.csi " + region)) << region;
  }
}

TEST_F(Sort, BaiIndexWithIndexFormatBai) {
  if (!have_samtools()) GTEST_SKIP() << "samtools is not installed: sorted BAM not compared with samtools sort";
  const int runs = check_against_samtools("-x map-pb", kMtRef, kMtReads, "--sort-mem 200K --index-format bai", ".bai");
  EXPECT_GT(runs, 1);
  EXPECT_EQ(read_file(path("s.bam.bai")), read_file(path("ref-index.bai"))) << "the BAI samtools index builds";
  EXPECT_EQ(samtools("view -c s.bam MT_orang:8000-9000"),
            samtools("view -c -X s.bam ref-index.bai MT_orang:8000-9000"));
}

TEST_F(Sort, ThreeReferencesWithSecondariesEqualSamtoolsSort) {
  if (!have_samtools()) GTEST_SKIP() << "samtools is not installed: sorted BAM not compared with samtools sort";
  const int runs =
      check_against_samtools("-x map-pb", test::quoted_source_path("tests/data/seeds/rep.fa.gz"),
                             test::quoted_source_path("tests/data/seeds/rep.fq"), "--sort-mem 20K", ".csi");
  EXPECT_GT(runs, 1);
  const std::string stats = samtools("idxstats s.bam");
  for (const std::string ref : {"chr1\t", "chr2\t", "chr3\t"}) EXPECT_NE(stats.find(ref), std::string::npos) << stats;
}

// Every read of tests/data/e2e/mt.sub.fq.gz (ten that map, two that do not) three times
// under names of their own: equal positions and strands abound, and unmapped records.
TEST_F(Sort, TiesKeepInputOrderAndUnmappedReadsComeLast) {
  if (!have_samtools()) GTEST_SKIP() << "samtools is not installed: sorted BAM not compared with samtools sort";
  const std::vector<std::string> lines = test::read_lines(test::source_path("tests/data/e2e/mt.sub.fq.gz"));
  ASSERT_EQ(lines.size() % 4, 0u);
  std::string fq;
  for (int copy = 0; copy < 3; ++copy)
    for (size_t i = 0; i < lines.size(); i += 4)
      fq += lines[i].substr(0, lines[i].find_first_of(" \t")) + "_" + std::to_string(copy) + "\n" + lines[i + 1] +
            "\n+\n" + lines[i + 3] + "\n";
  const test::TempDir inputs;
  const std::string reads = shell_quote(inputs.write("three.fq", fq));
  const int runs = check_against_samtools("-x map-pb", kMtRef, reads, "--sort-mem 4K", ".csi");
  EXPECT_GT(runs, 3);
  // The records themselves: each mapped read's three copies in input order, side by side.
  const std::string view = samtools("view s.bam");
  std::vector<std::string> names, flags;
  for (size_t pos = 0; pos < view.size();) {
    const size_t nl = view.find('\n', pos);
    const std::string line = view.substr(pos, nl - pos);
    names.push_back(line.substr(0, line.find('\t')));
    flags.push_back(line.substr(line.find('\t') + 1, line.find('\t', line.find('\t') + 1) - line.find('\t') - 1));
    pos = nl + 1;
  }
  ASSERT_GE(names.size(), 36u);
  for (size_t i = 0; i + 2 < names.size(); i += 3) {
    if (flags[i] == "4") break;  // the unmapped records
    EXPECT_EQ(names[i].substr(names[i].size() - 2), "_0") << names[i];
    EXPECT_EQ(names[i + 1], names[i].substr(0, names[i].size() - 1) + "1");
    EXPECT_EQ(names[i + 2], names[i].substr(0, names[i].size() - 1) + "2");
  }
  // The unmapped ones last, in input order: random_1500 and short_12 of copy 0, 1, 2.
  std::vector<std::string> unmapped;
  for (size_t i = 0; i < names.size(); ++i)
    if (flags[i] == "4") unmapped.push_back(names[i]);
  ASSERT_EQ(unmapped.size(), 6u);
  EXPECT_EQ(flags[names.size() - 6], "4") << "unmapped records are last";
  EXPECT_EQ(unmapped[0].substr(unmapped[0].size() - 2), "_0");
  EXPECT_EQ(unmapped[5].substr(unmapped[5].size() - 2), "_2");
}

// ---- usage errors: exit 1, a message, no file ----

TEST_F(Sort, BadCombinationsAreUsageErrors) {
  const std::string align = "align -x map-pb " + kMtRef + " " + kMtReads + " ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--sort", "[E::align] --sort writes a sorted BAM file: give -o FILE.bam or --format bam"},
      {"--sort -o " + q("out.sam"), "[E::align] --sort writes a sorted BAM file: give -o FILE.bam or --format bam"},
      {"--sort --format sam -o " + q("out.bam"),
       "[E::align] --sort writes a sorted BAM file: give -o FILE.bam or --format bam"},
      {"--sort -c -o " + q("out.paf"), "[E::align] --sort writes a sorted BAM file: give -o FILE.bam or --format bam"},
      {"--sort -c -o " + q("out.bam"), "[E::align] BAM output is SAM's: it cannot hold PAF (--map-only, -c)"},
      {"--sort --format bam",
       "[E::align] --sort needs -o FILE: the index and the temporary files are written beside the sorted BAM file"},
      {"--sort --format bam -o -",
       "[E::align] --sort needs -o FILE: the index and the temporary files are written beside the sorted BAM file"},
      {"--sort-mem 1M -o " + q("out.bam"), "[E::align] --sort-mem and --index-format go with --sort"},
      {"--index-format bai -o " + q("out.bam"), "[E::align] --sort-mem and --index-format go with --sort"},
      {"--sort --sort-mem 12X -o " + q("out.bam"),
       "[E::align] --sort-mem takes a size in bytes with an optional K, M or G suffix (such as 768M), not '12X'"},
      {"--sort --sort-mem 0 -o " + q("out.bam"), "[E::align] --sort-mem must be positive"},
      {"--sort --index-format tbi -o " + q("out.bam"), "[E::align] --index-format only takes 'csi' or 'bai'"},
      {"--sort --format bam -o /dev/null",
       "[E::align] cannot write a sorted BAM file to '/dev/null': not a regular file (its index and temporary files "
       "go beside it)"},
      {"--sort -o /nonexistent/dir/x.bam",
       "[E::align] cannot create BAM file '/nonexistent/dir/x.bam': No such file "
       "or directory"},
  };
  for (const auto& [args, message] : cases) {
    SCOPED_TRACE(args);
    const test::CommandResult r = test::run_agatha(align + args);
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(last_line(r.err), message) << last_lines(r.err);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(others({}), std::vector<std::string>{});
  }
}

// ---- failures after temporary files were written ----

// A read with a quality string of the wrong length after 100 good ones: the run fails
// with the reader's message once records were sorted into temporary files (-K small
// enough that the good reads are aligned and written first), and leaves nothing.
TEST_F(Sort, AnErrorInTheReadsLeavesNoFile) {
  const std::vector<std::string> lines = test::read_lines(test::source_path("data/reads.fq"));
  std::string fq;
  for (size_t i = 0; i < 400; ++i) fq += lines[i] + "\n";
  fq += "@bad\nACGT\n+\nIII\n";
  const std::string reads = dir_.write("bad.fq", fq);
  const test::CommandResult r = test::run_agatha("align -x map-pb -K 20k --sort --sort-mem 16K " + kMtRef + " " +
                                                 shell_quote(reads) + " -o " + q("out.bam"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(last_line(r.err).find("quality string length 3 differs from sequence length 4"), std::string::npos)
      << last_lines(r.err);
  EXPECT_EQ(others({"bad.fq"}), std::vector<std::string>{});
}

// SIGINT, SIGTERM or SIGHUP once temporary files exist (the reads come from a FIFO that
// stalls after 20 reads; -K 1 aligns and writes each read as it comes): the process
// ends by the signal and every temporary file is gone.
TEST_F(Sort, InterruptedSortLeavesNoTemporaryFile) {
  const std::string agatha = shell_quote(test::agatha_binary());
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    // Started under nohup, the test's children inherit SIGHUP ignored, and agatha keeps
    // an ignored signal ignored (as it must): that case cannot be checked here.
    if (sig == SIGHUP && test::signal_ignored(SIGHUP)) {
      std::printf("[  SKIPPED ] SIGHUP: ignored by whoever started the tests (nohup)\n");
      continue;
    }
    SCOPED_TRACE("signal " + std::to_string(sig));
    const std::string fifo = path("reads.fifo"), script = path("stall.sh");
    fs::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::ofstream(script) << "set -m\n(head -n 80 " << kMtReads << "; exec sleep 60) > " << shell_quote(fifo)
                          << " &\nW=$!\n"
                          << agatha << " align -x map-pb -K 1 --sort --sort-mem 1 " << kMtRef << " "
                          << shell_quote(fifo) << " -o " << q("out.bam") << " 2> /dev/null &\nP=$!\n"
                          << "for i in $(seq 300); do ls " << q("out.bam")
                          << ".tmp.*.0002.bam > /dev/null 2>&1 && break; sleep 0.1; done\n"
                          << "ls " << q("out.bam") << ".tmp.*.0002.bam > /dev/null 2>&1 || { kill $P $W; exit 99; }\n"
                          << "kill -" << sig << " $P\nwait $P\ncode=$?\nkill $W\nexit $code\n";
    EXPECT_EQ(test::run_shell("bash " + shell_quote(script) + " > /dev/null").code, 128 + sig)
        << "99: no temporary file seen";
    EXPECT_EQ(others({"reads.fifo", "stall.sh"}), std::vector<std::string>{});
  }
}

}  // namespace
}  // namespace agatha
