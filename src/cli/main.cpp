// src/cli/main.cpp — the agatha command line: the subcommands, their options bound to
// each command's struct (commands.hpp) and the command run by CLI11 as the subcommand's
// callback, and the one place where errors become messages and exit codes. The one file
// that includes CLI11 (whose header alone costs seconds of compile time per file).
#include "commands.hpp"
#include "map_options.hpp"
#include "minimap2_args.hpp"

#include <CLI/CLI.hpp>

#include <agatha/compat.hpp>
#include <agatha/error.hpp>
#include <agatha/version.hpp>

#include "../dp/gpu_report.hpp"
#include "../io/output_path.hpp"

#include <htslib/hts_log.h>

#include <malloc.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace agatha::cli {
namespace {
std::vector<std::string> g_command_line;
}
void set_command_line(int argc, char** argv) { g_command_line.assign(argv, argv + argc); }
const std::vector<std::string>& command_line() { return g_command_line; }
}  // namespace agatha::cli

namespace {

using namespace agatha;
using namespace agatha::cli;

// Makes `run` the callback of `sub`, run by app.parse once the command line is parsed.
// A non-zero exit status leaves app.parse as CLI::RuntimeError(status), CLI11's way of
// carrying an exit code out of a callback; main returns it. agatha::Error propagates to
// main, which reports it.
void run_when_parsed(CLI::App& sub, std::function<int()> run) {
  sub.callback([run = std::move(run)] {
    if (const int status = run(); status != 0) throw CLI::RuntimeError(status);
  });
}

// A validator that accepts exactly `values` and otherwise throws OptionError(message):
// main reports it in minimap2's words as "[E::COMMAND] MESSAGE" (exit code 1), where a
// CLI11 ValidationError would be worded by CLI11.
[[nodiscard]] CLI::Validator one_of(std::initializer_list<const char*> values, std::string message) {
  std::vector<std::string> accepted(values.begin(), values.end());
  std::string names;
  for (const std::string& v : accepted) names += (names.empty() ? "" : "|") + v;
  return CLI::Validator(
      [accepted = std::move(accepted), message = std::move(message)](const std::string& text) -> std::string {
        if (std::find(accepted.begin(), accepted.end(), text) == accepted.end()) throw OptionError(message);
        return {};
      },
      names);
}

// Decimal digits only. CLI11 reads a size_t with strtoull in base 0, which takes "-1"
// as the largest value and "010" as 8; leading zeros are dropped here so it reads
// the number as written.
[[nodiscard]] CLI::Validator decimal_count() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
          return "'" + text + "' is not a non-negative integer";
        text.erase(0, std::min(text.find_first_not_of('0'), text.size() - 1));
        return std::string();
      },
      "INT >= 0");
}

// A finite decimal number in [LO, HI]. CLI::Range alone would let "nan" through, as
// every comparison with NaN is false.
[[nodiscard]] CLI::Validator finite_range(double lo, double hi) {
  char desc[64];
  std::snprintf(desc, sizeof desc, "FLOAT in [%g, %g]", lo, hi);
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        double x = 0;
        const char* end = text.data() + text.size();
        const auto [p, ec] = std::from_chars(text.data(), end, x);
        if (ec != std::errc() || p != end || !std::isfinite(x) || x < lo || x > hi) {
          char b[64];
          std::snprintf(b, sizeof b, "a number from %g to %g", lo, hi);
          return "'" + text + "' is not " + b;
        }
        return std::string();
      },
      desc);
}

void add_dp_command(CLI::App& app) {
  auto args = std::make_shared<DpArgs>();
  CLI::App* sub = app.add_subcommand("dp",
                                     "Compute guided-DP task files (ksw_extd2 semantics; ksw_extz2 for single-affine "
                                     "tasks, ksw_exts2 for splice tasks)");
  sub->add_option("tasks", args->input, "Task file, TSV (gzip or plain), '-' for stdin")->required();
  sub->add_option("-o,--output", args->output, "Write answers here (default: stdout)");
  sub->add_option("--backend", args->backend.backend,
                  "DP backend: scalar, cpu, gpu, gpu-sim, gpu-emu or auto (gpu if usable, else cpu)")
      ->check(CLI::IsMember(kDpBackendNames));
  sub->add_option("--isa", args->backend.isa, "Instruction set for --backend cpu: auto, sse41, avx2 or avx512")
      ->check(CLI::IsMember(kIsaNames));
  sub->add_option("-t,--threads", args->backend.threads, "Worker threads")->check(CLI::Range(1, 1024));
  sub->add_flag("--no-batch{false}", args->backend.batch,
                "With --backend cpu: compute every task alone (by default full-band gap fills run several at a time, "
                "one per vector lane; the answers are the same)");
  sub->add_flag("--check", args->check, "Compare with the answer columns 15-26; non-zero exit on a difference");
  sub->add_option("--show", args->show, "Differing tasks to print with --check")->check(CLI::NonNegativeNumber);
  sub->add_flag("--bench", args->bench, "Print tasks/s and cells/s of the DP itself to stderr, in all and by band width (the tasks of each width range timed as one batch, after an untimed run of each batch unless --profile)");
  sub->add_flag("--profile", args->profile,
                "With --backend gpu-emu (the CUDA kernel on its host emulation) or gpu-sim (its schedule on the "
                "host): print to stderr, per kind of task, the tiles the kernel computes on each of its paths (fast "
                "pairs and single tiles; general tiles by reason), the anti-diagonals it finalizes and the tiles its "
                "traceback recomputes");
  run_when_parsed(*sub, [args] { return run_dp(*args); });
}

