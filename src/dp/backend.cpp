// src/dp/backend.cpp — the CPU backends behind DpBackend: a per-task kernel run over a
// batch by a fixed set of worker threads, each with its own workspace.
#include <agatha/dp.hpp>
#include <agatha/error.hpp>

#include "fallback.hpp"
#include "gpu_report.hpp"

#include "../../kernels/gpu/arch_select.hpp"

#include "../../kernels/dp_common.hpp"
#include "../../kernels/dp_kernels.hpp"
#include "../../kernels/gpu/cuda_backend.hpp"
#include "../../kernels/gpu/emu/emu_control.hpp"
#include "../../kernels/gpu/gpu_sim.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <exception>
#include <mutex>
#include <thread>

namespace agatha {

std::vector<std::string> supported_isas() {
  std::vector<std::string> out;
  if (kernels::cpu_has_sse41()) out.emplace_back("sse41");
  if (kernels::cpu_has_avx2()) out.emplace_back("avx2");
  if (kernels::cpu_has_avx512()) out.emplace_back("avx512");
  return out;
}

void DpBackend::compute_inline(int /*worker*/, const DpTask& /*task*/, DpResult& /*result*/) {
  throw Error("internal: DP backend " + name() + " computes no single tasks");
}

namespace {

std::string oracle_note(const std::string& backend) {
  return "backend " + backend +
         ": single-affine (ksw_extz2) tasks and scorings outside its 8-bit range (see `agatha dp`) run on the scalar "
         "kernels";
}

// fn computes ksw_extd2 tasks, splice_fn the splice (ksw_exts2) tasks. Tasks fn's fast
// arithmetic does not hold (dp_task_on_oracle: single-affine tasks, scorings whose 8-bit
// differences wrap) go to the scalar kernels, which follow ksw2's arithmetic exactly,
// with a note the first time when fn is not itself the scalar kernel. Gap fills whose
// best path is the diagonal take no kernel (kernels::diagonal_fill gives the kernels'
// answer), except on the scalar backend. One workspace per thread: run() uses them on
// threads of its own, compute_inline on its callers'.
class CpuBackend final : public DpBackend {
 public:
  CpuBackend(std::string name, kernels::KernelFn fn, kernels::KernelFn splice_fn, int threads,
             std::function<void(const std::string&)> log, kernels::BatchFn batch_fn = nullptr, int lanes = 0)
      : name_(std::move(name)),
        fn_(fn),
        splice_fn_(splice_fn),
        batch_fn_(lanes > 0 ? batch_fn : nullptr),
        lanes_(lanes),
        threads_(std::max(1, threads)),
        ws_(threads_),
        log_(std::move(log)) {}

  std::string name() const override { return name_; }

  void run(std::span<const DpTask> tasks, std::span<DpResult> results) override {
    if (results.size() != tasks.size()) throw Error("DpBackend::run: results and tasks differ in size");
    std::vector<uint32_t> members;
    const std::vector<Unit> units = plan(tasks, members);
    const int n_threads = static_cast<int>(std::min<size_t>(threads_, units.size()));
    if (n_threads <= 1) {
      for (const Unit& u : units) run_unit(u, members, tasks, results, ws_[0]);
      return;
    }
    // Dynamic scheduling, largest units first (their sizes vary by orders of magnitude;
    // a large one taken last would leave the other threads idle).
    std::atomic<size_t> next{0};
    std::exception_ptr failure;
    std::mutex failure_mu;
    auto worker = [&](int id) {
      try {
        for (size_t k; (k = next.fetch_add(1, std::memory_order_relaxed)) < units.size();)
          run_unit(units[k], members, tasks, results, ws_[id]);
      } catch (...) {
        std::lock_guard lock(failure_mu);
        if (!failure) failure = std::current_exception();
        next.store(units.size());
      }
    };
    std::vector<std::jthread> pool;
    for (int id = 1; id < n_threads; ++id) pool.emplace_back(worker, id);
    worker(0);
    pool.clear();
    if (failure) std::rethrow_exception(failure);
  }

