// agatha/compat.hpp — the minimap2 release agatha follows, and every rule in which the
// releases it follows differ. This is the one place such differences are decided: a stage
// asks AlignOptions::rules() for the rule by name, never for the release.
//
// minimap2 2.24 (2.24-r1122) is the release Debian ships; 2.31 (2.31-r1302) is the one
// agatha follows by default. Each rule names the minimap2 function it comes from and what
// each release does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace agatha {

enum class Release : uint8_t { k2_24, k2_31 };

inline constexpr Release kDefaultRelease = Release::k2_31;

struct ReleaseRules {
  Release release;
  // minimap2 --version: "2.24-r1122" / "2.31-r1302".
  const char* version;

  // ---- options and presets (options.c: mm_idxopt_init, mm_mapopt_init, mm_set_opt) ----
  // -I's default: 4G (2.24), 8G (2.31).
  uint64_t default_part_bases;
  // 2.31's presets: lr (= map-ont), lr:hq, lr:hqae, map-iclr, map-iclr-prerender,
  // splice:sr. map-hifi (map-ccs) no longer sets -e 500, only (with lr:hq shared) k, w,
  // -g, -U; splice:hq sets -C 5 where 2.24 set --junc-bonus 5; every splice preset sets
  // --junc-pen 5. 2.24 takes any name starting with "splice" as splice.
  bool presets_2_31;
  // main.c: 2.24 refuses --splice with --frag ("--splice and --frag should not be
  // specified at the same time"); 2.31 allows it (splice:sr sets both).
  bool splice_with_frag;
  // mm_check_opt: 2.31 refuses --score-N outside [0, -B).
  bool check_score_n;
  // main.c (main's long-option table, short-option string and option loop): 2.31's
  // options -b, -J, -j, --secondary-seq, --ds, --rmq-inner, --spsc, --junc-pen, --pairing,
  // --jump-min-match, --write-junc, --pass1, --spsc-scale, --spsc0 and --dbg-seed-occ,
  // and --sr's optional value (dna|rna|no). In 2.24 they are unknown options (and --sr
  // takes no value: "--sr=rna" is --sr).
  bool options_2_31;
  // main.c's usage text (minimap2 -h): 2.31's shows -I [8G], -J, -j, --ds and -y, and
  // lists the presets anew (lr:hq, splice:sr, map-iclr...).
  bool usage_2_31;

  // ---- chaining (lchain.c: mg_lchain_rmq) ----
  // The inner distance of RMQ chaining (--rmq-inner, lr:hqae's 5000): 2.24 turns the
  // inner scan off when it is not within (0, max_dist); 2.31 clamps it to [0, max_dist].
  bool rmq_inner_clamp;

  // ---- regions (hit.c: mm_select_sub, mm_filter_strand_retained; pe.c: mm_select_sub_multi) ----
  // Which secondary regions stay is decided for every region before any is removed
  // (2.31). 2.24 compacts the array as it goes, so a region's parent index may name a
  // slot already overwritten by a later kept region, and the parent's score, position and
  // strand are read from that region instead.
  bool select_sub_decide_first;
  // mm_set_mapq2 (2.31): with sr (or --sr=rna) and splicing, a primary's MAPQ takes
  // x = dp_max2 / dp_max (no chain scores) and gains 10 when it is spliced and no
  // secondary of the read is; 2.24's mm_set_mapq has neither.
  bool mapq_sr_splice;

  // ---- alignment (align.c: mm_align_skeleton, mm_align1) ----
  // mm_align_skeleton: mm_update_dp_max is skipped for the all-chains (ava) presets (2.31).
  bool all_chains_skip_dp_max_update;
  // mm_align1, short reads: ungapped fill of the gap between a pair's first and last seed.
  // 2.24 scores an ambiguous base with +e2 (sic); 2.31 with -|sc_ambi|, and when the
  // ungapped score is not above (len - 2) * a - 2 * (q + e), the best a gapped
  // alignment could reach, aligns the gap with the DP instead.
  bool sr_ungapped_dp_fallback;

