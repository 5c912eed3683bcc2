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
  // splice:hq: 2.24 sets the junction bonus, 2.31 -C, to 5; 2.31's presets also set
  // --junc-pen 5.
  AlignOptions hq24;
  hq24.set_release(Release::k2_24);
  hq24.apply_preset("splice:hq");
  EXPECT_EQ(hq24.junc_bonus, 5);
  EXPECT_EQ(hq24.noncan, 9);
  EXPECT_EQ(hq24.junc_pen, 0);
  AlignOptions hq;
  hq.apply_preset("splice:hq");
  EXPECT_EQ(hq.junc_bonus, 9);
  EXPECT_EQ(hq.noncan, 5);
  EXPECT_EQ(hq.junc_pen, 5);
  for (const AlignOptions& o : {hq24, hq}) {
    EXPECT_EQ(o.b, 4);
    EXPECT_EQ(o.q, 6);
    EXPECT_EQ(o.q2, 24);
    EXPECT_EQ(o.e, 1);
  }
  // 2.24's mm_set_opt compares the first six letters: any "splice..." is the splice
  // preset; 2.31 compares the names.
  AlignOptions other;
  other.set_release(Release::k2_24);
  other.apply_preset("splicefoo");
  EXPECT_EQ(other.junc_bonus, 9);
  EXPECT_TRUE(other.splice);
  EXPECT_THROW(AlignOptions().apply_preset("splicefoo"), OptionError);
  // splice:sr (2.31): short RNA-seq reads, in pairs.
  AlignOptions ssr;
  ssr.apply_preset("splice:sr");
  EXPECT_TRUE(ssr.splice && ssr.sr_rna && ssr.frag_mode && ssr.weak_pairing && ssr.heap_sort);
  EXPECT_FALSE(ssr.sr);
  EXPECT_EQ(ssr.pe_ori, 1);
  EXPECT_EQ(ssr.min_ksw_len, 20);
  EXPECT_EQ(ssr.best_n, 10);
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
// minimap2 2.31's presets (mm_set_opt), and what 2.24 lacks.
TEST(Options, PresetsOf2_31) {
  AlignOptions hifi24, hifi;
  hifi24.set_release(Release::k2_24);
  hifi24.apply_preset("map-hifi");
  hifi.apply_preset("map-hifi");
  EXPECT_EQ(hifi24.occ_dist, 500);
  EXPECT_EQ(hifi.occ_dist, AlignOptions().occ_dist);  // 2.31 no longer sets -e 500
  EXPECT_EQ(hifi.min_dp_max, 200);
  AlignOptions hq;
  hq.apply_preset("lr:hq");
  EXPECT_EQ(hq.k, 19);
  EXPECT_EQ(hq.w, 19);
  EXPECT_EQ(hq.max_gap, 10000);
  EXPECT_EQ(hq.a, 2);  // the default scoring, unlike map-hifi
  EXPECT_EQ(hq.min_dp_max, 80);
  AlignOptions ae;
  ae.apply_preset("lr:hqae");
  EXPECT_TRUE(ae.rmq);
  EXPECT_EQ(ae.k, 25);
  EXPECT_EQ(ae.w, 51);
  EXPECT_EQ(ae.rmq_inner_dist, 5000);
  EXPECT_EQ(ae.best_n, 100);
  AlignOptions iclr;
  iclr.apply_preset("map-iclr");
  EXPECT_EQ(iclr.k, 19);
  EXPECT_EQ(iclr.b, 6);
  EXPECT_EQ(iclr.transition, 4);
  EXPECT_EQ(iclr.q, 10);
  EXPECT_EQ(iclr.q2, 50);
  EXPECT_TRUE(iclr.dp_scoring().generic());
  EXPECT_EQ(iclr.dp_scoring().transition_score(), -4);
  EXPECT_EQ(iclr.dp_scoring().substitution(0, 2), -4);  // A/G
  EXPECT_EQ(iclr.dp_scoring().substitution(0, 1), -6);  // A/C
  EXPECT_EQ(AlignOptions().part_bases, 8'000'000'000ULL);
  EXPECT_EQ(hifi24.part_bases, 4'000'000'000ULL);
  for (const char* name : {"lr", "lr:hq", "lr:hqae", "map-iclr", "map-iclr-prerender"}) {
    AlignOptions o;
    o.set_release(Release::k2_24);
    EXPECT_THROW(o.apply_preset(name), OptionError) << name;
  }
  // --score-N within [0, -B) (2.31's mm_check_opt).
  AlignOptions n;
  n.sc_ambi = 4;
  EXPECT_THROW(n.validate(), OptionError);
  n.set_release(Release::k2_24);
  n.sc_ambi = 4;
  EXPECT_NO_THROW(n.validate());
}

}  // namespace agatha
