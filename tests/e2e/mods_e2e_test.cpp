// tests/e2e/mods_e2e_test.cpp — base modifications (MM/ML) of reads read from an
// unaligned BAM (tests/data/e2e/mods.bam: 12 ONT reads and 4 chimeras, whose
// supplementary records are hard-clipped without -Y) and copied to the output by -y.
//
// minimap2 copies MM/ML as they are, so on a hard-clipped record they count bases SEQ
// does not hold; agatha rewrites them for SEQ and adds MN:i. Here htslib's own decoding
// (bam_parse_basemod, bam_next_basemod) is the referee: on every hard-clipped record of
// the default output, the modifications it finds — placed on the reference through the
// CIGAR, with their strand, code and probability — are those it finds on the same bases
// of the -Y output's record (soft clips, whole read, the tags minimap2 writes), and
// MN:i is SEQ's length. htslib must accept every record of both outputs.
#include <gtest/gtest.h>
#include <htslib/sam.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "support/files.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace agatha {
namespace {

namespace fs = std::filesystem;

// A modification call placed on the reference: (reference position, index within an
// insertion after it: 0 for an aligned base), strand, code, probability.
using Call = std::tuple<int64_t, int, int, int, int>;

struct Record {
  std::string qname, cigar_no_clips;
  int flag = 0;
  int64_t pos = 0;
  bool hard = false;
  int64_t mn = -1;  // MN:i, -1 if absent
  int32_t seq_len = 0;
  bool has_mm = false;
  std::set<Call> calls;  // on aligned or inserted bases (clipped bases left out)
};

std::string cigar_without_clips(const bam1_t* b) {
  std::string s;
  const uint32_t* c = bam_get_cigar(b);
  for (uint32_t i = 0; i < b->core.n_cigar; ++i) {
    const int op = bam_cigar_op(c[i]);
    if (op == BAM_CSOFT_CLIP || op == BAM_CHARD_CLIP) continue;
    s += std::to_string(bam_cigar_oplen(c[i])) + BAM_CIGAR_STR[op];
  }
  return s;
}

// Every record of a SAM file, with the calls htslib decodes from it.
std::vector<Record> decode(const std::string& path) {
  std::vector<Record> out;
  samFile* fp = sam_open(path.c_str(), "r");
  EXPECT_NE(fp, nullptr) << path;
  if (!fp) return out;
  sam_hdr_t* hdr = sam_hdr_read(fp);
  EXPECT_NE(hdr, nullptr) << path;
  bam1_t* b = bam_init1();
  hts_base_mod_state* state = hts_base_mod_state_alloc();
  int r;
  while (hdr && (r = sam_read1(fp, hdr, b)) >= 0) {
    Record rec;
    rec.qname = bam_get_qname(b);
    rec.flag = b->core.flag;
    rec.pos = b->core.pos;
    rec.seq_len = b->core.l_qseq;
    rec.cigar_no_clips = cigar_without_clips(b);
    const uint32_t* c = bam_get_cigar(b);
    for (uint32_t i = 0; i < b->core.n_cigar; ++i) rec.hard |= bam_cigar_op(c[i]) == BAM_CHARD_CLIP;
    if (const uint8_t* mn = bam_aux_get(b, "MN")) rec.mn = bam_aux2i(mn);
    rec.has_mm = bam_aux_get(b, "MM") != nullptr;
    if (rec.has_mm && !(rec.flag & BAM_FUNMAP)) {
      EXPECT_EQ(bam_parse_basemod(b, state), 0) << path << ": htslib cannot parse MM/ML of " << rec.qname;
      // SEQ index -> reference key, through the CIGAR.
      std::vector<std::pair<int64_t, int>> key(static_cast<size_t>(b->core.l_qseq), {-1, -1});
      int64_t rpos = b->core.pos;
      int32_t q = 0;
      for (uint32_t i = 0; i < b->core.n_cigar; ++i) {
        const int op = bam_cigar_op(c[i]);
        const auto len = static_cast<int32_t>(bam_cigar_oplen(c[i]));
        if (op == BAM_CMATCH || op == BAM_CEQUAL || op == BAM_CDIFF) {
          for (int32_t k = 0; k < len; ++k) key[static_cast<size_t>(q + k)] = {rpos + k, 0};
          q += len, rpos += len;
        } else if (op == BAM_CINS) {
          for (int32_t k = 0; k < len; ++k) key[static_cast<size_t>(q + k)] = {rpos, k + 1};
          q += len;
        } else if (op == BAM_CSOFT_CLIP) {
          q += len;
        } else if (op == BAM_CDEL || op == BAM_CREF_SKIP) {
          rpos += len;
        }
      }
      hts_base_mod mods[8];
      int qpos = 0, n;
      while ((n = bam_next_basemod(b, state, mods, 8, &qpos)) > 0) {
        const auto [rp, ins] = key[static_cast<size_t>(qpos)];
        if (rp < 0) continue;  // a soft-clipped base
        for (int j = 0; j < n && j < 8; ++j)
          rec.calls.emplace(rp, ins, mods[j].strand, mods[j].modified_base, mods[j].qual);
      }
      EXPECT_GE(n, 0) << path << ": htslib failed decoding the modifications of " << rec.qname;
    }
    out.push_back(std::move(rec));
  }
  EXPECT_EQ(r, -1) << path << ": htslib rejects a record after " << out.size();
  hts_base_mod_state_free(state);
  bam_destroy1(b);
  if (hdr) sam_hdr_destroy(hdr);
  sam_close(fp);
  return out;
}

class ModsE2e : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("agatha-mods-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // agatha align OPTIONS on the ONT reference and mods.bam, its SAM in dir_/NAME.
  std::string align(const std::string& options, const std::string& name) {
    const std::string out = (dir_ / name).string();
    const auto r = test::run_agatha("align " + options + " -a -y -x map-ont " +
                                    test::quoted_source_path("tests/data/e2e/ont.ref.fa.gz") + " " +
                                    test::quoted_source_path("tests/data/e2e/mods.bam") + " > " +
                                    test::shell_quote(out) + " 2> " + test::shell_quote(out + ".log"));
    EXPECT_EQ(r.code, 0) << test::read_file(out + ".log");
    return out;
  }
  fs::path dir_;
};

TEST_F(ModsE2e, HardClippedRecordsKeepTheModificationsOfTheirBases) {
  for (const std::string release : {"--compat 2.24", "--compat 2.31"}) {
    SCOPED_TRACE(release);
    const auto hard = decode(align(release, "hard.sam"));
    const auto soft = decode(align(release + " -Y", "soft.sam"));
    ASSERT_EQ(hard.size(), soft.size());
    std::map<std::tuple<std::string, int, int64_t, std::string>, const Record*> by_alignment;
    for (const Record& r : soft) by_alignment[{r.qname, r.flag, r.pos, r.cigar_no_clips}] = &r;
    int checked = 0;
    size_t calls = 0;
    for (const Record& h : hard) {
      if (!h.hard) {
        EXPECT_EQ(h.mn, -1) << h.qname << ": MN:i on a record that is not hard-clipped";
        continue;
      }
      const auto it = by_alignment.find({h.qname, h.flag, h.pos, h.cigar_no_clips});
      ASSERT_NE(it, by_alignment.end()) << h.qname << ": no -Y record of the same alignment";
      const Record& s = *it->second;
      if (!h.has_mm) {
        EXPECT_FALSE(s.has_mm) << h.qname;
        continue;
      }
      EXPECT_EQ(h.mn, h.seq_len) << h.qname << ": MN:i is not SEQ's length";
      EXPECT_EQ(h.calls, s.calls) << h.qname << " (flag " << h.flag << "): the modifications htslib decodes differ";
      ++checked, calls += h.calls.size();
    }
    // The data has hard-clipped records with modifications on both strands.
    EXPECT_GE(checked, 3);
    EXPECT_GT(calls, 100u);
  }
}

}  // namespace
}  // namespace agatha
