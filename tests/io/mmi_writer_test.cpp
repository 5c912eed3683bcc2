// Writing minimap2's .mmi (io::write_mmi): agatha's index of a reference, written as an
// .mmi, is byte for byte the file minimap2 2.24 -d writes for the same reference and
// options (tests/data/mmi/dump, made by tests/data/mmi/make-dumps.sh, and
// tests/data/mmi/small.*.mmi): presets with and without HPC, -k/-w, --idx-no-seq, few
// bucket bits (hundreds of keys in each bucket's hash table, which grows several times
// as they go in), a multi-part index written part after part, and an index loaded from
// an .mmi written again. What the format cannot hold is an InputError.
#include "../../src/index/index.hpp"
#include "../../src/io/index_file.hpp"
#include "../../src/io/mmi_file.hpp"

#include <agatha/error.hpp>

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "support/errors.hpp"
#include "support/files.hpp"
#include "support/paths.hpp"

namespace agatha::io {
namespace {

namespace fs = std::filesystem;
using index::MinimizerIndex;

// The .mmi image of idx, as write_mmi hands it over.
std::string mmi_image(const MinimizerIndex& idx, bool with_bases = true, int threads = 1) {
  std::string image;
  write_mmi(
      idx, with_bases, [&image](std::span<const uint8_t> b) { image.append(b.begin(), b.end()); }, threads);
  return image;
}

// The byte where two images first differ, for a message.
std::string first_difference(const std::string& want, const std::string& got) {
  if (want == got) return "";
  size_t i = 0;
  while (i < want.size() && i < got.size() && want[i] == got[i]) ++i;
  return "sizes " + std::to_string(want.size()) + " and " + std::to_string(got.size()) + ", first difference at byte " +
         std::to_string(i);
}

struct DumpCase {
  const char* fixture;  // under tests/data/mmi/dump, gzipped
  const char* preset;   // nullptr: map-ont's defaults
  int k = 0, w = 0, bucket_bits = 14;
  bool with_bases = true;
  friend void PrintTo(const DumpCase& c, std::ostream* os) { *os << c.fixture; }
};

class MmiWrite : public ::testing::TestWithParam<DumpCase> {};

// data/ref.fa indexed by agatha with the options of make-dumps.sh, written as an .mmi:
// minimap2's file.
TEST_P(MmiWrite, EqualsMinimap2sFile) {
  const DumpCase& c = GetParam();
  AlignOptions opt;
  if (c.preset) opt.apply_preset(c.preset);
  if (c.k) opt.k = c.k;
  if (c.w) opt.w = c.w;
  opt.bucket_bits = c.bucket_bits;
  const std::string want = test::read_gz(test::source_path(std::string("tests/data/mmi/dump/") + c.fixture));
  ASSERT_GT(want.size(), 40000u) << "every minimizer of 16 kb of bases";
  const MinimizerIndex idx = build_index_from_file(test::source_path("data/ref.fa"), opt);
  EXPECT_EQ(first_difference(want, mmi_image(idx, c.with_bases)), "");
  EXPECT_EQ(first_difference(want, mmi_image(idx, c.with_bases, 3)), "") << "on 3 threads";
}

INSTANTIATE_TEST_SUITE_P(
    Dumps, MmiWrite,
    ::testing::Values(DumpCase{"ref.map-ont.mmi.gz", "map-ont"}, DumpCase{"ref.map-pb.mmi.gz", "map-pb"},
                      DumpCase{"ref.sr.mmi.gz", "sr"}, DumpCase{"ref.asm5.mmi.gz", "asm5"},
                      DumpCase{"ref.splice.mmi.gz", "splice"},
                      DumpCase{"ref.map-ont.noseq.mmi.gz", "map-ont", 0, 0, 14, false},
                      DumpCase{"ref.k17w7b4.mmi.gz", nullptr, 17, 7, 4}),
    [](const auto& info) {
      std::string s = info.param.fixture;
      s = s.substr(4, s.size() - 4 - 7);  // "ref." and ".mmi.gz" off
      for (char& ch : s)
        if (ch == '-' || ch == '.') ch = '_';
      return s;
    });

// small.fa (four sequences, one empty, an odd number of bases) with 64 buckets: the
// fixtures the .mmi reader's tests load, written again from the FASTA.
TEST(MmiWriteSmall, EqualsMinimap2sFiles) {
  for (const auto& [file, hpc] : {std::pair{"tests/data/mmi/small.k5w3.mmi", false},
                                  std::pair{"tests/data/mmi/small.k5w3H.mmi", true}}) {
    SCOPED_TRACE(file);
    AlignOptions opt;
    opt.k = 5, opt.w = 3, opt.hpc = hpc, opt.bucket_bits = 6;
    const MinimizerIndex idx = build_index_from_file(test::source_path("tests/data/mmi/small.fa"), opt);
    const std::string want = test::read_file(test::source_path(file));
    EXPECT_EQ(first_difference(want, mmi_image(idx)), "");
    // An index loaded from minimap2's file is written back as it was.
    EXPECT_EQ(first_difference(want, mmi_image(load_mmi(test::source_path(file)))), "");
  }
}

// -I 200 cuts small.fa into three parts; minimap2 writes them one after another, each a
// whole image of its own sequences.
TEST(MmiWriteSmall, MultiPartIndexIsItsPartsInTurn) {
  AlignOptions opt;
  opt.k = 5, opt.w = 3, opt.bucket_bits = 6, opt.part_bases = 200;
  IndexParts parts(test::source_path("tests/data/mmi/small.fa"), opt);
  std::string image;
  size_t n = 0;
  for (std::optional<MinimizerIndex> part; (part.reset(), part = parts.next()); ++n) image += mmi_image(*part);
  EXPECT_EQ(n, 3u);
  const std::string want = test::read_file(test::source_path("tests/data/mmi/dump/small.k5w3.I200.mmi"));
  EXPECT_EQ(first_difference(want, image), "");
}

// A name takes one byte of length in the sequence table: 255 bytes are written (and read
// back), 256 are an InputError before anything is written.
TEST(MmiWriteLimits, NamesOfAtMost255Bytes) {
  AlignOptions opt;
  opt.k = 5, opt.w = 3, opt.bucket_bits = 2;
  const std::string bases = "ACGTTGCAAGGCTTACGATCGATTACG";
  const std::string longest(255, 'n');
  const MinimizerIndex fits = MinimizerIndex::build({{longest, bases}}, opt);
  const std::string image = mmi_image(fits);
  const fs::path file = fs::temp_directory_path() / ("agatha_mmi_write_" + std::to_string(::getpid()) + ".mmi");
  std::ofstream(file, std::ios::binary) << image;
  const MinimizerIndex back = load_mmi(file.string());
  fs::remove(file);
  EXPECT_EQ(back.reference().seq(0).name, longest);
  EXPECT_EQ(back.reference().packed(), fits.reference().packed());
  EXPECT_EQ(back.occurrence_counts(), fits.occurrence_counts());

  const MinimizerIndex too_long = MinimizerIndex::build({{"a", bases}, {std::string(256, 'x'), bases}}, opt);
  size_t written = 0;
  const std::string e = test::error_of<InputError>([&] {
    write_mmi(too_long, true, [&written](std::span<const uint8_t> b) { written += b.size(); });
  });
  EXPECT_EQ(e, "cannot write a minimap2 index (.mmi): sequence '" + std::string(37, 'x') +
                   "...' has a name of 256 bytes, and the format holds names of at most 255");
  EXPECT_EQ(written, 0u);
}

}  // namespace
}  // namespace agatha::io