// -x -k -w -H -I --bucket-bits -t of agatha index, bound to the fields of AlignOptions
// (the one place their defaults live): the preset first, whatever its position on the
// command line, then every other option given. CLI11 keeps that order because -x is
// applied as it is parsed (trigger_on_parse) and every other option's value is stored
// once the whole command line is parsed.
void add_index_options(CLI::App& sub, AlignOptions& opt) {
  // An unknown preset is reported at once, in minimap2's words, so that `-x ref.fa
  // reads.fq` (no preset given) names the word -x took rather than the argument now
  // missing.
  sub.add_option_function<std::string>(
         "-x", [&opt](const std::string& name) { opt.apply_preset(name); },
         "Preset: map-ont (default), map-pb, map-hifi, asm5, asm10, asm20, ava-ont, ava-pb; applied before every "
         "other option")
      ->type_name("PRESET")
      ->trigger_on_parse();
  sub.add_option("-k", opt.k, "k-mer size (no larger than 28)")->capture_default_str();
  sub.add_option("-w", opt.w, "Minimizer window size")->capture_default_str();
  sub.add_flag("-H", opt.hpc, "Use homopolymer-compressed k-mers");
  sub.add_option_function<std::string>(
         "-I", [&opt](const std::string& text) { opt.part_bases = parse_size(text, "-I"); },
         "Index parts of ~NUM reference bases (K/M/G suffixes): align maps the reads to each part in turn; an .agi "
         "holds one part")
      ->type_name("NUM")
      ->default_str("8G (minimap2 2.31; 4G with --compat 2.24)");
  sub.add_option("--bucket-bits", opt.bucket_bits,
                 "Bits of the hash that select the index's bucket (no effect on output)")
      ->capture_default_str();
  sub.add_option_function<int>(
         "-t", [&opt](int n) { opt.threads = std::max(n, 1); },
         "Number of threads (index: sketching and sorting; align: every stage)")
      ->default_str(std::to_string(opt.threads));
}

void add_index_command(CLI::App& app) {
  auto args = std::make_shared<IndexCmdArgs>();
  CLI::App* sub = app.add_subcommand("index", "Build a minimizer index (.agi) of a reference FASTA/FASTQ");
  sub->add_option("reference", args->reference, "Reference FASTA/FASTQ (plain or gzip)")->required();
  sub->add_option("-o,--output", args->output, "The index file to write")->required();
  add_index_options(*sub, args->opt);
  sub->add_flag("--quiet", args->quiet,
                "No status line: without it, when stderr is a terminal, the build shows its progress (bases read, "
                "rate) on one line rewritten every 2 s");
  run_when_parsed(*sub, [args] { return run_index(*args); });
}

