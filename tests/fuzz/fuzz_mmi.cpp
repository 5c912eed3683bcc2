// Fuzz target: the reader of minimap2's .mmi index files. An index it accepts must be
// safe to use, so each one is then used as `agatha align` would (fuzz_index_use.hpp).
// The seeds (corpus/mmi) are indexes minimap2 2.24 wrote with -d for tiny references,
// with few bucket bits so that mutations reach every part of the file.
#include "../../src/io/mmi_file.hpp"

#include <agatha/error.hpp>

#include <memory>

#include "fuzz_index_use.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const agatha::fuzz::MemFile f(data, size);
  std::unique_ptr<agatha::index::MinimizerIndex> idx;
  try {
    idx = std::make_unique<agatha::index::MinimizerIndex>(agatha::io::load_mmi(f.path()));
  } catch (const agatha::Error&) {
    return 0;
  }
  agatha::fuzz::use_index(*idx, size);
  return 0;
}
