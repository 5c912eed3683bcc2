// src/cli/commands.hpp — the subcommands of agatha: for each, what its command line sets
// (a plain struct) and the function that runs it. The command line itself is read by CLI11
// in main.cpp, the one file that includes it: each subcommand's options are bound there to
// the fields of its struct, and the command runs as the subcommand's callback.
#pragma once

#include <agatha/dp.hpp>
#include <agatha/options.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../io/bam_sort.hpp"
#include "../pipeline/records.hpp"

namespace agatha::cli {

// The command line as given (argv[0] first), for the @PG line; set by main.
void set_command_line(int argc, char** argv);
[[nodiscard]] const std::vector<std::string>& command_line();

// The names `dp --backend` and `align --dp-backend` accept (make_dp_backend's), and the
// instruction sets of --isa.
inline const std::vector<std::string> kDpBackendNames = {"scalar", "cpu", "gpu", "gpu-sim", "gpu-emu", "auto"};
inline const std::vector<std::string> kIsaNames = {"auto", "sse41", "avx2", "avx512"};

// Each run_* returns the exit status; errors propagate as agatha::Error, which main
// reports with the command's name.

// agatha dp: run DP task files through a backend (dp_cmd.cpp).
struct DpArgs {
  std::string input;
  std::string output = "-";
  DpBackendOptions backend;
  bool check = false, bench = false;
  bool profile = false;  // --profile: gpu-sim's count of the device's tile paths (gpu::TileProfile)
  int show = 5;  // differing tasks printed by --check
  size_t batch_tasks = 4096;
  size_t batch_bases = 64u << 20;
};
[[nodiscard]] int run_dp(const DpArgs& a);

// agatha index: build and save a minimizer index (index_cmd.cpp).
struct IndexCmdArgs {
  std::string reference, output;
  AlignOptions opt;  // -x -k -w -H -I --bucket-bits -t
  bool quiet = false;  // --quiet
};
[[nodiscard]] int run_index(const IndexCmdArgs& a);

// agatha align: map reads to a reference or index (align_cmd.cpp).
// What the command line sets: the minimap2 options (minimap2_args.hpp) and --dp-batch
// in AlignOptions; the rest here. Filled by `agatha align` and by `agatha minimap2`.
struct AlignArgs {
  AlignOptions opt;
  std::string reference;
  std::vector<std::string> reads;  // the query files, mapped in turn; none: -d is required
  // The passes over the reads: in fragment mode (--frag=yes, -x sr) one over all files
  // read in step (mm_map_file_frag); otherwise one per file, in turn (mm_map_file).
  std::vector<std::vector<std::string>> read_groups() const {
    if (opt.frag_mode) return {reads};
    std::vector<std::vector<std::string>> g;
    for (const std::string& f : reads) g.push_back({f});
    return g;
  }
  std::string output = "-";
  std::string index_out;  // -d: empty without it
  bool index_mmi = false;  // -d writes minimap2's .mmi (else agatha's .agi)
  bool map_only = false;  // PAF without base-level alignment
  bool sam = false;       // -a: SAM (agatha align: the default)
  bool paf = false;       // -c: PAF with base-level alignment (unless -a)
  bool idx_no_seq = false;  // --idx-no-seq: an index without the reference's bases
  // The reference alone, with neither reads nor -d: minimap2 loads an index file and
  // stops (a FASTA file is a "missing input" error); agatha align always refuses.
  bool index_alone_ok = false;
  int verbose = 3;  // -v
  bool quiet = false;  // --quiet (agatha align): no status lines on a terminal
  bool progress = false;  // status lines shown (progress_wanted), set by run_align
  DpBackendOptions dp = [] {  // --dp-backend (auto by default), --isa (threads: -t)
    DpBackendOptions d;
    d.backend = "auto";
    return d;
  }();
  pipeline::OutputOptions out;  // -Y -L --eqx --sam-hit-only --paf-no-hit (the rest: run_align)
  bool md = false;              // --MD
  std::string cs;               // --cs: "short" or "long"; empty without --cs (or --cs=none)
  bool ds = false;              // --ds (2.31): ds:Z, cs with the indels' flanks bracketed
  std::string format;           // --format: sam or bam; empty: from -o's extension
  std::string read_group;       // -R
  bool sort = false;            // --sort
  io::SortOptions sort_opt;     // --sort-mem (threads: -t; index: --index-format)
  bool sort_mem_given = false;
  std::string index_format;  // --index-format: csi or bai; empty without it
};

// `agatha align`'s command line (argv: agatha align ...) with its minimap2 options read
// by minimap2's rules (minimap2_args.hpp) and kept for the command; returns the command
// line left for CLI11: agatha align, align's own options, --, the files (with -V or
// --version: agatha --version). Throws OptionError.
[[nodiscard]] std::vector<std::string> preparse_align(const std::vector<std::string>& argv);

// Runs `agatha align` with `a`, what CLI11 set (align's own options and the files), and
// the minimap2 options preparse_align kept.
[[nodiscard]] int run_align_command(AlignArgs& a);

// `agatha minimap2 ARGS` and a link named minimap2: minimap2's command line exactly
// (words[0]: the program's name). Returns the exit status; reports its errors itself, in
// minimap2's words.
[[nodiscard]] int run_minimap2(const std::vector<std::string>& words);

// agatha eval: mapping accuracy against simulated origins (eval_cmd.cpp).
struct EvalArgs {
  std::string truth, plot;
  std::vector<std::string> inputs, labels;
  double overlap = 0.1;
};
[[nodiscard]] int run_eval(const EvalArgs& a);
// eval's help footer: how the table is computed.
extern const char* const kEvalHelp;

// agatha compare: read-by-read comparison of two alignment files (compare_cmd.cpp).
struct CompareArgs {
  std::string ref, test, plot;
  size_t show = 5;
  bool fail_on_diff = false;
};
[[nodiscard]] int run_compare(const CompareArgs& a);

// agatha gpu-info: the CUDA backend, the runtime, the device (gpu_info_cmd.cpp); 0 when
// the backend can run, 1 when not.
[[nodiscard]] int run_gpu_info(bool emulated);

}  // namespace agatha::cli
