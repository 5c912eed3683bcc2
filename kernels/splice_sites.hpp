// kernels/splice_sites.hpp — the donor and acceptor scores of a splice task's target,
// as minimap2's ksw_exts2_sse sets them before its DP; shared by every backend.
//
// The long-gap (intron) state of ksw_exts2 opens after target base t at cost
// q2 - donor[t], so the intron starts at t+1, and closes at target base t (the intron's
// last base) with acceptor[t] added. The scores, in target coordinates (codes A0 C1 G2
// T3; N matches nothing):
//
//   without kSpliceFor and kSpliceRev   every donor and acceptor score is 0;
//   otherwise each site has a class z and scores -sp[z] (0 for the class "best"):
//     donor[t], 0 <= t < tlen-4:        from the intron's first two bases T[t+1..t+2]
//                                       and the base after them, T[t+3];
//     acceptor[t], 2 <= t < tlen:       from its last two, T[t-1..t], and the base
//                                       before them, T[t-2]; other positions class 3.
//   The intron motifs, as read on the target (forward strand of the reference):
//     transcript on the forward strand (kSpliceFor): start GT (best when followed by A
//       or G, "GTr", else class 0), GC (1), AT (2); end AG (best when preceded by C or
//       T, "yAG", else 0), AC (2);
//     on the reverse strand (kSpliceRev), their reverse complements: start CT (best
//       when followed by r, else 0), GT (2); end AC (best when preceded by y, else 0),
//       GC (1), AT (2);
//     anything else: class 3.
//   sp[] by model (minimap2 2.31's ksw_exts2_sse; 2.24 has the first only):
//     minimap2's (without kSpliceCmplx): sp[0] = noncan/2 (C division) with
//       kSpliceFlank ("GTr or yAG is worth 0.5 bit", PMID:18688272), else 0;
//       sp[1] = sp[2] = sp[3] = noncan. GC and AT thus pay what any non-motif pays, so
//       these tables are 2.24's (GT..AG and CT..AC motifs only) as well as 2.31's;
//     miniprot's (kSpliceCmplx, -J 1): sp = {8, 15, 21, 30} / 3 rounded = {3, 5, 7, 10};
//       noncan and kSpliceFlank are then unused.
//   With both strand flags (minimap2 never passes both; 2.31 asserts it does not) a site
//   takes the better class of the two strands, which is 2.24's result.
//   junctions: junc_bonus is added (8-bit wrapping) to donor[t] when junc[t+1] marks the
//   start of an annotated intron of a scored strand (t < tlen-1), and to acceptor[t]
//   when junc[t] marks an intron's end.
//
// With kRevCigar the DP runs on reversed sequences (a left extension), so the intron's
// ends swap roles and its motifs read backwards: donor[t] looks for the end motifs
// reversed (GA, CA; reverse strand CA, CG, TA) with the consensus base after them (y),
// acceptor[t] for the start motifs reversed (TG, CG, TA; reverse strand TC, TG) with the
// consensus base before them (r); the junction bits of the two ends swap.
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
inline constexpr int kBest = -1;  // the motif with its consensus base: score 0

