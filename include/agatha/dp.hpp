// agatha/dp.hpp — the guided dynamic-programming engine: tasks, results, backends.
//
// A DpTask is one call of minimap2 2.24's guided alignment (ksw_extd2): a query and a
// target, both encoded 0..4 (A C G T N), a scoring scheme with two affine gap pieces,
// a band, a Z-drop threshold, an end bonus and mode flags. A DpResult holds every
// field that call returns. Backends compute batches of independent tasks; every
// backend returns bit-identical results (the scalar backend is the oracle).
//
// A task whose flag has dp_flag::kSplice is instead one call of minimap2's splice-aware
// guided alignment (ksw_exts2): one affine gap piece (q, e) plus a long-gap state for
// introns that opens at cost q2 with no extension cost, adjusted at each target position
// by donor and acceptor scores taken from the target's splice motifs (the
// kSpliceFor/kSpliceRev/kSpliceFlank flags), the non-canonical penalty `noncan` and,
// where a junction array marks annotated intron ends, `junc_bonus`. It has no band; its
// end bonus (minimap2 2.31 passes one; 2.24 none, which is an end bonus of 0) only
// decides where an extension's traceback starts; its CIGAR has N operations for the
// long-gap state.
//
// Ownership: a DpTask does not own its sequences (nor its junction array); the caller
// keeps them alive until the batch returns. Threading: a DpBackend object may be used by
// one caller thread at a time; it spreads a batch over its own worker threads.
#pragma once

#include <agatha/cigar.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agatha {

// ---------------------------------------------------------------------------------------
// Flags (bit values of ksw2's KSW_EZ_* so task files speak the reference's language)
// ---------------------------------------------------------------------------------------
namespace dp_flag {
inline constexpr uint32_t kScoreOnly = 0x01;   // no traceback, no CIGAR
inline constexpr uint32_t kRight = 0x02;       // place gaps rightmost among equal paths
inline constexpr uint32_t kApproxMax = 0x08;   // follow one greedy path instead of exact maxima
inline constexpr uint32_t kApproxDrop = 0x10;  // with kApproxMax: Z-drop on the greedy path
inline constexpr uint32_t kExtzOnly = 0x40;    // extension: the alignment may end anywhere
inline constexpr uint32_t kRevCigar = 0x80;    // emit the CIGAR end-to-start
inline constexpr uint32_t kKnown = kScoreOnly | kRight | kApproxMax | kApproxDrop | kExtzOnly | kRevCigar;
// ksw_exts2 only: which strands' splice motifs score (forward-strand GT..AG, reverse
// CT..AC; GC-AG and AT-AC introns count as non-canonical), and the "flank" model that
// scores a bare GT or AG (without GTr / yAG) at half the non-canonical penalty.
inline constexpr uint32_t kSpliceFor = 0x100;
inline constexpr uint32_t kSpliceRev = 0x200;
inline constexpr uint32_t kSpliceFlank = 0x400;
// ksw_exts2 only (KSW_EZ_SPLICE_CMPLX, minimap2 2.31's -J 1): miniprot's splice-site
// model, which scores GT..AG, GC..AG and AT..AC sites by fixed classes instead of
// noncan and kSpliceFlank (kernels/splice_sites.hpp).
inline constexpr uint32_t kSpliceCmplx = 0x800;
// agatha's, not ksw2's: the task is a ksw_exts2 call (see the header comment).
inline constexpr uint32_t kSplice = 0x10000;
// agatha's, not ksw2's: mte_q as minimap2 2.31's ksw_extd2/ksw_extz2/ksw_exts2 report
// it, r - en0 (the query index of the target-end cell on anti-diagonal r); without it,
// 2.24's r - en, where en is the anti-diagonal's end rounded up to the kernel's 16-cell
// blocks. Nothing else of the result depends on it.
inline constexpr uint32_t kMteQCell = 0x40000;
inline constexpr uint32_t kKnownSplice = kKnown | kSpliceFor | kSpliceRev | kSpliceFlank | kSpliceCmplx | kSplice |
                                         kMteQCell;
// agatha's, not ksw2's: the task is a ksw_extz2 call, minimap2's single-affine guided
// DP, which mm_align_pair calls instead of ksw_extd2 when q == q2 and e == e2. Its
// scoring must have q2 == q and e2 == e. Its answers differ from ksw_extd2's with the
// two pieces equal (its 8-bit values are unsigned and offset by q+e, so they wrap
// elsewhere; APPROX_DROP skips the Z-drop test on the first anti-diagonal), see
// kernels/dp_extz2_scalar.cpp.
inline constexpr uint32_t kSingleAffine = 0x20000;
inline constexpr uint32_t kKnownGuided = kKnown | kSingleAffine | kMteQCell;
}  // namespace dp_flag

