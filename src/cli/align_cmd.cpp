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

#include "../index/index.hpp"
#include "../io/output_file.hpp"
#include "../io/sam_format.hpp"
#include "../io/seq_reader.hpp"
#include "../pipeline/batch_mapper.hpp"
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
  std::string read_group;
  IndexArgs index;
  MapArgs map;
};

// True when the file starts with the .agi magic; false for anything else, including a
// file that cannot be opened (the FASTA reader then reports why).
bool is_agi(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  char magic[8] = {};
  const bool yes = std::fread(magic, 1, sizeof magic, f) == sizeof magic && std::memcmp(magic, "AGATHAIX", 8) == 0;
  std::fclose(f);
  return yes;
}

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
  oo.sam.soft_clip = a.soft_clip;
  oo.sam.long_cigar = a.long_cigar;
  oo.sam_hit_only = a.sam_hit_only;
  std::optional<io::ReadGroup> rg;
  if (!a.read_group.empty()) {
    rg = io::parse_read_group(a.read_group);
    oo.sam.rg_id = rg->id;
  }

  io::SeqReader reads(a.reads);  // fails before the index is built if the reads are missing
  const index::MinimizerIndex idx =
      is_agi(a.reference) ? index::MinimizerIndex::load(a.reference) : index::MinimizerIndex::build(a.reference, opt);
  std::fprintf(stderr, "[M::align::%.3f] loaded/built the index for %zu target sequence(s)\n", seconds_since(t0),
               idx.reference().size());
  const pipeline::ReadMapper mapper(idx, opt);
  std::fprintf(stderr, "[M::align] mid_occ = %d\n", mapper.mid_occ());

  io::OutputFile out(a.output);
  if (a.map_only) {
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
  std::vector<io::SamReference> refs;
  const index::Reference& ref = idx.reference();
  for (uint32_t i = 0; i < ref.size(); ++i) refs.push_back({ref.seq(i).name, static_cast<int64_t>(ref.seq(i).len)});
  io::append_sam_header(header, refs, rg ? &*rg : nullptr, command_line());
  out.write(header);

  const pipeline::ReadAligner aligner(mapper, opt, oo);
  const pipeline::AlignStats st = pipeline::align_reads(aligner, *dp, reads, out, opt.threads, opt.read_batch);
  out.close();
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
                  "DP backend: scalar, cpu, gpu, gpu-sim or auto (gpu if usable, else cpu); same output from all");
  sub->add_option("--isa", args->isa, "Instruction set for --dp-backend cpu: auto, sse41 or avx2");
  sub->add_flag("-Y", args->soft_clip, "Soft clipping for supplementary alignments");
  sub->add_flag("-L", args->long_cigar, "Write CIGARs with more than 65535 operations to the CG tag");
  sub->add_option("-R", args->read_group, "SAM read group line, like '@RG\\tID:foo\\tSM:bar'");
  sub->add_flag("-y", args->copy_comment, "Copy the FASTA/FASTQ comment to the output");
  sub->add_flag("--sam-hit-only", args->sam_hit_only, "No SAM records for unmapped reads");
  args->index.add_to(*sub);
  args->map.add_to(*sub);
  return [args] { return run_align(*args); };
}

}  // namespace agatha::cli