// The class of a site whose two motif bases read (b1, b2) on the target, in the order
// of the intron's start (start_end = true) or end motif list of one transcript strand,
// `backwards` when the DP runs reversed (the motifs then read m2 m1), and whose
// consensus base is `cons`.
AGATHA_HD int site_class(bool start_end, bool rev_strand, bool backwards, uint8_t b1, uint8_t b2, uint8_t cons) {
  struct Motif {
    uint8_t m1, m2;
    int8_t z;
  };
  // kBest entries first; z = kBest means: best with the consensus base, else class 0.
  constexpr Motif kFor[2][3] = {{{kA, kG, kBest}, {kA, kC, 2}, {4, 4, 3}},      // end
                                {{kG, kT, kBest}, {kG, kC, 1}, {kA, kT, 2}}};   // start
  constexpr Motif kRev[2][3] = {{{kA, kC, kBest}, {kG, kC, 1}, {kA, kT, 2}},    // end
                                {{kC, kT, kBest}, {kG, kT, 2}, {4, 4, 3}}};     // start
  const Motif* list = rev_strand ? kRev[start_end ? 1 : 0] : kFor[start_end ? 1 : 0];
  for (int k = 0; k < 3; ++k) {
    const uint8_t m1 = backwards ? list[k].m2 : list[k].m1, m2 = backwards ? list[k].m1 : list[k].m2;
    if (m1 > 3 || b1 != m1 || b2 != m2) continue;
    if (list[k].z != kBest) return list[k].z;
    // The consensus base: r (A, G) after a start motif, y (C, T) before an end motif;
    // reading backwards keeps the base (the complement of the strand is not taken).
    const bool ok = start_end ? (cons == kA || cons == kG) : (cons == kC || cons == kT);
    return ok ? kBest : 0;
  }
  return 3;
}
}  // namespace splice_detail

// Writes donor[0, n) and acceptor[0, n) for n >= tlen; entries at t >= tlen keep the
// default (-sp[3] with splice flags, else 0).
AGATHA_HD void splice_site_scores(const SpliceSiteInput& in, int8_t* donor, int8_t* acceptor, int n) {
  using namespace splice_detail;
  const bool fwd = (in.flag & dp_flag::kSpliceFor) != 0, rev = (in.flag & dp_flag::kSpliceRev) != 0;
  int sp[4];
  if (in.flag & dp_flag::kSpliceCmplx) {
    sp[0] = 3, sp[1] = 5, sp[2] = 7, sp[3] = 10;  // (int)(x / 3. + .499) of miniprot's 8, 15, 21, 30
  } else {
    sp[0] = (in.flag & dp_flag::kSpliceFlank) ? in.noncan / 2 : 0;
    sp[1] = sp[2] = sp[3] = in.noncan;
  }
  const int8_t fill = (fwd || rev) ? static_cast<int8_t>(-sp[3]) : int8_t{0};
  for (int t = 0; t < n; ++t) donor[t] = fill, acceptor[t] = fill;
  if (!fwd && !rev) return;
  const bool reversed = (in.flag & dp_flag::kRevCigar) != 0;
  const uint8_t* T = in.target;
  const auto score = [&sp](int z) { return z < 0 ? int8_t{0} : static_cast<int8_t>(-sp[z]); };
  // The better class of the scored strands.
  const auto best = [fwd, rev](bool start_end, bool backwards, uint8_t b1, uint8_t b2, uint8_t cons) {
    int z = 3;
    if (fwd) z = site_class(start_end, false, backwards, b1, b2, cons);
    if (rev) {
      const int zr = site_class(start_end, true, backwards, b1, b2, cons);
      z = zr < z ? zr : z;
    }
    return z;
  };
  // A site's score depends on three bases only (donor[t]: T[t+1..t+3]; acceptor[t]:
  // T[t-2..t]), so both come from 125-entry tables indexed by those bases (a code above
  // 4 matches no motif base, like N, and is read as 4).
  int8_t donor_of[125], acceptor_of[125];
  for (int i = 0; i < 125; ++i) {
    const auto b0 = static_cast<uint8_t>(i / 25), b1 = static_cast<uint8_t>(i / 5 % 5),
               b2 = static_cast<uint8_t>(i % 5);
    // donor[t]: (b0, b1, b2) = T[t+1], T[t+2], T[t+3]: the intron's start, or reversed
    // its end, with the consensus base after the motif.
    donor_of[i] = score(best(!reversed, reversed, b0, b1, b2));
    // acceptor[t]: (b0, b1, b2) = T[t-2], T[t-1], T[t]: its end, or reversed its start,
    // with the consensus base before the motif.
    acceptor_of[i] = score(best(reversed, reversed, b1, b2, b0));
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
