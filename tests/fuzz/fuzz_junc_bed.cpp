// Fuzz target: the annotated-intron file of --junc-bed (src/io/junction_bed.cpp,
// src/index/junctions.cpp) read against a small reference, then the junction bits of
// windows over every sequence (whole sequences, halves, single bases and empty windows). Lines may be skipped but
// never crash the reader or make mark() write outside its window.
#include "../../src/index/junctions.hpp"

#include <agatha/error.hpp>
#include <agatha/options.hpp>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "../../src/index/index.hpp"
#include "../../src/io/junction_bed.hpp"
#include "fuzz_input.hpp"

namespace {

const agatha::index::MinimizerIndex& reference_index() {
  static const agatha::index::MinimizerIndex idx = [] {
    agatha::AlignOptions opt;
    opt.k = 5, opt.w = 3;
    return agatha::index::MinimizerIndex::build(
        {{"c1", std::string(300, 'A')}, {"c2", std::string(70, 'C')}, {"chr1", std::string(5, 'G')}}, opt);
  }();
  return idx;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const agatha::fuzz::MemFile file(data, size);
  const auto& ref = reference_index().reference();
  std::optional<agatha::index::Junctions> j;
  try {
    j.emplace(agatha::io::read_junction_bed(file.path(), ref));
  } catch (const agatha::Error&) {
    return 0;
  }
  for (uint32_t rid = 0; rid < ref.size(); ++rid) {
    const auto len = static_cast<int32_t>(ref.seq(rid).len);
    const int32_t windows[][2] = {{0, len}, {0, len / 2}, {len / 2, len}, {len / 3, len / 3 + 1}, {len / 2, len / 2}};
    for (const auto& w : windows) {
      // Guard bytes around the window: mark() must touch exactly [st, en).
      std::vector<uint8_t> buf(static_cast<size_t>(w[1] - w[0]) + 2, 0xa5);
      j->mark(rid, w[0], w[1], std::span<uint8_t>(buf.data() + 1, buf.size() - 2));
      if (buf.front() != 0xa5 || buf.back() != 0xa5) std::abort();
    }
  }
  return 0;
}
