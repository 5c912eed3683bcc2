// The DP in rounds (src/align/dp_rounds.hpp) against the sequential order: for every
// read, alignment passes over a DpMemo, answered in batches, must end with exactly the
// DP calls, results and region coordinates of align_regions run call by call; and the
// memo's own rules (provisional answers, matching, answering).
#include "../../src/align/dp_rounds.hpp"

#include <gtest/gtest.h>
#include <agatha/error.hpp>

#include <algorithm>

#include <string>
#include <vector>

#include "../../src/io/index_file.hpp"
#include "../../src/io/seq_reader.hpp"
#include "../../src/pipeline/read_mapper.hpp"
#include "support/dp.hpp"
#include "support/paths.hpp"

namespace agatha::align {
namespace {

void expect_same_result(const DpResult& a, const DpResult& b, const std::string& what) {
  EXPECT_EQ(a.score, b.score) << what;
  EXPECT_EQ(a.max, b.max) << what;
  EXPECT_EQ(a.max_q, b.max_q) << what;
  EXPECT_EQ(a.max_t, b.max_t) << what;
  EXPECT_EQ(a.mqe, b.mqe) << what;
  EXPECT_EQ(a.mte, b.mte) << what;
  EXPECT_EQ(a.zdropped, b.zdropped) << what;
  EXPECT_EQ(a.reach_end, b.reach_end) << what;
  EXPECT_EQ(a.cigar, b.cigar) << what;
}

struct RoundsTally {
  int reads = 0, calls = 0, passes = 0, splits = 0;
};

// Aligns every read of `reads_path` both ways and compares.
void check_reads(const std::string& reads_path, const std::string& preset, const std::string& ref_path,
                 RoundsTally& tally) {
  AlignOptions opt;
  opt.apply_preset(preset);
  opt.validate();
  const index::MinimizerIndex idx = io::build_index_from_file(ref_path, opt);
  const pipeline::ReadMapper mapper(idx, opt);
  const std::unique_ptr<DpBackend> dp = test::try_backend("scalar");
  io::SeqReader reader(reads_path);
  for (io::SeqRecord rec; reader.next(rec);) {
    const pipeline::ReadMapping m = mapper.map(rec.name, rec.seq);
    if (m.regions.empty()) continue;
    ++tally.reads;
    std::vector<map::Region> seq_regs = m.regions;
    const std::vector<RegionAlignment> want =
        align_regions(opt, idx, ReadCodes(rec.seq), seq_regs, m.chains.anchors, *dp);

    DpMemo memo;
    std::vector<map::Region> regs;
    std::vector<RegionAlignment> got;
    for (int pass = 0;; ++pass) {
      ASSERT_LT(pass, 50) << rec.name << ": the passes do not converge";
      regs = m.regions;
      memo.begin_pass();
      got = align_regions(opt, idx, ReadCodes(rec.seq), regs, m.chains.anchors, memo);
      ++tally.passes;
      if (memo.missed() == 0) break;
      const std::vector<DpTask> tasks = memo.pending_tasks();
      EXPECT_FALSE(tasks.empty()) << rec.name;
      std::vector<DpResult> results(tasks.size());
      dp->run(tasks, results);
      memo.answer(std::move(results));
    }
    ASSERT_EQ(got.size(), want.size()) << rec.name;
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_EQ(got[i].calls.size(), want[i].calls.size()) << rec.name << " region " << i;
      for (size_t c = 0; c < want[i].calls.size(); ++c) {
        const RegionDpCall& g = got[i].calls[c];
        const RegionDpCall& w = want[i].calls[c];
        const std::string what = rec.name + " region " + std::to_string(i) + " call " + std::to_string(c);
        EXPECT_EQ(g.flag, w.flag) << what;
        EXPECT_EQ(g.w, w.w) << what;
        EXPECT_EQ(g.zdrop, w.zdrop) << what;
        expect_same_result(g.result, w.result, what);
        ++tally.calls;
      }
      EXPECT_EQ(got[i].cigar, want[i].cigar) << rec.name << " region " << i;
      EXPECT_EQ(got[i].dp_score, want[i].dp_score) << rec.name << " region " << i;
    }
    ASSERT_EQ(regs.size(), seq_regs.size()) << rec.name;
    for (size_t i = 0; i < regs.size(); ++i) {
      EXPECT_EQ(regs[i].qs, seq_regs[i].qs) << rec.name;
      EXPECT_EQ(regs[i].qe, seq_regs[i].qe) << rec.name;
      EXPECT_EQ(regs[i].rs, seq_regs[i].rs) << rec.name;
      EXPECT_EQ(regs[i].re, seq_regs[i].re) << rec.name;
      EXPECT_EQ(regs[i].split, seq_regs[i].split) << rec.name;
      EXPECT_EQ(regs[i].inv, seq_regs[i].inv) << rec.name;
      if (regs[i].split) ++tally.splits;
    }
  }
}

TEST(DpRounds, BundledReadsEqualTheSequentialOrder) {
  RoundsTally t;
  check_reads(test::source_path("data/reads.fq"), "map-pb", test::source_path("data/ref.fa"), t);
  EXPECT_EQ(t.reads, 155);
  EXPECT_GT(t.calls, 1000);
  RecordProperty("calls", t.calls);
  RecordProperty("passes", t.passes);
}

// Inversions, indels and Z-drops: splits and inversion rescue happen in later rounds.
TEST(DpRounds, SyntheticSplitsAndInversionsEqualTheSequentialOrder) {
  RoundsTally t;
  check_reads(test::source_path("tests/data/region/synthetic.fq.gz"), "map-pb", test::source_path("data/ref.fa"), t);
  EXPECT_EQ(t.reads, 20);
  EXPECT_GT(t.splits, 0);
  EXPECT_GT(t.passes, 2 * t.reads);  // some reads needed more than one round
}

TEST(DpRounds, InversionTestSetEqualsTheSequentialOrder) {
  const std::string qq = test::source_path("tests/data/e2e/q-inv.fa.gz"),
                    rr = test::source_path("tests/data/e2e/t-inv.fa.gz");
  for (const char* preset : {"map-ont", "asm20"}) {
    RoundsTally t;
    check_reads(qq, preset, rr, t);
    EXPECT_EQ(t.reads, 2) << preset;
    EXPECT_GT(t.splits, 0) << preset;
  }
}

DpTask make_task(std::span<const uint8_t> q, std::span<const uint8_t> t, uint32_t flag, int w = 100) {
  DpTask task;
  task.query = q, task.target = t;
  task.flag = flag, task.w = w, task.zdrop = 400, task.end_bonus = -1;
  return task;
}

TEST(DpMemo, ProvisionalAnswersAreWellFormed) {
  const std::vector<uint8_t> q = test::encode("ACGTACGTAC"), t = test::encode("ACGTAC");
  const DpResult ext = provisional_result(make_task(q, t, dp_flag::kExtzOnly | dp_flag::kRight));
  EXPECT_TRUE(ext.cigar.empty());
  EXPECT_FALSE(ext.reach_end);
  EXPECT_FALSE(ext.zdropped);
  EXPECT_EQ(ext.max_q, -1);
  const DpResult fill = provisional_result(make_task(q, t, dp_flag::kApproxMax));
  ASSERT_EQ(fill.cigar.size(), 2u);  // spans both sequences: 6M 4I
  EXPECT_EQ(fill.cigar[0], 6u << 4 | cigar::kMatch);
  EXPECT_EQ(fill.cigar[1], 4u << 4 | cigar::kIns);
  EXPECT_FALSE(fill.zdropped);
  const DpResult del = provisional_result(make_task(t, q, 0));
  ASSERT_EQ(del.cigar.size(), 2u);
  EXPECT_EQ(del.cigar[1], 4u << 4 | cigar::kDel);
}

TEST(DpMemo, AnswersOnlyTheSameTask) {
  const std::vector<uint8_t> q = test::encode("ACGTACGTACGGT"), t = test::encode("ACGTACGTCCGGT");
  DpMemo memo;
  DpResult r;
  memo.begin_pass();
  memo.compute(make_task(q, t, 0), r);
  memo.compute(make_task(q, t, 0), r);      // asked twice, pending once
  memo.compute(make_task(q, t, 0, 50), r);  // another band: another task
  EXPECT_EQ(memo.missed(), 3u);
  std::vector<DpTask> tasks = memo.pending_tasks();
  ASSERT_EQ(tasks.size(), 2u);
  const std::unique_ptr<DpBackend> dp = test::try_backend("scalar");
  std::vector<DpResult> results(tasks.size());
  dp->run(tasks, results);
  const DpResult want = results[0];
  memo.answer(std::move(results));
  EXPECT_TRUE(memo.pending_tasks().empty());
  memo.begin_pass();
  DpResult got;
  memo.compute(make_task(q, t, 0), got);
  EXPECT_EQ(memo.missed(), 0u);
  expect_same_result(got, want, "answered task");
  // One base changed: not answered.
  std::vector<uint8_t> q2 = q;
  q2[5] = 2;
  memo.compute(make_task(q2, t, 0), got);
  EXPECT_EQ(memo.missed(), 1u);
  EXPECT_THROW(memo.answer({}), Error);  // one pending task, no answer
}

// A pending task's sequence inside a stable buffer (the read's codes) is kept as a span
// into it; any other is the memo's own copy, which outlives the caller's buffer.
TEST(DpMemo, KeepsSpansIntoStableBuffersAndCopiesTheRest) {
  const std::vector<uint8_t> backing = test::encode("GGGGGTTACGTACGTACGGTAACCCCCAAAA");
  const std::span<const uint8_t> read(backing.data() + 5, 17);  // the stable buffer
  const std::vector<uint8_t> other = test::encode("ACGTACGTACGGT");
  std::vector<uint8_t> t = test::encode("ACGTACGTCCGGT");
  DpMemo memo;
  memo.add_stable(read);
  DpResult r;
  memo.begin_pass();
  memo.compute(make_task(read.subspan(2, 13), t, 0), r);
  memo.compute(make_task(other, t, 0, 50), r);
  // Spans that start inside the buffer and run past its end, or start before it, are copied.
  memo.compute(make_task(std::span<const uint8_t>(read.data() + 10, 9), t, 0, 60), r);
  memo.compute(make_task(std::span<const uint8_t>(backing.data() + 3, 6), t, 0, 70), r);
  const std::vector<uint8_t> want_t = t;
  std::fill(t.begin(), t.end(), 0);  // the caller's target buffer is reused
  const std::vector<DpTask> tasks = memo.pending_tasks();
  ASSERT_EQ(tasks.size(), 4u);
  EXPECT_EQ(tasks[0].query.data(), read.data() + 2);
  EXPECT_NE(tasks[1].query.data(), other.data());
  EXPECT_TRUE(std::equal(tasks[1].query.begin(), tasks[1].query.end(), other.begin(), other.end()));
  EXPECT_NE(tasks[2].query.data(), read.data() + 10);
  EXPECT_TRUE(std::equal(tasks[2].query.begin(), tasks[2].query.end(), read.begin() + 10, read.begin() + 19));
  EXPECT_NE(tasks[3].query.data(), backing.data() + 3);
  for (const DpTask& task : tasks)
    EXPECT_TRUE(std::equal(task.target.begin(), task.target.end(), want_t.begin(), want_t.end()));
  memo.clear_stable();
  memo.begin_pass();
  memo.compute(make_task(read.subspan(1, 5), t, 0), r);
  const std::vector<DpTask> more = memo.pending_tasks();
  ASSERT_EQ(more.size(), 5u);
  EXPECT_NE(more[4].query.data(), read.data() + 1);  // no stable buffer any more: copied
}

// Splice tasks differ by their non-canonical penalty, junction bonus and junction bits
// too; the junction array a pending task refers to is the memo's own copy.
TEST(DpMemo, SpliceTasksDifferByJunctions) {
  const std::vector<uint8_t> q = test::encode("ACGTACGTACGGTTTTACGA"),
                             t = test::encode("ACGTACGTACGTAAGGTCCCCTTAGGTTTTACGA");
  std::vector<uint8_t> junc(t.size(), 0);
  auto splice = [&](int noncan, int bonus, bool with_junc) {
    DpTask task = make_task(q, t, dp_flag::kSplice | dp_flag::kSpliceFor | dp_flag::kApproxMax, -1);
    task.scoring = DpScoring{1, 2, 1, 2, 1, 32, 0};
    task.noncan = noncan, task.junc_bonus = bonus;
    if (with_junc) task.junc = junc;
    return task;
  };
  DpMemo memo;
  DpResult r;
  memo.begin_pass();
  memo.compute(splice(9, 9, false), r);
  memo.compute(splice(9, 9, false), r);
  memo.compute(splice(5, 9, false), r);
  memo.compute(splice(9, 5, false), r);
  junc[12] = dp_junc::kJuncForStart, junc[21] = dp_junc::kJuncForEnd;
  memo.compute(splice(9, 9, true), r);
  std::fill(junc.begin(), junc.end(), uint8_t{0});  // the memo keeps its own copy
  std::vector<DpTask> tasks = memo.pending_tasks();
  ASSERT_EQ(tasks.size(), 4u);
  ASSERT_EQ(tasks[3].junc.size(), t.size());
  EXPECT_EQ(tasks[3].junc[12], dp_junc::kJuncForStart);
  EXPECT_EQ(tasks[3].junc[21], dp_junc::kJuncForEnd);
}

}  // namespace
}  // namespace agatha::align