  int inline_workers() const override { return threads_; }
  bool batches_tasks() const override { return batch_fn_ != nullptr; }
  void compute_inline(int worker, const DpTask& task, DpResult& result) override {
    if (worker < 0 || worker >= threads_) throw Error("internal: DP worker number out of range");
    run_one(task, result, ws_[static_cast<size_t>(worker)]);
  }

 private:
  void run_one(const DpTask& task, DpResult& res, kernels::Workspace& ws) {
    if (shortcut_ && kernels::diagonal_fill(task, &res)) return;
    const bool splice = (task.flag & dp_flag::kSplice) != 0;
    if (!dp_task_on_oracle(task)) return (splice ? splice_fn_ : fn_)(task, res, ws);
    if (fn_ != kernels::extd2_scalar && log_) std::call_once(noted_, [this] { log_(oracle_note(name_)); });
    (splice                               ? kernels::exts2_scalar
     : task.flag & dp_flag::kSingleAffine ? kernels::extz2_scalar
                                          : kernels::extd2_scalar)(task, res, ws);
  }

  // A unit of work: one task, or (batch) up to lanes_ tasks for batch_fn_.
  struct Unit {
    uint64_t cost;
    uint32_t first, n;  // members[first, first + n) of plan()'s when batch, else task `first`
    bool batch;
  };

  // The units of a run, largest first (members: the batched tasks, batch by batch): the
  // tasks batch_task accepts, grouped by scoring and sorted by size so that a batch's
  // tasks are alike (its vectors span the largest matrix in it), in batches of lanes_;
  // every other task alone. The grouping depends on the tasks only, and no answer
  // depends on it.
  std::vector<Unit> plan(std::span<const DpTask> tasks, std::vector<uint32_t>& members) const {
    std::vector<Unit> units;
    units.reserve(tasks.size());
    std::vector<std::pair<std::array<uint64_t, 3>, uint32_t>> batchable;  // (key, longer side, shorter side), task
    for (size_t i = 0; i < tasks.size(); ++i) {
      const DpTask& t = tasks[i];
      if (shortcut_ && kernels::diagonal_fill(t, nullptr)) {  // no matrix: a unit of its own, cheap
        units.push_back({t.query.size(), static_cast<uint32_t>(i), 1, false});
        continue;
      }
      uint64_t key = 0;
      if (batch_fn_ && kernels::batch_task(t, key)) {
        const uint64_t a = t.target.size(), b = t.query.size();
        batchable.push_back({{key, std::max(a, b), std::min(a, b)}, static_cast<uint32_t>(i)});
        continue;
      }
      const bool full = t.w < 0 || (t.flag & dp_flag::kSplice);  // splice tasks have no band
      const uint64_t band = full ? t.target.size() : std::min<uint64_t>(t.target.size(), 2 * uint64_t(t.w) + 1);
      units.push_back({t.query.size() * band, static_cast<uint32_t>(i), 1, false});
    }
    std::sort(batchable.begin(), batchable.end());
    members.resize(batchable.size());
    for (size_t k = 0; k < batchable.size();) {
      size_t e = k + 1;
      while (e < batchable.size() && e - k < static_cast<size_t>(lanes_) && batchable[e].first[0] == batchable[k].first[0])
        ++e;
      // A batch costs what a full one does: too few tasks run alone (a full batch of
      // tasks alike takes about as long as 40 of them one by one with AVX-512).
      if ((e - k) * 8 < static_cast<size_t>(lanes_) * 5) {
        for (size_t m = k; m < e; ++m) {
          const DpTask& t = tasks[batchable[m].second];
          units.push_back({t.query.size() * t.target.size(), batchable[m].second, 1, false});
        }
        k = e;
        continue;
      }
      uint64_t t_max = 0, q_max = 0;
      for (size_t m = k; m < e; ++m) {
        const DpTask& t = tasks[batchable[m].second];
        members[m] = batchable[m].second;
        t_max = std::max<uint64_t>(t_max, t.target.size()), q_max = std::max<uint64_t>(q_max, t.query.size());
      }
      units.push_back({t_max * q_max, static_cast<uint32_t>(k), static_cast<uint32_t>(e - k), true});
      k = e;
    }
    std::sort(units.begin(), units.end(), [](const Unit& a, const Unit& b) {
      return a.cost != b.cost ? a.cost > b.cost : a.first < b.first;
    });
    return units;
  }

