// src/eval/svg_plot.hpp — self-contained SVG charts for `agatha eval --plot` and
// `agatha compare --plot`, readable in any browser (no scripts, no external files).
//
// Structure, relied on by tests: one <g class="axis x"> and one <g class="axis y">,
// each with a <text class="axis-label">; per series one <g class="curve"> holding a
// <polyline> and one <circle> per point, and one <text class="legend"> with its label.
#pragma once

#include "accuracy.hpp"
#include "compare.hpp"

#include <string>
#include <vector>

namespace agatha::eval {

struct Curve {
  std::string label;
  std::vector<Threshold> points;  // one per MAPQ threshold, high to low
};

// Error rate (x, log10 scale) against fraction mapped (y), one curve per input; points
// are labelled with their MAPQ threshold. An error rate of 0 cannot sit on a log axis
// and is drawn at the left edge (said in a note under the plot).
std::string accuracy_svg(const std::vector<Curve>& curves, const std::string& title);

// Horizontal bars: the share of REF reads identical, with the same position, CIGAR,
// MAPQ and tags, and the reads missing from / extra in TEST.
std::string compare_svg(const CompareReport& r);

// Escapes &, <, >, " for XML text and attributes.
std::string xml_escape(const std::string& s);

}  // namespace agatha::eval
