// tests/sam/aln_tags_test.cpp — MD:Z, cs:Z, --eqx CIGARs and `-c` PAF lines against
// minimap2 2.24's own output (tests/data/sam/, see its README). For every record the
// test takes minimap2's CIGAR, cuts the read and the reference to the aligned parts,
// recomputes the tag or CIGAR and requires the same string; the PAF test rebuilds each
// whole file, with mlen/blen/NM/nn/de recomputed from the alignment and the scores
// (ms, AS, s1, ...) copied from minimap2's line. Hand-made cases cover what minimap2's
// output rarely shows (a mismatch at either end, adjacent M ops, bad input).
#include <gtest/gtest.h>

#include <agatha/error.hpp>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../../src/align/cigar_fix.hpp"
#include "../../src/format/diff_tags.hpp"
#include "../../src/format/paf.hpp"
#include "../test_support.hpp"

namespace agatha::format {
namespace {

using align::eqx_cigar;

std::string data_path(const std::string& name) { return test::source_path("tests/data/sam/" + name); }

std::vector<std::string> read_lines(const std::string& name) {
  std::ifstream in(data_path(name));
  EXPECT_TRUE(in) << "cannot open " << name;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string read_text(const std::string& name) {
  std::ifstream in(data_path(name));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> f;
  std::stringstream ss(line);
  for (std::string x; std::getline(ss, x, '\t');) f.push_back(x);
  return f;
}

// FASTA (multi-line): name up to the first space -> sequence.
std::map<std::string, std::string> load_fasta(const std::string& name) {
  std::map<std::string, std::string> seqs;
  std::string* cur = nullptr;
  for (const std::string& line : read_lines(name)) {
    if (line[0] == '>')
      cur = &seqs[line.substr(1, line.find(' ') - 1)];
    else if (cur)
      *cur += line;
  }
  return seqs;
}

struct Read {
  std::string seq, comment;
};

// Four-line FASTQ: name up to the first space, the rest the comment.
std::map<std::string, Read> load_fastq(const std::string& name) {
  const std::vector<std::string> lines = read_lines(name);
  std::map<std::string, Read> reads;
  for (size_t i = 0; i + 3 < lines.size(); i += 4) {
    const size_t sp = lines[i].find(' ');
    const std::string comment = sp == std::string::npos ? "" : lines[i].substr(sp + 1);
    reads[lines[i].substr(1, sp == std::string::npos ? std::string::npos : sp - 1)] = {lines[i + 1], comment};
  }
  return reads;
}

using test::parse_cigar;

// An =/X CIGAR with each =/X run merged back into one M (what --eqx started from).
std::vector<uint32_t> collapse_eqx(const std::vector<uint32_t>& cigar) {
  std::vector<uint32_t> out;
  for (uint32_t c : cigar) {
    uint32_t op = cigar::op(c);
    if (op == 7 || op == 8) op = cigar::kMatch;
    if (!out.empty() && op == cigar::kMatch && cigar::op(out.back()) == cigar::kMatch)
      out.back() += cigar::len(c) << 4;
    else
      out.push_back(cigar::make(cigar::len(c), op));
  }
  return out;
}

std::vector<uint8_t> revcomp(std::vector<uint8_t> s) {
  std::reverse(s.begin(), s.end());
  for (uint8_t& c : s) c = c < 4 ? static_cast<uint8_t>(3 - c) : 4;
  return s;
}

// The tags of a PAF or SAM line from field `first` on: "NM" -> "9", "cg" -> "60M...".
std::map<std::string, std::string> parse_tags(const std::vector<std::string>& f, size_t first) {
  std::map<std::string, std::string> tags;
  for (size_t i = first; i < f.size(); ++i)
    if (f[i].size() > 5 && f[i][2] == ':' && f[i][4] == ':') tags[f[i].substr(0, 2)] = f[i].substr(5);
  return tags;
}

// One data set: reference, reads, and the files minimap2 made from them.
struct DataSet {
  std::string ref, reads;
};
const DataSet kTwoRefs{"two_refs.fa", "reads.fq"}, kN{"n_ref.fa", "n_reads.fq"}, kSpliced{"n_ref.fa", "n_spliced.fq"};

struct PafFile {
  std::string name;
  DataSet data;
  DiffTag kind;
  bool comment;  // run with -y
};

const std::vector<PafFile>& paf_files() {
  static const std::vector<PafFile> files = {
      {"map-pb.cs.paf", kTwoRefs, DiffTag::kCsShort, false},
      {"map-pb.cs-long.paf", kTwoRefs, DiffTag::kCsLong, false},
      {"map-pb.MD-y-nohit.paf", kTwoRefs, DiffTag::kMd, true},
      {"map-pb.eqx.paf", kTwoRefs, DiffTag::kNone, false},
      {"n.map-pb.cs.paf", kN, DiffTag::kCsShort, false},
      {"n.map-pb.cs-long.paf", kN, DiffTag::kCsLong, false},
      {"n.map-pb.MD-y-nohit.paf", kN, DiffTag::kMd, true},
      {"n.map-pb.eqx.paf", kN, DiffTag::kNone, false},
      {"n.splice.cs.paf", kSpliced, DiffTag::kCsShort, false},
      {"n.splice.cs-long.paf", kSpliced, DiffTag::kCsLong, false},
      {"n.splice.MD.paf", kSpliced, DiffTag::kMd, false},
  };
  return files;
}

// A PAF line's alignment: the CIGAR as printed and as M ops, the aligned sequences.
struct Aligned {
  std::vector<uint32_t> cigar, m_cigar;
  std::vector<uint8_t> query, target;
};

Aligned aligned_parts(const std::vector<std::string>& f, const std::map<std::string, std::string>& tags,
                      const std::map<std::string, std::string>& refs, const std::map<std::string, Read>& reads) {
  Aligned a;
  a.cigar = parse_cigar(tags.at("cg"));
  a.m_cigar = collapse_eqx(a.cigar);
  const int qs = std::stoi(f[2]), qe = std::stoi(f[3]), rs = std::stoi(f[7]), re = std::stoi(f[8]);
  a.query = test::encode(reads.at(f[0]).seq.substr(qs, qe - qs));
  if (f[4] == "-") a.query = revcomp(a.query);
  a.target = test::encode(refs.at(f[5]).substr(rs, re - rs));
  return a;
}

// The line rebuilt: alignment statistics and the tag from the sequences, scores from
// minimap2's line.
std::string rebuild_paf_line(const std::string& line, const PafFile& pf, const std::map<std::string, std::string>& refs,
                             const std::map<std::string, Read>& reads) {
  const std::vector<std::string> f = split_tabs(line);
  const std::map<std::string, std::string> tags = parse_tags(f, 12);
  std::string out;
  if (f[4] == "*") {
    append_paf_unmapped(out, f[0], std::stoi(f[1]), std::stoi(tags.at("rl")));
    return out;
  }
  const Aligned a = aligned_parts(f, tags, refs, reads);
  const align::AlignmentStats st = align::alignment_stats(a.m_cigar, a.query, a.target, {});
  const std::string diff = diff_tag(pf.kind, a.cigar, a.query, a.target);
  PafRecord r;
  r.qname = f[0], r.qlen = std::stoi(f[1]), r.qs = std::stoi(f[2]), r.qe = std::stoi(f[3]), r.rev = f[4] == "-";
  r.rname = f[5], r.rlen = std::stoi(f[6]), r.rs = std::stoi(f[7]), r.re = std::stoi(f[8]);
  r.mlen = st.mlen, r.blen = st.blen, r.mapq = std::stoi(f[11]);
  r.tags.nm = align::edit_distance(st), r.tags.ms = std::stoi(tags.at("ms")), r.tags.as = std::stoi(tags.at("AS"));
  r.tags.nn = st.n_ambi;
  if (tags.count("ts")) r.tags.ts = tags.at("ts")[0];
  r.tags.tp = tags.at("tp")[0], r.tags.cm = std::stoi(tags.at("cm")), r.tags.s1 = std::stoi(tags.at("s1"));
  if (tags.count("s2")) r.tags.s2 = std::stoi(tags.at("s2"));
  r.tags.de = align::divergence(st);
  if (tags.count("zd")) r.tags.zd = std::stoi(tags.at("zd"));
  r.rl = std::stoi(tags.at("rl"));
  const std::vector<uint32_t> eqx = eqx_cigar(a.m_cigar, a.query, a.target);
  r.cigar = pf.name.find("eqx") != std::string::npos ? std::span<const uint32_t>(eqx) : a.m_cigar;
  r.diff_tag = diff;
  if (pf.comment) r.comment = reads.at(f[0]).comment;
  append_paf(out, r);
  return out;
}

TEST(AlnTags, PafLinesMatchMinimap2) {
  for (const PafFile& pf : paf_files()) {
    SCOPED_TRACE(pf.name);
    const auto refs = load_fasta(pf.data.ref);
    const auto reads = load_fastq(pf.data.reads);
    const std::vector<std::string> lines = read_lines(pf.name);
    ASSERT_FALSE(lines.empty());
    std::string rebuilt;
    for (const std::string& line : lines) rebuilt += rebuild_paf_line(line, pf, refs, reads);
    EXPECT_EQ(rebuilt, read_text(pf.name));
  }
}

// The tag alone, so that a difference names the record and the tag.
TEST(AlnTags, MdAndCsValuesMatchMinimap2) {
  int checked = 0;
  for (const PafFile& pf : paf_files()) {
    if (pf.kind == DiffTag::kNone) continue;
    const auto refs = load_fasta(pf.data.ref);
    const auto reads = load_fastq(pf.data.reads);
    for (const std::string& line : read_lines(pf.name)) {
      const std::vector<std::string> f = split_tabs(line);
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
}

// SAM with --eqx --MD: MD over =/X ops, and the =/X CIGAR from its M form. SEQ is on the
// alignment strand already; the soft clips are cut off.
TEST(AlnTags, EqxSamMatchesMinimap2) {
  const auto refs = load_fasta("n_ref.fa");
  int checked = 0;
  for (const std::string& line : read_lines("n.map-pb-eqx-MD.sam")) {
    if (line[0] == '@') continue;
    const std::vector<std::string> f = split_tabs(line);
    SCOPED_TRACE(f[0]);
    std::vector<uint32_t> cigar = parse_cigar(f[5]);
    size_t clip5 = 0;
    if (cigar::op(cigar.front()) == cigar::kSoftClip)
      clip5 = cigar::len(cigar.front()), cigar.erase(cigar.begin());
    if (cigar::op(cigar.back()) == cigar::kSoftClip) cigar.pop_back();
    int64_t qlen = 0, tlen = 0;
    for (uint32_t c : cigar) {
      const uint32_t op = cigar::op(c);
      if (op != cigar::kDel) qlen += cigar::len(c);
      if (op != cigar::kIns) tlen += cigar::len(c);
    }
    const std::vector<uint8_t> query = test::encode(f[9].substr(clip5, qlen));
    const std::vector<uint8_t> target = test::encode(refs.at(f[2]).substr(std::stoi(f[3]) - 1, tlen));
    EXPECT_EQ(md_tag_value(cigar, query, target), parse_tags(f, 11).at("MD"));
    EXPECT_EQ(eqx_cigar(collapse_eqx(cigar), query, target), cigar);
    ++checked;
  }
  EXPECT_EQ(checked, 6);
}

// ---- hand-made cases: the rules of write_MD_core / write_cs_core at the edges ----

std::vector<uint8_t> codes(const std::string& s) { return test::encode(s); }

TEST(AlnTags, MdEdges) {
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

TEST(AlnTags, CsEdges) {
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

TEST(AlnTags, Eqx) {
  // N against N is "=", as in minimap2 (codes compare equal); other ops are copied.
  EXPECT_EQ(eqx_cigar(parse_cigar("3M1I2M"), codes("ANTGCA"), codes("ANGCC")), parse_cigar("2=1X1I1=1X"));
  EXPECT_EQ(eqx_cigar(parse_cigar("2M2D1M"), codes("TAC"), codes("AATTC")), parse_cigar("1X1=2D1="));
  // Adjacent M ops stay apart.
  EXPECT_EQ(eqx_cigar(parse_cigar("1M1M"), codes("AC"), codes("AC")), parse_cigar("1=1="));
}

TEST(AlnTags, DiffTagChoice) {
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

TEST(AlnTags, BadCigarThrows) {
  const auto q = codes("ACGT");
  EXPECT_THROW(md_tag_value(parse_cigar("3M"), q, q), Error);           // spans 3, not 4
  EXPECT_THROW(cs_tag_value(parse_cigar("1S3M"), q, q, false), Error);  // a clip
  EXPECT_THROW(eqx_cigar(parse_cigar("4M1D"), q, q), Error);            // target too short
  try {
    (void)md_tag_value(parse_cigar("2M1H2M"), q, q);
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'H'"), std::string::npos) << e.what();
  }
}

TEST(AlnTags, PafTagsInOrder) {
  const std::vector<uint32_t> cigar = parse_cigar("5M");
  PafRecord r;
  r.qname = "q", r.qlen = 7, r.qs = 1, r.qe = 6, r.rev = true, r.rname = "r", r.rlen = 9, r.rs = 2, r.re = 7;
  r.mlen = 5, r.blen = 5, r.mapq = 3;
  r.tags.nm = 0, r.tags.ms = 10, r.tags.as = 10, r.tags.nn = 0, r.tags.ts = '-', r.tags.tp = 'i', r.tags.cm = 2;
  r.tags.s1 = 4, r.tags.de = 0.5, r.tags.zd = 3, r.rl = 11, r.cigar = cigar, r.diff_tag = "cs:Z::5", r.comment = "c x";
  std::string out;
  append_paf(out, r);
  EXPECT_EQ(out,
            "q\t7\t1\t6\t-\tr\t9\t2\t7\t5\t5\t3\tNM:i:0\tms:i:10\tAS:i:10\tnn:i:0\tts:A:-\ttp:A:i\tcm:i:2\ts1:i:4\t"
            "de:f:0.5000\tzd:i:3\trl:i:11\tcg:Z:5M\tcs:Z::5\tc x\n");
  out.clear();
  append_paf_unmapped(out, "u", 80, 7);
  EXPECT_EQ(out, "u\t80\t0\t0\t*\t*\t0\t0\t0\t0\t0\t0\trl:i:7\n");
}

}  // namespace
}  // namespace agatha::format
