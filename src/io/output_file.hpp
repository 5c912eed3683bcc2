// src/io/output_file.hpp — buffered output to a path or "-" (standard output), byte for
// byte (binary-safe: text and .agi images alike). Every write error (full disk, closed
// pipe) becomes an Error naming the destination.
//
// A regular file is written through a temporary file beside it that close() renames
// over it; devices, FIFOs and /dev/std* are written in place (PendingOutput,
// output_path.hpp). An OutputFile destroyed without a successful close() (an error
// elsewhere stopped the run) removes the temporary file, so PATH is either complete or
// untouched. Standard output cannot be taken back: what was written stays written.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "output_path.hpp"

namespace agatha::io {

class OutputFile {
 public:
  // Creates the file (the temporary one for a regular file); throws Error
  // "cannot create 'PATH': REASON" if it cannot.
  explicit OutputFile(const std::string& path);
  ~OutputFile();  // closes without throwing; drops an unfinished file
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(std::string_view s);
  void write(std::span<const uint8_t> bytes) {
    write(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  }
  // Flushes and closes, then moves the file into place; throws on a failure the buffer
  // was hiding.
  void close();

 private:
  [[noreturn]] void fail(int err) const;

  std::string path_;                      // as given, or "standard output"
  std::optional<PendingOutput> target_;  // a path's; none for standard output
  FILE* fp_ = nullptr;
};

}  // namespace agatha::io