void add_align_command(CLI::App& app) {
  auto args = std::make_shared<AlignArgs>();
  CLI::App* sub = app.add_subcommand("align", "Map long reads to a reference (minimap2 compatible: 2.31, or 2.24 with --compat 2.24)");
  sub->add_option("reference", args->reference,
                  "Reference FASTA/FASTQ (plain or gzip), .agi index, or minimap2 2.24 index (.mmi)")
      ->required();
  sub->add_option("reads", args->reads,
                  "Reads FASTA/FASTQ (plain or gzip), '-' for stdin; several files are mapped in turn into one "
                  "output; may be left out with -d");
  sub->add_flag("--map-only", args->map_only, "Mapping only: PAF without base-level alignment (minimap2 without -c)");
  sub->add_option(
         "--dp-backend", args->dp.backend,
         "DP backend: scalar, cpu, gpu, gpu-sim, gpu-emu or auto (gpu if usable, else cpu); same output from all")
      ->check(CLI::IsMember(kDpBackendNames))
      ->capture_default_str();
  sub->add_option("--isa", args->dp.isa, "Instruction set for --dp-backend cpu: auto, sse41, avx2 or avx512")
      ->check(CLI::IsMember(kIsaNames))
      ->capture_default_str();
  sub->add_option_function<std::string>(
         "--dp-batch",
         [args](const std::string& text) {
           const int64_t n = parse_num(text, "--dp-batch");
           if (n < 1) throw OptionError("--dp-batch must be positive");
           args->opt.dp_batch = static_cast<uint64_t>(n);
         },
         "Bases of reads aligned together (K/M/G), their records written when all are done; with a GPU backend "
         "(and the cpu backend where it batches gap fills) their DP tasks go to the backend in rounds")
      ->type_name("NUM")
      ->default_str(std::to_string(kDpBatchCpu) + " on the CPU (" + std::to_string(kDpBatchCpuBatchingPerThread) +
                    " per thread where it batches gap fills), " + std::to_string(kDpBatchGpu) + " on the GPU");
  sub->add_option("--format", args->format, "Output format: sam (default) or bam (also chosen by -o *.bam)")
      ->check(one_of({"sam", "bam"}, "--format only takes 'sam' or 'bam'"));
  sub->add_flag(
      "--sort", args->sort,
      "Write the BAM output sorted by coordinate, with its index (FILE.bam.csi; .bai with --index-format bai)");
  sub->add_option_function<std::string>(
         "--sort-mem",
         [args](const std::string& text) {
           args->sort_opt.mem_bytes = io::parse_mem_size(text);
           args->sort_mem_given = true;
         },
         "With --sort: memory for the records sorted at once; more goes through temporary files beside the output "
         "(K/M/G: 2^10/2^20/2^30 bytes; one budget, whatever -t)")
      ->type_name("SIZE")
      ->default_str("768M");
  sub->add_option("--index-format", args->index_format, "With --sort: the index written, csi (default) or bai")
      ->check(one_of({"csi", "bai"}, "--index-format only takes 'csi' or 'bai'"));
  sub->add_flag("--quiet", args->quiet,
                "No status lines: without it, when stderr is a terminal (and -v is 3 or more), the index build and "
                "the alignment show their progress (bases indexed, reads aligned, rate) on one line rewritten every "
                "2 s");
  sub->footer(
      "minimap2's options, with minimap2's meaning, value syntax and defaults (the preset -x first, whatever "
      "its place; then the others in order); those marked (2.31) are unknown options with --compat 2.24. agatha align writes SAM unless -c (PAF with base alignment) or "
      "--map-only; --paf is -c, --output is -o:\n" +
      minimap2_option_help());
  run_when_parsed(*sub, [args] { return run_align_command(*args); });
}

void add_eval_command(CLI::App& app) {
  auto args = std::make_shared<EvalArgs>();
  CLI::App* sub = app.add_subcommand("eval", "Mapping accuracy against simulated read origins");
  sub->footer(kEvalHelp);
  sub->add_option("alignments", args->inputs, "SAM, BAM or PAF files (format detected from the content)")
      ->required()
      ->check(CLI::ExistingFile);
  sub->add_option("--truth", args->truth, "pbsim MAF (plain or gzip), or FASTA/FASTQ with origin-encoding names");
  sub->add_option("--overlap", args->overlap, "Correct when overlap/union of reference intervals exceeds this")
      ->check(finite_range(0.0, 1.0));
  sub->add_option("-l,--label", args->labels,
                  "Name of each input in the table and plot, in order; at most one per input "
                  "(inputs without one: their path)")
      ->allow_extra_args(false);
  sub->add_option("--plot", args->plot, "Write an SVG plot: error rate (log x) against fraction mapped");
  run_when_parsed(*sub, [args] { return run_eval(*args); });
}

void add_compare_command(CLI::App& app) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* sub = app.add_subcommand("compare", "Compare two alignment files read by read (SAM, BAM or PAF)");
  sub->footer(
      "Percentages are of the reads in REF. 'identical': every record of the read is the same\n"
      "text; the other rows compare the read's primary record (contig, start and strand;\n"
      "CIGAR; MAPQ; the set of optional tags). Shown reads: '<' REF records, '>' TEST records.");
  sub->add_option("ref", args->ref, "Reference alignments")->required()->check(CLI::ExistingFile);
  sub->add_option("test", args->test, "Alignments to compare with REF")->required()->check(CLI::ExistingFile);
  sub->add_option("--show", args->show, "Differing reads to print with both records")->transform(decimal_count());
  sub->add_flag("--fail-on-diff", args->fail_on_diff, "Exit 1 when any read differs, is missing or is extra");
  sub->add_option("--plot", args->plot, "Write an SVG summary chart");
  run_when_parsed(*sub, [args] { return run_compare(*args); });
}

