// src/pipeline/batch_loop.hpp — the batch loop of agatha's read pipelines (minimap2
// 2.24 map.c: worker_pipeline's steps, read -> map -> write): reads arrive in batches of
// at least `batch_bases` bases (-K), the next batch read on another thread while this
// one is processed (when threads > 1), and each read's output is written in input
// order. Used by batch_aligner.cpp (mapping, alignment) and split_merge.cpp (the merge of
// a split index).
#pragma once

#include <cstdint>
#include <future>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../io/read_input.hpp"
#include "../util/progress.hpp"

namespace agatha::pipeline {

struct PipelineStats {
  uint64_t reads = 0, bases = 0, batches = 0;
};

// Counts the reads of `done` and their bases in `progress`, if any: called once per
// fragment or group of reads finished (never per base or per seed).
inline void count_done(util::Progress* progress, std::span<const io::SeqRecord> done) {
  if (!progress) return;
  uint64_t bases = 0;
  for (const io::SeqRecord& r : done) bases += r.seq.size();
  progress->add(done.size(), bases);
}

// Reads batches of >= batch_bases bases, has process(batch, lines) fill one output
// string per read (a fragment's records all in its first read's), and writes the non-empty ones in order with write(string_view).
// name_and_seq_only: SeqReader::next_batch's. The first error stops the loop (after the
// batch being read ahead is done) and is rethrown.
template <class Write, class Process>
void run_batches(io::ReadInput& reads, Write&& write, int threads, uint64_t batch_bases, bool name_and_seq_only,
                 PipelineStats& stats, Process&& process) {
  auto read_next = [&reads, batch_bases, name_and_seq_only] {
    return reads.next_batch(batch_bases, name_and_seq_only);
  };
  io::ReadBatch batch = read_next();
  std::vector<std::string> lines;
  while (!batch.empty()) {
    std::future<io::ReadBatch> ahead;
    if (threads > 1) ahead = std::async(std::launch::async, read_next);
    try {
      lines.assign(batch.reads.size(), std::string());
      process(batch, lines);
    } catch (...) {
      if (ahead.valid()) ahead.wait();  // the reader refers to `reads`; let it finish
      throw;
    }
    ++stats.batches, stats.reads += batch.reads.size();
    for (const io::SeqRecord& r : batch.reads) stats.bases += r.seq.size();
    for (const std::string& s : lines)
      if (!s.empty()) write(s);
    batch = ahead.valid() ? ahead.get() : read_next();
  }
}

}  // namespace agatha::pipeline
