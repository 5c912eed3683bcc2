// minimap2's options, 2.24's and 2.31's (main.c's option table and option loop), their
// effect on AlignOptions and the output settings, and the checks after the loop. See
// minimap2_args.hpp.
#include "minimap2_args.hpp"

#include <agatha/error.hpp>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agatha::cli {
namespace {

[[noreturn]] void bad_value(const std::string& option, const std::string& text) {
  throw OptionError("invalid value '" + text + "' for " + option);
}

// strtol at text[pos...] (C rules: leading blanks, a sign, digits; 0 when none),
// saturated at the long range; pos moves past what was read.
long c_strtol_at(const std::string& text, size_t& pos) {
  const char* start = text.c_str() + pos;
  char* end = nullptr;
  const long x = std::strtol(start, &end, 10);
  pos += static_cast<size_t>(end - start);
  return x;
}

double c_strtod_at(const std::string& text, size_t& pos) {
  const char* start = text.c_str() + pos;
  char* end = nullptr;
  const double x = std::strtod(start, &end);
  pos += static_cast<size_t>(end - start);
  return x;
}

// A double converted to int64_t as x86-64 does it (cvttsd2si): truncated, and INT64_MIN
// for NaN and anything out of range.
int64_t to_int64(double x) {
  if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0)) return INT64_MIN;
  return static_cast<int64_t>(x);
}

// An int from a long or int64 as C's conversion does it on this platform (the low 32 bits).
int to_int(int64_t x) { return static_cast<int>(static_cast<uint32_t>(static_cast<uint64_t>(x))); }

// Strict reading: pos must have moved (a number was there) and, unless `more` allows a
// separator next, reached the end.
void check_number(const std::string& text, size_t before, size_t after, bool to_end, const std::string& option,
                  const std::string& shown) {
  if (after == before || (to_end && after != text.size())) bad_value(option, shown);
  // strtol/strtod accept leading blanks; a strict value starts with the number itself.
  if (std::isspace(static_cast<unsigned char>(text[before]))) bad_value(option, shown);
}

// mm_parse_num2 at text[pos...]: the number, its suffix; pos moves past both.
int64_t parse_num_at(const std::string& text, size_t& pos, bool strict, bool to_end, const std::string& option,
                     const std::string& shown) {
  const size_t before = pos;
  double x = c_strtod_at(text, pos);
  if (strict) {
    check_number(text, before, pos, false, option, shown);
    if (!std::isfinite(x)) bad_value(option, shown);
  }
  x = apply_num_suffix(text, pos, x);
  if (strict && to_end && pos != text.size()) bad_value(option, shown);
  return to_int64(x + .499);
}

// NUM[,NUM] of strtol (-z -O -E -U): the first value; the second, if a comma follows.
std::pair<long, std::optional<long>> long_pair(const std::string& text, const std::string& option, bool strict) {
  size_t pos = 0;
  const long a = c_strtol_at(text, pos);
  if (strict) check_number(text, 0, pos, false, option, text);
  if (pos < text.size() && text[pos] == ',') {
    const std::string rest = text.substr(pos + 1);
    size_t p2 = 0;
    const long b = c_strtol_at(rest, p2);
    if (strict) check_number(rest, 0, p2, true, option, rest);
    return {a, b};
  }
  if (strict && pos != text.size()) bad_value(option, text);
  return {a, std::nullopt};
}

// What an option's action sees.
struct Ctx {
  Minimap2Settings& s;
  bool strict;
  const std::function<void(const std::string&)>& warn;
  std::string name;  // as given: "-k" or "--seed"
  const std::string* value;
  [[nodiscard]] const std::string& v() const { return *value; }
  [[nodiscard]] int i() const { return c_atoi(v(), name, strict); }
  [[nodiscard]] float f() const { return static_cast<float>(c_atof(v(), name, strict)); }
  [[nodiscard]] int64_t num() const { return mm_parse_num(v(), name, strict); }
  // yes_or_no: `set` is what "yes" sets.
  void yes_no(bool& flag, bool yes_value) const {
    if (v() == "yes" || v() == "y")
      flag = yes_value;
    else if (v() == "no" || v() == "n")
      flag = !yes_value;
    else if (strict)
      throw OptionError(name + " only takes 'yes' or 'no'");
    else
      warn("option '" + name + "' only accepts 'yes' or 'no'.");
  }
  void unsupported(const std::string& why) const { s.unsupported.push_back(name + ": " + why); }
};

using Action = void (*)(Ctx&);

// The releases that have an option (ReleaseRules::options_2_31 decides).
enum class Since : uint8_t {
  kBoth,     // 2.24 and 2.31
  k2_31,     // added in 2.31: an unknown option in 2.24
  k2_24Only  // 2.24's form of an option 2.31 changed (--sr without a value)
};

// One option of minimap2: its short letter (0: none), its long name (null: none),
// whether it takes a value, and what it does; the releases that have it. `value` and
// `help` are for the help lists; a null help keeps the option out of them (minimap2 does
// not list it either).
struct Mm2Option {
  char letter;
  const char* long_name;
  ArgKind arg;
  const char* value;
  const char* help;
  Action apply;
  Since since = Since::kBoth;
};

bool has_option(const Mm2Option& o, const ReleaseRules& rules) {
  switch (o.since) {
    case Since::kBoth: return true;
    case Since::k2_31: return rules.options_2_31;
    case Since::k2_24Only: return !rules.options_2_31;
  }
  return false;
}

// minimap2's -S (deprecated) and --cs.
void set_cs(Ctx& c) {
  Minimap2Settings& s = c.s;
  s.cs = s.cigar = true;
  if (!c.value || *c.value == "short") {
    s.cs_long = false;
  } else if (*c.value == "long") {
    s.cs_long = true;
  } else if (*c.value == "none") {
    s.cs = false;
  } else if (c.strict) {
    throw OptionError("--cs only takes 'short', 'long' or 'none'");
  } else if (s.verbose >= 2) {
    c.warn("--cs only takes 'short' or 'long'. Invalid values are assumed to be 'short'.");
  }
}

