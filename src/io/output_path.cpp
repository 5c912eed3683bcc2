#include "output_path.hpp"

#include <agatha/error.hpp>

#include <fcntl.h>
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
#include <utility>

namespace agatha::io {
namespace {

// Temporary files a fatal signal must remove. A slot is claimed (1) while its path is
// copied in and live (2) once the handler may read it; the handler only reads live slots.
// A sort holds fewer than its merge fan-in (64) of run files per merge level at once
// (bam_sort.hpp), and two levels cover 64^2 runs (3 TB of records at the default
// --sort-mem), besides the output's and its index's temporary files. A path beyond the
// slots is not removed on a signal. The slots take PATH_MAX bytes each of
// zero-initialised memory that stays untouched until used.
constexpr int kSlots = 192;
struct TempSlot {
  std::atomic<int> state{0};
  char path[PATH_MAX];
};
std::array<TempSlot, kSlots> g_temps;

// The scratch series (ScratchSeries): its prefix, and how many of its files may exist;
// the handler reads them only while `live` is set.
struct SeriesSlot {
  std::atomic<bool> live{false};
  std::atomic<size_t> count{0};
  char prefix[PATH_MAX];
};
SeriesSlot g_series;
constexpr size_t kMaxSeriesPrefix = PATH_MAX - 32;  // room for ".<number>.tmp"

// PREFIX.NNNN.tmp (printf's "%s.%.4d.tmp", minimap2's names) into buf, which holds
// PATH_MAX bytes; async-signal-safe.
void series_name(char* buf, const char* prefix, size_t i) {
  size_t n = 0;
  while (prefix[n] != '\0') buf[n] = prefix[n], ++n;
  buf[n++] = '.';
  char digits[24];
  int d = 0;
  do digits[d++] = static_cast<char>('0' + i % 10), i /= 10;
  while (i > 0);
  for (int pad = d; pad < 4; ++pad) buf[n++] = '0';
  while (d > 0) buf[n++] = digits[--d];
  for (const char c : {'.', 't', 'm', 'p', '\0'}) buf[n++] = c;
}

void on_fatal_signal(int sig) {
  for (TempSlot& s : g_temps)
    if (s.state.load(std::memory_order_acquire) == 2) ::unlink(s.path);
  if (g_series.live.load(std::memory_order_acquire)) {
    char name[PATH_MAX];
    const size_t n = g_series.count.load(std::memory_order_acquire);
    for (size_t i = 0; i < n; ++i) series_name(name, g_series.prefix, i), ::unlink(name);
  }
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

}  // namespace

PendingOutput::PendingOutput(const std::string& path) : path_(path), open_path_(path), final_path_(path) {
  const auto via_temp_beside = [this](const std::string& file) {
    final_path_ = file;
    open_path_ = file + ".tmp." + std::to_string(::getpid());
    via_temp_ = true;
  };
  if (written_in_place(path)) return;
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) via_temp_beside(path);
    return;
  }
  if (S_ISLNK(st.st_mode)) {
    char* real = ::realpath(path.c_str(), nullptr);
    if (!real) return;  // dangling: opening the link creates its target
    const std::string target(real);
    std::free(real);
    if (written_in_place(target) || ::stat(target.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
    via_temp_beside(target);
  } else if (S_ISREG(st.st_mode)) {
    via_temp_beside(path);
  } else {
    return;  // a device, FIFO or socket: in place
  }
  keep_mode_ = true, mode_ = st.st_mode & 07777;
}

int PendingOutput::create() {
  if (via_temp_) track(open_path_), live_ = true;
  const int fd = ::open(open_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0 && live_) {
    const int err = errno;
    untrack(open_path_);  // not created: nothing to remove (a file of that name is not ours)
    live_ = false;
    errno = err;
  }
  return fd;
}

int PendingOutput::commit() {
  if (!live_) return 0;
  int err = 0;
  if (keep_mode_ && ::chmod(open_path_.c_str(), mode_) != 0) err = errno;
  if (!err && std::rename(open_path_.c_str(), final_path_.c_str()) != 0) err = errno;
  if (err) std::remove(open_path_.c_str());
  untrack(open_path_);
  live_ = false;
  return err;
}

void PendingOutput::discard() noexcept {
  if (!live_) return;
  std::remove(open_path_.c_str());
  untrack(open_path_);
  live_ = false;
}

int TempFile::create() {
  track(path_);
  live_ = true;
  const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    const int err = errno;
    untrack(path_);  // not created: a file of that name is not ours
    live_ = false;
    errno = err;
  }
  return fd;
}

void TempFile::remove() noexcept {
  if (!live_) return;
  std::remove(path_.c_str());
  untrack(path_);
  live_ = false;
}

ScratchSeries::ScratchSeries(std::string prefix) : prefix_(std::move(prefix)) {
  if (prefix_.empty()) throw Error("the prefix of the scratch files is empty");
  if (prefix_.size() > kMaxSeriesPrefix) throw Error("the prefix of the scratch files is too long: " + prefix_);
  if (prefix_.find('\0') != std::string::npos) throw Error("the prefix of the scratch files holds a NUL byte");
  bool idle = false;
  if (!g_series.live.compare_exchange_strong(idle, true, std::memory_order_acq_rel)) {
    // One series at a time; a second one (tests only) is not removed on a signal.
    return;
  }
  g_series.count.store(0, std::memory_order_release);
  std::memcpy(g_series.prefix, prefix_.c_str(), prefix_.size() + 1);
  registered_ = true;
}

ScratchSeries::~ScratchSeries() {
  remove_all();
  if (registered_) g_series.live.store(false, std::memory_order_release);
}

std::string ScratchSeries::path(size_t i) const {
  char name[PATH_MAX];
  series_name(name, prefix_.c_str(), i);
  return name;
}

std::string ScratchSeries::add() {
  ++count_;
  if (registered_) g_series.count.store(count_, std::memory_order_release);
  return path(count_ - 1);
}

void ScratchSeries::remove_all() noexcept {
  for (size_t i = 0; i < count_; ++i) std::remove(path(i).c_str());
  count_ = 0;
  if (registered_) g_series.count.store(0, std::memory_order_release);
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
