// src/cli/dp_cmd.cpp — `agatha dp TASKS.tsv[.gz]`: computes DP task files (the golden
// vector layout) with a chosen backend; writes answers, checks them, or times them.
#include "commands.hpp"

#include "../../kernels/gpu/cuda_backend.hpp"
#include "../../kernels/gpu/gpu_sim.hpp"
#include "../dp/fallback.hpp"
#include "../io/line_reader.hpp"
#include "../io/output_file.hpp"
#include "../io/task_file.hpp"

#include <agatha/dp.hpp>
#include <agatha/error.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace agatha::cli {
namespace {

// --bench also reports by the width of the task's band, the cells of one anti-diagonal
// at most: min(qlen, tlen, w + 1) (w < 0: no band). It says how full a vector is.
constexpr int kWidthBuckets = 4;
constexpr int kWidthBucketEnd[kWidthBuckets] = {64, 256, 1024, 0};  // exclusive upper ends; 0: none
constexpr const char* kWidthBucketName[kWidthBuckets] = {"1-63", "64-255", "256-1023", "1024+"};

int width_bucket(const DpTask& t) {
  int64_t width = std::min(t.query.size(), t.target.size());
  if (t.w >= 0) width = std::min<int64_t>(width, int64_t{t.w} + 1);
  for (int b = 0; b + 1 < kWidthBuckets; ++b)
    if (width < kWidthBucketEnd[b]) return b;
  return kWidthBuckets - 1;
}

struct Bucket {
  size_t tasks = 0;
  uint64_t cells = 0;
  double seconds = 0;
};

struct Tally {
  size_t checked = 0, mismatches = 0, shown = 0;
  uint64_t cells = 0;
  double seconds = 0;
  Bucket bucket[kWidthBuckets];
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Runs a batch as one sub-batch per width bucket, each timed on its own, after one
// untimed run of the whole batch: the timed runs find the workers' workspaces grown to
// the batch's largest task and its pages mapped, as they are in a run of any length
// after its first tasks, and as minimap2's kernel finds its memory pool in the driver
// bench/dp.sh times it with (which makes the same untimed pass first). Not with
// --profile (`warm` false), whose counts would then hold every task twice.
void run_by_width(DpBackend& backend, const std::vector<DpTask>& tasks, std::vector<DpResult>& results, Tally& tally,
                  bool warm) {
  if (warm) backend.run(tasks, results);
  std::vector<size_t> idx[kWidthBuckets];
  for (size_t i = 0; i < tasks.size(); ++i) idx[width_bucket(tasks[i])].push_back(i);
  std::vector<DpTask> sub;
  std::vector<DpResult> out;
  for (int b = 0; b < kWidthBuckets; ++b) {
    if (idx[b].empty()) continue;
    sub.clear();
    for (size_t i : idx[b]) sub.push_back(tasks[i]);
    out.assign(sub.size(), DpResult{});
    const auto t0 = std::chrono::steady_clock::now();
    backend.run(sub, out);
    const double s = seconds_since(t0);
    Bucket& k = tally.bucket[b];
    k.tasks += sub.size(), k.seconds += s;
    tally.seconds += s;
    for (size_t m = 0; m < idx[b].size(); ++m) k.cells += out[m].cells, results[idx[b][m]] = std::move(out[m]);
  }
}

// Reads up to one batch of task lines; false when the file is exhausted.
[[nodiscard]] bool read_batch(io::LineReader& in, const DpArgs& a, std::vector<io::TaskRecord>& batch) {
  batch.clear();
  size_t bases = 0;
  std::string line;
  while (batch.size() < a.batch_tasks && bases < a.batch_bases && in.next(line)) {
    if (line.empty()) continue;
    batch.push_back(io::parse_task_line(line, in.path(), in.line_number()));
    bases += batch.back().query.size() + batch.back().target.size();
  }
  return !batch.empty();
}

void report_mismatch(const io::TaskRecord& rec, const std::array<std::string, io::kTaskAnswerColumns>& got,
                     const std::string& path) {
  static const char* kNames[] = {"score", "max",   "max_q",    "max_t",     "mqe",     "mqe_t",
                                 "mte",   "mte_q", "zdropped", "reach_end", "n_cigar", "cigar"};
  std::fprintf(stderr, "[W::dp] '%s' line %zu task %s differs:", path.c_str(), rec.line, rec.id.c_str());
  for (int k = 0; k < io::kTaskAnswerColumns; ++k) {
    if (got[k] == rec.answer[k]) continue;
    const std::string& e = rec.answer[k];
    const std::string& g = got[k];
    std::fprintf(stderr, " %s expected %.60s got %.60s;", kNames[k], e.c_str(), g.c_str());
  }
  std::fputc('\n', stderr);
}

void handle_batch(const DpArgs& a, const std::vector<io::TaskRecord>& batch, const std::vector<DpResult>& res,
                  io::OutputFile* out, Tally& tally) {
  std::string text;
  for (size_t i = 0; i < batch.size(); ++i) {
    const auto got = io::format_answer(res[i]);
    tally.cells += res[i].cells;
    if (a.check) {
      const io::TaskRecord& rec = batch[i];
      if (!rec.has_answer)
        throw InputError("'" + a.input + "' line " + std::to_string(rec.line) +
                         ": --check needs the answer columns 15-26");
      bool same = true;
      for (int k = 0; k < io::kTaskAnswerColumns; ++k)
        if (got[k] != rec.answer[k]) same = false;
      ++tally.checked;
      if (!same && tally.mismatches++ < static_cast<size_t>(a.show)) report_mismatch(rec, got, a.input);
    }
    if (out) {
      text += batch[i].id;
      for (const std::string& f : got) text += '\t', text += f;
      text += '\n';
    }
  }
  if (out) out->write(text);
}

}  // namespace

int run_dp(const DpArgs& a) {
  DpBackendOptions bopt = a.backend;
  bopt.log = [](const std::string& msg) { std::fprintf(stderr, "[M::dp] %s\n", msg.c_str()); };
  std::unique_ptr<DpBackend> backend;
  gpu::TileProfile profile;
  if (a.profile && bopt.backend == "gpu-sim") {
    backend = with_oracle_on_cpu(gpu::make_gpu_sim_backend(bopt.threads, gpu::Schedule{}, &profile), bopt);
  } else if (a.profile && bopt.backend == "gpu-emu") {
    gpu::emu::set_profile(&profile);
    backend = make_dp_backend(bopt);
  } else if (a.profile) {
    throw OptionError("--profile counts the CUDA kernel's paths on its host emulation: it needs --backend gpu-emu or "
                      "gpu-sim");
  } else {
    backend = make_dp_backend(bopt);
  }
  io::refuse_input_as_output(a.output, {a.input});
  io::LineReader in(a.input);
  std::unique_ptr<io::OutputFile> out;
  if (!a.check || a.output != "-") out = std::make_unique<io::OutputFile>(a.output);
  Tally tally;
  size_t n_tasks = 0;
  std::vector<io::TaskRecord> batch;
  std::vector<DpTask> tasks;
  std::vector<DpResult> results;
  while (read_batch(in, a, batch)) {
    tasks.clear();
    for (const auto& rec : batch) tasks.push_back(rec.task());
    results.assign(tasks.size(), DpResult{});
    if (a.bench) {
      run_by_width(*backend, tasks, results, tally, !a.profile);
    } else {
      const auto t0 = std::chrono::steady_clock::now();
      backend->run(tasks, results);
      tally.seconds += seconds_since(t0);
    }
    n_tasks += tasks.size();
    handle_batch(a, batch, results, out.get(), tally);
  }
  if (out) out->close();
  if (a.bench) {
    const double s = tally.seconds > 0 ? tally.seconds : 1e-9;
    std::fprintf(stderr, "bench: backend=%s tasks=%zu cells=%llu seconds=%.6f tasks_per_s=%.1f cells_per_s=%.4g\n",
                 backend->name().c_str(), n_tasks, static_cast<unsigned long long>(tally.cells), tally.seconds,
                 n_tasks / s, tally.cells / s);
    for (int b = 0; b < kWidthBuckets; ++b) {
      const Bucket& k = tally.bucket[b];
      if (k.tasks == 0) continue;
      std::fprintf(stderr, "bench-width: backend=%s width=%s tasks=%zu cells=%llu seconds=%.6f cells_per_s=%.4g\n",
                   backend->name().c_str(), kWidthBucketName[b], k.tasks, static_cast<unsigned long long>(k.cells),
                   k.seconds, k.cells / (k.seconds > 0 ? k.seconds : 1e-9));
    }
  }
  if (a.profile) {
    if (bopt.backend == "gpu-emu") gpu::emu::set_profile(nullptr);
    for (int k = 0; k < gpu::TileProfile::kKinds; ++k) {
      const gpu::TileProfile::Counts& c = profile.kind[k];
      if (c.tasks == 0) continue;
      std::fprintf(stderr,
                   "profile: kind=%s tasks=%llu cells=%llu fast_pairs=%llu fast_singles=%llu fast_keep_uv=%llu "
                   "fast_edge=%llu general_far=%llu general_task_edge=%llu general_band_edge=%llu anti_diagonals=%llu "
                   "traceback_tiles=%llu traceback_fast_tiles=%llu\n",
                   gpu::TileProfile::kKindName[k], static_cast<unsigned long long>(c.tasks),
                   static_cast<unsigned long long>(c.cells), static_cast<unsigned long long>(c.fast_pairs),
                   static_cast<unsigned long long>(c.fast_singles), static_cast<unsigned long long>(c.fast_keep_uv),
                   static_cast<unsigned long long>(c.fast_edge), static_cast<unsigned long long>(c.general_far), static_cast<unsigned long long>(c.general_task_edge),
                   static_cast<unsigned long long>(c.general_band_edge),
                   static_cast<unsigned long long>(c.anti_diagonals), static_cast<unsigned long long>(c.traceback_tiles),
                   static_cast<unsigned long long>(c.traceback_fast_tiles));
    }
  }
  if (a.check) {
    std::fprintf(stderr, "checked %zu, mismatches %zu\n", tally.checked, tally.mismatches);
    return tally.mismatches == 0 ? 0 : 1;
  }
  return 0;
}

}  // namespace agatha::cli
