// src/cli/commands.hpp — one function per subcommand: each registers its options on
// the CLI11 app and returns the action to run once parsing succeeded.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace agatha::cli {

using Action = std::function<int()>;

// agatha dp: run DP task files through a backend (dp_cmd.cpp).
Action add_dp_command(CLI::App& app);

}  // namespace agatha::cli
