// Fuzz target: the .agi index loader. An index it accepts must be safe to use, so each
// one is then used as `agatha align` would: every lookup of a few hashes, every base of
// every sequence fetched, and three reads cut from the index's own reference (one
// reverse-complemented, one with changes) mapped and aligned against it, SAM formatted.
//
// Fuzzing builds (FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION) skip the file's checksum,
// so mutated files reach the field checks behind it.
#include "../../src/index/index.hpp"
#include "../../src/io/seq_reader.hpp"
#include "../../src/pipeline/batch_aligner.hpp"
#include "../../src/pipeline/read_aligner.hpp"
#include "../../src/pipeline/read_mapper.hpp"

#include <agatha/dp.hpp>
#include <agatha/error.hpp>
#include <agatha/options.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "fuzz_input.hpp"

namespace {

std::string reads_from(const agatha::index::Reference& ref) {
  std::string fasta;
  if (ref.size() == 0) return fasta;
  const uint32_t len = ref.seq(0).len;
  const uint32_t st = std::min<uint32_t>(len, 50), en = std::min<uint32_t>(len, st + 700);
  std::vector<uint8_t> codes(en - st);
  if (en > st) ref.fetch(0, st, en, codes.data());
  std::string fwd;
  for (uint8_t c : codes) fwd += "ACGTN"[c > 4 ? 4 : c];
  std::string rc(fwd.rbegin(), fwd.rend());
  for (char& c : rc) c = c == 'A' ? 'T' : c == 'C' ? 'G' : c == 'G' ? 'C' : c == 'T' ? 'A' : 'N';
  std::string edited = fwd;
  for (size_t i = 7; i < edited.size(); i += 41) edited[i] = edited[i] == 'A' ? 'C' : 'A';
  if (edited.size() > 300) edited.erase(150, 5);
  fasta += ">fwd\n" + fwd + "\n>rc\n" + rc + "\n>edited\n" + edited + "\n";
  return fasta;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const agatha::fuzz::MemFile f(data, size);
  std::unique_ptr<agatha::index::MinimizerIndex> idx;
  try {
    idx = std::make_unique<agatha::index::MinimizerIndex>(agatha::index::MinimizerIndex::load(f.path()));
  } catch (const agatha::Error&) {
    return 0;
  }
  for (uint64_t h : {0ull, 1ull, 0x12345ull, ~0ull >> 20, static_cast<uint64_t>(size) * 2654435761ull})
    (void)idx->lookup(h);
  const agatha::index::Reference& ref = idx->reference();
  for (uint32_t i = 0; i < ref.size(); ++i) {
    std::vector<uint8_t> codes(ref.seq(i).len);
    if (!codes.empty()) ref.fetch(i, 0, ref.seq(i).len, codes.data());
  }
  try {
    agatha::AlignOptions opt;
    opt.apply_preset("map-pb");
    opt.validate();
    const agatha::pipeline::ReadMapper mapper(*idx, opt);
    const agatha::pipeline::ReadAligner aligner(mapper, opt, agatha::pipeline::OutputOptions{});
    agatha::DpBackendOptions bo;
    bo.backend = "scalar";
    const auto dp = agatha::make_dp_backend(bo);
    const std::string fasta = reads_from(ref);
    const agatha::fuzz::MemFile reads_file(reinterpret_cast<const uint8_t*>(fasta.data()), fasta.size());
    agatha::io::SeqReader reads(reads_file.path());
    std::string sam;
    agatha::pipeline::align_reads(aligner, *dp, reads, [&sam](std::string_view s) { sam += s; }, 1, 1 << 20,
                                  dp_batch_for(opt, false));
  } catch (const agatha::Error&) {
  }
  return 0;
}
