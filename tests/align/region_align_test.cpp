// The DP calls of region alignment (src/align/region_align.*) against minimap2 2.24's
// own traces: tests/data/region/ holds `--print-aln-seq` output for the first 20 reads of
// data/reads.fq (map-pb) and for synthetic reads with inversions (map-pb; map-ont with
// -z 200,100); see the README there for the commands. Then the Z-drop each call is
// handed, which the traces do not show.
#include "../../src/align/region_align.hpp"

#include <gtest/gtest.h>

#include <agatha/cigar.hpp>
#include <agatha/error.hpp>
#include <agatha/nt4.hpp>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
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
      // 2.24 prints "flag=", 2.31 "ksw_flag=" (and the end bonus after zdrop).
      if (std::sscanf(line.c_str(), "===> q=(%d,%d), e=(%d,%d), bw=%d, flag=%d, zdrop=%d", &c.q, &c.q2, &c.e, &c.e2,
                      &c.bw, &c.flag, &c.zdrop) != 7)
        std::sscanf(line.c_str(), "===> q=(%d,%d), e=(%d,%d), bw=%d, ksw_flag=%d, zdrop=%d", &c.q, &c.q2, &c.e, &c.e2,
                    &c.bw, &c.flag, &c.zdrop);
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
// `scoring`, when given, sets -A -B -O -E after the preset.
TraceCount check_trace(const std::vector<ExpectedRead>& expected, const std::string& reads_path,
                       const std::string& preset, int zdrop, int zdrop_inv,
                       const std::function<void(AlignOptions&)>& scoring = {}, const std::string& ref = "data/ref.fa",
                       Release release = Release::k2_24) {
  AlignOptions opt;
  opt.set_release(release);  // the traces are 2.24's unless said otherwise
  opt.apply_preset(preset);
  opt.zdrop = zdrop, opt.zdrop_inv = zdrop_inv;
  if (scoring) scoring(opt);
  opt.validate();
  const index::MinimizerIndex idx = io::build_index_from_file(test::source_path(ref), opt);
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
      // One gap piece: minimap2 runs ksw_extz2 (the trace prints the same header).
      const bool single = opt.q == opt.q2 && opt.e == opt.e2;
      const bool ok = e.q == opt.q && e.q2 == opt.q2 && e.e == opt.e && e.e2 == opt.e2 &&
                      ((g.flag & dp_flag::kSingleAffine) != 0) == single &&
                      static_cast<int>(g.flag & ~dp_flag::kSingleAffine) == e.flag && g.w == e.bw && zdrop_ok &&
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

// Short reads with the sr preset (tests/data/e2e/sr.ecoli.fq.gz against the ONT slice):
// the extensions to the read's ends, and the DP fills that replace an ungapped fill
// which Z-drops (the ungapped fills themselves are no DP calls, in minimap2 as here).
TEST(RegionAlign, DpCallsMatchMinimap2TraceShortReads) {
  const std::vector<ExpectedRead> expected = load_trace(test::source_path("tests/data/region/sr.ecoli.aln-seq.txt.gz"));
  ASSERT_EQ(expected.size(), 534u);
  const TraceCount n = check_trace(expected, test::source_path("tests/data/e2e/sr.ecoli.fq.gz"), "sr", 100, 100, {},
                                   "tests/data/e2e/ont.ref.fa.gz");
  report("sr", n);
  EXPECT_GT(n.calls, 900);
  EXPECT_EQ(n.calls_ok, n.calls);
}

// The same reads under minimap2 2.31 (--compat 2.31): an ungapped fill that scores no
// more than a gapped alignment could is replaced by a DP fill (mm_align1's
// max_gapped_score), 51 calls more than 2.24's trace.
TEST(RegionAlign, DpCallsMatchMinimap2_2_31TraceShortReads) {
  const std::vector<ExpectedRead> expected =
      load_trace(test::source_path("tests/data/region/sr.ecoli.2.31.aln-seq.txt.gz"));
  ASSERT_EQ(expected.size(), 534u);
  const TraceCount n = check_trace(expected, test::source_path("tests/data/e2e/sr.ecoli.fq.gz"), "sr", 100, 100, {},
                                   "tests/data/e2e/ont.ref.fa.gz", Release::k2_31);
  report("sr 2.31", n);
  EXPECT_EQ(n.calls, 1049);
  EXPECT_EQ(n.calls_ok, n.calls);
}

// The longest stretch of anchors on one diagonal (mm_max_stretch), by the bases its
// k-mers cover: ties go to the first; a lone anchor or a region of one anchor is itself.
// A chromosome-length read's codes are made in pieces on several threads: the same codes
// as on one, both strands (lower case, N and other letters included), for lengths that do
// and do not divide evenly.
TEST(ReadCodes, SameCodesOnAnyNumberOfThreads) {
  std::mt19937_64 rng(7);
  const std::string letters = "ACGTacgtNnRY";
  for (const size_t n : {size_t{0}, size_t{1000}, (size_t{3} << 20) + 7}) {
    std::string seq(n, 'A');
    for (char& c : seq) c = letters[rng() % letters.size()];
    const ReadCodes one(seq, 1);
    const ReadCodes::Codes &fwd = one.strand(false), &rev = one.strand(true);
    ASSERT_EQ(one.size(), n);
    ASSERT_EQ(fwd.size(), n);
    ASSERT_EQ(rev.size(), n);
    for (size_t i = 0; i < n; i += 997) {
      const uint8_t want = nt4(seq[i]);
      EXPECT_EQ(fwd[i], want) << i;
      EXPECT_EQ(rev[n - 1 - i], want > 3 ? 4 : 3 - want) << i;
    }
    for (const int threads : {2, 3, 8}) {
      const ReadCodes many(seq, threads);
      for (const bool r : {false, true})
        EXPECT_TRUE(std::ranges::equal(one.strand(r), many.strand(r))) << n << " " << threads << " " << r;
    }
  }
}

// A strand is made when first asked for, once, whichever thread asks (a query aligned on
// one strand holds only that one); the codes of a sequence they hold are those of a view
// of it; flip() makes each strand the other.
TEST(ReadCodes, StrandsMadeOnFirstUseOnce) {
  std::mt19937_64 rng(11);
  std::string seq((size_t{2} << 20) + 5, 'A');
  for (char& c : seq) c = "ACGTN"[rng() % 5];
  const ReadCodes view(seq, 2);
  EXPECT_FALSE(view.built(false));
  EXPECT_FALSE(view.built(true));
  const ReadCodes::Codes& fwd = view.strand(false);
  EXPECT_TRUE(view.built(false));
  EXPECT_FALSE(view.built(true));  // the other strand is not made with it
  std::vector<const ReadCodes::Codes*> seen(8, nullptr);
  {
    std::vector<std::jthread> askers;
    for (size_t t = 0; t < seen.size(); ++t) askers.emplace_back([&, t] { seen[t] = &view.strand(true); });
  }
  for (const ReadCodes::Codes* p : seen) EXPECT_EQ(p, seen[0]);
  EXPECT_TRUE(view.built(true));
  const ReadCodes::Codes& rev = *seen[0];
  for (size_t i = 0; i < seq.size(); ++i) {
    ASSERT_EQ(fwd[i], nt4(seq[i])) << i;
    ASSERT_EQ(rev[seq.size() - 1 - i], fwd[i] > 3 ? 4 : 3 - fwd[i]) << i;
  }

  ReadCodes held(std::string(seq), 3);
  EXPECT_TRUE(std::ranges::equal(held.strand(true), rev));
  EXPECT_FALSE(held.built(false));
  held.flip();
  EXPECT_TRUE(held.built(false));  // the reverse strand made above is now the read
  EXPECT_FALSE(held.built(true));
  EXPECT_TRUE(std::ranges::equal(held.strand(false), rev));
  EXPECT_TRUE(std::ranges::equal(held.strand(true), fwd));
}

TEST(MaxStretch, HighestScoringRunOnOneDiagonal) {
  auto anchor = [](int32_t r, int32_t q) {
    return map::Anchor{static_cast<uint64_t>(r), 21ULL << 32 | static_cast<uint32_t>(q)};  // span 21
  };
  // Diagonal 0: three anchors 5 apart (21 + 5 + 5 = 31); then diagonal +3: four anchors 10
  // apart (21 + 10 * 3 = 51); then diagonal +1: one anchor (21).
  const std::vector<map::Anchor> a = {anchor(100, 100), anchor(105, 105), anchor(110, 110), anchor(150, 153),
                                      anchor(160, 163), anchor(170, 173), anchor(180, 183), anchor(200, 201)};
  map::Region r;
  r.as = 0, r.cnt = static_cast<int32_t>(a.size());
  int32_t as = -1, cnt = -1;
  max_stretch(r, a.data(), as, cnt);
  EXPECT_EQ(as, 3);
  EXPECT_EQ(cnt, 4);
  r.as = 0, r.cnt = 3;  // one diagonal only
  max_stretch(r, a.data(), as, cnt);
  EXPECT_EQ(as, 0);
  EXPECT_EQ(cnt, 3);
  r.as = 6, r.cnt = 2;  // two runs of one anchor, 21 each: the first
  max_stretch(r, a.data(), as, cnt);
  EXPECT_EQ(as, 6);
  EXPECT_EQ(cnt, 1);
  r.as = 7, r.cnt = 1;
  max_stretch(r, a.data(), as, cnt);
  EXPECT_EQ(as, 7);
  EXPECT_EQ(cnt, 1);
}

// The same reads with map-ont and -z 200,100: other k, w, band and gap costs, and Z-drops
// low enough to drop, split and realign more often.
TEST(RegionAlign, DpCallsMatchMinimap2TraceSyntheticMapOntZ200) {
  const std::vector<ExpectedRead> expected =
      load_trace(test::source_path("tests/data/region/synthetic.map-ont-z200.aln-seq.txt.gz"));
  ASSERT_EQ(expected.size(), 20u);
  const TraceCount n =
      check_trace(expected, test::source_path("tests/data/region/synthetic.fq.gz"), "map-ont", 200, 100);
  report("synthetic map-ont -z 200,100", n);
  EXPECT_EQ(n.calls, 417);
  EXPECT_EQ(n.calls_ok, n.calls);
}

// The same reads under scorings off the presets (tests/data/region/README.md): one gap
// piece (-O4 -E2: every call is ksw_extz2's), and values past the fast kernels' 8-bit
// range, which the cpu backend hands to the scalar kernels (-A100 -B200: the mismatch
// score is -56 in minimap2's int8 matrix).
TEST(RegionAlign, DpCallsMatchMinimap2TraceSingleAffine) {
  const std::vector<ExpectedRead> expected =
      load_trace(test::source_path("tests/data/region/synthetic.map-ont-O4E2.aln-seq.txt.gz"));
  ASSERT_EQ(expected.size(), 20u);
  const TraceCount n = check_trace(expected, test::source_path("tests/data/region/synthetic.fq.gz"), "map-ont", 200,
                                   100, [](AlignOptions& o) { o.q = o.q2 = 4, o.e = o.e2 = 2; });
  report("synthetic map-ont -O4 -E2 -z 200,100", n);
  EXPECT_EQ(n.calls, 417);
  EXPECT_EQ(n.calls_ok, n.calls);
}

TEST(RegionAlign, DpCallsMatchMinimap2TraceWideSingleAffine) {
  const std::vector<ExpectedRead> expected =
      load_trace(test::source_path("tests/data/region/synthetic.map-ont-A60O50E10.aln-seq.txt.gz"));
  ASSERT_EQ(expected.size(), 20u);
  const TraceCount n = check_trace(expected, test::source_path("tests/data/region/synthetic.fq.gz"), "map-ont", 200,
                                   100, [](AlignOptions& o) { o.a = 60, o.b = 100, o.q = o.q2 = 50, o.e = o.e2 = 10; });
  report("synthetic map-ont -A60 -B100 -O50 -E10 -z 200,100", n);
  EXPECT_EQ(n.calls, 392);
  EXPECT_EQ(n.calls_ok, n.calls);
}

TEST(RegionAlign, DpCallsMatchMinimap2TraceWideMatrix) {
  const std::vector<ExpectedRead> expected =
      load_trace(test::source_path("tests/data/region/synthetic.map-pb-A100B200.aln-seq.txt.gz"));
  ASSERT_EQ(expected.size(), 20u);
  const TraceCount n =
      check_trace(expected, test::source_path("tests/data/region/synthetic.fq.gz"), "map-pb", 400, 200,
                  [](AlignOptions& o) { o.a = 100, o.b = 200, o.q = 30, o.q2 = 60, o.e = 5, o.e2 = 1; });
  report("synthetic map-pb -A100 -B200 -O30,60 -E5,1", n);
  EXPECT_EQ(n.calls, 585);
  EXPECT_EQ(n.calls_ok, n.calls);
}

// ---- which Z-drop each DP call is given ----
//
// minimap2's trace prints opt->zdrop in every header, whatever the call ran with, so the
// trace tests above cannot tell zdrop from zdrop_inv. These tests look at the tasks the
// DpSource receives instead, on the synthetic reads (their inversions make
// mm_test_zdrop return 2), with zdrop and zdrop_inv apart.

// Answers with the cpu backend and keeps a copy of every task it was handed.
class RecordingSource final : public DpSource {
 public:
  struct Call {
    uint32_t flag = 0;
    int32_t zdrop = 0;
    std::vector<uint8_t> query, target;
    DpResult result;
  };
  explicit RecordingSource(DpBackend& dp) : backend_(dp) {}
  void compute(const DpTask& task, DpResult& result) override {
    backend_.compute(task, result);
    Call& c = calls.emplace_back();
    c.flag = task.flag, c.zdrop = task.zdrop;
    c.query.assign(task.query.begin(), task.query.end());
    c.target.assign(task.target.begin(), task.target.end());
    c.result = result;
  }
  std::vector<Call> calls;

 private:
  BackendDpSource backend_;
};

struct SyntheticRead {
  std::string name, seq;
};

// Four-line FASTQ (by default tests/data/region/synthetic.fq.gz).
std::vector<SyntheticRead> synthetic_reads(const char* path = "tests/data/region/synthetic.fq.gz") {
  const std::vector<std::string> lines = test::read_lines(test::source_path(path));
  std::vector<SyntheticRead> reads;
  for (size_t i = 0; i + 3 < lines.size(); i += 4)
    reads.push_back({lines[i].substr(1, lines[i].find_first_of(" \t") - 1), lines[i + 1]});
  return reads;
}

// map-pb with zdrop 400 and zdrop_inv 200, and its index of data/ref.fa (built once).
struct ZdropSetup {
  AlignOptions opt;
  index::MinimizerIndex idx;
};
const ZdropSetup& zdrop_setup() {
  static const ZdropSetup s = [] {
    AlignOptions opt;
    opt.apply_preset("map-pb");
    opt.zdrop = 400, opt.zdrop_inv = 200;
    opt.validate();
    return ZdropSetup{opt, io::build_index_from_file(test::source_path("data/ref.fa"), opt)};
  }();
  return s;
}

class RegionZdrop : public ::testing::Test {
 protected:
  void SetUp() override {
    DpBackendOptions dpo;
    dpo.backend = "cpu";
    dp_ = make_dp_backend(dpo);
  }
  const AlignOptions& opt_ = zdrop_setup().opt;
  const index::MinimizerIndex& idx_ = zdrop_setup().idx;
  std::unique_ptr<DpBackend> dp_;
};

// mm_align1's gap fill: the first pass (APPROX_MAX) runs with zdrop; when mm_test_zdrop
// on its CIGAR returns 1 it is run again exactly with zdrop, when it returns 2 (the
// dropped stretch aligns to the reverse complement) with zdrop_inv; when it returns 0
// there is no second pass. Extensions to the right and mm_align1_inv's call use zdrop.
TEST_F(RegionZdrop, GapFillSecondPassUsesZdropInvAfterAnInversionDrop) {
  const AlignOptions& opt = opt_;
  ASSERT_NE(opt.zdrop, opt.zdrop_inv);
  const pipeline::ReadMapper mapper(idx_, opt);
  int first_passes = 0, by_code[3] = {0, 0, 0}, right_ext = 0;
  for (const SyntheticRead& read : synthetic_reads()) {
    SCOPED_TRACE(read.name);
    pipeline::ReadMapping m = mapper.map(read.name, read.seq);
    RecordingSource source(*dp_);
    const std::vector<RegionAlignment> al =
        align_regions(opt, idx_, ReadCodes(read.seq), m.regions, m.chains.anchors, source);
    const std::vector<RecordingSource::Call>& calls = source.calls;
    size_t logged = 0;
    for (const RegionAlignment& ra : al) logged += ra.calls.size();
    ASSERT_EQ(calls.size(), logged) << "every call within max_sw_mat";
    // kMteQCell (2.31's mte_q) rides on every call of the release; not part of the pass.
    auto pass_flag = [](uint32_t f) { return f & ~dp_flag::kMteQCell; };
    for (size_t i = 0; i < calls.size(); ++i) {
      const RecordingSource::Call& c = calls[i];
      if (c.flag & dp_flag::kExtzOnly) {
        if (!(c.flag & dp_flag::kRight)) {
          EXPECT_EQ(c.zdrop, opt.zdrop) << "extension to the right or mm_align1_inv, call " << i;
          ++right_ext;
        }
        continue;
      }
      if (pass_flag(c.flag) != dp_flag::kApproxMax) continue;  // a second pass, checked with its first
      ++first_passes;
      EXPECT_EQ(c.zdrop, opt.zdrop) << "first pass, call " << i;
      const int code = test_zdrop(opt, c.query.data(), c.target.data(), c.result.cigar);
      ASSERT_GE(code, 0);
      ASSERT_LE(code, 2);
      ++by_code[code];
      const bool second = i + 1 < calls.size() && pass_flag(calls[i + 1].flag) == 0;
      if (code == 0) {
        EXPECT_FALSE(second) << "call " << i << ": no Z-drop, yet a second pass";
        continue;
      }
      ASSERT_TRUE(second) << "call " << i << ": mm_test_zdrop " << code << " but no second pass";
      const RecordingSource::Call& s = calls[i + 1];
      EXPECT_EQ(s.query, c.query);
      EXPECT_EQ(s.target, c.target);
      EXPECT_EQ(s.zdrop, code == 2 ? opt.zdrop_inv : opt.zdrop) << "second pass, call " << i + 1 << ", code " << code;
    }
  }
  std::cout << first_passes << " gap fills: mm_test_zdrop 0/1/2 = " << by_code[0] << "/" << by_code[1] << "/"
            << by_code[2] << ", " << right_ext << " right extensions or inversion calls\n";
  // The data must exercise both kinds of second pass.
  EXPECT_GT(by_code[1], 0);
  EXPECT_GT(by_code[2], 0);
  EXPECT_GT(right_ext, 0);
}

// mm_align1's left extension runs with zdrop_inv for the second part of a region split
// after an inversion-like drop (mm_split_reg's r2 with split_inv), with zdrop otherwise.
// align_regions' loop without mm_align1_inv, so that each region's split bits can be read.
TEST_F(RegionZdrop, LeftExtensionOfAnInversionSplitPartUsesZdropInv) {
  const AlignOptions& opt = opt_;
  const pipeline::ReadMapper mapper(idx_, opt);
  int left_ext = 0, left_ext_inv = 0, inv_parts = 0;
  for (const SyntheticRead& read : synthetic_reads()) {
    SCOPED_TRACE(read.name);
    pipeline::ReadMapping m = mapper.map(read.name, read.seq);
    const ReadCodes codes(read.seq);
    std::vector<map::Anchor> a = squeeze_anchors(m.regions, m.chains.anchors);
    std::vector<uint8_t> split(m.regions.size(), 0);
    for (size_t r = 0; r < m.regions.size(); ++r) {
      const bool inv_part = (split[r] & kSplitInv) != 0;
      inv_parts += inv_part;
      RecordingSource source(*dp_);
      const RegionAlignment al = align_region(opt, idx_, codes, m.regions, split, r, a, source);
      ASSERT_EQ(source.calls.size(), al.calls.size()) << "every call within max_sw_mat";
      if (inv_part) {
        EXPECT_TRUE(split[r] & kSplitSecond) << "region " << r;
      }
      for (size_t i = 0; i < source.calls.size(); ++i) {
        const RecordingSource::Call& c = source.calls[i];
        if ((c.flag & (dp_flag::kExtzOnly | dp_flag::kRight)) != (dp_flag::kExtzOnly | dp_flag::kRight)) continue;
        EXPECT_EQ(i, 0u) << "the left extension is a region's first call";
        EXPECT_EQ(c.zdrop, inv_part ? opt.zdrop_inv : opt.zdrop) << "region " << r << (inv_part ? " (split_inv)" : "");
        ++left_ext;
        left_ext_inv += inv_part;
      }
    }
  }
  std::cout << left_ext << " left extensions, " << left_ext_inv << " of " << inv_parts << " split_inv parts\n";
  EXPECT_GT(left_ext_inv, 0);
  EXPECT_GT(left_ext, left_ext_inv);
}

// The alignment passes of a read over a DpMemo all run over one squeezed anchor array
// (RegionAnchors): each pass must start from the anchors as squeezed, though the previous
// one flagged some (mm_filter_bad_seeds, mm_filter_bad_seeds_alt; mm_fix_bad_ends reads
// the long-join flag), and so give what the first pass gave.
TEST_F(RegionZdrop, EveryPassOverSqueezedAnchorsStartsFromTheAnchorsAsSqueezed) {
  const AlignOptions& opt = opt_;
  const pipeline::ReadMapper mapper(idx_, opt);
  auto summary = [](const std::vector<map::Region>& regs) {
    std::ostringstream s;
    for (const map::Region& r : regs) {
      s << r.rid << ':' << r.rs << '-' << r.re << ' ' << r.qs << '-' << r.qe << (r.rev ? '-' : '+') << " dp "
        << r.dp_score << '/' << r.dp_max << " split " << int{r.split} << (r.inv ? " inv" : "") << " cigar";
      for (uint32_t c : r.cigar) s << ' ' << c;
      s << '\n';
    }
    return s.str();
  };
  auto same = [](const std::vector<map::Anchor>& u, const std::vector<map::Anchor>& v) {
    return u.size() == v.size() &&
           std::equal(u.begin(), u.end(), v.begin(), [](const map::Anchor& p, const map::Anchor& q) {
             return p.x == q.x && p.y == q.y;
           });
  };
  std::vector<SyntheticRead> all = synthetic_reads();
  for (SyntheticRead& r : synthetic_reads("data/reads.fq")) all.push_back(std::move(r));
  int reads = 0, flagged = 0;
  for (const SyntheticRead& read : all) {
    SCOPED_TRACE(read.name);
    const pipeline::ReadMapping m = mapper.map(read.name, read.seq);
    if (m.regions.empty()) continue;
    const ReadCodes codes(read.seq);
    std::vector<map::Region> squeezed_regs = m.regions;
    std::vector<map::Anchor> chained = m.chains.anchors;
    RegionAnchors anchors(squeezed_regs, std::move(chained));
    ASSERT_TRUE(anchors.made());
    EXPECT_TRUE(chained.empty()) << "the chained anchors are freed";
    std::vector<map::Anchor>& array = anchors.for_pass();  // the array the passes run over
    const std::vector<map::Anchor> as_squeezed = array;
    std::string first;
    for (int pass = 1; pass <= 3; ++pass) {
      std::vector<map::Region> regs = squeezed_regs;
      BackendDpSource source(*dp_);
      align_skeleton(opt, idx_, codes, regs, anchors, source);
      if (pass == 1) {
        first = summary(regs);
        flagged += !same(array, as_squeezed);
      } else {
        EXPECT_EQ(summary(regs), first) << "pass " << pass;
      }
    }
    EXPECT_TRUE(same(anchors.for_pass(), as_squeezed)) << "the flags as squeezed, put back";
    ++reads;
  }
  std::cout << reads << " reads aligned in three passes each, " << flagged << " with anchors flagged by a pass\n";
  EXPECT_GT(flagged, 0) << "the data must have anchors that a pass flags";
}

// Squeezed for one pass (inline DP), the anchors keep no copy of their flags: the one
// pass gives what a pass over anchors squeezed for several gives, and a second pass,
// which would start from flagged anchors, is refused.
TEST_F(RegionZdrop, AnchorsSqueezedForOnePassAlignOnce) {
  const pipeline::ReadMapper mapper(idx_, opt_);
  int reads = 0;
  for (const SyntheticRead& read : synthetic_reads("data/reads.fq")) {
    SCOPED_TRACE(read.name);
    const pipeline::ReadMapping m = mapper.map(read.name, read.seq);
    if (m.regions.empty()) continue;
    const ReadCodes codes(read.seq);
    std::vector<map::Region> regs_many = m.regions, regs_one = m.regions;
    std::vector<map::Anchor> chained_many = m.chains.anchors, chained_one = m.chains.anchors;
    RegionAnchors many(regs_many, std::move(chained_many)), one(regs_one, std::move(chained_one), true);
    BackendDpSource source(*dp_);
    align_skeleton(opt_, idx_, codes, regs_many, many, source);
    align_skeleton(opt_, idx_, codes, regs_one, one, source);
    ASSERT_EQ(regs_one.size(), regs_many.size());
    for (size_t i = 0; i < regs_one.size(); ++i) {
      EXPECT_EQ(regs_one[i].cigar, regs_many[i].cigar);
      EXPECT_EQ(regs_one[i].dp_score, regs_many[i].dp_score);
    }
    EXPECT_THROW(one.for_pass(), Error);
    EXPECT_NO_THROW(many.for_pass());
    ++reads;
  }
  EXPECT_GT(reads, 0);
}

// mm_test_zdrop's Z-drop, restated cell by cell: the largest max - score - |li - lj| * e
// over the cells of the CIGAR's path (gaps counted at their end).
int reference_max_zdrop(const AlignOptions& opt, const uint8_t* qseq, const uint8_t* tseq,
                        const std::vector<uint32_t>& cigar) {
  const DpScoring sc = opt.dp_scoring();
  int32_t score = 0, max = INT32_MIN, max_i = -1, max_j = -1, i = 0, j = 0, max_zdrop = 0;
  auto update = [&](int ii, int jj) {
    if (score < max)
      max_zdrop = std::max(max_zdrop, max - score - std::abs((ii - max_i) - (jj - max_j)) * opt.e);
    else
      max = score, max_i = ii, max_j = jj;
  };
  for (uint32_t c : cigar) {
    const uint32_t op = cigar::op(c);
    const int32_t len = static_cast<int32_t>(cigar::len(c));
    if (op == cigar::kMatch) {
      for (int32_t l = 0; l < len; ++l) score += sc.substitution(tseq[i + l], qseq[j + l]), update(i + l, j + l);
      i += len, j += len;
    } else {
      score -= opt.q + opt.e * len;
      (op == cigar::kIns ? j : i) += len;
      update(i, j);
    }
  }
  return max_zdrop;
}

// test_zdrop takes runs of identical bases whole; on random alignments (long identical
// runs, mismatches, N, indels of all sizes) its verdict flips exactly where the
// cell-by-cell Z-drop says: 1 at any threshold below it, 0 at the threshold itself.
TEST(RegionAlign, TestZdropAgreesWithTheCellByCellRule) {
  std::mt19937_64 rng(2026);
  AlignOptions opt;
  opt.apply_preset("map-pb");
  opt.zdrop_inv = INT32_MAX;  // the verdict 2 (inversion) is not what is tested here
  int dropped = 0;
  for (int n = 0; n < 3000; ++n) {
    std::vector<uint8_t> q, t;
    std::vector<uint32_t> cigar;
    const int ops = 1 + static_cast<int>(rng() % 12);
    for (int o = 0; o < ops; ++o) {
      const int kind = static_cast<int>(rng() % 4), len = 1 + static_cast<int>(rng() % (kind == 0 ? 300 : 40));
      if (kind <= 1) {  // M: mostly identical, mismatch and N rates varying per run
        const int err = static_cast<int>(rng() % 40), ns = static_cast<int>(rng() % 3);
        for (int l = 0; l < len; ++l) {
          const uint8_t b = static_cast<uint8_t>(rng() % 4);
          q.push_back(rng() % 1000 < static_cast<uint64_t>(ns) ? 4 : b);
          t.push_back(rng() % 1000 < static_cast<uint64_t>(err) ? static_cast<uint8_t>((b + 1) % 4) : b);
        }
        cigar.push_back(static_cast<uint32_t>(len) << 4 | cigar::kMatch);
      } else if (kind == 2) {
        for (int l = 0; l < len; ++l) q.push_back(static_cast<uint8_t>(rng() % 4));
        cigar.push_back(static_cast<uint32_t>(len) << 4 | cigar::kIns);
      } else {
        for (int l = 0; l < len; ++l) t.push_back(static_cast<uint8_t>(rng() % 4));
        cigar.push_back(static_cast<uint32_t>(len) << 4 | cigar::kDel);
      }
    }
    const int z = reference_max_zdrop(opt, q.data(), t.data(), cigar);
    opt.zdrop = z;
    ASSERT_EQ(test_zdrop(opt, q.data(), t.data(), cigar), 0) << "case " << n << ", Z-drop " << z;
    if (z > 0) {
      opt.zdrop = z - 1;
      ASSERT_EQ(test_zdrop(opt, q.data(), t.data(), cigar), 1) << "case " << n << ", Z-drop " << z;
      ++dropped;
    }
  }
  EXPECT_GT(dropped, 1000);
}


// ---- mm_align_sr_rna (minimap2 2.31, -x splice:sr): the one-intron shortcut ----

namespace sr_rna {

AlignOptions splice_sr() {
  AlignOptions o;
  o.release = Release::k2_31;
  o.apply_preset("splice:sr");
  return o;
}

std::string random_bases(std::mt19937& rng, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += "ACGT"[rng() % 4];
  return s;
}

}  // namespace sr_rna

// A gap of 70 read bases, 30 of one exon and 40 of the next, over an 804-base intron
// (GT..AG): the shortened target is the gap's first and last 70 reference bases around
// 2 * q2 N bases; the splice DP on it puts one intron there, widened back to 804.
TEST(SrRnaShortcut, OneIntronOnTheShortenedTarget) {
  const AlignOptions opt = sr_rna::splice_sr();
  ASSERT_TRUE(opt.sr_rna && opt.splicing());
  std::mt19937 rng(7);
  const std::string exon1 = sr_rna::random_bases(rng, 29) + "C", exon2 = "C" + sr_rna::random_bases(rng, 39);
  const std::string intron = "GT" + sr_rna::random_bases(rng, 800) + "AG";
  const std::vector<uint8_t> q = test::encode(exon1 + exon2), t = test::encode(exon1 + intron + exon2);
  std::vector<uint8_t> t2, junc2;
  ASSERT_TRUE(sr_rna_intron_target(opt, q, t, {}, t2, junc2));
  const size_t ql = q.size(), ilen = static_cast<size_t>(opt.q2 * 2);
  ASSERT_EQ(t2.size(), 2 * ql + ilen);
  EXPECT_TRUE(std::equal(t2.begin(), t2.begin() + 70, t.begin()));
  EXPECT_TRUE(std::all_of(t2.begin() + 70, t2.begin() + 70 + ilen, [](uint8_t c) { return c == 4; }));
  EXPECT_TRUE(std::equal(t2.end() - 70, t2.end(), t.end() - 70));
  EXPECT_TRUE(junc2.empty());

  DpTask task;
  task.query = q, task.target = t2;
  task.scoring = opt.dp_scoring();
  task.flag = dp_flag::kSplice | dp_flag::kSpliceFor | dp_flag::kApproxMax;
  task.zdrop = opt.zdrop, task.end_bonus = -1, task.noncan = opt.noncan, task.junc_bonus = opt.junc_bonus;
  const std::unique_ptr<DpBackend> dp = test::try_backend("scalar");
  ASSERT_TRUE(dp);
  DpResult ez;
  dp->run(std::span<const DpTask>(&task, 1), std::span<DpResult>(&ez, 1));
  ASSERT_TRUE(sr_rna_intron_accept(ez, static_cast<int32_t>(t.size()), static_cast<int32_t>(t2.size())));
  EXPECT_EQ(test::cigar_text(ez.cigar), "30M804N40M");
}

// When the shortcut does not apply: a gap longer than 100 read bases, a target shorter
// than 2|q| + 2*q2, more than 9 read bases matching neither end; annotated intron ends
// come along with the bases.
TEST(SrRnaShortcut, TargetOnlyForShortGapsMatchingBothEnds) {
  const AlignOptions opt = sr_rna::splice_sr();
  std::mt19937 rng(11);
  std::vector<uint8_t> t2, junc2;
  const std::string ref = sr_rna::random_bases(rng, 600);
  auto enc = [](const std::string& s) { return test::encode(s); };
  // 40 bases: 20 from each end of the reference stretch.
  const std::string q40 = ref.substr(0, 20) + ref.substr(580);
  EXPECT_TRUE(sr_rna_intron_target(opt, enc(q40), enc(ref), {}, t2, junc2));
  // 101 read bases: too long; 100: still taken.
  EXPECT_FALSE(sr_rna_intron_target(opt, enc(ref.substr(0, 50) + ref.substr(549)), enc(ref), {}, t2, junc2));
  EXPECT_TRUE(sr_rna_intron_target(opt, enc(ref.substr(0, 50) + ref.substr(550)), enc(ref), {}, t2, junc2));
  // The reference stretch must hold 2|q| + 2*q2 bases.
  const std::string short_ref = ref.substr(0, 2 * 40 + 2 * opt.q2);
  const std::string q_short = short_ref.substr(0, 20) + short_ref.substr(short_ref.size() - 20);
  EXPECT_TRUE(sr_rna_intron_target(opt, enc(q_short), enc(short_ref), {}, t2, junc2));
  EXPECT_FALSE(sr_rna_intron_target(opt, enc(q_short), enc(short_ref.substr(1)), {}, t2, junc2));
  // Read bases equal to the reference's at neither end: 9 are taken, 10 are not. The
  // reference is made so that no base equals the one 560 further (the read's offset
  // from the other end), so each changed base of the read's first 20 counts once.
  std::string r2 = ref;
  for (size_t i = 0; i < 40; ++i)
    if (r2[i] == r2[i + 560]) r2[i + 560] = r2[i] == 'A' ? 'C' : 'A';
  auto other = [&](size_t i) {
    for (char c : std::string("ACGT"))
      if (c != r2[i] && c != r2[i + 560]) return c;
    return 'N';
  };
  const std::string q_ok = r2.substr(0, 20) + r2.substr(580);
  for (int k : {9, 10}) {
    std::string q = q_ok;
    for (int i = 0; i < k; ++i) q[static_cast<size_t>(2 * i)] = other(static_cast<size_t>(2 * i));
    EXPECT_EQ(sr_rna_intron_target(opt, enc(q), enc(r2), {}, t2, junc2), k == 9) << k;
  }
  // With annotation: junc2 is junc's first |q|, zeros, junc's last |q|.
  std::vector<uint8_t> junc(ref.size(), 0);
  junc[5] = dp_junc::kJuncForStart, junc[590] = dp_junc::kJuncForEnd, junc[300] = dp_junc::kJuncRevEnd;
  ASSERT_TRUE(sr_rna_intron_target(opt, enc(q40), enc(ref), junc, t2, junc2));
  ASSERT_EQ(junc2.size(), t2.size());
  EXPECT_EQ(junc2[5], dp_junc::kJuncForStart);
  EXPECT_EQ(junc2[junc2.size() - 10], dp_junc::kJuncForEnd);
  EXPECT_EQ(std::count(junc2.begin(), junc2.end(), 0), static_cast<std::ptrdiff_t>(junc2.size()) - 2);
}

// The DP's answer is taken only with M at both ends, exactly one N and no I, and not
// Z-dropped; the N then spans the real gap.
TEST(SrRnaShortcut, AcceptOneIntronWithoutInsertions) {
  auto result = [](const std::string& c, bool zdropped = false) {
    DpResult r;
    r.cigar = test::parse_cigar(c);
    r.zdropped = zdropped;
    return r;
  };
  DpResult ok = result("30M118N38M2D2M");
  ASSERT_TRUE(sr_rna_intron_accept(ok, 1000, 188));
  EXPECT_EQ(test::cigar_text(ok.cigar), "30M930N38M2D2M");
  for (const char* bad : {"30M118N40M", "70M118D", "5D30M118N40M", "30M50N20M48N20M", "30M1I118N39M", "30M2I118N38M"}) {
    DpResult r = result(bad);
    const std::vector<uint32_t> before = r.cigar;
    const bool taken = std::string(bad) == "30M118N40M";
    EXPECT_EQ(sr_rna_intron_accept(r, 1000, 188), taken) << bad;
    if (!taken) {
      EXPECT_EQ(r.cigar, before) << bad;
    }
  }
  DpResult dropped = result("30M118N40M", true);
  EXPECT_FALSE(sr_rna_intron_accept(dropped, 1000, 188));
}

}  // namespace
}  // namespace agatha::align
