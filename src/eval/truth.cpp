// src/eval/truth.cpp — the pbsim MAF and encoded-name truth readers.
#include "truth.hpp"

#include "../io/line_reader.hpp"
#include "fields.hpp"

#include <agatha/error.hpp>

#include <algorithm>
#include <iterator>

namespace agatha::eval {

bool Truth::add(const std::string& read, Origin o) {
  if (!by_read.emplace(read, std::move(o)).second) return false;
  order.push_back(read);
  return true;
}

std::optional<Origin> parse_origin_name(std::string_view name) {
  std::vector<std::string_view> f;
  size_t start = 0;
  for (size_t bang; (bang = name.find('!', start)) != std::string_view::npos; start = bang + 1)
    f.push_back(name.substr(start, bang - start));
  f.push_back(name.substr(start));
  // The read's own name may contain '!': the origin is the last four fields.
  if (f.size() < 5) return std::nullopt;
  const size_t k = f.size() - 4;
  Origin o;
  o.contig = std::string(f[k]);
  if (o.contig.empty() || !parse_nonneg(f[k + 1], o.start) || !parse_nonneg(f[k + 2], o.end)) return std::nullopt;
  if (f[k + 3] != "+" && f[k + 3] != "-") return std::nullopt;
  if (o.end < o.start) return std::nullopt;
  o.strand = f[k + 3][0];
  return o;
}

namespace {

std::string where(const io::LineReader& in) { return "'" + in.path() + "' line " + std::to_string(in.line_number()); }

void add_or_throw(Truth& t, const std::string& read, Origin o, const io::LineReader& in) {
  if (!t.add(read, std::move(o))) throw InputError(where(in) + ": read '" + read + "' appears twice in the truth");
}

// One MAF "s" line: s name start size strand srcSize text.
struct SLine {
  std::string name;
  int64_t start = 0, size = 0;
  char strand = '+';
};

SLine parse_s_line(const std::string& line, const io::LineReader& in) {
  const std::vector<std::string_view> f = split_spaces(line);
  if (f.size() != 7)
    throw InputError(where(in) + ": MAF 's' line has " + std::to_string(f.size()) + " fields, expected 7");
  SLine s;
  s.name = std::string(f[1]);
  int64_t src = 0, end = 0;
  const Num nums[] = {read_nonneg(f[2], s.start), read_nonneg(f[3], s.size), read_nonneg(f[5], src)};
  if (std::find(std::begin(nums), std::end(nums), Num::kNotNumber) != std::end(nums))
    throw InputError(where(in) + ": MAF 's' line: start, size and srcSize must be non-negative integers");
  // The block covers [start, start + size) of a source of srcSize bases (on either
  // strand); checking that here also keeps the origin's end from overflowing.
  if (std::find(std::begin(nums), std::end(nums), Num::kOutOfRange) != std::end(nums) ||
      !add_nonneg(s.start, s.size, end) || end > src)
    throw InputError(where(in) + ": MAF 's' line: position out of range (start + size must be at most srcSize)");
  if (f[4] != "+" && f[4] != "-") throw InputError(where(in) + ": MAF 's' line: strand must be + or -");
  s.strand = f[4][0];
  return s;
}

// pbsim MAF: the first "s" line of each block is the reference, the second the read.
void load_maf(io::LineReader& in, std::string line, Truth& t) {
  int in_block = 0;  // 0: outside a block; 1: expecting the reference; 2: the read; 3: done
  SLine ref;
  do {
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == 'a') {
      if (in_block == 1 || in_block == 2)
        throw InputError(where(in) + ": MAF block ends before its reference and read 's' lines");
      in_block = 1;
    } else if (line[0] == 's') {
      if (in_block == 0) throw InputError(where(in) + ": MAF 's' line outside an 'a' block");
      if (in_block == 1) {
        ref = parse_s_line(line, in);
        if (ref.strand != '+') throw InputError(where(in) + ": reference strand must be '+' in pbsim MAF");
      } else if (in_block == 2) {
        const SLine read = parse_s_line(line, in);
        add_or_throw(t, read.name, Origin{ref.name, ref.start, ref.start + ref.size, read.strand}, in);
      }
      in_block = std::min(in_block + 1, 3);
    }
  } while (in.next(line));
  if (in_block == 1 || in_block == 2) throw InputError("'" + in.path() + "': last MAF block is incomplete");
}

// FASTA/FASTQ: only the names matter; FASTQ records are four lines, counted from the
// first header (load_truth skips blank lines before it).
void load_names(io::LineReader& in, std::string line, Truth& t) {
  const bool fastq = line[0] == '@';
  const size_t first = in.line_number();
  do {
    if (line.empty()) continue;
    if (fastq && (in.line_number() - first) % 4 != 0) continue;
    if (!fastq && line[0] != '>') continue;
    if (line[0] != (fastq ? '@' : '>')) throw InputError(where(in) + ": expected a FASTQ header line");
    const std::string name = line.substr(1, line.find_first_of(" \t") - 1);
    std::optional<Origin> o = parse_origin_name(name);
    if (!o)
      throw InputError(where(in) + ": read name '" + name +
                       "' does not encode its origin (name!contig!start!end!strand)");
    add_or_throw(t, name, std::move(*o), in);
  } while (in.next(line));
}

}  // namespace

Truth load_truth(const std::string& path) {
  io::LineReader in(path);
  std::string line;
  while (in.next(line) && line.empty()) {
  }
  Truth t;
  if (line.empty()) throw InputError("'" + path + "': truth file has no reads");
  if (line[0] == '@' || line[0] == '>')
    load_names(in, line, t);
  else if (line[0] == 'a' || line[0] == '#' || line[0] == 's')
    load_maf(in, line, t);
  else
    throw InputError("'" + path + "' line " + std::to_string(in.line_number()) +
                     ": not a pbsim MAF, FASTA or FASTQ file");
  if (t.size() == 0) throw InputError("'" + path + "': truth file has no reads");
  return t;
}

}  // namespace agatha::eval
