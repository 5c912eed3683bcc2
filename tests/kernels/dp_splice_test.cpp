// The splice-aware guided DP (ksw_exts2): the donor/acceptor scores on hand-made
// targets, hand-checked two-exon alignments on every backend, the committed golden
// tasks recorded from minimap2 2.24's own kernel, and a seeded differential test of the
// scalar engine against a plain full-matrix DP of the same recurrence in 32-bit scores.
#include "support/dp.hpp"
#include "support/paths.hpp"

#include "../../kernels/splice_sites.hpp"
#include "../../src/io/line_reader.hpp"
#include "../../src/io/task_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>

namespace agatha {
namespace {

using namespace dp_flag;

// ---------------------------------------------------------------------------------------
// Donor and acceptor scores
// ---------------------------------------------------------------------------------------
struct Sites {
  std::vector<int> donor, acceptor;
};

Sites sites(const std::string& target, uint32_t flag, int noncan, int bonus = 0, const std::string& junc = "") {
  const std::vector<uint8_t> t = test::encode(target);
  std::vector<uint8_t> j;
  for (char c : junc) j.push_back(static_cast<uint8_t>(c - '0'));
  kernels::SpliceSiteInput in;
  in.target = t.data(), in.tlen = static_cast<int>(t.size()), in.flag = flag;
  in.noncan = noncan, in.junc_bonus = bonus, in.junc = j.empty() ? nullptr : j.data();
  std::vector<int8_t> d(t.size() + 3), a(t.size() + 3);
  kernels::splice_site_scores(in, d.data(), a.data(), static_cast<int>(d.size()));
  return {std::vector<int>(d.begin(), d.end()), std::vector<int>(a.begin(), a.end())};
}

TEST(SpliceSites, NoStrandFlagsScoreNothing) {
  const Sites s = sites("AGGTAAGCAG", kSpliceFlank, 9, 9, "1200000000");
  EXPECT_EQ(s.donor, std::vector<int>(13, 0));
  EXPECT_EQ(s.acceptor, std::vector<int>(13, 0));
}

TEST(SpliceSites, ForwardStrandMotifs) {
  // t:        0123456789012
  // target:   CGTAACAGGCGTC      GTr at 1-3 (donor[0] = 0: the intron would start at 1),
  //                              GTC at 10-12 is past tlen-4; yAG at 5-7 (acceptor[7] = 0)
  const Sites s = sites("CGTAACAGGCGTC", kSpliceFor, 9);
  const std::vector<int> donor = {0, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9};
  const std::vector<int> acceptor = {-9, -9, -9, -9, -9, -9, -9, 0, -9, -9, -9, -9, -9, -9, -9, -9};
  EXPECT_EQ(s.donor, donor);
  EXPECT_EQ(s.acceptor, acceptor);
}

TEST(SpliceSites, MotifWithoutConsensusScoresTheFlankOrNothing) {
  // GT followed by C (donor[0]) and AG preceded by G (acceptor[6]): 0 without the flank
  // model, -noncan/2 (C division: -9/2 = -4) with it.
  const Sites plain = sites("AGTCCGAGCCC", kSpliceFor, 9);
  EXPECT_EQ(plain.donor[0], 0);
  EXPECT_EQ(plain.acceptor[7], 0);
  const Sites flank = sites("AGTCCGAGCCC", kSpliceFor | kSpliceFlank, 9);
  EXPECT_EQ(flank.donor[0], -4);
  EXPECT_EQ(flank.acceptor[7], -4);
  EXPECT_EQ(flank.donor[1], -9);
  EXPECT_EQ(sites("AGTCCGAGCCC", kSpliceFor | kSpliceFlank, 7).donor[0], -3);
}

TEST(SpliceSites, EveryConsensusBaseUnderTheFlankModel) {
  // donor[0] of "C" + motif + base, acceptor[3] of base + motif + "C", with the flank model:
  // 0 for the consensus bases, -noncan/2 for the others.
  const uint32_t ff = kSpliceFor | kSpliceFlank, rf = kSpliceRev | kSpliceFlank;
  const std::pair<std::string, int> donors[] = {{"CGTACC", 0}, {"CGTGCC", 0}, {"CGTCCC", -4}, {"CGTTCC", -4}};
  for (const auto& [t, want] : donors) EXPECT_EQ(sites(t, ff, 9).donor[0], want) << t;
  const std::pair<std::string, int> acceptors[] = {{"CCAGC", 0}, {"CTAGC", 0}, {"CAAGC", -4}, {"CGAGC", -4}};
  for (const auto& [t, want] : acceptors) EXPECT_EQ(sites(t, ff, 9).acceptor[3], want) << t;
  const std::pair<std::string, int> rev_donors[] = {{"CCTACC", 0}, {"CCTGCC", 0}, {"CCTCCC", -4}, {"CCTTCC", -4}};
  for (const auto& [t, want] : rev_donors) EXPECT_EQ(sites(t, rf, 9).donor[0], want) << t;
  const std::pair<std::string, int> rev_acceptors[] = {{"CCACC", 0}, {"CTACC", 0}, {"CAACC", -4}, {"CGACC", -4}};
  for (const auto& [t, want] : rev_acceptors) EXPECT_EQ(sites(t, rf, 9).acceptor[3], want) << t;
  // reversed sequences: the consensus base follows "GA"/"CA" and precedes "TG"/"TC"
  const uint32_t rv = kRevCigar | kSpliceFlank;
  const std::pair<std::string, int> rdonors[] = {{"CGACCC", 0}, {"CGATCC", 0}, {"CGAACC", -4}, {"CGAGCC", -4}};
  for (const auto& [t, want] : rdonors) EXPECT_EQ(sites(t, rv | kSpliceFor, 9).donor[0], want) << t;
  const std::pair<std::string, int> racceptors[] = {{"CATCC", 0}, {"CGTCC", 0}, {"CCTCC", -4}, {"CTTCC", -4}};
  for (const auto& [t, want] : racceptors) EXPECT_EQ(sites(t, rv | kSpliceRev, 9).acceptor[3], want) << t;
}

TEST(SpliceSites, ReverseStrandMotifsAndBothStrands) {
  // CTr at 1-3 (the reverse strand's AG..., read on the forward strand) and yAC at 5-7.
  const std::string t = "ACTGACACCCCC";
  const Sites rev = sites(t, kSpliceRev, 9);
  EXPECT_EQ(rev.donor[0], 0);
  EXPECT_EQ(rev.acceptor[7], 0);
  const Sites fwd = sites(t, kSpliceFor, 9);
  EXPECT_EQ(fwd.donor[0], -9);
  EXPECT_EQ(fwd.acceptor[7], -9);
  const Sites both = sites(t, kSpliceFor | kSpliceRev, 9);
  EXPECT_EQ(both.donor[0], 0);
  EXPECT_EQ(both.acceptor[7], 0);
}

TEST(SpliceSites, ReversedSequencesReadMotifsBackwards) {
  // A left extension sees the target reversed: the forward intron GTAAG...TTCAG reads
  // GACTT...GAATG, so "GAy" marks the donor end and "rTG" the acceptor end.
  const Sites s = sites("CGACTTAATGC", kSpliceFor | kRevCigar, 9);
  EXPECT_EQ(s.donor[0], 0);
  EXPECT_EQ(s.acceptor[9], 0);
  EXPECT_EQ(sites("CGACTTAATGC", kSpliceFor, 9).donor[0], -9);
  // reverse strand reversed: CAy and rTC
  const Sites r = sites("CCATTTAATCC", kSpliceRev | kRevCigar, 9);
  EXPECT_EQ(r.donor[0], 0);
  EXPECT_EQ(r.acceptor[9], 0);
}

// minimap2 2.31's miniprot model (kSpliceCmplx): GTr/yAG 0, GT/AG without the
// consensus base -3, GC -5, AT..AC -7, anything else -10; noncan and the flank flag play
// no part. Forward strand: donor[t] reads T[t+1..t+3], acceptor[t] T[t-2..t].
TEST(SpliceSites, MiniprotModelClasses) {
  const uint32_t f = kSpliceCmplx | kSpliceFor;
  const std::pair<std::string, int> donors[] = {{"CGTACC", 0},  {"CGTGCC", 0},  {"CGTCCC", -3}, {"CGTTCC", -3},
                                                {"CGCACC", -5}, {"CATACC", -7}, {"CAGACC", -10}};
  for (const auto& [t, want] : donors) {
    EXPECT_EQ(sites(t, f, 9).donor[0], want) << t;
    EXPECT_EQ(sites(t, f | kSpliceFlank, 30).donor[0], want) << t;
  }
  const std::pair<std::string, int> acceptors[] = {{"CCAGCC", 0}, {"CTAGCC", 0},  {"CAAGCC", -3},
                                                   {"CGAGCC", -3}, {"CCACCC", -7}, {"CCGCCC", -10}};
  for (const auto& [t, want] : acceptors) EXPECT_EQ(sites(t, f, 9).acceptor[3], want) << t;
  // defaults (past tlen-4 for donors, before 2 for acceptors) are class 3
  EXPECT_EQ(sites("CGTACC", f, 9).donor[3], -10);
  EXPECT_EQ(sites("CGTACC", f, 9).acceptor[0], -10);
}

// The reverse strand's motifs are the forward ones reverse-complemented: donor CTr (best),
// GT (AT-AC's end, -7); acceptor yAC (best), GC (-5), AT (-7).
TEST(SpliceSites, MiniprotModelReverseStrandAndReversed) {
  const uint32_t r = kSpliceCmplx | kSpliceRev;
  EXPECT_EQ(sites("CCTACC", r, 9).donor[0], 0);
  EXPECT_EQ(sites("CCTCCC", r, 9).donor[0], -3);
  EXPECT_EQ(sites("CGTACC", r, 9).donor[0], -7);
  EXPECT_EQ(sites("CGCACC", r, 9).donor[0], -10);  // GC starts no reverse-strand intron
  EXPECT_EQ(sites("CTACCC", r, 9).acceptor[3], 0);
  EXPECT_EQ(sites("CAACCC", r, 9).acceptor[3], -3);
  EXPECT_EQ(sites("CCGCCC", r, 9).acceptor[3], -5);
  EXPECT_EQ(sites("CCATCC", r, 9).acceptor[3], -7);
  // reversed (left extensions): forward donor GA+y, CA (AC reversed); acceptor r+TG,
  // CG, TA; reverse strand donor CA+y, CG, TA; acceptor r+TC, TG
  const uint32_t fr = kSpliceCmplx | kSpliceFor | kRevCigar, rr = kSpliceCmplx | kSpliceRev | kRevCigar;
  EXPECT_EQ(sites("CGACCC", fr, 9).donor[0], 0);
  EXPECT_EQ(sites("CGAGCC", fr, 9).donor[0], -3);
  EXPECT_EQ(sites("CCACCC", fr, 9).donor[0], -7);
  EXPECT_EQ(sites("CATGCC", fr, 9).acceptor[3], 0);
  EXPECT_EQ(sites("CCCGCC", fr, 9).acceptor[3], -5);
  EXPECT_EQ(sites("CCTACC", fr, 9).acceptor[3], -7);
  EXPECT_EQ(sites("CCACCC", rr, 9).donor[0], 0);
  EXPECT_EQ(sites("CCGCCC", rr, 9).donor[0], -5);
  EXPECT_EQ(sites("CTACCC", rr, 9).donor[0], -7);
  EXPECT_EQ(sites("CGTCCC", rr, 9).acceptor[3], 0);
  EXPECT_EQ(sites("CCTGCC", rr, 9).acceptor[3], -7);
}

// Without the miniprot model GC and AT sites pay noncan like any other: minimap2 2.31's
// -J 0 tables are 2.24's.
TEST(SpliceSites, MinimapModelScoresGcAndAtAsNonCanonical) {
  EXPECT_EQ(sites("CGCACC", kSpliceFor, 9).donor[0], -9);
  EXPECT_EQ(sites("CATACC", kSpliceFor, 9).donor[0], -9);
  EXPECT_EQ(sites("CCACCC", kSpliceFor | kSpliceFlank, 9).acceptor[3], -9);
  EXPECT_EQ(sites("CGTCCC", kSpliceFor | kSpliceFlank, 9).donor[0], -4);
}

TEST(SpliceSites, JunctionBonusByStrandBits) {
  // bits: 1 forward intron start, 2 forward end, 8 reverse start (first base), 4 reverse
  // end (last base). donor[t] reads junc[t+1], acceptor[t] reads junc[t].
  const std::string t = "CCCCCCCCCC";
  const Sites f = sites(t, kSpliceFor, 9, 5, "0100002000");
  EXPECT_EQ(f.donor[0], -4);
  EXPECT_EQ(f.acceptor[6], -4);
  EXPECT_EQ(f.donor[1], -9);
  const Sites wrong_strand = sites(t, kSpliceRev, 9, 5, "0100002000");
  EXPECT_EQ(wrong_strand.donor[0], -9);
  EXPECT_EQ(wrong_strand.acceptor[6], -9);
  const Sites r = sites(t, kSpliceRev, 9, 5, "0800004000");
  EXPECT_EQ(r.donor[0], -4);
  EXPECT_EQ(r.acceptor[6], -4);
  // reversed: the ends swap bits
  const Sites rr = sites(t, kSpliceFor | kRevCigar, 9, 5, "0200001000");
  EXPECT_EQ(rr.donor[0], -4);
  EXPECT_EQ(rr.acceptor[6], -4);
  // the sum wraps in 8 bits, as the reference's int8_t arrays do: -100 - 100 = 56
  EXPECT_EQ(sites(t, kSpliceFor, 100, -100, "0100000000").donor[0], 56);
}

TEST(SpliceSites, OnlyDonorsBeforeTlenMinus4AndAcceptorsFrom2) {
  const Sites s = sites("CGTAG", kSpliceFor, 9);
  EXPECT_EQ(s.donor[0], 0);                                  // GTA at 1-3
  EXPECT_EQ(s.acceptor[4], 0);                               // TAG at 2-4
  EXPECT_EQ(sites("AAGTA", kSpliceFor, 9).donor[1], -9);     // GTA at 2-4, but t = 1 >= tlen - 4
  EXPECT_EQ(sites("AGCCC", kSpliceFor, 9).acceptor[1], -9);  // AG at 0-1, but t = 1 < 2
  EXPECT_EQ(sites("GTAAG", kSpliceFor, 9).donor, std::vector<int>(8, -9));
}

// ---------------------------------------------------------------------------------------
// Hand-checked alignments: two 20-base exons around a 60-base intron, scored as
// minimap2 -x splice (a 1, b 2, q 2, e 1, q2 32, noncan 9, junc_bonus 9). The exons hold
// no GT/AG/CT/AC, so the intron can sit only where the construct puts it: 40 matches
// minus q2 is 8, minus 9 per unscored site end; a leading deletion costs the border,
// min(q + L*e, q2), with no site scores.
// ---------------------------------------------------------------------------------------
const std::string kExon1 = "ATCCATGCAATCCGATTCCA", kExon2 = "TCCATCCAATGCCATTCAAT";
const std::string kFwdIntron = "GTAAGT" + std::string(48, 'C') + "TTTCAG";  // GTr ... yAG
const std::string kRevIntron = "CTACCC" + std::string(48, 'C') + "CCCCAC";  // CTr ... yAC
const std::string kFlankIntron = "GTCC" + std::string(53, 'C') + "GAG";     // GT, AG only
const std::string kNonCanonical(60, 'C');

struct SpliceFixture {
  const char* name;
  std::string query, target;
  uint32_t flag;
  std::string junc;  // hex digits, empty for none
  int score;
  const char* cigar;
};

std::string rev(const std::string& s) { return {s.rbegin(), s.rend()}; }

std::string junc_at(size_t len, size_t first, char first_bits, size_t last, char last_bits) {
  std::string j(len, '0');
  j[first] = first_bits, j[last] = last_bits;
  return j;
}

const std::vector<SpliceFixture>& splice_fixtures() {
  const std::string q = kExon1 + kExon2;
  static const std::vector<SpliceFixture> f = {
      {"forward", q, kExon1 + kFwdIntron + kExon2, kSpliceFor, "", 8, "20M60N20M"},
      {"no-strand-flags", q, kExon1 + kFwdIntron + kExon2, 0, "", 8, "20M60N20M"},
      {"forward-intron-reverse-flag", q, kExon1 + kFwdIntron + kExon2, kSpliceRev, "", 8 - 18, "20M60N20M"},
      {"non-canonical", q, kExon1 + kNonCanonical + kExon2, kSpliceFor, "", 8 - 18, "20M60N20M"},
      {"flank", q, kExon1 + kFlankIntron + kExon2, kSpliceFor | kSpliceFlank, "", 8 - 4 - 4, "20M60N20M"},
      {"no-flank", q, kExon1 + kFlankIntron + kExon2, kSpliceFor, "", 8, "20M60N20M"},
      {"junction-bonus", q, kExon1 + kNonCanonical + kExon2, kSpliceFor, junc_at(100, 20, '1', 79, '2'), 8,
       "20M60N20M"},
      {"junction-other-strand", q, kExon1 + kNonCanonical + kExon2, kSpliceRev, junc_at(100, 20, '1', 79, '2'), 8 - 18,
       "20M60N20M"},
      {"reverse", q, kExon1 + kRevIntron + kExon2, kSpliceRev, "", 8, "20M60N20M"},
      {"reverse-intron-forward-flag", q, kExon1 + kRevIntron + kExon2, kSpliceFor, "", 8 - 18, "20M60N20M"},
      {"reversed-sequences", rev(q), rev(kExon1 + kFwdIntron + kExon2), kSpliceFor | kRevCigar, "", 8, "20M60N20M"},
      // 40 leading target bases: the border's flat q2 (40 > long_thres = 29), an intron
      {"leading-intron", kExon2, std::string(40, 'C') + kExon2, 0, "", 20 - 32, "40N20M"},
      // 20 leading bases: q + 20*e = 22 < q2, a deletion
      {"leading-deletion", kExon2, std::string(20, 'C') + kExon2, 0, "", 20 - 22, "20D20M"},
  };
  return f;
}

DpTask splice_task(const std::string& q, const std::string& t, uint32_t flag, std::vector<uint8_t>& qs,
                   std::vector<uint8_t>& ts, std::vector<uint8_t>& js, const std::string& junc) {
  qs = test::encode(q), ts = test::encode(t), js.clear();
  for (char c : junc) js.push_back(static_cast<uint8_t>(c - '0'));
  DpTask task;
  task.query = qs, task.target = ts, task.junc = js;
  task.flag = flag | kSplice;
  task.scoring = {1, 2, 1, 2, 1, 32, 0};
  task.noncan = 9, task.junc_bonus = 9, task.zdrop = -1;
  return task;
}

class SpliceDp : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    backend_ = test::try_backend(GetParam());
    if (!backend_) GTEST_SKIP() << "this processor cannot run backend " << GetParam();
  }
  std::unique_ptr<DpBackend> backend_;
};

