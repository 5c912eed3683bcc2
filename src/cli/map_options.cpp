// Option parsing for index and align, as minimap2 2.24's main.c reads each option.
#include "map_options.hpp"

#include <agatha/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace agatha::cli {
namespace {

[[noreturn]] void bad_value(const std::string& option, const std::string& text) {
  throw OptionError("invalid value '" + text + "' for " + option);
}

// A decimal number at text[pos...]; advances pos past it.
double parse_double(const std::string& text, size_t& pos, const std::string& option) {
  const char* start = text.c_str() + pos;
  char* end = nullptr;
  const double x = std::strtod(start, &end);
  if (end == start || !std::isfinite(x)) bad_value(option, text);
  pos += static_cast<size_t>(end - start);
  return x;
}

void expect_end(const std::string& text, size_t pos, const std::string& option) {
  if (pos != text.size()) bad_value(option, text);
}

}  // namespace

int64_t parse_num(const std::string& text, const std::string& option, size_t* end) {
  size_t pos = 0;
  double x = parse_double(text, pos, option);
  if (pos < text.size()) {
    const char c = text[pos];
    if (c == 'G' || c == 'g')
      x *= 1e9, ++pos;
    else if (c == 'M' || c == 'm')
      x *= 1e6, ++pos;
    else if (c == 'K' || c == 'k')
      x *= 1e3, ++pos;
  }
  if (end)
    *end = pos;
  else
    expect_end(text, pos, option);
  return static_cast<int64_t>(x + .499);
}

void IndexArgs::add_to(CLI::App& sub) {
  // Checked as it is parsed, so that `-x ref.fa reads.fq` (no preset given) reports the
  // unknown preset, in minimap2's words, rather than a missing argument.
  const CLI::Validator known_preset(
      [](const std::string& name) -> std::string {
        AlignOptions{}.apply_preset(name);  // throws OptionError("unknown preset 'NAME'")
        return {};
      },
      "PRESET");
  sub.add_option("-x", preset, "Preset: map-ont (default), map-pb, map-hifi, asm5, asm10, asm20, ava-ont, ava-pb")
      ->check(known_preset);
  sub.add_option("-k", k, "k-mer size (no larger than 28)");
  sub.add_option("-w", w, "Minimizer window size");
  sub.add_flag("-H", hpc, "Use homopolymer-compressed k-mers");
}

void IndexArgs::apply(AlignOptions& opt) const {
  if (!preset.empty()) opt.apply_preset(preset);
  if (k) opt.k = *k;
  if (w) opt.w = *w;
  if (hpc) opt.hpc = true;
}

void MapArgs::add_to(CLI::App& sub) {
  sub.add_option("-f", mid_occ, "Filter out the top FLOAT fraction of repetitive minimizers, or those above INT");
  sub.add_option("-U", occ_range, "Lower and upper bounds of the computed -f threshold: INT[,INT]");
  sub.add_option("-g", max_gap, "Stop chain elongation if there are no minimizers in NUM bp");
  sub.add_option("-r", bandwidth, "Chaining bandwidth NUM[,NUM] (the second for the long join)");
  sub.add_option("-n", min_cnt, "Minimal number of minimizers on a chain");
  sub.add_option("-m", min_chain_score, "Minimal chaining score (matching bases minus log gap penalty)");
  sub.add_option("-N", best_n, "Retain at most INT secondary alignments");
  sub.add_option("-p", pri_ratio, "Min secondary-to-primary score ratio");
  sub.add_option("--mask-level", mask_level, "Threshold on query overlap for secondaries");
  sub.add_option("--secondary", secondary, "Whether to output secondary alignments: yes or no");
  sub.add_option("-t", threads, "Number of threads");
  sub.add_option("-K", batch_bases, "Minibatch size for mapping (K/M/G suffixes)");
}

void MapArgs::apply(AlignOptions& opt) const {
  if (mid_occ) {  // -f: a fraction below 1, an absolute count otherwise
    size_t pos = 0;
    const double x = parse_double(*mid_occ, pos, "-f");
    expect_end(*mid_occ, pos, "-f");
    if (x < 1.0)
      opt.mid_occ_frac = static_cast<float>(x), opt.mid_occ = 0;
    else
      opt.mid_occ = static_cast<int32_t>(x + .499);
  }
  if (occ_range) {  // -U: minimap2 reads integers (strtol)
    const size_t comma = occ_range->find(',');
    auto one = [](const std::string& t) {
      size_t pos = 0;
      const double x = parse_double(t, pos, "-U");
      expect_end(t, pos, "-U");
      return static_cast<int32_t>(x);
    };
    opt.min_mid_occ = one(occ_range->substr(0, comma));
    if (comma != std::string::npos) opt.max_mid_occ = one(occ_range->substr(comma + 1));
  }
  if (max_gap) opt.max_gap = static_cast<int>(parse_num(*max_gap, "-g"));
  if (bandwidth) {
    size_t pos = 0;
    opt.bw = static_cast<int>(parse_num(*bandwidth, "-r", &pos));
    if (pos < bandwidth->size()) {
      if ((*bandwidth)[pos] != ',') bad_value("-r", *bandwidth);
      opt.bw_long = static_cast<int>(parse_num(bandwidth->substr(pos + 1), "-r"));
    }
  }
  if (min_cnt) opt.min_cnt = *min_cnt;
  if (min_chain_score) opt.min_chain_score = *min_chain_score;
  // -N 0 is minimap2's "-N <previous value> --secondary=no" (checked below, after --secondary).
  if (best_n && *best_n != 0) opt.best_n = *best_n;
  if (pri_ratio) opt.pri_ratio = *pri_ratio;
  if (mask_level) opt.mask_level = *mask_level;
  if (secondary) {
    if (*secondary == "yes" || *secondary == "y")
      opt.print_secondary = true;
    else if (*secondary == "no" || *secondary == "n")
      opt.print_secondary = false;
    else
      throw OptionError("--secondary only takes 'yes' or 'no'");
  }
  if (best_n && *best_n == 0) {
    std::fprintf(stderr, "[W::align] changed '-N 0' to '-N %d --secondary=no'\n", opt.best_n);
    opt.print_secondary = false;
  }
  if (threads) opt.threads = *threads < 1 ? 1 : *threads;
  if (batch_bases) opt.read_batch = static_cast<uint64_t>(std::max<int64_t>(parse_num(*batch_bases, "-K"), 0));
}

}  // namespace agatha::cli
