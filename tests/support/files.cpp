#include "files.hpp"

#include <stdlib.h>
#include <zlib.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace agatha::test {

namespace fs = std::filesystem;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string read_gz(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) return "";
  std::string s;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) s.append(buf, static_cast<size_t>(n));
  gzclose(f);
  return s;
}

std::vector<std::string> read_lines(const std::string& path) {
  const std::string text = read_gz(path);
  std::vector<std::string> lines;
  for (size_t pos = 0; pos < text.size();) {
    const size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) {
      lines.push_back(text.substr(pos));
      break;
    }
    lines.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return lines;
}

std::map<std::string, std::string> read_fasta(const std::string& path) {
  std::map<std::string, std::string> seqs;
  std::string* cur = nullptr;
  for (const std::string& line : read_lines(path)) {
    if (!line.empty() && line[0] == '>')
      cur = &seqs[line.substr(1, line.find(' ') - 1)];
    else if (cur)
      *cur += line;
  }
  return seqs;
}

bool write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  out.close();
  return static_cast<bool>(out);
}

bool write_gz(const std::string& path, const std::string& text) {
  gzFile f = gzopen(path.c_str(), "wb");
  if (!f) return false;
  const bool ok =
      text.empty() || gzwrite(f, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size());
  return gzclose(f) == Z_OK && ok;
}

TempDir::TempDir() {
  std::string tmpl = (fs::temp_directory_path() / "agatha-test-XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed for " + tmpl);
  dir_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

std::string TempDir::write(const std::string& name, const std::string& bytes) const {
  const std::string p = file(name);
  write_file(p, bytes);
  return p;
}

std::string TempDir::write_gz(const std::string& name, const std::string& text) const {
  const std::string p = file(name);
  test::write_gz(p, text);
  return p;
}

size_t TempDir::entries() const {
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
}

}  // namespace agatha::test
