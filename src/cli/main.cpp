// src/cli/main.cpp — the agatha command line: the subcommands (each run by CLI11 as its
// callback) and the one place where errors become messages and exit codes.
#include "commands.hpp"

#include <agatha/compat.hpp>
#include <agatha/error.hpp>
#include <agatha/version.hpp>

#include "../dp/gpu_report.hpp"
#include "../io/output_path.hpp"

#include <htslib/hts_log.h>

#include <malloc.h>

#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <functional>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace agatha::cli {
namespace {
std::vector<std::string> g_command_line;
}
void set_command_line(int argc, char** argv) { g_command_line.assign(argv, argv + argc); }
const std::vector<std::string>& command_line() { return g_command_line; }

void run_when_parsed(CLI::App& sub, std::function<int()> run) {
  sub.callback([run = std::move(run)] {
    if (const int status = run(); status != 0) throw CLI::RuntimeError(status);
  });
}
}  // namespace agatha::cli

int main(int argc, char** argv) {
  agatha::cli::set_command_line(argc, argv);
  // Output into a closed pipe (`agatha align ... | head`) ends the process quietly by
  // SIGPIPE, as it ends minimap2, even when the parent left SIGPIPE ignored.
  std::signal(SIGPIPE, SIG_DFL);
  // Interrupted runs leave no temporary output files behind.
  agatha::io::install_signal_cleanup();
  // Blocks of 256 KiB and more are mapped, and unmapped when freed, instead of glibc's
  // default threshold, which rises to the largest block freed so far (up to 32 MiB): the
  // index build frees and regrows large buffers batch after batch, and with the rising
  // threshold they stay in the heap, fragmented (peak memory of a 400 Mb index build
  // 2.2 GB -> 1.45 GB), while mapped blocks also grow by mremap, without a copy.
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
  // Errors are reported here, with the file and line; htslib's own log would repeat them.
  hts_set_log_level(HTS_LOG_OFF);
  // minimap2's command line, as `agatha minimap2 ...` or through a link named minimap2:
  // its own scanner, messages and exit codes, no CLI11.
  std::vector<std::string> words(argv, argv + argc);
  if (!words.empty() && std::filesystem::path(words[0]).filename() == "minimap2")
    return agatha::cli::run_minimap2(words);
  if (words.size() > 1 && words[1] == "minimap2")
    return agatha::cli::run_minimap2(std::vector<std::string>(words.begin() + 1, words.end()));
  // agatha align: its minimap2 options are read by minimap2's rules first; CLI11 gets the rest.
  if (words.size() > 1 && words[1] == "align") {
    try {
      words = agatha::cli::preparse_align(words);
    } catch (const agatha::Error& e) {
      std::fprintf(stderr, "[E::align] %s\n", e.what());
      return 1;
    }
  }
  std::vector<char*> args;
  for (std::string& w : words) args.push_back(w.data());
  CLI::App app{"agatha: long-read alignment, minimap2-compatible, on CPU SIMD and GPU"};
  app.set_version_flag("--version", [] {
    return "agatha " + std::string(agatha::kVersion) + "\nfollows minimap2 " +
           std::string(agatha::rules_of(agatha::kDefaultRelease).version) + " (--compat 2.31, the default) or " +
           agatha::kRules2_24.version + " (--compat 2.24)\n" + agatha::cuda_build_summary() +
           "\n(agatha gpu-info describes the device)";
  });
  app.require_subcommand(1);
  // Listed in the help; run before CLI11 sees the command line (below).
  app.add_subcommand("minimap2", "minimap2's command line (2.31's; 2.24's with --compat 2.24), exactly: agatha minimap2 [minimap2 options] "
                                 "<target> [query ...] (or a link to agatha named minimap2)")
      ->allow_extras()
      ->prefix_command();
  agatha::cli::add_dp_command(app);
  agatha::cli::add_index_command(app);
  agatha::cli::add_align_command(app);
  agatha::cli::add_eval_command(app);
  agatha::cli::add_compare_command(app);
  agatha::cli::add_gpu_info_command(app);
  // The command in agatha's error messages: "[E::align] ...".
  const auto command = [&app] {
    const auto subs = app.get_subcommands();
    return subs.empty() ? std::string("agatha") : subs.front()->get_name();
  };
  try {
    app.parse(static_cast<int>(args.size()), args.data());  // runs the subcommand given, as its callback
    return 0;
  } catch (const CLI::RuntimeError& e) {  // the subcommand's own non-zero exit status
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    // CLI11 prints the message (or the help, or the version); a command-line error
    // exits 1, as minimap2 does, not with CLI11's own codes (105, 106, 109, ...).
    return app.exit(e) == 0 ? 0 : 1;
  } catch (const agatha::Error& e) {  // from an option checked while parsing, or from the command
    std::fprintf(stderr, "[E::%s] %s\n", command().c_str(), e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "[E::agatha] out of memory\n");
    return 1;
  }
}
