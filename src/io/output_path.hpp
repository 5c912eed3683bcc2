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
// them before the process ends with that signal (install_signal_cleanup).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace agatha::io {

struct OutputTarget {
  std::string path;       // as given, for messages
  std::string open_path;  // the file to open for writing
  std::string final_path; // with a temporary file: what it is renamed to
  bool via_temp = false;
  bool keep_mode = false;  // an existing file's permission bits go to the new one
  mode_t mode = 0;
};

// Decides how `path` is written (not "-"). Creates nothing.
OutputTarget plan_output(const std::string& path);

// Registers the temporary file for removal on a fatal signal (no-op for in-place output).
void begin_output(const OutputTarget& t);
// Moves a finished temporary file into place; returns 0 or the errno of the failure
// (the temporary file is removed then).
int commit_output(const OutputTarget& t);
// Removes an unfinished temporary file. Never throws.
void discard_output(const OutputTarget& t) noexcept;

// Installs the SIGINT/SIGTERM/SIGHUP handler that removes registered temporary files
// and then ends the process with the signal's default action.
void install_signal_cleanup();

// Throws Error when `output` names the same file as one of `inputs` (same device and
// inode, through links and different spellings): writing it would destroy the input.
void refuse_input_as_output(const std::string& output, const std::vector<std::string>& inputs);

}  // namespace agatha::io
