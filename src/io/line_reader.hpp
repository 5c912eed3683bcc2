// src/io/line_reader.hpp — reads a text file line by line, plain, gzip or bgzip
// (told apart by its first bytes), from a path or "-" for standard input, through the
// BGZF byte source SeqReader uses too (bgzf_input.hpp). A truncated or corrupt
// compressed stream is an error, never a silent short read.
#pragma once

#include <cstddef>
#include <string>

#include "bgzf_input.hpp"

namespace agatha::io {

class LineReader {
 public:
  // Throws InputError "cannot open 'PATH': REASON" if the file cannot be opened.
  explicit LineReader(const std::string& path);
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // Reads the next line without its '\n' (and a trailing '\r'); false at the end.
  // Throws InputError on a read error: "error reading 'PATH' after line N: REASON",
  // N the lines returned so far, REASON zlib's ("truncated gzip stream", or its message).
  [[nodiscard]] bool next(std::string& line);
  size_t line_number() const { return line_no_; }
  const std::string& path() const { return in_.path(); }

 private:
  BgzfInput in_;
  size_t line_no_ = 0;
};

}  // namespace agatha::io
