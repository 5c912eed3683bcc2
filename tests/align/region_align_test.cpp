// The DP calls of region alignment (src/align/region_align.*) against minimap2 2.24's
// own trace: tests/data/region/ holds `--print-aln-seq` output for the first 20 reads of
// data/reads.fq (map-pb); see the README there for the command.
#include "../../src/align/region_align.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "../../src/io/index_file.hpp"
#include "../../src/pipeline/read_mapper.hpp"
#include "support/dp.hpp"
#include "support/files.hpp"
#include "support/paths.hpp"

namespace agatha::align {
namespace {

struct ExpectedCall {
  int q = 0, q2 = 0, e = 0, e2 = 0, bw = 0, flag = 0, zdrop = 0;
  std::string target, query;
  int score = 0;
  std::string cigar;
};
struct ExpectedRead {
  std::string name;
  std::vector<ExpectedCall> calls;
};

std::vector<ExpectedRead> load_trace(const std::string& path) {
  std::istringstream in(test::read_gz(path));
  std::vector<ExpectedRead> reads;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("QR\t", 0) == 0) {
      std::istringstream ss(line.substr(3));
      ExpectedRead r;
      ss >> r.name;
      reads.push_back(r);
    } else if (line.rfind("===>", 0) == 0) {
      ExpectedCall c;
      std::sscanf(line.c_str(), "===> q=(%d,%d), e=(%d,%d), bw=%d, flag=%d, zdrop=%d", &c.q, &c.q2, &c.e, &c.e2, &c.bw,
                  &c.flag, &c.zdrop);
      std::getline(in, c.target);
      std::getline(in, c.query);
      std::string s;
      std::getline(in, s);
      char buf[1 << 16];
      buf[0] = 0;
      std::sscanf(s.c_str(), "score=%d, cigar=%65535s", &c.score, buf);
      c.cigar = buf;
      reads.back().calls.push_back(c);
    }
  }
  return reads;
}

using test::cigar_text;
using test::decode;

struct TraceCount {
  int reads = 0, reads_ok = 0, calls = 0, calls_ok = 0, inv_calls = 0;
};

// Maps the reads of `reads_path` (in order, as many as the trace has) and compares every
// DP call with the trace.
TraceCount check_trace(const std::vector<ExpectedRead>& expected, const std::string& reads_path,
                       const std::string& preset, int zdrop, int zdrop_inv) {
  AlignOptions opt;
  opt.apply_preset(preset);
  opt.zdrop = zdrop, opt.zdrop_inv = zdrop_inv;
  opt.validate();
  const index::MinimizerIndex idx = io::build_index_from_file(test::source_path("data/ref.fa"), opt);
  const pipeline::ReadMapper mapper(idx, opt);
  DpBackendOptions dpo;
  dpo.backend = "cpu";
  auto dp = make_dp_backend(dpo);
  TraceCount n;
  n.reads = static_cast<int>(expected.size());
  std::istringstream fq(test::read_gz(reads_path));
  for (const ExpectedRead& er : expected) {
    std::string h, seq, plus, qual;
    EXPECT_TRUE(std::getline(fq, h) && std::getline(fq, seq) && std::getline(fq, plus) && std::getline(fq, qual));
    const std::string name = h.substr(1, h.find_first_of(" \t") - 1);
    EXPECT_EQ(name, er.name);
    if (name != er.name) return n;
    pipeline::ReadMapping m = mapper.map(name, seq);
    std::vector<RegionAlignment> al = align_regions(opt, idx, ReadCodes(seq), m.regions, m.chains.anchors, *dp);
    std::vector<const RegionDpCall*> got;
    for (const RegionAlignment& ra : al)
      for (const RegionDpCall& c : ra.calls) got.push_back(&c);
    n.calls += static_cast<int>(er.calls.size());
    bool read_ok = got.size() == er.calls.size();
    EXPECT_EQ(got.size(), er.calls.size()) << name;
    for (size_t i = 0; i < std::min(got.size(), er.calls.size()); ++i) {
      const ExpectedCall& e = er.calls[i];
      const RegionDpCall& g = *got[i];
      const bool is_ext = (g.flag & dp_flag::kExtzOnly) != 0;
      // mm_align_pair prints opt->zdrop, not the zdrop it passes on: a call run with
      // zdrop_inv (inversion Z-drop pass, or an extension of a split_inv part) still
      // shows opt->zdrop. Such calls are counted in n.inv_calls.
      const bool zdrop_ok = e.zdrop == opt.zdrop && (g.zdrop == opt.zdrop || g.zdrop == opt.zdrop_inv);
      if (g.zdrop != opt.zdrop) ++n.inv_calls;
      const bool ok = e.q == opt.q && e.q2 == opt.q2 && e.e == opt.e && e.e2 == opt.e2 &&
                      static_cast<int>(g.flag) == e.flag && g.w == e.bw && zdrop_ok &&
                      g.end_bonus == (is_ext ? opt.end_bonus : -1) && decode(g.target) == e.target &&
                      decode(g.query) == e.query && g.result.score == e.score && cigar_text(g.result.cigar) == e.cigar;
      EXPECT_TRUE(ok) << name << " call " << i << ": flag " << g.flag << "/" << e.flag << " bw " << g.w << "/" << e.bw
                      << " zdrop " << g.zdrop << "/" << e.zdrop << " tlen " << g.target.size() << "/" << e.target.size()
                      << " qlen " << g.query.size() << "/" << e.query.size() << " score " << g.result.score << "/"
                      << e.score << " target_eq " << (decode(g.target) == e.target) << " query_eq "
                      << (decode(g.query) == e.query) << " cigar_eq " << (cigar_text(g.result.cigar) == e.cigar);
      if (ok)
        ++n.calls_ok;
      else
        read_ok = false;
    }
    if (read_ok) ++n.reads_ok;
  }
  return n;
}

