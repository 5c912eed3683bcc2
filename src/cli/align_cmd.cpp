// src/cli/align_cmd.cpp — `agatha align [options] REF READS`: aligns long reads to a
// reference (FASTA/FASTQ, an .agi index from `agatha index`, or minimap2's .mmi) and
// writes the SAM of `minimap2 -a` 2.24 (the default), or with --map-only minimap2's
// mapping-only PAF (minimap2 without -a/-c). `-d FILE` writes the index as .agi, as
// `minimap2 -d` writes its own: without READS that is all the command does. With
// `--sort` the BAM output is coordinate-sorted and indexed (io::SortedBamWriter).
#include <agatha/dp.hpp>
#include <agatha/error.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../index/index.hpp"
#include "../format/diff_tags.hpp"
#include "../io/bam_sort.hpp"
#include "../io/bam_writer.hpp"
#include "../io/index_file.hpp"
#include "../io/output_file.hpp"
#include "../format/sam.hpp"
#include "../io/seq_reader.hpp"
#include "../pipeline/batch_aligner.hpp"
#include "../pipeline/read_mapper.hpp"
#include "commands.hpp"
#include "map_options.hpp"

namespace agatha::cli {
namespace {

// What the command line of `agatha align` sets: the minimap2 options (map_options.hpp)
// and -y, --dp-batch in AlignOptions; the rest here.
struct AlignArgs {
  AlignOptions opt;
  std::string reference, reads;  // reads: empty when not given (then -d is required)
  std::string output = "-";
  std::string index_out;  // -d: empty without it
  bool map_only = false;
  bool sam = false;           // -a: SAM, the default
  bool paf = false;           // -c
  DpBackendOptions dp = [] {  // --dp-backend (auto by default), --isa (threads: -t)
    DpBackendOptions d;
    d.backend = "auto";
    return d;
  }();
  pipeline::OutputOptions out;  // -Y -L --eqx --sam-hit-only --paf-no-hit (the rest: run_align)
  bool md = false;              // --MD
  std::string cs;               // --cs: "short" or "long"; empty without --cs
  std::string format;           // --format: sam or bam; empty: from -o's extension
  std::string read_group;       // -R
  bool sort = false;            // --sort
  io::SortOptions sort_opt;     // --sort-mem (threads: -t; index: --index-format)
  bool sort_mem_given = false;
  std::string index_format;  // --index-format: csi or bai; empty without it
};

// --sort and its options: BAM to a file; --sort-mem and --index-format only with --sort.
void check_sort_options(const AlignArgs& a, bool bam) {
  if (!a.sort) {
    if (a.sort_mem_given || !a.index_format.empty()) throw OptionError("--sort-mem and --index-format go with --sort");
    return;
  }
  if (!bam) throw OptionError("--sort writes a sorted BAM file: give -o FILE.bam or --format bam");
  if (a.output == "-")
    throw OptionError("--sort needs -o FILE: the index and the temporary files are written beside the sorted BAM file");
}

[[nodiscard]] double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void print_done(std::chrono::steady_clock::time_point t0, const pipeline::PipelineStats& st, const char* what) {
  std::fprintf(stderr, "[M::align::%.3f] %s %llu sequences (%llu bases) in %llu batch(es)\n", seconds_since(t0), what,
               static_cast<unsigned long long>(st.reads), static_cast<unsigned long long>(st.bases),
               static_cast<unsigned long long>(st.batches));
}

// Whether two output paths name one file: the same text, or the same existing file.
[[nodiscard]] bool same_output(const std::string& a, const std::string& b) {
  if (a == b) return true;
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec);
}

[[nodiscard]] int run_align(const AlignArgs& a) {
  const auto t0 = std::chrono::steady_clock::now();
  const AlignOptions& opt = a.opt;
  opt.validate();
  pipeline::OutputOptions oo = a.out;
  const bool paf = a.paf && !a.sam;  // with both -a and -c minimap2 writes SAM
  oo.kind = paf ? pipeline::OutputKind::kPaf : pipeline::OutputKind::kSam;
  oo.diff = format::diff_tag_kind(a.md, !a.cs.empty(), a.cs == "long");
  const bool bam = a.format.empty() ? a.output.size() > 4 && a.output.ends_with(".bam") : a.format == "bam";
  if (bam && (a.map_only || paf)) throw OptionError("BAM output is SAM's: it cannot hold PAF (--map-only, -c)");
  check_sort_options(a, bam);
  std::optional<format::ReadGroup> rg;
  if (!a.read_group.empty() && !paf && !a.map_only) {  // minimap2 checks -R for SAM output only
    rg = format::parse_read_group(a.read_group);
    oo.sam.rg_id = rg->id;
  }

  // As minimap2's main: with neither reads nor -d there is nothing to do.
  if (a.reads.empty() && a.index_out.empty())
    throw OptionError("missing input: please specify a query file to map or option -d to keep the index");
  const bool map = !a.reads.empty();
  if (map) io::refuse_input_as_output(a.output, {a.reference, a.reads});
  if (!a.index_out.empty()) {
    io::refuse_input_as_output(a.index_out, {a.reference, a.reads});
    if (map && same_output(a.index_out, a.output))
      throw OptionError("-d and -o name the same output '" + a.index_out + "'");
  }
  std::optional<io::SeqReader> reads;
  if (map) reads.emplace(a.reads);  // fails before the index is built if the reads are missing
  // Created before the (long) build, so that an index file that cannot be created fails
  // at once; written under a temporary name, renamed when complete (OutputFile).
  std::optional<io::OutputFile> index_file;
  if (!a.index_out.empty()) index_file.emplace(a.index_out);
  const index::MinimizerIndex idx = io::load_or_build_index(a.reference, opt);
  std::fprintf(stderr, "[M::align::%.3f] loaded/built the index for %zu target sequence(s)\n", seconds_since(t0),
               idx.reference().size());
  // As minimap2 -d: the index is written as soon as it is loaded or built, then the
  // reads, if any, are mapped.
  if (index_file) {
    io::write_index(idx, *index_file);
    index_file->close();
    std::fprintf(stderr, "[M::align::%.3f] wrote the index to '%s'\n", seconds_since(t0), a.index_out.c_str());
  }
  if (!map) return 0;
  const pipeline::ReadMapper mapper(idx, opt);
  std::fprintf(stderr, "[M::align] mid_occ = %d\n", mapper.mid_occ());

  if (a.map_only) {
    io::OutputFile out(a.output);
    const pipeline::PipelineStats st = pipeline::map_reads(mapper, *reads, out, opt.threads, opt.read_batch);
    out.close();
    print_done(t0, st, "mapped");
    return 0;
  }

  DpBackendOptions bo = a.dp;
  bo.threads = opt.threads;
  bo.log = [](const std::string& msg) { std::fprintf(stderr, "[M::align] %s\n", msg.c_str()); };
  const std::unique_ptr<DpBackend> dp = make_dp_backend(bo);
  std::fprintf(stderr, "[M::align] DP backend: %s\n", dp->name().c_str());

  std::string header;
  if (!paf) {
    std::vector<format::SamReference> refs;
    const index::Reference& ref = idx.reference();
    for (uint32_t i = 0; i < ref.size(); ++i) refs.push_back({ref.seq(i).name, static_cast<int64_t>(ref.seq(i).len)});
    format::append_sam_header(header, refs, rg ? &*rg : nullptr, command_line());
  }
  const pipeline::ReadAligner aligner(mapper, opt, oo);
  // SAM text, or BAM through htslib, or BAM sorted; records arrive group by group, in
  // input order.
  std::optional<io::BamWriter> bam_out;
  std::optional<io::SortedBamWriter> sorted_out;
  std::optional<io::OutputFile> text_out;
  pipeline::RecordWriter write;
  if (a.sort) {
    io::SortOptions so = a.sort_opt;
    so.threads = opt.threads;
    so.index = a.index_format == "bai" ? io::IndexFormat::kBai : io::IndexFormat::kCsi;
    sorted_out.emplace(a.output, so);
    sorted_out->write_header(header);
    write = [&sorted_out](std::string_view s) { sorted_out->write_records(s); };
  } else if (bam) {
    bam_out.emplace(a.output);
    bam_out->write_header(header);
    write = [&bam_out](std::string_view s) { bam_out->write_records(s); };
  } else {
    text_out.emplace(a.output);
    text_out->write(header);
    write = [&text_out](std::string_view s) { text_out->write(s); };
  }
  // gpu, gpu-sim and gpu-emu (which runs the GPU's batches on the host) take the GPU's size.
  const bool gpu_backend = dp->name().starts_with("gpu");
  const pipeline::AlignStats st =
      pipeline::align_reads(aligner, *dp, *reads, write, opt.threads, opt.read_batch, dp_batch_for(opt, gpu_backend));
  if (bam_out) bam_out->close();
  if (text_out) text_out->close();
  if (sorted_out) {
    sorted_out->close();
    std::fprintf(stderr, "[M::align::%.3f] sorted %lld records (%d temporary file(s)) into '%s', indexed in '%s'\n",
                 seconds_since(t0), static_cast<long long>(sorted_out->records()), sorted_out->runs_written(),
                 a.output.c_str(), sorted_out->index_path().c_str());
  }
  std::fprintf(stderr, "[M::align] %llu DP tasks in %llu round(s), %llu of them overlapped with another group's seeding and chaining\n",
               static_cast<unsigned long long>(st.dp_tasks), static_cast<unsigned long long>(st.rounds),
               static_cast<unsigned long long>(st.overlapped_rounds));
  print_done(t0, st, "aligned");
  return 0;
}

}  // namespace

