// src/eval/compare.cpp — grouping records by read and classifying the differences.
#include "compare.hpp"

#include "accuracy.hpp"

#include <unordered_map>

namespace agatha::eval {

std::string diff_names(unsigned diffs) {
  static const char* kNames[] = {"position", "cigar", "mapq", "tags", "records"};
  std::string s;
  for (unsigned k = 0; k < 5; ++k)
    if (diffs & (1u << k)) {
      if (!s.empty()) s += ',';
      s += kNames[k];
    }
  return s;
}

namespace {

struct ReadRecords {
  std::vector<AlnRecord> records;
  int primary = -1;  // index of the first primary record
  bool duplicate = false;
};

struct Loaded {
  std::unordered_map<std::string, ReadRecords> reads;
  std::vector<std::string> order;
  size_t duplicates = 0;
};

Loaded load(const std::string& path) {
  AlignmentReader in(path);
  Loaded l;
  AlnRecord r;
  while (in.next(r)) {
    auto [it, fresh] = l.reads.try_emplace(r.qname);
    if (fresh) l.order.push_back(r.qname);
    ReadRecords& rr = it->second;
    if (r.primary()) {
      if (rr.primary < 0)
        rr.primary = static_cast<int>(rr.records.size());
      else if (!rr.duplicate)
        rr.duplicate = true, ++l.duplicates;
    }
    rr.records.push_back(std::move(r));
  }
  return l;
}

unsigned diff_read(const ReadRecords& a, const ReadRecords& b) {
  unsigned d = 0;
  const AlnRecord none;
  const AlnRecord& pa = a.primary >= 0 ? a.records[a.primary] : none;
  const AlnRecord& pb = b.primary >= 0 ? b.records[b.primary] : none;
  if (pa.mapped != pb.mapped || pa.contig != pb.contig || pa.start != pb.start || pa.strand != pb.strand)
    d |= kDiffPosition;
  if (pa.cigar != pb.cigar) d |= kDiffCigar;
  if (pa.mapq != pb.mapq) d |= kDiffMapq;
  if (pa.tags != pb.tags) d |= kDiffTags;
  bool same_text = a.records.size() == b.records.size();
  for (size_t i = 0; same_text && i < a.records.size(); ++i) same_text = a.records[i].text == b.records[i].text;
  if (!same_text) d |= kDiffRecords;
  return d;
}

std::vector<std::string> lines_of(const ReadRecords& r) {
  std::vector<std::string> v;
  for (const AlnRecord& a : r.records) v.push_back(a.text);
  return v;
}

}  // namespace

CompareReport compare_files(const std::string& ref, const std::string& test, size_t show) {
  const Loaded a = load(ref);
  const Loaded b = load(test);
  CompareReport rep;
  rep.ref_path = ref, rep.test_path = test;
  rep.ref_reads = a.order.size(), rep.test_reads = b.order.size();
  rep.ref_duplicate_primary = a.duplicates, rep.test_duplicate_primary = b.duplicates;
  for (const std::string& name : a.order) {
    const auto it = b.reads.find(name);
    if (it == b.reads.end()) {
      if (rep.missing++ < kExamples) rep.missing_examples.push_back(name);
      continue;
    }
    ++rep.both;
    const ReadRecords& ra = a.reads.at(name);
    const unsigned d = diff_read(ra, it->second);
    rep.identical += d == 0;
    rep.same_position += !(d & kDiffPosition);
    rep.same_cigar += !(d & kDiffCigar);
    rep.same_mapq += !(d & kDiffMapq);
    rep.same_tags += !(d & kDiffTags);
    if (d && rep.shown.size() < show) rep.shown.push_back({name, d, lines_of(ra), lines_of(it->second)});
  }
  for (const std::string& name : b.order)
    if (!a.reads.count(name) && rep.extra++ < kExamples) rep.extra_examples.push_back(name);
  return rep;
}

}  // namespace agatha::eval
