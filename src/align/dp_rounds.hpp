// src/align/dp_rounds.hpp — the DP of many reads in rounds, with the answers of the
// sequential order.
//
// The region code (region_align.hpp) asks for one DP result at a time, and what it asks
// next can depend on the answer (a Z-drop ends a region and splits it, the Z-drop test
// on a first pass decides the second, a split part gets its own extensions, an
// inversion is looked for between split parts). To hand the engine whole batches, each
// read's alignment is run as a series of passes over a DpMemo:
//
//  - A pass runs the read's alignment from the start. A task the memo has answered gets
//    its answer; any other task is recorded as pending and gets a provisional answer
//    (an extension that extends nothing; a gap fill that is all matches and one indel,
//    not Z-dropped), so the pass carries on and asks for everything it can see. With
//    those answers the first pass asks for every left extension, every first-pass gap
//    fill and every right extension of every region; the next pass asks for the second
//    passes the Z-drop test wants; later passes for what splits and inversions create.
//  - The driver gathers the pending tasks of all reads of a batch into one round, runs
//    it on the backend (one GPU launch, or all CPU threads), files the answers and runs
//    the next pass of every read that had pending tasks.
//  - A pass that asked for nothing new used answers only, so it made exactly the calls
//    of the sequential order with exactly their results: its output is final. Work done
//    on provisional answers is discarded.
//
// Tasks are matched on their parameters, lengths and a 128-bit fingerprint of the
// sequences; the sequences of a pending task are held only until it is answered.
//
// Threading: one DpMemo per read. Its compute may be called from several threads at
// once (the regions of a long read aligned side by side: align_regions with threads);
// the rest (begin_pass, pending_tasks, answer) from one thread between passes.
#pragma once

#include <agatha/dp.hpp>

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <span>
#include <unordered_map>
#include <vector>

#include "region_align.hpp"

namespace agatha::align {

// A lock for critical sections of a few hundred instructions (a sleeping lock's
// wake-up would cost more than the section).
class SpinLock {
 public:
  void lock() {
    while (flag_.test_and_set(std::memory_order_acquire))
      while (flag_.test(std::memory_order_relaxed)) __builtin_ia32_pause();
  }
  void unlock() { flag_.clear(std::memory_order_release); }

 private:
  std::atomic_flag flag_;
};

class DpMemo final : public DpSource {
 public:
  void compute(const DpTask& task, DpResult& result) override { (void)compute_counted(task, result); }
  bool compute_counted(const DpTask& task, DpResult& result) override;
  bool concurrent() const override { return true; }
  bool record_sequences() const override { return false; }
  size_t provisional_count() const override { return missed_; }

  // Starts a pass: forgets which tasks the previous pass missed.
  void begin_pass() { missed_ = 0; }
  // Buffers that outlive every pending task (the read's codes, both strands): a pending
  // task's query or target that lies inside one is kept as a span into it, not copied
  // (a chromosome-length query's first pass would copy all of it).
  void add_stable(std::span<const uint8_t> buf) { stable_.push_back(buf); }
  void clear_stable() { stable_.clear(); }
  // Tasks the current pass asked for that had no answer.
  size_t missed() const { return missed_; }

  // The tasks waiting for an answer, in the order first asked; they stay valid until
  // answer() is called.
  std::vector<DpTask> pending_tasks() const;
  // Files the answers of pending_tasks() (same order) and frees their sequences.
  void answer(std::vector<DpResult>&& results);

  size_t size() const;

 private:
  struct Key {
    uint64_t h0 = 0, h1 = 0;  // fingerprint of both sequences and every parameter
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const { return static_cast<size_t>(k.h0 ^ (k.h1 >> 1)); }
  };
  // An entry holds its answer only; what a pending task needs until it is answered (the
  // task and copies of its sequences) is held apart, in pending_, and freed then.
  struct Entry {
    DpResult result;
    bool answered = false;
  };
  struct Pending {
    Entry* entry = nullptr;
    std::vector<uint8_t> query, target, junc;
    DpTask task;  // spans into query/target/junc, or into a stable buffer
  };
  // The entries by key, in shards (by the key's h1) that threads lock apart. An entry
  // stays where it is (a deque) until the memo goes.
  static constexpr size_t kShards = 64;
  struct Shard {
    SpinLock lock;
    std::unordered_map<Key, Entry*, KeyHash> index;
    std::deque<Entry> entries;
  };
  static Key key_of(const DpTask& task);

  // Held by pointer: a memo moves with its read's job.
  std::unique_ptr<Shard[]> shards_ = std::make_unique<Shard[]>(kShards);
  std::unique_ptr<SpinLock> pending_lock_ = std::make_unique<SpinLock>();  // over pending_ and missed_
  std::deque<Pending> pending_;  // in the order first asked; an element stays where it is
  size_t missed_ = 0;
  std::vector<std::span<const uint8_t>> stable_;
  // `seq`, as a span into a stable buffer when it lies inside one, else copied into `copy`.
  std::span<const uint8_t> keep(std::span<const uint8_t> seq, std::vector<uint8_t>& copy) const;
};

// The provisional answer of a task the memo cannot answer yet (see above).
[[nodiscard]] DpResult provisional_result(const DpTask& task);

}  // namespace agatha::align
