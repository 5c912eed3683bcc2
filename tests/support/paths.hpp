// tests/support/paths.hpp — where the tests find the source tree, the agatha binary and
// minimap2's full golden vectors, and paths quoted for the shell.
#pragma once

#include <string>

namespace agatha::test {

// The source tree ($AGATHA_SOURCE_DIR, else the build's) and a path inside it.
// $AGATHA_SOURCE_DIR and $AGATHA_BINARY override the build's paths, for test binaries
// run elsewhere (scripts/gpu-check.sh on a device machine).
std::string source_dir();
std::string source_path(const std::string& rel);

// The built agatha binary ($AGATHA_BINARY, else the build's).
std::string agatha_binary();

// ../shared/golden beside the source tree, or $AGATHA_GOLDEN_DIR; empty if absent.
std::string shared_golden_dir();

// `s` in single quotes for /bin/sh, any single quote inside escaped ('\'').
std::string shell_quote(const std::string& s);

// shell_quote(source_path(rel)): a source file as a shell argument.
std::string quoted_source_path(const std::string& rel);

}  // namespace agatha::test
