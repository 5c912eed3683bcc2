// src/cli/minimap2_args.hpp — minimap2's command line (main.c), 2.24's or 2.31's as
// --compat says (AlignOptions::rules(): an option 2.31 added is an unknown option with
// --compat 2.24): its options, each bound to AlignOptions or to the output settings,
// read with minimap2's scanner (getopt.hpp) in minimap2's two passes (every -x preset
// first, in order; then every other option in order), then minimap2's checks after the
// loop.
//
// One table serves both front ends: `agatha minimap2` (and a link named minimap2), which
// reads values as minimap2 does (atoi/strtol/strtod and mm_parse_num: a value with
// trailing junk such as `-k 15x` is silently read as far as it goes), and `agatha align`,
// which reads the same options with the same meaning but refuses such a value
// ("invalid value '15x' for -k") and an invalid yes/no word, and keeps its own options
// (CLI11) beside them.
#pragma once

#include <agatha/options.hpp>

#include <functional>
#include <string>
#include <vector>

#include "getopt.hpp"

namespace agatha::cli {

// What a minimap2 command line sets besides AlignOptions (main.c's flags and variables).
struct Minimap2Settings {
  AlignOptions opt;
  bool sam = false;     // -a (MM_F_OUT_SAM)
  bool cigar = false;   // base-level alignment (MM_F_CIGAR): -a, -c, --cs, -S
  bool paf_cg = false;  // -c: the cg tag in PAF (MM_F_OUT_CG)
  bool cs = false, cs_long = false;  // --cs[=short|long|none], -S
  bool md = false;                   // --MD
  bool eqx = false, soft_clip = false, long_cigar = false;  // --eqx, -Y, -L
  bool sam_hit_only = false, paf_no_hit = false;
  // 2.31's output switches: --ds (MM_F_OUT_DS), --secondary-seq (MM_F_SECONDARY_SEQ),
  // --write-junc (MM_F_OUT_JUNC).
  bool ds = false, secondary_seq = false, write_junc = false;
  std::string output = "-";  // -o
  std::string index_out;     // -d
  std::string read_group;    // -R
  bool idx_no_seq = false;   // --idx-no-seq
  int verbose = 3;           // -v
  bool help = false;         // -h
  int old_best_n = -1;       // -N's previous value (for -N 0)
  int threads_given = 3;     // -t as given (the usage text shows it; agatha runs at least 1)
  // Accepted options agatha does not implement, and debugging switches it leaves out:
  // refused after the checks (refuse_unsupported).
  std::vector<std::string> unsupported;
  std::vector<std::string> arguments;  // target, then the query files
};

// The front end whose rules apply.
enum class Minimap2Flavor {
  kMinimap2,  // agatha minimap2: minimap2's value syntax and defaults exactly
  kAlign,     // agatha align: invalid values refused; -h and align's own options left to CLI11
};

// An option that is not minimap2's, scanned with them (agatha align's own long options):
// passed on as "--name" or "--name=VALUE".
struct ExtraOption {
  std::string name;
  ArgKind arg;
};

enum class Minimap2Action { kRun, kVersion, kHelp, kUsage };

struct Minimap2Parse {
  Minimap2Settings settings;
  Minimap2Action action = Minimap2Action::kRun;
  std::vector<std::string> extras;  // the ExtraOptions given, in order ("--name[=VALUE]")
};

// Reads a command line (words[0]: the program's name) onto `base` (the defaults) and
// runs main.c's steps up to the usage text: -V returns at once (kVersion), as minimap2
// prints the version when it meets -V in its second pass; then --splice with --frag,
// mm_check_opt (AlignOptions::validate with the output flags), -N 0 (turned into
// --secondary=no); then -h (kHelp) or no target (kUsage). Warnings go to `warn` (the text
// without a prefix). Throws OptionError with minimap2's message for an unknown option,
// a missing value, an unknown preset, a bad -u, and what the checks refuse.
[[nodiscard]] Minimap2Parse parse_minimap2_args(std::vector<std::string> words, Minimap2Flavor flavor,
                                                const Minimap2Settings& base,
                                                const std::function<void(const std::string&)>& warn,
                                                const std::vector<ExtraOption>& extras = {});

// The usage text of `minimap2 -h` of the release `settings` follow, with `settings`' values.
[[nodiscard]] std::string minimap2_usage(const Minimap2Settings& settings);

// The minimap2 options as a help list (agatha align's --help): "  -k INT  k-mer size ..." lines;
// those 2.31 added end in "(2.31)".
[[nodiscard]] std::string minimap2_option_help();

// Throws OptionError for the first accepted option agatha does not implement.
void refuse_unsupported(const Minimap2Settings& s);

// Value syntax, exposed for tests. C rules (strict == false): as far as the text goes,
// 0 (or garbage-in) where no number starts it; strict: the whole text must be the number.
// `option` names the option in the error.
[[nodiscard]] int c_atoi(const std::string& text, const std::string& option, bool strict);
[[nodiscard]] double c_atof(const std::string& text, const std::string& option, bool strict);
// mm_parse_num: strtod, then K/M/G (x 1e3/1e6/1e9), rounded (x + .499, truncated).
[[nodiscard]] int64_t mm_parse_num(const std::string& text, const std::string& option, bool strict);

}  // namespace agatha::cli
