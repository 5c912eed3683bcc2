// src/dp/fallback.hpp — the backend behind `--backend auto` on a machine with a GPU:
// runs batches on `first`; if a run throws agatha::Error (device allocation, launch,
// a batch the device cannot hold), logs it through cpu.log and computes that batch and
// every later one with the backend `cpu` describes.
#pragma once

#include <agatha/dp.hpp>

#include <memory>

namespace agatha {

std::unique_ptr<DpBackend> make_fallback_backend(std::unique_ptr<DpBackend> first, const DpBackendOptions& cpu);

}  // namespace agatha