// The options in minimap2's order of its short-option string, then its long-only
// options in its long-option table's order (2.31's additions where 2.31 put them). Help texts follow minimap2's --help and man
// page.
const Mm2Option kOptions[] = {
    {'2', nullptr, ArgKind::kNone, nullptr, "use two I/O threads during mapping (no effect on output)",
     [](Ctx& c) { c.s.opt.two_io_threads = true; }},
    {'a', "sam", ArgKind::kNone, nullptr, "output in the SAM format (PAF by default)",
     [](Ctx& c) { c.s.sam = c.s.cigar = true; }},
    {'S', nullptr, ArgKind::kNone, nullptr, "deprecated: --cs=long",
     [](Ctx& c) {
       c.s.cs = c.s.cigar = c.s.cs_long = true;
       if (c.s.verbose >= 2) c.warn("option -S is deprecated and may be removed in future. Please use --cs=long instead.");
     }},
    {'D', "no-self", ArgKind::kNone, nullptr, "skip self mappings (all-vs-all mode)",
     [](Ctx& c) { c.s.opt.no_diag = true; }},
    {'w', nullptr, ArgKind::kRequired, "INT", "minimizer window size", [](Ctx& c) { c.s.opt.w = c.i(); }},
    {'k', nullptr, ArgKind::kRequired, "INT", "k-mer size (no larger than 28)", [](Ctx& c) { c.s.opt.k = c.i(); }},
    {'K', "mb-size", ArgKind::kRequired, "NUM", "minibatch size for mapping [500M]",
     [](Ctx& c) { c.s.opt.read_batch = static_cast<uint64_t>(std::max<int64_t>(c.num(), 0)); }},
    {'t', nullptr, ArgKind::kRequired, "INT", "number of threads [3]",
     [](Ctx& c) {
       c.s.threads_given = c.i();
       c.s.opt.threads = std::max(c.s.threads_given, 1);
     }},
    {'r', nullptr, ArgKind::kRequired, "NUM[,NUM]", "chaining/alignment bandwidth and long-join bandwidth",
     [](Ctx& c) {
       size_t pos = 0;
       const std::string& t = c.v();
       c.s.opt.bw = to_int(parse_num_at(t, pos, c.strict, false, c.name, t));
       if (pos < t.size() && t[pos] == ',') {
         const std::string rest = t.substr(pos + 1);
         size_t p2 = 0;
         c.s.opt.bw_long = to_int(parse_num_at(rest, p2, c.strict, true, c.name, rest));
       } else if (c.strict && pos != t.size()) {
         bad_value(c.name, t);
       }
     }},
    {'f', nullptr, ArgKind::kRequired, "FLOAT[,INT]",
     "filter out top FLOAT fraction of repetitive minimizers (or those above INT when >= 1); the second value caps "
     "the second round of short-read seeding",
     [](Ctx& c) {
       const std::string& t = c.v();
       size_t pos = 0;
       const double x = c_strtod_at(t, pos);
       if (c.strict) check_number(t, 0, pos, false, c.name, t);
       if (x < 1.0)
         c.s.opt.mid_occ_frac = static_cast<float>(x), c.s.opt.mid_occ = 0;
       else
         c.s.opt.mid_occ = to_int(to_int64(x + .499));
       if (pos < t.size() && t[pos] == ',') {
         const std::string rest = t.substr(pos + 1);
         size_t p2 = 0;
         const double y = c_strtod_at(rest, p2);
         if (c.strict) check_number(rest, 0, p2, true, c.name, rest);
         c.s.opt.max_occ = to_int(to_int64(y + .499));
       } else if (c.strict && pos != t.size()) {
         bad_value(c.name, t);
       }
     }},
    {'V', "version", ArgKind::kNone, nullptr, "show version number", nullptr},  // handled by the loop
    {'v', nullptr, ArgKind::kRequired, "INT", "verbose level [3]", [](Ctx& c) { c.s.verbose = c.i(); }},
    {'g', nullptr, ArgKind::kRequired, "NUM", "stop chain enlongation if there are no minimizers in INT-bp",
     [](Ctx& c) { c.s.opt.max_gap = to_int(c.num()); }},
    {'G', "max-intron-len", ArgKind::kRequired, "NUM",
     "max intron length (effective with -xsplice; changing -r) [200k]",
     [](Ctx& c) {  // mm_mapopt_max_intron_len: only once splicing is on
       const int n = to_int(c.num());
       if (c.s.opt.splice && n > 0) c.s.opt.max_gap_ref = c.s.opt.bw = c.s.opt.bw_long = n;
     }},
    {'I', nullptr, ArgKind::kRequired, "NUM", "split index for every ~NUM input bases [4G]",
     [](Ctx& c) {
       const int64_t n = c.num();
       if (c.strict && n < 0) bad_value(c.name, c.v());
       c.s.opt.part_bases = static_cast<uint64_t>(n);  // as minimap2: a negative number wraps around
     }},
    {'d', nullptr, ArgKind::kRequired, "FILE", "dump index to FILE []", [](Ctx& c) { c.s.index_out = c.v(); }},
    {'X', nullptr, ArgKind::kNone, nullptr, "skip self and dual mappings (for the all-vs-all mode)",
     [](Ctx& c) {
       AlignOptions& o = c.s.opt;
       o.all_chains = o.no_diag = o.no_dual = o.no_long_join = true;
     }},
    {'T', nullptr, ArgKind::kRequired, "INT",  // hidden in minimap2 2.24's usage text
     "SDUST threshold: drop read minimizers in low-complexity intervals; 0 to disable [0]",
     [](Ctx& c) { c.s.opt.sdust_thres = c.i(); }},
    {'s', "min-dp-score", ArgKind::kRequired, "INT", "minimal peak DP alignment score",
     [](Ctx& c) { c.s.opt.min_dp_max = c.i(); }},
    {'x', nullptr, ArgKind::kRequired, "STR",
     "preset (always applied before other options): map-pb, map-ont, map-hifi, ava-pb, ava-ont, asm5, asm10, asm20, "
     "splice, splice:hq, sr; 2.31's also lr (map-ont), lr:hq, lr:hqae, map-iclr, map-iclr-prerender, splice:sr",
     nullptr},  // applied by the first pass
    {'H', nullptr, ArgKind::kNone, nullptr, "use homopolymer-compressed k-mer (preferrable for PacBio)",
     [](Ctx& c) { c.s.opt.hpc = true; }},
    {'c', nullptr, ArgKind::kNone, nullptr, "output CIGAR in PAF", [](Ctx& c) { c.s.cigar = c.s.paf_cg = true; }},
    {'p', nullptr, ArgKind::kRequired, "FLOAT", "min secondary-to-primary score ratio",
     [](Ctx& c) { c.s.opt.pri_ratio = c.f(); }},
    {'M', "mask-level", ArgKind::kRequired, "FLOAT", "mask level: query overlap of a secondary with its primary [0.5]",
     [](Ctx& c) { c.s.opt.mask_level = c.f(); }},
    {'n', "min-count", ArgKind::kRequired, "INT", "minimal number of minimizers on a chain",
     [](Ctx& c) { c.s.opt.min_cnt = c.i(); }},
    {'z', nullptr, ArgKind::kRequired, "INT[,INT]", "Z-drop score and inversion Z-drop score",
     [](Ctx& c) {
       const auto [a, b] = long_pair(c.v(), c.name, c.strict);
       c.s.opt.zdrop = c.s.opt.zdrop_inv = to_int(a);
       if (b) c.s.opt.zdrop_inv = to_int(*b);
     }},
    {'A', nullptr, ArgKind::kRequired, "INT", "matching score", [](Ctx& c) { c.s.opt.a = c.i(); }},
    {'B', nullptr, ArgKind::kRequired, "INT", "mismatch penalty (larger value for lower divergence)",
     [](Ctx& c) { c.s.opt.b = c.i(); }},
    {'b', nullptr, ArgKind::kRequired, "INT", "mismatch penalty of a transition (A<->G, C<->T); 0: -B",
     [](Ctx& c) {
       c.s.opt.transition = c.i();
     },
     Since::k2_31},
    {'O', nullptr, ArgKind::kRequired, "INT[,INT]", "gap open penalty",
     [](Ctx& c) {
       const auto [a, b] = long_pair(c.v(), c.name, c.strict);
       c.s.opt.q = c.s.opt.q2 = to_int(a);
       if (b) c.s.opt.q2 = to_int(*b);
     }},
    {'E', nullptr, ArgKind::kRequired, "INT[,INT]",
     "gap extension penalty; a k-long gap costs min{O1+k*E1,O2+k*E2}",
     [](Ctx& c) {
       const auto [a, b] = long_pair(c.v(), c.name, c.strict);
       c.s.opt.e = c.s.opt.e2 = to_int(a);
       if (b) c.s.opt.e2 = to_int(*b);
     }},
    {'m', "min-chain-score", ArgKind::kRequired, "INT",
     "minimal chaining score (matching bases minus log gap penalty)",
     [](Ctx& c) { c.s.opt.min_chain_score = c.i(); }},
    {'N', nullptr, ArgKind::kRequired, "INT", "retain at most INT secondary alignments",
     [](Ctx& c) { c.s.old_best_n = c.s.opt.best_n, c.s.opt.best_n = c.i(); }},
    {'Q', nullptr, ArgKind::kNone, nullptr, "don't output base quality in SAM", [](Ctx& c) { c.s.opt.no_qual = true; }},
    {'u', nullptr, ArgKind::kRequired, "CHAR",
     "how to find GT-AG. f:transcript strand, b:both strands, n:don't match GT-AG",
     [](Ctx& c) {
       AlignOptions& o = c.s.opt;
       switch (c.v().empty() ? '\0' : c.v()[0]) {
         case 'b': o.splice_for = o.splice_rev = true; break;
         case 'f': o.splice_for = true, o.splice_rev = false; break;
         case 'r': o.splice_rev = true, o.splice_for = false; break;
         case 'n': o.splice_for = o.splice_rev = false; break;
         default: throw OptionError("unrecognized cDNA direction");
       }
     }},
    {'R', nullptr, ArgKind::kRequired, "STR", "SAM read group line in a format like '@RG\\tID:foo\\tSM:bar'",
     [](Ctx& c) { c.s.read_group = c.v(); }},
    {'h', "help", ArgKind::kNone, nullptr, "show this help", [](Ctx& c) { c.s.help = true; }},
    {'F', nullptr, ArgKind::kRequired, "NUM", "max fragment length (effective with -xsr or in the fragment mode)",
     [](Ctx& c) { c.s.opt.max_frag_len = to_int(c.num()); }},
    {'L', nullptr, ArgKind::kNone, nullptr, "write CIGAR with >65535 ops at the CG tag",
     [](Ctx& c) { c.s.long_cigar = true; }},
    {'C', "cost-non-gt-ag", ArgKind::kRequired, "INT", "cost for a non-canonical GT-AG splicing",
     [](Ctx& c) { c.s.opt.noncan = c.i(); }},
    {'y', nullptr, ArgKind::kNone, nullptr, "copy FASTA/FASTQ comments to output",
     [](Ctx& c) { c.s.opt.copy_comment = true; }},
    {'Y', nullptr, ArgKind::kNone, nullptr, "use soft clipping for supplementary alignments",
     [](Ctx& c) { c.s.soft_clip = true; }},
    {'P', "all-chain", ArgKind::kNone, nullptr, "retain all chains and don't attempt to set primary chains",
     [](Ctx& c) { c.s.opt.all_chains = true; }},
    {'o', nullptr, ArgKind::kRequired, "FILE", "output alignments to FILE [stdout]",
     [](Ctx& c) { c.s.output = c.v(); }},
    {'e', nullptr, ArgKind::kRequired, "NUM", "occurrence distance of repetitive minimizers kept (-f's rescue) [500]",
     [](Ctx& c) { c.s.opt.occ_dist = to_int(c.num()); }},
    {'U', nullptr, ArgKind::kRequired, "INT[,INT]", "lower and upper bounds of the -f occurrence threshold",
     [](Ctx& c) {
       const auto [a, b] = long_pair(c.v(), c.name, c.strict);
       c.s.opt.min_mid_occ = to_int(a);
       if (b) c.s.opt.max_mid_occ = to_int(*b);
     }},
    {'J', nullptr, ArgKind::kRequired, "INT", "splice mode. 0: original minimap2 model; 1: miniprot model [1]",
     [](Ctx& c) {  // other values leave the model as it is
       const int t = c.i();
       if (t == 0 || t == 1) c.s.opt.splice_model = t;
     },
     Since::k2_31},
    {'j', nullptr, ArgKind::kRequired, "FILE", "junctions in BED12 to extend *short* RNA-seq alignment",
     [](Ctx& c) {
       c.s.opt.jump_bed = c.v();
       c.unsupported("junction jumps (mm_idx_jjump_read, jump.c) are not implemented");
     },
     Since::k2_31},
    // ---- long-only options ----
    {0, "bucket-bits", ArgKind::kRequired, "INT", "bits of the index's hash buckets (no effect on output)",
     [](Ctx& c) { c.s.opt.bucket_bits = c.i(); }},
    {0, "seed", ArgKind::kRequired, "INT", "seed of the per-read hash that breaks ties",
     [](Ctx& c) { c.s.opt.seed = c.i(); }},
    {0, "no-kalloc", ArgKind::kNone, nullptr, "debugging: system malloc (no effect on output)", [](Ctx&) {}},
    {0, "print-qname", ArgKind::kNone, nullptr, nullptr,
     [](Ctx& c) { c.unsupported("a minimap2 debugging switch, left out"); }},
    {0, "print-seeds", ArgKind::kNone, nullptr, nullptr,
     [](Ctx& c) { c.unsupported("a minimap2 debugging switch, left out"); }},
    {0, "max-chain-skip", ArgKind::kRequired, "INT", "a heuristic that stops chaining early",
     [](Ctx& c) { c.s.opt.max_chain_skip = c.i(); }},
    {0, "min-dp-len", ArgKind::kRequired, "INT", "min extension length of DP",
     [](Ctx& c) { c.s.opt.min_ksw_len = c.i(); }},
    {0, "print-aln-seq", ArgKind::kNone, nullptr, nullptr,
     [](Ctx& c) { c.unsupported("a minimap2 debugging switch, left out"); }},
    {0, "splice", ArgKind::kNone, nullptr, "spliced alignment mode", [](Ctx& c) { c.s.opt.splice = true; }},
    {0, "no-long-join", ArgKind::kNone, nullptr, "disable the long gap patching heuristic",
     [](Ctx& c) { c.s.opt.no_long_join = true; }},
    {0, "sr", ArgKind::kNone, nullptr, nullptr, [](Ctx& c) { c.s.opt.sr = true; }, Since::k2_24Only},
    {0, "sr", ArgKind::kOptional, "[=dna|rna|no]",
     "short-read alignment heuristics: dna (if absent), rna (spliced short reads) or no; 2.24's --sr takes no value",
     [](Ctx& c) {
       AlignOptions& o = c.s.opt;
       if (!c.value || *c.value == "dna") {
         o.sr = true;
       } else if (*c.value == "rna") {
         o.sr_rna = true;
       } else if (*c.value == "no") {
         o.sr = o.sr_rna = false;
       } else if (c.strict) {
         throw OptionError("--sr only takes 'dna', 'rna' or 'no'");
       } else if (c.s.verbose >= 2) {  // as minimap2: below -v 2 an invalid value does nothing
         o.sr = true;
         c.warn("--sr only takes 'dna' or 'rna'. Invalid values are assumed to be 'dna'.");
       }
     },
     Since::k2_31},
    {0, "frag", ArgKind::kRequired, "yes|no", "whether to map the reads of several files as fragments",
     [](Ctx& c) { c.yes_no(c.s.opt.frag_mode, true); }},
    {0, "secondary", ArgKind::kRequired, "yes|no", "whether to output secondary alignments",
     [](Ctx& c) { c.yes_no(c.s.opt.print_secondary, true); }},
    {0, "cs", ArgKind::kOptional, "[=STR]", "output the cs tag; STR is 'short' (if absent) or 'long' [none]", set_cs},
    {0, "end-bonus", ArgKind::kRequired, "INT", "score bonus when alignment extends to the end of the query",
     [](Ctx& c) { c.s.opt.end_bonus = c.i(); }},
    {0, "no-pairing", ArgKind::kNone, nullptr, "treat the segments of a fragment as independent reads (2.31: --pairing=no)",
     [](Ctx& c) { c.s.opt.independent_segments = true; }},
    {0, "splice-flank", ArgKind::kRequired, "yes|no",
     "whether to assume the next base to GT is A/G and the base before AG is C/T",
     [](Ctx& c) { c.yes_no(c.s.opt.splice_flank, true); }},
    {0, "idx-no-seq", ArgKind::kNone, nullptr, "don't store target sequences in the index",
     [](Ctx& c) { c.s.idx_no_seq = true; }},
    {0, "end-seed-pen", ArgKind::kRequired, "INT", "drop a terminal anchor if s<log(g)+INT (splicing)",
     [](Ctx& c) { c.s.opt.anchor_ext_shift = c.i(); }},
    {0, "for-only", ArgKind::kNone, nullptr, "only map to the forward strand of the reference",
     [](Ctx& c) { c.s.opt.for_only = true; }},
    {0, "rev-only", ArgKind::kNone, nullptr, "only map to the reverse complement strand of the reference",
     [](Ctx& c) { c.s.opt.rev_only = true; }},
    {0, "heap-sort", ArgKind::kRequired, "yes|no", "sort the seeds of short reads with a heap",
     [](Ctx& c) { c.yes_no(c.s.opt.heap_sort, true); }},
    {0, "dual", ArgKind::kRequired, "yes|no", "whether to skip query-target pairs with i>j (all-vs-all mode)",
     [](Ctx& c) { c.yes_no(c.s.opt.no_dual, false); }},
    {0, "max-clip-ratio", ArgKind::kRequired, "FLOAT", "drop a region clipped by more than FLOAT x the read length",
     [](Ctx& c) { c.s.opt.max_clip_ratio = c.f(); }},
    {0, "min-occ-floor", ArgKind::kRequired, "INT", "force the -f occurrence threshold to be at least INT",
     [](Ctx& c) { c.s.opt.min_mid_occ = c.i(); }},
    {0, "MD", ArgKind::kNone, nullptr, "output the MD tag", [](Ctx& c) { c.s.md = true; }},
    {0, "lj-min-ratio", ArgKind::kRequired, "FLOAT", "deprecated (no effect)",
     [](Ctx& c) { c.warn(" --lj-min-ratio has been deprecated."); }},  // minimap2's text has two blanks
    {0, "score-N", ArgKind::kRequired, "INT", "penalty of a non-ACGT base", [](Ctx& c) { c.s.opt.sc_ambi = c.i(); }},
    {0, "eqx", ArgKind::kNone, nullptr, "write =/X CIGAR operators", [](Ctx& c) { c.s.eqx = true; }},
    {0, "paf-no-hit", ArgKind::kNone, nullptr, "in PAF, output unmapped queries",
     [](Ctx& c) { c.s.paf_no_hit = true; }},
    {0, "split-prefix", ArgKind::kRequired, "STR", "prefix of the scratch files of a multi-part index's merge",
     [](Ctx& c) { c.s.opt.split_prefix = c.v(); }},
    {0, "no-end-flt", ArgKind::kNone, nullptr, "don't filter seeds towards the ends of chains",
     [](Ctx& c) { c.s.opt.no_end_flt = true; }},
    {0, "hard-mask-level", ArgKind::kNone, nullptr, "honor option -M and disable a heuristic to save unmapped bases",
     [](Ctx& c) { c.s.opt.hard_mask_level = true; }},
    {0, "cap-sw-mem", ArgKind::kRequired, "NUM", "skip a DP above NUM cells (as Z-dropped); 0: no cap",
     [](Ctx& c) { c.s.opt.max_sw_mat = c.num(); }},
    {0, "max-qlen", ArgKind::kRequired, "NUM", "skip (leave unmapped) queries longer than NUM",
     [](Ctx& c) { c.s.opt.max_qlen = c.num(); }},
    {0, "max-chain-iter", ArgKind::kRequired, "INT", "check up to INT predecessors per anchor in chaining",
     [](Ctx& c) { c.s.opt.max_chain_iter = c.i(); }},
    {0, "junc-bed", ArgKind::kRequired, "FILE", "annotated introns (BED12 or 6-column BED)",
     [](Ctx& c) { c.s.opt.junc_bed = c.v(); }},
    {0, "junc-bonus", ArgKind::kRequired, "INT", "score bonus of a splice site in the annotation",
     [](Ctx& c) { c.s.opt.junc_bonus = c.i(); }},
    {0, "sam-hit-only", ArgKind::kNone, nullptr, "don't output unmapped reads in SAM",
     [](Ctx& c) { c.s.sam_hit_only = true; }},
    {0, "chain-gap-scale", ArgKind::kRequired, "FLOAT", "scale of the chaining gap cost",
     [](Ctx& c) { c.s.opt.chain_gap_scale = c.f(); }},
    {0, "alt", ArgKind::kRequired, "FILE", "ALT contigs, one name a line (the first word): their hits rank lower",
     [](Ctx& c) { c.s.opt.alt_list = c.v(); }},
    {0, "alt-drop", ArgKind::kRequired, "FLOAT", "score drop of hits on ALT contigs (only with --alt)",
     [](Ctx& c) { c.s.opt.alt_drop = c.f(); }},
    {0, "mask-len", ArgKind::kRequired, "NUM", "keep a secondary if it would leave more than NUM bases unaligned",
     [](Ctx& c) { c.s.opt.mask_len = to_int(c.num()); }},
    {0, "rmq", ArgKind::kOptional, "[=yes|no]", "RMQ chaining in the first pass (the asm presets)",
     [](Ctx& c) {
       if (!c.value)  // 2.31: --rmq=yes (2.24 crashes on a bare --rmq; agatha takes it as 2.31 does)
         c.s.opt.rmq = true;
       else
         c.yes_no(c.s.opt.rmq, true);
     }},
    {0, "qstrand", ArgKind::kNone, nullptr,
     "PAF coordinates on the query's strand (mapping only; not with -a, -H, --frag, --splice)",
     [](Ctx& c) { c.s.opt.qstrand = c.s.opt.no_inv = true; }},
    {0, "cap-kalloc", ArgKind::kRequired, "NUM", "cap of a thread's memory pool (no effect on output)",
     [](Ctx& c) { c.s.opt.cap_kalloc = c.num(); }},
    {0, "q-occ-frac", ArgKind::kRequired, "FLOAT",
     "skip read minimizers occurring more often than -f's threshold and than FLOAT x the read's minimizers",
     [](Ctx& c) { c.s.opt.q_occ_frac = c.f(); }},
    {0, "chain-skip-scale", ArgKind::kRequired, "FLOAT", "scale of the chaining skip cost",
     [](Ctx& c) { c.s.opt.chain_skip_scale = c.f(); }},
    {0, "print-chains", ArgKind::kNone, nullptr, nullptr,
     [](Ctx& c) { c.unsupported("a minimap2 debugging switch, left out"); }},
    {0, "no-hash-name", ArgKind::kNone, nullptr, "leave the read name out of the per-read hash",
     [](Ctx& c) { c.s.opt.hash_name = false; }},
    // ---- 2.31's ----
    {0, "secondary-seq", ArgKind::kNone, nullptr, "in SAM, write the sequence of secondary alignments",
     [](Ctx& c) { c.s.secondary_seq = true; }, Since::k2_31},
    {0, "ds", ArgKind::kNone, nullptr, "output the ds tag, which is an extension to cs",
     [](Ctx& c) { c.s.ds = true; }, Since::k2_31},
    {0, "rmq-inner", ArgKind::kRequired, "NUM", "RMQ chaining: the distance within which all predecessors are tried",
     [](Ctx& c) { c.s.opt.rmq_inner_dist = to_int(c.num()); }, Since::k2_31},
    {0, "spsc", ArgKind::kRequired, "FILE", "splice-site scores",
     [](Ctx& c) {
       c.s.opt.spsc_file = c.v();
       c.unsupported("splice-site scores (mm_idx_spsc_read2) are not implemented");
     },
     Since::k2_31},
    {0, "junc-pen", ArgKind::kRequired, "INT", "penalty of a splice site --spsc does not score",
     [](Ctx& c) { c.s.opt.junc_pen = c.i(); }, Since::k2_31},
    {0, "pairing", ArgKind::kRequired, "no|weak|strong",
     "how the segments of a fragment are paired: no (independent reads), weak, strong",
     [](Ctx& c) {
       AlignOptions& o = c.s.opt;
       if (c.v() == "no") {
         o.independent_segments = true;
       } else if (c.v() == "weak") {
         o.weak_pairing = true, o.independent_segments = false;
       } else {
         if (c.v() != "strong") {
           if (c.strict) throw OptionError("--pairing only takes 'no', 'weak' or 'strong'");
           if (c.s.verbose >= 2) c.warn("unrecognized argument for --pairing; assuming 'strong'.");
         }
         o.independent_segments = o.weak_pairing = false;
       }
     },
     Since::k2_31},
    {0, "jump-min-match", ArgKind::kRequired, "NUM", "min matching bases of a jump to an annotated junction (-j)",
     [](Ctx& c) { c.s.opt.jump_min_match = to_int(c.num()); }, Since::k2_31},
    {0, "write-junc", ArgKind::kNone, nullptr, "write the splice junctions of the alignments instead",
     [](Ctx& c) {
       c.s.write_junc = c.s.cigar = true;
       c.unsupported("the junction output (MM_F_OUT_JUNC) is not implemented");
     },
     Since::k2_31},
    {0, "pass1", ArgKind::kRequired, "FILE", "junctions of a first pass, used as -j's (score >= 5)",
     [](Ctx& c) {
       c.s.opt.pass1_bed = c.v();
       c.unsupported("junction jumps (mm_idx_jjump_read, jump.c) are not implemented");
     },
     Since::k2_31},
    {0, "spsc-scale", ArgKind::kRequired, "FLOAT", "scale of the --spsc scores",
     [](Ctx& c) { c.s.opt.spsc_scale = c.f(); }, Since::k2_31},
    {0, "spsc0", ArgKind::kRequired, "INT", "same as --junc-pen", [](Ctx& c) { c.s.opt.junc_pen = c.i(); },
     Since::k2_31},
    {0, "dbg-seed-occ", ArgKind::kNone, nullptr, nullptr,
     [](Ctx& c) { c.unsupported("a minimap2 debugging switch, left out"); }, Since::k2_31},
    // agatha's, taken by both front ends: read before the presets (release_from_args).
    {0, "compat", ArgKind::kRequired, "VER",
     "the minimap2 release whose output to give: 2.24 or 2.31 [2.31; the environment variable AGATHA_COMPAT "
     "sets the default]",
     nullptr},
};

