// tests/fuzz/fuzz_index_use.hpp — what the index-loading fuzz targets (fuzz_agi,
// fuzz_mmi) do with an index their loader accepted: use it as `agatha align` would, so
// that a field the loader should have refused shows up as a bad memory access. Every
// lookup of a few hashes, every base of every sequence fetched, and three reads cut from
// the index's own reference (one reverse-complemented, one with changes) mapped and
// aligned against it, SAM formatted.
#pragma once

#include <agatha/dp.hpp>
#include <agatha/error.hpp>
#include <agatha/options.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../../src/index/index.hpp"
#include "../../src/io/seq_reader.hpp"
#include "../../src/pipeline/batch_aligner.hpp"
#include "../../src/pipeline/read_aligner.hpp"
#include "../../src/pipeline/read_mapper.hpp"
#include "fuzz_input.hpp"

namespace agatha::fuzz {

// Three reads in FASTA from the first sequence's bases 50-750.
inline std::string reads_from(const index::Reference& ref) {
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

// `size`: the input's size, which varies the hashes looked up.
inline void use_index(const index::MinimizerIndex& idx, size_t size) {
  for (uint64_t h : {0ull, 1ull, 0x12345ull, ~0ull >> 20, static_cast<uint64_t>(size) * 2654435761ull})
    (void)idx.lookup(h);
  const index::Reference& ref = idx.reference();
  for (uint32_t i = 0; i < ref.size(); ++i) {
    std::vector<uint8_t> codes(ref.seq(i).len);
    if (!codes.empty()) ref.fetch(i, 0, ref.seq(i).len, codes.data());
  }
  try {
    AlignOptions opt;
    opt.apply_preset("map-pb");
    opt.validate();
    const pipeline::ReadMapper mapper(idx, opt);
    const pipeline::ReadAligner aligner(mapper, opt, pipeline::OutputOptions{});
    DpBackendOptions bo;
    bo.backend = "scalar";
    const auto dp = make_dp_backend(bo);
    const std::string fasta = reads_from(ref);
    const MemFile reads_file(reinterpret_cast<const uint8_t*>(fasta.data()), fasta.size());
    io::SeqReader reads(reads_file.path());
    std::string sam;
    pipeline::align_reads(
        aligner, *dp, reads, [&sam](std::string_view s) { sam += s; }, 1, 1 << 20, dp_batch_for(opt, false));
  } catch (const Error&) {
  }
}

}  // namespace agatha::fuzz
