// tests/support/text.hpp — splitting the lines of tab-separated formats (SAM, PAF, the
// test data's tables).
#pragma once

#include <string>
#include <vector>

namespace agatha::test {

// The tab-separated fields of `line` (std::getline's rule: no field after a final tab).
std::vector<std::string> split_tabs(const std::string& line);

}  // namespace agatha::test
