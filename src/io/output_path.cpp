#include "output_path.hpp"

#include <agatha/error.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace agatha::io {
namespace {

// Temporary files a fatal signal must remove. A slot is claimed (1) while its path is
// copied in and live (2) once the handler may read it; the handler only reads live slots.
constexpr int kSlots = 8;
struct TempSlot {
  std::atomic<int> state{0};
  char path[PATH_MAX];
};
std::array<TempSlot, kSlots> g_temps;

void on_fatal_signal(int sig) {
  for (TempSlot& s : g_temps)
    if (s.state.load(std::memory_order_acquire) == 2) ::unlink(s.path);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void track(const std::string& path) {
  if (path.size() >= PATH_MAX) return;
  for (TempSlot& s : g_temps) {
    int expected = 0;
    if (s.state.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) {
      std::memcpy(s.path, path.c_str(), path.size() + 1);
      s.state.store(2, std::memory_order_release);
      return;
    }
  }
}

void untrack(const std::string& path) {
  for (TempSlot& s : g_temps) {
    if (s.state.load(std::memory_order_acquire) == 2 && path == s.path) {
      s.state.store(0, std::memory_order_release);
      return;
    }
  }
}

bool written_in_place(const std::string& path) {
  // The kernel's own files: /dev/stdout is a symlink into /proc/self/fd, whose target may
  // be a regular file the shell opened; only writing through the link reaches it.
  return path.starts_with("/dev/") || path.starts_with("/proc/");
}

OutputTarget temp_beside(const std::string& given, const std::string& file) {
  OutputTarget t;
  t.path = given;
  t.final_path = file;
  t.open_path = file + ".tmp." + std::to_string(::getpid());
  t.via_temp = true;
  return t;
}

}  // namespace

OutputTarget plan_output(const std::string& path) {
  OutputTarget direct;
  direct.path = direct.open_path = direct.final_path = path;
  if (written_in_place(path)) return direct;
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return errno == ENOENT ? temp_beside(path, path) : direct;
  if (S_ISLNK(st.st_mode)) {
    char* real = ::realpath(path.c_str(), nullptr);
    if (!real) return direct;  // dangling: opening the link creates its target
    const std::string target(real);
    std::free(real);
    if (written_in_place(target) || ::stat(target.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return direct;
    OutputTarget t = temp_beside(path, target);
    t.keep_mode = true, t.mode = st.st_mode & 07777;
    return t;
  }
  if (!S_ISREG(st.st_mode)) return direct;
  OutputTarget t = temp_beside(path, path);
  t.keep_mode = true, t.mode = st.st_mode & 07777;
  return t;
}

void begin_output(const OutputTarget& t) {
  if (t.via_temp) track(t.open_path);
}

int commit_output(const OutputTarget& t) {
  if (!t.via_temp) return 0;
  int err = 0;
  if (t.keep_mode && ::chmod(t.open_path.c_str(), t.mode) != 0) err = errno;
  if (!err && std::rename(t.open_path.c_str(), t.final_path.c_str()) != 0) err = errno;
  if (err) std::remove(t.open_path.c_str());
  untrack(t.open_path);
  return err;
}

void discard_output(const OutputTarget& t) noexcept {
  if (!t.via_temp) return;
  std::remove(t.open_path.c_str());
  untrack(t.open_path);
}

void install_signal_cleanup() {
  struct sigaction sa {};
  sa.sa_handler = on_fatal_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    // A signal ignored by whoever started us (nohup's SIGHUP) stays ignored.
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    ::sigaction(sig, &sa, nullptr);
  }
}

void refuse_input_as_output(const std::string& output, const std::vector<std::string>& inputs) {
  if (output.empty() || output == "-") return;
  struct stat out;
  if (::stat(output.c_str(), &out) != 0 || !S_ISREG(out.st_mode)) return;
  for (const std::string& in : inputs) {
    struct stat st;
    if (in != "-" && ::stat(in.c_str(), &st) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino)
      throw Error("output '" + output + "' is the input file '" + in + "': refusing to overwrite it");
  }
}

}  // namespace agatha::io
