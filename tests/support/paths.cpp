#include "paths.hpp"

#include <cstdlib>
#include <filesystem>

namespace agatha::test {

std::string source_dir() {
  const char* e = std::getenv("AGATHA_SOURCE_DIR");
  return e && *e ? e : AGATHA_SOURCE_DIR;
}

std::string source_path(const std::string& rel) { return source_dir() + "/" + rel; }

std::string agatha_binary() {
  const char* e = std::getenv("AGATHA_BINARY");
  return e && *e ? e : AGATHA_BINARY;
}

std::string shared_golden_dir() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("AGATHA_GOLDEN_DIR")) return fs::is_directory(env) ? env : "";
  const fs::path p = fs::path(source_dir()) / ".." / "shared" / "golden";
  return fs::is_directory(p) ? p.string() : "";
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out += "'";
}

std::string quoted_source_path(const std::string& rel) { return shell_quote(source_path(rel)); }

}  // namespace agatha::test