TEST_P(SpliceDp, HandCheckedAlignments) {
  for (const SpliceFixture& fx : splice_fixtures()) {
    std::vector<uint8_t> qs, ts, js;
    const DpTask task = splice_task(fx.query, fx.target, fx.flag, qs, ts, js, fx.junc);
    std::vector<DpResult> r(1);
    backend_->run(std::span(&task, 1), r);
    EXPECT_EQ(r[0].score, fx.score) << fx.name;
    EXPECT_EQ(test::cigar_text(r[0].cigar), fx.cigar) << fx.name;
    EXPECT_FALSE(r[0].zdropped) << fx.name;
    EXPECT_FALSE(r[0].reach_end) << fx.name;
  }
}

TEST_P(SpliceDp, RightAlignmentAndRunsOfOneBase) {
  std::vector<uint8_t> qs, ts, js;
  // A 3-base intron in a homopolymer slides; left alignment puts it first, right last.
  DpTask t = splice_task("ACGAAAACGT", "ACGAAAAAAACGT", 0, qs, ts, js, "");
  t.scoring = {1, 2, 1, 6, 1, 8, 0};  // q2 8 < q + 3e = 9: the long-gap state wins
  std::vector<DpResult> r(1);
  backend_->run(std::span(&t, 1), r);
  EXPECT_EQ(r[0].score, 10 - 8);
  EXPECT_EQ(test::cigar_text(r[0].cigar), "3M3N7M");
  t.flag |= kRight;
  backend_->run(std::span(&t, 1), r);
  EXPECT_EQ(test::cigar_text(r[0].cigar), "7M3N3M");
}

