// src/cli/compare_cmd.cpp — `agatha compare REF TEST`: read-by-read differences between
// two alignment files (SAM, BAM or PAF), with the first differing reads shown.
#include "commands.hpp"

#include "../eval/compare.hpp"
#include "../eval/svg_plot.hpp"
#include "../io/output_file.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

namespace agatha::cli {
namespace {

[[nodiscard]] std::string pct_line(const char* name, size_t n, size_t base) {
  char b[160];
  std::snprintf(b, sizeof b, "%s\t%zu\t%.2f%%\n", name, n, base ? 100.0 * n / base : 100.0);
  return b;
}

[[nodiscard]] std::string examples(const std::vector<std::string>& ex) {
  std::string s;
  for (const std::string& e : ex) {
    s += s.empty() ? "\te.g. " : ", ";
    s += e;
  }
  return s;
}

[[nodiscard]] std::string report_text(const eval::CompareReport& r) {
  std::string s = "reads\tref " + std::to_string(r.ref_reads) + "\ttest " + std::to_string(r.test_reads) + "\tboth " +
                  std::to_string(r.both) + "\n";
  s += pct_line("identical", r.identical, r.ref_reads);
  s += pct_line("same_position", r.same_position, r.ref_reads);
  s += pct_line("same_cigar", r.same_cigar, r.ref_reads);
  s += pct_line("same_mapq", r.same_mapq, r.ref_reads);
  s += pct_line("same_tags", r.same_tags, r.ref_reads);
  s += "missing_in_test\t" + std::to_string(r.missing) + examples(r.missing_examples) + "\n";
  s += "extra_in_test\t" + std::to_string(r.extra) + examples(r.extra_examples) + "\n";
  for (const eval::ReadDiff& d : r.shown) {
    s += "diff\t" + d.read + "\t" + eval::diff_names(d.diffs) + "\n";
    for (const std::string& l : d.ref_lines) s += "<\t" + l + "\n";
    for (const std::string& l : d.test_lines) s += ">\t" + l + "\n";
  }
  return s;
}

}  // namespace

int run_compare(const CompareArgs& a) {
  const eval::CompareReport r = eval::compare_files(a.ref, a.test, a.show);
  if (r.ref_duplicate_primary)
    std::fprintf(stderr, "[W::compare] '%s': %zu reads have more than one primary record (the first is compared)\n",
                 a.ref.c_str(), r.ref_duplicate_primary);
  if (r.test_duplicate_primary)
    std::fprintf(stderr, "[W::compare] '%s': %zu reads have more than one primary record (the first is compared)\n",
                 a.test.c_str(), r.test_duplicate_primary);
  io::OutputFile out("-");
  out.write(report_text(r));
  out.close();
  if (!a.plot.empty()) {
    io::OutputFile svg(a.plot);
    svg.write(eval::compare_svg(r));
    svg.close();
  }
  return a.fail_on_diff && !r.all_identical() ? 1 : 0;
}

}  // namespace agatha::cli
