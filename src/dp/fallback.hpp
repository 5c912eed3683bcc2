// src/dp/fallback.hpp — the backend behind `--backend auto` on a machine with a GPU:
// runs batches on `first`; if a run throws agatha::Error (device allocation, launch,
// a batch the device cannot hold), logs it through cpu.log and computes that batch and
// every later one with the backend `cpu` describes.
#pragma once

#include <agatha/dp.hpp>

#include <memory>

namespace agatha {

std::unique_ptr<DpBackend> make_fallback_backend(std::unique_ptr<DpBackend> first, const DpBackendOptions& cpu);

// A GPU backend (gpu, gpu-sim, gpu-emu) with the tasks it does not compute
// (dp_task_on_oracle) handed to the cpu backend, whose scalar kernel computes them, with a
// note through opt.log the first time: what make_dp_backend builds for those names.
std::unique_ptr<DpBackend> with_oracle_on_cpu(std::unique_ptr<DpBackend> gpu, const DpBackendOptions& opt);

}  // namespace agatha
