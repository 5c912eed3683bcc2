// Reads, pairs and fragments (bseq.c: mm_bseq_read3, mm_bseq_read_frag2; map.c:
// worker_pipeline). See read_input.hpp.
#include "read_input.hpp"

#include <agatha/error.hpp>

#include <algorithm>
#include <filesystem>

namespace agatha::io {

std::string_view fragment_name(std::string_view name) {
  const size_t l = name.size();
  if (l >= 3 && name[l - 1] >= '0' && name[l - 1] <= '9' && name[l - 2] == '/') return name.substr(0, l - 2);
  return name;
}

ReadInput::ReadInput(const std::vector<std::string>& paths, bool frag_mode) : frag_mode_(frag_mode) {
  if (paths.empty()) throw InputError("no reads file given");
  for (const std::string& p : paths) {
    owned_.push_back(std::make_unique<SeqReader>(p));
    readers_.push_back(owned_.back().get());
  }
}

ReadInput::ReadInput(SeqReader& reader) : readers_{&reader} {}

bool ReadInput::next_unit(std::vector<SeqRecord>& unit) {
  if (!frag_mode_) {  // one file after another (minimap2 maps each in turn)
    unit.resize(1);
    while (current_ < readers_.size() && !readers_[current_]->next(unit[0])) ++current_;
    return current_ < readers_.size();
  }
  unit.resize(readers_.size());
  size_t got = 0;
  for (size_t i = 0; i < readers_.size(); ++i) got += readers_[i]->next(unit[i]) ? 1 : 0;
  if (got == 0) return false;
  if (got < readers_.size()) {
    // The first file that ended and the first that did not.
    size_t ended = 0, more = 0;
    uint64_t most = 0;
    for (const SeqReader* r : readers_) most = std::max(most, r->records_read());
    while (readers_[ended]->records_read() == most) ++ended;
    while (readers_[more]->records_read() != most) ++more;
    throw InputError("'" + readers_[ended]->path() + "' ends after " + std::to_string(readers_[ended]->records_read()) +
                     " records, but '" + readers_[more]->path() +
                     "' has more: the reads files of fragments (pairs) must hold the same number of records");
  }
  return true;
}

ReadInput::~ReadInput() {
  stop_ahead_.store(true, std::memory_order_relaxed);
  if (ahead_.valid()) ahead_.wait();
}

bool ReadInput::read_ahead(uint64_t min_bases, bool name_and_seq_only) {
  if (ahead_.valid()) throw Error("ReadInput: a batch is already being read ahead");
  for (const SeqReader* r : readers_) {
    std::error_code ec;
    if (r->path() == "-" || !std::filesystem::is_regular_file(r->path(), ec)) return false;
  }
  ahead_name_and_seq_only_ = name_and_seq_only;
  ahead_ = std::async(std::launch::async,
                      [this, min_bases, name_and_seq_only] { return read_batch(min_bases, name_and_seq_only); });
  return true;
}

ReadBatch ReadInput::next_batch(uint64_t min_bases, bool name_and_seq_only) {
  if (!ahead_.valid()) return read_batch(min_bases, name_and_seq_only);
  const bool stripped = ahead_name_and_seq_only_;
  ReadBatch b = ahead_.get();
  if (stripped && !name_and_seq_only) throw Error("ReadInput: the batch read ahead holds no comments or qualities");
  if (name_and_seq_only && !stripped)
    for (SeqRecord& r : b.reads) std::string().swap(r.comment), std::string().swap(r.qual);
  return b;
}

ReadBatch ReadInput::read_batch(uint64_t min_bases, bool name_and_seq_only) {
  ReadBatch b;
  uint64_t bases = 0;
  std::vector<SeqRecord> unit;
  // `unit` keeps its buffers from record to record; the batch gets exact-size copies, so
  // a batch holds its bases once, not the slack of growing strings.
  auto take = [&](const std::vector<SeqRecord>& u) {
    for (const SeqRecord& r : u) {
      bases += r.seq.size();
      SeqRecord& out = b.reads.emplace_back();
      out.name = r.name, out.seq = r.seq;
      if (!name_and_seq_only) out.comment = r.comment, out.qual = r.qual;
    }
  };
  if (!pending_.empty()) {
    take(pending_);
    pending_.clear();
  }
  // At least one unit; then units until min_bases, as minimap2 checks the size after
  // adding each.
  while (b.reads.empty() || bases < min_bases) {
    // Set only while this input is destroyed: the batch read ahead is then never taken.
    if (stop_ahead_.load(std::memory_order_relaxed)) break;
    if (!next_unit(unit)) break;
    take(unit);
  }
  // The fragment of the last record may go on in the next units.
  if (frag_mode_ && !b.reads.empty()) {
    while (next_unit(unit)) {
      if (fragment_name(unit.front().name) != fragment_name(b.reads.back().name)) {
        pending_ = unit;
        break;
      }
      take(unit);
    }
  }
  for (uint32_t i = 0; i < b.reads.size(); ++i)
    if (i == 0 || !frag_mode_ || fragment_name(b.reads[i - 1].name) != fragment_name(b.reads[i].name))
      b.frag_start.push_back(i);
  if (!b.reads.empty()) b.frag_start.push_back(static_cast<uint32_t>(b.reads.size()));
  for (size_t f = 0; f + 1 < b.frag_start.size(); ++f)
    if (b.frag_start[f + 1] - b.frag_start[f] > kMaxSegments)
      throw InputError("'" + readers_.front()->path() + "': fragment '" +
                       std::string(fragment_name(b.reads[b.frag_start[f]].name)) + "' has " +
                       std::to_string(b.frag_start[f + 1] - b.frag_start[f]) + " reads; at most " +
                       std::to_string(kMaxSegments) + " reads form a fragment");
  return b;
}

}  // namespace agatha::io
