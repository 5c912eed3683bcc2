// src/io/line_reader.hpp — reads a text file line by line, plain or gzip-compressed
// (zlib detects which), from a path or "-" for standard input. A truncated or corrupt
// gzip stream is an error, never a silent short read.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <zlib.h>

namespace agatha::io {

class LineReader {
 public:
  // Throws InputError if the file cannot be opened.
  explicit LineReader(const std::string& path);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // Reads the next line without its '\n' (and a trailing '\r'); false at the end.
  // Throws InputError on a read error, naming the file and line.
  bool next(std::string& line);
  size_t line_number() const { return line_no_; }
  const std::string& path() const { return path_; }

 private:
  bool fill();

  std::string path_;
  gzFile fp_ = nullptr;
  std::vector<char> buf_;
  size_t pos_ = 0, len_ = 0;
  bool eof_ = false;
  size_t line_no_ = 0;
};

}  // namespace agatha::io
