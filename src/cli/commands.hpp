// src/cli/commands.hpp — one function per subcommand: each registers the subcommand, its
// options (bound to the command's options struct) and the command itself as the
// subcommand's CLI11 callback, which runs once the command line is parsed and checked.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace agatha::cli {

// The command line as given (argv[0] first), for the @PG line; set by main.
void set_command_line(int argc, char** argv);
[[nodiscard]] const std::vector<std::string>& command_line();

// Makes `run` the callback of `sub`, run by app.parse once the command line is parsed.
// A non-zero exit status leaves app.parse as CLI::RuntimeError(status), CLI11's way of
// carrying an exit code out of a callback; main returns it. agatha::Error propagates to
// main, which reports it.
void run_when_parsed(CLI::App& sub, std::function<int()> run);

// The names `dp --backend` and `align --dp-backend` accept (make_dp_backend's), and the
// instruction sets of --isa.
inline const std::vector<std::string> kDpBackendNames = {"scalar", "cpu", "gpu", "gpu-sim", "gpu-emu", "auto"};
inline const std::vector<std::string> kIsaNames = {"auto", "sse41", "avx2"};

// agatha dp: run DP task files through a backend (dp_cmd.cpp).
void add_dp_command(CLI::App& app);

// agatha index: build and save a minimizer index (index_cmd.cpp).
void add_index_command(CLI::App& app);

// agatha align: map reads to a reference or index (align_cmd.cpp).
void add_align_command(CLI::App& app);

// `agatha align`'s command line (argv: agatha align ...) with its minimap2 options read
// by minimap2's rules (minimap2_args.hpp) and kept for the command; returns the command
// line left for CLI11: agatha align, align's own options, --, the files (with -V or
// --version: agatha --version). Throws OptionError.
[[nodiscard]] std::vector<std::string> preparse_align(const std::vector<std::string>& argv);

// `agatha minimap2 ARGS` and a link named minimap2: minimap2 2.24's command line exactly
// (words[0]: the program's name). Returns the exit status; reports its errors itself, in
// minimap2's words.
[[nodiscard]] int run_minimap2(const std::vector<std::string>& words);

// agatha eval: mapping accuracy against simulated origins (eval_cmd.cpp).
void add_eval_command(CLI::App& app);

// agatha gpu-info: the CUDA backend, the runtime, the device (gpu_info_cmd.cpp).
void add_gpu_info_command(CLI::App& app);

// agatha compare: read-by-read comparison of two alignment files (compare_cmd.cpp).
void add_compare_command(CLI::App& app);

}  // namespace agatha::cli
