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

struct CompareArgs {
  std::string ref, test, plot;
  size_t show = 5;
  bool fail_on_diff = false;
};

// Decimal digits only. CLI11 reads a size_t with strtoull in base 0, which takes "-1"
// as the largest value and "010" as 8; leading zeros are dropped here so it reads
// the number as written.
[[nodiscard]] CLI::Validator decimal_count() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
          return "'" + text + "' is not a non-negative integer";
        text.erase(0, std::min(text.find_first_not_of('0'), text.size() - 1));
        return std::string();
      },
      "INT >= 0");
}

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

[[nodiscard]] int run_compare(const CompareArgs& a) {
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

}  // namespace

void add_compare_command(CLI::App& app) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* sub = app.add_subcommand("compare", "Compare two alignment files read by read (SAM, BAM or PAF)");
  sub->footer(
      "Percentages are of the reads in REF. 'identical': every record of the read is the same\n"
      "text; the other rows compare the read's primary record (contig, start and strand;\n"
      "CIGAR; MAPQ; the set of optional tags). Shown reads: '<' REF records, '>' TEST records.");
  sub->add_option("ref", args->ref, "Reference alignments")->required()->check(CLI::ExistingFile);
  sub->add_option("test", args->test, "Alignments to compare with REF")->required()->check(CLI::ExistingFile);
  sub->add_option("--show", args->show, "Differing reads to print with both records")->transform(decimal_count());
  sub->add_flag("--fail-on-diff", args->fail_on_diff, "Exit 1 when any read differs, is missing or is extra");
  sub->add_option("--plot", args->plot, "Write an SVG summary chart");
  run_when_parsed(*sub, [args] { return run_compare(*args); });
}

}  // namespace agatha::cli
