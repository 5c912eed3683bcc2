// Fuzz target: the reads reader (SeqReader): FASTA/FASTQ (plain, gzip or BGZF bytes) and
// SAM/BAM/CRAM (io/hts_reads.hpp), record by record and in batches. Every record must
// hold what SAM can carry: SEQ bytes in [A-Za-z=.], a quality string as long as the
// sequence (FASTQ) or none.
#include "../../src/io/seq_reader.hpp"

#include <agatha/error.hpp>

#include <cstdlib>

#include "fuzz_input.hpp"

namespace {

void check(const agatha::io::SeqRecord& r) {
  for (const char c : r.seq) {
    const auto u = static_cast<unsigned char>(c);
    if (!(((u | 0x20) >= 'a' && (u | 0x20) <= 'z') || u == '=' || u == '.')) std::abort();
  }
  if (!r.qual.empty() && r.qual.size() != r.seq.size()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const agatha::fuzz::MemFile f(data, size);
  try {
    agatha::io::SeqReader reader(f.path());
    agatha::io::SeqRecord rec;
    for (int n = 0; n < 4 && reader.next(rec); ++n) check(rec);
    for (auto batch = reader.next_batch(64); !batch.empty(); batch = reader.next_batch(64))
      for (const auto& r : batch) check(r);
  } catch (const agatha::Error&) {
  }
  return 0;
}
