// tests/align/cigar_fix_test.cpp — minimap2's mm_fix_cigar and mm_update_extra rule by
// rule on hand-made alignments, and --eqx CIGARs (eqx_cigar) against minimap2 2.24's own SAM
// (tests/data/sam/n.map-pb-eqx-MD.sam, see its README) and by hand. Scoring is map-pb's:
// a=2, b=4, sc_ambi=1, q=4, e=2, log gaps.
// mg_log2 values used below (the bit-level approximation, not the true log2):
//   mg_log2(2) = 0 + (-0.34484843 + 2.02466578) - 0.67487759 = 1.00493976
//   mg_log2(4) = 1 + 1.00493976                                 = 2.00493976
#include "../../src/align/cigar_fix.hpp"

#include <agatha/error.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../format/sam_data.hpp"
#include "support/dp.hpp"

namespace agatha::align {
namespace {

// "5M1I" style text <-> BAM-encoded ops, for readable fixtures.
using test::cigar_text;
using test::parse_cigar;

struct Fixed {
  std::string cigar;
  CigarShift shift;
};

Fixed fix(const std::string& cigar, const std::string& query, const std::string& target) {
  std::vector<uint32_t> c = parse_cigar(cigar);
  const auto q = test::encode(query), t = test::encode(target);
  const CigarShift shift = fix_cigar(c, q, t);
  return {cigar_text(c), shift};
}

AlignmentStats stats(const std::string& cigar, const std::string& query, const std::string& target,
                     const StatsScoring& sc = {}) {
  const auto q = test::encode(query), t = test::encode(target);
  return alignment_stats(parse_cigar(cigar), q, t, sc);
}

// Rule 1: the inserted T of ACGT|T|ACG moves left while the base before the gap (T)
// equals the gap's last base (T); then G != T stops it after one step.
TEST(CigarFix, LeftShiftsInsertion) {
  const Fixed f = fix("4M1I3M", "ACGTTACG", "ACGTACG");
  EXPECT_EQ(f.cigar, "3M1I4M");
  EXPECT_EQ(f.shift.qshift, 0);
  EXPECT_EQ(f.shift.tshift, 0);
}

// Rule 1 on a deletion, by the whole preceding M: target AA|AA|C, query AAC. Both AA
// bases before the gap equal the gap's last bases, so 2M2D1M -> 0M2D3M; rule 3 removes
// the 0M and then drops the now leading 2D (tshift 2): 3M.
TEST(CigarFix, LeftShiftEmptiesMatchThenDropsLeadingDeletion) {
  const Fixed f = fix("2M2D1M", "AAC", "AAAAC");
  EXPECT_EQ(f.cigar, "3M");
  EXPECT_EQ(f.shift.tshift, 2);
  EXPECT_EQ(f.shift.qshift, 0);
}

// An I/D not flanked by M on both sides is not shifted, whatever the bases.
TEST(CigarFix, NoShiftWithoutMatchOnBothSides) { EXPECT_EQ(fix("2M1I1D2M", "AAAAA", "AAAAA").cigar, "2M1I1D2M"); }

// Rule 2: 5I6D7I between M ops is one run of three gap ops starting with I,D: it becomes
// 12I (5+7) then 6D, the third op turned into 0I and squeezed out.
TEST(CigarFix, RewritesGapRunAsOneInsertionThenOneDeletion) {
  const std::string query = "AC" + std::string(12, 'G') + "TT", target = "AC" + std::string(6, 'C') + "TT";
  EXPECT_EQ(fix("2M5I6D7I2M", query, target).cigar, "2M12I6D2M");
}

// Rule 2 for a run starting D,I: 3D2I1D -> I total 2 first, then D total 4.
TEST(CigarFix, RewritesRunStartingWithDeletion) {
  EXPECT_EQ(fix("2M3D2I1D2M", "ACGGTT", "ACCCCCTT").cigar, "2M2I4D2M");
}

// Rule 2 needs three ops: a plain 5I6D is kept as it is.
TEST(CigarFix, KeepsPlainInsertionDeletionPair) {
  const std::string query = "AC" + std::string(5, 'G') + "TT", target = "AC" + std::string(6, 'C') + "TT";
  EXPECT_EQ(fix("2M5I6D2M", query, target).cigar, "2M5I6D2M");
}

// Rule 3: a zero-length op between two M ops. The 0I is "flanked by M", and an empty gap
// always equals the bases before it, so it shifts by all 3 bases: 0M0I5M -> 5M.
TEST(CigarFix, RemovesZeroLengthOps) { EXPECT_EQ(fix("3M0I2M", "ACGTA", "ACGTA").cigar, "5M"); }

// Rule 3 merging: 1I 0D 1I is a run starting I,D (1+2 = 3) but has no deleted base, so
// rule 2 leaves it; removing the 0D leaves 1I1I, merged to 2I.
TEST(CigarFix, MergesNeighboursAfterRemoval) { EXPECT_EQ(fix("2M1I0D1I2M", "ACGGTT", "ACTT").cigar, "2M2I2M"); }

// Rule 3: a leading I is dropped; update_extra moves qs forward (forward strand) or qe
// back (reverse strand), and the stats skip the dropped query base.
TEST(CigarFix, DropsLeadingInsertion) {
  for (bool rev : {false, true}) {
    std::vector<uint32_t> cigar = parse_cigar("1I4M");
    AlignedSpan span{10, 15, 100, 104, rev};
    const auto q = test::encode("GACGT"), t = test::encode("ACGT");
    const AlignmentStats st = update_extra(span, cigar, q, t, {});
    EXPECT_EQ(cigar_text(cigar), "4M");
    EXPECT_EQ(span.qs, rev ? 10 : 11);
    EXPECT_EQ(span.qe, rev ? 14 : 15);
    EXPECT_EQ(span.rs, 100);
    EXPECT_EQ(st.mlen, 4);  // ACGT vs ACGT after the shift
    EXPECT_EQ(st.blen, 4);
    EXPECT_EQ(st.n_gapo, 0);
  }
}

// Rule 3: a leading D moves rs forward.
TEST(CigarFix, DropsLeadingDeletionInUpdateExtra) {
  std::vector<uint32_t> cigar = parse_cigar("2D3M");
  AlignedSpan span{0, 3, 50, 55, false};
  const auto q = test::encode("ACG"), t = test::encode("TTACG");
  const AlignmentStats st = update_extra(span, cigar, q, t, {});
  EXPECT_EQ(cigar_text(cigar), "3M");
  EXPECT_EQ(span.rs, 52);
  EXPECT_EQ(st.mlen, 3);
  EXPECT_EQ(st.dp_max, 6);  // three matches at a = 2
}

// Rule 4-5 with N on both sides. query ACGTA|NG|CCA vs target ACNTT|--|CCA:
//  M1: G/N is ambiguous, A/T a mismatch -> n_ambi 1, n_diff 1, blen 5-1 = 4, mlen 4-1 = 3;
//  I (NG): one N -> n_ambi 2, blen 4 + (2-1) = 5;  M2: CCA matches -> blen 8, mlen 6.
//  NM = blen - mlen + n_ambi = 8 - 6 + 2 = 4; de = 1 - 6/(8 + 2 - 2 + 1) = 1/3.
//  Score: +2 +2 -1 +2 -4 (max 5 after T), the 2I costs 4 + 2*mg_log2(3) ~ 7.17 -> reset
//  to 0, then CCA +6 -> dp_max = (int)(6 + 0.499) = 6.
TEST(CigarFix, StatsCountAmbiguousAndMismatchingBases) {
  const AlignmentStats st = stats("5M2I3M", "ACGTANGCCA", "ACNTTCCA");
  EXPECT_EQ(st.n_ambi, 2);
  EXPECT_EQ(st.n_diff, 1);
  EXPECT_EQ(st.blen, 8);
  EXPECT_EQ(st.mlen, 6);
  EXPECT_EQ(st.n_gap, 2);
  EXPECT_EQ(st.n_gapo, 1);
  EXPECT_EQ(edit_distance(st), 4);
  EXPECT_DOUBLE_EQ(divergence(st), 1.0 - 6.0 / 9.0);
  EXPECT_EQ(st.dp_max, 6);
}

// Rule 5, log versus linear gap cost. ACGTA|CCC|GTACG vs ACGTAGTACG: 5 matches = 10;
//  long-read: 10 - (4 + 2*mg_log2(4)) = 10 - 8.00987952 = 1.99012048, +10 -> max 11.99
//  -> (int)(11.99 + 0.499) = 12;  sr: 10 - (4 + 2) = 4, +10 -> 14.
TEST(CigarFix, DpMaxLogAndLinearGapCost) {
  EXPECT_EQ(stats("5M3I5M", "ACGTACCCGTACG", "ACGTAGTACG").dp_max, 12);
  StatsScoring sr;
  sr.log_gap = false;
  EXPECT_EQ(stats("5M3I5M", "ACGTACCCGTACG", "ACGTAGTACG", sr).dp_max, 14);
}

// Rule 5: the running score is local, never below 0 and the maximum is taken only in M.
// ACG = 6, the 1I costs 4 + 2*1.00493976 = 6.0099 -> -0.0099 -> reset to 0; ACGT = 8.
TEST(CigarFix, DpMaxResetsAtZero) { EXPECT_EQ(stats("3M1I4M", "ACGTTACG", "ACGTACG").dp_max, 8); }

// de is exactly 0 for a perfect match (printed "0" in SAM).
TEST(CigarFix, DivergenceZeroForPerfectMatch) {
  const AlignmentStats st = stats("4M", "ACGT", "ACGT");
  EXPECT_EQ(divergence(st), 0.0);
  EXPECT_EQ(edit_distance(st), 0);
}

// A CIGAR that does not span the sequences is an error, not an out-of-bounds read.
TEST(CigarFix, RejectsCigarNotSpanningSequences) {
  std::vector<uint32_t> cigar = parse_cigar("5M");
  const auto q = test::encode("ACGT"), t = test::encode("ACGTA");
  EXPECT_THROW((void)fix_cigar(cigar, q, t), Error);
}

// ---- --eqx: M ops rewritten as =/X runs ----

// The =/X CIGAR of each record of minimap2's `--eqx --MD` SAM from its M form.
TEST(EqxCigar, EqxSamMatchesMinimap2) {
  int checked = 0;
  for (const format::sam_data::EqxSamRecord& r : format::sam_data::eqx_sam_records()) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(eqx_cigar(test::collapse_eqx(r.cigar), r.query, r.target), r.cigar);
    ++checked;
  }
  EXPECT_EQ(checked, 6);
}

std::vector<uint8_t> codes(const std::string& s) { return test::encode(s); }

TEST(EqxCigar, HandMadeCases) {
  // N against N is "=", as in minimap2 (codes compare equal); other ops are copied.
  EXPECT_EQ(eqx_cigar(parse_cigar("3M1I2M"), codes("ANTGCA"), codes("ANGCC")), parse_cigar("2=1X1I1=1X"));
  EXPECT_EQ(eqx_cigar(parse_cigar("2M2D1M"), codes("TAC"), codes("AATTC")), parse_cigar("1X1=2D1="));
  // Adjacent M ops stay apart.
  EXPECT_EQ(eqx_cigar(parse_cigar("1M1M"), codes("AC"), codes("AC")), parse_cigar("1=1="));
  const auto q = codes("ACGT");
  EXPECT_THROW(eqx_cigar(parse_cigar("4M1D"), q, q), Error);  // target too short
}

}  // namespace
}  // namespace agatha::align
