// src/cli/progress_lines.hpp — the status lines of long work (util::Progress) in the
// commands: when they are shown, how often, and their words.
//
// Shown only on a terminal: when stderr is one, minimap2's verbosity (-v) is 3 or more
// (the level of agatha's [M::...] lines) and --quiet was not given. Never on stdout, so
// the output is the same whether they are shown or not.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "../util/progress.hpp"

namespace agatha::cli {

// Whether the status lines are shown (see above).
[[nodiscard]] bool progress_wanted(int verbose, bool quiet);

// Every 2 s, or every AGATHA_PROGRESS_INTERVAL_MS milliseconds when that is set to a
// positive number (for tests, which must not wait on the machine's speed).
[[nodiscard]] std::chrono::milliseconds progress_interval();

// A Progress on stderr with `text`, or null (no thread, nothing shown) when !on.
[[nodiscard]] std::unique_ptr<util::Progress> start_progress(bool on, util::ProgressText text);

// Index builds: "[M::PREFIX] indexing: 123.4 Mb read, 45.6 Mb/s", then (stage
// io::IndexParts::kBuilding) "[M::PREFIX] indexing: 400.0 Mb read; building the index
// (31.2 s)", and at the end "[M::PREFIX] indexed 400.0 Mb in 35.0 s".
[[nodiscard]] util::ProgressText indexing_text(const std::string& prefix);

// Reads: "[M::PREFIX] VERB 12,345 reads (98.7 Mb), 1,234 reads/s"; VERB: aligned,
// mapped, merged.
[[nodiscard]] util::ProgressText reads_text(const std::string& prefix, const std::string& verb);

}  // namespace agatha::cli
