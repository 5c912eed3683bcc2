#include "progress.hpp"

#include <cmath>
#include <exception>
#include <utility>

namespace agatha::util {

std::string with_commas(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string megabases(uint64_t bases) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f Mb", static_cast<double>(bases) / 1e6);
  return buf;
}

std::string per_second(double amount, double seconds) {
  if (!(seconds > 0)) return "0";
  const double rate = amount / seconds;
  if (rate >= 100) return with_commas(static_cast<uint64_t>(std::llround(rate)));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", rate);
  return buf;
}

Progress::Progress(std::FILE* out, ProgressText text, std::chrono::milliseconds interval)
    : out_(out),
      text_(std::move(text)),
      interval_(interval),
      start_(std::chrono::steady_clock::now()),
      uncaught_(std::uncaught_exceptions()) {
  ticker_ = std::thread([this] { tick(); });
}

Progress::~Progress() { finish(); }

ProgressCounts Progress::counts() const {
  ProgressCounts c;
  c.items = items_.load(std::memory_order_relaxed);
  c.bases = bases_.load(std::memory_order_relaxed);
  c.stage = stage_.load(std::memory_order_relaxed);
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return c;
}

void Progress::tick() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (wake_.wait_for(lock, interval_, [this] { return stop_; })) return;
    try {
      show(false, false);
    } catch (...) {  // a status line is not worth stopping the work for
    }
  }
}

void Progress::show(bool last, bool done) {
  ProgressCounts c = counts();
  c.done = done;
  std::string line = "\r";
  line += text_(c);
  line += last ? "\033[K\n" : "\033[K";
  std::fwrite(line.data(), 1, line.size(), out_);
  std::fflush(out_);
  shown_.fetch_add(1, std::memory_order_release);
}

void Progress::finish() {
  if (!ticker_.joinable()) return;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  ticker_.join();
  if (shown_ > 0) show(true, std::uncaught_exceptions() <= uncaught_);
}

}  // namespace agatha::util
