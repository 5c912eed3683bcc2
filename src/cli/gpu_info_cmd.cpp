// src/cli/gpu_info_cmd.cpp — agatha gpu-info: the CUDA backend's build, the runtime and
// driver, the device, and whether this binary holds a kernel image for it. Exit 0 when
// the backend can run, 1 when not.
#include "commands.hpp"

#include "../dp/gpu_report.hpp"

#include <cstdio>
#include <memory>

namespace agatha::cli {

void add_gpu_info_command(CLI::App& app) {
  auto emulated = std::make_shared<bool>(false);
  CLI::App* sub = app.add_subcommand("gpu-info", "Describe the CUDA backend: build, runtime, device, kernel image");
  sub->add_flag("--emulated", *emulated, "Describe the host emulation of CUDA (the gpu-emu backend) instead");
  run_when_parsed(*sub, [emulated] {
    bool usable = false;
    const std::string report = gpu_report(*emulated, &usable);
    std::fputs(report.c_str(), stdout);
    return usable ? 0 : 1;
  });
}

}  // namespace agatha::cli
