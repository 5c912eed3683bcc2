#include "text.hpp"

#include <sstream>

namespace agatha::test {

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> f;
  std::istringstream in(line);
  for (std::string x; std::getline(in, x, '\t');) f.push_back(x);
  return f;
}

}  // namespace agatha::test