void report(const char* what, const TraceCount& n) {
  std::cout << what << ": " << n.reads_ok << "/" << n.reads << " reads, " << n.calls_ok << "/" << n.calls
            << " DP calls match minimap2 (" << n.inv_calls << " run with zdrop_inv)\n";
}

// The first 20 reads of data/reads.fq, map-pb (the committed trace).
TEST(RegionAlign, DpCallsMatchMinimap2TraceMapPb) {
  const std::vector<ExpectedRead> expected =
      load_trace(test::source_path("tests/data/region/map-pb.first20.aln-seq.txt.gz"));
  ASSERT_EQ(expected.size(), 20u);
  const TraceCount n = check_trace(expected, test::source_path("data/reads.fq"), "map-pb", 400, 200);
  report("map-pb first 20", n);
  EXPECT_EQ(n.calls, 184);
  EXPECT_EQ(n.calls_ok, n.calls);
}

// Synthetic reads with inversions, insertions, deletions and random stretches
// (tests/data/region/synthetic.fq.gz): exercises the Z-drop second pass and splits.
TEST(RegionAlign, DpCallsMatchMinimap2TraceSynthetic) {
  const std::vector<ExpectedRead> expected =
      load_trace(test::source_path("tests/data/region/synthetic.map-pb.aln-seq.txt.gz"));
  ASSERT_EQ(expected.size(), 20u);
  const TraceCount n =
      check_trace(expected, test::source_path("tests/data/region/synthetic.fq.gz"), "map-pb", 400, 200);
  report("synthetic", n);
  EXPECT_EQ(n.calls_ok, n.calls);
}

// Any other trace: AGATHA_REGION_TRACE (the --print-aln-seq stderr), AGATHA_REGION_READS
// (default data/reads.fq), AGATHA_REGION_PRESET (default map-pb), AGATHA_REGION_ZDROP
// ("z,zi", default 400,200).
TEST(RegionAlign, DpCallsMatchCustomTrace) {
  const char* trace = std::getenv("AGATHA_REGION_TRACE");
  if (!trace) GTEST_SKIP() << "AGATHA_REGION_TRACE not set";
  const char* reads = std::getenv("AGATHA_REGION_READS");
  const char* preset = std::getenv("AGATHA_REGION_PRESET");
  int z = 400, zi = 200;
  if (const char* zs = std::getenv("AGATHA_REGION_ZDROP")) {
    std::sscanf(zs, "%d,%d", &z, &zi);
  }
  const TraceCount n = check_trace(load_trace(trace), reads ? reads : test::source_path("data/reads.fq"),
                                   preset ? preset : "map-pb", z, zi);
  report("custom trace", n);
  EXPECT_EQ(n.calls_ok, n.calls);
}

}  // namespace
}  // namespace agatha::align
