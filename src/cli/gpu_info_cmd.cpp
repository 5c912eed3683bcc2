// src/cli/gpu_info_cmd.cpp — agatha gpu-info: the CUDA backend's build, the runtime and
// driver, the device, and whether this binary holds a kernel image for it. Exit 0 when
// the backend can run, 1 when not.
#include "commands.hpp"

#include "../dp/gpu_report.hpp"

#include <cstdio>
#include <string>

namespace agatha::cli {

int run_gpu_info(bool emulated) {
  bool usable = false;
  const std::string report = gpu_report(emulated, &usable);
  std::fputs(report.c_str(), stdout);
  return usable ? 0 : 1;
}

}  // namespace agatha::cli
