// Batches, worker threads and ordered output for alignment and mapping-only runs.
//
// Within a batch, workers take reads (and alignment passes) by an atomic counter (reads
// vary in length by orders of magnitude, so static slices would leave threads idle) and
// put each read's output in its own slot; the slots are written in order once the batch
// is done.
#include "batch_aligner.hpp"

#include "../util/parallel_for.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <future>
#include <iterator>
#include <span>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace agatha::pipeline {
namespace {

// The batch loop shared by both pipelines: reads batches of >= batch_bases bases (the
// next one read ahead on another thread when threads > 1), has process(batch, lines)
// fill one output string per read, and writes them in order.
template <class Write, class Process>
void run_batches(io::SeqReader& reads, Write&& write, int threads, uint64_t batch_bases, bool name_and_seq_only,
                 PipelineStats& stats, Process&& process) {
  auto read_next = [&reads, batch_bases, name_and_seq_only] { return reads.next_batch(batch_bases, name_and_seq_only); };
  std::vector<io::SeqRecord> batch = read_next();
  std::vector<std::string> lines;
  while (!batch.empty()) {
    std::future<std::vector<io::SeqRecord>> ahead;
    if (threads > 1) ahead = std::async(std::launch::async, read_next);
    try {
      lines.assign(batch.size(), std::string());
      process(batch, lines);
    } catch (...) {
      if (ahead.valid()) ahead.wait();  // the reader refers to `reads`; let it finish
      throw;
    }
    ++stats.batches, stats.reads += batch.size();
    for (const io::SeqRecord& r : batch) stats.bases += r.seq.size();
    for (const std::string& s : lines)
      if (!s.empty()) write(s);
    batch = ahead.valid() ? ahead.get() : read_next();
  }
}

// The rounds of one group of reads: jobs[i] aligns group[i].
void align_group(const ReadAligner& aligner, DpBackend& dp, std::span<const io::SeqRecord> group,
                 std::span<std::string> lines, int threads, AlignStats& stats) {
  std::vector<AlignJob> jobs(group.size());
  // Threads take reads longest first, so that a long read is not the last one started.
  std::vector<size_t> by_length(group.size());
  for (size_t i = 0; i < group.size(); ++i) by_length[i] = i;
  std::stable_sort(by_length.begin(), by_length.end(),
                   [&](size_t a, size_t b) { return group[a].seq.size() > group[b].seq.size(); });
  util::parallel_for(jobs.size(), threads, [&](size_t k, int) {
    const size_t i = by_length[k];
    jobs[i].read = &group[i];
    aligner.start(jobs[i]);
  });
  std::vector<size_t> active;  // longest first
  for (size_t i : by_length)
    if (!jobs[i].done) active.push_back(i);
  std::vector<DpTask> tasks;
  std::vector<DpResult> results;
  std::vector<size_t> first;  // per active job: its first task in the round
  while (!active.empty()) {
    util::parallel_for(active.size(), threads, [&](size_t k, int) { aligner.pass(jobs[active[k]]); });
    std::vector<size_t> waiting;
    tasks.clear();
    first.clear();
    for (size_t i : active) {
      if (jobs[i].done) continue;
      waiting.push_back(i);
      first.push_back(tasks.size());
      const std::vector<DpTask> t = jobs[i].memo.pending_tasks();
      tasks.insert(tasks.end(), t.begin(), t.end());
    }
    first.push_back(tasks.size());
    if (waiting.empty()) break;
    results.assign(tasks.size(), DpResult());
    dp.run(tasks, results);
    ++stats.rounds, stats.dp_tasks += tasks.size();
    for (size_t k = 0; k < waiting.size(); ++k)
      jobs[waiting[k]].memo.answer(std::vector<DpResult>(std::make_move_iterator(results.begin() + first[k]),
                                                         std::make_move_iterator(results.begin() + first[k + 1])));
    active = std::move(waiting);
  }
  util::parallel_for(jobs.size(), threads, [&](size_t k, int) { aligner.format(jobs[by_length[k]], lines[by_length[k]]); });
}

}  // namespace

PipelineStats map_reads(const ReadMapper& mapper, io::SeqReader& reads, io::OutputFile& out, int threads,
                        uint64_t batch_bases) {
  PipelineStats stats;
  run_batches(reads, [&out](std::string_view s) { out.write(s); }, threads, batch_bases, true, stats,
              [&](const std::vector<io::SeqRecord>& batch, std::vector<std::string>& lines) {
                util::parallel_for(batch.size(), threads,
                             [&](size_t i, int) { lines[i] = mapper.map_paf(batch[i].name, batch[i].seq); });
              });
  return stats;
}

AlignStats align_reads(const ReadAligner& aligner, DpBackend& dp, io::SeqReader& reads, const RecordWriter& write,
                       int threads, uint64_t batch_bases, uint64_t round_bases) {
  AlignStats stats;
  run_batches(reads, write, threads, batch_bases, false, stats,
              [&](const std::vector<io::SeqRecord>& batch, std::vector<std::string>& lines) {
                for (size_t start = 0; start < batch.size();) {
                  size_t end = start;
                  for (uint64_t bases = 0; end < batch.size() && (end == start || bases < round_bases); ++end)
                    bases += batch[end].seq.size();
                  align_group(aligner, dp, std::span<const io::SeqRecord>(batch.data() + start, end - start),
                              std::span<std::string>(lines.data() + start, end - start), threads, stats);
                  for (size_t i = start; i < end; ++i) {  // written now: only one group's records are held
                    write(lines[i]);
                    std::string().swap(lines[i]);
                  }
                  start = end;
                }
              });
  return stats;
}

}  // namespace agatha::pipeline
