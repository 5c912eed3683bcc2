// src/cli/align_cmd.cpp — `agatha align [options] REF READS`: aligns long reads to a
// reference (FASTA/FASTQ, an .agi index from `agatha index`, or minimap2's .mmi) and
// writes the SAM of `minimap2 -a` 2.24 (the default), or with --map-only minimap2's
// mapping-only PAF (minimap2 without -a/-c). `-d FILE` writes the index, as `minimap2 -d`
// does: without READS that is all the command does. It is minimap2 2.24's .mmi, byte for
// byte minimap2's (io::write_mmi), from `agatha minimap2` always and from `agatha align`
// when FILE ends in .mmi; otherwise agatha's .agi. With `--sort` the BAM output is
// coordinate-sorted and indexed (io::SortedBamWriter).
//
// A reference larger than -I (or a multi-part .mmi) is mapped part by part, as minimap2
// does (main.c's loop over mm_idx_reader_read): every read against the first part, then
// against the next, one part in memory at a time. Without --split-prefix each part's
// records follow the previous part's (and the SAM header has no @SQ line); with it each
// part's results go to scratch files and a last pass merges them (pipeline/split_merge.hpp).
#include <agatha/dp.hpp>
#include <agatha/error.hpp>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../index/index.hpp"
#include "../format/diff_tags.hpp"
#include "../io/bam_sort.hpp"
#include "../io/dp_recording.hpp"
#include "../io/bam_writer.hpp"
#include "../io/index_file.hpp"
#include "../io/output_file.hpp"
#include "../io/output_path.hpp"
#include "../format/sam.hpp"
#include "../io/read_input.hpp"
#include "../io/seq_reader.hpp"
#include "../pipeline/batch_aligner.hpp"
#include "../pipeline/read_mapper.hpp"
#include "../pipeline/split_merge.hpp"
#include "commands.hpp"
#include "minimap2_args.hpp"
#include "progress_lines.hpp"

namespace agatha::cli {
namespace {


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

// -v: agatha's progress lines ([M::...]) at 3 and above, as minimap2's; warnings at 2
// and above.
int g_verbose = 3;

[[gnu::format(printf, 1, 2)]] void info(const char* format, ...) {
  if (g_verbose < 3) return;
  va_list ap;
  va_start(ap, format);
  std::vfprintf(stderr, format, ap);
  va_end(ap);
}

[[nodiscard]] double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void print_done(std::chrono::steady_clock::time_point t0, const pipeline::PipelineStats& st, const char* what) {
  info("[M::align::%.3f] %s %llu sequences (%llu bases) in %llu batch(es)\n", seconds_since(t0), what,
               static_cast<unsigned long long>(st.reads), static_cast<unsigned long long>(st.bases),
               static_cast<unsigned long long>(st.batches));
}

// Whether two output paths name one file: the same text, or the same existing file.
[[nodiscard]] bool same_output(const std::string& a, const std::string& b) {
  if (a == b) return true;
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec);
}

// Where the records go: SAM or PAF text, BAM through htslib, or with `sort` a
// coordinate-sorted BAM and its index. The header goes first.
class RunOutput {
 public:
  RunOutput(const std::string& path, bool bam, const std::optional<io::SortOptions>& sort) {
    if (sort)
      sorted_.emplace(path, *sort);
    else if (bam)
      bam_.emplace(path);
    else
      text_.emplace(path);
  }
  void header(const std::string& h) {
    if (sorted_)
      sorted_->write_header(h);
    else if (bam_)
      bam_->write_header(h);
    else
      text_->write(h);
  }
  [[nodiscard]] pipeline::RecordWriter writer() {
    if (sorted_) return [this](std::string_view s) { sorted_->write_records(s); };
    if (bam_) return [this](std::string_view s) { bam_->write_records(s); };
    return [this](std::string_view s) { text_->write(s); };
  }
  void close() {
    if (sorted_) sorted_->close();
    if (bam_) bam_->close();
    if (text_) text_->close();
  }
  // The sorted BAM writer, after close() its counts; null without --sort.
  [[nodiscard]] const io::SortedBamWriter* sorted() const { return sorted_ ? &*sorted_ : nullptr; }

