// Batches, worker threads and ordered output for alignment and mapping-only runs.
//
// Within a batch, workers take reads (and alignment passes) by an atomic counter (reads
// vary in length by orders of magnitude, so static slices would leave threads idle) and
// put each read's output in its own slot; the slots are written in order once the batch
// (for alignment: once every group before them) is done. Alignment runs a batch in
// groups of reads (align_batch); with a DP backend on a device two groups are in
// flight, one group's DP round beside the other's host work.
#include "batch_aligner.hpp"

#include "../util/parallel_for.hpp"
#include "batch_loop.hpp"

#include <agatha/error.hpp>

#include <algorithm>
#include <atomic>
#include <deque>
#include <exception>
#include <future>
#include <iterator>
#include <optional>
#include <span>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace agatha::pipeline {
namespace {

// Read batches with a query longer than this align inline even with a backend that
// batches tasks (see align_batch).
constexpr size_t kBatchedRoundsMaxQuery = 1'000'000;

// One group of reads on its way through the rounds (minimap2's mm_map_frag, then
// mm_align_skeleton replayed pass by pass over a DpMemo): host steps, run on the
// threads, and DP rounds alternate until every read is final. jobs[i] aligns reads[i].
class GroupRun {
 public:
  enum class Next { kHost, kDp, kDone };

  // reads: the group's reads; fragment f is reads[starts[f], starts[f + 1]). Its
  // records go to lines[first_line + starts[f]].
  GroupRun(std::span<const io::SeqRecord> reads, std::vector<uint32_t> starts, size_t first_line, uint64_t id)
      : reads_(reads), starts_(std::move(starts)), first_line_(first_line), id_(id) {}

  Next next() const { return next_; }
  uint64_t id() const { return id_; }
  size_t first_line() const { return first_line_; }
  size_t size() const { return reads_.size(); }
  size_t fragments() const { return starts_.size() - 1; }
  uint64_t bases() const {
    uint64_t n = 0;
    for (const io::SeqRecord& r : reads_) n += r.seq.size();
    return n;
  }

  // The first step seeds, chains and selects the regions of every read (start); each
  // step hands the last round's answers to the reads that waited for them, runs a
  // pass over the reads not yet final and gathers the tasks they now wait for. When
  // none waits, the records go to lines[first_line() ..] and the group is done.
  // Returns the tasks of the next round (0 when done).
  //
  // With `inline_dp` (a host backend that computes single tasks on the calling threads),
  // the first step aligns every read in one pass, each DP computed as it is asked for,
  // and the group is done after it: there are no rounds.
  //
  // With `side_dp` (such a backend, for a group of fewer fragments than threads), a
  // fragment whose regions keep its threads busy side by side
  // (ReadAligner::regions_side_by_side) is aligned so, each DP computed as it is asked
  // for, in the first step; the others go through the rounds.
  size_t host_step(const ReadAligner& aligner, int threads, std::span<std::string> lines,
                   DpBackend* inline_dp = nullptr, DpBackend* side_dp = nullptr) {
    if (next_ != Next::kHost) throw Error("GroupRun: host step out of turn");
    if (jobs_.empty() && !reads_.empty() && inline_dp) {
      by_length_ = longest_first();
      const uint64_t total = bases();
      std::atomic<uint64_t> tasks{0};
      util::parallel_for(fragments(), threads, [&](size_t k, int worker) {
        // The read's state lives only while this thread aligns it; its records are made at once.
        const size_t i = by_length_[k];
        AlignJob job;
        job.reads = fragment(i);
        // Seeding and chaining get the threads of the fragment's share of the bases: more
        // than this one only for a fragment that outweighs the others (a chromosome
        // beside a plasmid), which would otherwise leave the other threads idle.
        job.threads = share_of_threads(i, threads, total);
        if (job.threads > 1) spread_.fetch_add(1, std::memory_order_relaxed);
        aligner.start(job);
        align::InlineDpSource source(*inline_dp, worker);
        aligner.align(job, source);
        tasks.fetch_add(source.calls(), std::memory_order_relaxed);
        aligner.format(job, lines[first_line_ + starts_[i]]);
      });
      inline_tasks_ = tasks.load();
      next_ = Next::kDone;
      return 0;
    } else if (jobs_.empty() && !reads_.empty()) {
      jobs_.resize(fragments());
      by_length_ = longest_first();
      // Each fragment's chaining gets the threads of its share of the group's bases (at
      // least one): a chromosome beside a plasmid gets all of them.
      const uint64_t total = bases();
      // One source for all the fragments aligned side by side: its worker numbers are
      // the backend's, which no two threads may use at once.
      std::optional<align::SharedInlineDpSource> side;
      if (side_dp) side.emplace(*side_dp);
      util::parallel_for(jobs_.size(), threads, [&](size_t k, int) {
        const size_t i = by_length_[k];
        jobs_[i].reads = fragment(i);
        jobs_[i].threads = share_of_threads(i, threads, total);
        if (jobs_[i].threads > 1) spread_.fetch_add(1, std::memory_order_relaxed);
        aligner.start(jobs_[i]);
        if (side && aligner.regions_side_by_side(jobs_[i])) aligner.align(jobs_[i], *side);
      });
      if (side) inline_tasks_ = side->calls();
      for (size_t i : by_length_)  // longest first
        if (!jobs_[i].done) active_.push_back(i);
    } else {
      for (size_t k = 0; k < waiting_.size(); ++k)
        jobs_[waiting_[k]].memo.answer(std::vector<DpResult>(std::make_move_iterator(results_.begin() + first_[k]),
                                                             std::make_move_iterator(results_.begin() + first_[k + 1])));
      // The round's tasks (spans into the memos' pending copies, gone now) and its moved
      // answers are spent: freed before the pass, which may hold its own peak.
      std::vector<DpTask>().swap(tasks_);
      std::vector<DpResult>().swap(results_);
      active_ = std::move(waiting_);
    }
    util::parallel_for(active_.size(), threads, [&](size_t k, int) { aligner.pass(jobs_[active_[k]]); });
    waiting_.clear(), tasks_.clear(), first_.clear();
    for (size_t i : active_) {
      if (jobs_[i].done) continue;
      waiting_.push_back(i);
      first_.push_back(tasks_.size());
      const std::vector<DpTask> t = jobs_[i].memo.pending_tasks();
      tasks_.insert(tasks_.end(), t.begin(), t.end());
    }
    first_.push_back(tasks_.size());
    if (!waiting_.empty()) {
      results_.assign(tasks_.size(), DpResult());
      next_ = Next::kDp;
      return tasks_.size();
    }
    util::parallel_for(jobs_.size(), threads, [&](size_t k, int) {
      const size_t i = by_length_[k];
      aligner.format(jobs_[i], lines[first_line_ + starts_[i]]);
    });
    // Only the records remain.
    std::vector<AlignJob>().swap(jobs_);
    std::vector<DpTask>().swap(tasks_);
    std::vector<DpResult>().swap(results_);
    next_ = Next::kDone;
    return 0;
  }

