// tests/io/bam_sort_test.cpp — SortedBamWriter and parse_mem_size.
//
// The order: a hand-checked fixture (references in @SQ order, unmapped last, position,
// forward before reverse, ties in input order), and minimap2's SAM of the e2e fixtures
// (tests/data/e2e/expected: the bundled example of data/, three references with
// secondaries, unmapped reads; each record also given three times for ties) against a
// stable sort of the same records by the key read from the SAM text, for memory budgets
// from one record per run to everything in memory, fan-ins from 2 (merges of merges) to
// the default, with and without a thread pool. Besides: the header's @HD line, the index
// (a region query through it gives the records that overlap the region), no temporary
// file left after close() or after an error, the files replaced and a stale index of the
// other format removed, and the errors.
#include "../../src/io/bam_sort.hpp"

#include <agatha/error.hpp>

#include <gtest/gtest.h>
#include <htslib/hts.h>
#include <htslib/kstring.h>
#include <htslib/sam.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "../../src/io/bam_writer.hpp"
#include "support/errors.hpp"
#include "support/files.hpp"
#include "support/paths.hpp"
#include "support/sam_text.hpp"
#include "support/text.hpp"

namespace agatha::io {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

std::string error_of(const std::function<void()>& f) { return test::error_of<Error>(f, "(no exception)"); }

// ---- parse_mem_size ----

TEST(ParseMemSize, TakesBytesAndBinarySuffixes) {
  EXPECT_EQ(parse_mem_size("1"), 1u);
  EXPECT_EQ(parse_mem_size("5000"), 5000u);
  EXPECT_EQ(parse_mem_size("1K"), 1024u);
  EXPECT_EQ(parse_mem_size("64k"), 64u * 1024);
  EXPECT_EQ(parse_mem_size("768M"), 768ull * 1024 * 1024);
  EXPECT_EQ(parse_mem_size("3m"), 3ull << 20);
  EXPECT_EQ(parse_mem_size("2G"), 2ull << 30);
  EXPECT_EQ(parse_mem_size("1g"), 1ull << 30);
  EXPECT_EQ(SortOptions{}.mem_bytes, parse_mem_size("768M"));
}

TEST(ParseMemSize, RejectsAnythingElseNamingTheOption) {
  for (const char* bad : {"", "M", "K1", "12X", "1.5M", "-1", "+1", " 1", "1 ", "10MB", "1e6", "0x10", "1KK"}) {
    SCOPED_TRACE(std::string("'") + bad + "'");
    const std::string msg = error_of([&] { (void)parse_mem_size(bad); });
    EXPECT_EQ(msg, std::string("--sort-mem takes a size in bytes with an optional K, M or G suffix (such as 768M), "
                               "not '") +
                       bad + "'");
  }
  EXPECT_EQ(error_of([] { (void)parse_mem_size("0"); }), "--sort-mem must be positive");
  EXPECT_EQ(error_of([] { (void)parse_mem_size("0G"); }), "--sort-mem must be positive");
  EXPECT_EQ(error_of([] { (void)parse_mem_size("9000000000G"); }), "--sort-mem '9000000000G' is too large");
  EXPECT_EQ(error_of([] { (void)parse_mem_size("99999999999999999999"); }),
            "--sort-mem takes a size in bytes with an optional K, M or G suffix (such as 768M), not "
            "'99999999999999999999'");
  // Thrown as OptionError, so that the command line reports it as a usage error.
  EXPECT_THROW((void)parse_mem_size("x", "--opt"), OptionError);
}

TEST(IndexPathFor, AppendsTheFormatsExtension) {
  EXPECT_EQ(index_path_for("a/out.bam", IndexFormat::kCsi), "a/out.bam.csi");
  EXPECT_EQ(index_path_for("out.bam", IndexFormat::kBai), "out.bam.bai");
}

// ---- reading BAM files back ----

using BamText = test::SamText;  // sam_format1's lines

BamText read_back(const std::string& path) { return test::read_hts(path); }

// The SAM text of a file: header lines (with '\n') and record lines (without).
using test::SamText;
using test::split_sam;

// The key of a record line read from its text: the rank of RNAME among the header's @SQ
// lines ('*' after all), POS, and FLAG's reverse bit.
using TextKey = std::tuple<size_t, long, int>;

std::vector<std::string> stable_sorted_by_text_key(const std::string& header, std::vector<std::string> records) {
  std::map<std::string, size_t> rank;
  for (size_t pos = 0, nl; pos < header.size(); pos = nl + 1) {
    nl = header.find('\n', pos);
    if (nl == std::string::npos) nl = header.size();
    const std::string line = header.substr(pos, nl - pos);
    if (line.rfind("@SQ\t", 0) != 0) continue;
    const auto f = test::split_tabs(line);
    for (const std::string& x : f)
      if (x.rfind("SN:", 0) == 0) rank.emplace(x.substr(3), rank.size());
  }
  const auto key = [&](const std::string& r) {
    const auto f = test::split_tabs(r);
    const auto it = rank.find(f[2]);
    return TextKey{it == rank.end() ? rank.size() : it->second, std::stol(f[3]), (std::stoi(f[1]) & 16) ? 1 : 0};
  };
  std::stable_sort(records.begin(), records.end(),
                   [&](const std::string& a, const std::string& b) { return key(a) < key(b); });
  return records;
}

// Every file in `dir`, by name.
std::vector<std::string> files_in(const TempDir& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir.path())) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