// ---------------------------------------------------------------------------------------
// Golden tasks of minimap2 2.24's ksw_exts2_sse
// ---------------------------------------------------------------------------------------
size_t check_splice_file(DpBackend& backend, const std::string& path) {
  io::LineReader in(path);
  std::string line;
  std::vector<io::TaskRecord> recs;
  while (in.next(line)) recs.push_back(io::parse_task_line(line, path, in.line_number()));
  std::vector<DpTask> tasks;
  for (const auto& rec : recs) {
    EXPECT_TRUE(rec.has_answer && (rec.flag & kSplice)) << path << " line " << rec.line;
    tasks.push_back(rec.task());
  }
  std::vector<DpResult> res(tasks.size());
  backend.run(tasks, res);
  size_t bad = 0;
  for (size_t i = 0; i < recs.size(); ++i) {
    const auto got = io::format_answer(res[i]);
    for (int k = 0; k < io::kTaskAnswerColumns; ++k) {
      if (got[k] == recs[i].answer[k]) continue;
      if (++bad <= 10)
        ADD_FAILURE() << path << " line " << recs[i].line << " (" << recs[i].id << ") column " << 15 + k
                      << ": expected " << recs[i].answer[k].substr(0, 80) << " got " << got[k].substr(0, 80);
    }
  }
  EXPECT_EQ(bad, 0u) << path;
  return recs.size();
}

