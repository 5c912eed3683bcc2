// src/eval/svg_plot.cpp — the two SVG charts, drawn with plain coordinates.
#include "svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace agatha::eval {

std::string xml_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '&')
      o += "&amp;";
    else if (c == '<')
      o += "&lt;";
    else if (c == '>')
      o += "&gt;";
    else if (c == '"')
      o += "&quot;";
    else
      o += c;
  }
  return o;
}

namespace {

constexpr const char* kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"};
constexpr double kW = 820, kH = 560, kLeft = 80, kRight = 220, kTop = 50, kBottom = 80;

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string header(double w, double h, const std::string& title) {
  std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fmt("%.0f", w) + "\" height=\"" + fmt("%.0f", h) +
       "\" viewBox=\"0 0 " + fmt("%.0f", w) + " " + fmt("%.0f", h) +
       "\" font-family=\"sans-serif\" font-size=\"13\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += "<text class=\"title\" x=\"" + fmt("%.1f", w / 2) + "\" y=\"28\" text-anchor=\"middle\" font-size=\"16\">" +
       xml_escape(title) + "</text>\n";
  return s;
}

std::string line(double x1, double y1, double x2, double y2, const char* extra = "stroke=\"black\"") {
  return "<line x1=\"" + fmt("%.1f", x1) + "\" y1=\"" + fmt("%.1f", y1) + "\" x2=\"" + fmt("%.1f", x2) + "\" y2=\"" +
         fmt("%.1f", y2) + "\" " + extra + "/>\n";
}

std::string text(double x, double y, const std::string& s, const char* attrs) {
  return "<text x=\"" + fmt("%.1f", x) + "\" y=\"" + fmt("%.1f", y) + "\" " + attrs + ">" + xml_escape(s) + "</text>\n";
}

// The plot's data ranges: x in decades [lo, hi] of the error rate, y in [ymin, 1].
struct Frame {
  int lo = -4, hi = 0;
  double ymin = 0;
  double x(double err) const {
    const double l = err > 0 ? std::clamp(std::log10(err), double(lo), double(hi)) : lo;
    return kLeft + (l - lo) / (hi - lo) * (kW - kLeft - kRight);
  }
  double y(double frac) const { return kTop + (1 - frac) / (1 - ymin) * (kH - kTop - kBottom); }
};

Frame frame_for(const std::vector<Curve>& curves) {
  Frame f;
  double emin = 1, emax = 0, fmin = 1;
  for (const Curve& c : curves)
    for (const Threshold& t : c.points) {
      if (t.error > 0) emin = std::min(emin, t.error), emax = std::max(emax, t.error);
      fmin = std::min(fmin, t.frac);
    }
  if (emax > 0) {
    f.lo = std::min(static_cast<int>(std::floor(std::log10(emin))), -1);
    f.hi = std::min(static_cast<int>(std::ceil(std::log10(emax))), 0);
    if (f.hi <= f.lo) f.hi = f.lo + 1;
  }
  f.ymin = std::clamp(std::floor(fmin * 10 - 1e-9) / 10, 0.0, 0.9);
  return f;
}

std::string axes(const Frame& f) {
  const double x0 = kLeft, x1 = kW - kRight, y0 = kH - kBottom, y1 = kTop;
  std::string s = "<g class=\"axis x\">\n" + line(x0, y0, x1, y0);
  for (int d = f.lo; d <= f.hi; ++d) {
    const double x = f.x(std::pow(10.0, d));
    s += line(x, y0, x, y0 + 5) + line(x, y0, x, y1, "stroke=\"#ddd\"");
    s += text(x, y0 + 20, d == 0 ? "1" : "1e" + std::to_string(d), "text-anchor=\"middle\"");
  }
  s += text((x0 + x1) / 2, y0 + 45, "error rate of reads mapped at MAPQ >= Q (log scale)",
            "class=\"axis-label\" text-anchor=\"middle\"");
  s += text(x0, y0 + 65, "error rate 0 is drawn at the left edge", "class=\"note\" font-size=\"11\" fill=\"#555\"");
  s += "</g>\n<g class=\"axis y\">\n" + line(x0, y0, x0, y1);
  for (int k = static_cast<int>(std::lround(f.ymin * 10)); k <= 10; ++k) {
    const double y = f.y(k / 10.0);
    s += line(x0 - 5, y, x0, y) + line(x0, y, x1, y, "stroke=\"#ddd\"");
    s += text(x0 - 8, y + 4, fmt("%.1f", k / 10.0), "text-anchor=\"end\"");
  }
  s += "<text class=\"axis-label\" transform=\"translate(24," + fmt("%.1f", (y0 + y1) / 2) +
       ") rotate(-90)\" text-anchor=\"middle\">fraction of reads mapped at MAPQ &gt;= Q</text>\n</g>\n";
  return s;
}

std::string curve(const Frame& f, const Curve& c, size_t i) {
  const char* col = kColours[i % (sizeof kColours / sizeof *kColours)];
  std::string pts, marks;
  for (const Threshold& t : c.points) {
    const double x = f.x(t.error), y = f.y(t.frac);
    pts += fmt("%.1f", x) + "," + fmt("%.1f", y) + " ";
    marks += "<circle cx=\"" + fmt("%.1f", x) + "\" cy=\"" + fmt("%.1f", y) + "\" r=\"3.5\" fill=\"" + col +
             "\"><title>" + xml_escape(c.label) + ": MAPQ &gt;= " + std::to_string(t.mapq) + ", mapped " +
             fmt("%.4f", t.frac) + ", error " + fmt("%.6f", t.error) + "</title></circle>\n";
    marks += text(x + 5, y - 5 - 12.0 * i, std::to_string(t.mapq), "class=\"qlabel\" font-size=\"10\" fill=\"#444\"");
  }
  if (!pts.empty()) pts.pop_back();
  std::string s = "<g class=\"curve\" data-label=\"" + xml_escape(c.label) + "\">\n";
  s += "<polyline fill=\"none\" stroke=\"" + std::string(col) + "\" stroke-width=\"2\" points=\"" + pts + "\"/>\n";
  s += marks + "</g>\n";
  const double ly = kTop + 20 + 22.0 * i, lx = kW - kRight + 20;
  s += line(lx, ly - 4, lx + 24, ly - 4, ("stroke=\"" + std::string(col) + "\" stroke-width=\"3\"").c_str());
  s += text(lx + 30, ly, c.label, "class=\"legend\"");
  return s;
}

}  // namespace

