// tests/test_support.hpp — helpers shared by the test suites.
#pragma once

#include <agatha/dp.hpp>

#include <memory>
#include <string>
#include <vector>

namespace agatha::test {

// Backends every DP test runs on: "scalar", "cpu-sse41", "cpu-avx2", "gpu-sim", "gpu-emu".
const std::vector<std::string>& all_backends();

// The backend, or nullptr when this processor cannot run it (the caller skips).
std::unique_ptr<DpBackend> try_backend(const std::string& name, int threads = 1);

std::vector<uint8_t> encode(const std::string& s);

// A CIGAR string ("10M2I5D") in BAM encoding (len << 4 | op, ops "MIDNSHP=X").
std::vector<uint32_t> parse_cigar(const std::string& s);

// ../shared/golden beside the source tree, or $AGATHA_GOLDEN_DIR; empty if absent.
std::string shared_golden_dir();

std::string source_path(const std::string& rel);
std::string source_dir();
std::string agatha_binary();

struct CommandResult {
  int code;         // exit status, 128 + signal when killed
  std::string out;  // what the command wrote to stdout
};

// Runs the built agatha binary through the shell: `agatha ARGS`, where ARGS may carry
// redirections (e.g. "dp x.tsv 2>&1" to capture stderr too).
CommandResult run_agatha(const std::string& args);

}  // namespace agatha::test