// Every committed golden task on every backend (the GPU backends on their own splice
// kernel; every backend hands the wide scorings to the scalar oracle).
TEST_P(SpliceDp, GoldenTasks) {
  const std::pair<const char*, size_t> files[] = {
      {"ont", 900}, {"hifi", 700}, {"drna", 500}, {"edge", 2042}, {"wide", 2022}};
  for (const auto& [name, n] : files)
    EXPECT_EQ(
        check_splice_file(*backend_, test::source_path(std::string("tests/data/splice/") + name + ".golden.tsv.gz")), n)
        << name;
}

// The same from minimap2 2.31's ksw_exts2_sse (scripts/record-splice-golden.sh with
// MM_RELEASE=2.31): miniprot's splice model (kSpliceCmplx) and minimap2's (-J 0) on
// either strand, left extensions (kRevCigar), end bonuses (reach_end), 2.31's mte_q
// (kMteQCell); the edge tasks with one strand flag, half of them with miniprot's model.
TEST_P(SpliceDp, GoldenTasksOf2_31) {
  const std::pair<const char*, size_t> files[] = {{"ont", 520}, {"hifi", 330}, {"drna", 250}, {"edge", 1525}};
  for (const auto& [name, n] : files)
    EXPECT_EQ(check_splice_file(*backend_,
                                test::source_path(std::string("tests/data/splice/r231-") + name + ".golden.tsv.gz")),
              n)
        << name;
}

