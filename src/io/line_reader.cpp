#include "line_reader.hpp"

#include <agatha/error.hpp>

#include <unistd.h>
#include <cerrno>
#include <cstring>

namespace agatha::io {

LineReader::LineReader(const std::string& path) : path_(path), buf_(1 << 20) {
  fp_ = path == "-" ? gzdopen(dup(STDIN_FILENO), "rb") : gzopen(path.c_str(), "rb");
  if (!fp_) throw InputError("cannot open '" + path + "': " + std::strerror(errno ? errno : ENOMEM));
  gzbuffer(fp_, 1 << 17);
}

LineReader::~LineReader() {
  if (fp_) gzclose(fp_);
}

bool LineReader::fill() {
  if (eof_) return false;
  const int n = gzread(fp_, buf_.data(), static_cast<unsigned>(buf_.size()));
  int err = Z_OK;
  const char* msg = gzerror(fp_, &err);
  if (n < 0 || (err != Z_OK && err != Z_STREAM_END)) {
    throw InputError("error reading '" + path_ + "' after line " + std::to_string(line_no_) + ": " +
                     (err == Z_BUF_ERROR ? "truncated gzip stream" : msg));
  }
  if (n == 0) {
    eof_ = true;
    return false;
  }
  pos_ = 0, len_ = static_cast<size_t>(n);
  return true;
}

bool LineReader::next(std::string& line) {
  line.clear();
  bool got = false;
  for (;;) {
    if (pos_ == len_ && !fill()) break;
    got = true;
    const char* start = buf_.data() + pos_;
    const void* nl = std::memchr(start, '\n', len_ - pos_);
    if (nl) {
      const size_t k = static_cast<const char*>(nl) - start;
      line.append(start, k);
      pos_ += k + 1;
      break;
    }
    line.append(start, len_ - pos_);
    pos_ = len_;
  }
  if (!got) return false;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  ++line_no_;
  return true;
}

}  // namespace agatha::io
