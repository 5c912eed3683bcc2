// tests/support/files.hpp — reading and writing whole files, and temporary directories.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace agatha::test {

// The file's bytes as they are; empty when it cannot be opened.
std::string read_file(const std::string& path);

// The whole file, gunzipped when it is gzip (or BGZF); a plain file as it is (zlib reads
// it through). Empty when it cannot be opened.
std::string read_gz(const std::string& path);

// read_gz's text cut at each '\n', without it; a last line without '\n' is a line too.
std::vector<std::string> read_lines(const std::string& path);

// A FASTA file (multi-line records, plain or gzip): name up to the first space ->
// sequence.
std::map<std::string, std::string> read_fasta(const std::string& path);

// Writes `bytes` to `path` as they are, or gzip-compressed; false when that fails.
bool write_file(const std::string& path, const std::string& bytes);
bool write_gz(const std::string& path, const std::string& text);

// A new directory of its own under the system's temporary directory (mkdtemp), removed
// with everything in it when the object goes.
class TempDir {
 public:
  TempDir();  // throws std::runtime_error when no directory can be made
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return dir_; }
  std::string string() const { return dir_.string(); }
  // A path inside the directory: dir / "x.sam".
  std::filesystem::path operator/(const std::string& name) const { return dir_ / name; }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  // Writes a file in the directory (bytes as they are, or gzip) and returns its path.
  std::string write(const std::string& name, const std::string& bytes) const;
  std::string write_gz(const std::string& name, const std::string& text) const;
  // How many entries the directory holds.
  size_t entries() const;

 private:
  std::filesystem::path dir_;
};

}  // namespace agatha::test
