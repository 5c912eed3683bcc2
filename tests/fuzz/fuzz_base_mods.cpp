// Fuzz target: the MM/ML/MN rewriting of a hard-clipped record's comment
// (format/base_mods.hpp). Input: a line of the comment (SAM tags, tabs kept), a line of
// bases, then the slice's begin and end as two bytes each. A rewritten comment must carry
// MN:i with the slice's length, and at most as many ML values as the input had.
#include "../../src/format/base_mods.hpp"

#include <cstdlib>
#include <string>
#include <string_view>

namespace {

// The values of the first ML:B:C field (a field's start: the text may hold "ML:B:C"
// inside another field's value).
size_t ml_values(std::string_view s) {
  size_t at = std::string_view::npos;
  for (size_t i = s.find("ML:B:C"); i != std::string_view::npos; i = s.find("ML:B:C", i + 1))
    if (i == 0 || s[i - 1] == '\t') {
      at = i;
      break;
    }
  if (at == std::string_view::npos) return 0;
  size_t n = 0;
  for (size_t i = at; i < s.size() && s[i] != '\t'; ++i) n += s[i] == ',';
  return n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  const size_t nl1 = in.find('\n');
  if (nl1 == std::string_view::npos) return 0;
  const size_t nl2 = in.find('\n', nl1 + 1);
  if (nl2 == std::string_view::npos || size - nl2 - 1 < 4) return 0;
  const std::string_view comment = in.substr(0, nl1), seq = in.substr(nl1 + 1, nl2 - nl1 - 1);
  const auto* p = data + nl2 + 1;
  const int32_t begin = p[0] | p[1] << 8, end = p[2] | p[3] << 8;
  const auto out = agatha::format::trim_base_mods(comment, seq, begin, end);
  if (!out) return 0;
  if (begin < 0 || end < begin || static_cast<size_t>(end) > seq.size()) std::abort();
  if (out->find("MN:i:" + std::to_string(end - begin)) == std::string::npos) std::abort();
  if (ml_values(*out) > ml_values(comment)) std::abort();
  return 0;
}
