// DP answers across passes. See dp_rounds.hpp.
#include "dp_rounds.hpp"

#include <agatha/error.hpp>

#include <algorithm>
#include <functional>

namespace agatha::align {
namespace {

// Two independent 64-bit multiply-xorshift streams over the same words.
struct Fingerprint {
  uint64_t h0 = 0x9e3779b97f4a7c15ULL, h1 = 0xc2b2ae3d27d4eb4fULL;
  static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
  }
  void add(uint64_t w) {
    h0 = mix(h0 ^ w) + 0x632be59bd9b4e019ULL;
    h1 = mix((h1 + w) * 0x9fb21c651e98df25ULL ^ (h1 >> 29));
  }
  void add_bytes(std::span<const uint8_t> s) {
    add(s.size());
    size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
      uint64_t w = 0;
      for (int b = 0; b < 8; ++b) w |= static_cast<uint64_t>(s[i + b]) << (8 * b);
      add(w);
    }
    uint64_t w = 0xff;
    for (int b = 0; i < s.size(); ++i, ++b) w = w << 8 | s[i];
    add(w);
  }
};

}  // namespace

DpMemo::Key DpMemo::key_of(const DpTask& t) {
  Fingerprint f;
  f.add_bytes(t.query);
  f.add_bytes(t.target);
  const DpScoring& s = t.scoring;
  f.add(static_cast<uint64_t>(static_cast<uint32_t>(s.a)) << 32 | static_cast<uint32_t>(s.b));
  f.add(static_cast<uint64_t>(static_cast<uint32_t>(s.ambi)) << 32 | static_cast<uint32_t>(s.q));
  f.add(static_cast<uint64_t>(static_cast<uint32_t>(s.e)) << 32 | static_cast<uint32_t>(s.q2));
  f.add(static_cast<uint64_t>(static_cast<uint32_t>(s.e2)) << 32 | t.flag);
  f.add(static_cast<uint64_t>(static_cast<uint32_t>(t.w)) << 32 | static_cast<uint32_t>(t.zdrop));
  f.add(static_cast<uint32_t>(t.end_bonus));
  if (t.flag & dp_flag::kSplice) {
    f.add(static_cast<uint64_t>(static_cast<uint32_t>(t.noncan)) << 32 | static_cast<uint32_t>(t.junc_bonus));
    f.add_bytes(t.junc);
  }
  return {f.h0, f.h1};
}

DpResult provisional_result(const DpTask& task) {
  DpResult r;
  if (task.flag & dp_flag::kExtzOnly) return r;  // extends nothing
  const auto ql = static_cast<uint32_t>(task.query.size()), tl = static_cast<uint32_t>(task.target.size());
  const uint32_t m = std::min(ql, tl);
  if (m) r.cigar.push_back(cigar::make(m, cigar::kMatch));
  if (ql > m) r.cigar.push_back(cigar::make(ql - m, cigar::kIns));
  if (tl > m) r.cigar.push_back(cigar::make(tl - m, cigar::kDel));
  r.score = r.max = 0;
  r.max_q = static_cast<int32_t>(ql) - 1, r.max_t = static_cast<int32_t>(tl) - 1;
  return r;
}

bool DpMemo::compute_counted(const DpTask& task, DpResult& result) {
  const Key key = key_of(task);
  // Only the look-up and the new entry's place are under the shard's lock: an answered
  // entry is not changed during a pass (answer() runs between passes), and a new entry's
  // fields are read only after the pass (pending_tasks), so both are copied outside it.
  Shard& shard = shards_[key.h1 % kShards];
  const Entry* done = nullptr;
  Entry* fresh = nullptr;
  Pending* wait = nullptr;
  {
    const std::lock_guard<SpinLock> lock(shard.lock);
    auto it = shard.index.find(key);
    if (it == shard.index.end()) {
      fresh = &shard.entries.emplace_back();
      shard.index.emplace(key, fresh);
    } else if (it->second->answered) {
      done = it->second;
    }
  }
  if (done) {
    result = done->result;
    return false;
  }
  {
    const std::lock_guard<SpinLock> lock(*pending_lock_);
    if (fresh) wait = &pending_.emplace_back(), wait->entry = fresh;
    ++missed_;
  }
  if (wait) {
    Pending& p = *wait;
    p.task = task;
    p.task.query = keep(task.query, p.query);
    p.task.target = keep(task.target, p.target);
    p.junc.assign(task.junc.begin(), task.junc.end());
    p.task.junc = p.junc;
  }
  result = provisional_result(task);
  return true;
}

std::span<const uint8_t> DpMemo::keep(std::span<const uint8_t> seq, std::vector<uint8_t>& copy) const {
  // Compared as addresses (std::less gives pointers into different arrays a total order).
  const std::less<const uint8_t*> before;
  for (const std::span<const uint8_t>& b : stable_)
    if (!b.empty() && !before(seq.data(), b.data()) && !before(b.data() + b.size(), seq.data() + seq.size()))
      return seq;
  copy.assign(seq.begin(), seq.end());
  return copy;
}

std::vector<DpTask> DpMemo::pending_tasks() const {
  std::vector<DpTask> tasks;
  tasks.reserve(pending_.size());
  for (const Pending& p : pending_) tasks.push_back(p.task);
  return tasks;
}

void DpMemo::answer(std::vector<DpResult>&& results) {
  if (results.size() != pending_.size()) throw Error("internal: DP answers do not match the pending tasks");
  for (size_t k = 0; k < pending_.size(); ++k) {
    Entry& e = *pending_[k].entry;
    e.result = std::move(results[k]);
    e.answered = true;
  }
  std::deque<Pending>().swap(pending_);
}

size_t DpMemo::size() const {
  size_t n = 0;
  for (size_t i = 0; i < kShards; ++i) n += shards_[i].entries.size();
  return n;
}

}  // namespace agatha::align
