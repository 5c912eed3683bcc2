// MM/ML/MN rewriting for a slice of the read (see the header).
#include "base_mods.hpp"

#include <charconv>
#include <vector>

namespace agatha::format {
namespace {

struct ModType {
  char base = 0, strand = 0;
  std::string_view codes;  // "m", "mh", or a ChEBI number
  char mode = 0;           // '.', '?' or 0
  std::vector<uint32_t> skips;
  size_t n_codes() const { return codes.empty() || (codes[0] >= '0' && codes[0] <= '9') ? 1 : codes.size(); }
};

bool parse_uint(std::string_view s, uint32_t& v) {
  if (s.empty()) return false;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size();
}

bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// MM's value: `B(+|-)CODES[.?](,SKIP)*;` repeated.
bool parse_mm(std::string_view v, std::vector<ModType>& types) {
  while (!v.empty()) {
    const size_t semi = v.find(';');
    if (semi == std::string_view::npos) return false;
    std::string_view t = v.substr(0, semi);
    v.remove_prefix(semi + 1);
    if (t.size() < 3) return false;
    ModType m;
    m.base = t[0], m.strand = t[1];
    if (std::string_view("ACGTUN").find(m.base) == std::string_view::npos || (m.strand != '+' && m.strand != '-'))
      return false;
    size_t i = 2;
    if (is_lower(t[i])) {
      while (i < t.size() && is_lower(t[i])) ++i;
    } else if (is_digit(t[i])) {
      while (i < t.size() && is_digit(t[i])) ++i;
    } else {
      return false;
    }
    m.codes = t.substr(2, i - 2);
    if (i < t.size() && (t[i] == '.' || t[i] == '?')) m.mode = t[i++];
    while (i < t.size()) {
      if (t[i] != ',') return false;
      const size_t next = t.find(',', i + 1);
      const size_t stop = next == std::string_view::npos ? t.size() : next;
      uint32_t skip = 0;
      if (!parse_uint(t.substr(i + 1, stop - i - 1), skip)) return false;
      m.skips.push_back(skip);
      i = stop;
    }
    types.push_back(std::move(m));
  }
  return true;
}

// ML's value after "B:C": `(,PROB)*`.
bool parse_ml(std::string_view v, std::vector<uint8_t>& probs) {
  while (!v.empty()) {
    if (v[0] != ',') return false;
    const size_t next = v.find(',', 1);
    const size_t stop = next == std::string_view::npos ? v.size() : next;
    uint32_t p = 0;
    if (!parse_uint(v.substr(1, stop - 1), p) || p > 255) return false;
    probs.push_back(static_cast<uint8_t>(p));
    v.remove_prefix(stop);
  }
  return true;
}

bool counts(char mod_base, char read_base) {
  if (mod_base == 'N') return true;
  const char b = static_cast<char>(read_base & ~0x20);  // upper case
  return b == mod_base || (mod_base == 'U' && b == 'T');
}

}  // namespace

std::optional<std::string> trim_base_mods(std::string_view comment, std::string_view seq, int32_t begin,
                                          int32_t end) {
  std::vector<std::string_view> fields;
  for (size_t pos = 0;;) {
    const size_t tab = comment.find('\t', pos);
    fields.push_back(comment.substr(pos, tab == std::string_view::npos ? std::string_view::npos : tab - pos));
    if (tab == std::string_view::npos) break;
    pos = tab + 1;
  }
  // The MM field and its ML: "MM:Z:" with "ML:B:C", or the older "Mm:Z:" with "Ml:B:C".
  size_t mm = fields.size(), ml = fields.size(), mn = fields.size();
  for (size_t i = 0; i < fields.size(); ++i) {
    const std::string_view f = fields[i];
    if ((f.starts_with("MM:Z:") || f.starts_with("Mm:Z:")) && mm == fields.size()) mm = i;
    if (f.starts_with("MN:i:")) mn = i;
  }
  if (mm == fields.size()) return std::nullopt;
  const std::string_view ml_prefix = fields[mm][1] == 'M' ? "ML:B:C" : "Ml:B:C";
  for (size_t i = 0; i < fields.size(); ++i)
    if (fields[i].starts_with(ml_prefix)) {
      ml = i;
      break;
    }

  std::vector<ModType> types;
  std::vector<uint8_t> probs;
  if (!parse_mm(fields[mm].substr(5), types)) return std::nullopt;
  if (ml != fields.size() && !parse_ml(fields[ml].substr(ml_prefix.size()), probs)) return std::nullopt;
  size_t n_probs = 0;
  for (const ModType& t : types) n_probs += t.skips.size() * t.n_codes();
  if (ml == fields.size() ? n_probs != 0 : n_probs != probs.size()) return std::nullopt;
  if (begin < 0 || end < begin || static_cast<size_t>(end) > seq.size()) return std::nullopt;

  std::string new_mm(fields[mm].substr(0, 5)), new_ml(ml_prefix);
  size_t prob_at = 0;
  for (const ModType& t : types) {
    std::string entry{t.base, t.strand};
    entry += t.codes;
    if (t.mode) entry += t.mode;
    bool kept_any = false;
    // Walk the read's bases of this type: `seen` counts those in the slice passed since
    // the last call kept (or since `begin`).
    size_t i = 0;
    uint32_t seen = 0;
    for (const uint32_t skip : t.skips) {
      // The call is on the (skip + 1)-th base of the type from i.
      uint32_t left = skip;
      for (;; ++i) {
        if (i == seq.size()) return std::nullopt;  // more calls than bases
        if (counts(t.base, seq[i])) {
          if (left == 0) break;
          --left;
          if (i >= static_cast<size_t>(begin) && i < static_cast<size_t>(end)) ++seen;
        }
      }
      if (i >= static_cast<size_t>(begin) && i < static_cast<size_t>(end)) {
        entry += ',';
        entry += std::to_string(seen);
        for (size_t c = 0; c < t.n_codes(); ++c) {
          new_ml += ',';
          new_ml += std::to_string(probs[prob_at + c]);
        }
        seen = 0;
        kept_any = true;
      }
      prob_at += t.n_codes();
      ++i;
    }
    if (kept_any) new_mm += entry + ';';
  }

  std::string out;
  out.reserve(comment.size() + 16);
  const std::string mn_field = "MN:i:" + std::to_string(end - begin);
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) out += '\t';
    if (i == mm)
      out += new_mm;
    else if (i == ml)
      out += new_ml;
    else if (i == mn)
      out += mn_field;
    else
      out += fields[i];
  }
  if (mn == fields.size()) out += '\t' + mn_field;
  return out;
}

}  // namespace agatha::format
