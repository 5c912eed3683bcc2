// src/align/cigar_fix.cpp — CIGAR clean-up and alignment statistics (minimap2 2.24
// align.c: mm_fix_cigar, mm_update_extra; format.c: mm_event_identity).
//
//   left_shift_gaps   the indel left-alignment loop of mm_fix_cigar
//   merge_gap_runs    the "5I6D7I" rewrite of mm_fix_cigar
//   squeeze           zero-length removal and merging of equal neighbours
//   fix_cigar         the three above plus dropping a leading I/D
//   alignment_stats   the statistics loop of mm_update_extra
//   eqx_cigar         mm_update_cigar_eqx
#include "cigar_fix.hpp"

#include <agatha/error.hpp>
#include <algorithm>
#include <string>

#include "../map/chain.hpp"

namespace agatha::align {
namespace {

void check_spans(std::span<const uint32_t> cigar, size_t qlen, size_t tlen) {
  const cigar::Spans s = cigar::spans(cigar);
  if (s.query != static_cast<int64_t>(qlen) || s.target != static_cast<int64_t>(tlen))
    throw Error("CIGAR spans " + std::to_string(s.query) + " query and " + std::to_string(s.target) +
                " target bases, the alignment " + std::to_string(qlen) + " and " + std::to_string(tlen));
}

// Moves each I/D between two M ops left while the base before the gap equals the gap's
// last base (query bases for I, target for D), by at most the preceding M's length. The
// following M grows by the same amount. Returns true when a zero-length op exists or was
// made.
bool left_shift_gaps(std::vector<uint32_t>& cigar, std::span<const uint8_t> query, std::span<const uint8_t> target) {
  bool to_shrink = false;
  size_t qoff = 0, toff = 0;
  for (size_t k = 0; k < cigar.size(); ++k) {
    const uint32_t op = cigar::op(cigar[k]), len = cigar::len(cigar[k]);
    if (len == 0) to_shrink = true;
    if (op == cigar::kMatch) {
      qoff += len, toff += len;
    } else if (op == cigar::kIns || op == cigar::kDel) {
      if (k > 0 && k + 1 < cigar.size() && cigar::op(cigar[k - 1]) == cigar::kMatch &&
          cigar::op(cigar[k + 1]) == cigar::kMatch) {
        const uint32_t prev_len = cigar::len(cigar[k - 1]);
        const std::span<const uint8_t> seq = op == cigar::kIns ? query : target;
        const size_t off = op == cigar::kIns ? qoff : toff;
        uint32_t l = 0;
        while (l < prev_len && seq[off - 1 - l] == seq[off + len - 1 - l]) ++l;
        cigar[k - 1] -= l << 4, cigar[k + 1] += l << 4, qoff -= l, toff -= l;
        if (l == prev_len) to_shrink = true;
      }
      if (op == cigar::kIns)
        qoff += len;
      else
        toff += len;
    } else if (op == cigar::kNSkip) {
      toff += len;
    }
  }
  return to_shrink;
}

// A run that starts with an adjacent I,D or D,I pair and continues over I, D and
// zero-length ops becomes one I (all inserted bases) and one D (all deleted bases) when
// it has at least three ops; the rest of the run is left as zero-length ops. Like
// minimap2, the scan resumes two ops after the run (the op ending it is skipped), and the
// start test is "op > 0 and op + next op == 3", which an N followed by an M also passes
// (harmlessly: its run is empty). Returns true when a run was rewritten.
bool merge_gap_runs(std::vector<uint32_t>& cigar) {
  bool to_shrink = false;
  const size_t n = cigar.size();
  for (size_t k = 0; k + 2 < n; ++k) {
    const uint32_t op = cigar::op(cigar[k]);
    if (op == 0 || op + cigar::op(cigar[k + 1]) != 3) continue;
    uint32_t total[3] = {0, 0, 0};
    size_t l = k;
    for (; l < n; ++l) {
      const uint32_t lop = cigar::op(cigar[l]);
      if (lop != cigar::kIns && lop != cigar::kDel && cigar::len(cigar[l]) != 0) break;
      if (lop < 3) total[lop] += cigar::len(cigar[l]);
    }
    if (total[cigar::kIns] > 0 && total[cigar::kDel] > 0 && l - k > 2) {
      cigar[k] = cigar::make(total[cigar::kIns], cigar::kIns);
      cigar[k + 1] = cigar::make(total[cigar::kDel], cigar::kDel);
      for (size_t j = k + 2; j < l; ++j) cigar[j] &= 0xfu;
      to_shrink = true;
    }
    k = l;
  }
  return to_shrink;
}

// Drops zero-length ops, then merges each op into the next when they are the same.
void squeeze(std::vector<uint32_t>& cigar) {
  std::erase_if(cigar, [](uint32_t c) { return cigar::len(c) == 0; });
  size_t l = 0;
  for (size_t k = 0; k < cigar.size(); ++k) {
    if (k + 1 == cigar.size() || cigar::op(cigar[k]) != cigar::op(cigar[k + 1]))
      cigar[l++] = cigar[k];
    else
      cigar[k + 1] += cigar::len(cigar[k]) << 4;
  }
  cigar.resize(l);
}

}  // namespace

CigarShift fix_cigar(std::vector<uint32_t>& cigar, std::span<const uint8_t> query, std::span<const uint8_t> target) {
  check_spans(cigar, query.size(), target.size());
  CigarShift shift;
  if (cigar.size() <= 1) return shift;
  bool to_shrink = left_shift_gaps(cigar, query, target);
  to_shrink = merge_gap_runs(cigar) || to_shrink;
  if (to_shrink) squeeze(cigar);
  if (!cigar.empty() && (cigar::op(cigar[0]) == cigar::kIns || cigar::op(cigar[0]) == cigar::kDel)) {
    const auto len = static_cast<int32_t>(cigar::len(cigar[0]));
    if (cigar::op(cigar[0]) == cigar::kIns)
      shift.qshift = len;
    else
      shift.tshift = len;
    cigar.erase(cigar.begin());
  }
  return shift;
}

AlignmentStats alignment_stats(std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                               std::span<const uint8_t> target, const StatsScoring& sc) {
  check_spans(cigar, query.size(), target.size());
  AlignmentStats st;
  // The running local score is a double: minimap2 adds int matrix entries and subtracts
  // q + (double)e * mg_log2(1.0 + len), the float log promoted to double.
  double s = 0.0, max = 0.0;
  size_t qoff = 0, toff = 0;
  for (uint32_t c : cigar) {
    const uint32_t op = cigar::op(c), len = cigar::len(c);
    if (op == cigar::kMatch) {
      int32_t n_ambi = 0, n_diff = 0;
      for (uint32_t l = 0; l < len; ++l) {
        const uint8_t cq = query[qoff + l], ct = target[toff + l];
        if (ct > 3 || cq > 3)
          ++n_ambi;
        else if (ct != cq)
          ++n_diff;
        s += sc.substitution(ct, cq);
        if (s < 0)
          s = 0;
        else
          max = max > s ? max : s;
      }
      // blen counts the columns without an N, mlen those that also match.
      st.blen += static_cast<int32_t>(len) - n_ambi;
      st.mlen += static_cast<int32_t>(len) - n_ambi - n_diff;
      st.n_ambi += n_ambi, st.n_diff += n_diff;
      qoff += len, toff += len;
    } else if (op == cigar::kIns || op == cigar::kDel) {
      const std::span<const uint8_t> gap = op == cigar::kIns ? query.subspan(qoff, len) : target.subspan(toff, len);
      int32_t n_ambi = 0;
      for (uint8_t b : gap) n_ambi += b > 3;
      st.blen += static_cast<int32_t>(len) - n_ambi;
      st.n_ambi += n_ambi;
      st.n_gap += static_cast<int32_t>(len), ++st.n_gapo;
      if (sc.log_gap)
        s -= sc.q + static_cast<double>(sc.e) * map::fast_log2(static_cast<float>(1.0 + len));
      else
        s -= sc.q + sc.e;
      if (s < 0) s = 0;
      (op == cigar::kIns ? qoff : toff) += len;
    } else if (op == cigar::kNSkip) {
      toff += len;
    }
  }
  st.dp_max = static_cast<int32_t>(max + 0.499);
  return st;
}

double divergence(const AlignmentStats& s) {
  return 1.0 - static_cast<double>(s.mlen) / (s.blen + s.n_ambi - s.n_gap + s.n_gapo);
}

AlignmentStats update_extra(AlignedSpan& span, std::vector<uint32_t>& cigar, std::span<const uint8_t> query,
                            std::span<const uint8_t> target, const StatsScoring& sc, bool stats) {
  const CigarShift shift = fix_cigar(cigar, query, target);
  if (span.rev)
    span.qe -= shift.qshift;
  else
    span.qs += shift.qshift;
  span.rs += shift.tshift;
  if (!stats) return {};
  return alignment_stats(cigar, query.subspan(static_cast<size_t>(shift.qshift)),
                         target.subspan(static_cast<size_t>(shift.tshift)), sc);
}

std::vector<uint32_t> eqx_cigar(std::span<const uint32_t> cigar, std::span<const uint8_t> query,
                                std::span<const uint8_t> target) {
  check_spans(cigar, query.size(), target.size());
  std::vector<uint32_t> out;
  out.reserve(cigar.size());
  size_t q = 0, t = 0;
  for (uint32_t c : cigar) {
    const uint32_t op = cigar::op(c), len = cigar::len(c);
    if (op == cigar::kMatch) {
      // Alternating runs: a run ends where equality of the codes flips.
      for (uint32_t j = 0; j < len;) {
        const bool same = query[q + j] == target[t + j];
        uint32_t l = 1;
        while (j + l < len && (query[q + j + l] == target[t + j + l]) == same) ++l;
        out.push_back(cigar::make(l, same ? cigar::kEqual : cigar::kDiff));
        j += l;
      }
    } else {
      out.push_back(c);
    }
    if (cigar::consumes_query(op)) q += len;
    if (cigar::consumes_target(op)) t += len;
  }
  return out;
}

}  // namespace agatha::align