  // DP tasks computed inline by the first host step, and the fragments it seeded and
  // chained on more than one thread; each counted once (zero after the first call).
  uint64_t take_inline_tasks() { return std::exchange(inline_tasks_, 0); }
  uint64_t take_spread() { return spread_.exchange(0); }

  // One DP round: every task the group's reads wait for, in one call.
  void dp_step(DpBackend& dp) {
    if (next_ != Next::kDp) throw Error("GroupRun: DP round out of turn");
    dp.run(tasks_, results_);
    next_ = Next::kHost;
  }

 private:
  std::span<const io::SeqRecord> fragment(size_t f) const {
    return reads_.subspan(starts_[f], starts_[f + 1] - starts_[f]);
  }
  // Fragment f's share of `threads` by its bases (of `total`, the group's), rounded, at
  // least 1.
  int share_of_threads(size_t f, int threads, uint64_t total) const {
    total = std::max<uint64_t>(1, total);
    return static_cast<int>(
        std::max<uint64_t>(1, (static_cast<uint64_t>(threads) * fragment_bases(f) + total / 2) / total));
  }
  uint64_t fragment_bases(size_t f) const {
    uint64_t n = 0;
    for (const io::SeqRecord& r : fragment(f)) n += r.seq.size();
    return n;
  }
  // The fragments' indices, longest first: threads take fragments in this order, so that
  // a long read is not the last one started.
  std::vector<size_t> longest_first() const {
    std::vector<size_t> order(fragments());
    std::vector<uint64_t> len(order.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i, len[i] = fragment_bases(i);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return len[a] > len[b]; });
    return order;
  }

  std::span<const io::SeqRecord> reads_;
  std::vector<uint32_t> starts_;
  size_t first_line_;
  uint64_t id_;
  Next next_ = Next::kHost;
  std::vector<AlignJob> jobs_;
  std::vector<size_t> by_length_;
  std::vector<size_t> active_, waiting_;  // longest first
  std::vector<DpTask> tasks_;
  std::vector<DpResult> results_;
  std::vector<size_t> first_;  // per waiting job: its first task in the round
  uint64_t inline_tasks_ = 0;
  std::atomic<uint64_t> spread_{0};
};

