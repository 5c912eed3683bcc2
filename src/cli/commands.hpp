// src/cli/commands.hpp — one function per subcommand: each registers its options on
// the CLI11 app and returns the action to run once parsing succeeded.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace agatha::cli {

using Action = std::function<int()>;

// The command line as given (argv[0] first), for the @PG line; set by main.
void set_command_line(int argc, char** argv);
const std::vector<std::string>& command_line();

// agatha dp: run DP task files through a backend (dp_cmd.cpp).
Action add_dp_command(CLI::App& app);

// agatha index: build and save a minimizer index (index_cmd.cpp).
Action add_index_command(CLI::App& app);

// agatha align: map reads to a reference or index (align_cmd.cpp).
Action add_align_command(CLI::App& app);

// agatha eval: mapping accuracy against simulated origins (eval_cmd.cpp).
Action add_eval_command(CLI::App& app);

// agatha gpu-info: the CUDA backend, the runtime, the device (gpu_info_cmd.cpp).
Action add_gpu_info_command(CLI::App& app);

// agatha compare: read-by-read comparison of two alignment files (compare_cmd.cpp).
Action add_compare_command(CLI::App& app);

}  // namespace agatha::cli
