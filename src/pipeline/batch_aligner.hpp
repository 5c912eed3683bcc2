// src/pipeline/batch_aligner.hpp — the read pipeline of `agatha align` (and --map-only)
// (minimap2 2.24 map.c: mm_map_file_frag, worker_pipeline): reads arrive in batches of
// at least `batch_bases` bases (-K; the read crossing the threshold is included), each
// batch is mapped on `threads` threads, and the output is written in input order. The
// next batch is read while the current one is mapped, so at most two batches are in
// memory. The output does not depend on threads or batch_bases.
//
// Threading: map_reads starts and joins its own threads; the mapper is shared read-only.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "../io/read_input.hpp"
#include "../io/seq_reader.hpp"
#include "../util/progress.hpp"
#include "batch_loop.hpp"
#include "read_aligner.hpp"
#include "read_mapper.hpp"

namespace agatha::pipeline {

// `write` receives each batch's records, in input order.
using RecordWriter = std::function<void(std::string_view)>;

// The unit of work is a fragment (io::ReadInput: a read, or the segments of a pair),
// never split between batches or groups; a fragment's records are written together.
//
// Maps every read of `reads` and hands the PAF lines to `write`. The first error (bad
// input, write failure) stops the pipeline and is rethrown; batches before it were
// already written. `progress`, if given, counts the reads and their bases as each
// fragment is mapped (its records are written with its batch's; -K is large).
PipelineStats map_reads(const ReadMapper& mapper, io::ReadInput& reads, const RecordWriter& write, int threads,
                        uint64_t batch_bases, util::Progress* progress = nullptr);
PipelineStats map_reads(const ReadMapper& mapper, io::SeqReader& reads, const RecordWriter& write, int threads,
                        uint64_t batch_bases);

// Aligns every read of `reads` and hands its records to `write`; same
// batches, threads and ordering as map_reads. Within a batch, reads are aligned in
// groups of at most `round_bases` bases (bounding the memory the rounds hold): the
// group's reads are mapped, then their DP runs in rounds — every task the group's reads
// are waiting for goes to `dp` in one call — until every read is final (see
// align/dp_rounds.hpp). The output depends on none of threads, batch_bases,
// round_bases or the backend.
//
// With a host backend that computes single tasks on the pipeline's threads
// (DpBackend::inline_workers at least `threads`: `--dp-backend cpu` and `scalar`), there
// are no rounds: each read is aligned in one pass on one thread, every DP computed when
// the read asks for it, as minimap2 does, and its records made at once (the groups
// remain: they bound the records held before they are written, and hold at least
// `threads` fragments each, so that a few long queries such as an assembly's contigs are
// aligned side by side, and a batch's last fragments join the group before them when
// fewer than `threads` are left). The calls and results are those of the final pass of
// the rounds, so the records are the same. A group of fewer fragments than threads (a
// batch that has no more: one long query, a few contigs on many threads) gives each
// fragment threads by its bases; a fragment whose regions share them evenly enough
// (ReadAligner::regions_side_by_side) has its regions aligned side by side on them, DP
// inline, and the others run in rounds, so that their DP tasks use every thread.
//
// `progress`, if given, counts each group's reads and bases when its records are written.
//
// With a backend that runs on a device (DpBackend::runs_on_device: `--dp-backend gpu`),
// two groups are in flight: while one group's round runs on the device (called from a
// thread of its own), the threads seed, chain and replay the other group (minimap2's
// mm_map_frag and the passes of mm_align_skeleton), so neither the device nor the
// cores wait for the other. Records are still written in input order.
struct AlignStats : PipelineStats {
  uint64_t rounds = 0, dp_tasks = 0;  // DP rounds and the tasks in them
  uint64_t inline_dp_tasks = 0;       // DP tasks computed as their reads asked for them
  uint64_t overlapped_rounds = 0;  // DP rounds run while the threads worked on another group
  uint64_t spread_queries = 0;     // queries (fragments) seeded and chained on more than one thread
};
// What the pipeline is doing, for tests and traces: host work (seeding, chaining, a
// pass, formatting) and DP rounds of group `group` (numbered from 0 over the run). DP
// events come from the thread that calls the backend: the observer must be thread-safe.
enum class PipelineStep { kHostBegin, kHostEnd, kDpBegin, kDpEnd };
using StepObserver = std::function<void(PipelineStep, uint64_t group)>;
AlignStats align_reads(const ReadAligner& aligner, DpBackend& dp, io::ReadInput& reads, const RecordWriter& write,
                       int threads, uint64_t batch_bases, uint64_t round_bases, const StepObserver& observe = {},
                       util::Progress* progress = nullptr);
// A single file of reads, each a read of its own.
AlignStats align_reads(const ReadAligner& aligner, DpBackend& dp, io::SeqReader& reads, const RecordWriter& write,
                       int threads, uint64_t batch_bases, uint64_t round_bases, const StepObserver& observe = {});

}  // namespace agatha::pipeline