// The groups of one batch: fragments [cuts[k], cuts[k+1]) of at most round_bases bases (a fragment
// longer than that alone), and with inline DP at least `threads` fragments. Groups run one at a time, or, with a backend that runs on a
// device, two at once with one group's DP round overlapping the other's host step;
// records are written in input order as soon as every group before them is done, and
// counted in `progress` then.
void align_batch(const ReadAligner& aligner, DpBackend& dp, const io::ReadBatch& rb,
                 std::vector<std::string>& lines, const RecordWriter& write, int threads, uint64_t round_bases,
                 AlignStats& stats, const StepObserver& observe, uint64_t& next_id, util::Progress* progress) {
  const std::vector<io::SeqRecord>& batch = rb.reads;
  const std::vector<uint32_t>& fs = rb.frag_start;
  const size_t n_frag = rb.fragments();
  // A host backend that computes single tasks on these threads: no rounds (the groups
  // stay, as they bound the records held before they are written). Unless it computes
  // gap fills several at a time (DpBackend::batches_tasks) and these are such gap fills:
  // groups of reads then go through rounds, whose tasks it batches (batched_rounds),
  // except where a query is of a chromosome's length (a round's second pass over it
  // costs more than batching gains).
  DpBackend* const inline_dp = !dp.runs_on_device() && dp.inline_workers() >= threads ? &dp : nullptr;
  size_t longest = 0;
  for (const io::SeqRecord& r : batch) longest = std::max(longest, r.seq.size());
  const bool batched_rounds =
      inline_dp && dp.batches_tasks() && aligner.gap_fills_batch() && longest <= kBatchedRoundsMaxQuery;
  std::vector<size_t> cuts{0};
  // With inline DP a group also holds at least `threads` fragments (where the batch has
  // them), so that long queries — contigs of an assembly, of several Mb each — are aligned
  // side by side rather than one group, and so one thread, at a time.
  const size_t min_fragments = inline_dp ? static_cast<size_t>(std::max(1, threads)) : 1;
  while (cuts.back() < n_frag) {
    size_t end = cuts.back();
    for (uint64_t bases = 0; end < n_frag && (end - cuts.back() < min_fragments || bases < round_bases); ++end)
      for (uint32_t i = fs[end]; i < fs[end + 1]; ++i) bases += batch[i].seq.size();
    // Fewer fragments left than that join this group: alone they would be a group that
    // leaves threads idle (or runs in rounds) after this one, where here they run beside
    // its longest fragment — three contigs on two threads take the time of the longest,
    // not of the two longest and then the third.
    if (n_frag - end < min_fragments) end = n_frag;
    cuts.push_back(end);
  }
  auto note = [&observe](PipelineStep s, uint64_t id) {
    if (observe) observe(s, id);
  };
  auto host = [&](GroupRun& g) {
    note(PipelineStep::kHostBegin, g.id());
    // A group of fewer fragments than threads (a batch of no more: one long query) gets
    // each fragment's chaining on threads by its bases, where inline DP would keep one
    // thread per fragment; then a fragment whose regions share its threads evenly enough
    // is aligned with them side by side, DP inline, and the others go through the
    // rounds: each round's DP tasks, independent of one another, run on all the
    // backend's threads. The records are the same either way. (A group of as many
    // fragments as threads but one much longer — a chromosome beside a plasmid — stays
    // inline: a round's second pass over a Mb-long query costs more than its DP spread
    // over the threads gains.)
    // With batched_rounds such a group's reads (as many as threads or more) go through
    // the rounds, none of them inline.
    const bool many = g.fragments() >= static_cast<size_t>(threads);
    DpBackend* const group_inline = many && !batched_rounds ? inline_dp : nullptr;
    DpBackend* const side_dp = many ? nullptr : inline_dp;
    const size_t n = g.host_step(aligner, threads, lines, group_inline, side_dp);
    note(PipelineStep::kHostEnd, g.id());
    if (n > 0) ++stats.rounds, stats.dp_tasks += n;
    stats.inline_dp_tasks += g.take_inline_tasks();
    stats.spread_queries += g.take_spread();
  };
  // A round's begin is noted by the thread that starts it, before any host work it
  // overlaps; its end by the thread that ran it.
  auto device = [&](GroupRun& g) {
    g.dp_step(dp);
    note(PipelineStep::kDpEnd, g.id());
  };
  std::deque<GroupRun> flight;  // started groups not yet written, in input order
  size_t next_group = 0;
  for (;;) {
    // Asked between rounds: a backend may stop running on its device (auto's fall-back).
    const bool overlap = dp.runs_on_device();
    size_t unfinished = 0;
    for (const GroupRun& g : flight) unfinished += g.next() != GroupRun::Next::kDone;
    for (; unfinished < (overlap ? 2u : 1u) && next_group + 1 < cuts.size(); ++next_group, ++unfinished)
    {
      const uint32_t first = fs[cuts[next_group]], last = fs[cuts[next_group + 1]];
      std::vector<uint32_t> starts;
      for (size_t f = cuts[next_group]; f <= cuts[next_group + 1]; ++f) starts.push_back(fs[f] - first);
      flight.emplace_back(std::span<const io::SeqRecord>(batch.data() + first, last - first), std::move(starts), first,
                          next_id++);
    }
    if (flight.empty()) break;
    GroupRun *on_host = nullptr, *on_dp = nullptr;
    for (GroupRun& g : flight) {
      if (!on_host && g.next() == GroupRun::Next::kHost) on_host = &g;
      if (!on_dp && g.next() == GroupRun::Next::kDp) on_dp = &g;
    }
    if (!overlap) {  // one step of the oldest unfinished group
      for (GroupRun& g : flight) {
        if (g.next() == GroupRun::Next::kDone) continue;
        if (g.next() == GroupRun::Next::kHost) {
          host(g);
        } else {
          note(PipelineStep::kDpBegin, g.id());
          device(g);
        }
        break;
      }
    } else if (on_dp && on_host) {
      // The round runs on a thread of its own while the threads work on the other group.
      note(PipelineStep::kDpBegin, on_dp->id());
      std::future<void> round = std::async(std::launch::async, [&] { device(*on_dp); });
      try {
        host(*on_host);
      } catch (...) {
        round.wait();
        throw;
      }
      round.get();
      ++stats.overlapped_rounds;
    } else if (on_host) {
      host(*on_host);
    } else if (on_dp) {
      note(PipelineStep::kDpBegin, on_dp->id());
      device(*on_dp);
    }
    while (!flight.empty() && flight.front().next() == GroupRun::Next::kDone) {
      const GroupRun& g = flight.front();
      for (size_t i = g.first_line(); i < g.first_line() + g.size(); ++i) {  // only the groups in flight hold records
        write(lines[i]);
        std::string().swap(lines[i]);
      }
      count_done(progress, std::span<const io::SeqRecord>(batch).subspan(g.first_line(), g.size()));
      flight.pop_front();
    }
  }
}

}  // namespace

