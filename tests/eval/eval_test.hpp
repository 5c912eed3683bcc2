// tests/eval/eval_test.hpp — the eval suite's fixtures (tests/data/eval/) and its way of
// running the agatha binary: stdout and stderr together unless told otherwise.
#pragma once

#include <string>

#include "support/paths.hpp"
#include "support/run.hpp"

namespace agatha::test {

using Outcome = CommandResult;

// `agatha ARGS REDIRECT`: by default stdout and stderr together in `out`.
inline Outcome agatha(const std::string& args, const char* redirect = "2>&1") {
  return run_agatha(args + " " + redirect);
}

inline std::string eval_data(const std::string& name) { return source_path("tests/data/eval/" + name); }

}  // namespace agatha::test
