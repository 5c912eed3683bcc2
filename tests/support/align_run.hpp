// tests/support/align_run.hpp — the read pipeline of `agatha align` run in-process on a
// small fixed set, for the tests of how it schedules the DP (inline, rounds, overlap).
#pragma once

#include <agatha/dp.hpp>

#include <string>

#include "../../src/pipeline/batch_aligner.hpp"

namespace agatha::test {

struct AlignRun {
  std::string records;  // what the pipeline wrote, in order
  pipeline::AlignStats stats;
};

// tests/data/e2e/mt.sub.fq.gz (12 reads) against data/ref.fa with -x map-pb on `threads`
// threads; round_bases 1: every read a group of its own.
AlignRun align_mt_sub(DpBackend& dp, int threads, const pipeline::StepObserver& observe = {});

// `reads` against `ref` (paths) with `preset` and PAF with CIGAR (-c) on `threads`
// threads, reads in groups of up to round_bases bases.
AlignRun align_paf(DpBackend& dp, int threads, const std::string& ref, const std::string& reads,
                   const std::string& preset, uint64_t round_bases = 1 << 20);

}  // namespace agatha::test
