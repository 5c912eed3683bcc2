// src/python/mappy_aligner.hpp — the aligner behind the Python module `agatha`
// (module.cpp binds it): minimap2's Python binding, mappy (python/mappy.pyx and
// python/cmappy.h), over agatha's pipeline, kept free of Python so that it is tested
// on its own.
//
// What mappy does, and so this does:
//   - Aligner(fn_idx_in, preset, k, w, min_cnt, min_chain_score, min_dp_score, bw,
//     best_n, n_threads, fn_idx_out, max_frag_len, extra_flags, seq, scoring): the
//     preset, then each keyword given, on minimap2's defaults; base-level alignment
//     always (MM_F_CIGAR); a FASTA reference indexed whole (one part, whatever its size),
//     an index file's first part only; seq= indexes that one sequence, named "N/A", with
//     mid_occ 1000 (no filtering of frequent seeds);
//   - map(seq, seq2, cs, MD, max_frag_len, extra_flags): every region minimap2's mm_map
//     keeps (primary, secondary and supplementary), in its order, each a Hit with
//     mm_reg2hitpy's fields (NM = blen - mlen + ambiguous bases; is_primary: id ==
//     parent); the read is unnamed (minimap2's per-read hash is then the name-less one);
//     cs is the short form, computed (as MD) on `seq`;
//   - seq2: a pair, mapped as mm_map_aux maps it — seq2 reverse-complemented, the two
//     mapped as one fragment, and its hits' strands flipped back while their query
//     coordinates stay on the reverse complement (mappy's quirk, kept); their cs/MD are
//     computed on seq2 (mappy computes them on seq, which misplaces them); with 2.31's
//     weak pairing (splice:sr) both reads' hits have read_num 1, as mappy's.
// Beyond mappy: the release followed (compat), the DP backend and ISA, and map_many (many
// reads on several threads, in order).
//
// Threading: map() and map_many() may run on any number of threads at once.
#pragma once

#include <agatha/dp.hpp>
#include <agatha/options.hpp>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../index/index.hpp"
#include "../pipeline/read_aligner.hpp"
#include "../pipeline/read_mapper.hpp"
#include "../util/worker_pool.hpp"

namespace agatha::python {

// mappy.Aligner's arguments, and agatha's own.
struct AlignerOptions {
  std::string fn_idx_in;           // FASTA/FASTQ (plain or gzip), .agi or minimap2 .mmi
  std::optional<std::string> seq;  // instead of fn_idx_in: one sequence to index
  std::optional<std::string> preset;
  std::optional<int> k, w, min_cnt, min_chain_score, min_dp_score, bw, best_n, max_frag_len;
  std::optional<int> bw_long, sc_ambi, max_chain_skip;  // mappy 2.31's
  int n_threads = 3;                      // index building; map_many's default
  std::optional<std::string> fn_idx_out;  // save the index built from FASTA (.agi)
  uint64_t extra_flags = 0;               // minimap2's MM_F_* bits (apply_extra_flags)
  std::vector<int> scoring;               // a, b, q, e[, q2, e2[, sc_ambi]]
  std::string compat;                     // "2.24" or "2.31"; empty: agatha's default release
  std::string backend = "cpu";            // scalar | cpu | gpu | gpu-sim | gpu-emu
  std::string isa = "auto";               // cpu backend: auto | sse41 | avx2 | avx512
};

// mappy's Alignment (mm_hitpy_t and its strings).
struct Hit {
  std::string ctg;
  int32_t ctg_len = 0, r_st = 0, r_en = 0, q_st = 0, q_en = 0;
  int32_t mlen = 0, blen = 0, NM = 0;
  int8_t strand = 0, trans_strand = 0;
  uint8_t mapq = 0;
  bool is_primary = false;
  int32_t seg_id = 0;
  std::vector<uint32_t> cigar;  // BAM encoding: length << 4 | op
  std::string cs, ds, MD;       // empty unless asked for
  // __str__ as mappy 2.31 writes it (ds:Z and MD:Z after cs:Z); 2.24 writes cs:Z only.
  bool str_with_md = false;
};

// What map() computes beyond the hits' fields.
struct MapExtras {
  bool cs = false, ds = false, md = false;
};

// One read (or pair) of map_many.
struct Query {
  std::string seq;
  std::optional<std::string> seq2;
  std::string name;  // empty: unnamed
};

// Applies minimap2's MM_F_* flag bits (mappy's extra_flags) to opt: those that change
// mapping or alignment are set; those that only change minimap2's text output are
// ignored (hits have no text); MM_F_EQX is returned in *eqx. Throws OptionError naming
// a bit agatha does not take.
void apply_extra_flags(AlignOptions& opt, uint64_t flags, bool* eqx);

class MappyAligner {
 public:
  // Builds or loads the index. Throws agatha::Error (InputError, OptionError) with the
  // messages of `agatha align`.
  explicit MappyAligner(const AlignerOptions& o);
  ~MappyAligner();
  MappyAligner(const MappyAligner&) = delete;
  MappyAligner& operator=(const MappyAligner&) = delete;

  // The hits of one read, or of a pair (seq2), named `name` (mappy 2.31's map(name=):
  // the per-read hash and the all-vs-all presets' self and dual filters use it; empty:
  // unnamed, as mappy 2.24). max_frag_len and extra_flags, when given, apply to this
  // call only (as mappy's map()).
  [[nodiscard]] std::vector<Hit> map(std::string_view seq, std::optional<std::string_view> seq2, std::string_view name,
                                     MapExtras extras, std::optional<int> max_frag_len = std::nullopt,
                                     std::optional<uint64_t> extra_flags = std::nullopt) const;
  // The hits of every query, in order, mapped on `threads` threads (0: n_threads).
  [[nodiscard]] std::vector<std::vector<Hit>> map_many(const std::vector<Query>& queries, int threads,
                                                       MapExtras extras) const;

  // Bases [start, end) of a reference sequence (end clamped to its length) as ACGTN;
  // nullopt for an unknown name or an empty range (mappy_fetch_seq).
  [[nodiscard]] std::optional<std::string> seq(const std::string& name, int64_t start, int64_t end) const;
  [[nodiscard]] std::vector<std::string> seq_names() const;
  int k() const;
  int w() const;
  int n_seq() const;
  const std::string& backend_name() const { return backend_name_; }

 private:
  struct Setup;  // options, mapper and aligner of one set of options
  [[nodiscard]] std::vector<Hit> map_with(const Setup& s, std::string_view seq, std::optional<std::string_view> seq2,
                                          std::string_view name, MapExtras extras) const;
  [[nodiscard]] std::unique_ptr<Setup> make_setup(const AlignOptions& opt, bool eqx) const;

  std::optional<index::MinimizerIndex> idx_;
  AlignOptions opt_;
  bool eqx_ = false;
  int n_threads_ = 3;
  std::unique_ptr<DpBackend> dp_;
  std::string backend_name_;
  int inline_workers_ = 0;
  std::unique_ptr<Setup> setup_;
  // The DP backend's inline worker numbers, one held while a read aligns.
  std::unique_ptr<util::WorkerPool> workers_;
  mutable std::mutex mu_;  // run() of a backend without inline workers
};

}  // namespace agatha::python
