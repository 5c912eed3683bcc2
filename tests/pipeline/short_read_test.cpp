// The sr preset with options set on AlignOptions directly (the fields minimap2's -F, -z,
// -f X,Y and --heap-sort set), through the read pipeline in-process: minimap2 2.24's PAF
// with base alignment (tests/data/sr, make-expected.sh there) byte for byte, on the
// scalar and a SIMD DP backend. Each case changes what minimap2 prints against the
// preset's own values, except --heap-sort=no, whose radix order of the anchors gives the
// preset's output on these reads (the seeds test checks the two orders themselves).
#include <agatha/dp.hpp>
#include <agatha/error.hpp>
#include <agatha/options.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include "../../src/io/index_file.hpp"
#include "../../src/io/seq_reader.hpp"
#include "../../src/pipeline/batch_aligner.hpp"
#include "../../src/pipeline/read_aligner.hpp"
#include "../../src/pipeline/read_mapper.hpp"
#include "support/dp.hpp"
#include "support/files.hpp"
#include "support/paths.hpp"

namespace agatha {
namespace {

struct SrCase {
  std::string name, ref, reads, expected;
  std::function<void(AlignOptions&)> set;  // after the preset
};

const std::string kEcoliRef = "tests/data/e2e/ont.ref.fa.gz", kEcoliReads = "tests/data/e2e/sr.ecoli.fq.gz";
const std::string kRepRef = "tests/data/seeds/rep.fa.gz", kRepReads = "tests/data/e2e/sr.rep.fq.gz";

// The PAF lines (-c) of the reads against the reference with -x sr and c.set, on `dp`.
std::string align_paf(const SrCase& c, DpBackend& dp, int threads) {
  AlignOptions opt;
  opt.set_release(Release::k2_24);  // the expected PAF is minimap2 2.24's (make-expected.sh)
  opt.apply_preset("sr");
  c.set(opt);
  opt.validate();
  const index::MinimizerIndex idx = io::build_index_from_file(test::source_path(c.ref), opt);
  const pipeline::ReadMapper mapper(idx, opt);
  pipeline::OutputOptions out;
  out.kind = pipeline::OutputKind::kPaf;
  const pipeline::ReadAligner aligner(mapper, opt, out);
  io::SeqReader reads(test::source_path(c.reads));
  std::string text;
  (void)pipeline::align_reads(
      aligner, dp, reads, [&text](std::string_view s) { text += s; }, threads, 20'000, 4'000);
  return text;
}

class ShortReads : public ::testing::TestWithParam<SrCase> {};

TEST_P(ShortReads, EqualMinimap2) {
  const SrCase& c = GetParam();
  const std::string want = test::read_gz(test::source_path(c.expected));
  ASSERT_GT(want.size(), 1000u) << c.expected;
  // The oracle and the widest SIMD this processor runs (the e2e suite runs every
  // instruction set on the preset's own cases).
  std::unique_ptr<DpBackend> simd = test::try_backend("cpu-avx2", 2);
  if (!simd) simd = test::try_backend("cpu-sse41", 2);
  const std::unique_ptr<DpBackend> scalar = test::try_backend("scalar", 2);
  ASSERT_TRUE(simd && scalar);
  EXPECT_EQ(align_paf(c, *scalar, 2), want) << c.name << " on scalar";
  EXPECT_EQ(align_paf(c, *simd, 2), want) << c.name << " on " << simd->name();
}

INSTANTIATE_TEST_SUITE_P(
    Minimap2, ShortReads,
    ::testing::Values(
        // -F 200: the chaining's reference gap limit max(200 - qlen, -g) instead of 800 - qlen
        SrCase{"ecoli_F200", kEcoliRef, kEcoliReads, "tests/data/sr/ecoli.F200.paf.gz",
               [](AlignOptions& o) { o.max_frag_len = 200; }},
        SrCase{"rep_F200", kRepRef, kRepReads, "tests/data/sr/rep.F200.paf.gz",
               [](AlignOptions& o) { o.max_frag_len = 200; }},
        // -z 50: more ungapped fills Z-drop, are aligned again by DP and split
        SrCase{"ecoli_z50", kEcoliRef, kEcoliReads, "tests/data/sr/ecoli.z50.paf.gz",
               [](AlignOptions& o) { o.zdrop = o.zdrop_inv = 50; }},
        // -f 1000,1000: max_occ not above mid_occ, so no re-chaining (most repeat reads stay unmapped)
        SrCase{"rep_f1000_1000", kRepRef, kRepReads, "tests/data/sr/rep.f1000_1000.paf.gz",
               [](AlignOptions& o) { o.mid_occ = 1000, o.max_occ = 1000; }},
        // --heap-sort=no: the anchors radix-sorted
        SrCase{"ecoli_no_heap_sort", kEcoliRef, kEcoliReads, "tests/data/e2e/expected/sr_ecoli_paf_c.paf.gz",
               [](AlignOptions& o) { o.heap_sort = false; }},
        SrCase{"rep_no_heap_sort", kRepRef, kRepReads, "tests/data/e2e/expected/sr_rep_paf_c.paf.gz",
               [](AlignOptions& o) { o.heap_sort = false; }}),
    [](const auto& info) { return info.param.name; });

// minimap2 stops on an assertion when it would align a short read against a
// homopolymer-compressed index; agatha refuses with a message (mapping without alignment
// works with HPC, in both).
TEST(ShortReadsHpc, AlignmentIsRefused) {
  const SrCase c{"hpc", kEcoliRef, kEcoliReads, "", [](AlignOptions& o) { o.hpc = true; }};
  const std::unique_ptr<DpBackend> dp = test::try_backend("scalar", 1);
  ASSERT_TRUE(dp);
  try {
    (void)align_paf(c, *dp, 1);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("homopolymer"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace agatha
