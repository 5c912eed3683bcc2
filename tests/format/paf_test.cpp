// tests/format/paf_test.cpp — `-c` PAF lines (src/format/paf.cpp) against minimap2 2.24's
// own output (tests/data/sam/, see its README): the test rebuilds each whole file, with
// mlen/blen/NM/nn/de recomputed from the alignment, the MD/cs tag or --eqx CIGAR from the
// sequences, and the scores (ms, AS, s1, ...) copied from minimap2's line; and the tags'
// order on a hand-made record.
#include "../../src/format/paf.hpp"

#include <gtest/gtest.h>

#include <map>
#include <span>
#include <string>
#include <vector>

#include "../../src/align/cigar_fix.hpp"
#include "../../src/format/diff_tags.hpp"
#include "sam_data.hpp"
#include "support/dp.hpp"
#include "support/files.hpp"
#include "support/text.hpp"

namespace agatha::format {
namespace {

using namespace sam_data;
using test::parse_cigar;

// The line rebuilt: alignment statistics and the tag from the sequences, scores from
// minimap2's line.
std::string rebuild_paf_line(const std::string& line, const PafFile& pf, const std::map<std::string, std::string>& refs,
                             const std::map<std::string, Read>& reads) {
  const std::vector<std::string> f = test::split_tabs(line);
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
  const std::vector<uint32_t> eqx = align::eqx_cigar(a.m_cigar, a.query, a.target);
  r.cigar = pf.name.find("eqx") != std::string::npos ? std::span<const uint32_t>(eqx) : a.m_cigar;
  r.diff_tag = diff;
  if (pf.comment) r.comment = reads.at(f[0]).comment;
  append_paf(out, r);
  return out;
}

TEST(Paf, LinesMatchMinimap2) {
  for (const PafFile& pf : paf_files()) {
    SCOPED_TRACE(pf.name);
    const auto refs = load_fasta(pf.data.ref);
    const auto reads = load_fastq(pf.data.reads);
    const std::vector<std::string> lines = read_lines(pf.name);
    ASSERT_FALSE(lines.empty());
    std::string rebuilt;
    for (const std::string& line : lines) rebuilt += rebuild_paf_line(line, pf, refs, reads);
    EXPECT_EQ(rebuilt, test::read_file(data_path(pf.name)));
  }
}

TEST(Paf, TagsInOrder) {
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
