#include "progress_lines.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "../io/index_file.hpp"

namespace agatha::cli {

bool progress_wanted(int verbose, bool quiet) { return !quiet && verbose >= 3 && ::isatty(STDERR_FILENO) == 1; }

std::chrono::milliseconds progress_interval() {
  if (const char* env = std::getenv("AGATHA_PROGRESS_INTERVAL_MS")) {
    char* end = nullptr;
    const long ms = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && ms > 0) return std::chrono::milliseconds(ms);
  }
  return util::Progress::kDefaultInterval;
}

std::unique_ptr<util::Progress> start_progress(bool on, util::ProgressText text) {
  if (!on) return nullptr;
  return std::make_unique<util::Progress>(stderr, std::move(text), progress_interval());
}

util::ProgressText indexing_text(const std::string& prefix) {
  return [prefix](const util::ProgressCounts& c) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.1f s", c.seconds);
    const std::string head = "[M::" + prefix + "] ";
    if (c.done) return head + "indexed " + util::megabases(c.bases) + " in " + secs;
    std::string line = head + "indexing: " + util::megabases(c.bases) + " read";
    if (c.stage == io::IndexParts::kBuilding) return line + "; building the index (" + secs + ")";
    return line + ", " + util::per_second(static_cast<double>(c.bases) / 1e6, c.seconds) + " Mb/s";
  };
}

util::ProgressText reads_text(const std::string& prefix, const std::string& verb) {
  return [prefix, verb](const util::ProgressCounts& c) {
    return "[M::" + prefix + "] " + verb + " " + util::with_commas(c.items) + " reads (" + util::megabases(c.bases) +
           "), " + util::per_second(static_cast<double>(c.items), c.seconds) + " reads/s";
  };
}

}  // namespace agatha::cli
