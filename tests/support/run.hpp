// tests/support/run.hpp — running a shell command or the agatha binary and capturing
// what it prints and how it ends.
#pragma once

#include <string>

namespace agatha::test {

struct CommandResult {
  int code;         // exit status; 128 + signal when killed by one; -1 when it could not run
  std::string out;  // what the command wrote to stdout
  std::string err;  // what it wrote to stderr
};

// The exit code of a wait status (from system(), pclose()): WEXITSTATUS, or 128 + the
// signal that ended it, as a shell reports it; -1 for a failed call.
int exit_code(int wait_status);
// Whether this process ignores signal `sig` (SIG_IGN, as nohup leaves SIGHUP); its
// children start with it ignored too.
bool signal_ignored(int sig);

// Runs `command` with /bin/sh. Its stdout and stderr are captured apart; redirections
// inside `command` apply first ("cmd 2>&1": stderr goes to `out` too, "2>&1 >/dev/null":
// only stderr, in `out`).
CommandResult run_shell(const std::string& command);

// run_shell("AGATHA ARGS") with the built agatha binary; ARGS may carry redirections.
CommandResult run_agatha(const std::string& args);

// As run_shell, but the command's stderr is a pseudo-terminal (isatty(2) is true in it)
// and its stdin /dev/null: `err` is every byte the terminal received, as written (the
// terminal's output processing is off: "\n" stays "\n"); `out` is stdout, captured apart.
CommandResult run_shell_on_tty(const std::string& command);
CommandResult run_agatha_on_tty(const std::string& args);

// The last line of `s`, or its last n lines (5 by default), without the final newline.
std::string last_line(const std::string& s);
std::string last_lines(const std::string& s, int n = 5);

}  // namespace agatha::test
