// src/eval/truth.hpp — where each simulated read came from: a pbsim MAF file, or names
// that encode the origin as paftools.js pbsim2fq writes them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace agatha::eval {

struct Origin {
  std::string contig;
  int64_t start = 0, end = 0;  // 0-based, half-open, as in MAF
  char strand = '+';           // '-': the read is the reverse complement of the reference
};

struct Truth {
  std::unordered_map<std::string, Origin> by_read;
  std::vector<std::string> order;  // read names in file order
  size_t size() const { return order.size(); }
  // Adds a read; false (and nothing added) if it is already present.
  bool add(const std::string& read, Origin o);
};

// Parses "name!contig!start!end!strand" (start 0-based, end exclusive, strand + or -);
// nullopt if NAME is not of that form.
std::optional<Origin> parse_origin_name(std::string_view name);

// Loads a truth file, detected from its content (plain or gzip):
//  - pbsim MAF: blocks "a", then an "s" line for the reference
//    (s contig start size strand srcSize seq) and one for the read (s read ...); the
//    read's origin is the reference interval [start, start+size) and the read line's
//    strand;
//  - FASTA or FASTQ whose read names encode the origin (parse_origin_name).
// Throws InputError naming the file and line on anything malformed, on a read named
// twice, and on a file without reads.
Truth load_truth(const std::string& path);

}  // namespace agatha::eval
