#include "align_run.hpp"

#include <agatha/options.hpp>

#include "../../src/io/index_file.hpp"
#include "../../src/io/seq_reader.hpp"
#include "../../src/pipeline/read_aligner.hpp"
#include "../../src/pipeline/read_mapper.hpp"
#include "paths.hpp"

namespace agatha::test {

AlignRun align_mt_sub(DpBackend& dp, int threads, const pipeline::StepObserver& observe) {
  AlignOptions opt;
  opt.apply_preset("map-pb");
  opt.validate();
  const index::MinimizerIndex idx = io::build_index_from_file(source_path("data/ref.fa"), opt);
  const pipeline::ReadMapper mapper(idx, opt);
  const pipeline::ReadAligner aligner(mapper, opt, pipeline::OutputOptions{});
  io::SeqReader reads(source_path("tests/data/e2e/mt.sub.fq.gz"));
  AlignRun r;
  r.stats = pipeline::align_reads(aligner, dp, reads, [&r](std::string_view s) { r.records += s; }, threads, 1 << 20,
                                  1, observe);
  return r;
}

AlignRun align_paf(DpBackend& dp, int threads, const std::string& ref, const std::string& reads,
                   const std::string& preset, uint64_t round_bases) {
  AlignOptions opt;
  opt.apply_preset(preset);
  opt.validate();
  const index::MinimizerIndex idx = io::build_index_from_file(ref, opt);
  const pipeline::ReadMapper mapper(idx, opt);
  pipeline::OutputOptions out;
  out.kind = pipeline::OutputKind::kPaf;
  const pipeline::ReadAligner aligner(mapper, opt, out);
  io::SeqReader in(reads);
  AlignRun r;
  r.stats = pipeline::align_reads(aligner, dp, in, [&r](std::string_view s) { r.records += s; }, threads, round_bases,
                                  1);
  return r;
}

}  // namespace agatha::test
