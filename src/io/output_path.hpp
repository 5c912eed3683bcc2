// src/io/output_path.hpp — how an output path is written without harming what it names.
//
// A regular file (or a symlink to one) is written under a temporary name beside the file
// and renamed over it when complete, with the old file's permission bits, so the path
// is either the finished output or what it was before. Everything else is written in
// place: devices and pipes (/dev/null, a FIFO), /dev/std*, /dev/fd/* and /proc/*, a
// dangling symlink (its target is created). Replacing such a path with a regular file
// would break it (as root, /dev/null) or lose the output (/dev/stdout redirected to a
// file would leave that file empty).
//
// Temporary files are registered while they exist; SIGINT, SIGTERM and SIGHUP remove
// them before the process ends with that signal (install_signal_cleanup). Besides the
// output's own temporary file, a sorted BAM output has its index's and those of its
// sorted runs (TempFile, bam_sort.hpp).
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace agatha::io {

// One output path while it is written: the temporary-file-and-rename protocol above,
// owned by one object (OutputFile and BamWriter each hold one). Constructed from a path
// (not "-"), it decides how the path is written and creates nothing; create() makes the
// file; commit() moves a finished temporary file into place; the destructor removes a
// temporary file that was not committed, so an error anywhere leaves PATH untouched.
class PendingOutput {
 public:
  explicit PendingOutput(const std::string& path);
  ~PendingOutput() { discard(); }
  PendingOutput(const PendingOutput&) = delete;
  PendingOutput& operator=(const PendingOutput&) = delete;

  const std::string& path() const { return path_; }  // as given, for messages
  [[nodiscard]] bool via_temp() const { return via_temp_; }
  // The file create() opens: the temporary file, or the path itself when written in
  // place. For writers that open the file by name (htslib's index writer).
  const std::string& open_path() const { return open_path_; }

  // Creates (or truncates) the file to write, the temporary one or the path itself, with
  // open(O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666), and returns its descriptor
  // (the caller closes it); -1 with errno set if it cannot be created. A temporary file
  // is registered for removal on a fatal signal before it exists. Call once.
  [[nodiscard]] int create();
  // Moves the finished temporary file into place, with the old file's permission bits;
  // returns 0 or the errno of the failure (the temporary file is removed then). Call
  // once the descriptor is closed; 0 and nothing done for output written in place.
  [[nodiscard]] int commit();
  // Removes an unfinished temporary file now (done by the destructor otherwise).
  void discard() noexcept;

 private:
  std::string path_;        // as given
  std::string open_path_;   // the file create() opens
  std::string final_path_;  // with a temporary file: what commit() renames it to
  bool via_temp_ = false;
  bool keep_mode_ = false;  // an existing file's permission bits go to the new one
  mode_t mode_ = 0;
  bool live_ = false;  // a temporary file may exist and is registered for removal
};

// A scratch file at an exact path (a sorted run of a BAM sort): created only if no file
// of that name exists, registered for removal on a fatal signal while it exists, and
// removed by remove() or the destructor. Never renamed into place.
class TempFile {
 public:
  explicit TempFile(std::string path) : path_(std::move(path)) {}
  ~TempFile() { remove(); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  const std::string& path() const { return path_; }
  // open(O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600); the descriptor (the caller
  // closes it), or -1 with errno set (EEXIST when the name is taken). Call once.
  [[nodiscard]] int create();
  void remove() noexcept;

 private:
  std::string path_;
  bool live_ = false;  // created by create() and registered
};

// Scratch files a run writes, reads back and removes: PREFIX.0000.tmp, PREFIX.0001.tmp,
// ... (minimap2's --split-prefix names, printf's "%s.%.4d.tmp"). The destructor removes
// every file of the series, and so does a fatal signal (SIGINT, SIGTERM, SIGHUP) while
// the series exists. One series is registered for signals at a time. A file's name is
// handed out (and registered) before the caller creates it.
class ScratchSeries {
 public:
  // Throws Error for an empty prefix or one longer than PATH_MAX - 32 bytes.
  explicit ScratchSeries(std::string prefix);
  ~ScratchSeries();
  ScratchSeries(const ScratchSeries&) = delete;
  ScratchSeries& operator=(const ScratchSeries&) = delete;

  // The name of the next file, now part of the series.
  [[nodiscard]] std::string add();
  [[nodiscard]] std::string path(size_t i) const;
  [[nodiscard]] size_t size() const { return count_; }
  // Removes every file of the series now (done by the destructor otherwise).
  void remove_all() noexcept;

 private:
  std::string prefix_;
  size_t count_ = 0;
  bool registered_ = false;  // the series the signal handler removes
};

// Installs the SIGINT/SIGTERM/SIGHUP handler that removes registered temporary files
// and then ends the process with the signal's default action.
void install_signal_cleanup();

// Throws Error when `output` names the same file as one of `inputs` (same device and
// inode, through links and different spellings): writing it would destroy the input.
void refuse_input_as_output(const std::string& output, const std::vector<std::string>& inputs);

}  // namespace agatha::io
