// Fuzz target: eval's truth reader (pbsim MAF, or FASTA/FASTQ with origins in the read
// names).
#include "../../src/eval/truth.hpp"

#include <agatha/error.hpp>

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const agatha::fuzz::MemFile f(data, size);
  try {
    const agatha::eval::Truth t = agatha::eval::load_truth(f.path());
    for (const auto& [name, o] : t.by_read)
      if (o.end < o.start) __builtin_trap();
  } catch (const agatha::Error&) {
  }
  return 0;
}
