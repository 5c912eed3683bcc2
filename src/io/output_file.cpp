#include "output_file.hpp"

#include <agatha/error.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace agatha::io {

OutputFile::OutputFile(const std::string& path) : path_(path == "-" ? "standard output" : path) {
  if (path == "-") {
    fp_ = stdout;
  } else {
    // Devices and pipes (/dev/null, /dev/stdout, a FIFO) are written in place.
    struct stat st;
    const bool special = ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode);
    if (!special) tmp_ = path + ".tmp." + std::to_string(::getpid());
    fp_ = std::fopen(special ? path.c_str() : tmp_.c_str(), "w");
    if (!fp_) throw Error("cannot create '" + path + "': " + std::strerror(errno));
    owned_ = true;
  }
  std::setvbuf(fp_, nullptr, _IOFBF, 1 << 20);
}

OutputFile::~OutputFile() {
  if (fp_ && owned_) {
    std::fclose(fp_);
    if (!tmp_.empty()) std::remove(tmp_.c_str());
  }
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
  if (owned_) {
    const bool close_failed = std::fclose(fp_) != 0;
    if (close_failed && !bad) err = errno;
    fp_ = nullptr;
    if (bad || close_failed || (!tmp_.empty() && std::rename(tmp_.c_str(), path_.c_str()) != 0)) {
      if (!bad && !close_failed) err = errno;
      if (!tmp_.empty()) std::remove(tmp_.c_str());
      fail(err);
    }
    return;
  }
  fp_ = nullptr;
  if (bad) fail(err);
}

}  // namespace agatha::io
