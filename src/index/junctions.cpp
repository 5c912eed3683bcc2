// Annotated introns (minimap2 2.24 index.c: mm_idx_read_bed, mm_idx_bed_junc). See
// junctions.hpp.
#include "junctions.hpp"

#include <agatha/dp.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>

namespace agatha::index {
namespace {

// C's atol/strtol on a field: leading blanks, a sign, digits; 0 when there are none.
// `end` receives the position after the number.
int64_t leading_long(const std::string& s, size_t pos, size_t* end = nullptr) {
  const char* b = s.c_str() + pos;
  char* e = nullptr;
  const long long v = std::strtoll(b, &e, 10);
  if (end) *end = pos + static_cast<size_t>(e - b);
  return v;
}

// a + b, held at the int64 limits where it would pass them (strtoll saturates a field
// at them: "5 + such a field" must not overflow).
int64_t sat_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  return r;
}

// The introns of one BED line, appended to `out`; false if the line is skipped.
bool parse_line(const std::string& line, const Reference& ref, std::vector<std::vector<Junctions::Intron>>& out) {
  std::vector<size_t> starts{0};  // where each tab-separated field begins
  for (size_t i = 0; i < line.size() && starts.size() < 12; ++i)
    if (line[i] == '\t') starts.push_back(i + 1);
  auto field = [&](size_t i) {
    const size_t b = starts[i];
    const size_t e = i + 1 < starts.size() ? starts[i + 1] - 1 : line.find('\t', b);
    return line.substr(b, e == std::string::npos ? std::string::npos : e - b);
  };
  const int64_t id = ref.find(field(0));
  if (id < 0 || starts.size() < 3) return false;
  Junctions::Intron t;
  const int64_t st = leading_long(line, starts[1]);
  if (st < 0) return false;
  const int64_t en = leading_long(line, starts[2]);
  // Positions past 2^31 - 1 exist on no reference sequence: such a line is skipped
  // (minimap2 would wrap them into its int32 fields).
  if (en < 0 || st >= en || en > std::numeric_limits<int32_t>::max()) return false;
  t.st = static_cast<int32_t>(st), t.en = static_cast<int32_t>(en);
  if (starts.size() > 5) {
    const char c = line[starts[5]];
    t.strand = static_cast<int8_t>(c == '+' ? 1 : c == '-' ? -1 : 0);
  }
  std::vector<Junctions::Intron>& v = out[static_cast<size_t>(id)];
  // BED12: a tenth column that starts with a digit and both block lists present.
  const bool bed12 = starts.size() >= 12 && std::isdigit(static_cast<unsigned char>(line[starts[9]]));
  if (!bed12) {
    v.push_back(t);
    return true;
  }
  // Past the end of both block lists every block reads as 0,0 and adds no intron (at
  // most one, from the last real block), so a block count beyond the line's length
  // changes nothing and is capped there: a huge count must not turn into a long loop.
  const int64_t n_blk = std::min<int64_t>(leading_long(line, starts[9]), static_cast<int64_t>(line.size()) + 2);
  size_t bl = starts[10], bs = starts[11];
  int64_t off = leading_long(line, bs, &bs);
  int64_t sz = leading_long(line, bl, &bl);
  ++bs, ++bl;
  int64_t end = sat_add(sat_add(t.st, off), sz);
  for (int64_t i = 1; i < n_blk; ++i) {
    off = leading_long(line, std::min(bs, line.size()), &bs);
    sz = leading_long(line, std::min(bl, line.size()), &bl);
    ++bs, ++bl;
    const int64_t ist = end, ien = sat_add(t.st, off);
    end = sat_add(ien, sz);
    if (ien > ist && ist >= 0 && ien <= std::numeric_limits<int32_t>::max()) {
      Junctions::Intron s = t;
      s.st = static_cast<int32_t>(ist), s.en = static_cast<int32_t>(ien);
      v.push_back(s);
    }
  }
  return true;
}

}  // namespace

Junctions::Junctions(std::vector<std::vector<Intron>> per_seq) : per_seq_(std::move(per_seq)) {
  for (auto& v : per_seq_)
    std::stable_sort(v.begin(), v.end(), [](const Intron& x, const Intron& y) { return x.st < y.st; });
}

bool Junctions::Builder::add_line(std::string_view line) { return parse_line(std::string(line), ref_, per_seq_); }

void Junctions::mark(uint32_t rid, int32_t st, int32_t en, std::span<uint8_t> out) const {
  std::fill(out.begin(), out.end(), uint8_t{0});
  if (rid >= per_seq_.size()) return;
  const std::vector<Intron>& v = per_seq_[rid];
  auto it = std::lower_bound(v.begin(), v.end(), st, [](const Intron& x, int32_t s) { return x.st < s; });
  // Sorted by start, and every intron has st < en: none from the first that starts at
  // or past the window's end on can fit in it.
  for (; it != v.end() && it->st < en; ++it) {
    if (it->en > en || it->en <= it->st || it->strand == 0) continue;
    const size_t first = static_cast<size_t>(it->st - st), last = static_cast<size_t>(it->en - 1 - st);
    if (it->strand > 0)
      out[first] |= dp_junc::kJuncForStart, out[last] |= dp_junc::kJuncForEnd;
    else
      out[first] |= dp_junc::kJuncRevEnd, out[last] |= dp_junc::kJuncRevStart;
  }
}

}  // namespace agatha::index
