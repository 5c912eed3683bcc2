// src/io/output_file.hpp — buffered text output to a path or "-" (standard output).
// Every write error (full disk, closed pipe) becomes an Error naming the destination.
//
// A regular file is written through a temporary file beside it that close() renames
// over it; devices, FIFOs and /dev/std* are written in place (see output_path.hpp). An
// OutputFile destroyed without a successful close() (an error elsewhere stopped the
// run) removes the temporary file, so PATH is either complete or untouched. Standard
// output cannot be taken back: what was written stays written.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "output_path.hpp"

namespace agatha::io {

class OutputFile {
 public:
  explicit OutputFile(const std::string& path);  // throws Error if it cannot be created
  ~OutputFile();                                 // closes without throwing; drops an unfinished file
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(std::string_view s);
  // Flushes and closes, then moves the file into place; throws on a failure the buffer
  // was hiding.
  void close();

 private:
  [[noreturn]] void fail(int err) const;

  std::string path_;  // as given, or "standard output"
  OutputTarget target_;  // how a path is written
  FILE* fp_ = nullptr;
  bool owned_ = false;
};

}  // namespace agatha::io
