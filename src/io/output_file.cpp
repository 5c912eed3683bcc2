#include "output_file.hpp"

#include <agatha/error.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace agatha::io {

OutputFile::OutputFile(const std::string& path) : path_(path == "-" ? "standard output" : path) {
  if (path == "-") {
    fp_ = stdout;
  } else {
    target_.emplace(path);
    const int fd = target_->create();
    if (fd >= 0 && !(fp_ = ::fdopen(fd, "wb"))) {
      const int err = errno;
      ::close(fd);
      errno = err;
    }
    // target_ removes a temporary file it created when this throws.
    if (!fp_) throw Error("cannot create '" + path + "': " + std::strerror(errno));
  }
  std::setvbuf(fp_, nullptr, _IOFBF, 1 << 20);
}

OutputFile::~OutputFile() {
  if (fp_ && target_) std::fclose(fp_);  // then target_ removes an uncommitted temporary file
}

void OutputFile::fail(int err) const {
  throw Error("cannot write to " + (path_ == "standard output" ? path_ : "'" + path_ + "'") + ": " +
              std::strerror(err ? err : EIO));
}

void OutputFile::write(std::string_view s) {
  if (!fp_) throw Error("write to closed output " + path_);
  if (std::fwrite(s.data(), 1, s.size(), fp_) != s.size()) fail(errno);
}

void OutputFile::close() {
  if (!fp_) return;
  errno = 0;
  const bool bad = std::fflush(fp_) != 0 || std::ferror(fp_);
  int err = errno;
  if (target_) {
    const bool close_failed = std::fclose(fp_) != 0;
    if (close_failed && !bad) err = errno;
    fp_ = nullptr;
    if (bad || close_failed) {
      target_->discard();
      fail(err);
    }
    if (const int moved = target_->commit(); moved != 0) fail(moved);
    return;
  }
  fp_ = nullptr;
  if (bad) fail(err);
}

}  // namespace agatha::io
