// Defaults, presets and option checks of minimap2 2.24 (messages as minimap2 prints them,
// without the colour codes; checked by running minimap2 with the offending options).
#include <agatha/error.hpp>
#include <agatha/options.hpp>

#include <gtest/gtest.h>

#include <string>

namespace agatha {
namespace {

std::string error_of(const AlignOptions& o) {
  try {
    o.validate();
  } catch (const OptionError& e) {
    return e.what();
  }
  return "";
}

TEST(Options, DefaultsAreMapOnt) {
  AlignOptions o;
  EXPECT_EQ(o.k, 15);
  EXPECT_EQ(o.w, 10);
  EXPECT_FALSE(o.hpc);
  EXPECT_EQ(o.min_dp_max, 80);
  EXPECT_EQ(o.bw_long, 20000);
  EXPECT_FLOAT_EQ(o.mid_occ_frac, 2e-4f);
  EXPECT_EQ(error_of(o), "");
  AlignOptions p;
  p.apply_preset("map-ont");
  EXPECT_EQ(p.k, o.k);
  EXPECT_EQ(p.q2, o.q2);
}

TEST(Options, Presets) {
  AlignOptions pb;
  pb.apply_preset("map-pb");
  EXPECT_TRUE(pb.hpc);
  EXPECT_EQ(pb.k, 19);
  EXPECT_EQ(pb.w, 10);
  AlignOptions hifi;
  hifi.apply_preset("map-hifi");
  EXPECT_EQ(hifi.w, 19);
  EXPECT_EQ(hifi.a, 1);
  EXPECT_EQ(hifi.q2, 26);
  EXPECT_EQ(hifi.max_mid_occ, 500);
  EXPECT_EQ(hifi.min_dp_max, 200);
  EXPECT_EQ(hifi.max_gap, 10000);
  AlignOptions asm5;
  asm5.apply_preset("asm5");
  EXPECT_TRUE(asm5.rmq);
  EXPECT_EQ(asm5.b, 19);
  EXPECT_EQ(asm5.q2, 81);
  EXPECT_EQ(asm5.e, 3);
  EXPECT_EQ(asm5.zdrop, 200);
  EXPECT_EQ(asm5.bw_long, 100000);
  EXPECT_EQ(asm5.best_n, 50);
  AlignOptions asm20;
  asm20.apply_preset("asm20");
  EXPECT_EQ(asm20.w, 10);
  EXPECT_EQ(asm20.b, 4);
  for (const auto& name : preset_names()) {
    AlignOptions o;
    o.apply_preset(name);
    EXPECT_EQ(error_of(o), "") << name;
  }
  AlignOptions bad;
  try {
    bad.apply_preset("foo");
    FAIL();
  } catch (const OptionError& e) {
    EXPECT_STREQ(e.what(), "unknown preset 'foo'");
  }
}

TEST(Options, SplicePresets) {
  AlignOptions sp;
  sp.apply_preset("splice");
  EXPECT_TRUE(sp.splice && sp.splice_for && sp.splice_rev && sp.splice_flank);
  EXPECT_TRUE(sp.splicing());
  EXPECT_EQ(sp.k, 15);
  EXPECT_EQ(sp.w, 5);
  EXPECT_FALSE(sp.hpc);
  EXPECT_EQ(sp.max_sw_mat, 0);
  EXPECT_EQ(sp.max_gap, 2000);
  EXPECT_EQ(sp.max_gap_ref, 200000);
  EXPECT_EQ(sp.bw, 200000);
  EXPECT_EQ(sp.bw_long, 200000);
  EXPECT_EQ(sp.a, 1);
  EXPECT_EQ(sp.b, 2);
  EXPECT_EQ(sp.q, 2);
  EXPECT_EQ(sp.q2, 32);
  EXPECT_EQ(sp.e, 1);
  EXPECT_EQ(sp.e2, 0);
  EXPECT_EQ(sp.noncan, 9);
  EXPECT_EQ(sp.junc_bonus, 9);
  EXPECT_EQ(sp.zdrop, 200);
  EXPECT_EQ(sp.zdrop_inv, 100);
  EXPECT_EQ(sp.min_dp_max, 80);  // not rescaled with a
  AlignOptions hq;
  hq.apply_preset("splice:hq");
  EXPECT_EQ(hq.junc_bonus, 5);  // 2.24: the junction bonus, not -C, becomes 5
  EXPECT_EQ(hq.noncan, 9);
  EXPECT_EQ(hq.b, 4);
  EXPECT_EQ(hq.q, 6);
  EXPECT_EQ(hq.q2, 24);
  EXPECT_EQ(hq.e, 1);
  // mm_set_opt compares the first six letters: any "splice..." is the splice preset.
  AlignOptions other;
  other.apply_preset("splicefoo");
  EXPECT_EQ(other.junc_bonus, 9);
  EXPECT_TRUE(other.splice);
  AlignOptions cdna;
  cdna.apply_preset("cdna");
  EXPECT_TRUE(cdna.splice);
  // -u f without a splice preset turns splicing on (mm_mapopt_update), with DNA scoring.
  AlignOptions uf;
  uf.splice_for = true;
  EXPECT_TRUE(uf.splicing());
  EXPECT_FALSE(AlignOptions().splicing());
}

TEST(Options, ChecksInMinimap2Order) {
  AlignOptions o;
  o.k = 0, o.best_n = -1;
  EXPECT_EQ(error_of(o), "-k and -w must be positive");
  o = {}, o.k = 29;
  EXPECT_EQ(error_of(o), "-k must be at most 28");
  o = {}, o.w = 256;
  EXPECT_EQ(error_of(o), "-w must be less than 256");
  o = {}, o.best_n = -1, o.pri_ratio = 2;
  EXPECT_EQ(error_of(o), "-N must be no less than 0");
  o = {}, o.pri_ratio = 2;
  EXPECT_EQ(error_of(o), "-p must be within 0 and 1 (including 0 and 1)");
  o = {}, o.for_only = o.rev_only = true;
  EXPECT_EQ(error_of(o), "--for-only and --rev-only can't be applied at the same time");
  o = {}, o.q = o.q2 = 0;
  EXPECT_EQ(error_of(o), "-O and -E must be positive");
  o = {}, o.q = 40, o.zdrop = 100;  // -O 40 -E 2,1 -z 100,200: dual-gap first
  EXPECT_EQ(error_of(o), "dual gap penalties violating E1>E2 and O1+E1<O2+E2");
  o = {}, o.q = o.q2 = 70, o.e = o.e2 = 1;  // -O 70,70 -E 1,1: equal pieces skip the dual-gap rule
  EXPECT_EQ(error_of(o), "scoring system violating ({-O}+{-E})+({-O2}+{-E2}) <= 127");
  o = {}, o.zdrop = 100;
  EXPECT_EQ(error_of(o), "Z-drop should not be less than inversion-Z-drop");
  o = {}, o.print_secondary = false, o.all_chains = true;
  EXPECT_EQ(error_of(o), "-X/-P and --secondary=no can't be applied at the same time");
}

// The checks that also look at the output (mm_check_opt's first, third and last), in
// minimap2's order around the others.
TEST(Options, ChecksWithTheOutput) {
  const auto error_with = [](const AlignOptions& o, OutputChecks out) {
    try {
      o.validate(out);
    } catch (const OptionError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  AlignOptions o;
  o.bw = 30000, o.k = 0;  // -r 30000 -k 0: the band first
  EXPECT_EQ(error_of(o), "with '-rNUM1,NUM2', NUM1 (30000) can't be larger than NUM2 (20000)");
  o = {}, o.split_prefix = std::string(3, 'p'), o.k = 0;
  EXPECT_EQ(error_with(o, {.sam = true, .cs_or_md = true, .warn = nullptr, .sketch_limits = true}), "--cs or --MD doesn't work with --split-prefix");
  EXPECT_EQ(error_with(o, {.sam = true, .cs_or_md = false, .warn = nullptr, .sketch_limits = true}), "-k and -w must be positive");
  o = {}, o.qstrand = true;
  EXPECT_EQ(error_with(o, {.sam = true, .cs_or_md = false, .warn = nullptr, .sketch_limits = true}), "--qstrand doesn't work with -a, -H, --frag or --splice");
  EXPECT_EQ(error_with(o, {}), "") << "PAF";
  o.hpc = true;
  EXPECT_EQ(error_with(o, {}), "--qstrand doesn't work with -a, -H, --frag or --splice");
}

}  // namespace
}  // namespace agatha
