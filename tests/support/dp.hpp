// tests/support/dp.hpp — DP backends by name, nucleotide codes and CIGAR text for the
// tests.
#pragma once

#include <agatha/dp.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace agatha::test {

// Backends every DP test runs on: "scalar", "cpu-sse41", "cpu-avx2", "cpu-avx512", "gpu-sim",
// "gpu-emu" (try_backend gives nullptr for an instruction set this processor lacks).
const std::vector<std::string>& all_backends();

// The backend, or nullptr when this processor cannot run it (the caller skips).
std::unique_ptr<DpBackend> try_backend(const std::string& name, int threads = 1);

// Whether this processor runs the per-task kernels of `isa` ("scalar" always; "sse41",
// "avx2", "avx512" where supported_isas() lists it).
bool isa_runs(const std::string& isa);

// Letters to codes 0..4 (minimap2's seq_nt4_table), and codes back to "ACGTN".
std::vector<uint8_t> encode(const std::string& s);
std::string decode(const std::vector<uint8_t>& codes);

// A CIGAR string ("10M2I5D") in BAM encoding (len << 4 | op, ops "MIDNSHP=X"), and back.
std::vector<uint32_t> parse_cigar(const std::string& s);
std::string cigar_text(const std::vector<uint32_t>& cigar);

// An =/X CIGAR with each =/X run merged back into one M (what --eqx started from).
std::vector<uint32_t> collapse_eqx(const std::vector<uint32_t>& cigar);

}  // namespace agatha::test
