#include "test_support.hpp"

#include <agatha/nt4.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace agatha::test {

const std::vector<std::string>& all_backends() {
  static const std::vector<std::string> names = {"scalar", "cpu-sse41", "cpu-avx2", "gpu-sim", "gpu-emu"};
  return names;
}

std::unique_ptr<DpBackend> try_backend(const std::string& name, int threads) {
  DpBackendOptions opt;
  opt.threads = threads;
  if (name == "scalar" || name == "gpu-sim" || name == "gpu-emu") {
    opt.backend = name;
  } else {
    opt.backend = "cpu";
    opt.isa = name.substr(4);
    bool ok = false;
    for (const auto& isa : supported_isas()) ok |= isa == opt.isa;
    if (!ok) return nullptr;
  }
  return make_dp_backend(opt);
}

std::vector<uint8_t> encode(const std::string& s) {
  std::vector<uint8_t> out;
  for (char c : s) out.push_back(nt4(c));
  return out;
}

std::string shared_golden_dir() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("AGATHA_GOLDEN_DIR")) return fs::is_directory(env) ? env : "";
  const fs::path p = fs::path(source_dir()) / ".." / "shared" / "golden";
  return fs::is_directory(p) ? p.string() : "";
}

std::string source_path(const std::string& rel) { return source_dir() + "/" + rel; }

// $AGATHA_SOURCE_DIR and $AGATHA_BINARY override the build's paths, for test binaries
// run elsewhere (scripts/gpu-check.sh on a device machine).
std::string source_dir() {
  const char* e = std::getenv("AGATHA_SOURCE_DIR");
  return e && *e ? e : AGATHA_SOURCE_DIR;
}

std::string agatha_binary() {
  const char* e = std::getenv("AGATHA_BINARY");
  return e && *e ? e : AGATHA_BINARY;
}

}  // namespace agatha::test

namespace agatha::test {

CommandResult run_agatha(const std::string& args) {
  const std::string cmd = agatha_binary() + " " + args;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {-1, "popen failed"};
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), out};
}

std::vector<uint32_t> parse_cigar(const std::string& s) {
  static constexpr std::string_view kOps = "MIDNSHP=X";
  std::vector<uint32_t> out;
  uint32_t len = 0;
  for (char c : s) {
    if (c >= '0' && c <= '9')
      len = len * 10 + static_cast<uint32_t>(c - '0');
    else
      out.push_back(len << 4 | static_cast<uint32_t>(kOps.find(c))), len = 0;
  }
  return out;
}

}  // namespace agatha::test