  // ---- splicing (align.c; ksw2_exts2_sse.c: ksw_exts2_sse) ----
  // -J 1, the default of 2.31: splice sites are scored by miniprot's model (flag
  // dp_flag::kSpliceCmplx: GT..AG 0, GT without the consensus third base 3 (rounded
  // 8/3), GC 5, AT 7 and the rest 10; -C unused) rather than 2.24's -C and --splice-flank.
  bool splice_model_cmplx_default;
  // mm_align_skeleton, both transcript strands tried: a spliced region's dp_max gains
  // (a+b) + (a+b)/2 when one strand scored higher, and loses a+b when both tied (2.31).
  bool splice_strand_dp_max_adjust;
  // ksw_exts2_sse with end_bonus (2.31): an extension that reaches the query's end with
  // a score above the maximum minus the end bonus ends there. 2.24 passes none (the
  // splice tasks then carry an end bonus of 0, which never reaches the end).
  bool exts2_end_bonus;
  // The site classes of ksw_exts2_sse (2.31: GC..AG and AT..AC on either strand, read
  // backwards in left extensions) need no rule: without the miniprot model they score
  // what any non-motif site scores, so the -J 0 tables equal 2.24's; with it the task
  // flag dp_flag::kSpliceCmplx, set from AlignOptions::splice_cmplx(), decides.

  // ---- DP results (ksw2_extd2_sse.c, ksw2_extz2_sse.c, ksw2_exts2_sse.c) ----
  // mte_q, the query index of the best target-end cell, is r - en0 (2.31) rather than
  // r - en, en rounded up to the kernel's 16-cell blocks (2.24): task flag
  // dp_flag::kMteQCell. No alignment reads it; it shows in DP task answers only.
  bool dp_mte_q_cell;

  // ---- output (format.c) ----
  // mm_write_sam_hdr: a first line "@HD VN:1.6 SO:unsorted GO:query" (2.31).
  bool sam_hd_line;
  // write_sam_tags / mm_write_paf: ms:i is the DP score of the max-scoring segment
  // before mm_update_dp_max's adjustment (dp_max0, 2.31) or after it (2.24).
  bool ms_before_dp_max_update;
  // mm_write_paf4: in fragment mode a segment's PAF query name gets "/1", "/2" (2.31).
  bool paf_segment_suffix;
};

inline constexpr ReleaseRules kRules2_24{
    .release = Release::k2_24,
    .version = "2.24-r1122",
    .default_part_bases = 4'000'000'000ULL,
    .presets_2_31 = false,
    .splice_with_frag = false,
    .check_score_n = false,
    .options_2_31 = false,
    .usage_2_31 = false,
    .rmq_inner_clamp = false,
    .select_sub_decide_first = false,
    .mapq_sr_splice = false,
    .all_chains_skip_dp_max_update = false,
    .sr_ungapped_dp_fallback = false,
    .splice_model_cmplx_default = false,
    .splice_strand_dp_max_adjust = false,
    .exts2_end_bonus = false,
    .dp_mte_q_cell = false,
    .sam_hd_line = false,
    .ms_before_dp_max_update = false,
    .paf_segment_suffix = false,
};

inline constexpr ReleaseRules kRules2_31{
    .release = Release::k2_31,
    .version = "2.31-r1302",
    .default_part_bases = 8'000'000'000ULL,
    .presets_2_31 = true,
    .splice_with_frag = true,
    .check_score_n = true,
    .options_2_31 = true,
    .usage_2_31 = true,
    .rmq_inner_clamp = true,
    .select_sub_decide_first = true,
    .mapq_sr_splice = true,
    .all_chains_skip_dp_max_update = true,
    .sr_ungapped_dp_fallback = true,
    .splice_model_cmplx_default = true,
    .splice_strand_dp_max_adjust = true,
    .exts2_end_bonus = true,
    .dp_mte_q_cell = true,
    .sam_hd_line = true,
    .ms_before_dp_max_update = true,
    .paf_segment_suffix = true,
};

[[nodiscard]] constexpr const ReleaseRules& rules_of(Release r) {
  return r == Release::k2_24 ? kRules2_24 : kRules2_31;
}

// "2.24" or "2.31" (also the full versions, "2.24-r1122", "2.31-r1302"); nullopt otherwise.
[[nodiscard]] inline std::optional<Release> parse_release(std::string_view text) {
  if (text == "2.24" || text == kRules2_24.version) return Release::k2_24;
  if (text == "2.31" || text == kRules2_31.version) return Release::k2_31;
  return std::nullopt;
}

[[nodiscard]] constexpr std::string_view release_name(Release r) { return r == Release::k2_24 ? "2.24" : "2.31"; }

}  // namespace agatha
