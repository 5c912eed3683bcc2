// src/cli/eval_cmd.cpp — `agatha eval --truth TRUTH ALN...`: mapping accuracy against
// simulated origins, per MAPQ threshold, several inputs side by side; optional SVG plot.
#include "commands.hpp"

#include "../eval/accuracy.hpp"
#include "../eval/svg_plot.hpp"
#include "../io/output_file.hpp"

#include <agatha/error.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace agatha::cli {
const char* const kEvalHelp =
    "Mapping accuracy against simulated origins (the convention of paftools.js mapeval).\n"
    "Each truth read is judged by its primary record (SAM: flag without 0x100/0x800;\n"
    "PAF: the read's first tp:A:P line). It is correct when it lies on the true contig\n"
    "and strand and overlap/union of the reference intervals exceeds --overlap. MAPQ is\n"
    "capped at 60. For each threshold Q = 60, 50, ..., 0:\n"
    "  mapped = reads whose primary is mapped with MAPQ >= Q (cumulative count),\n"
    "  frac   = mapped / reads in the truth (absent and unmapped reads count here),\n"
    "  wrong  = reads among 'mapped' whose primary is not correct,\n"
    "  error  = wrong / mapped (0 when mapped is 0).\n"
    "Without --truth the origin is read from each input's read names\n"
    "(name!contig!start!end!strand, 0-based start, as paftools.js pbsim2fq writes).\n"
    "Labels (-l) name the inputs in order: at most one per input; inputs after the last\n"
    "label are named by their path as given.";

namespace {

constexpr int kSummaryMapq = 10;

// Labels become column names of a tab-separated table, so they must be one field.
void check_labels(const std::vector<std::string>& labels, size_t inputs) {
  if (labels.size() > inputs)
    throw OptionError(std::to_string(labels.size()) + " labels (-l) given for " + std::to_string(inputs) +
                      " alignment file" + (inputs == 1 ? "" : "s") + "; give at most one label per file");
  for (const std::string& l : labels)
    if (l.empty() || l.find_first_of("\t\n\r") != std::string::npos)
      throw OptionError("label '" + l + "' must be non-empty and without tabs or line breaks");
}

void warn(const std::string& path, const eval::Anomaly& a, const char* what) {
  if (a.count == 0) return;
  std::string ex;
  for (const std::string& e : a.examples) {
    if (!ex.empty()) ex += ", ";
    ex += e;
  }
  std::fprintf(stderr, "[W::eval] '%s': %zu %s, e.g. %s\n", path.c_str(), a.count, what, ex.c_str());
}

[[nodiscard]] std::string table(const std::vector<eval::AccuracyReport>& reps, const std::vector<std::string>& labels) {
  std::string s = "MAPQ";
  for (const std::string& l : labels) s += "\t" + l + ":mapped\t" + l + ":frac\t" + l + ":wrong\t" + l + ":error";
  s += "\n";
  char b[128];
  for (int q = eval::kMaxMapq; q >= 0; q -= 10) {
    s += ">=" + std::to_string(q);
    for (const eval::AccuracyReport& r : reps) {
      const eval::Threshold t = r.at(q);
      std::snprintf(b, sizeof b, "\t%llu\t%.4f\t%llu\t%.6f", static_cast<unsigned long long>(t.mapped), t.frac,
                    static_cast<unsigned long long>(t.wrong), t.error);
      s += b;
    }
    s += "\n";
  }
  for (size_t i = 0; i < reps.size(); ++i) {
    const eval::Threshold t = reps[i].at(kSummaryMapq);
    std::snprintf(b, sizeof b, "\treads %zu\tunmapped %zu\tmapped(Q>=%d) %.4f\terror(Q>=%d) %.6f\n",
                  reps[i].truth_reads, reps[i].unmapped, kSummaryMapq, t.frac, kSummaryMapq, t.error);
    s += "summary\t" + labels[i] + b;
  }
  return s;
}

}  // namespace

int run_eval(const EvalArgs& a) {
  check_labels(a.labels, a.inputs.size());
  std::vector<std::string> labels = a.labels;
  for (size_t i = labels.size(); i < a.inputs.size(); ++i) labels.push_back(a.inputs[i]);
  std::unique_ptr<eval::Truth> truth;
  if (!a.truth.empty()) truth = std::make_unique<eval::Truth>(eval::load_truth(a.truth));
  std::vector<eval::AccuracyReport> reps;
  for (const std::string& in : a.inputs) {
    reps.push_back(truth ? eval::evaluate(*truth, in, a.overlap) : eval::evaluate_by_names(in, a.overlap));
    const eval::AccuracyReport& r = reps.back();
    warn(in, r.absent, "truth reads never appear in the file (counted as unmapped)");
    warn(in, r.no_primary, "truth reads have no primary record (counted as unmapped)");
    warn(in, r.unknown, "reads in the file are not in the truth (ignored)");
    warn(in, r.duplicate, "reads have more than one primary record (the first is judged)");
  }
  io::OutputFile out("-");
  out.write(table(reps, labels));
  out.close();
  if (!a.plot.empty()) {
    std::vector<eval::Curve> curves;
    for (size_t i = 0; i < reps.size(); ++i) {
      eval::Curve c{labels[i], {}};
      for (int q = eval::kMaxMapq; q >= 0; q -= 10) c.points.push_back(reps[i].at(q));
      curves.push_back(std::move(c));
    }
    io::OutputFile svg(a.plot);
    svg.write(eval::accuracy_svg(curves, "Mapping accuracy" + (a.truth.empty() ? "" : " (truth: " + a.truth + ")")));
    svg.close();
  }
  return 0;
}

}  // namespace agatha::cli