INSTANTIATE_TEST_SUITE_P(Backends, SpliceDp, ::testing::ValuesIn(test::all_backends()), [](const auto& info) {
  std::string n = info.param;
  for (char& c : n) c = c == '-' ? '_' : c;
  return n;
});

// ---------------------------------------------------------------------------------------
// Differential: the scalar engine against a plain DP of the recurrence
// ---------------------------------------------------------------------------------------
// Full matrices in 32-bit scores, no difference form, no anti-diagonals:
//   H(t,j)    = max{ H(t-1,j-1) + s, E(t,j), F(t,j), E2(t,j) + acceptor[t] }
//   E(t+1,j)  = max{ H(t,j) - q, E(t,j) } - e,   F likewise along j
//   E2(t+1,j) = max{ H(t,j) - q2 + donor[t], E2(t,j) }
// borders H(-1,j) = -min(q + (j+1)e, q2) (and along t), E(0,j) = H(-1,j) - q - e,
// E2(0,j) = H(-1,j) - q2, F(t,0) = H(t,-1) - q - e. For schemes whose differences stay
// within 8 bits the engine must give the same score, max, mqe and mte.
struct Plain {
  int score = kDpNegInf, max = 0, mqe = kDpNegInf, mte = kDpNegInf;
};

Plain plain_dp(const DpTask& task) {
  const int ql = static_cast<int>(task.query.size()), tl = static_cast<int>(task.target.size());
  const DpScoring& sc = task.scoring;
  Plain p;
  std::vector<int8_t> donor(tl), acceptor(tl);
  kernels::SpliceSiteInput in;
  in.target = task.target.data(), in.tlen = tl, in.flag = task.flag, in.noncan = task.noncan;
  in.junc_bonus = task.junc_bonus, in.junc = task.junc.empty() ? nullptr : task.junc.data();
  kernels::splice_site_scores(in, donor.data(), acceptor.data(), tl);
  auto border = [&](int i) { return i < 0 ? 0 : -std::min(sc.q + (i + 1) * sc.e, sc.q2); };
  auto s = [&](int t, int j) {
    const uint8_t a = task.target[t], b = task.query[j];
    return a > 3 || b > 3 ? (sc.ambi == 0 ? -sc.e : -sc.ambi) : a == b ? sc.a : -sc.b;
  };
  // Row t-1 of H and the E/E2 values entering row t; F runs along the row.
  std::vector<int> Hprev(ql), E(ql), E2(ql), H(ql);
  for (int j = 0; j < ql; ++j) Hprev[j] = border(j), E[j] = border(j) - sc.q - sc.e, E2[j] = border(j) - sc.q2;
  for (int t = 0; t < tl; ++t) {
    int F = border(t) - sc.q - sc.e;
    for (int j = 0; j < ql; ++j) {
      const int diag = (j > 0 ? Hprev[j - 1] : border(t - 1)) + s(t, j);
      const int h = std::max({diag, E[j], F, E2[j] + acceptor[t]});
      H[j] = h;
      E[j] = std::max(h - sc.q, E[j]) - sc.e;
      E2[j] = std::max(h - sc.q2 + donor[t], E2[j]);
      F = std::max(h - sc.q, F) - sc.e;
      p.max = std::max(p.max, h);
    }
    p.mqe = std::max(p.mqe, H[ql - 1]);
    std::swap(H, Hprev);
  }
  p.mte = *std::max_element(Hprev.begin(), Hprev.end());
  p.score = Hprev[ql - 1];
  return p;
}

