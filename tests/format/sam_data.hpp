// tests/format/sam_data.hpp — minimap2's `-c` PAF files and `--eqx --MD` SAM of
// tests/data/sam/ (see its README) and the alignment each line describes, for
// paf_test.cpp, diff_tags_test.cpp and tests/align/cigar_fix_test.cpp.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <agatha/cigar.hpp>

#include "../../src/format/diff_tags.hpp"
#include "support/dp.hpp"
#include "support/files.hpp"
#include "support/paths.hpp"
#include "support/text.hpp"

namespace agatha::format::sam_data {

inline std::string data_path(const std::string& name) { return test::source_path("tests/data/sam/" + name); }

// The lines of a file of tests/data/sam/, without their '\n'.
inline std::vector<std::string> read_lines(const std::string& name) {
  EXPECT_TRUE(std::filesystem::exists(data_path(name))) << "cannot open " << name;
  return test::read_lines(data_path(name));
}

struct Read {
  std::string seq, comment;
};

// Four-line FASTQ: name up to the first space, the rest the comment.
inline std::map<std::string, Read> load_fastq(const std::string& name) {
  const std::vector<std::string> lines = read_lines(name);
  std::map<std::string, Read> reads;
  for (size_t i = 0; i + 3 < lines.size(); i += 4) {
    const size_t sp = lines[i].find(' ');
    const std::string comment = sp == std::string::npos ? "" : lines[i].substr(sp + 1);
    reads[lines[i].substr(1, sp == std::string::npos ? std::string::npos : sp - 1)] = {lines[i + 1], comment};
  }
  return reads;
}

inline std::map<std::string, std::string> load_fasta(const std::string& name) {
  EXPECT_TRUE(std::filesystem::exists(data_path(name))) << "cannot open " << name;
  return test::read_fasta(data_path(name));
}

inline std::vector<uint8_t> revcomp(std::vector<uint8_t> s) {
  std::reverse(s.begin(), s.end());
  for (uint8_t& c : s) c = c < 4 ? static_cast<uint8_t>(3 - c) : 4;
  return s;
}

// The tags of a PAF or SAM line from field `first` on: "NM" -> "9", "cg" -> "60M...".
inline std::map<std::string, std::string> parse_tags(const std::vector<std::string>& f, size_t first) {
  std::map<std::string, std::string> tags;
  for (size_t i = first; i < f.size(); ++i)
    if (f[i].size() > 5 && f[i][2] == ':' && f[i][4] == ':') tags[f[i].substr(0, 2)] = f[i].substr(5);
  return tags;
}

// One data set: reference, reads, and the files minimap2 made from them.
struct DataSet {
  std::string ref, reads;
};
inline const DataSet kTwoRefs{"two_refs.fa", "reads.fq"}, kN{"n_ref.fa", "n_reads.fq"},
    kSpliced{"n_ref.fa", "n_spliced.fq"};

struct PafFile {
  std::string name;
  DataSet data;
  DiffTag kind;
  bool comment;  // run with -y
};

inline const std::vector<PafFile>& paf_files() {
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

inline Aligned aligned_parts(const std::vector<std::string>& f, const std::map<std::string, std::string>& tags,
                             const std::map<std::string, std::string>& refs, const std::map<std::string, Read>& reads) {
  Aligned a;
  a.cigar = test::parse_cigar(tags.at("cg"));
  a.m_cigar = test::collapse_eqx(a.cigar);
  const int qs = std::stoi(f[2]), qe = std::stoi(f[3]), rs = std::stoi(f[7]), re = std::stoi(f[8]);
  a.query = test::encode(reads.at(f[0]).seq.substr(qs, qe - qs));
  if (f[4] == "-") a.query = revcomp(a.query);
  a.target = test::encode(refs.at(f[5]).substr(rs, re - rs));
  return a;
}

// A record of n.map-pb-eqx-MD.sam (`minimap2 -ax map-pb --eqx --MD n_ref.fa
// n_reads.fq`): its =/X CIGAR without the soft clips, the aligned query (SEQ is on the
// alignment strand already) and target, and its MD value.
struct EqxSamRecord {
  std::string name;
  std::vector<uint32_t> cigar;
  std::vector<uint8_t> query, target;
  std::string md;
};

inline std::vector<EqxSamRecord> eqx_sam_records() {
  const auto refs = load_fasta("n_ref.fa");
  std::vector<EqxSamRecord> out;
  for (const std::string& line : read_lines("n.map-pb-eqx-MD.sam")) {
    if (line[0] == '@') continue;
    const std::vector<std::string> f = test::split_tabs(line);
    std::vector<uint32_t> cigar = test::parse_cigar(f[5]);
    size_t clip5 = 0;
    if (cigar::op(cigar.front()) == cigar::kSoftClip) clip5 = cigar::len(cigar.front()), cigar.erase(cigar.begin());
    if (cigar::op(cigar.back()) == cigar::kSoftClip) cigar.pop_back();
    int64_t qlen = 0, tlen = 0;
    for (uint32_t c : cigar) {
      const uint32_t op = cigar::op(c);
      if (op != cigar::kDel) qlen += cigar::len(c);
      if (op != cigar::kIns) tlen += cigar::len(c);
    }
    out.push_back({f[0], cigar, test::encode(f[9].substr(clip5, qlen)),
                   test::encode(refs.at(f[2]).substr(std::stoi(f[3]) - 1, tlen)), parse_tags(f, 11).at("MD")});
  }
  return out;
}

}  // namespace agatha::format::sam_data
