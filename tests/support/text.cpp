#include "text.hpp"

#include <algorithm>
#include <sstream>

namespace agatha::test {

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> f;
  std::istringstream in(line);
  for (std::string x; std::getline(in, x, '\t');) f.push_back(x);
  return f;
}

std::vector<std::string> lines_without_pg(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.starts_with("@PG")) lines.push_back(line);
  return lines;
}

std::string first_difference(const std::vector<std::string>& want, const std::vector<std::string>& got,
                             size_t width) {
  const auto [w, g] = std::mismatch(want.begin(), want.end(), got.begin(), got.end());
  if (w == want.end() && g == got.end()) return "";
  std::ostringstream m;
  m << "expected " << want.size() << " lines, got " << got.size() << "; first difference at line "
    << (w - want.begin()) + 1 << ":\n  expected: " << (w == want.end() ? "<none>" : w->substr(0, width))
    << "\n  got:      " << (g == got.end() ? "<none>" : g->substr(0, width));
  return m.str();
}

std::vector<std::string> status_lines(const std::string& terminal_bytes) {
  std::vector<std::string> v;
  for (size_t at = 0; (at = terminal_bytes.find('\r', at)) != std::string::npos;) {
    const size_t end = terminal_bytes.find("\033[K", at);
    if (end == std::string::npos) break;
    v.push_back(terminal_bytes.substr(at + 1, end - at - 1));
    at = end;
  }
  return v;
}

}  // namespace agatha::test