  void run_unit(const Unit& u, const std::vector<uint32_t>& members, std::span<const DpTask> tasks,
                std::span<DpResult> results, kernels::Workspace& ws) {
    if (!u.batch) return run_one(tasks[u.first], results[u.first], ws);
    std::array<const DpTask*, kernels::kBatchLanesAvx512> tp;
    std::array<DpResult*, kernels::kBatchLanesAvx512> rp;
    for (uint32_t m = 0; m < u.n; ++m) {
      const uint32_t i = members[u.first + m];
      tp[m] = &tasks[i], rp[m] = &results[i];
    }
    batch_fn_(tp.data(), rp.data(), static_cast<int>(u.n), ws);
  }

  std::string name_;
  kernels::KernelFn fn_, splice_fn_;
  // Gap fills whose best path is the diagonal answered without their matrix
  // (kernels::diagonal_fill); not by the scalar backend, the oracle that computes all.
  bool shortcut_ = fn_ != kernels::extd2_scalar;
  kernels::BatchFn batch_fn_ = nullptr;
  int lanes_ = 0;
  int threads_;
  std::vector<kernels::Workspace> ws_;
  std::function<void(const std::string&)> log_;
  std::once_flag noted_;
};

}  // namespace

// --backend auto with a GPU: a failure of the GPU run (allocation, launch, a batch the
// device cannot hold) is logged and the batch is recomputed on the CPU.
class FallbackBackend final : public DpBackend {
 public:
  FallbackBackend(std::unique_ptr<DpBackend> first, DpBackendOptions cpu_opt)
      : first_(std::move(first)), cpu_opt_(std::move(cpu_opt)) {}
  std::string name() const override { return first_->name(); }
  // Once the GPU has failed, the cpu backend's threads take the host's cores.
  bool runs_on_device() const override { return !failed_ && first_->runs_on_device(); }
  void run(std::span<const DpTask> tasks, std::span<DpResult> results) override {
    if (!failed_) {
      try {
        first_->run(tasks, results);
        return;
      } catch (const Error& e) {
        failed_ = true;
        if (cpu_opt_.log) cpu_opt_.log(std::string("GPU failed (") + e.what() + "); continuing on the cpu backend");
      }
    }
    if (!cpu_) cpu_ = make_dp_backend(cpu_opt_);
    cpu_->run(tasks, results);
  }