constexpr int kLongOnlyBase = 256;  // id of the n-th long-only option: kLongOnlyBase + n
constexpr int kExtraBase = 1000;    // id of the n-th ExtraOption

int option_id(size_t i) {
  return kOptions[i].letter ? static_cast<unsigned char>(kOptions[i].letter) : kLongOnlyBase + static_cast<int>(i);
}

// The id of --compat.
int compat_id() {
  static const int id = [] {
    for (size_t i = 0; i < std::size(kOptions); ++i)
      if (kOptions[i].long_name && std::string_view(kOptions[i].long_name) == "compat") return option_id(i);
    return -1;
  }();
  return id;
}

const Mm2Option* find_option(int id) {
  for (size_t i = 0; i < std::size(kOptions); ++i)
    if (option_id(i) == id) return &kOptions[i];
  return nullptr;
}

std::string short_spec(const ReleaseRules& rules) {
  std::string spec;
  for (const Mm2Option& o : kOptions) {
    if (!o.letter || !has_option(o, rules)) continue;
    spec += o.letter;
    if (o.arg == ArgKind::kRequired) spec += ':';
  }
  return spec;
}

// One line of the usage text, printf-formatted as main.c prints it.
__attribute__((format(printf, 2, 3))) void appendf(std::string& out, const char* format, ...) {
  char b[512];
  va_list ap;
  va_start(ap, format);
  std::vsnprintf(b, sizeof b, format, ap);
  va_end(ap);
  out += b;
}

}  // namespace

