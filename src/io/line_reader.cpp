#include "line_reader.hpp"

namespace agatha::io {
namespace {

// Large reads: a file whose damage lies within its first MiB fails on the first read,
// before any line of it is returned.
constexpr size_t kBufferBytes = size_t{1} << 20;

std::string read_error_text(const std::string& path, const BgzfInput::Damage& d) {
  // Every line before the current buffer was returned: the damage is after them.
  return "error reading '" + path + "' after line " + std::to_string(d.line_reached - 1) + ": " +
         (d.reason.empty() ? "truncated or corrupt compressed stream" : d.reason);
}

}  // namespace

LineReader::LineReader(const std::string& path) : in_(path, kBufferBytes, read_error_text) {}

bool LineReader::next(std::string& line) {
  line.clear();
  if (!in_.append_line(line)) return false;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  ++line_no_;
  return true;
}

}  // namespace agatha::io
