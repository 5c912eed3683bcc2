// Fuzz target: the .agi index loader. An index it accepts must be safe to use, so each
// one is then used as `agatha align` would (fuzz_index_use.hpp): lookups, every base
// fetched, reads cut from its reference mapped and aligned against it.
//
// Fuzzing builds (FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION) skip the file's checksum,
// so mutated files reach the field checks behind it.
#include "../../src/index/index.hpp"

#include <agatha/error.hpp>

#include <memory>

#include "fuzz_index_use.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const agatha::fuzz::MemFile f(data, size);
  std::unique_ptr<agatha::index::MinimizerIndex> idx;
  try {
    idx = std::make_unique<agatha::index::MinimizerIndex>(agatha::index::MinimizerIndex::load(f.path()));
  } catch (const agatha::Error&) {
    return 0;
  }
  agatha::fuzz::use_index(*idx, size);
  return 0;
}