void write_sorted(const std::string& path, const SortOptions& opt, const SamText& sam, int* runs = nullptr) {
  SortedBamWriter w(path, opt);
  w.write_header(sam.header);
  for (const std::string& r : sam.records) w.write_records(r + '\n');
  w.close();
  EXPECT_EQ(w.records(), static_cast<int64_t>(sam.records.size()));
  if (runs) *runs = w.runs_written();
}

// ---- the order, by hand ----

TEST(SortedBamWriter, HandCheckedOrder) {
  const std::string header = "@SQ\tSN:chrA\tLN:1000\n@SQ\tSN:chrB\tLN:1000\n";
  // name, flag, rname, pos: input order
  const std::vector<std::string> in = {
      "r1\t0\tchrB\t10", "r2\t4\t*\t0", "r3\t16\tchrA\t50",  "r4\t0\tchrA\t50", "r5\t16\tchrA\t50",
      "r6\t0\tchrA\t10", "r7\t4\t*\t0", "r8\t256\tchrA\t50", "r9\t0\tchrB\t9",
  };
  // chrA 10; chrA 50 forward in input order (r4, r8), then reverse in input order (r3,
  // r5); chrB 9, chrB 10; the unmapped records last in input order.
  const std::vector<std::string> want = {"r6", "r4", "r8", "r3", "r5", "r9", "r1", "r2", "r7"};
  SamText sam{header, {}};
  for (const std::string& r : in) {
    const bool unmapped = r.find("\t*\t") != std::string::npos;
    sam.records.push_back(r + (unmapped ? "\t0\t*" : "\t60\t4M") + "\t*\t0\t0\tACGT\t*");
  }
  for (const uint64_t mem : {uint64_t{1}, uint64_t{1000}, SortOptions{}.mem_bytes}) {
    for (const int fan_in : {2, 3, 64}) {
      SCOPED_TRACE("mem " + std::to_string(mem) + ", fan-in " + std::to_string(fan_in));
      TempDir dir;
      SortOptions opt;
      opt.mem_bytes = mem;
      opt.fan_in = fan_in;
      int runs = 0;
      write_sorted(dir.file("out.bam"), opt, sam, &runs);
      if (mem == 1) {
        EXPECT_GT(runs, static_cast<int>(in.size()) - 1) << "a run per record (and merged runs)";
      }
      if (mem == SortOptions{}.mem_bytes) {
        EXPECT_EQ(runs, 0);
      }
      const BamText back = read_back(dir.file("out.bam"));
      std::vector<std::string> names;
      for (const std::string& r : back.records) names.push_back(r.substr(0, r.find('\t')));
      EXPECT_EQ(names, want);
      EXPECT_EQ(back.header, "@HD\tVN:1.6\tSO:coordinate\n" + header);
      EXPECT_EQ(files_in(dir), (std::vector<std::string>{"out.bam", "out.bam.csi"}));
    }
  }
}