PipelineStats map_reads(const ReadMapper& mapper, io::ReadInput& reads, const RecordWriter& write, int threads,
                        uint64_t batch_bases, util::Progress* progress) {
  PipelineStats stats;
  run_batches(reads, write, threads, batch_bases, true, stats,
              [&](const io::ReadBatch& batch, std::vector<std::string>& lines) {
                const std::span<const io::SeqRecord> reads(batch.reads);
                const std::vector<uint32_t>& fs = batch.frag_start;
                util::parallel_for(batch.fragments(), threads, [&](size_t f, int) {
                  const std::span<const io::SeqRecord> frag = reads.subspan(fs[f], fs[f + 1] - fs[f]);
                  lines[fs[f]] = mapper.map_paf_fragment(frag);
                  count_done(progress, frag);
                });
              });
  return stats;
}

AlignStats align_reads(const ReadAligner& aligner, DpBackend& dp, io::ReadInput& reads, const RecordWriter& write,
                       int threads, uint64_t batch_bases, uint64_t round_bases, const StepObserver& observe,
                       util::Progress* progress) {
  AlignStats stats;
  uint64_t next_id = 0;
  run_batches(reads, write, threads, batch_bases, false, stats,
              [&](const io::ReadBatch& batch, std::vector<std::string>& lines) {
                align_batch(aligner, dp, batch, lines, write, threads, round_bases, stats, observe, next_id, progress);
              });
  return stats;
}

}  // namespace agatha::pipeline

namespace agatha::pipeline {

PipelineStats map_reads(const ReadMapper& mapper, io::SeqReader& reads, const RecordWriter& write, int threads,
                        uint64_t batch_bases) {
  io::ReadInput in(reads);
  return map_reads(mapper, in, write, threads, batch_bases);
}

AlignStats align_reads(const ReadAligner& aligner, DpBackend& dp, io::SeqReader& reads, const RecordWriter& write,
                       int threads, uint64_t batch_bases, uint64_t round_bases, const StepObserver& observe) {
  io::ReadInput in(reads);
  return align_reads(aligner, dp, in, write, threads, batch_bases, round_bases, observe);
}

}  // namespace agatha::pipeline
