// src/cli/main.cpp — the agatha command line: subcommand dispatch and the one place
// where errors become messages and exit codes.
#include "commands.hpp"

#include <agatha/error.hpp>
#include <agatha/version.hpp>

#include "../dp/gpu_report.hpp"
#include "../io/output_path.hpp"

#include <htslib/hts_log.h>

#include <csignal>
#include <cstdio>
#include <exception>
#include <new>

namespace agatha::cli {
namespace {
std::vector<std::string> g_command_line;
}
void set_command_line(int argc, char** argv) { g_command_line.assign(argv, argv + argc); }
const std::vector<std::string>& command_line() { return g_command_line; }
}  // namespace agatha::cli

int main(int argc, char** argv) {
  agatha::cli::set_command_line(argc, argv);
  // Output into a closed pipe (`agatha align ... | head`) ends the process quietly by
  // SIGPIPE, as it ends minimap2, even when the parent left SIGPIPE ignored.
  std::signal(SIGPIPE, SIG_DFL);
  // Interrupted runs leave no temporary output files behind.
  agatha::io::install_signal_cleanup();
  // Errors are reported here, with the file and line; htslib's own log would repeat them.
  hts_set_log_level(HTS_LOG_OFF);
  CLI::App app{"agatha: long-read alignment, minimap2-compatible, on CPU SIMD and GPU"};
  app.set_version_flag("--version", [] {
    return "agatha " + std::string(agatha::kVersion) + "\n" + agatha::cuda_build_summary() +
           "\n(agatha gpu-info describes the device)";
  });
  app.require_subcommand(1);
  agatha::cli::Action dp = agatha::cli::add_dp_command(app);
  agatha::cli::Action index = agatha::cli::add_index_command(app);
  agatha::cli::Action align = agatha::cli::add_align_command(app);
  agatha::cli::Action eval = agatha::cli::add_eval_command(app);
  agatha::cli::Action compare = agatha::cli::add_compare_command(app);
  agatha::cli::Action gpu_info = agatha::cli::add_gpu_info_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 prints the message (or the help, or the version); a command-line error
    // exits 1, as minimap2 does, not with CLI11's own codes (105, 106, 109, ...).
    return app.exit(e) == 0 ? 0 : 1;
  } catch (const agatha::Error& e) {  // an option checked while parsing (-x)
    const auto subs = app.get_subcommands();
    std::fprintf(stderr, "[E::%s] %s\n", subs.empty() ? "agatha" : subs.front()->get_name().c_str(), e.what());
    return 1;
  }
  try {
    for (CLI::App* sub : app.get_subcommands()) {
      if (sub->get_name() == "dp") return dp();
      if (sub->get_name() == "index") return index();
      if (sub->get_name() == "align") return align();
      if (sub->get_name() == "eval") return eval();
      if (sub->get_name() == "compare") return compare();
      if (sub->get_name() == "gpu-info") return gpu_info();
    }
    return 1;
  } catch (const agatha::Error& e) {
    std::fprintf(stderr, "[E::%s] %s\n", app.get_subcommands().front()->get_name().c_str(), e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "[E::agatha] out of memory\n");
    return 1;
  }
}
