// tests/io/read_all.hpp — for the reader tests: every record of a reads file as
// io::SeqReader gives them, and the message of the InputError reading it throws.
#pragma once

#include <agatha/error.hpp>

#include <string>
#include <vector>

#include "../../src/io/seq_reader.hpp"

namespace agatha::io::test_reads {

inline std::vector<SeqRecord> read_all(const std::string& path) {
  SeqReader r(path);
  std::vector<SeqRecord> out;
  SeqRecord rec;
  while (r.next(rec)) out.push_back(rec);
  return out;
}

// Empty when the whole file reads without error.
inline std::string error_of(const std::string& path) {
  try {
    read_all(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace agatha::io::test_reads
