// Presets and option checks of minimap2 (options.c: mm_set_opt, mm_check_opt), as the
// release followed (AlignOptions::rules()) has them.
#include <agatha/error.hpp>
#include <agatha/options.hpp>

#include <string>

namespace agatha {
namespace {

void set_scoring(AlignOptions& o, int a, int b, int q, int q2, int e, int e2) {
  o.a = a, o.b = b, o.q = q, o.q2 = q2, o.e = e, o.e2 = e2;
}

// Shared by asm5/asm10/asm20: RMQ chaining, wide bands, fewer repeats.
void set_asm(AlignOptions& o) {
  o.hpc = false, o.k = 19, o.w = 19;
  o.bw = 1000, o.bw_long = 100000;
  o.max_gap = 10000;
  o.rmq = true;
  o.min_mid_occ = 50, o.max_mid_occ = 500;
  o.min_dp_max = 200;
  o.best_n = 50;
  o.zdrop = o.zdrop_inv = 200;
}

// splice, splice:hq (and 2.31's splice:sr): spliced alignment of transcripts; no DP cell
// cap; a band and reference gap as wide as the longest intron.
void set_splice(AlignOptions& o, std::string_view name) {
  o.hpc = false, o.k = 15, o.w = 5;
  o.splice = o.splice_for = o.splice_rev = o.splice_flank = true;
  o.max_sw_mat = 0;
  o.max_gap = 2000;
  o.max_gap_ref = o.bw = o.bw_long = 200000;
  set_scoring(o, 1, 2, 2, 32, 1, 0);
  o.noncan = 9;
  o.junc_bonus = 9;
  o.zdrop = 200, o.zdrop_inv = 100;  // halved with the match score
  if (!o.rules().presets_2_31) {
    if (name == "splice:hq") o.junc_bonus = 5, o.b = 4, o.q = 6, o.q2 = 24;  // 2.24 sets the junction bonus, not -C, to 5
    return;
  }
  o.junc_pen = 5;
  if (name == "splice:hq") {
    o.noncan = 5, o.b = 4, o.q = 6, o.q2 = 24;
  } else if (name == "splice:sr") {
    o.print_secondary = false;
    o.two_io_threads = o.heap_sort = o.frag_mode = o.weak_pairing = o.sr_rna = true;
    o.noncan = 5, o.b = 4, o.q = 6, o.q2 = 24;
    o.min_chain_score = 25;
    o.min_dp_max = 40;
    o.min_ksw_len = 20;
    o.pe_ori = 0 << 1 | 1;  // FR
    o.best_n = 10;
    o.read_batch = 100'000'000;
  }
}

// Shared by ava-ont/ava-pb: all-vs-all overlaps.
void set_ava(AlignOptions& o) {
  o.all_chains = o.no_diag = o.no_dual = o.no_long_join = true;
  o.min_chain_score = 100, o.pri_ratio = 0.0f, o.max_chain_skip = 25;
  o.occ_dist = 0;
}

}  // namespace

const std::vector<std::string>& preset_names() {
  static const std::vector<std::string> names = {
      "map-ont", "lr",     "map-pb", "map10k", "map-hifi", "map-ccs", "lr:hq",     "lr:hqae",   "map-iclr",
      "map-iclr-prerender", "asm5", "asm10", "asm20", "ava-ont", "ava-pb", "sr", "short", "splice", "splice:hq",
      "splice:sr", "cdna"};
  return names;
}

void AlignOptions::apply_preset(std::string_view name) {
  const bool r31 = rules().presets_2_31;
  if (name == "map-ont" || (r31 && name == "lr")) {
    // the defaults
  } else if (name == "map-pb" || name == "map10k") {
    hpc = true, k = 19;
  } else if (name == "map-hifi" || name == "map-ccs" || (r31 && name == "lr:hq")) {
    hpc = false, k = 19, w = 19;
    max_gap = 10000;
    min_mid_occ = 50, max_mid_occ = 500;
    if (name != "lr:hq") {
      set_scoring(*this, 1, 4, 6, 26, 2, 1);
      min_dp_max = 200;
      if (!r31) occ_dist = 500;  // 2.31's map-hifi keeps the default -e
    }
  } else if (r31 && name == "lr:hqae") {  // high-quality assembly evaluation
    hpc = false, k = 25, w = 51;
    rmq = true;
    min_mid_occ = 50, max_mid_occ = 500;
    rmq_inner_dist = 5000;
    occ_dist = 200;
    best_n = 100;
    chain_gap_scale = 5.0f;
  } else if (r31 && name == "map-iclr-prerender") {
    hpc = false, k = 15;
    b = 6, transition = 1;
    q = 10, q2 = 50;
  } else if (r31 && name == "map-iclr") {
    hpc = false, k = 19;
    b = 6, transition = 4;
    q = 10, q2 = 50;
  } else if (name == "asm5") {
    set_asm(*this);
    set_scoring(*this, 1, 19, 39, 81, 3, 1);
  } else if (name == "asm10") {
    set_asm(*this);
    set_scoring(*this, 1, 9, 16, 41, 2, 1);
  } else if (name == "asm20") {
    set_asm(*this);
    set_scoring(*this, 1, 4, 6, 26, 2, 1);
    w = 10;
  } else if (name == "ava-ont") {
    hpc = false, k = 15, w = 5;
    set_ava(*this);
    bw = bw_long = 2000;
  } else if (name == "ava-pb") {
    hpc = true, k = 19, w = 5;
    set_ava(*this);
    bw_long = bw;
  } else if (name == "sr" || name == "short") {
    hpc = false, k = 21, w = 11;
    sr = frag_mode = heap_sort = two_io_threads = true;
    print_secondary = false;
    pe_ori = 0 << 1 | 1;  // FR
    set_scoring(*this, 2, 8, 12, 24, 2, 1);
    zdrop = zdrop_inv = 100;
    end_bonus = 10;
    max_frag_len = 800;
    max_gap = 100;
    bw = bw_long = 100;
    pri_ratio = 0.5f;
    min_cnt = 2;
    min_chain_score = 25;
    min_dp_max = 40;
    best_n = 20;
    mid_occ = 1000;
    max_occ = 5000;
    read_batch = 50'000'000;
  } else if (r31 ? (name == "splice" || name == "splice:hq" || name == "splice:sr" || name == "cdna")
                 : (name.starts_with("splice") || name == "cdna")) {
    // 2.24 compares a prefix ("splice" and anything after it); 2.31 the names.
    set_splice(*this, name);
  } else {
    throw OptionError("unknown preset '" + std::string(name) + "'");
  }
}

void AlignOptions::validate(const OutputChecks& out) const {
  if (bw > bw_long)
    throw OptionError("with '-rNUM1,NUM2', NUM1 (" + std::to_string(bw) + ") can't be larger than NUM2 (" +
                      std::to_string(bw_long) + ")");
  if (rmq && (sr || splice)) throw OptionError("--rmq doesn't work with --sr or --splice");
  if (!split_prefix.empty() && out.cs_or_md) throw OptionError("--cs or --MD doesn't work with --split-prefix");
  if (k <= 0 || w <= 0) throw OptionError("-k and -w must be positive");
  if (out.sketch_limits && k > 28) throw OptionError("-k must be at most 28");
  if (out.sketch_limits && w > 255) throw OptionError("-w must be less than 256");
  if (best_n < 0) throw OptionError("-N must be no less than 0");
  if (best_n == 0 && out.warn) out.warn("'-N 0' reduces mapping accuracy. Please use '--secondary=no' instead.");
  if (pri_ratio < 0.0f || pri_ratio > 1.0f) throw OptionError("-p must be within 0 and 1 (including 0 and 1)");
  if (for_only && rev_only) throw OptionError("--for-only and --rev-only can't be applied at the same time");
  if (e <= 0 || q <= 0) throw OptionError("-O and -E must be positive");
  if ((q != q2 || e != e2) && !(e > e2 && q + e < q2 + e2))
    throw OptionError("dual gap penalties violating E1>E2 and O1+E1<O2+E2");
  if ((q + e) + (q2 + e2) > 127) throw OptionError("scoring system violating ({-O}+{-E})+({-O2}+{-E2}) <= 127");
  if (rules().check_score_n && (sc_ambi < 0 || sc_ambi >= b)) throw OptionError("--score-N should be within [0,{-B})");
  if (zdrop < zdrop_inv) throw OptionError("Z-drop should not be less than inversion-Z-drop");
  if (!print_secondary && all_chains) throw OptionError("-X/-P and --secondary=no can't be applied at the same time");
  if (qstrand && (out.sam || splice || frag_mode || hpc))
    throw OptionError("--qstrand doesn't work with -a, -H, --frag or --splice");
}

}  // namespace agatha
