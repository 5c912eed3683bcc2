// tests/eval/eval_cli.hpp — running the agatha binary and temporary files for the
// eval suite.
#pragma once

#include "../test_support.hpp"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace agatha::test {

using Outcome = CommandResult;

// `agatha ARGS REDIRECT`: by default stdout and stderr together.
inline Outcome agatha(const std::string& args, const char* redirect = "2>&1") {
  return run_agatha(args + " " + redirect);
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
