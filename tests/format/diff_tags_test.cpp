// tests/format/diff_tags_test.cpp — MD:Z and cs:Z (src/format/diff_tags.cpp) against
// minimap2 2.24's own output (tests/data/sam/, see its README): for every record the
// test takes minimap2's CIGAR, cuts the read and the reference to the aligned parts,
// recomputes the tag and requires the same string. Hand-made cases cover what
// minimap2's output rarely shows (a mismatch at either end, adjacent M ops, bad input).
#include "../../src/format/diff_tags.hpp"

#include <agatha/error.hpp>

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "sam_data.hpp"
#include "support/dp.hpp"
#include "support/text.hpp"

namespace agatha::format {
namespace {

using namespace sam_data;
using test::parse_cigar;

// The tag alone, so that a difference names the record and the tag: of every PAF record
// with MD or cs, and of the SAM records of --eqx --MD.
TEST(DiffTags, MdAndCsValuesMatchMinimap2) {
  int checked = 0;
  for (const PafFile& pf : paf_files()) {
    if (pf.kind == DiffTag::kNone) continue;
    const auto refs = load_fasta(pf.data.ref);
    const auto reads = load_fastq(pf.data.reads);
    for (const std::string& line : read_lines(pf.name)) {
      const std::vector<std::string> f = test::split_tabs(line);
      const auto tags = parse_tags(f, 12);
      if (!tags.count("cg")) continue;
      SCOPED_TRACE(pf.name + " " + f[0] + " " + f[5] + ":" + f[7]);
      const Aligned a = aligned_parts(f, tags, refs, reads);
      if (pf.kind == DiffTag::kMd)
        EXPECT_EQ(md_tag_value(a.cigar, a.query, a.target), tags.at("MD"));
      else
        EXPECT_EQ(cs_tag_value(a.cigar, a.query, a.target, pf.kind == DiffTag::kCsLong), tags.at("cs"));
      ++checked;
    }
  }
  EXPECT_EQ(checked, 42);  // 6 + 6 + 6 records per map-pb file and 2 per splice file
  // SAM with --eqx --MD: MD over =/X ops.
  int checked_sam = 0;
  for (const EqxSamRecord& r : eqx_sam_records()) {
    SCOPED_TRACE("n.map-pb-eqx-MD.sam " + r.name);
    EXPECT_EQ(md_tag_value(r.cigar, r.query, r.target), r.md);
    ++checked_sam;
  }
  EXPECT_EQ(checked_sam, 6);
}

// ds:Z (--ds) as minimap2 2.31 writes it, short and (with --cs=long) long, on the same
// reads (tests/data/sam/README.md).
TEST(DiffTags, DsValuesMatchMinimap2_2_31) {
  const std::vector<PafFile> files = {{"map-pb.ds.paf", kTwoRefs, DiffTag::kDsShort, false},
                                      {"map-pb.ds-long.paf", kTwoRefs, DiffTag::kDsLong, false},
                                      {"n.map-pb.ds.paf", kN, DiffTag::kDsShort, false},
                                      {"n.map-pb.ds-long.paf", kN, DiffTag::kDsLong, false},
                                      {"n.splice.ds.paf", kSpliced, DiffTag::kDsShort, false}};
  int checked = 0, bracketed = 0;
  for (const PafFile& pf : files) {
    const auto refs = load_fasta(pf.data.ref);
    const auto reads = load_fastq(pf.data.reads);
    for (const std::string& line : read_lines(pf.name)) {
      const std::vector<std::string> f = test::split_tabs(line);
      const auto tags = parse_tags(f, 12);
      if (!tags.count("cg")) continue;
      SCOPED_TRACE(pf.name + " " + f[0] + " " + f[5] + ":" + f[7]);
      const Aligned a = aligned_parts(f, tags, refs, reads);
      EXPECT_EQ(ds_tag_value(a.cigar, a.query, a.target, pf.kind == DiffTag::kDsLong), tags.at("ds"));
      EXPECT_EQ(diff_tag(pf.kind, a.cigar, a.query, a.target), "ds:Z:" + tags.at("ds"));
      bracketed += tags.at("ds").find('[') != std::string::npos;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 26);
  EXPECT_GT(bracketed, 0);
}

// ---- hand-made cases: the rules of write_MD_core / write_cs_core at the edges ----

std::vector<uint8_t> codes(const std::string& s) { return test::encode(s); }

TEST(DiffTags, MdEdges) {
  // A mismatch first prints a count of 0; a mismatch last prints no trailing 0.
  EXPECT_EQ(md_tag_value(parse_cigar("4M"), codes("TACG"), codes("AACT")), "0A2T");
  // A deletion first: "0^", then the count restarts.
  EXPECT_EQ(md_tag_value(parse_cigar("2D3M"), codes("ACG"), codes("TTACG")), "0^TT3");
  // Insertions do not break the count; N against N and lower case are matches.
  EXPECT_EQ(md_tag_value(parse_cigar("2M2I2M"), codes("AnGGTC"), codes("ANTC")), "4");
  // An N on either side against a base: the reference letter, N for a reference N.
  EXPECT_EQ(md_tag_value(parse_cigar("4M"), codes("ANGT"), codes("ACNT")), "1C0N1");
  // The count carries over an intron.
  EXPECT_EQ(md_tag_value(parse_cigar("2M5N2M"), codes("ACGT"), codes("ACGTAAAGT")), "4");
  // =/X ops count as M.
  EXPECT_EQ(md_tag_value(parse_cigar("2=1X1="), codes("ACTT"), codes("ACGT")), "2G1");
  EXPECT_EQ(md_tag_value({}, {}, {}), "");
}

TEST(DiffTags, CsEdges) {
  const auto q = codes("ACTTA"), t = codes("ACGTA");
  EXPECT_EQ(cs_tag_value(parse_cigar("5M"), q, t, false), ":2*gt:2");
  EXPECT_EQ(cs_tag_value(parse_cigar("5M"), q, t, true), "=AC*gt=TA");
  // Runs do not merge across adjacent M ops.
  EXPECT_EQ(cs_tag_value(parse_cigar("2M3M"), q, t, false), ":2*gt:2");
  EXPECT_EQ(cs_tag_value(parse_cigar("1M1M"), codes("AC"), codes("AC"), false), ":1:1");
  // Mismatch first and last; N in either sequence; long form prints the query's N.
  EXPECT_EQ(cs_tag_value(parse_cigar("4M"), codes("TNAC"), codes("ANAG"), false), "*at:2*gc");
  EXPECT_EQ(cs_tag_value(parse_cigar("4M"), codes("TNac"), codes("ANAG"), true), "*at=NA*gc");
  // Indels in lower case, an intron with its splice sites.
  EXPECT_EQ(cs_tag_value(parse_cigar("1M2I1M2D1M"), codes("ANNCG"), codes("ACTTG"), false), ":1+nn:1-tt:1");
  EXPECT_EQ(cs_tag_value(parse_cigar("1M6N1M"), codes("AC"), codes("AGTAAAGC"), false), ":1~gt6ag:1");
  EXPECT_THROW(cs_tag_value(parse_cigar("1M1N1M"), codes("AC"), codes("AGC"), false), Error);
}

// ds: an indel's bases it shares with the bases after it ("[first]") or before it
// ("[last]"); both covering it bracket it whole; the flanks stop at the alignment's ends.
TEST(DiffTags, DsIndelFlanks) {
  // AC inserted into ACAC: shiftable both ways -> whole.
  EXPECT_EQ(ds_tag_value(parse_cigar("2M2I2M"), codes("ACACAC"), codes("ACAC"), false), ":2+[ac]:2");
  // G inserted between T and C: no shared base -> plain.
  EXPECT_EQ(ds_tag_value(parse_cigar("2M1I2M"), codes("ATGCA"), codes("ATCA"), false), ":2+g:2");
  // GCCAT inserted between AT and GC: its first two bases equal the two after it, its
  // last two the two before it -> [gc], c, [at].
  EXPECT_EQ(ds_tag_value(parse_cigar("2M5I2M"), codes("ATGCCATGC"), codes("ATGC"), false), ":2+[gc]c[at]:2");
  // GAT between AT and GC: [g] and [at] cover it -> bracketed whole.
  EXPECT_EQ(ds_tag_value(parse_cigar("2M3I2M"), codes("ATGATGC"), codes("ATGC"), false), ":2+[gat]:2");
  // GTC inserted after A, before GA: first base G shared with the next; middle, last plain.
  EXPECT_EQ(ds_tag_value(parse_cigar("1M3I2M"), codes("AGTCGA"), codes("AGA"), false), ":1+[g]tc:2");
  // TT deleted after AT: its last base equals the one before it; the flank after it
  // stops at the alignment's end (first case) or at G.
  EXPECT_EQ(ds_tag_value(parse_cigar("2M2D"), codes("AT"), codes("ATTT"), false), ":2-t[t]");
  EXPECT_EQ(ds_tag_value(parse_cigar("2M2D1M"), codes("ATG"), codes("ATTTG"), false), ":2-t[t]:1");
  EXPECT_EQ(ds_tag_value(parse_cigar("1M3D1M"), codes("CG"), codes("CATTG"), false), ":1-att:1");
  // Long form keeps cs's "=" runs.
  EXPECT_EQ(ds_tag_value(parse_cigar("2M2I2M"), codes("ACACAC"), codes("ACAC"), true), "=AC+[ac]=AC");
}

TEST(DiffTags, DiffTagChoice) {
  EXPECT_EQ(diff_tag_kind(false, false, false, true), DiffTag::kDsShort);
  EXPECT_EQ(diff_tag_kind(false, true, true, true), DiffTag::kDsLong);
  EXPECT_EQ(diff_tag_kind(true, true, false, true), DiffTag::kMd);
  EXPECT_EQ(diff_tag_kind(true, true, true), DiffTag::kMd);
  EXPECT_EQ(diff_tag_kind(false, true, false), DiffTag::kCsShort);
  EXPECT_EQ(diff_tag_kind(false, true, true), DiffTag::kCsLong);
  EXPECT_EQ(diff_tag_kind(false, false, false), DiffTag::kNone);
  const auto q = codes("ACTT"), t = codes("ACGT");
  EXPECT_EQ(diff_tag(DiffTag::kMd, parse_cigar("4M"), q, t), "MD:Z:2G1");
  EXPECT_EQ(diff_tag(DiffTag::kCsShort, parse_cigar("4M"), q, t), "cs:Z::2*gt:1");
  EXPECT_EQ(diff_tag(DiffTag::kCsLong, parse_cigar("4M"), q, t), "cs:Z:=AC*gt=T");
  EXPECT_EQ(diff_tag(DiffTag::kNone, parse_cigar("4M"), q, t), "");
}

TEST(DiffTags, BadCigarThrows) {
  const auto q = codes("ACGT");
  EXPECT_THROW(md_tag_value(parse_cigar("3M"), q, q), Error);           // spans 3, not 4
  EXPECT_THROW(cs_tag_value(parse_cigar("1S3M"), q, q, false), Error);  // a clip
  try {
    (void)md_tag_value(parse_cigar("2M1H2M"), q, q);
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'H'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace agatha::format
