// Fuzz target: eval's alignment reader (SAM, BAM or PAF, detected from the bytes),
// every record to the end.
#include "../../src/eval/alignment_file.hpp"

#include <agatha/error.hpp>

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const agatha::fuzz::MemFile f(data, size);
  try {
    agatha::eval::AlignmentReader reader(f.path());
    agatha::eval::AlnRecord rec;
    while (reader.next(rec)) {
      if (rec.end < rec.start) __builtin_trap();
    }
  } catch (const agatha::Error&) {
  }
  return 0;
}
