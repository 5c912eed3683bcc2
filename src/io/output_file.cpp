#include "output_file.hpp"

#include <agatha/error.hpp>

#include <cerrno>
#include <cstring>

namespace agatha::io {

OutputFile::OutputFile(const std::string& path) : path_(path == "-" ? "standard output" : path) {
  if (path == "-") {
    fp_ = stdout;
  } else {
    target_ = plan_output(path);
    fp_ = std::fopen(target_.open_path.c_str(), "w");
    if (!fp_) throw Error("cannot create '" + path + "': " + std::strerror(errno));
    begin_output(target_);
    owned_ = true;
  }
  std::setvbuf(fp_, nullptr, _IOFBF, 1 << 20);
}

OutputFile::~OutputFile() {
  if (fp_ && owned_) {
    std::fclose(fp_);
    discard_output(target_);
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
    if (bad || close_failed) {
      discard_output(target_);
      fail(err);
    }
    if (const int moved = commit_output(target_); moved != 0) fail(moved);
    return;
  }
  fp_ = nullptr;
  if (bad) fail(err);
}

}  // namespace agatha::io
