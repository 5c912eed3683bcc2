// The minimap2 options of index and align, as minimap2 2.24's main.c reads each one,
// bound to AlignOptions.
#include "map_options.hpp"

#include <agatha/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace agatha::cli {
namespace {

[[noreturn]] void bad_value(const std::string& option, const std::string& text) {
  throw OptionError("invalid value '" + text + "' for " + option);
}

// A decimal number at text[pos...]; advances pos past it.
[[nodiscard]] double parse_double(const std::string& text, size_t& pos, const std::string& option) {
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

// The whole text as one number (no suffix).
[[nodiscard]] double parse_plain(const std::string& text, const std::string& option) {
  size_t pos = 0;
  const double x = parse_double(text, pos, option);
  expect_end(text, pos, option);
  return x;
}

// An option whose value minimap2 reads with its own syntax (`type`, e.g. NUM[,NUM]):
// `store` parses the text, throwing OptionError for a bad one, and writes the options
// struct. `default_text` is the default shown by --help.
CLI::Option* add_minimap2_option(CLI::App& sub, const std::string& name, const std::string& type,
                                 const std::string& default_text, std::function<void(const std::string&)> store,
                                 const std::string& help) {
  return sub.add_option_function<std::string>(name, std::move(store), help)->type_name(type)->default_str(default_text);
}

[[nodiscard]] std::string shortest(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", x);
  return b;
}

}  // namespace

namespace {

// parse_num's number before rounding.
[[nodiscard]] double parse_scaled(const std::string& text, const std::string& option, size_t* end) {
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
  return x;
}

}  // namespace

int64_t parse_num(const std::string& text, const std::string& option, size_t* end) {
  return static_cast<int64_t>(parse_scaled(text, option, end) + .499);
}

uint64_t parse_size(const std::string& text, const std::string& option) {
  const double x = parse_scaled(text, option, nullptr);
  if (x < 0) bad_value(option, text);
  constexpr double kMax = 18446744073709551615.0;  // 2^64, as a double
  return x + .499 >= kMax ? UINT64_MAX : static_cast<uint64_t>(x + .499);
}

CLI::Validator one_of(std::initializer_list<const char*> values, std::string message) {
  std::vector<std::string> accepted(values.begin(), values.end());
  std::string names;
  for (const std::string& v : accepted) names += (names.empty() ? "" : "|") + v;
  return CLI::Validator(
      [accepted = std::move(accepted), message = std::move(message)](const std::string& text) -> std::string {
        if (std::find(accepted.begin(), accepted.end(), text) == accepted.end()) throw OptionError(message);
        return {};
      },
      names);
}

void add_index_options(CLI::App& sub, AlignOptions& opt) {
  // Applied as it is parsed, before any other option's value is stored: the preset first,
  // whatever its position, as in main.c. An unknown preset is reported at once, in
  // minimap2's words, so that `-x ref.fa reads.fq` (no preset given) names the word -x
  // took rather than the argument now missing.
  sub.add_option_function<std::string>(
         "-x", [&opt](const std::string& name) { opt.apply_preset(name); },
         "Preset: map-ont (default), map-pb, map-hifi, asm5, asm10, asm20, ava-ont, ava-pb; applied before every "
         "other option")
      ->type_name("PRESET")
      ->trigger_on_parse();
  sub.add_option("-k", opt.k, "k-mer size (no larger than 28)")->capture_default_str();
  sub.add_option("-w", opt.w, "Minimizer window size")->capture_default_str();
  sub.add_flag("-H", opt.hpc, "Use homopolymer-compressed k-mers");
  add_minimap2_option(
      sub, "-I", "NUM", "4G", [&opt](const std::string& text) { opt.part_bases = parse_size(text, "-I"); },
      "Index parts of ~NUM reference bases (K/M/G suffixes): align maps the reads to each part in turn; an .agi "
      "holds one part");
  sub.add_option("--bucket-bits", opt.bucket_bits,
                 "Bits of the hash that select the index's bucket (no effect on output)")
      ->capture_default_str();
  sub.add_option_function<int>(
         "-t", [&opt](int n) { opt.threads = std::max(n, 1); },
         "Number of threads (index: sketching and sorting; align: every stage)")
      ->default_str(std::to_string(opt.threads));
}

void add_map_options(CLI::App& sub, AlignOptions& opt) {
  // ---- seeding ----
  add_minimap2_option(
      sub, "-f", "FLOAT|INT", shortest(opt.mid_occ_frac),
      [&opt](const std::string& text) {
        const double x = parse_plain(text, "-f");  // a fraction below 1, an absolute count otherwise
        if (x < 1.0)
          opt.mid_occ_frac = static_cast<float>(x), opt.mid_occ = 0;
        else
          opt.mid_occ = static_cast<int32_t>(x + .499);
      },
      "Filter out the top FLOAT fraction of repetitive minimizers, or those above INT");
  add_minimap2_option(
      sub, "-U", "INT[,INT]", std::to_string(opt.min_mid_occ) + "," + std::to_string(opt.max_mid_occ),
      [&opt](const std::string& text) {  // minimap2 reads integers (strtol)
        const size_t comma = text.find(',');
        opt.min_mid_occ = static_cast<int32_t>(parse_plain(text.substr(0, comma), "-U"));
        if (comma != std::string::npos)
          opt.max_mid_occ = static_cast<int32_t>(parse_plain(text.substr(comma + 1), "-U"));
      },
      "Lower and upper bounds of the computed -f threshold: INT[,INT]");
  sub.add_option("--q-occ-frac", opt.q_occ_frac,
                 "Skip read minimizers occurring more often than -f's threshold and than FLOAT x the read's "
                 "minimizers; 0: off")
      ->capture_default_str();
  // ---- chaining ----
  add_minimap2_option(
      sub, "-g", "NUM", std::to_string(opt.max_gap),
      [&opt](const std::string& text) { opt.max_gap = static_cast<int>(parse_num(text, "-g")); },
      "Stop chain elongation if there are no minimizers in NUM bp (K/M/G suffixes)");
  add_minimap2_option(
      sub, "-r", "NUM[,NUM]", std::to_string(opt.bw) + "," + std::to_string(opt.bw_long),
      [&opt](const std::string& text) {
        size_t pos = 0;
        opt.bw = static_cast<int>(parse_num(text, "-r", &pos));
        if (pos < text.size()) {
          if (text[pos] != ',') bad_value("-r", text);
          opt.bw_long = static_cast<int>(parse_num(text.substr(pos + 1), "-r"));
        }
      },
      "Chaining bandwidth NUM[,NUM] (the second for the long join)");
  sub.add_option("-n", opt.min_cnt, "Minimal number of minimizers on a chain")->capture_default_str();
  sub.add_option("-m", opt.min_chain_score, "Minimal chaining score (matching bases minus log gap penalty)")
      ->capture_default_str();
  sub.add_option("--max-chain-skip", opt.max_chain_skip,
                 "Chaining heuristic: stop after INT predecessors that do not improve the chain")
      ->capture_default_str();
  sub.add_option("--max-chain-iter", opt.max_chain_iter, "Check up to INT predecessors per anchor in chaining")
      ->capture_default_str();
  sub.add_option("--chain-gap-scale", opt.chain_gap_scale, "Scale of the chaining gap cost")->capture_default_str();
  sub.add_option("--chain-skip-scale", opt.chain_skip_scale, "Scale of the chaining skip cost")->capture_default_str();
  sub.add_flag("--no-long-join", opt.no_long_join,
               "Disable the long gap patching heuristic (the long join of chains, -r's second value)");
  sub.add_flag("--for-only", opt.for_only, "Only map to the forward strand of the reference sequences");
  sub.add_flag("--rev-only", opt.rev_only, "Only map to the reverse complement strand of the reference sequences");
  // ---- splicing ----
  add_minimap2_option(
      sub, "-G", "NUM", "",
      [&opt](const std::string& text) {  // mm_mapopt_max_intron_len: only under a splice preset
        const int n = static_cast<int>(parse_num(text, "-G"));
        if (opt.splice && n > 0) opt.max_gap_ref = opt.bw = opt.bw_long = n;
      },
      "Max intron length, with a splice preset (200k there): also the chaining bandwidth (K/M/G suffixes)");
  sub.add_option_function<std::string>(
         "-u",
         [&opt](const std::string& v) {
           if (v[0] == 'b')
             opt.splice_for = opt.splice_rev = true;
           else if (v[0] == 'f')
             opt.splice_for = true, opt.splice_rev = false;
           else if (v[0] == 'r')
             opt.splice_rev = true, opt.splice_for = false;
           else
             opt.splice_for = opt.splice_rev = false;
         },
         "How to find splice sites: f transcript strand, b both strands, n no attempt; -u f|r|b also turns "
         "splicing on")
      ->type_name("CHAR")
      ->check(CLI::Validator(
          [](const std::string& v) -> std::string {
            if (v.empty() || (v[0] != 'b' && v[0] != 'f' && v[0] != 'r' && v[0] != 'n'))
              throw OptionError("unrecognized cDNA direction");
            return {};
          },
          "b|f|r|n"));
  sub.add_option_function<std::string>(
         "--splice-flank", [&opt](const std::string& v) { opt.splice_flank = v == "yes" || v == "y"; },
         "Whether to assume the next base to a GT donor site is A/G, and the base before an AG acceptor C/T: yes "
         "or no")
      ->check(one_of({"yes", "y", "no", "n"}, "--splice-flank only takes 'yes' or 'no'"));
  sub.add_option("-C", opt.noncan, "Cost of a non-canonical splice site (the splice presets: 9)")
      ->capture_default_str();
  sub.add_option("--junc-bed", opt.junc_bed, "Annotated introns: BED12 (the gaps between blocks) or BED6 lines")
      ->type_name("FILE");
  sub.add_option("--junc-bonus", opt.junc_bonus,
                 "Score bonus of a splice site in the --junc-bed annotation (splice: 9; splice:hq: 5)")
      ->capture_default_str();
  sub.add_option("--end-seed-pen", opt.anchor_ext_shift,
                 "Drop a terminal anchor of a spliced chain if s<log(g)+INT, s its local alignment score and g "
                 "the gap to the next anchor")
      ->capture_default_str();
  sub.add_flag("--no-end-flt", opt.no_end_flt, "Do not trim seeds at the ends of chains");
  // ---- selection and MAPQ ----
  sub.add_option("-p", opt.pri_ratio, "Min secondary-to-primary score ratio")->capture_default_str();
  sub.add_option("--mask-level", opt.mask_level, "Threshold on query overlap for secondaries")->capture_default_str();
  add_minimap2_option(
      sub, "--mask-len", "NUM", "",
      [&opt](const std::string& text) { opt.mask_len = static_cast<int>(parse_num(text, "--mask-len")); },
      "Keep a region primary if dropping it would leave more than NUM read bases unaligned (K/M/G suffixes)");
  sub.add_option("--seed", opt.seed,
                 "Seed of the per-read hash (with the read name) that breaks ties between equally good hits")
      ->capture_default_str();
  sub.add_flag_callback(
      "--no-hash-name", [&opt] { opt.hash_name = false; },
      "Leave the read name out of the per-read hash: only --seed breaks ties");
  // Before -N, whose callback must come last: -N 0 turns secondaries off even after
  // --secondary=yes, as main.c's conversion after the option loop does.
  sub.add_option_function<std::string>(
         "--secondary", [&opt](const std::string& v) { opt.print_secondary = v == "yes" || v == "y"; },
         "Whether to output secondary alignments: yes or no")
      ->check(one_of({"yes", "y", "no", "n"}, "--secondary only takes 'yes' or 'no'"));
  sub.add_option_function<int>(
         "-N",
         [&opt](int n) {
           if (n != 0) {
             opt.best_n = n;
             return;
           }
           // main.c: -N 0 is "-N <previous value> --secondary=no", with a warning.
           std::fprintf(stderr, "[W::align] changed '-N 0' to '-N %d --secondary=no'\n", opt.best_n);
           opt.print_secondary = false;
         },
         "Retain at most INT secondary alignments; 0: --secondary=no")
      ->default_str(std::to_string(opt.best_n));
  // ---- base-level alignment ----
  sub.add_option("--score-N", opt.sc_ambi, "Penalty of a non-ACGT base")->capture_default_str();
  sub.add_option("--end-bonus", opt.end_bonus, "Score bonus when an extension reaches the end of the read")
      ->capture_default_str();
  sub.add_option("--min-dp-len", opt.min_ksw_len,
                 "DP fills the gap to an anchor only when it is at least INT long on both sequences")
      ->capture_default_str();
  sub.add_option("--max-clip-ratio", opt.max_clip_ratio,
                 "Drop a region clipped by more than FLOAT x the read length at both ends")
      ->capture_default_str();
  add_minimap2_option(
      sub, "--cap-sw-mem", "NUM", std::to_string(opt.max_sw_mat),
      [&opt](const std::string& text) { opt.max_sw_mat = parse_num(text, "--cap-sw-mem"); },
      "Skip a DP above NUM cells, as Z-dropped; 0: no cap (K/M/G suffixes)");
  // ---- fragments (paired reads) ----
  sub.add_option_function<std::string>(
         "--frag", [&opt](const std::string& v) { opt.frag_mode = v == "yes" || v == "y"; },
         "Fragment mode: reads of several files, or consecutive reads of one file named alike up to /1 /2, are "
         "the segments of one fragment (sr: yes)")
      ->check(one_of({"yes", "y", "no", "n"}, "--frag only takes 'yes' or 'no'"));
  add_minimap2_option(
      sub, "-F", "NUM", "800",
      [&opt](const std::string& text) { opt.max_frag_len = static_cast<int>(parse_num(text, "-F")); },
      "Max fragment length (with -x sr or in the fragment mode; K/M/G suffixes)");
  sub.add_flag_callback(
      "--no-pairing", [&opt] { opt.independent_segments = true; },
      "Map the segments of a fragment as reads of their own (still written as a pair)");
  // ---- pipeline ----
  add_minimap2_option(
      sub, "-K", "NUM", std::to_string(opt.read_batch),
      [&opt](const std::string& text) {
        opt.read_batch = static_cast<uint64_t>(std::max<int64_t>(parse_num(text, "-K"), 0));
      },
      "Minibatch size for mapping (K/M/G suffixes)");
}

}  // namespace agatha::cli