// The score of a CIGAR on the task, pricing each operation as the recurrence does: a
// leading I/D/N run is the border's min(q + L*e, q2); an N run inside costs q2 minus the
// donor score before it (none at the target's start) and plus the acceptor score at its
// last base.
int cigar_score(const DpTask& task, const std::vector<uint32_t>& cigar) {
  const DpScoring& sc = task.scoring;
  const int tl = static_cast<int>(task.target.size());
  std::vector<int8_t> donor(tl), acceptor(tl);
  kernels::SpliceSiteInput in;
  in.target = task.target.data(), in.tlen = tl, in.flag = task.flag, in.noncan = task.noncan;
  in.junc_bonus = task.junc_bonus, in.junc = task.junc.empty() ? nullptr : task.junc.data();
  kernels::splice_site_scores(in, donor.data(), acceptor.data(), tl);
  int score = 0, t = 0, j = 0;
  for (size_t k = 0; k < cigar.size(); ++k) {
    const int op = static_cast<int>(cigar::op(cigar[k])), len = static_cast<int>(cigar::len(cigar[k]));
    const bool leading = k == 0 && op != cigar::kMatch;
    if (op == cigar::kMatch) {
      for (int i = 0; i < len; ++i, ++t, ++j) {
        const uint8_t a = task.target[t], b = task.query[j];
        score += a > 3 || b > 3 ? (sc.ambi == 0 ? -sc.e : -sc.ambi) : a == b ? sc.a : -sc.b;
      }
    } else if (leading) {
      score -= std::min(sc.q + len * sc.e, sc.q2);
      (op == cigar::kIns ? j : t) += len;
    } else if (op == cigar::kNSkip) {
      score += -sc.q2 + (t > 0 ? donor[t - 1] : 0) + acceptor[t + len - 1];
      t += len;
    } else {
      score -= sc.q + len * sc.e;
      (op == cigar::kIns ? j : t) += len;
    }
  }
  return score;
}

