// src/io/bgzf_input.hpp — the byte source under agatha's text readers (LineReader,
// SeqReader): a file, plain, gzip or bgzip (told apart by its first bytes), or "-" for
// standard input, read through htslib's BGZF layer into a buffer, with the line number
// of what has been read.
//
// A read error (a truncated or corrupt compressed stream, an I/O error) is an InputError,
// never a silent short read. BGZF drops the whole block it cannot finish, so the line
// reached says little about where the damage is; a regular file is then read again with
// zlib's gzread, which hands back every byte before the damage and names it ("truncated
// gzip stream" or zlib's message). The reader that owns the input words the error from
// that (its ReadErrorText).
//
// Threading: one input per thread; not copyable.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

struct BGZF;
struct hFILE;

namespace agatha::io {

class BgzfInput {
 public:
  // What is known about a read error.
  struct Damage {
    size_t line_reached = 1;  // 1-based line of the next byte the input would have returned
    size_t damaged_line = 0;  // the line that holds the damage (zlib's reading); 0 if unknown
    std::string reason;       // zlib's words for it; empty if unknown (standard input)
  };
  // Words the InputError message for a read error of the file at `path`.
  using ReadErrorText = std::string (*)(const std::string& path, const Damage& damage);

  // Opens `path` ("-": a duplicate of standard input's descriptor, so that closing the
  // input leaves standard input open). Reads buffer_bytes at a time. Throws InputError
  // "cannot open 'PATH': REASON" if it cannot be opened.
  BgzfInput(const std::string& path, size_t buffer_bytes, ReadErrorText on_error);
  // Reads `file`, opened by open_local (and perhaps peeked at); takes it over, closing it
  // also when this constructor throws.
  BgzfInput(hFILE* file, const std::string& path, size_t buffer_bytes, ReadErrorText on_error);
  ~BgzfInput();
  BgzfInput(const BgzfInput&) = delete;
  BgzfInput& operator=(const BgzfInput&) = delete;

  // `path` ("-": a duplicate of standard input's descriptor) as an htslib stream, always
  // a local file (htslib's hopen would read "data:..." or "http://..." as a URL). Throws
  // InputError "cannot open 'PATH': REASON".
  [[nodiscard]] static hFILE* open_local(const std::string& path);

  // The next byte, or -1 at the end of the input.
  [[nodiscard]] int getc() {
    if (pos_ == len_ && !fill()) return -1;
    const int c = static_cast<unsigned char>(buf_[pos_++]);
    last_line_ = line_;
    if (c == '\n') ++line_;
    return c;
  }
  // Appends the bytes up to the end of the line to s (the '\n' is consumed, not stored).
  // False if the input ended before any byte was read.
  [[nodiscard]] bool append_line(std::string& s);

  const std::string& path() const { return path_; }
  size_t line() const { return line_; }            // 1-based line of the next byte
  size_t last_line() const { return last_line_; }  // line of the last byte read

 private:
  bool fill();  // refills the buffer; false at the end of the input; throws on a read error

  std::string path_;
  ReadErrorText on_error_;
  BGZF* fp_ = nullptr;
  std::vector<char> buf_;
  size_t pos_ = 0, len_ = 0;
  bool eof_ = false;
  size_t line_ = 1;
  size_t last_line_ = 1;
};

}  // namespace agatha::io