void add_gpu_info_command(CLI::App& app) {
  auto emulated = std::make_shared<bool>(false);
  CLI::App* sub = app.add_subcommand("gpu-info", "Describe the CUDA backend: build, runtime, device, kernel image");
  sub->add_flag("--emulated", *emulated, "Describe the host emulation of CUDA (the gpu-emu backend) instead");
  run_when_parsed(*sub, [emulated] { return run_gpu_info(*emulated); });
}

}  // namespace

int main(int argc, char** argv) {
  agatha::cli::set_command_line(argc, argv);
  // Output into a closed pipe (`agatha align ... | head`) ends the process quietly by
  // SIGPIPE, as it ends minimap2, even when the parent left SIGPIPE ignored.
  std::signal(SIGPIPE, SIG_DFL);
  // Interrupted runs leave no temporary output files behind.
  agatha::io::install_signal_cleanup();
  // Blocks of 256 KiB and more are mapped, and unmapped when freed, instead of glibc's
  // default threshold, which rises to the largest block freed so far (up to 32 MiB): the
  // index build frees and regrows large buffers batch after batch, and with the rising
  // threshold they stay in the heap, fragmented (peak memory of a 400 Mb index build
  // 2.2 GB -> 1.45 GB), while mapped blocks also grow by mremap, without a copy.
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
  // Errors are reported here, with the file and line; htslib's own log would repeat them.
  hts_set_log_level(HTS_LOG_OFF);
  // minimap2's command line, as `agatha minimap2 ...` or through a link named minimap2:
  // its own scanner, messages and exit codes, no CLI11.
  std::vector<std::string> words(argv, argv + argc);
  if (!words.empty() && std::filesystem::path(words[0]).filename() == "minimap2")
    return agatha::cli::run_minimap2(words);
  if (words.size() > 1 && words[1] == "minimap2")
    return agatha::cli::run_minimap2(std::vector<std::string>(words.begin() + 1, words.end()));
  // agatha align: its minimap2 options are read by minimap2's rules first; CLI11 gets the rest.
  if (words.size() > 1 && words[1] == "align") {
    try {
      words = agatha::cli::preparse_align(words);
    } catch (const agatha::Error& e) {
      std::fprintf(stderr, "[E::align] %s\n", e.what());
      return 1;
    }
  }
  std::vector<char*> args;
  for (std::string& w : words) args.push_back(w.data());
  CLI::App app{"agatha: long-read alignment, minimap2-compatible, on CPU SIMD and GPU"};
  app.set_version_flag("--version", [] {
    return "agatha " + std::string(agatha::kVersion) + "\nfollows minimap2 " +
           std::string(agatha::rules_of(agatha::kDefaultRelease).version) + " (--compat 2.31, the default) or " +
           agatha::kRules2_24.version + " (--compat 2.24)\n" + agatha::cuda_build_summary() +
           "\n(agatha gpu-info describes the device)";
  });
  app.require_subcommand(1);
  // Listed in the help; run before CLI11 sees the command line (below).
  app.add_subcommand("minimap2", "minimap2's command line (2.31's; 2.24's with --compat 2.24), exactly: agatha minimap2 [minimap2 options] "
                                 "<target> [query ...] (or a link to agatha named minimap2)")
      ->allow_extras()
      ->prefix_command();
  add_dp_command(app);
  add_index_command(app);
  add_align_command(app);
  add_eval_command(app);
  add_compare_command(app);
  add_gpu_info_command(app);
  // The command in agatha's error messages: "[E::align] ...".
  const auto command = [&app] {
    const auto subs = app.get_subcommands();
    return subs.empty() ? std::string("agatha") : subs.front()->get_name();
  };
  try {
    app.parse(static_cast<int>(args.size()), args.data());  // runs the subcommand given, as its callback
    return 0;
  } catch (const CLI::RuntimeError& e) {  // the subcommand's own non-zero exit status
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    // CLI11 prints the message (or the help, or the version); a command-line error
    // exits 1, as minimap2 does, not with CLI11's own codes (105, 106, 109, ...).
    return app.exit(e) == 0 ? 0 : 1;
  } catch (const agatha::Error& e) {  // from an option checked while parsing, or from the command
    std::fprintf(stderr, "[E::%s] %s\n", command().c_str(), e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "[E::agatha] out of memory\n");
    return 1;
  }
}