// Bits of a splice task's junction array (one byte per target base, as minimap2's
// mm_idx_bed_junc fills it): an annotated intron on the forward strand has kJuncForStart
// at its first base and kJuncForEnd at its last; one on the reverse strand kJuncRevEnd at
// its first base and kJuncRevStart at its last.
namespace dp_junc {
inline constexpr uint8_t kJuncForStart = 1, kJuncForEnd = 2, kJuncRevStart = 4, kJuncRevEnd = 8;
}  // namespace dp_junc

// "No score": the value of score/mqe/mte when the cell was never reached.
inline constexpr int32_t kDpNegInf = -0x40000000;

// Match +a, mismatch -b, any pair involving N -ambi; a gap of length L costs
// min(q + L*e, q2 + L*e2).
//
// The values are minimap2's options as given (-A -B -O -E, its sc_ambi): the engine
// derives its scoring matrix from them exactly as minimap2 does — ksw_gen_simple_mat
// takes a, b and ambi as int8_t (so -A 200 is a match score of 56 and -B 200 a mismatch
// score of -56) and the DP calls take q, e, q2, e2 as int8_t — so any values minimap2
// accepts give minimap2's answers. ksw_matrix() gives the three matrix entries.
struct DpScoring {
  int a = 2, b = 4, ambi = 1;
  int q = 4, e = 2, q2 = 24, e2 = 1;
  // minimap2 2.31's -b: the score of a transition (A<->G, C<->T); 0: a mismatch like any
  // other. ksw_gen_ts_mat writes -|transition| (as int8_t) into the matrix's four
  // transition entries unless it is 0 or equals b (as int8_t); mm_align_pair then runs
  // the DP with KSW_EZ_GENERIC_SC whenever transition != 0 and transition != b (as ints):
  // the scores come from the matrix itself, so an N entry of 0 stays 0 (not -e2, -e),
  // and only the cells of the exact band get fresh scores (see generic()).
  int transition = 0;

  // Whether minimap2 scores the DP from its whole matrix (KSW_EZ_GENERIC_SC).
  [[nodiscard]] constexpr bool generic() const { return transition != 0 && transition != b; }
  // The matrix's transition entry (the mismatch score when the matrix has none).
  [[nodiscard]] constexpr int8_t transition_score() const {
    const auto t = static_cast<int8_t>(transition);
    if (t == 0 || t == static_cast<int8_t>(b)) return mismatch_score();
    return t > 0 ? static_cast<int8_t>(-t) : t;
  }

  // The entries of minimap2's matrix (ksw_gen_simple_mat: int8_t arguments, then |a|,
  // -|b|, -|ambi| back in int8_t): equal to a, -b, -ambi for values in [0, 127].
  [[nodiscard]] constexpr int8_t match_score() const { return abs8(a); }
  [[nodiscard]] constexpr int8_t mismatch_score() const { return neg8(b); }
  [[nodiscard]] constexpr int8_t ambi_score() const { return neg8(ambi); }

  // The score of target code t against query code q (codes 0..4), from that matrix.
  [[nodiscard]] constexpr int substitution(uint8_t t, uint8_t q_code) const {
    return t > 3 || q_code > 3 ? ambi_score()
           : t == q_code       ? match_score()
           : (t ^ q_code) == 2 ? transition_score()
                               : mismatch_score();
  }

 private:
  static constexpr int8_t abs8(int v) {
    const auto x = static_cast<int8_t>(v);
    return x < 0 ? static_cast<int8_t>(-x) : x;
  }
  static constexpr int8_t neg8(int v) {
    const auto x = static_cast<int8_t>(v);
    return x > 0 ? static_cast<int8_t>(-x) : x;
  }
};

// The entries of minimap2's scoring matrix for `sc` (ksw_gen_simple_mat with int8_t
// arguments): match (A/C/G/T equal), mismatch and any pair with N.
struct KswMatrix {
  int8_t match, mismatch, ambi;
  int8_t transition;  // A<->G, C<->T (DpScoring::transition_score)
};
[[nodiscard]] KswMatrix ksw_matrix(const DpScoring& sc);

// Empty string when the engine takes the scheme for a ksw_extd2 task (any values
// minimap2 can pass: they are taken as it takes them, see DpScoring), else the reason.
// With single_affine (a ksw_extz2 task) q2 and e2 must equal q and e.
[[nodiscard]] std::string validate_scoring(const DpScoring& sc, bool single_affine = false);

// True when every backend's fast kernel computes a ksw_extd2 task with this scoring:
// a matrix whose match score is positive, mismatch and N entries not positive, gap
// values in [0, 127] with (q+e)+(q2+e2) <= 127 and match+max(q+e, q2+e2) <= 127, so
// that no 8-bit difference of ksw_extd2 wraps. Other scorings (and ksw_extz2 tasks) are
// computed by the scalar oracle, which follows ksw2's wrapping arithmetic exactly; a
// backend hands such tasks to it (dp_task_on_oracle).
[[nodiscard]] bool dp_scoring_native(const DpScoring& sc);

