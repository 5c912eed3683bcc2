#include "run.hpp"

#include <fcntl.h>
#include <pty.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>

#include <cstdio>
#include <filesystem>

#include "files.hpp"
#include "paths.hpp"

#include <signal.h>

namespace agatha::test {

int exit_code(int wait_status) {
  if (wait_status == -1) return -1;
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return -1;
}

namespace {

// A new empty temporary file named agatha-test-WHAT-XXXXXX; empty string on failure.
std::string temp_file(const std::string& what) {
  std::string path = (std::filesystem::temp_directory_path() / ("agatha-test-" + what + "-XXXXXX")).string();
  const int fd = ::mkstemp(path.data());
  if (fd < 0) return "";
  ::close(fd);
  return path;
}

}  // namespace

CommandResult run_shell(const std::string& command) {
  // stdout through a pipe, stderr to a file of its own; the command runs in a group so
  // that its own redirections apply after these.
  const std::string err_path = temp_file("stderr");
  if (err_path.empty()) return {-1, "", "mkstemp failed"};
  const std::string cmd = "{ " + command + "\n} 2> " + shell_quote(err_path);
  CommandResult r{-1, "", ""};
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
    r.code = exit_code(::pclose(p));
    r.err = read_file(err_path);
  } else {
    r.err = "popen failed";
  }
  std::filesystem::remove(err_path);
  return r;
}

CommandResult run_agatha(const std::string& args) { return run_shell(shell_quote(agatha_binary()) + " " + args); }

CommandResult run_shell_on_tty(const std::string& command) {
  // stdout to a file of its own, stderr the terminal's slave side; the master side is
  // read here until every copy of the slave is closed (read() then fails with EIO).
  const std::string out_path = temp_file("stdout");
  if (out_path.empty()) return {-1, "", "mkstemp failed"};
  const std::string cmd = "{ " + command + "\n} > " + shell_quote(out_path);
  CommandResult r{-1, "", ""};
  int master = -1, slave = -1;
  if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) {
    std::filesystem::remove(out_path);
    return {-1, "", "openpty failed"};
  }
  termios t{};
  if (::tcgetattr(slave, &t) == 0) {
    t.c_oflag &= ~static_cast<tcflag_t>(OPOST);
    ::tcsetattr(slave, TCSANOW, &t);
  }
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setsid();
    const int null = ::open("/dev/null", O_RDONLY);
    ::dup2(null, 0);
    ::dup2(slave, 2);
    ::close(null), ::close(slave), ::close(master);
    ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(slave);
  if (pid < 0) {
    ::close(master);
    std::filesystem::remove(out_path);
    return {-1, "", "fork failed"};
  }
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(master, buf, sizeof buf);
    if (n > 0) {
      r.err.append(buf, static_cast<size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // EIO: no slave left open
    }
  }
  ::close(master);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.code = exit_code(status);
  r.out = read_file(out_path);
  std::filesystem::remove(out_path);
  return r;
}

CommandResult run_agatha_on_tty(const std::string& args) {
  return run_shell_on_tty(shell_quote(agatha_binary()) + " " + args);
}

std::string last_lines(const std::string& s, int n) {
  std::string t = s;
  if (!t.empty() && t.back() == '\n') t.pop_back();
  size_t start = t.size();
  for (int i = 0; i < n; ++i) {
    const size_t nl = start == 0 ? std::string::npos : t.rfind('\n', start - 1);
    if (nl == std::string::npos) return t;
    start = nl;
  }
  return t.substr(start + 1);
}

std::string last_line(const std::string& s) { return last_lines(s, 1); }

bool signal_ignored(int sig) {
  struct sigaction now {};
  return ::sigaction(sig, nullptr, &now) == 0 && now.sa_handler == SIG_IGN;
}

}  // namespace agatha::test