TEST(SortedBamWriter, ExistingHdLineGetsSoCoordinateAndLosesGoAndSs) {
  SamText sam{"@HD\tVN:1.4\tSO:unsorted\tGO:query\tSS:unsorted:x\n@SQ\tSN:c\tLN:100\n",
              {"b\t0\tc\t20\t60\t4M\t*\t0\t0\tACGT\t*", "a\t0\tc\t10\t60\t4M\t*\t0\t0\tACGT\t*"}};
  TempDir dir;
  write_sorted(dir.file("o.bam"), SortOptions{}, sam);
  const BamText back = read_back(dir.file("o.bam"));
  EXPECT_EQ(back.header, "@HD\tVN:1.4\tSO:coordinate\n@SQ\tSN:c\tLN:100\n");
  ASSERT_EQ(back.records.size(), 2u);
  EXPECT_EQ(back.records[0].substr(0, 2), "a\t");
}

// ---- minimap2's SAM of the e2e fixtures ----

// The records of `name` (an expected file of tests/data/e2e), each given `copies` times
// in a row under names of their own ("_c0", "_c1", ...), so that equal keys abound.
SamText fixture(const std::string& name, int copies) {
  const SamText sam = split_sam(test::read_lines(test::source_path("tests/data/e2e/expected/" + name + ".sam.gz")));
  SamText out{sam.header, {}};
  for (const std::string& r : sam.records)
    for (int c = 0; c < copies; ++c) {
      const size_t tab = r.find('\t');
      out.records.push_back(r.substr(0, tab) + "_c" + std::to_string(c) + r.substr(tab));
    }
  return out;
}

// The records as BamWriter writes them (in input order), read back through htslib,
// then stably sorted by their text's key: what every sorted file must hold.
std::vector<std::string> expected_order(const SamText& sam) {
  TempDir dir;
  BamWriter w(dir.file("plain.bam"));
  w.write_header(sam.header);
  for (const std::string& r : sam.records) w.write_records(r);
  w.close();
  const BamText plain = read_back(dir.file("plain.bam"));
  return stable_sorted_by_text_key(sam.header, plain.records);
}

class SortFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(SortFixture, EqualsAStableSortForEveryBudgetFanInAndPool) {
  const SamText sam = fixture(GetParam(), 3);
  ASSERT_GT(sam.records.size(), 20u);
  const std::vector<std::string> want = expected_order(sam);
  ASSERT_EQ(want.size(), sam.records.size());
  struct Setting {
    uint64_t mem;
    int fan_in, threads;
    bool spills;
  };
  for (const Setting& s : {Setting{SortOptions{}.mem_bytes, 64, 1, false}, Setting{20'000, 64, 1, true},
                           Setting{20'000, 2, 1, true}, Setting{1, 3, 1, true}, Setting{50'000, 4, 3, true}}) {
    SCOPED_TRACE("mem " + std::to_string(s.mem) + ", fan-in " + std::to_string(s.fan_in) + ", threads " +
                 std::to_string(s.threads));
    TempDir dir;
    SortOptions opt;
    opt.mem_bytes = s.mem;
    opt.fan_in = s.fan_in;
    opt.threads = s.threads;
    int runs = 0;
    write_sorted(dir.file("s.bam"), opt, sam, &runs);
    if (s.spills) {
      EXPECT_GT(runs, 2) << "several temporary files merged";
    } else {
      EXPECT_EQ(runs, 0);
    }
    EXPECT_EQ(read_back(dir.file("s.bam")).records, want);
    EXPECT_EQ(files_in(dir), (std::vector<std::string>{"s.bam", "s.bam.csi"}));
  }
}

INSTANTIATE_TEST_SUITE_P(Minimap2, SortFixture, ::testing::Values("mt_map_pb", "rep_map_pb", "sub_map_pb"));

// ---- the index ----

// The records of `bam` that overlap [beg, end) of `ref`, through its index, as names.
std::vector<std::string> query(const std::string& bam, const std::string& index, const std::string& region) {
  std::vector<std::string> names;
  htsFile* fp = hts_open(bam.c_str(), "r");
  sam_hdr_t* h = fp ? sam_hdr_read(fp) : nullptr;
  hts_idx_t* idx = fp ? sam_index_load2(fp, bam.c_str(), index.c_str()) : nullptr;
  if (!fp || !h || !idx) {
    ADD_FAILURE() << "cannot open " << bam << " with its index " << index;
  } else {
    hts_itr_t* it = sam_itr_querys(idx, h, region.c_str());
    bam1_t* b = bam_init1();
    while (it && sam_itr_next(fp, it, b) >= 0) names.emplace_back(bam_get_qname(b));
    bam_destroy1(b);
    hts_itr_destroy(it);
  }
  if (idx) hts_idx_destroy(idx);
  if (h) sam_hdr_destroy(h);
  if (fp) hts_close(fp);
  return names;
}

// The same, by reading every record: those on `ref` whose [pos, end) meets [beg, end).
std::vector<std::string> scan(const std::string& bam, const std::string& ref, int64_t beg, int64_t end) {
  std::vector<std::string> names;
  htsFile* fp = hts_open(bam.c_str(), "r");
  sam_hdr_t* h = sam_hdr_read(fp);
  bam1_t* b = bam_init1();
  const int tid = sam_hdr_name2tid(h, ref.c_str());
  while (sam_read1(fp, h, b) >= 0)
    if (b->core.tid == tid && !(b->core.flag & BAM_FUNMAP) && b->core.pos < end && bam_endpos(b) > beg)
      names.emplace_back(bam_get_qname(b));
  bam_destroy1(b);
  sam_hdr_destroy(h);
  hts_close(fp);
  return names;
}

TEST(SortedBamWriter, IndexAnswersRegionQueries) {
  const SamText sam = fixture("rep_map_pb", 1);
  for (const IndexFormat format : {IndexFormat::kCsi, IndexFormat::kBai}) {
    SCOPED_TRACE(format == IndexFormat::kCsi ? "csi" : "bai");
    TempDir dir;
    SortOptions opt;
    opt.index = format;
    opt.mem_bytes = 30'000;
    const std::string bam = dir.file("q.bam");
    write_sorted(bam, opt, sam);
    const std::string index = index_path_for(bam, format);
    ASSERT_TRUE(fs::exists(index));
    EXPECT_GE(fs::last_write_time(index), fs::last_write_time(bam)) << "the index is not older than its data";
    // Regions on each reference: all of it, a window, one base.
    int hits = 0;
    for (const std::string ref : {"chr1", "chr2", "chr3"})
      for (const auto& [beg, end] :
           std::vector<std::pair<int64_t, int64_t>>{{0, 1'000'000}, {2000, 6000}, {4000, 4001}}) {
        const std::string region = ref + ":" + std::to_string(beg + 1) + "-" + std::to_string(end);
        SCOPED_TRACE(region);
        const auto got = query(bam, index, region);
        EXPECT_EQ(got, scan(bam, ref, beg, end));
        hits += static_cast<int>(got.size());
      }
    EXPECT_GT(hits, 0);
  }
}

TEST(SortedBamWriter, BaiRefusesAReferenceLongerThan2To29) {
  TempDir dir;
  SortOptions opt;
  opt.index = IndexFormat::kBai;
  SortedBamWriter w(dir.file("big.bam"), opt);
  const std::string msg = error_of([&] { w.write_header("@SQ\tSN:small\tLN:10\n@SQ\tSN:huge\tLN:600000000\n"); });
  EXPECT_NE(msg.find("reference 'huge' is longer than 2^29 bases"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'" + dir.file("big.bam") + "'"), std::string::npos) << msg;
}

// ---- files: replaced when complete, never left half-made ----

TEST(SortedBamWriter, ReplacesTheOutputAndRemovesAStaleIndexOfTheOtherFormat) {
  TempDir dir;
  const std::string bam = dir.file("r.bam");
  test::write_file(bam, "old");
  test::write_file(bam + ".bai", "old index");
  test::write_file(bam + ".csi", "old index");
  const SamText sam = fixture("sub_map_pb", 1);
  SortOptions opt;
  opt.mem_bytes = 10'000;
  write_sorted(bam, opt, sam);
  EXPECT_EQ(files_in(dir), (std::vector<std::string>{"r.bam", "r.bam.csi"}));
  EXPECT_EQ(read_back(bam).records.size(), sam.records.size());
  opt.index = IndexFormat::kBai;
  write_sorted(bam, opt, sam);
  EXPECT_EQ(files_in(dir), (std::vector<std::string>{"r.bam", "r.bam.bai"}));
}

TEST(SortedBamWriter, AnErrorAfterRunsWereWrittenLeavesNothing) {
  const SamText sam = fixture("mt_map_pb", 1);
  TempDir dir;
  const std::string bam = dir.file("e.bam");
  {
    SortOptions opt;
    opt.mem_bytes = 20'000;
    opt.fan_in = 3;
    SortedBamWriter w(bam, opt);
    w.write_header(sam.header);
    for (size_t i = 0; i < 100; ++i) w.write_records(sam.records[i]);
    EXPECT_GT(w.runs_written(), 3);
    EXPECT_GT(files_in(dir).size(), 3u) << "runs, the output's and the index's temporary files";
    std::string bad = sam.records[100];
    bad.replace(bad.find("\tMT_orang\t"), 10, "\tchrZ\t");
    const std::string msg = error_of([&] { w.write_records(bad); });
    EXPECT_NE(msg.find("record 101"), std::string::npos) << msg;
    EXPECT_NE(msg.find("RNAME 'chrZ' is not in the header"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'" + bam + "'"), std::string::npos) << msg;
  }  // destroyed without close()
  EXPECT_EQ(files_in(dir), std::vector<std::string>{});
}

TEST(SortedBamWriter, OnlyARegularFileOrANewNameIsAccepted) {
  EXPECT_NE(error_of([] { SortedBamWriter w("-", SortOptions{}); }).find("not to standard output"), std::string::npos);
  if (fs::exists("/dev/null")) {
    const std::string msg = error_of([] { SortedBamWriter w("/dev/null", SortOptions{}); });
    EXPECT_EQ(msg,
              "cannot write a sorted BAM file to '/dev/null': not a regular file (its index and temporary files go "
              "beside it)");
  }
  const std::string msg = error_of([] { SortedBamWriter w("/nonexistent-agatha-dir/s.bam", SortOptions{}); });
  EXPECT_EQ(msg, "cannot create BAM file '/nonexistent-agatha-dir/s.bam': No such file or directory");
}

TEST(SortedBamWriter, ARunNeverReplacesAnExistingFile) {
  TempDir dir;
  const std::string bam = dir.file("x.bam");
  SortOptions opt;
  opt.mem_bytes = 1;
  SortedBamWriter w(bam, opt);
  w.write_header("@SQ\tSN:c\tLN:100\n");
  // The name the first run will take: the output's temporary file, ".0000.bam".
  std::string temp;
  for (const std::string& name : files_in(dir))
    if (name.rfind("x.bam.tmp.", 0) == 0) temp = name;
  ASSERT_FALSE(temp.empty());
  const std::string taken = dir.file(temp + ".0000.bam");
  test::write_file(taken, "someone else's");
  const std::string msg = error_of([&] { w.write_records("a\t0\tc\t10\t60\t4M\t*\t0\t0\tACGT\t*"); });
  EXPECT_EQ(msg, "cannot create the temporary file '" + taken + "': File exists");
  EXPECT_EQ(test::read_file(taken), "someone else's");
}

TEST(SortedBamWriter, HeaderAndRecordCallsInOrder) {
  TempDir dir;
  SortedBamWriter w(dir.file("h.bam"), SortOptions{});
  EXPECT_NE(error_of([&] { w.write_records("x\t4\t*\t0\t0\t*\t*\t0\t0\tA\t*\n"); }).find("before the header"),
            std::string::npos);
  w.write_header("@SQ\tSN:c\tLN:10\n");
  EXPECT_NE(error_of([&] { w.write_header(""); }).find("the header was written already"), std::string::npos);
  w.close();
  w.close();  // a second close does nothing
  EXPECT_EQ(read_back(dir.file("h.bam")).records.size(), 0u);
  EXPECT_TRUE(fs::exists(dir.file("h.bam.csi")));
}

}  // namespace
}  // namespace agatha::io