 private:
  std::optional<io::SortedBamWriter> sorted_;
  std::optional<io::BamWriter> bam_;
  std::optional<io::OutputFile> text_;
};

// The input files: the reference and the query files.
[[nodiscard]] std::vector<std::string> inputs_of(const AlignArgs& a) {
  std::vector<std::string> in{a.reference};
  in.insert(in.end(), a.reads.begin(), a.reads.end());
  return in;
}

// What every part's pass shares.
struct PassSetup {
  const AlignArgs& args;
  pipeline::OutputOptions oo;  // OutputKind::kRegions with --split-prefix
  DpBackend* dp;               // null with --map-only
  std::chrono::steady_clock::time_point t0;
  // The options of the next pass: mid_occ, once the first part has resolved it, is kept
  // for the others, as minimap2 computes it from the first part only.
  AlignOptions opt;
  // -d: writes a part to the index file when it is loaded or built; empty without -d.
  std::function<void(const index::MinimizerIndex&)> dump;
};

// Maps (--map-only) or aligns every read of `reads` against one index part and hands the
// records, or with --split-prefix each read's regions, to `write`.
void map_part(PassSetup& p, const index::MinimizerIndex& idx, io::ReadInput& reads,
              const pipeline::RecordWriter& write) {
  const AlignOptions& opt = p.opt;
  const pipeline::ReadMapper mapper(idx, opt);
  info("[M::align] mid_occ = %d\n", mapper.mid_occ());
  std::unique_ptr<util::Progress> progress =
      start_progress(p.args.progress, reads_text("align", p.args.map_only ? "mapped" : "aligned"));
  if (p.args.map_only) {
    const pipeline::PipelineStats st =
        p.oo.kind == pipeline::OutputKind::kRegions
            ? pipeline::map_reads_to_part(mapper, reads, write, opt.threads, opt.read_batch, progress.get())
            : pipeline::map_reads(mapper, reads, write, opt.threads, opt.read_batch, progress.get());
    progress.reset();  // its last line before the summary
    print_done(p.t0, st, "mapped");
  } else {
    const pipeline::ReadAligner aligner(mapper, opt, p.oo);
    // gpu, gpu-sim and gpu-emu (which runs the GPU's batches on the host) take the GPU's size.
    const bool gpu_backend = p.dp->name().starts_with("gpu");
    const bool batching = p.dp->batches_tasks() && aligner.gap_fills_batch();
    const pipeline::AlignStats st =
        pipeline::align_reads(aligner, *p.dp, reads, write, opt.threads, opt.read_batch,
                              dp_batch_for(opt, gpu_backend, batching, opt.threads), {}, progress.get());
    progress.reset();
    if (st.rounds > 0 || st.inline_dp_tasks == 0)
      info(
                   "[M::align] %llu DP tasks in %llu round(s), %llu of them overlapped with another group's seeding "
                   "and chaining\n",
                   static_cast<unsigned long long>(st.dp_tasks), static_cast<unsigned long long>(st.rounds),
                   static_cast<unsigned long long>(st.overlapped_rounds));
    if (st.inline_dp_tasks > 0)
      info("[M::align] %llu DP tasks, each computed when its read asked for it\n",
                   static_cast<unsigned long long>(st.inline_dp_tasks));
    if (st.spread_queries > 0)
      info("[M::align] %llu queries seeded and chained on several threads each\n",
           static_cast<unsigned long long>(st.spread_queries));
    print_done(p.t0, st, "aligned");
  }
  p.opt.mid_occ = mapper.mid_occ();
}

// The next index part of `parts`, its build shown by status lines when `progress`.
[[nodiscard]] std::optional<index::MinimizerIndex> next_part(io::IndexParts& parts, bool progress) {
  const std::unique_ptr<util::Progress> shown =
      start_progress(progress && !parts.from_index_file(), indexing_text("align"));
  return parts.next(shown.get());
}

// part: its number from 1, or 0 for the only part.
void log_part(std::chrono::steady_clock::time_point t0, size_t part, const index::MinimizerIndex& idx) {
  info("[M::align::%.3f] loaded/built the index for %zu target sequence(s)", seconds_since(t0),
       idx.reference().size());
  if (part > 0) info(" (part %zu)", part);
  info("\n");
}

// Runs pass(part, reads) for the part `idx` and every later one of `parts`, and within a
// part for each query file in turn (main.c's loop over mm_map_file), each read from the
// start (`reads` is the first file, open for the first part), one part in memory at a
// time.
template <class Pass>
void for_each_part(io::IndexParts& parts, std::optional<index::MinimizerIndex> idx, std::optional<io::ReadInput>& reads,
                   const PassSetup& p, Pass&& pass) {
  while (idx) {
    const auto groups = p.args.read_groups();
    for (size_t f = 0; f < groups.size(); ++f) {
      if (parts.parts_read() > 1 || f > 0) reads.emplace(groups[f], p.args.opt.frag_mode);
      pass(*idx, *reads);
    }
    idx.reset();
    idx = next_part(parts, p.args.progress);
    if (idx) {
      log_part(p.t0, parts.parts_read(), *idx);
      if (p.dump) p.dump(*idx);
    }
  }
}

// --split-prefix: every part's pass into a scratch file of its own, then the merge of
// them all into `out`, under `header` and every part's @SQ lines (SAM).
void map_and_merge(PassSetup& p, io::IndexParts& parts, std::optional<index::MinimizerIndex> idx,
                   std::optional<io::ReadInput>& reads, RunOutput& out, std::string header) {
  const AlignArgs& a = p.args;
  io::ScratchSeries scratch(p.opt.split_prefix);
  pipeline::SplitParts merge;
  pipeline::OutputOptions merged = p.oo;  // the records of the merge
  merged.eqx = false;                     // the parts store the =/X CIGARs
  p.oo.kind = pipeline::OutputKind::kRegions;
  for_each_part(parts, std::move(idx), reads, p, [&](const index::MinimizerIndex& part, io::ReadInput& rd) {
    for (const index::RefSeq& r : part.reference().seqs()) merge.refs.push_back({r.name, 0, r.len});
    merge.first_rid.push_back(parts.first_rid());
    merge.k = part.k();
    const std::string file = scratch.add();
    if (same_output(file, a.output)) throw OptionError("-o names the scratch file '" + file + "' of --split-prefix");
    io::refuse_input_as_output(file, inputs_of(a));
    merge.files.push_back(file);
    io::OutputFile part_out(file);
    map_part(p, part, rd, [&part_out](std::string_view s) { part_out.write(s); });
    part_out.close();
  });
  if (!header.empty()) {
    std::vector<format::SamReference> refs;
    for (const index::RefSeq& r : merge.refs) refs.push_back({r.name, static_cast<int64_t>(r.len)});
    format::append_sam_sq_lines(header, refs);
  }
  out.header(header);
  reads.emplace(a.read_groups().front(), a.opt.frag_mode);
  std::unique_ptr<util::Progress> progress = start_progress(a.progress, reads_text("align", "merged"));
  const pipeline::PipelineStats st = pipeline::merge_parts(merge, *reads, a.opt, merged, a.map_only, out.writer(),
                                                           a.opt.threads, a.opt.read_batch, progress.get());
  progress.reset();
  print_done(p.t0, st, "merged the parts' results of");
  scratch.remove_all();  // before out's file is renamed into place: -o may not name one
}

// The reads are read once per index part, and once more to merge: not from standard
// input. BAM records name sequences by their place in the header, which a multi-part
// index without --split-prefix leaves without @SQ lines.
void check_parts_output(const AlignArgs& a, bool split, bool one_part, bool bam) {
  if ((split || !one_part) && std::find(a.reads.begin(), a.reads.end(), "-") != a.reads.end())
    throw OptionError(std::string("reads from standard input cannot be read again, and ") +
                      (split ? "--split-prefix reads them once per index part and once to merge"
                             : "a multi-part index (-I below the reference's size) maps them once per part") +
                      ": give a file");
  if (bam && !one_part && !split)
    throw OptionError(
        "BAM output needs every reference sequence in its header, which a multi-part index (-I below the "
        "reference's size) only gives with --split-prefix");
}

[[nodiscard]] int run_align(AlignArgs& a) {
  const auto t0 = std::chrono::steady_clock::now();
  g_verbose = a.verbose;
  a.progress = progress_wanted(a.verbose, a.quiet);
  const AlignOptions& opt = a.opt;
  const bool paf = a.paf && !a.sam;  // with both -a and -c minimap2 writes SAM
  opt.validate({.sam = !paf && !a.map_only, .cs_or_md = a.md || !a.cs.empty(), .warn = nullptr, .sketch_limits = false});
  if (opt.sr && a.reads.size() > 2)
    throw OptionError("incorrect input: in the sr mode, please specify no more than two query files.");
  pipeline::OutputOptions oo = a.out;
  oo.kind = paf ? pipeline::OutputKind::kPaf : pipeline::OutputKind::kSam;
  oo.release = opt.release;
  oo.no_qual = opt.no_qual;
  oo.qstrand = opt.qstrand;
  oo.diff = format::diff_tag_kind(a.md, !a.cs.empty(), a.cs == "long", a.ds);
  const bool bam = a.format.empty() ? a.output.size() > 4 && a.output.ends_with(".bam") : a.format == "bam";
  if (bam && (a.map_only || paf)) throw OptionError("BAM output is SAM's: it cannot hold PAF (--map-only, -c)");
  check_sort_options(a, bam);
  std::optional<format::ReadGroup> rg;
  if (!a.read_group.empty() && !paf && !a.map_only) {  // minimap2 checks -R for SAM output only
    rg = format::parse_read_group(a.read_group);
    oo.sam.rg_id = rg->id;
  }
  const bool split = !opt.split_prefix.empty();
  // In fragment mode the files are read in step, in every pass. Outside it minimap2 2.24
  // maps the files one after another into each part's scratch file, which each file's
  // pass truncates (mm_split_init), then merges the last file's results against all files
  // read in step as fragments (mm_split_merge): reads get other reads' regions, and where
  // the results run out the merge reuses stale buffers or aborts. Refused, not imitated.
  if (split && a.reads.size() > 1 && !opt.frag_mode)
    throw OptionError(
        "--split-prefix with several query files needs fragment mode (--frag=yes): minimap2 2.24 merges only the "
        "last file's results against all the files read in step, giving reads other reads' alignments; map one "
        "query file at a time");

  // As minimap2's main: with neither reads nor -d there is nothing to do (minimap2 loads
  // an index file given alone, and stops).
  if (a.reads.empty() && a.index_out.empty()) {
    if (a.index_alone_ok) {
      io::IndexParts parts(a.reference, opt);
      if (parts.from_index_file()) {  // loaded (and so checked) part by part, as minimap2 does
        while (parts.next()) {
        }
        return 0;
      }
    }
    throw OptionError("missing input: please specify a query file to map or option -d to keep the index");
  }
  const bool map = !a.reads.empty();
  if (map) io::refuse_input_as_output(a.output, inputs_of(a));
  if (!a.index_out.empty()) {
    io::refuse_input_as_output(a.index_out, inputs_of(a));
    if (map && same_output(a.index_out, a.output))
      throw OptionError("-d and -o name the same output '" + a.index_out + "'");
  }
  std::optional<io::ReadInput> reads;
  if (map) {  // fails before the index is built if a query file is missing
    const auto groups = a.read_groups();
    for (size_t f = groups.size(); f-- > 0;) reads.emplace(groups[f], opt.frag_mode);
    // With more than one thread, the first batch is read while the index is built or
    // loaded (minimap2 reads it after): the two overlap, where each would otherwise leave
    // all threads but one idle. --map-only keeps names and bases only (as map_reads asks).
    // Regular files only (ReadInput::read_ahead): standard input is read after the build.
    if (opt.threads > 1) (void)reads->read_ahead(opt.read_batch, a.map_only);
  }
  // Created before the (long) build, so that an index file that cannot be created fails
  // at once; written under a temporary name, renamed when complete (OutputFile).
  std::optional<io::OutputFile> index_file;
  if (!a.index_out.empty()) index_file.emplace(a.index_out);
  io::IndexParts parts(a.reference, opt);
  // minimap2 refuses base-level alignment (-a, -c; agatha align without --map-only)
  // with an index built without the reference's bases, even when it only writes the
  // index (where it stops after writing the first part; agatha before writing any). An
  // index file given as the reference keeps its own bases.
  if (a.idx_no_seq && !parts.from_index_file() && !a.map_only)
    throw OptionError("the prebuilt index doesn't contain sequences.");
  std::optional<index::MinimizerIndex> idx = next_part(parts, a.progress);
  const bool one_part = parts.at_end();
  log_part(t0, one_part ? 0 : 1, *idx);
  // As minimap2 -d (mm_idx_reader_read): each part is written as soon as it is loaded or
  // built, then the reads, if any, are mapped to it. An .mmi holds the parts one after
  // another; an .agi holds one part. --idx-no-seq leaves the bases out of an .mmi built
  // from sequences (an index file given as the reference keeps what it holds).
  std::function<void(const index::MinimizerIndex&)> dump;
  const auto finish_index = [&] {
    index_file->close();
    info("[M::align::%.3f] wrote the index to '%s'\n", seconds_since(t0), a.index_out.c_str());
  };
  if (index_file) {
    if (!one_part && !a.index_mmi)
      throw OptionError(parts.from_index_file()
                            ? "-d writes one .agi index, and '" + a.reference +
                                  "' is an index of several parts: name the index *.mmi to write minimap2's"
                            : "-d writes one .agi index, and -I " + std::to_string(opt.part_bases) +
                                  " cuts this reference into several parts: give -I at least the reference's size, "
                                  "or name the index *.mmi to write minimap2's");
    if (a.index_mmi) {
      const bool with_bases = !a.idx_no_seq || parts.from_index_file();
      dump = [&index_file, with_bases, threads = opt.threads](const index::MinimizerIndex& part) {
        io::write_mmi(
            part, with_bases, [&index_file](std::span<const uint8_t> b) { index_file->write(b); }, threads);
      };
    } else {
      dump = [&index_file](const index::MinimizerIndex& part) { io::write_index(part, *index_file); };
    }
    dump(*idx);
    if (one_part) finish_index();
  }
  if (!map) {
    if (!one_part) {
      for (size_t n = 2; (idx.reset(), idx = next_part(parts, a.progress)); ++n) {
        log_part(t0, n, *idx);
        dump(*idx);
      }
      finish_index();
    }
    return 0;
  }
  check_parts_output(a, split, one_part, bam);

  std::unique_ptr<DpBackend> dp;
  io::RecordingBackend* recording = nullptr;
  if (!a.map_only) {
    DpBackendOptions bo = a.dp;
    bo.threads = opt.threads;
    bo.log = [](const std::string& msg) { info("[M::align] %s\n", msg.c_str()); };
    dp = make_dp_backend(bo);
    info("[M::align] DP backend: %s\n", dp->name().c_str());
    // AGATHA_DP_RECORD=FILE: every DP task, with its answer, to FILE (src/io/dp_recording.hpp).
    if (const char* path = std::getenv("AGATHA_DP_RECORD"); path && *path) {
      if (opt.dp_scoring().generic())
        throw OptionError("AGATHA_DP_RECORD: a task file has no column for -b's transition penalty");
      io::refuse_input_as_output(path, inputs_of(a));
      auto rec = std::make_unique<io::RecordingBackend>(std::move(dp), path);
      recording = rec.get();
      dp = std::move(rec);
    }
  }

  // The header: @SQ lines, @RG, @PG. A multi-part index without --split-prefix has no
  // @SQ lines (minimap2 warns); with --split-prefix they are every part's, after @PG.
  std::string header;
  if (!paf && !a.map_only) {
    std::vector<format::SamReference> refs;
    if (one_part && !split)
      for (const index::RefSeq& r : idx->reference().seqs()) refs.push_back({r.name, static_cast<int64_t>(r.len)});
    format::append_sam_header(header, refs, rg ? &*rg : nullptr, command_line(), opt.rules());
    if (!one_part && !split && g_verbose >= 2)
      std::fprintf(stderr,
                   "[W::align] For a multi-part index, no @SQ lines will be outputted. Please use --split-prefix.\n");
  }
  std::optional<io::SortOptions> sort;
  if (a.sort) {
    sort = a.sort_opt;
    sort->threads = opt.threads;
    sort->index = a.index_format == "bai" ? io::IndexFormat::kBai : io::IndexFormat::kCsi;
  }
  RunOutput out(a.output, bam, sort);
  PassSetup pass{a, oo, dp.get(), t0, opt, dump};
  if (split) {
    map_and_merge(pass, parts, std::move(idx), reads, out, std::move(header));
  } else {
    out.header(header);
    const pipeline::RecordWriter write = out.writer();
    for_each_part(parts, std::move(idx), reads, pass,
                  [&](const index::MinimizerIndex& part, io::ReadInput& rd) { map_part(pass, part, rd, write); });
  }
  if (index_file && !one_part) finish_index();
  out.close();
  if (recording) {
    recording->close();
    info("[M::align] wrote %llu DP tasks to '%s'\n", static_cast<unsigned long long>(recording->recorded()),
         recording->path().c_str());
  }
  if (const io::SortedBamWriter* sorted = out.sorted())
    info("[M::align::%.3f] sorted %lld records (%d temporary file(s)) into '%s', indexed in '%s'\n",
                 seconds_since(t0), static_cast<long long>(sorted->records()), sorted->runs_written(),
                 a.output.c_str(), sorted->index_path().c_str());
  return 0;
}

// agatha align's own options, scanned with minimap2's (so that their values are not
// taken for arguments) and passed on to CLI11.
const std::vector<ExtraOption> kAlignOwnOptions = {
    {"dp-backend", ArgKind::kRequired}, {"isa", ArgKind::kRequired},      {"dp-batch", ArgKind::kRequired},
    {"map-only", ArgKind::kNone},       {"format", ArgKind::kRequired},   {"sort", ArgKind::kNone},
    {"sort-mem", ArgKind::kRequired},   {"index-format", ArgKind::kRequired}, {"quiet", ArgKind::kNone}};

// The minimap2 options of the `agatha align` command line being run (preparse_align).
std::optional<Minimap2Settings>& align_minimap2_settings() {
  static std::optional<Minimap2Settings> settings;
  return settings;
}

// What both front ends take over from minimap2's options.
void take_settings(AlignArgs& a, const Minimap2Settings& s) {
  a.opt = s.opt;
  if (!s.arguments.empty()) {
    a.reference = s.arguments.front();
    a.reads.assign(s.arguments.begin() + 1, s.arguments.end());
  }
  a.output = s.output;
  a.index_out = s.index_out;
  a.index_mmi = s.index_out.ends_with(".mmi");
  a.read_group = s.read_group;
  a.sam = s.sam;
  a.paf = s.paf_cg;
  a.idx_no_seq = s.idx_no_seq;
  a.verbose = s.verbose;
  a.out.sam.soft_clip = s.soft_clip;
  a.out.sam.long_cigar = s.long_cigar;
  a.out.sam_hit_only = s.sam_hit_only;
  a.out.paf_no_hit = s.paf_no_hit;
  a.out.eqx = s.eqx;
  a.md = s.md;
  a.cs = s.cs ? (s.cs_long ? "long" : "short") : "";
  a.ds = s.ds;
  a.out.sam.secondary_seq = s.secondary_seq;
}

// Whether the file opens for reading (errno says why not).
[[nodiscard]] bool readable(const std::string& path) {
  if (path == "-") return true;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  std::fclose(f);
  return true;
}

void print_warning(const char* prefix, const std::string& text) { std::fprintf(stderr, "%s%s\n", prefix, text.c_str()); }

}  // namespace

