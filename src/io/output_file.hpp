// src/io/output_file.hpp — buffered text output to a path or "-" (standard output).
// Every write error (full disk, closed pipe) becomes an Error naming the destination.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace agatha::io {

class OutputFile {
 public:
  explicit OutputFile(const std::string& path);  // throws Error if it cannot be created
  ~OutputFile();                                 // closes without throwing
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(std::string_view s);
  // Flushes and closes; throws on a failure the buffer was hiding.
  void close();

 private:
  [[noreturn]] void fail(int err) const;

  std::string path_;
  FILE* fp_ = nullptr;
  bool owned_ = false;
};

}  // namespace agatha::io
