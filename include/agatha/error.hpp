// agatha/error.hpp — the exceptions the library throws. Only the CLI turns them into
// messages and exit codes; the library never exits.
#pragma once

#include <stdexcept>
#include <string>

namespace agatha {

// Any failure the caller can report: bad input, bad options, I/O errors.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Malformed or unreadable input. The message names the file and, where known, the
// line or record.
class InputError : public Error {
 public:
  using Error::Error;
};

// An option or parameter outside what the program supports.
class OptionError : public Error {
 public:
  using Error::Error;
};

}  // namespace agatha
