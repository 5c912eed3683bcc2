#include "bgzf_input.hpp"

#include <agatha/error.hpp>

#include <fcntl.h>
#include <htslib/bgzf.h>
#include <htslib/hfile.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>

namespace agatha::io {
namespace {

// Reads a damaged file again with zlib, which returns every byte before the damage:
// the line holding the damage is one past the complete lines of that prefix. Only a
// regular file can be read twice (a FIFO or standard input cannot); a file zlib reads
// without error (an I/O error, or damage only BGZF sees) leaves the damage unknown.
BgzfInput::Damage diagnose(const std::string& path, size_t line_reached) {
  BgzfInput::Damage d;
  d.line_reached = line_reached;
  struct stat st;
  if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return d;
  gzFile z = gzopen(path.c_str(), "rb");
  if (!z) return d;
  std::vector<char> buf(1 << 16);
  size_t lines = 1;
  int n;
  while ((n = gzread(z, buf.data(), static_cast<unsigned>(buf.size()))) > 0)
    for (int i = 0; i < n; ++i) lines += buf[static_cast<size_t>(i)] == '\n';
  int err = Z_OK;
  const char* msg = gzerror(z, &err);
  if (n < 0 || (err != Z_OK && err != Z_STREAM_END)) {
    d.reason = err == Z_BUF_ERROR ? "truncated gzip stream" : msg;
    d.damaged_line = lines;
  }
  gzclose(z);
  return d;
}

}  // namespace

hFILE* BgzfInput::open_local(const std::string& path) {
  errno = 0;
  const int fd = path == "-" ? ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  hFILE* file = nullptr;
  if (fd >= 0) {
    errno = 0;
    file = hdopen(fd, "r");
    if (!file) {
      const int err = errno;
      ::close(fd);
      errno = err;
    }
  }
  if (!file) throw InputError("cannot open '" + path + "': " + std::strerror(errno ? errno : EIO));
  return file;
}

BgzfInput::BgzfInput(const std::string& path, size_t buffer_bytes, ReadErrorText on_error)
    : BgzfInput(open_local(path), path, buffer_bytes, on_error) {}

BgzfInput::BgzfInput(hFILE* file, const std::string& path, size_t buffer_bytes, ReadErrorText on_error)
    : path_(path), on_error_(on_error), buf_(buffer_bytes) {
  errno = 0;
  fp_ = bgzf_hopen(file, "r");
  if (!fp_) {
    const int err = errno;
    hclose_abruptly(file);
    throw InputError("cannot open '" + path + "': " + std::strerror(err ? err : EIO));
  }
}

BgzfInput::~BgzfInput() {
  if (fp_) bgzf_close(fp_);
}

bool BgzfInput::fill() {
  if (eof_) return false;
  const ssize_t n = bgzf_read(fp_, buf_.data(), buf_.size());
  if (n < 0) throw InputError(on_error_(path_, diagnose(path_, line_)));
  if (n == 0) {
    eof_ = true;
    return false;
  }
  pos_ = 0, len_ = static_cast<size_t>(n);
  return true;
}

bool BgzfInput::append_line(std::string& s) {
  // Whole runs of the buffer up to the next '\n' at a time (getc's bookkeeping, in bulk).
  bool got = false;
  for (;;) {
    if (pos_ == len_ && !fill()) break;
    got = true;
    const char* start = buf_.data() + pos_;
    const auto* nl = static_cast<const char*>(std::memchr(start, '\n', len_ - pos_));
    const size_t n = nl ? static_cast<size_t>(nl - start) : len_ - pos_;
    s.append(start, n);
    pos_ += n;
    last_line_ = line_;
    if (nl) {
      ++pos_, ++line_;
      break;
    }
  }
  return got;
}

}  // namespace agatha::io