 private:
  std::unique_ptr<DpBackend> first_, cpu_;
  DpBackendOptions cpu_opt_;
  bool failed_ = false;
};

std::unique_ptr<DpBackend> make_fallback_backend(std::unique_ptr<DpBackend> first, const DpBackendOptions& cpu) {
  return std::make_unique<FallbackBackend>(std::move(first), cpu);
}

namespace {

// The GPU backends (gpu, gpu-sim, gpu-emu) compute ksw_extd2 tasks with native scorings
// (dp_scoring_native) and splice tasks with values in the engine's range; a batch's
// dp_task_on_oracle tasks (ksw_extz2 tasks, other scorings) are computed by the cpu
// backend, which computes them on its scalar kernel, with a note the first time; the
// other tasks go to the GPU backend. Results are the same either way.
class OracleToCpuBackend final : public DpBackend {
 public:
  OracleToCpuBackend(std::unique_ptr<DpBackend> inner, DpBackendOptions cpu_opt)
      : inner_(std::move(inner)), cpu_opt_(std::move(cpu_opt)) {}
  std::string name() const override { return inner_->name(); }
  bool runs_on_device() const override { return inner_->runs_on_device(); }
  void run(std::span<const DpTask> tasks, std::span<DpResult> results) override {
    if (results.size() != tasks.size()) throw Error("DpBackend::run: results and tasks differ in size");
    std::vector<size_t> oracle, other;
    for (size_t i = 0; i < tasks.size(); ++i) (dp_task_on_oracle(tasks[i]) ? oracle : other).push_back(i);
    if (oracle.empty()) return inner_->run(tasks, results);
    if (!cpu_) {
      DpBackendOptions quiet = cpu_opt_;
      quiet.log = nullptr;  // the note below says where the tasks go
      cpu_ = make_dp_backend(quiet);
    }
    if (cpu_opt_.log && !noted_oracle_) cpu_opt_.log(oracle_note(inner_->name())), noted_oracle_ = true;
    run_subset(*cpu_, tasks, results, oracle);
    if (!other.empty()) run_subset(*inner_, tasks, results, other);
  }

 private:
  static void run_subset(DpBackend& b, std::span<const DpTask> tasks, std::span<DpResult> results,
                         const std::vector<size_t>& idx) {
    std::vector<DpTask> sub;
    sub.reserve(idx.size());
    for (size_t i : idx) sub.push_back(tasks[i]);
    std::vector<DpResult> out(idx.size());
    b.run(sub, out);
    for (size_t k = 0; k < idx.size(); ++k) results[idx[k]] = std::move(out[k]);
  }

