// tests/format/sam_test.cpp — SAM records and header against minimap2 2.24's own
// output. tests/data/sam/ holds the reads, the two-sequence reference and minimap2's SAM
// for `-ax map-pb`, `-ax map-pb -Y` and `-ax map-pb -L -R '@RG\tID:g1\tSM:x'` (see its
// README). Each test fills a SamRecord field by field with the values of one minimap2
// line (flag bits, coordinates, CIGAR, tags) and the read from reads.fq, and requires
// the formatted line to equal minimap2's byte for byte.
#include <gtest/gtest.h>

#include <agatha/error.hpp>
#include <agatha/version.hpp>
#include <map>
#include <string>
#include <vector>

#include "../../src/align/cigar_fix.hpp"
#include "../../src/format/sam.hpp"
#include "support/dp.hpp"
#include "support/files.hpp"
#include "support/text.hpp"
#include "support/paths.hpp"

namespace agatha::format {
namespace {

// The lines of a file of tests/data/sam/, each with its '\n'.
std::vector<std::string> read_lines(const std::string& rel) {
  std::vector<std::string> lines = test::read_lines(test::source_path("tests/data/sam/" + rel));
  for (std::string& line : lines) line += '\n';
  return lines;
}

struct Read {
  std::string seq, qual;
};

// reads.fq: four-line FASTQ records, name up to the first space.
std::map<std::string, Read> load_reads() {
  const std::vector<std::string> lines = read_lines("reads.fq");
  std::map<std::string, Read> reads;
  for (size_t i = 0; i + 3 < lines.size(); i += 4) {
    const std::string name = lines[i].substr(1, lines[i].find_first_of(" \n") - 1);
    reads[name] = {lines[i + 1].substr(0, lines[i + 1].size() - 1), lines[i + 3].substr(0, lines[i + 3].size() - 1)};
  }
  return reads;
}

// The record lines of a minimap2 SAM file, in order.
std::vector<std::string> records(const std::string& rel) {
  std::vector<std::string> out;
  for (const std::string& line : read_lines(rel))
    if (line[0] != '@') out.push_back(line);
  return out;
}

using test::parse_cigar;

// de from the alignment counts: 1 - mm_event_identity, as minimap2's write_tags prints it.
double de(int mlen, int blen, int n_ambi, int n_gap, int n_gapo) {
  align::AlignmentStats st;
  st.mlen = mlen, st.blen = blen, st.n_ambi = n_ambi, st.n_gap = n_gap, st.n_gapo = n_gapo;
  return align::divergence(st);
}

// One minimap2 line's values. The CIGAR strings have no clips: those come from qs/qe.
struct Line {
  std::string qname;
  bool rev, secondary, supplementary;
  std::string rname;
  int32_t rs, qs, qe;
  int mapq;
  std::string cigar;
  int32_t nm, ms, as, nn;
  char tp;
  int32_t cm, s1;
  std::optional<int32_t> s2;
  double de;
  std::string sa;
};

// The records of `-ax map-pb two_refs.fa reads.fq`, in output order. NM/nn/de: every
// alignment has one 1-base I and one 1-base D, so n_gap = n_gapo = 2; blen = M columns
// + 2 - nn and mlen = blen + nn - NM.
//  fwd   249 M, NM 9          -> blen 251, mlen 242, de 1 - 242/251 = 0.0359
//  rev   249 M, NM 10, nn 1   -> blen 250, mlen 241, de 1 - 241/251 = 0.0398 (an R in the read)
//  sec   279 M, NM 10         -> blen 281, mlen 271, de 1 - 271/281 = 0.0356
//  chim  249 M, NM 9, both parts as fwd
std::vector<Line> expected_lines() {
  const std::string sa_of_primary = format_sa(std::vector<SaPart>{{"chrA", 100, 350, 0, 250, false, 60, 9}}, 500);
  const std::string sa_of_supp = format_sa(std::vector<SaPart>{{"chrB", 200, 450, 250, 500, true, 60, 9}}, 500);
  return {
      {"fwd",
       false,
       false,
       false,
       "chrA",
       500,
       0,
       250,
       60,
       "60M1D59M1I130M",
       9,
       444,
       444,
       0,
       'P',
       8,
       157,
       0,
       de(242, 251, 0, 2, 2),
       ""},
      {"rev",
       true,
       false,
       false,
       "chrA",
       1200,
       0,
       250,
       60,
       "60M1D60M1I129M",
       10,
       441,
       441,
       1,
       'P',
       11,
       167,
       0,
       de(241, 250, 1, 2, 2),
       ""},
      {"sec",
       false,
       false,
       false,
       "chrA",
       2050,
       0,
       280,
       0,
       "60M1D60M1I159M",
       10,
       498,
       498,
       0,
       'P',
       12,
       177,
       177,
       de(271, 281, 0, 2, 2),
       ""},
      {"sec",
       false,
       true,
       false,
       "chrB",
       1050,
       0,
       280,
       0,
       "60M1D60M1I159M",
       10,
       498,
       498,
       0,
       'S',
       12,
       177,
       std::nullopt,
       de(271, 281, 0, 2, 2),
       ""},
      {"chim",
       true,
       false,
       false,
       "chrB",
       200,
       250,
       500,
       60,
       "59M1D61M1I129M",
       9,
       444,
       444,
       0,
       'P',
       5,
       111,
       0,
       de(242, 251, 0, 2, 2),
       sa_of_primary},
      {"chim",
       false,
       false,
       true,
       "chrA",
       100,
       0,
       250,
       60,
       "60M1D60M1I129M",
       9,
       444,
       444,
       0,
       'P',
       13,
       175,
       0,
       de(242, 251, 0, 2, 2),
       sa_of_supp},
  };
}

std::string format_line(const Line& l, const Read& read, const SamOptions& opt) {
  const std::vector<uint32_t> cigar = parse_cigar(l.cigar);
  SamRecord r;
  r.qname = l.qname, r.seq = read.seq, r.qual = read.qual;
  r.rev = l.rev, r.secondary = l.secondary, r.supplementary = l.supplementary;
  r.rname = l.rname, r.rs = l.rs, r.qs = l.qs, r.qe = l.qe, r.mapq = l.mapq, r.cigar = cigar;
  r.tags.nm = l.nm, r.tags.ms = l.ms, r.tags.as = l.as, r.tags.nn = l.nn, r.tags.tp = l.tp, r.tags.cm = l.cm;
  r.tags.s1 = l.s1, r.tags.s2 = l.s2, r.tags.de = l.de, r.sa = l.sa, r.rl = 0;
  std::string out;
  append_sam_record(out, r, opt);
  return out;
}

// Formats every read of the file: the mapped records, then "unm" unmapped.
void expect_file(const std::string& rel, const SamOptions& opt) {
  const auto reads = load_reads();
  const std::vector<std::string> want = records(rel);
  const std::vector<Line> lines = expected_lines();
  ASSERT_EQ(want.size(), lines.size() + 1);
  for (size_t i = 0; i < lines.size(); ++i)
    EXPECT_EQ(format_line(lines[i], reads.at(lines[i].qname), opt), want[i]) << rel << " record " << i;
  std::string unmapped;
  append_sam_unmapped(unmapped, "unm", reads.at("unm").seq, reads.at("unm").qual, 0, opt);
  EXPECT_EQ(unmapped, want.back());
}

// Primary forward (lower-case bases kept), primary reverse (IUPAC R complemented to Y),
// primary and secondary (SEQ/QUAL `*`), primary reverse with SA and its supplementary
// (hard clips, only the aligned bases), unmapped.
TEST(SamFormat, RecordsEqualMinimap2) { expect_file("map-pb.sam", {}); }

// -Y: soft clips on the supplementary, full SEQ/QUAL on the secondary and supplementary.
TEST(SamFormat, RecordsEqualMinimap2SoftClip) {
  expect_file("map-pb-Y.sam", {.soft_clip = true, .long_cigar = false, .rg_id = ""});
}

// -R: RG:Z first among the tags, on unmapped records too. (-L changes nothing for short
// CIGARs.)
TEST(SamFormat, RecordsEqualMinimap2ReadGroup) {
  const ReadGroup rg = parse_read_group("@RG\\tID:g1\\tSM:x");
  expect_file("map-pb-L-R.sam", {.soft_clip = false, .long_cigar = true, .rg_id = rg.id});
}

// --secondary-seq (minimap2 2.31): the secondary gets its SEQ/QUAL (it spans the whole
// read, so no clips); the other records are 2.24's.
TEST(SamFormat, RecordsEqualMinimap2SecondarySeq) {
  expect_file("map-pb-secondary-seq.sam", {.soft_clip = false, .long_cigar = false, .rg_id = "", .secondary_seq = true});
}

// --secondary-seq on a clipped secondary: hard clips and only the aligned bases, as a
// supplementary (without it: soft clips, SEQ and QUAL `*`). -Y keeps soft clips and the
// whole read.
TEST(SamFormat, SecondarySeqHardClips) {
  const std::string seq = "ACGTTGCAAC", qual = "ABCDEFGHIJ";
  const std::vector<uint32_t> cigar = parse_cigar("6M");
  SamRecord r;
  r.qname = "s", r.seq = seq, r.qual = qual, r.rname = "c", r.rs = 9, r.qs = 2, r.qe = 8, r.mapq = 0, r.cigar = cigar;
  r.secondary = true;
  r.tags.s2 = std::nullopt;
  auto fields = [&](const SamOptions& o) {
    std::string out;
    append_sam_record(out, r, o);
    const std::vector<std::string> f = test::split_tabs(out.substr(0, out.size() - 1));
    return f[5] + " " + f[9] + " " + f[10];
  };
  EXPECT_EQ(fields({}), "2S6M2S * *");
  EXPECT_EQ(fields({.soft_clip = false, .long_cigar = false, .rg_id = "", .secondary_seq = true}),
            "2H6M2H GTTGCA CDEFGH");
  EXPECT_EQ(fields({.soft_clip = true, .long_cigar = false, .rg_id = "", .secondary_seq = true}),
            "2S6M2S ACGTTGCAAC ABCDEFGHIJ");
  r.rev = true;  // reverse: the aligned bases reverse-complemented, clips swapped
  r.qs = 1;
  const std::vector<uint32_t> c7 = parse_cigar("7M");
  r.cigar = c7;
  EXPECT_EQ(fields({.soft_clip = false, .long_cigar = false, .rg_id = "", .secondary_seq = true}),
            "2H7M1H TGCAACG HGFEDCB");
}

// Header: @SQ lines and the @RG line equal minimap2's; @PG is agatha's.
TEST(SamFormat, HeaderEqualsMinimap2ExceptProgramLine) {
  const std::vector<std::string> want = read_lines("map-pb-L-R.sam");
  const ReadGroup rg = parse_read_group("@RG\\tID:g1\\tSM:x");
  const std::vector<SamReference> refs{{"chrA", 2900}, {"chrB", 1700}};
  const std::vector<std::string> argv{"agatha", "align", "-a", "-x", "map-pb", "two_refs.fa", "reads.fq"};
  std::string out;
  append_sam_header(out, refs, &rg, argv, kRules2_24);
  EXPECT_EQ(out, want[0] + want[1] + want[2] + "@PG\tID:agatha\tPN:agatha\tVN:" + std::string(kVersion) +
                     "\tDS:minimap2 2.24-r1122 compatible\tCL:agatha align -a -x map-pb two_refs.fa reads.fq\n");
  // minimap2 2.31 (mm_write_sam_hdr) writes an @HD line first.
  out.clear();
  append_sam_header(out, refs, &rg, argv, kRules2_31);
  EXPECT_EQ(out, "@HD\tVN:1.6\tSO:unsorted\tGO:query\n" + want[0] + want[1] + want[2] +
                     "@PG\tID:agatha\tPN:agatha\tVN:" + std::string(kVersion) +
                     "\tDS:minimap2 2.31-r1302 compatible\tCL:agatha align -a -x map-pb two_refs.fa reads.fq\n");
}

// mm_escape as minimap2 applies it to -R (checked with minimap2: `ID:a\\\\b` gives
// `ID:a\\b`, and `\q` vanishes).
TEST(SamFormat, ReadGroupEscapes) {
  const ReadGroup rg = parse_read_group("@RG\\tID:a\\\\\\\\b\\tSM:\\qz");
  EXPECT_EQ(rg.line, "@RG\tID:a\\\\b\tSM:z");
  EXPECT_EQ(rg.id, "a\\\\b");
  EXPECT_THROW(parse_read_group("RG\\tID:x"), OptionError);
  EXPECT_THROW(parse_read_group("@RG\tID:x"), OptionError);
  EXPECT_THROW(parse_read_group("@RG\\tSM:x"), OptionError);
  EXPECT_THROW(parse_read_group("@RG\\tID:" + std::string(256, 'a')), OptionError);
}

// Unmapped reads from FASTA (no QUAL) and an empty read, as minimap2 printed them.
TEST(SamFormat, UnmappedWithoutQualityAndEmpty) {
  std::string out;
  append_sam_unmapped(out, "f", "ACGTN", "", 0, {});
  append_sam_unmapped(out, "e", "", "", 0, {});
  EXPECT_EQ(out, "f\t4\t*\t0\t0\t*\t*\t0\t0\tACGTN\t*\trl:i:0\ne\t4\t*\t0\t0\t*\t*\t0\t0\t\t*\trl:i:0\n");
}

// SA parts: M is the shorter span, the surplus I (query longer) or D (reference longer);
// clip5 is qlen - qe on the reverse strand. qlen 1000:
//  fwd [100,400) vs 310 ref bases -> 100S 300M 10D 600S;  rev [0,500) vs 480 -> 500S 480M 20I.
TEST(SamFormat, SaTagSpansAndClips) {
  const std::vector<SaPart> parts{{"c1", 9, 319, 100, 400, false, 17, 5}, {"c2", 0, 480, 0, 500, true, 3, 40}};
  EXPECT_EQ(format_sa(parts, 1000), "c1,10,+,100S300M10D600S,17,5;c2,1,-,500S480M20I,3,40;");
}

// -L with more than 65533 ops: CIGAR field `<SEQ length>S<ref span>N`, the real CIGAR
// (clips included, as len<<4|op) in CG:B:I after SA, before rl. Read of 65540 bases,
// [2, 65536) aligned as 32767 x (1M1I): 65534 ops, ref span 32767; clips 2 and 4 -> S
// (op 4): 2<<4|4 = 36, 4<<4|4 = 68; 1M = 16, 1I = 17.
TEST(SamFormat, LongCigarMovesToCgTag) {
  const std::string seq(65540, 'A');
  std::vector<uint32_t> cigar;
  for (int i = 0; i < 32767; ++i) cigar.push_back(cigar::make(1, 0)), cigar.push_back(cigar::make(1, 1));
  SamRecord r;
  r.qname = "long", r.seq = seq, r.rname = "c", r.rs = 0, r.qs = 2, r.qe = 65536, r.mapq = 60, r.cigar = cigar;
  r.tags.s2 = 0;
  std::string out;
  append_sam_record(out, r, {.soft_clip = false, .long_cigar = true, .rg_id = ""});
  EXPECT_TRUE(out.starts_with("long\t0\tc\t1\t60\t65540S32767N\t*\t0\t0\t")) << out.substr(0, 80);
  const size_t cg = out.find("\tde:f:0\tCG:B:I,36,16,17,16,17,");
  ASSERT_NE(cg, std::string::npos);
  EXPECT_TRUE(out.ends_with(",16,17,68\trl:i:0\n"));
  std::string plain;
  append_sam_record(plain, r, {});
  EXPECT_TRUE(plain.starts_with("long\t0\tc\t1\t60\t2S1M1I1M1I")) << plain.substr(0, 80);
}

// BAM's limit is 65535 ops including the clips; minimap2 counts a clip only where the
// read is clipped, so a CIGAR of 65534 or 65535 ops can still stay in the field.
TEST(SamFormat, LongCigarLimitCountsTheClips) {
  struct Case {
    int n_ops;
    int32_t qs, qe_from_end;
    bool in_tag;
  };
  const Case cases[] = {{65533, 1, 1, false}, {65534, 0, 0, false}, {65534, 1, 0, false}, {65534, 1, 1, true},
                        {65535, 0, 0, false}, {65535, 1, 0, true},  {65536, 0, 0, true}};
  for (const Case& c : cases) {
    std::vector<uint32_t> cigar;
    int32_t qspan = 0;
    for (int i = 0; i < c.n_ops; ++i) {
      const uint32_t op = i % 2 == 0 ? 0u : 1u;  // M I M I ...
      cigar.push_back(cigar::make(1, op));
      ++qspan;
    }
    const std::string seq(static_cast<size_t>(c.qs + qspan + c.qe_from_end), 'A');
    SamRecord r;
    r.qname = "q", r.seq = seq, r.rname = "c", r.qs = c.qs, r.qe = c.qs + qspan, r.cigar = cigar;
    std::string out;
    append_sam_record(out, r, {.soft_clip = false, .long_cigar = true, .rg_id = ""});
    EXPECT_EQ(out.find("\tCG:B:I,") != std::string::npos, c.in_tag)
        << c.n_ops << " ops, clips " << c.qs << "," << c.qe_from_end;
  }
}

// bseq.c's complement table: IUPAC pairs swap, S W N stay, case kept, others unchanged.
TEST(SamFormat, ReverseComplementIupac) {
  // Reversed: N W S H D V B M K Y R T G C A; complemented: N W S D H B V K M R Y A C G T
  // (ACGT is its own reverse complement).
  EXPECT_EQ(reverse_complement("ACGTRYKMBVDHSWNacgtrykmbvdhswn*"), "*nwsdhbvkmryacgtNWSDHBVKMRYACGT");
  EXPECT_EQ(reverse_complement("AACu"), "aGTT");  // U/u complement to A/a
}

}  // namespace
}  // namespace agatha::format
