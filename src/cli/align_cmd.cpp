// src/cli/align_cmd.cpp — `agatha align [options] REF READS`: maps long reads to a
// reference (FASTA/FASTQ, or an .agi index from `agatha index`) and, with --map-only,
// writes minimap2 2.24's mapping-only PAF (minimap2 without -a/-c). Base-level
// alignment (SAM, or PAF with CIGAR) is not implemented yet and is refused.
#include <agatha/error.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "../index/index.hpp"
#include "../io/output_file.hpp"
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

int run_align(const AlignArgs& a) {
  const auto t0 = std::chrono::steady_clock::now();
  AlignOptions opt;
  a.index.apply(opt);
  a.map.apply(opt);
  opt.validate();
  if (!a.map_only)
    throw Error(
        "base-level alignment (SAM output) is not implemented yet; use --map-only for minimap2's mapping-only PAF");

  io::SeqReader reads(a.reads);  // fails before the index is built if the reads are missing
  const index::MinimizerIndex idx =
      is_agi(a.reference) ? index::MinimizerIndex::load(a.reference) : index::MinimizerIndex::build(a.reference, opt);
  std::fprintf(stderr, "[M::align::%.3f] loaded/built the index for %zu target sequence(s)\n", seconds_since(t0),
               idx.reference().size());
  const pipeline::ReadMapper mapper(idx, opt);
  std::fprintf(stderr, "[M::align] mid_occ = %d\n", mapper.mid_occ());

  io::OutputFile out(a.output);
  const pipeline::PipelineStats st = pipeline::map_reads(mapper, reads, out, opt.threads, opt.read_batch);
  out.close();
  std::fprintf(stderr, "[M::align::%.3f] mapped %llu sequences (%llu bases) in %llu batch(es)\n", seconds_since(t0),
               static_cast<unsigned long long>(st.reads), static_cast<unsigned long long>(st.bases),
               static_cast<unsigned long long>(st.batches));
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
  args->index.add_to(*sub);
  args->map.add_to(*sub);
  return [args] { return run_align(*args); };
}

}  // namespace agatha::cli
