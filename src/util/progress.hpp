// src/util/progress.hpp — a status line for long work (an index build, the alignment of
// many reads) on a terminal: workers add what they finished to two counters (items and
// bases, relaxed atomics), and a ticker thread rewrites one line every `interval` with
// the text a caller-given function makes of the counts and the time since the start
// ("\r" + text + "\033[K"). finish() stops the ticker and, if a line was shown, rewrites
// it with the final counts and ends it with a newline, so that what is printed next
// starts on a line of its own. Work that ends before the first tick prints nothing.
//
// Whether to show progress at all (a terminal, the verbosity, --quiet) is the caller's
// choice: without a Progress object there is no thread and no output.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace agatha::util {

// What a status line is made of.
struct ProgressCounts {
  uint64_t items = 0;   // reads, sequences ...
  uint64_t bases = 0;
  double seconds = 0;   // since the Progress was made
  int stage = 0;        // set_stage's: e.g. reading the sequences (0), then building (1)
  bool done = false;    // the final line, shown by finish() once the work is over (not
                        // when it ends by an exception)
};

using ProgressText = std::function<std::string(const ProgressCounts&)>;

// Helpers for the text: `n` with commas between groups of three digits ("12,345"),
// bases in megabases with one decimal ("98.7 Mb"), and a rate per second with one
// decimal below 100 and none above ("45.6", "1,234"; "0" when no time has passed).
[[nodiscard]] std::string with_commas(uint64_t n);
[[nodiscard]] std::string megabases(uint64_t bases);
[[nodiscard]] std::string per_second(double amount, double seconds);

class Progress {
 public:
  static constexpr std::chrono::milliseconds kDefaultInterval{2000};

  // Starts the ticker: every `interval`, text(counts) rewritten on `out`.
  Progress(std::FILE* out, ProgressText text, std::chrono::milliseconds interval = kDefaultInterval);
  ~Progress();  // finish()
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // From any thread.
  void add(uint64_t items, uint64_t bases) noexcept {
    items_.fetch_add(items, std::memory_order_relaxed);
    bases_.fetch_add(bases, std::memory_order_relaxed);
  }
  void set_stage(int stage) noexcept { stage_.store(stage, std::memory_order_relaxed); }

  // Stops the ticker and, when a line was shown, shows the final counts (counts().done
  // set, unless an exception is unwinding the work) and a newline. Later calls do nothing.
  void finish();

  // Lines shown so far (the final one included).
  [[nodiscard]] uint64_t lines_shown() const { return shown_.load(std::memory_order_acquire); }
  [[nodiscard]] ProgressCounts counts() const;

 private:
  void tick();
  void show(bool last, bool done);

  std::FILE* out_;
  ProgressText text_;
  std::chrono::milliseconds interval_;
  std::chrono::steady_clock::time_point start_;
  std::atomic<uint64_t> items_{0}, bases_{0};
  std::atomic<int> stage_{0};
  int uncaught_;        // std::uncaught_exceptions() when made
  std::atomic<uint64_t> shown_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;  // under mutex_
  std::thread ticker_;
};

}  // namespace agatha::util
