// kernels/splice_sites.hpp — the donor and acceptor scores of a splice task's target,
// as minimap2 2.24's ksw_exts2_sse sets them before its DP; shared by every backend.
//
// The long-gap (intron) state of ksw_exts2 opens after target base t at cost
// q2 - donor[t], so the intron starts at t+1, and closes at target base t (the intron's
// last base) with acceptor[t] added. The scores, in target coordinates (codes A0 C1 G2
// T3; N matches nothing):
//
//   without kSpliceFor and kSpliceRev   every donor and acceptor score is 0;
//   otherwise, by default               -noncan;
//     donor[t], 0 <= t < tlen-4:        the intron would begin with the motif (forward
//                                       strand GT, reverse strand CT): 0 when the base
//                                       after it is A or G ("GTr", "CTr"), else the
//                                       flank score;
//     acceptor[t], 2 <= t < tlen:       the intron would end with the motif (forward AG,
//                                       reverse AC): 0 when the base before it is C or T
//                                       ("yAG", "yAC"), else the flank score;
//   flank score: -noncan/2 (C division) with kSpliceFlank, else 0 ("GTr or yAG is worth
//   0.5 bit", minimap2's comment citing PMID:18688272);
//   junctions: junc_bonus is added (8-bit wrapping) to donor[t] when junc[t+1] marks the
//   start of an annotated intron of a scored strand (t < tlen-1), and to acceptor[t]
//   when junc[t] marks an intron's end.
//
// With kRevCigar the DP runs on reversed sequences (a left extension), so the intron's
// ends swap roles and its motifs read backwards: donor[t] looks for "GA"+y / "CA"+y
// (forward / reverse strand; y = C or T after the motif), acceptor[t] for r+"TG" /
// r+"TC" (r = A or G before it), and the junction bits of the two ends swap.
//
// Only forward-strand GT/AG and reverse-strand CT/AC are motifs: GC-AG and AT-AC
// introns pay the non-canonical penalty, as in minimap2 2.24.
#pragma once

#include <agatha/dp.hpp>

#include "hd.hpp"

#include <cstdint>

namespace agatha::kernels {

struct SpliceSiteInput {
  const uint8_t* target = nullptr;
  int tlen = 0;
  uint32_t flag = 0;
  int noncan = 0, junc_bonus = 0;
  const uint8_t* junc = nullptr;  // tlen bytes of dp_junc bits, or null
};

namespace splice_detail {
inline constexpr uint8_t kA = 0, kC = 1, kG = 2, kT = 3;

// 1 when the strand is scored and the bases (b1, b2) are its motif (m1, m2), else 0.
AGATHA_HD int motif_class(bool scored, uint8_t b1, uint8_t b2, uint8_t m1, uint8_t m2) {
  return scored && b1 == m1 && b2 == m2 ? 1 : 0;
}
}  // namespace splice_detail

// Writes donor[0, n) and acceptor[0, n) for n >= tlen; entries at t >= tlen keep the
// default (-noncan with splice flags, else 0).
AGATHA_HD void splice_site_scores(const SpliceSiteInput& in, int8_t* donor, int8_t* acceptor, int n) {
  using namespace splice_detail;
  const bool fwd = (in.flag & dp_flag::kSpliceFor) != 0, rev = (in.flag & dp_flag::kSpliceRev) != 0;
  const int8_t fill = (fwd || rev) ? static_cast<int8_t>(-in.noncan) : int8_t{0};
  for (int t = 0; t < n; ++t) donor[t] = fill, acceptor[t] = fill;
  if (!fwd && !rev) return;
  const int8_t flank = (in.flag & dp_flag::kSpliceFlank) ? static_cast<int8_t>(-in.noncan / 2) : int8_t{0};
  const bool reversed = (in.flag & dp_flag::kRevCigar) != 0;
  const uint8_t* T = in.target;
  // The donor end's motif is G or C then d2 (GT, CT; reversed GA, CA), followed by a
  // consensus base; the acceptor end's is a1 then G or C (AG, AC; reversed TG, TC),
  // preceded by a consensus base.
  const uint8_t d2 = reversed ? kA : kT;
  const uint8_t a1 = reversed ? kT : kA;
  // A site's score depends on three bases only (donor[t]: T[t+1..t+3]; acceptor[t]:
  // T[t-2..t]), so both come from 125-entry tables indexed by those bases (a code above
  // 4 matches no motif base, like N, and is read as 4).
  int8_t donor_of[125], acceptor_of[125];
  for (int i = 0; i < 125; ++i) {
    const auto b0 = static_cast<uint8_t>(i / 25), b1 = static_cast<uint8_t>(i / 5 % 5),
               b2 = static_cast<uint8_t>(i % 5);
    int c = motif_class(fwd, b0, b1, kG, d2) | motif_class(rev, b0, b1, kC, d2);
    if (c && (reversed ? (b2 == kC || b2 == kT) : (b2 == kA || b2 == kG))) c = 2;
    donor_of[i] = c == 0 ? fill : c == 2 ? int8_t{0} : flank;
    c = motif_class(fwd, b1, b2, a1, kG) | motif_class(rev, b1, b2, a1, kC);
    if (c && (reversed ? (b0 == kA || b0 == kG) : (b0 == kC || b0 == kT))) c = 2;
    acceptor_of[i] = c == 0 ? fill : c == 2 ? int8_t{0} : flank;
  }
  const auto code = [T](int t) { return T[t] < 4 ? int{T[t]} : 4; };
  for (int t = 0; t < in.tlen - 4; ++t) donor[t] = donor_of[code(t + 1) * 25 + code(t + 2) * 5 + code(t + 3)];
  for (int t = 2; t < in.tlen; ++t) acceptor[t] = acceptor_of[code(t - 2) * 25 + code(t - 1) * 5 + code(t)];
  if (!in.junc) return;
  // Which junction bits mark the intron end each array scores, per strand.
  const uint8_t donor_bits =
      static_cast<uint8_t>((fwd ? (reversed ? dp_junc::kJuncForEnd : dp_junc::kJuncForStart) : 0) |
                           (rev ? (reversed ? dp_junc::kJuncRevStart : dp_junc::kJuncRevEnd) : 0));
  const uint8_t acceptor_bits =
      static_cast<uint8_t>((fwd ? (reversed ? dp_junc::kJuncForStart : dp_junc::kJuncForEnd) : 0) |
                           (rev ? (reversed ? dp_junc::kJuncRevEnd : dp_junc::kJuncRevStart) : 0));
  for (int t = 0; t < in.tlen - 1; ++t)
    if (in.junc[t + 1] & donor_bits) donor[t] = static_cast<int8_t>(donor[t] + in.junc_bonus);
  for (int t = 0; t < in.tlen; ++t)
    if (in.junc[t] & acceptor_bits) acceptor[t] = static_cast<int8_t>(acceptor[t] + in.junc_bonus);
}

}  // namespace agatha::kernels
