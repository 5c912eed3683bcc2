// src/cli/index_cmd.cpp — `agatha index ref.fa -o ref.agi`: builds the minimizer index
// of a reference with the preset's (or -k/-w/-H) parameters and saves it as .agi. A
// regular file is written under a temporary name and renamed when complete.
#include <agatha/error.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "../index/index.hpp"
#include "../io/output_path.hpp"
#include "commands.hpp"
#include "map_options.hpp"

namespace agatha::cli {
namespace {

struct IndexCmdArgs {
  std::string reference, output;
  IndexArgs index;
};

int run_index(const IndexCmdArgs& a) {
  AlignOptions opt;
  a.index.apply(opt);
  opt.validate();
  io::refuse_input_as_output(a.output, {a.reference});
  // Fail before the (long) build when the output cannot be created. A regular file is
  // written under a temporary name and renamed; a device or FIFO is written in place.
  const io::OutputTarget target = io::plan_output(a.output);
  if (target.via_temp) {
    std::FILE* probe = std::fopen(target.open_path.c_str(), "wb");
    if (!probe) throw Error("cannot create '" + a.output + "': " + std::strerror(errno));
    std::fclose(probe);
    io::begin_output(target);
  }
  std::unique_ptr<index::MinimizerIndex> idx;
  try {
    idx = std::make_unique<index::MinimizerIndex>(index::MinimizerIndex::build(a.reference, opt));
    idx->save(target.open_path);
    if (const int err = io::commit_output(target); err != 0)
      throw Error("cannot create '" + a.output + "': " + std::strerror(err));
  } catch (...) {
    io::discard_output(target);
    throw;
  }
  std::fprintf(stderr, "[M::index] %zu target sequence(s), %zu distinct minimizers, %zu occurrences\n",
               idx->reference().size(), idx->distinct_hashes(), idx->total_occurrences());
  return 0;
}

}  // namespace

Action add_index_command(CLI::App& app) {
  auto args = std::make_shared<IndexCmdArgs>();
  CLI::App* sub = app.add_subcommand("index", "Build a minimizer index (.agi) of a reference FASTA/FASTQ");
  sub->add_option("reference", args->reference, "Reference FASTA/FASTQ (plain or gzip)")->required();
  sub->add_option("-o,--output", args->output, "The index file to write")->required();
  args->index.add_to(*sub);
  return [args] { return run_index(*args); };
}

}  // namespace agatha::cli
