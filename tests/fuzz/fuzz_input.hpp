// tests/fuzz/fuzz_input.hpp — what the fuzz targets share: the input as a file (the
// readers take paths), and the rule for what counts as a finding.
//
// A reader may reject its input only with agatha::Error (InputError, OptionError): the
// message names the file and line. Anything else a target lets escape — another
// exception (std::bad_alloc from a huge allocation, std::out_of_range), a sanitizer
// report, a crash, a hang — ends the process, and libFuzzer or the replay driver
// reports the input.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace agatha::fuzz {

// The bytes as an in-memory file, named /proc/self/fd/N while the object lives.
class MemFile {
 public:
  MemFile(const uint8_t* data, size_t size) {
    fd_ = ::memfd_create("agatha-fuzz", 0);
    if (fd_ < 0) std::abort();
    for (size_t done = 0; done < size;) {
      const ssize_t n = ::write(fd_, data + done, size - done);
      if (n <= 0) std::abort();
      done += static_cast<size_t>(n);
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  ~MemFile() { ::close(fd_); }
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

}  // namespace agatha::fuzz
