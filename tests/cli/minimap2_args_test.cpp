// tests/cli/minimap2_args_test.cpp — minimap2 2.24's option loop and the checks after
// it (parse_minimap2_args): the two passes, each option's field and value syntax
// (atoi/strtol/strtod and mm_parse_num, what minimap2 silently accepts and what agatha
// align refuses), -N 0, -V/-h/usage, and minimap2's messages (quoted from minimap2 2.24).
#include <gtest/gtest.h>

#include <agatha/error.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "src/cli/minimap2_args.hpp"

namespace agatha::cli {
namespace {

struct Parsed {
  Minimap2Parse parse;
  std::vector<std::string> warnings;
};

// `minimap2 ARGS` split at blanks.
std::vector<std::string> words_of(const std::string& args) {
  std::vector<std::string> w{"minimap2"};
  for (size_t pos = 0; pos < args.size();) {
    const size_t end = std::min(args.find(' ', pos), args.size());
    if (end > pos) w.push_back(args.substr(pos, end - pos));
    pos = end + 1;
  }
  return w;
}

Parsed parse(const std::string& args, Minimap2Flavor flavor = Minimap2Flavor::kMinimap2) {
  Parsed r;
  r.parse = parse_minimap2_args(words_of(args), flavor, Minimap2Settings{},
                                [&r](const std::string& w) { r.warnings.push_back(w); });
  return r;
}
AlignOptions opt(const std::string& args) { return parse(args).parse.settings.opt; }

// The message of the OptionError `args` raises; "" when none.
std::string error_of(const std::string& args, Minimap2Flavor flavor = Minimap2Flavor::kMinimap2) {
  try {
    (void)parse(args, flavor);
  } catch (const OptionError& e) {
    return e.what();
  }
  return "";
}

TEST(Minimap2Args, PresetsFirstThenTheOtherOptionsInOrder) {
  const AlignOptions o = opt("-k 17 -w 8 -x map-pb ref.fa");
  EXPECT_EQ(o.k, 17);
  EXPECT_EQ(o.w, 8);
  EXPECT_TRUE(o.hpc) << "map-pb";
  // Presets layer in order: map-hifi then map-pb keeps map-hifi's scoring and w.
  const AlignOptions layered = opt("-x map-hifi -x map-pb ref.fa");
  EXPECT_TRUE(layered.hpc);
  EXPECT_EQ(layered.w, 19);
  EXPECT_EQ(layered.a, 1);
  // Later options win; -O sets both values, -O4,24 each.
  EXPECT_EQ(opt("-O 5 -E 3 ref").q2, 5);
  EXPECT_EQ(opt("-O5 -O 4,24 ref").q2, 24);
  const AlignOptions cluster = opt("-axsr -O4,30 -E2,1 -z300,100 ref");
  EXPECT_TRUE(cluster.sr);
  EXPECT_EQ(cluster.q, 4);
  EXPECT_EQ(cluster.q2, 30);
  EXPECT_EQ(cluster.zdrop, 300);
  EXPECT_EQ(cluster.zdrop_inv, 100);
  EXPECT_EQ(opt("-z 300 ref").zdrop_inv, 300);
}

TEST(Minimap2Args, ArgumentsAndOutputKind) {
  const Parsed r = parse("ref.fa -a q1.fq -o out.sam q2.fq");
  const Minimap2Settings& s = r.parse.settings;
  EXPECT_EQ(s.arguments, (std::vector<std::string>{"ref.fa", "q1.fq", "q2.fq"}));
  EXPECT_EQ(s.output, "out.sam");
  EXPECT_TRUE(s.sam && s.cigar);
  const Minimap2Settings paf = parse("ref q").parse.settings;
  EXPECT_FALSE(paf.cigar) << "mapping-only PAF by default";
  const Minimap2Settings cs = parse("--cs ref q").parse.settings;
  EXPECT_TRUE(cs.cigar && cs.cs && !cs.cs_long && !cs.paf_cg) << "--cs aligns, without cg";
  EXPECT_TRUE(parse("--cs=long ref q").parse.settings.cs_long);
  EXPECT_FALSE(parse("--cs=long --cs=none ref q").parse.settings.cs);
  const Parsed s_opt = parse("-S ref q");
  EXPECT_TRUE(s_opt.parse.settings.cs_long);
  EXPECT_EQ(s_opt.warnings,
            std::vector<std::string>{"option -S is deprecated and may be removed in future. Please use --cs=long instead."});
  // An invalid --cs value keeps what was set: a warning, as minimap2.
  const Parsed bad_cs = parse("--cs=long --cs=foo ref q");
  EXPECT_TRUE(bad_cs.parse.settings.cs_long);
  EXPECT_EQ(bad_cs.warnings,
            std::vector<std::string>{"--cs only takes 'short' or 'long'. Invalid values are assumed to be 'short'."});
  const Minimap2Settings c = parse("-c --MD ref q").parse.settings;
  EXPECT_TRUE(c.cigar && c.paf_cg && c.md);
  EXPECT_FALSE(parse("--MD ref q").parse.settings.cigar) << "--MD alone does not align";
}

// mm_parse_num: K/M/G, rounding by + .499 and truncation; atoi and strtol read as far as
// a number goes, so minimap2 silently takes `-k 15x` as -k 15 (and 4294967311 as 15,
// the low 32 bits); agatha align refuses such values.
TEST(Minimap2Args, ValueSyntax) {
  EXPECT_EQ(opt("-g 5.5 ref").max_gap, 5);
  EXPECT_EQ(opt("-g 5.6 ref").max_gap, 6);
  EXPECT_EQ(opt("-g 2k ref").max_gap, 2000);
  EXPECT_EQ(opt("-I 1.5K ref").part_bases, 1500u);
  EXPECT_EQ(opt("-K 2M ref").read_batch, 2'000'000u);
  EXPECT_EQ(opt("-I 1g ref").part_bases, 1'000'000'000u);
  const AlignOptions r = opt("-r 1k,30k ref");
  EXPECT_EQ(r.bw, 1000);
  EXPECT_EQ(r.bw_long, 30000);
  EXPECT_EQ(opt("-r 700x ref").bw, 700) << "minimap2 ignores what follows the number";
  EXPECT_EQ(opt("-k 15x ref").k, 15);
  EXPECT_EQ(opt("-k 4294967311 ref").k, 15);
  EXPECT_EQ(opt("-U 20,x ref").max_mid_occ, 0) << "strtol of 'x' is 0";
  const AlignOptions f1 = opt("-f 0.001 ref");
  EXPECT_FLOAT_EQ(f1.mid_occ_frac, 0.001f);
  EXPECT_EQ(f1.mid_occ, 0);
  const AlignOptions f2 = opt("-f 100,5000 ref");
  EXPECT_EQ(f2.mid_occ, 100);
  EXPECT_EQ(f2.max_occ, 5000);
  EXPECT_FLOAT_EQ(opt("-p 0.5junk ref").pri_ratio, 0.5f);
  EXPECT_EQ(opt("-e 1k ref").occ_dist, 1000);
  EXPECT_EQ(opt("--max-qlen 10k ref").max_qlen, 10000);
  EXPECT_EQ(opt("--min-occ-floor 77 ref").min_mid_occ, 77);
  // agatha align: the same values, whole or refused.
  EXPECT_EQ(error_of("-k 15x ref", Minimap2Flavor::kAlign), "invalid value '15x' for -k");
  EXPECT_EQ(error_of("-r 700x ref", Minimap2Flavor::kAlign), "invalid value '700x' for -r");
  EXPECT_EQ(error_of("-U 20,x ref", Minimap2Flavor::kAlign), "invalid value 'x' for -U");
  EXPECT_EQ(error_of("--mb-size 5q ref", Minimap2Flavor::kAlign), "invalid value '5q' for --mb-size");
  EXPECT_EQ(error_of("-k 4294967311 ref", Minimap2Flavor::kAlign), "invalid value '4294967311' for -k");
  EXPECT_EQ(error_of("-I -5 ref", Minimap2Flavor::kAlign), "invalid value '-5' for -I");
  EXPECT_EQ(error_of("-g 2k -O4,24 ref", Minimap2Flavor::kAlign), "");
}

TEST(Minimap2Args, FlagsAndTheirFields) {
  const AlignOptions x = opt("-X ref");
  EXPECT_TRUE(x.all_chains && x.no_diag && x.no_dual && x.no_long_join);
  EXPECT_FALSE(opt("-x ava-pb --dual=yes ref").no_dual);
  EXPECT_TRUE(opt("-D ref").no_diag);
  EXPECT_TRUE(opt("-P ref").all_chains);
  EXPECT_TRUE(opt("-Q ref").no_qual);
  EXPECT_TRUE(opt("--hard-mask-level ref").hard_mask_level);
  EXPECT_TRUE(opt("-2 ref").two_io_threads);
  EXPECT_TRUE(opt("--no-pairing ref").independent_segments);
  EXPECT_TRUE(opt("--frag=yes ref").frag_mode);
  EXPECT_FALSE(opt("-x sr --frag=no ref").frag_mode);
  EXPECT_FALSE(opt("-x sr --heap-sort=no ref").heap_sort);
  EXPECT_TRUE(opt("--rmq ref").rmq) << "a bare --rmq (minimap2 2.24 crashes on it) is --rmq=yes";
  EXPECT_FALSE(opt("-x asm5 --rmq=no ref").rmq);
  EXPECT_EQ(opt("-F 1k ref").max_frag_len, 1000);
  EXPECT_TRUE(opt("--splice ref").splice);
  EXPECT_EQ(opt("--splice -G 5k ref").bw, 5000);
  EXPECT_EQ(opt("-G 5k --splice ref").bw, 500) << "-G only counts once splicing is on";
  EXPECT_EQ(opt("-M 0.2 ref").mask_level, 0.2f);
  EXPECT_EQ(opt("--cap-kalloc 1g ref").cap_kalloc, 1'000'000'000);
  EXPECT_EQ(parse("-v 1 ref").parse.settings.verbose, 1);
  EXPECT_TRUE(parse("--idx-no-seq ref").parse.settings.idx_no_seq);
  const Parsed lj = parse("--lj-min-ratio 0.5 ref");
  EXPECT_EQ(lj.warnings, std::vector<std::string>{" --lj-min-ratio has been deprecated."});
  const Parsed yn = parse("--secondary=maybe ref");
  EXPECT_TRUE(yn.parse.settings.opt.print_secondary);
  EXPECT_EQ(yn.warnings, std::vector<std::string>{"option '--secondary' only accepts 'yes' or 'no'."});
  EXPECT_EQ(error_of("--secondary=maybe ref", Minimap2Flavor::kAlign), "--secondary only takes 'yes' or 'no'");
}

// -N 0 becomes "-N <value before the last -N> --secondary=no" after the checks.
TEST(Minimap2Args, DashNZero) {
  const Parsed r = parse("-x asm5 -N 0 ref");
  EXPECT_EQ(r.parse.settings.opt.best_n, 50);
  EXPECT_FALSE(r.parse.settings.opt.print_secondary);
  EXPECT_EQ(r.warnings, (std::vector<std::string>{"'-N 0' reduces mapping accuracy. Please use '--secondary=no' instead.",
                                                  "changed '-N 0' to '-N 50 --secondary=no'."}));
  EXPECT_EQ(opt("-N 3 -N 0 ref").best_n, 3);
  EXPECT_EQ(error_of("-N 0 -P ref"), "") << "checked before the conversion, as minimap2";
  // The first warning comes at its place among the checks: before a later check's error.
  Parsed r2;
  try {
    (void)parse_minimap2_args(words_of("-N 0 -p 2 ref"), Minimap2Flavor::kMinimap2, Minimap2Settings{},
                              [&r2](const std::string& w) { r2.warnings.push_back(w); });
  } catch (const OptionError&) {
  }
  EXPECT_EQ(r2.warnings, std::vector<std::string>{"'-N 0' reduces mapping accuracy. Please use '--secondary=no' instead."});
}

TEST(Minimap2Args, VersionHelpAndUsage) {
  EXPECT_EQ(parse("-V -u z").parse.action, Minimap2Action::kVersion) << "-V acts where the second pass meets it";
  EXPECT_EQ(parse("--version").parse.action, Minimap2Action::kVersion);
  EXPECT_EQ(error_of("-u z -V"), "unrecognized cDNA direction");
  EXPECT_EQ(parse("-h").parse.action, Minimap2Action::kHelp);
  EXPECT_EQ(parse("ref -h q").parse.action, Minimap2Action::kHelp);
  EXPECT_EQ(parse("").parse.action, Minimap2Action::kUsage);
  EXPECT_EQ(parse("-a").parse.action, Minimap2Action::kUsage);
  EXPECT_EQ(error_of("-h -k 0"), "-k and -w must be positive") << "the checks come before the help";
  EXPECT_EQ(parse("-x sr -h").parse.settings.opt.k, 21) << "the help shows the preset's values";
  // -k above 28 is left to the sketcher (an index file's k replaces it), so the help shows it.
  EXPECT_EQ(parse("-k 30 -h").parse.action, Minimap2Action::kHelp);
  try {
    (void)parse("-v 0 -k 0 ref");
    ADD_FAILURE() << "-k 0 must be refused";
  } catch (const OptionError& e) {
    EXPECT_STREQ(e.what(), "") << "-v 0: minimap2 prints no message for its checks";
  }
}

// minimap2's error messages (colour codes aside), in its order of checks.
TEST(Minimap2Args, Errors) {
  EXPECT_EQ(error_of("-x foo ref"), "unknown preset 'foo'");
  EXPECT_EQ(error_of("--compat 2.24 -x lr ref"), "unknown preset 'lr'") << "not a preset of 2.24";
  EXPECT_EQ(error_of("--compat 2.31 -x lr ref"), "") << "2.31's alias of map-ont";
  EXPECT_EQ(error_of("-x lr ref", Minimap2Flavor::kAlign), "");
  EXPECT_EQ(error_of("ref -k"), "missing option argument");
  EXPECT_EQ(error_of("ref -Z"), "unknown option in \"ref\"");
  EXPECT_EQ(error_of("ref -Z", Minimap2Flavor::kAlign), "unknown option in \"-Z\"");
  EXPECT_EQ(error_of("-Z -x foo"), "unknown option in \"-Z\"") << "the first pass stops at the first error";
  EXPECT_EQ(error_of("-x foo -Z"), "unknown preset 'foo'");
  EXPECT_EQ(error_of("--compat 2.24 -x splice --frag=yes ref"),
            "--splice and --frag should not be specified at the same time.");
  EXPECT_EQ(error_of("--compat 2.31 -x splice --frag=yes ref"), "") << "2.31 allows it (splice:sr sets both)";
  EXPECT_EQ(error_of("-r 30000 ref"), "with '-rNUM1,NUM2', NUM1 (30000) can't be larger than NUM2 (20000)");
  EXPECT_EQ(error_of("-x sr --rmq=yes ref"), "--rmq doesn't work with --sr or --splice");
  EXPECT_EQ(error_of("--split-prefix p --MD ref"), "--cs or --MD doesn't work with --split-prefix");
  EXPECT_EQ(error_of("-k 0 -N -1 ref"), "-k and -w must be positive");
  EXPECT_EQ(error_of("-N -1 -p 2 ref"), "-N must be no less than 0");
  EXPECT_EQ(error_of("-p 2 ref"), "-p must be within 0 and 1 (including 0 and 1)");
  EXPECT_EQ(error_of("--for-only --rev-only ref"), "--for-only and --rev-only can't be applied at the same time");
  EXPECT_EQ(error_of("-E 0 ref"), "-O and -E must be positive");
  EXPECT_EQ(error_of("-O 4,24 -E 1,2 ref"), "dual gap penalties violating E1>E2 and O1+E1<O2+E2");
  EXPECT_EQ(error_of("-O 60 -E 4 ref"), "scoring system violating ({-O}+{-E})+({-O2}+{-E2}) <= 127");
  EXPECT_EQ(error_of("-z 10,20 ref"), "Z-drop should not be less than inversion-Z-drop");
  EXPECT_EQ(error_of("-P --secondary=no ref"), "-X/-P and --secondary=no can't be applied at the same time");
  EXPECT_EQ(error_of("--qstrand -a ref"), "--qstrand doesn't work with -a, -H, --frag or --splice");
  EXPECT_EQ(error_of("-u z ref"), "unrecognized cDNA direction");
}

// What agatha accepts but does not implement is refused after the checks, by name.
TEST(Minimap2Args, UnsupportedOptionsAreRefusedByName) {
  const auto refused = [](const std::string& args) {
    try {
      refuse_unsupported(parse(args).parse.settings);
    } catch (const OptionError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(refused("--qstrand ref"), "");  // mapping-only PAF on the query's strand
  EXPECT_TRUE(parse("--qstrand ref").parse.settings.opt.qstrand);
  EXPECT_TRUE(parse("--qstrand ref").parse.settings.opt.no_inv);
  EXPECT_EQ(refused("--print-seeds ref"), "not supported by agatha: --print-seeds: a minimap2 debugging switch, left out");
  EXPECT_EQ(refused("-T 30 ref"), "");  // SDUST masking of read minimizers
  EXPECT_EQ(parse("-T 30 ref").parse.settings.opt.sdust_thres, 30);
  EXPECT_EQ(refused("-T 0 --alt alt.txt --alt-drop 0.3 --no-kalloc --cap-kalloc 2g -2 ref"), "");
}

TEST(Minimap2Args, AlignFlavourPassesItsOwnOptionsOn) {
  const std::vector<ExtraOption> extras = {{"dp-backend", ArgKind::kRequired}, {"map-only", ArgKind::kNone}};
  const Minimap2Parse p = parse_minimap2_args(words_of("ref --dp-backend scalar -k 17 q --map-only --output o -h"),
                                              Minimap2Flavor::kAlign, Minimap2Settings{}, [](const std::string&) {},
                                              extras);
  EXPECT_EQ(p.extras, (std::vector<std::string>{"--dp-backend=scalar", "--map-only", "--help"}));
  EXPECT_EQ(p.settings.arguments, (std::vector<std::string>{"ref", "q"}));
  EXPECT_EQ(p.settings.opt.k, 17);
  EXPECT_EQ(p.settings.output, "o");
  EXPECT_EQ(p.action, Minimap2Action::kRun);
}

TEST(Minimap2Args, UsageHasTheCurrentValues) {
  const std::string usage = minimap2_usage(parse("-x sr -h").parse.settings);
  EXPECT_EQ(usage.rfind("Usage: minimap2 [options] <target.fa>|<target.idx> [query.fa] [...]\n", 0), 0u);
  EXPECT_NE(usage.find("    -k INT       k-mer size (no larger than 28) [21]\n"), std::string::npos);
  EXPECT_NE(usage.find("    -O INT[,INT] gap open penalty [12,24]\n"), std::string::npos);
}

// ---- minimap2 2.31's command line (--compat 2.31) against 2.24's (--compat 2.24) ----

// 2.31's new options, each on its field, read with 2.31's rules (main.c's option loop).
TEST(Minimap2Args231, NewOptionsSetTheirFields) {
  const Parsed p = parse("--compat 2.31 -J 0 --junc-pen 7 --spsc-scale 0.5 --rmq-inner 2k --jump-min-match 1.5k "
                         "--secondary-seq --ds -b 0 ref");
  const Minimap2Settings& s = p.parse.settings;
  EXPECT_EQ(s.opt.splice_model, 0);
  EXPECT_FALSE(s.opt.splice_cmplx());
  EXPECT_EQ(s.opt.junc_pen, 7);
  EXPECT_FLOAT_EQ(s.opt.spsc_scale, 0.5f);
  EXPECT_EQ(s.opt.rmq_inner_dist, 2000) << "mm_parse_num";
  EXPECT_EQ(s.opt.jump_min_match, 1500) << "mm_parse_num";
  EXPECT_EQ(s.opt.transition, 0);
  EXPECT_TRUE(s.secondary_seq);
  EXPECT_TRUE(s.ds);
  EXPECT_FALSE(s.cigar) << "--ds alone does not turn base alignment on";
  EXPECT_TRUE(p.warnings.empty());
  EXPECT_EQ(opt("--compat 2.31 --spsc0 9 ref").junc_pen, 9) << "--spsc0 is --junc-pen";
  // -J: 0 the old model, 1 the new one, other values leave it.
  EXPECT_EQ(opt("--compat 2.31 -J 0 -J 1 ref").splice_model, 1);
  EXPECT_EQ(opt("--compat 2.31 -J 0 -J 2 ref").splice_model, 0);
  EXPECT_EQ(opt("--compat 2.31 -J 7 ref").splice_model, -1);
  EXPECT_EQ(opt("--compat 2.31 -j j.bed ref").jump_bed, "j.bed");
  EXPECT_EQ(opt("--compat 2.31 --pass1 p.bed ref").pass1_bed, "p.bed");
  EXPECT_EQ(opt("--compat 2.31 --spsc s.tsv ref").spsc_file, "s.tsv");
  EXPECT_EQ(opt("--compat 2.31 -b 3 ref").transition, 3);
  const Minimap2Settings wj = parse("--compat 2.31 --write-junc ref").parse.settings;
  EXPECT_TRUE(wj.write_junc);
  EXPECT_TRUE(wj.cigar) << "--write-junc sets MM_F_CIGAR too";
  // agatha align: the same options, values whole or refused.
  EXPECT_EQ(error_of("--compat 2.31 -J 1x ref", Minimap2Flavor::kAlign), "invalid value '1x' for -J");
  EXPECT_EQ(error_of("--compat 2.31 --rmq-inner 5q ref", Minimap2Flavor::kAlign),
            "invalid value '5q' for --rmq-inner");
  EXPECT_EQ(opt("--compat 2.31 --rmq-inner 5q ref").rmq_inner_dist, 5) << "minimap2 reads as far as it goes";
}

// --sr[=dna|rna|no]: an optional value in 2.31.
TEST(Minimap2Args231, ShortReadSwitch) {
  EXPECT_TRUE(opt("--compat 2.31 --sr ref").sr);
  EXPECT_TRUE(opt("--compat 2.31 --sr=dna ref").sr);
  const AlignOptions rna = opt("--compat 2.31 --sr=rna ref");
  EXPECT_TRUE(rna.sr_rna);
  EXPECT_FALSE(rna.sr);
  const AlignOptions no = opt("--compat 2.31 -x splice:sr --sr=no ref");
  EXPECT_FALSE(no.sr);
  EXPECT_FALSE(no.sr_rna);
  EXPECT_FALSE(opt("--compat 2.31 -x sr --sr=no ref").sr);
  // An optional value only ever follows '=': the next word is an argument.
  EXPECT_EQ(parse("--compat 2.31 --sr rna ref").parse.settings.arguments, (std::vector<std::string>{"rna", "ref"}));
  const Parsed bad = parse("--compat 2.31 --sr=x ref");
  EXPECT_TRUE(bad.parse.settings.opt.sr) << "invalid values are taken as dna";
  EXPECT_EQ(bad.warnings, std::vector<std::string>{"--sr only takes 'dna' or 'rna'. Invalid values are assumed to be 'dna'."});
  const Parsed quiet = parse("--compat 2.31 -v 1 --sr=x ref");
  EXPECT_FALSE(quiet.parse.settings.opt.sr) << "below -v 2 minimap2 leaves an invalid value without effect";
  EXPECT_TRUE(quiet.warnings.empty());
  EXPECT_EQ(error_of("--compat 2.31 --sr=x ref", Minimap2Flavor::kAlign), "--sr only takes 'dna', 'rna' or 'no'");
  // 2.24: --sr takes no value; "=rna" is ignored.
  const AlignOptions old = opt("--compat 2.24 --sr=rna ref");
  EXPECT_TRUE(old.sr);
  EXPECT_FALSE(old.sr_rna);
}

TEST(Minimap2Args231, Pairing) {
  EXPECT_TRUE(opt("--compat 2.31 --pairing=no ref").independent_segments);
  const AlignOptions weak = opt("--compat 2.31 --pairing no --pairing weak ref");
  EXPECT_TRUE(weak.weak_pairing);
  EXPECT_FALSE(weak.independent_segments);
  const AlignOptions strong = opt("--compat 2.31 -x splice:sr --no-pairing --pairing=strong ref");
  EXPECT_FALSE(strong.weak_pairing);
  EXPECT_FALSE(strong.independent_segments);
  EXPECT_TRUE(opt("--compat 2.31 --no-pairing ref").independent_segments) << "still accepted";
  const Parsed bad = parse("--compat 2.31 --pairing=no --pairing=maybe ref");
  EXPECT_FALSE(bad.parse.settings.opt.independent_segments) << "taken as strong";
  EXPECT_EQ(bad.warnings, std::vector<std::string>{"unrecognized argument for --pairing; assuming 'strong'."});
  EXPECT_TRUE(parse("--compat 2.31 -v 1 --pairing=maybe ref").warnings.empty());
  EXPECT_EQ(error_of("--compat 2.31 --pairing=maybe ref", Minimap2Flavor::kAlign),
            "--pairing only takes 'no', 'weak' or 'strong'");
  EXPECT_EQ(error_of("--compat 2.31 --pairing"), "missing option argument");
}

// With --compat 2.24 every option 2.31 added is unknown, as minimap2 2.24 reports it.
TEST(Minimap2Args231, NewOptionsAreUnknownIn224) {
  for (const char* args : {"-b 3", "-J 1", "-j f.bed"})
    EXPECT_EQ(error_of(std::string("--compat 2.24 ") + args + " ref"),
              "unknown option in \"" + std::string(args).substr(0, 2) + "\"")
        << args;
  for (const char* name : {"--secondary-seq", "--ds", "--rmq-inner=5", "--spsc=f", "--junc-pen=5", "--pairing=no",
                           "--jump-min-match=3", "--write-junc", "--pass1=f", "--spsc-scale=1", "--spsc0=3",
                           "--dbg-seed-occ"})
    EXPECT_EQ(error_of(std::string("--compat 2.24 ") + name + " ref"), "unknown option in \"" + std::string(name) + "\"")
        << name;
  for (const char* args : {"-b 3", "-J 1", "--ds", "--pairing=no"})
    EXPECT_EQ(error_of(std::string("--compat 2.31 ") + args + " ref"), "") << args;
  // A prefix: --pa is --paf-no-hit in 2.24, ambiguous in 2.31 (--pairing, --pass1).
  EXPECT_TRUE(parse("--compat 2.24 --pa ref").parse.settings.paf_no_hit);
  EXPECT_EQ(error_of("--compat 2.31 --pa ref"), "unknown option in \"2.31\"") << "minimap2 names the word before";
  EXPECT_EQ(error_of("--compat 2.31 --ds=1 ref", Minimap2Flavor::kAlign), "");
  // AGATHA_COMPAT's release, then --compat: the words are read with the options of the one named.
  EXPECT_TRUE(parse("--compat 2.31 --compat 2.24 --pa ref").parse.settings.paf_no_hit);
  EXPECT_EQ(error_of("--compat 2.24 --compat 2.31 --ds ref"), "");
  EXPECT_TRUE(parse("--pa --compat 2.24 ref").parse.settings.paf_no_hit)
      << "an option only the release named has, before --compat";
  EXPECT_EQ(error_of("--compat 2.24 --ds --compat 2.31 ref"), "");
  EXPECT_EQ(error_of("--compat 2.24 --pa --compat 2.31 ref"), "unknown option in \"2.24\"");
}

// What agatha does not implement of 2.31's options is refused by name; the rest is taken.
TEST(Minimap2Args231, UnimplementedNewOptionsAreRefused) {
  const auto refused = [](const std::string& args) {
    try {
      refuse_unsupported(parse("--compat 2.31 " + args + " ref").parse.settings);
    } catch (const OptionError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(refused("-b 3"), "");  // transition scores (ksw_gen_ts_mat)
  EXPECT_EQ(refused("-b 0"), "");
  EXPECT_EQ(refused("-j j.bed"),
            "not supported by agatha: -j: junction jumps (mm_idx_jjump_read, jump.c) are not implemented");
  EXPECT_EQ(refused("--pass1 p.bed"),
            "not supported by agatha: --pass1: junction jumps (mm_idx_jjump_read, jump.c) are not implemented");
  EXPECT_EQ(refused("--spsc s.tsv"),
            "not supported by agatha: --spsc: splice-site scores (mm_idx_spsc_read2) are not implemented");
  EXPECT_EQ(refused("--write-junc"),
            "not supported by agatha: --write-junc: the junction output (MM_F_OUT_JUNC) is not implemented");
  EXPECT_EQ(refused("--dbg-seed-occ"), "not supported by agatha: --dbg-seed-occ: a minimap2 debugging switch, left out");
  EXPECT_EQ(refused("-J 0 --junc-pen 3 --spsc0 4 --spsc-scale 2 --jump-min-match 5 --rmq-inner 3k --ds "
                    "--secondary-seq --sr=rna --pairing=weak"),
            "");
}

// minimap2 -h: 2.31's text against 2.24's (main.c's usage).
TEST(Minimap2Args231, UsageOfEachRelease) {
  const std::string u31 = minimap2_usage(parse("--compat 2.31 -h").parse.settings);
  const std::string u24 = minimap2_usage(parse("--compat 2.24 -h").parse.settings);
  const std::vector<std::string> only31 = {
      "    -I NUM       split index for every ~NUM input bases [8G]\n",
      "    -J INT       splice mode. 0: original minimap2 model; 1: miniprot model [1]\n",
      "    -j FILE      junctions in BED12 to extend *short* RNA-seq alignment []\n",
      "    --ds         output the ds tag, which is an extension to cs\n",
      "    -y           copy FASTA/Q comments to output SAM\n",
      "                 - lr:hq - accurate long reads (error rate <1%) against a reference genome\n",
      "                 - splice:sr - spliced alignment for short RNA-seq reads\n",
      "                 - map-pb/map-hifi/map-ont/map-iclr - CLR/HiFi/Nanopore/ICLR vs reference mapping\n",
      "                 - ava-pb/ava-ont - PacBio CLR/Nanopore read overlap\n",
  };
  for (const std::string& l : only31) {
    EXPECT_NE(u31.find(l), std::string::npos) << l;
    EXPECT_EQ(u24.find(l), std::string::npos) << l;
  }
  const std::vector<std::string> only24 = {
      "    -I NUM       split index for every ~NUM input bases [4G]\n",
      "                 - map-hifi - PacBio HiFi reads vs reference mapping\n",
      "                 - sr - genomic short-read mapping\n",
  };
  for (const std::string& l : only24) {
    EXPECT_NE(u24.find(l), std::string::npos) << l;
    EXPECT_EQ(u31.find(l), std::string::npos) << l;
  }
  // The -J line comes after -u, the --ds line after --cs, -y after -Y.
  EXPECT_LT(u31.find("    -u CHAR"), u31.find("    -J INT"));
  EXPECT_LT(u31.find("    -j FILE"), u31.find("  Input/Output:\n"));
  EXPECT_EQ(u31.find('\n', u31.find("    --cs[=STR]")) + 1, u31.find("    --ds "));
  EXPECT_LT(u31.find("    -Y "), u31.find("    -y "));
  EXPECT_LT(u31.find("    -y "), u31.find("    -t INT"));
  const auto count_lines = [](const std::string& t) { return std::count(t.begin(), t.end(), '\n'); };
  EXPECT_EQ(count_lines(u24), 50);
  EXPECT_EQ(count_lines(u31), 55);
  const std::string sr = minimap2_usage(parse("--compat 2.31 -x sr -t 8 -h").parse.settings);
  EXPECT_NE(sr.find("    -t INT       number of threads [8]\n"), std::string::npos);
  EXPECT_NE(sr.find("    -r NUM[,NUM] chaining/alignment bandwidth and long-join bandwidth [100,100]\n"),
            std::string::npos);
}

// agatha align's option list marks the options 2.24 does not have.
TEST(Minimap2Args231, OptionHelpMarksTheNewOptions) {
  const std::string help = minimap2_option_help();
  EXPECT_NE(help.find("  --ds                      output the ds tag, which is an extension to cs (2.31)\n"),
            std::string::npos);
  EXPECT_NE(help.find("  --pairing no|weak|strong  "), std::string::npos);
  const size_t sr = help.find("  --sr[=dna|rna|no]");
  ASSERT_NE(sr, std::string::npos);
  EXPECT_EQ(help.find("  --sr ", 0), std::string::npos) << "2.24's --sr is not listed apart";
  EXPECT_NE(help.substr(sr, help.find('\n', sr) - sr).find("2.24's --sr takes no value"), std::string::npos);
  EXPECT_EQ(help.substr(sr, help.find('\n', sr) - sr).find("(2.31)"), std::string::npos) << "2.24 has --sr";
}

}  // namespace
}  // namespace agatha::cli