int c_atoi(const std::string& text, const std::string& option, bool strict) {
  size_t pos = 0;
  const long x = c_strtol_at(text, pos);
  if (strict) {
    check_number(text, 0, pos, true, option, text);
    if (x < INT_MIN || x > INT_MAX) bad_value(option, text);
  }
  return to_int(x);
}

double c_atof(const std::string& text, const std::string& option, bool strict) {
  size_t pos = 0;
  const double x = c_strtod_at(text, pos);
  if (strict) {
    check_number(text, 0, pos, true, option, text);
    if (!std::isfinite(x)) bad_value(option, text);
  }
  return x;
}

int64_t mm_parse_num(const std::string& text, const std::string& option, bool strict) {
  size_t pos = 0;
  return parse_num_at(text, pos, strict, true, option, text);
}

Minimap2Parse parse_minimap2_args(std::vector<std::string> words, Minimap2Flavor flavor, const Minimap2Settings& base,
                                  const std::function<void(const std::string&)>& warn,
                                  const std::vector<ExtraOption>& extras) {
  const bool align = flavor == Minimap2Flavor::kAlign;
  // The long options of a release: minimap2's table, then the extras (align's own).
  const auto long_options = [&](const ReleaseRules& rules) {
    std::vector<LongOption> longs;
    for (size_t i = 0; i < std::size(kOptions); ++i)
      if (kOptions[i].long_name && has_option(kOptions[i], rules))
        longs.push_back({kOptions[i].long_name, kOptions[i].arg, option_id(i)});
    if (align) {  // agatha align's long names of -o and -c
      longs.push_back({"output", ArgKind::kRequired, 'o'});
      longs.push_back({"paf", ArgKind::kNone, 'c'});
    }
    for (size_t i = 0; i < extras.size(); ++i)
      longs.push_back({extras[i].name, extras[i].arg, kExtraBase + static_cast<int>(i)});
    return longs;
  };

  Minimap2Parse result;
  Minimap2Settings& s = result.settings;
  s = base;
  // The release followed, before anything else: AGATHA_COMPAT, then the last --compat.
  // As the releases' options differ (2.24 has no --ds; --pa is --paf-no-hit in 2.24,
  // ambiguous in 2.31), the words are scanned with each release's options (an unknown
  // option, which the first pass then reports, ends a scan); the release is the one
  // that reads them consistently (see below), AGATHA_COMPAT's first.
  {
    Release release = base.opt.release;
    if (const char* env = std::getenv("AGATHA_COMPAT"); env && *env) {
      const std::optional<Release> r = parse_release(env);
      if (!r) throw OptionError(std::string("AGATHA_COMPAT: unknown minimap2 release '") + env + "' (2.24 or 2.31)");
      release = *r;
    }
    struct CompatScan {
      std::optional<Release> named;  // by the last --compat read
      bool complete = true;          // false: stopped at an unknown option or a missing value
    };
    const auto scan_compat = [&](Release current) {
      const ReleaseRules& rules = rules_of(current);
      const std::vector<LongOption> longs = long_options(rules);
      OptionScanner scan(words, short_spec(rules), longs);
      CompatScan out;
      for (int c; (c = scan.next()) != OptionScanner::kEnd;) {
        if (c == OptionScanner::kUnknown || c == OptionScanner::kMissing) {
          out.complete = false;
          break;
        }
        if (c != compat_id()) continue;
        out.named = parse_release(*scan.value());
        if (!out.named) throw OptionError("--compat: unknown minimap2 release '" + *scan.value() + "' (2.24 or 2.31)");
      }
      return out;
    };
    // A release reads the words consistently when its options read them all and the
    // last --compat (if any) names it.
    const Release other = release == Release::k2_24 ? Release::k2_31 : Release::k2_24;
    const CompatScan own = scan_compat(release), others = scan_compat(other);
    const bool own_consistent = own.complete && own.named.value_or(release) == release;
    if (own_consistent) {
      // release stays
    } else if (others.complete && others.named.value_or(release) == other) {
      release = other;
    } else if (own.complete || others.complete) {  // the last --compat as read to the end
      release = (own.complete ? own : others).named.value_or(release);
    } else {
      release = own.named.value_or(release);
    }
    s.opt.set_release(release);
  }
  const std::vector<LongOption> longs = long_options(s.opt.rules());
  const std::string spec = short_spec(s.opt.rules());

  // First pass: the presets, in order; unknown options and missing values end the run.
  {
    OptionScanner scan(words, spec, longs);
    for (int c; (c = scan.next()) != OptionScanner::kEnd;) {
      if (c == 'x') {
        const std::string& name = *scan.value();
        try {
          s.opt.apply_preset(name);
        } catch (const OptionError&) {
          throw OptionError("unknown preset '" + name + "'");
        }
      } else if (c == OptionScanner::kMissing) {
        throw OptionError("missing option argument");
      } else if (c == OptionScanner::kUnknown) {
        // minimap2 names the word before its scan position (which after the permutation
        // of the words need not be the option); agatha align names the option's word.
        throw OptionError("unknown option in \"" + (align ? scan.option_word() : scan.word_before()) + "\"");
      }
    }
  }
  // Second pass: every other option, in order.
  OptionScanner scan(std::move(words), spec, longs);
  for (int c; (c = scan.next()) != OptionScanner::kEnd;) {
    if (c == 'x') continue;
    if (c >= kExtraBase) {
      const ExtraOption& e = extras[static_cast<size_t>(c - kExtraBase)];
      result.extras.push_back("--" + e.name + (scan.value() ? "=" + *scan.value() : std::string()));
      continue;
    }
    if (c == 'V') {
      result.action = Minimap2Action::kVersion;
      return result;
    }
    if (c == 'h' && align) {  // align's help is CLI11's
      result.extras.push_back("--help");
      continue;
    }
    const Mm2Option* o = find_option(c);
    if (!o || !o->apply) continue;
    Ctx ctx{s, align, warn, scan.long_index() >= 0 ? "--" + std::string(longs[scan.long_index()].name)
                                                   : std::string("-") + static_cast<char>(c),
            scan.value()};
    o->apply(ctx);
  }
  s.arguments = scan.arguments();

  // After the loop, as main.c: --splice with --frag; then mm_check_opt; then -N 0.
  if (s.opt.splice && s.opt.frag_mode && !s.opt.rules().splice_with_frag)
    throw OptionError("--splice and --frag should not be specified at the same time.");
  try {
    s.opt.validate(
        {.sam = s.sam, .cs_or_md = s.cs || s.md, .warn = s.verbose >= 2 ? warn : nullptr, .sketch_limits = false});
  } catch (const OptionError&) {
    if (!align && s.verbose < 1) throw OptionError("");  // minimap2 -v 0: the checks' messages are not printed
    throw;
  }
  if (s.opt.best_n == 0) {
    warn("changed '-N 0' to '-N " + std::to_string(s.old_best_n) + " --secondary=no'.");
    s.opt.best_n = s.old_best_n;
    s.opt.print_secondary = false;
  }
  if (s.help)
    result.action = Minimap2Action::kHelp;
  else if (s.arguments.empty() && !align)
    result.action = Minimap2Action::kUsage;
  return result;
}

