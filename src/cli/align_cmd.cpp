// src/cli/align_cmd.cpp — `agatha align [options] REF READS`: aligns long reads to a
// reference (FASTA/FASTQ, or an .agi index from `agatha index`) and writes the SAM of
// `minimap2 -a` 2.24 (the default), or with --map-only minimap2's mapping-only PAF
// (minimap2 without -a/-c).
#include <agatha/dp.hpp>
#include <agatha/error.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../index/index.hpp"
#include "../format/diff_tags.hpp"
#include "../io/bam_writer.hpp"
#include "../io/output_file.hpp"
#include "../format/sam.hpp"
#include "../io/seq_reader.hpp"
#include "../pipeline/batch_aligner.hpp"
#include "../pipeline/read_mapper.hpp"
#include "commands.hpp"
#include "map_options.hpp"

namespace agatha::cli {
namespace {

struct AlignArgs {
  std::string reference, reads;
  std::string output = "-";
  bool map_only = false;
  bool sam = false;  // -a: SAM, the default
  std::string dp_backend = "auto", isa = "auto";
  bool soft_clip = false, long_cigar = false, copy_comment = false, sam_hit_only = false;
  bool paf = false, paf_no_hit = false, md = false, eqx = false;
  std::string cs;      // --cs: "short" or "long"; empty without --cs
  std::string format;  // --format: sam or bam; empty: from -o's extension
  std::string dp_batch = "8M";  // --dp-batch: read bases whose DP rounds run together
  std::string read_group;
  IndexArgs index;
  MapArgs map;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void print_done(std::chrono::steady_clock::time_point t0, const pipeline::PipelineStats& st, const char* what) {
  std::fprintf(stderr, "[M::align::%.3f] %s %llu sequences (%llu bases) in %llu batch(es)\n", seconds_since(t0), what,
               static_cast<unsigned long long>(st.reads), static_cast<unsigned long long>(st.bases),
               static_cast<unsigned long long>(st.batches));
}

int run_align(const AlignArgs& a) {
  const auto t0 = std::chrono::steady_clock::now();
  AlignOptions opt;
  a.index.apply(opt);
  a.map.apply(opt);
  opt.copy_comment = a.copy_comment;
  opt.validate();
  pipeline::OutputOptions oo;
  const bool paf = a.paf && !a.sam;  // with both -a and -c minimap2 writes SAM
  oo.kind = paf ? pipeline::OutputKind::kPaf : pipeline::OutputKind::kSam;
  if (!a.cs.empty() && a.cs != "short" && a.cs != "long") throw OptionError("--cs only takes 'short' or 'long'");
  oo.diff = format::diff_tag_kind(a.md, !a.cs.empty(), a.cs == "long");
  oo.eqx = a.eqx;
  oo.paf_no_hit = a.paf_no_hit;
  oo.sam.soft_clip = a.soft_clip;
  oo.sam.long_cigar = a.long_cigar;
  oo.sam_hit_only = a.sam_hit_only;
  const int64_t dp_batch_num = parse_num(a.dp_batch, "--dp-batch");
  if (dp_batch_num < 1) throw OptionError("--dp-batch must be positive");
  const auto dp_batch = static_cast<uint64_t>(dp_batch_num);
  bool bam = a.format == "bam";
  if (a.format.empty()) bam = a.output.size() > 4 && a.output.ends_with(".bam");
  if (!a.format.empty() && a.format != "sam" && a.format != "bam")
    throw OptionError("--format only takes 'sam' or 'bam'");
  if (bam && (a.map_only || paf)) throw OptionError("BAM output is SAM's: it cannot hold PAF (--map-only, -c)");
  std::optional<format::ReadGroup> rg;
  if (!a.read_group.empty() && !paf && !a.map_only) {  // minimap2 checks -R for SAM output only
    rg = format::parse_read_group(a.read_group);
    oo.sam.rg_id = rg->id;
  }

  io::refuse_input_as_output(a.output, {a.reference, a.reads});
  io::SeqReader reads(a.reads);  // fails before the index is built if the reads are missing
  const index::MinimizerIndex idx =
      index::MinimizerIndex::is_agi_file(a.reference) ? index::MinimizerIndex::load(a.reference)
                                                      : index::MinimizerIndex::build(a.reference, opt);
  std::fprintf(stderr, "[M::align::%.3f] loaded/built the index for %zu target sequence(s)\n", seconds_since(t0),
               idx.reference().size());
  const pipeline::ReadMapper mapper(idx, opt);
  std::fprintf(stderr, "[M::align] mid_occ = %d\n", mapper.mid_occ());

  if (a.map_only) {
    io::OutputFile out(a.output);
    const pipeline::PipelineStats st = pipeline::map_reads(mapper, reads, out, opt.threads, opt.read_batch);
    out.close();
    print_done(t0, st, "mapped");
    return 0;
  }

  DpBackendOptions bo;
  bo.backend = a.dp_backend;
  bo.isa = a.isa;
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
  // SAM text, or BAM through htslib; records arrive group by group, in input order.
  std::optional<io::BamWriter> bam_out;
  std::optional<io::OutputFile> text_out;
  pipeline::RecordWriter write;
  if (bam) {
    bam_out.emplace(a.output);
    bam_out->write_header(header);
    write = [&bam_out](std::string_view s) { bam_out->write_records(s); };
  } else {
    text_out.emplace(a.output);
    text_out->write(header);
    write = [&text_out](std::string_view s) { text_out->write(s); };
  }
  const pipeline::AlignStats st =
      pipeline::align_reads(aligner, *dp, reads, write, opt.threads, opt.read_batch, dp_batch);
  if (bam_out) bam_out->close();
  if (text_out) text_out->close();
  std::fprintf(stderr, "[M::align] %llu DP tasks in %llu round(s)\n", static_cast<unsigned long long>(st.dp_tasks),
               static_cast<unsigned long long>(st.rounds));
  print_done(t0, st, "aligned");
  return 0;
}

}  // namespace

Action add_align_command(CLI::App& app) {
  auto args = std::make_shared<AlignArgs>();
  CLI::App* sub = app.add_subcommand("align", "Map long reads to a reference (minimap2 2.24 compatible)");
  sub->add_option("reference", args->reference, "Reference FASTA/FASTQ (plain or gzip) or .agi index")->required();
  sub->add_option("reads", args->reads, "Reads FASTA/FASTQ (plain or gzip), '-' for stdin")->required();
  sub->add_option("-o,--output", args->output, "Write output here (default: stdout)");
  sub->add_flag("--map-only", args->map_only, "Mapping only: PAF without base-level alignment (minimap2 without -c)");
  sub->add_flag("-a", args->sam, "Output SAM (the default)");
  sub->add_option("--dp-backend", args->dp_backend,
                  "DP backend: scalar, cpu, gpu, gpu-sim, gpu-emu or auto (gpu if usable, else cpu); same output from all");
  sub->add_option("--isa", args->isa, "Instruction set for --dp-backend cpu: auto, sse41 or avx2");
  sub->add_option("--dp-batch", args->dp_batch,
                  "Bases of reads aligned together, their DP tasks sent to the backend in rounds (K/M/G) [8M]");
  sub->add_flag("-Y", args->soft_clip, "Soft clipping for supplementary alignments");
  sub->add_flag("-L", args->long_cigar, "Write CIGARs with more than 65535 operations to the CG tag");
  sub->add_option("-R", args->read_group, "SAM read group line, like '@RG\\tID:foo\\tSM:bar'");
  sub->add_flag("-y", args->copy_comment, "Copy the FASTA/FASTQ comment to the output");
  sub->add_flag("--sam-hit-only", args->sam_hit_only, "No SAM records for unmapped reads");
  sub->add_flag("-c,--paf", args->paf, "Output PAF with base-level alignment (the cg tag), as minimap2 -c");
  sub->add_flag("--paf-no-hit", args->paf_no_hit, "With -c: a PAF line for each unmapped read");
  sub->add_flag("--MD", args->md, "Output the MD tag");
  sub->add_flag("--cs{short}", args->cs, "Output the cs tag: --cs or --cs=short, --cs=long");
  sub->add_flag("--eqx", args->eqx, "Write =/X CIGAR operators instead of M");
  sub->add_option("--format", args->format, "Output format: sam (default) or bam (also chosen by -o *.bam)");
  args->index.add_to(*sub);
  args->map.add_to(*sub);
  return [args] { return run_align(*args); };
}

}  // namespace agatha::cli
