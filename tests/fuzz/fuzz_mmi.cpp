// Fuzz target: the reader of minimap2's .mmi index files, whole (load_mmi) and part by
// part (MmiParts, as `agatha align` maps a multi-part index). An index it accepts must be
// safe to use, so each one is then used as `agatha align` would (fuzz_index_use.hpp).
// The seeds (corpus/mmi) are indexes minimap2 2.24 wrote with -d for tiny references,
// with few bucket bits so that mutations reach every part of the file.
#include "../../src/io/mmi_file.hpp"

#include <agatha/error.hpp>

#include <optional>

#include "fuzz_index_use.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const agatha::fuzz::MemFile f(data, size);
  try {
    const agatha::index::MinimizerIndex idx = agatha::io::load_mmi(f.path());
    agatha::fuzz::use_index(idx, size);
  } catch (const agatha::Error&) {
  }
  try {  // at most four parts, each used as it is read
    agatha::io::MmiParts parts(f.path());
    for (int n = 0; n < 4; ++n) {
      std::optional<agatha::index::MinimizerIndex> part = parts.next();
      if (!part) break;
      agatha::fuzz::use_index(*part, size);
      if (parts.at_end()) break;
    }
  } catch (const agatha::Error&) {
  }
  return 0;
}