// SIMD against the scalar oracle on random tasks: every flag combination, scoring
// schemes up to the 8-bit limits (differences that wrap must wrap alike), junction
// arrays, Z-drop, lengths around the vector widths and a few long targets.
TEST(SpliceDifferential, SimdMatchesScalar) {
  std::vector<std::unique_ptr<DpBackend>> simd;
  for (const char* name : {"cpu-sse41", "cpu-avx2", "cpu-avx512"})
    if (auto b = test::try_backend(name)) simd.push_back(std::move(b));
  if (simd.empty()) GTEST_SKIP() << "this processor has no SSE4.1";
  auto scalar = test::try_backend("scalar");
  std::mt19937 rng(20240616);
  auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const uint32_t base_flags[] = {0,
                                 kScoreOnly,
                                 kRight,
                                 kApproxMax,
                                 kApproxMax | kApproxDrop,
                                 kExtzOnly,
                                 kExtzOnly | kRight | kRevCigar,
                                 kRevCigar,
                                 kApproxMax | kRight,
                                 kScoreOnly | kApproxMax};
  const uint32_t strand_flags[] = {0,
                                   kSpliceFor,
                                   kSpliceRev,
                                   kSpliceFor | kSpliceRev,
                                   kSpliceFor | kSpliceFlank,
                                   kSpliceRev | kSpliceFlank,
                                   kSpliceFor | kSpliceRev | kSpliceFlank,
                                   kSpliceFlank};
  const int lengths[] = {1, 2, 15, 16, 17, 31, 32, 33, 47, 64, 65, 100, 200, 300};
  int n = 0;
  for (int iter = 0; iter < 1500; ++iter) {
    const bool wide = pick(0, 3) == 0;
    DpScoring sc =
        wide ? DpScoring{pick(0, 127), pick(0, 127), pick(0, 127), pick(0, 127), pick(1, 127), pick(0, 127), 0}
             : DpScoring{pick(1, 3), pick(1, 8), pick(0, 2), pick(0, 8), pick(1, 3), pick(10, 40), 0};
    const int tl = iter % 100 == 0 ? pick(1000, 3000) : lengths[pick(0, 13)] + pick(0, 3);
    std::string t;
    for (int i = 0; i < tl; ++i) t += "ACGTGTAGCTACN"[pick(0, pick(0, 9) ? 11 : 12)];
    const int cut1 = pick(0, tl), cut2 = pick(cut1, tl);
    std::string q;
    for (char c : t.substr(0, cut1) + t.substr(cut2)) {
      const int r = pick(0, 99);
      if (r < 5) continue;
      q += r < 10 ? "ACGTN"[pick(0, 4)] : c;
    }
    if (q.empty() || pick(0, 9) == 0) q = t.substr(0, std::min<size_t>(t.size(), lengths[pick(0, 13)]));
    std::string junc;
    if (pick(0, 1))
      for (int i = 0; i < tl; ++i) junc += pick(0, 7) ? '0' : "0123456789abcdef"[pick(0, 15)];
    std::vector<uint8_t> qs, ts, js;
    DpTask task = splice_task(q, t, base_flags[pick(0, 9)] | strand_flags[pick(0, 7)], qs, ts, js, "");
    for (char c : junc) js.push_back(static_cast<uint8_t>(c <= '9' ? c - '0' : c - 'a' + 10));
    task.junc = js;
    task.scoring = sc, task.noncan = pick(0, 127), task.junc_bonus = pick(-128, 127);
    task.zdrop = std::array{-1, 0, 5, 50, 200, 1000}[pick(0, 5)];
    std::vector<DpResult> want(1), got(1);
    scalar->run(std::span(&task, 1), want);
    const auto w = io::format_answer(want[0]);
    for (auto& b : simd) {
      b->run(std::span(&task, 1), got);
      const auto g = io::format_answer(got[0]);
      for (int k = 0; k < io::kTaskAnswerColumns; ++k)
        EXPECT_EQ(g[k], w[k]) << b->name() << " iteration " << iter << " column " << 15 + k << " flag " << task.flag;
      EXPECT_EQ(got[0].cells, want[0].cells) << b->name() << " iteration " << iter;
    }
    ++n;
  }
  EXPECT_EQ(n, 1500);
}

