// src/eval/accuracy.cpp — judging primary alignments against their origins.
#include "accuracy.hpp"

#include <agatha/error.hpp>

#include <algorithm>
#include <unordered_map>

namespace agatha::eval {

bool is_correct(const Origin& truth, const AlnRecord& aln, double ratio) {
  if (!aln.mapped || aln.contig != truth.contig || aln.strand != truth.strand) return false;
  const int64_t ov = std::min(aln.end, truth.end) - std::max(aln.start, truth.start);
  const int64_t un = std::max(aln.end, truth.end) - std::min(aln.start, truth.start);
  if (ov <= 0 || un <= 0) return false;
  return static_cast<double>(ov) / static_cast<double>(un) > ratio;
}

void Anomaly::add(const std::string& read) {
  if (count++ < kExamples) examples.push_back(read);
}

Threshold AccuracyReport::at(int q) const {
  Threshold t;
  t.mapq = q;
  for (int k = std::max(q, 0); k <= kMaxMapq; ++k) t.mapped += mapped_at[k], t.wrong += wrong_at[k];
  t.frac = truth_reads ? static_cast<double>(t.mapped) / static_cast<double>(truth_reads) : 0;
  t.error = t.mapped ? static_cast<double>(t.wrong) / static_cast<double>(t.mapped) : 0;
  return t;
}

namespace {

struct ReadState {
  bool seen = false, judged = false;
};

AccuracyReport judge(const Truth* truth, const std::string& path, double overlap, Truth* own) {
  AlignmentReader in(path);
  AccuracyReport rep;
  rep.path = path;
  rep.format = in.format();
  std::unordered_map<std::string, ReadState> state;
  AlnRecord r;
  while (in.next(r)) {
    ++rep.records;
    if (own && !own->by_read.count(r.qname)) {
      std::optional<Origin> o = parse_origin_name(r.qname);
      if (!o)
        throw InputError("'" + path + "' record " + std::to_string(r.record_no) + ": read name '" + r.qname +
                         "' does not encode its origin (name!contig!start!end!strand); give --truth");
      own->add(r.qname, std::move(*o));
    }
    const Truth& t = own ? *own : *truth;
    const auto it = t.by_read.find(r.qname);
    ReadState& st = state[r.qname];
    if (it == t.by_read.end()) {
      if (!st.seen) rep.unknown.add(r.qname);
      st.seen = true;
      continue;
    }
    st.seen = true;
    if (!r.primary()) continue;
    if (st.judged) {
      rep.duplicate.add(r.qname);
      continue;
    }
    st.judged = true;
    if (!r.mapped) continue;
    const int q = std::min(r.mapq, kMaxMapq);
    ++rep.mapped_at[q];
    if (!is_correct(it->second, r, overlap)) ++rep.wrong_at[q];
  }
  const Truth& t = own ? *own : *truth;
  rep.truth_reads = t.size();
  for (const std::string& name : t.order) {
    const auto it = state.find(name);
    if (it == state.end())
      rep.absent.add(name);
    else if (!it->second.judged)
      rep.no_primary.add(name);
  }
  rep.unmapped = rep.truth_reads - static_cast<size_t>(rep.at(0).mapped);
  return rep;
}

}  // namespace

AccuracyReport evaluate(const Truth& truth, const std::string& path, double overlap) {
  return judge(&truth, path, overlap, nullptr);
}

AccuracyReport evaluate_by_names(const std::string& path, double overlap) {
  Truth own;
  return judge(nullptr, path, overlap, &own);
}

}  // namespace agatha::eval
