#include "dp_recording.hpp"

#include "task_file.hpp"

namespace agatha::io {

RecordingBackend::RecordingBackend(std::unique_ptr<DpBackend> inner, const std::string& path)
    : inner_(std::move(inner)), path_(path), out_(path) {}

void RecordingBackend::run(std::span<const DpTask> tasks, std::span<DpResult> results) {
  inner_->run(tasks, results);
  std::vector<std::string> lines(tasks.size());
  for (size_t i = 0; i < tasks.size(); ++i) lines[i] = format_task_line("", tasks[i], &results[i]);
  const std::lock_guard<std::mutex> lock(mutex_);
  std::string text;
  for (const std::string& line : lines) text += std::to_string(next_id_++), text += line;
  out_.write(text);
}

void RecordingBackend::compute_inline(int worker, const DpTask& task, DpResult& result) {
  inner_->compute_inline(worker, task, result);
  const std::string line = format_task_line("", task, &result);  // the id goes first, under the lock
  const std::lock_guard<std::mutex> lock(mutex_);
  out_.write(std::to_string(next_id_++));
  out_.write(line);
}

void RecordingBackend::close() {
  const std::lock_guard<std::mutex> lock(mutex_);
  out_.close();
}

uint64_t RecordingBackend::recorded() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return next_id_;
}

}  // namespace agatha::io