TEST(SpliceDifferential, ScalarMatchesAPlainDpOfTheRecurrence) {
  std::mt19937 rng(20240615);
  auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto backend = test::try_backend("scalar");
  const char* bases = "ACGTN";
  const uint32_t strand_flags[] = {0,
                                   kSpliceFor,
                                   kSpliceRev,
                                   kSpliceFor | kSpliceRev,
                                   kSpliceFor | kSpliceFlank,
                                   kSpliceFor | kSpliceRev | kSpliceFlank};
  int checked = 0, with_n = 0;
  for (int iter = 0; iter < 600; ++iter) {
    // Schemes whose 8-bit differences cannot wrap (|sums| < 128), see the bounds in
    // dp_splice_scalar.cpp; q2 > 2 * max bonus, so two adjacent introns never beat one.
    DpScoring sc{pick(1, 2), pick(1, 6), pick(0, 2), pick(0, 6), pick(1, 2), pick(24, 40), 0};
    const int noncan = pick(0, 20), bonus = pick(-10, 10);
    // A target with motifs planted densely, a query from two pieces of it with errors.
    std::string t;
    const int tl = pick(1, 160);
    for (int i = 0; i < tl; ++i) t += pick(0, 9) < 2 ? "GTAGCTAC"[pick(0, 7)] : bases[pick(0, pick(0, 20) ? 3 : 4)];
    const int cut1 = pick(0, tl), cut2 = pick(cut1, tl);
    std::string q;
    for (char c : t.substr(0, cut1) + t.substr(cut2)) {
      const int r = pick(0, 99);
      if (r < 4) continue;
      q += r < 8 ? bases[pick(0, 3)] : c;
      if (r >= 8 && r < 11) q += bases[pick(0, 3)];
    }
    if (q.empty()) q.push_back('A');
    std::string junc;
    if (pick(0, 2) == 0)
      for (int i = 0; i < tl; ++i) junc += pick(0, 9) ? '0' : "123456789abcdef"[pick(0, 14)];
    std::vector<uint8_t> qs, ts, js;
    DpTask task = splice_task(q, t, strand_flags[pick(0, 5)] | (pick(0, 1) ? kRight : 0), qs, ts, js, "");
    js.clear();
    for (char c : junc) js.push_back(static_cast<uint8_t>(c <= '9' ? c - '0' : c - 'a' + 10));
    task.junc = js;
    task.scoring = sc, task.noncan = noncan, task.junc_bonus = bonus;
    std::vector<DpResult> r(1);
    backend->run(std::span(&task, 1), r);
    const bool skipped = sc.q2 <= sc.q + sc.e || std::max(sc.b, sc.ambi) > 2 * (sc.q + sc.e);
    if (skipped) {
      EXPECT_EQ(r[0].score, kDpNegInf) << "iteration " << iter;
      continue;
    }
    const Plain p = plain_dp(task);
    EXPECT_EQ(r[0].score, p.score) << "iteration " << iter << " " << q << " " << t;
    EXPECT_EQ(r[0].max, p.max) << "iteration " << iter;
    EXPECT_EQ(r[0].mqe, p.mqe) << "iteration " << iter;
    EXPECT_EQ(r[0].mte, p.mte) << "iteration " << iter;
    const cigar::Spans sp = cigar::spans(r[0].cigar);
    EXPECT_EQ(sp.query, static_cast<int64_t>(q.size())) << "iteration " << iter;
    EXPECT_EQ(sp.target, tl) << "iteration " << iter;
    EXPECT_EQ(cigar_score(task, r[0].cigar), r[0].score) << "iteration " << iter << " " << test::cigar_text(r[0].cigar);
    for (uint32_t c : r[0].cigar) with_n += cigar::op(c) == cigar::kNSkip;
    ++checked;
  }
  EXPECT_GT(checked, 400);
  EXPECT_GT(with_n, 100);  // the test exercises the intron state
}

}  // namespace
}  // namespace agatha