void refuse_unsupported(const Minimap2Settings& s) {
  if (!s.unsupported.empty()) throw OptionError("not supported by agatha: " + s.unsupported.front());
}

std::string minimap2_usage(const Minimap2Settings& s) {
  const AlignOptions& o = s.opt;
  const bool v2_31 = o.rules().usage_2_31;
  std::string out;
  const auto line = [&out](const char* format, auto... args) { appendf(out, format, args...); };
  line("Usage: minimap2 [options] <target.fa>|<target.idx> [query.fa] [...]\n");
  line("Options:\n");
  line("  Indexing:\n");
  line("    -H           use homopolymer-compressed k-mer (preferrable for PacBio)\n");
  line("    -k INT       k-mer size (no larger than 28) [%d]\n", o.k);
  line("    -w INT       minimizer window size [%d]\n", o.w);
  line("    -I NUM       split index for every ~NUM input bases [%s]\n", v2_31 ? "8G" : "4G");
  line("    -d FILE      dump index to FILE []\n");
  line("  Mapping:\n");
  line("    -f FLOAT     filter out top FLOAT fraction of repetitive minimizers [%g]\n",
       static_cast<double>(o.mid_occ_frac));
  line("    -g NUM       stop chain enlongation if there are no minimizers in INT-bp [%d]\n", o.max_gap);
  line("    -G NUM       max intron length (effective with -xsplice; changing -r) [200k]\n");
  line("    -F NUM       max fragment length (effective with -xsr or in the fragment mode) [800]\n");
  line("    -r NUM[,NUM] chaining/alignment bandwidth and long-join bandwidth [%d,%d]\n", o.bw, o.bw_long);
  line("    -n INT       minimal number of minimizers on a chain [%d]\n", o.min_cnt);
  line("    -m INT       minimal chaining score (matching bases minus log gap penalty) [%d]\n", o.min_chain_score);
  line("    -X           skip self and dual mappings (for the all-vs-all mode)\n");
  line("    -p FLOAT     min secondary-to-primary score ratio [%g]\n", static_cast<double>(o.pri_ratio));
  line("    -N INT       retain at most INT secondary alignments [%d]\n", o.best_n);
  line("  Alignment:\n");
  line("    -A INT       matching score [%d]\n", o.a);
  line("    -B INT       mismatch penalty (larger value for lower divergence) [%d]\n", o.b);
  line("    -O INT[,INT] gap open penalty [%d,%d]\n", o.q, o.q2);
  line("    -E INT[,INT] gap extension penalty; a k-long gap costs min{O1+k*E1,O2+k*E2} [%d,%d]\n", o.e, o.e2);
  line("    -z INT[,INT] Z-drop score and inversion Z-drop score [%d,%d]\n", o.zdrop, o.zdrop_inv);
  line("    -s INT       minimal peak DP alignment score [%d]\n", o.min_dp_max);
  line("    -u CHAR      how to find GT-AG. f:transcript strand, b:both strands, n:don't match GT-AG [n]\n");
  if (v2_31) {  // -J's default is printed as a constant
    line("    -J INT       splice mode. 0: original minimap2 model; 1: miniprot model [1]\n");
    line("    -j FILE      junctions in BED12 to extend *short* RNA-seq alignment []\n");
  }
  line("  Input/Output:\n");
  line("    -a           output in the SAM format (PAF by default)\n");
  line("    -o FILE      output alignments to FILE [stdout]\n");
  line("    -L           write CIGAR with >65535 ops at the CG tag\n");
  line("    -R STR       SAM read group line in a format like '@RG\\tID:foo\\tSM:bar' []\n");
  line("    -c           output CIGAR in PAF\n");
  line("    --cs[=STR]   output the cs tag; STR is 'short' (if absent) or 'long' [none]\n");
  if (v2_31) line("    --ds         output the ds tag, which is an extension to cs\n");
  line("    --MD         output the MD tag\n");
  line("    --eqx        write =/X CIGAR operators\n");
  line("    -Y           use soft clipping for supplementary alignments\n");
  if (v2_31) line("    -y           copy FASTA/Q comments to output SAM\n");
  line("    -t INT       number of threads [%d]\n", s.threads_given);
  line("    -K NUM       minibatch size for mapping [500M]\n");
  line("    --version    show version number\n");
  line("  Preset:\n");
  line("    -x STR       preset (always applied before other options; see minimap2.1 for details) []\n");
  if (v2_31) {
    line("                 - lr:hq - accurate long reads (error rate <1%%) against a reference genome\n");
    line("                 - splice/splice:hq - spliced alignment for long reads/accurate long reads\n");
    line("                 - splice:sr - spliced alignment for short RNA-seq reads\n");
    line("                 - asm5/asm10/asm20 - asm-to-ref mapping, for ~0.1/1/5%% sequence divergence\n");
    line("                 - sr - short reads against a reference\n");
    line("                 - map-pb/map-hifi/map-ont/map-iclr - CLR/HiFi/Nanopore/ICLR vs reference mapping\n");
    line("                 - ava-pb/ava-ont - PacBio CLR/Nanopore read overlap\n");
  } else {
    line("                 - map-pb/map-ont - PacBio CLR/Nanopore vs reference mapping\n");
    line("                 - map-hifi - PacBio HiFi reads vs reference mapping\n");
    line("                 - ava-pb/ava-ont - PacBio/Nanopore read overlap\n");
    line("                 - asm5/asm10/asm20 - asm-to-ref mapping, for ~0.1/1/5%% sequence divergence\n");
    line("                 - splice/splice:hq - long-read/Pacbio-CCS spliced alignment\n");
    line("                 - sr - genomic short-read mapping\n");
  }
  line("\nSee `man ./minimap2.1' for detailed description of these and other advanced command-line options.\n");
  return out;
}

std::string minimap2_option_help() {
  std::string out;
  for (const Mm2Option& o : kOptions) {
    if (!o.help || o.letter == 'h' || o.letter == 'V') continue;
    std::string names;
    if (o.letter) names.append(1, '-').append(1, o.letter);
    if (o.long_name) names.append(names.empty() ? "--" : ",--").append(o.long_name);
    if (o.value) names.append(o.arg == ArgKind::kOptional ? "" : " ").append(o.value);
    out.append("  ").append(names);
    if (names.size() < 26)
      out.append(26 - names.size(), ' ');
    else
      out.append(1, '\n').append(28, ' ');
    // "(2.31)": an option 2.24 does not have in any form.
    const bool only_2_31 = o.since == Since::k2_31 && std::none_of(std::begin(kOptions), std::end(kOptions),
                                                                    [&o](const Mm2Option& x) {
                                                                      return x.since == Since::k2_24Only && o.long_name &&
                                                                             x.long_name == std::string_view(o.long_name);
                                                                    });
    out.append(o.help).append(only_2_31 ? " (2.31)" : "").append(1, '\n');
  }
  return out;
}

}  // namespace agatha::cli