std::string accuracy_svg(const std::vector<Curve>& curves, const std::string& title) {
  const Frame f = frame_for(curves);
  std::string s = header(kW, kH, title) + axes(f);
  s += text(kW - kRight + 20, kTop, "numbers at points: Q", "class=\"note\" font-size=\"11\" fill=\"#555\"");
  for (size_t i = 0; i < curves.size(); ++i) s += curve(f, curves[i], i);
  return s + "</svg>\n";
}

std::string compare_svg(const CompareReport& r) {
  const double base = r.ref_reads ? static_cast<double>(r.ref_reads) : 1;
  const std::pair<const char*, size_t> bars[] = {{"identical", r.identical},   {"same position", r.same_position},
                                                 {"same CIGAR", r.same_cigar}, {"same MAPQ", r.same_mapq},
                                                 {"same tags", r.same_tags},   {"missing in TEST", r.missing},
                                                 {"extra in TEST", r.extra}};
  const double w = 720, h = 90 + 34.0 * 7 + 40, x0 = 150, bw = 440;
  std::string s = header(w, h, "agatha compare: " + r.test_path + " against " + r.ref_path);
  s += "<g class=\"axis x\">\n" + line(x0, h - 60, x0 + bw, h - 60);
  for (int k = 0; k <= 4; ++k) {
    const double x = x0 + bw * k / 4;
    s += line(x, h - 60, x, h - 55) + text(x, h - 42, std::to_string(25 * k) + "%", "text-anchor=\"middle\"");
  }
  s += text(x0 + bw / 2, h - 20, "share of the " + std::to_string(r.ref_reads) + " reads in REF",
            "class=\"axis-label\" text-anchor=\"middle\"");
  s += "</g>\n<g class=\"axis y\">\n" + line(x0, 50, x0, h - 60);
  s += "<text class=\"axis-label\" x=\"0\" y=\"0\" visibility=\"hidden\">category</text>\n</g>\n";
  for (size_t i = 0; i < 7; ++i) {
    const double y = 60 + 34.0 * i, v = std::min(1.0, bars[i].second / base);
    s += "<g class=\"bar\">\n" + text(x0 - 8, y + 16, bars[i].first, "text-anchor=\"end\"");
    s += "<rect x=\"" + fmt("%.1f", x0) + "\" y=\"" + fmt("%.1f", y) + "\" width=\"" + fmt("%.1f", bw * v) +
         "\" height=\"22\" fill=\"" + (i < 5 ? "#1f77b4" : "#d62728") + "\"/>\n";
    s += text(x0 + bw * v + 6, y + 16, std::to_string(bars[i].second) + fmt(" (%.2f%%)", 100 * v), "class=\"value\"");
    s += "</g>\n";
  }
  return s + "</svg>\n";
}

}  // namespace agatha::eval