  std::unique_ptr<DpBackend> inner_, cpu_;
  DpBackendOptions cpu_opt_;
  bool noted_oracle_ = false;
};

// scalar, or cpu with its instruction set.
std::unique_ptr<DpBackend> make_cpu_backend(const DpBackendOptions& opt) {
  if (opt.backend == "scalar")
    return std::make_unique<CpuBackend>("scalar", kernels::extd2_scalar, kernels::exts2_scalar, opt.threads, opt.log);
#if !defined(AGATHA_HAVE_X86_SIMD)
  throw OptionError("the cpu backend needs an x86-64 processor; use --backend scalar");
#else
  const kernels::IsaChoice isa = kernels::resolve_isa(opt.isa, kernels::cpu_isas());
  if (isa.name.empty()) throw OptionError(isa.error);
  const auto lanes = [&opt](int n) { return opt.batch ? n : 0; };
  if (isa.name == "avx512")
    return std::make_unique<CpuBackend>("cpu-avx512", kernels::extd2_avx512, kernels::exts2_avx512, opt.threads,
                                        opt.log, kernels::extd2_batch_avx512, lanes(kernels::kBatchLanesAvx512));
  if (isa.name == "avx2")
    return std::make_unique<CpuBackend>("cpu-avx2", kernels::extd2_avx2, kernels::exts2_avx2, opt.threads, opt.log,
                                        kernels::extd2_batch_avx2, lanes(kernels::kBatchLanesAvx2));
  // (SSE4.1's batch kernel, 16 tasks a step, is no faster than its per-task kernel: measured
  // with `agatha dp --bench` and --no-batch on the PacBio and HiFi tasks; it stays for the
  // tests, and the backend does not batch.)
  return std::make_unique<CpuBackend>("cpu-sse41", kernels::extd2_sse41, kernels::exts2_sse41, opt.threads, opt.log);
#endif
}


}  // namespace

std::unique_ptr<DpBackend> with_oracle_on_cpu(std::unique_ptr<DpBackend> gpu, const DpBackendOptions& opt) {
  DpBackendOptions cpu = opt;
#if defined(AGATHA_HAVE_X86_SIMD)
  cpu.backend = "cpu", cpu.isa = "auto";
#else
  cpu.backend = "scalar";
#endif
  return std::make_unique<OracleToCpuBackend>(std::move(gpu), cpu);
}

std::unique_ptr<DpBackend> make_dp_backend(const DpBackendOptions& opt) {
  if (opt.threads < 1) throw OptionError("the number of threads must be at least 1");
  if (opt.backend == "gpu-sim") return with_oracle_on_cpu(gpu::make_gpu_sim_backend(opt.threads), opt);
  if (opt.backend == "gpu-emu") {
    agatha_emu::set_host_threads(opt.threads);
    return with_oracle_on_cpu(gpu::emu::make_backend(), opt);
  }
  if (opt.backend == "gpu" || opt.backend == "auto") {
    std::string why = "this build has no CUDA support";
    DpBackendOptions cpu = opt;
    cpu.backend = "cpu";
#if defined(AGATHA_HAVE_CUDA)
    if (gpu::cuda::device_available(&why)) {
      if (opt.backend == "gpu") return with_oracle_on_cpu(gpu::cuda::make_backend(), opt);
      return with_oracle_on_cpu(make_fallback_backend(gpu::cuda::make_backend(), cpu), opt);
    }
#endif
    if (opt.backend == "gpu") throw OptionError("DP backend gpu: " + why);
    if (opt.log) opt.log("no GPU (" + why + "); using the cpu backend");
    return make_dp_backend(cpu);
  }
  if (opt.backend == "scalar" || opt.backend == "cpu") return make_cpu_backend(opt);
  throw OptionError("unknown DP backend '" + opt.backend + "' (expected scalar, cpu, gpu, gpu-sim, gpu-emu or auto)");
}

namespace {

std::string cuda_version(int v) {
  if (v <= 0) return "unknown";
  return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

std::string describe_device(const gpu::DeviceInfo& d, bool* usable) {
  std::string s;
  if (d.emulated) {
    s += "CUDA runtime: none (host emulation)\n";
  } else {
    s += "CUDA runtime: " + cuda_version(d.runtime_version) + ", driver: " + cuda_version(d.driver_version) + "\n";
  }
  s += "devices: " + std::to_string(d.device_count) + "\n";
  if (!d.name.empty()) {
    char mem[64];
    std::snprintf(mem, sizeof mem, "%.1f GiB", static_cast<double>(d.memory) / (1024.0 * 1024.0 * 1024.0));
    s += "device 0: " + d.name + ", compute capability " + std::to_string(d.cc / 10) + "." + std::to_string(d.cc % 10) +
         ", " + mem + ", " + std::to_string(d.multiprocessors) + " multiprocessors\n";
    s += "kernel image: " + (d.image.empty() ? std::string("none") : d.image) + "\n";
  }
  s += d.usable ? std::string("usable: yes\n") : "usable: no (" + d.why + ")\n";
  if (usable) *usable = d.usable;
  return s;
}

}  // namespace

std::string cuda_build_summary() {
#if defined(AGATHA_HAVE_CUDA)
  return "CUDA backend: built with kernel images for SASS " + gpu::join_archs(gpu::cuda::built_sass(), "sm_") +
         "; PTX " + gpu::join_archs(gpu::cuda::built_ptx(), "compute_");
#else
  return "CUDA backend: not built (no nvcc 12 or later when this binary was built)";
#endif
}

std::string gpu_report(bool emulated, bool* usable) {
  if (usable) *usable = false;
  if (emulated)
    return "CUDA backend: the host emulation of CUDA (gpu-emu)\n" + describe_device(gpu::emu::device_info(), usable);
#if defined(AGATHA_HAVE_CUDA)
  return cuda_build_summary() + "\n" + describe_device(gpu::cuda::device_info(), usable);
#else
  return cuda_build_summary() + "\nusable: no (this build has no CUDA support)\n";
#endif
}

}  // namespace agatha