std::vector<std::string> preparse_align(const std::vector<std::string>& argv) {
  // argv: agatha align ...; the scanner's program name is "align".
  std::vector<std::string> words(argv.begin() + 1, argv.end());
  // SAM unless -c without -a, or --map-only (run_align's rule).
  Minimap2Parse p = parse_minimap2_args(std::move(words), Minimap2Flavor::kAlign, Minimap2Settings{},
                                        [](const std::string& w) { print_warning("[W::align] ", w); },
                                        kAlignOwnOptions);
  if (p.action == Minimap2Action::kVersion) return {argv[0], "--version"};  // -V, --version: agatha's version
  refuse_unsupported(p.settings);
  std::vector<std::string> out{argv[0], argv[1]};
  out.insert(out.end(), p.extras.begin(), p.extras.end());
  out.emplace_back("--");
  out.insert(out.end(), p.settings.arguments.begin(), p.settings.arguments.end());
  align_minimap2_settings() = std::move(p.settings);
  return out;
}

int run_minimap2(const std::vector<std::string>& words) {
  try {
    const Minimap2Parse p = parse_minimap2_args(words, Minimap2Flavor::kMinimap2, Minimap2Settings{},
                                                [](const std::string& w) { print_warning("[WARNING] ", w); });
    switch (p.action) {
      case Minimap2Action::kVersion: std::printf("%s\n", p.settings.opt.rules().version); return 0;
      case Minimap2Action::kHelp: std::fputs(minimap2_usage(p.settings).c_str(), stdout); return 0;
      case Minimap2Action::kUsage: std::fputs(minimap2_usage(p.settings).c_str(), stderr); return 1;
      case Minimap2Action::kRun: break;
    }
    AlignArgs a;
    take_settings(a, p.settings);
    // minimap2's words for files it cannot open, in its order: the sr check, the target,
    // then (when it reaches them; agatha before it maps anything) the query files.
    if (a.opt.sr && a.reads.size() > 2)
      throw OptionError("incorrect input: in the sr mode, please specify no more than two query files.");
    if (!readable(a.reference))
      throw OptionError("failed to open file '" + a.reference + "': " + std::strerror(errno));
    for (const std::string& f : a.reads) {
      if (f == "-" || readable(f)) continue;
      std::fprintf(stderr, "ERROR: failed to open file '%s': %s\nERROR: failed to map the query file\n", f.c_str(),
                   std::strerror(errno));
      return 1;
    }
    refuse_unsupported(p.settings);
    a.sam = p.settings.sam;
    a.paf = p.settings.cigar;         // base-level alignment: PAF unless -a
    a.map_only = !p.settings.cigar;   // minimap2's default: PAF without base alignment
    a.out.paf_cg = p.settings.paf_cg;  // --cs without -c aligns but prints no cg
    a.format = "sam";                 // text whatever -o's name, as minimap2 writes
    a.index_mmi = true;               // -d writes minimap2's own index
    a.index_alone_ok = true;
    return run_align(a);
  } catch (const Error& e) {
    if (*e.what() != '\0') std::fprintf(stderr, "[ERROR] %s\n", e.what());  // empty: minimap2 prints nothing (-v 0)
    return 1;
  }
}

int run_align_command(AlignArgs& a) {
  const std::optional<Minimap2Settings>& s = align_minimap2_settings();
  if (s) {
    const uint64_t dp_batch = a.opt.dp_batch;
    const std::string reference = a.reference;
    const std::vector<std::string> reads = a.reads;
    take_settings(a, *s);
    a.opt.dp_batch = dp_batch;
    a.reference = reference, a.reads = reads;
  }
  return run_align(a);
}

}  // namespace agatha::cli