// The same for a splice (ksw_exts2) task: a, b, ambi, q, e, q2, noncan and junc_bonus
// are taken as minimap2 passes them (int8_t); e2 is not used. Empty string when the
// engine takes them (all but an e that is 0 as an int8_t, which ksw_exts2 divides by).
[[nodiscard]] std::string validate_splice_scoring(const DpScoring& sc, int noncan, int junc_bonus);

struct DpTask {
  std::span<const uint8_t> query;   // codes 0..4
  std::span<const uint8_t> target;  // codes 0..4
  DpScoring scoring;
  uint32_t flag = 0;
  int32_t w = -1;      // band width; < 0: no band
  int32_t zdrop = -1;  // < 0: no Z-drop
  int32_t end_bonus = 0;
  // Splice tasks (flag has dp_flag::kSplice) only; w and scoring.e2 are then unused.
  int32_t noncan = 0;             // penalty of a splice site without its motif
  int32_t junc_bonus = 0;         // added at the ends of annotated introns
  std::span<const uint8_t> junc;  // dp_junc bits per target base; empty: none
};

// True when a backend other than scalar hands this task to the scalar oracle: a
// ksw_extz2 task, a ksw_extd2 task whose scoring is not native, a splice task with a
// value outside [0, 127] (or e < 1, or a junction bonus outside the int8 range).
[[nodiscard]] bool dp_task_on_oracle(const DpTask& task);

struct DpResult {
  int32_t score = kDpNegInf;  // H at (tlen-1, qlen-1) if the last anti-diagonal was reached
  int32_t max = 0;            // best cell (exact mode) and its coordinates
  int32_t max_q = -1, max_t = -1;
  int32_t mqe = kDpNegInf, mqe_t = -1;  // best score reaching the query end
  int32_t mte = kDpNegInf, mte_q = -1;  // best score reaching the target end
  bool zdropped = false;
  bool reach_end = false;
  std::vector<uint32_t> cigar;  // agatha/cigar.hpp encoding (M, I, D; N in splice tasks)
  uint64_t cells = 0;           // in-band cells computed before termination
};

// ---------------------------------------------------------------------------------------
// Backends
// ---------------------------------------------------------------------------------------
class DpBackend {
 public:
  virtual ~DpBackend() = default;
  virtual std::string name() const = 0;
  // results.size() must equal tasks.size(); results[i] answers tasks[i].
  virtual void run(std::span<const DpTask> tasks, std::span<DpResult> results) = 0;
  // True when run() computes on a device and leaves the host's cores free while it
  // waits for it (the CUDA backend): the read pipeline then runs one group's DP while
  // its threads seed, chain and replay another group. The pipeline asks between runs,
  // never while one is in flight.
  virtual bool runs_on_device() const { return false; }
  // A host backend may also compute one task at a time on its caller's thread: up to
  // inline_workers() threads at once, each calling with its own worker number in
  // [0, inline_workers()) (each number has its workspace). The read pipeline then aligns
  // every read in one pass, computing each DP where minimap2 computes it, instead of in
  // rounds. 0 (the default): run() only.
  virtual int inline_workers() const { return 0; }
  virtual void compute_inline(int worker, const DpTask& task, DpResult& result);
  // True when run() computes some tasks several at a time (the cpu backend's full-band
  // gap fills, one per vector lane), faster than one by one: the read pipeline then
  // gives it the tasks of many reads in rounds rather than each task inline.
  virtual bool batches_tasks() const { return false; }
};

struct DpBackendOptions {
  std::string backend = "cpu";  // scalar | cpu | gpu | gpu-sim | gpu-emu | auto (gpu when a device is usable, else cpu)
  std::string isa = "auto";     // for cpu: auto | sse41 | avx2 | avx512
  int threads = 1;
  // For cpu: run() computes full-band gap fills (the APPROX_MAX tasks whose band holds
  // the whole matrix, up to a few hundred bases a side) several at a time, one per
  // vector lane; false: each alone. The answers are the same either way.
  bool batch = true;
  // Receives notes such as auto's fall-back to the CPU; may be empty.
  std::function<void(const std::string&)> log;
};

// Throws agatha::Error on an unknown backend or an ISA this processor lacks.
[[nodiscard]] std::unique_ptr<DpBackend> make_dp_backend(const DpBackendOptions& opt);

// Names of the instruction sets this processor supports for the cpu backend, best last.
[[nodiscard]] std::vector<std::string> supported_isas();

}  // namespace agatha
