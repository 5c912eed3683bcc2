// tests/eval/eval_cli.hpp — running the agatha binary and temporary files for the
// eval suite.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace agatha::test {

struct Outcome {
  int code;
  std::string out;  // stdout and stderr together (stderr alone with err_only)
};

inline Outcome agatha(const std::string& args, const char* redirect = "2>&1") {
  const std::string cmd = std::string(AGATHA_BINARY) + " " + args + " " + redirect;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {-1, "popen failed"};
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), out};
}

inline std::string eval_data(const std::string& name) {
  return std::string(AGATHA_SOURCE_DIR) + "/tests/data/eval/" + name;
}

inline std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// A per-process scratch directory, removed on destruction.
struct TempDir {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("agatha-eval-" + std::to_string(::getpid()));
  TempDir() { std::filesystem::create_directories(dir); }
  ~TempDir() { std::filesystem::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
};

}  // namespace agatha::test
