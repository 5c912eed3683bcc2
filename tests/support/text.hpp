// tests/support/text.hpp — splitting the lines of tab-separated formats (SAM, PAF, the
// test data's tables), and comparing outputs line by line.
#pragma once

#include <string>
#include <vector>

namespace agatha::test {

// The tab-separated fields of `line` (std::getline's rule: no field after a final tab).
std::vector<std::string> split_tabs(const std::string& line);

// The texts of the status lines (util/progress.hpp) in what a terminal received: each
// starts with "\r" and ends with "\033[K" (the rest of the line erased).
std::vector<std::string> status_lines(const std::string& terminal_bytes);

// The lines of `text` without their newline, @PG lines (the command line) dropped.
std::vector<std::string> lines_without_pg(const std::string& text);

// Empty when equal; otherwise the line counts and the first differing line of each (cut
// to `width` characters), for a test's failure message.
std::string first_difference(const std::vector<std::string>& want, const std::vector<std::string>& got,
                             size_t width = 400);

}  // namespace agatha::test
