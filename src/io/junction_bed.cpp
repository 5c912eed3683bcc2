#include "junction_bed.hpp"

#include "line_reader.hpp"

namespace agatha::io {

index::Junctions read_junction_bed(const std::string& path, const index::Reference& ref) {
  LineReader in(path);
  index::Junctions::Builder b(ref);
  std::string line;
  while (in.next(line)) b.add_line(line);
  return std::move(b).finish();
}

}  // namespace agatha::io
