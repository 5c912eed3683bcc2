// Batches, worker threads and ordered output for mapping-only runs.
//
// Within a batch, workers take reads by an atomic counter (reads vary in length by
// orders of magnitude, so static slices would leave threads idle) and put each read's
// output in its own slot; the slots are written in order once the batch is done.
#include "batch_mapper.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace agatha::pipeline {
namespace {

// Maps batch[i] into out[i] for all i on `threads` threads (this one included).
void map_batch(const ReadMapper& mapper, const std::vector<io::SeqRecord>& batch, std::vector<std::string>& out,
               int threads) {
  out.assign(batch.size(), std::string());
  std::atomic<size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&] {
    try {
      for (size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < batch.size();)
        out[i] = mapper.map_paf(batch[i].name, batch[i].seq);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      next.store(batch.size());  // the others stop after their current read
    }
  };
  const size_t n_extra = std::min(static_cast<size_t>(threads > 1 ? threads - 1 : 0), batch.size());
  std::vector<std::jthread> pool;
  pool.reserve(n_extra);
  for (size_t t = 0; t < n_extra; ++t) pool.emplace_back(work);
  work();
  pool.clear();  // joins
  if (error) std::rethrow_exception(error);
}

}  // namespace

PipelineStats map_reads(const ReadMapper& mapper, io::SeqReader& reads, io::OutputFile& out, int threads,
                        uint64_t batch_bases) {
  PipelineStats stats;
  auto read_next = [&reads, batch_bases] { return reads.next_batch(batch_bases, true); };
  std::vector<io::SeqRecord> batch = read_next();
  std::vector<std::string> lines;
  while (!batch.empty()) {
    // Read ahead only when a second thread is allowed; -t 1 stays single-threaded.
    std::future<std::vector<io::SeqRecord>> ahead;
    if (threads > 1) ahead = std::async(std::launch::async, read_next);
    try {
      map_batch(mapper, batch, lines, threads);
    } catch (...) {
      if (ahead.valid()) ahead.wait();  // the reader refers to `reads`; let it finish
      throw;
    }
    ++stats.batches, stats.reads += batch.size();
    for (const io::SeqRecord& r : batch) stats.bases += r.seq.size();
    for (const std::string& s : lines) out.write(s);
    batch = ahead.valid() ? ahead.get() : read_next();
  }
  return stats;
}

}  // namespace agatha::pipeline