void add_align_command(CLI::App& app) {
  auto args = std::make_shared<AlignArgs>();
  CLI::App* sub = app.add_subcommand("align", "Map long reads to a reference (minimap2 2.24 compatible)");
  sub->add_option("reference", args->reference,
                  "Reference FASTA/FASTQ (plain or gzip), .agi index, or minimap2 2.24 index (.mmi)")
      ->required();
  sub->add_option("reads", args->reads, "Reads FASTA/FASTQ (plain or gzip), '-' for stdin; may be left out with -d");
  sub->add_option("-o,--output", args->output, "Write output here (default: stdout)");
  sub->add_option("-d", args->index_out,
                  "Write the index to FILE as .agi (as minimap2 -d); without reads, only write the index")
      ->type_name("FILE");
  sub->add_flag("--map-only", args->map_only, "Mapping only: PAF without base-level alignment (minimap2 without -c)");
  sub->add_flag("-a", args->sam, "Output SAM (the default)");
  sub->add_option(
         "--dp-backend", args->dp.backend,
         "DP backend: scalar, cpu, gpu, gpu-sim, gpu-emu or auto (gpu if usable, else cpu); same output from all")
      ->check(CLI::IsMember(kDpBackendNames))
      ->capture_default_str();
  sub->add_option("--isa", args->dp.isa, "Instruction set for --dp-backend cpu: auto, sse41 or avx2")
      ->check(CLI::IsMember(kIsaNames))
      ->capture_default_str();
  AlignOptions& opt = args->opt;
  sub->add_option_function<std::string>(
         "--dp-batch",
         [&opt](const std::string& text) {
           const int64_t n = parse_num(text, "--dp-batch");
           if (n < 1) throw OptionError("--dp-batch must be positive");
           opt.dp_batch = static_cast<uint64_t>(n);
         },
         "Bases of reads aligned together, their DP tasks sent to the backend in rounds (K/M/G)")
      ->type_name("NUM")
      ->default_str(std::to_string(kDpBatchCpu) + " on the CPU, " + std::to_string(kDpBatchGpu) + " on the GPU");
  sub->add_flag("-Y", args->out.sam.soft_clip, "Soft clipping for supplementary alignments");
  sub->add_flag("-L", args->out.sam.long_cigar, "Write CIGARs with more than 65535 operations to the CG tag");
  sub->add_option("-R", args->read_group, "SAM read group line, like '@RG\\tID:foo\\tSM:bar'");
  sub->add_flag("-y", opt.copy_comment, "Copy the FASTA/FASTQ comment to the output");
  sub->add_flag("--sam-hit-only", args->out.sam_hit_only, "No SAM records for unmapped reads");
  sub->add_flag("-c,--paf", args->paf, "Output PAF with base-level alignment (the cg tag), as minimap2 -c");
  sub->add_flag("--paf-no-hit", args->out.paf_no_hit, "With -c: a PAF line for each unmapped read");
  sub->add_flag("--MD", args->md, "Output the MD tag");
  sub->add_flag("--cs{short}", args->cs, "Output the cs tag: --cs or --cs=short, --cs=long")
      ->check(one_of({"short", "long"}, "--cs only takes 'short' or 'long'"));
  sub->add_flag("--eqx", args->out.eqx, "Write =/X CIGAR operators instead of M");
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
  add_index_options(*sub, opt);
  add_map_options(*sub, opt);
  run_when_parsed(*sub, [args] { return run_align(*args); });
}

}  // namespace agatha::cli
