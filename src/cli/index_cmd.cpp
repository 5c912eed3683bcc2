// src/cli/index_cmd.cpp — `agatha index ref.fa -o ref.agi`: builds the minimizer index
// of a reference with the preset's (or -k/-w/-H) parameters on -t threads and saves it
// as .agi. A regular file is written under a temporary name and renamed when complete.
// An .agi holds one index part: a reference that -I would cut into several is refused
// (minimap2 -d writes one index image per part; agatha align splits the FASTA itself).
// On a terminal the build shows its progress on a status line (progress_lines.hpp)
// unless --quiet.
#include <agatha/error.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "../index/index.hpp"
#include "../io/index_file.hpp"
#include "../io/output_file.hpp"
#include "../io/output_path.hpp"
#include "commands.hpp"
#include "progress_lines.hpp"

namespace agatha::cli {

int run_index(const IndexCmdArgs& a) {
  const AlignOptions& opt = a.opt;
  opt.validate();
  io::refuse_input_as_output(a.output, {a.reference});
  // Created before the (long) build, so that an output that cannot be created fails at
  // once. A regular file is written under a temporary name and renamed by close(); a
  // device or FIFO is written in place; an error or a fatal signal removes the
  // temporary file (OutputFile).
  io::OutputFile out(a.output);
  io::IndexParts parts(a.reference, opt, true);
  std::unique_ptr<util::Progress> progress = start_progress(progress_wanted(3, a.quiet), indexing_text("index"));
  const index::MinimizerIndex idx = *parts.next(progress.get());
  progress.reset();
  if (!parts.at_end())
    throw OptionError("an .agi index holds one part, and -I " + std::to_string(opt.part_bases) +
                      " cuts this reference into several: give -I at least the reference's size");
  io::write_index(idx, out);
  out.close();
  std::fprintf(stderr, "[M::index] %zu target sequence(s), %zu distinct minimizers, %zu occurrences\n",
               idx.reference().size(), idx.distinct_hashes(), idx.total_occurrences());
  return 0;
}

}  // namespace agatha::cli
