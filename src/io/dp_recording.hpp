// src/io/dp_recording.hpp — a DP backend that writes every task it computes, with its
// answer, to a task file (the golden vectors' columns: src/io/task_file.hpp), so that the
// DP work of a real run can be replayed and timed on its own (`agatha dp FILE --bench`,
// bench/dp.sh against minimap2's kernel). `agatha align` wraps its backend in one when
// AGATHA_DP_RECORD names a file.
#pragma once

#include <agatha/dp.hpp>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "output_file.hpp"

namespace agatha::io {

class RecordingBackend final : public DpBackend {
 public:
  // Creates `path` (throws Error if it cannot). Every task must have a task-file form
  // (io::format_task_line): a scoring with transitions throws when its first task comes.
  RecordingBackend(std::unique_ptr<DpBackend> inner, const std::string& path);
  std::string name() const override { return inner_->name(); }
  bool runs_on_device() const override { return inner_->runs_on_device(); }
  int inline_workers() const override { return inner_->inline_workers(); }
  void run(std::span<const DpTask> tasks, std::span<DpResult> results) override;
  void compute_inline(int worker, const DpTask& task, DpResult& result) override;
  // Finishes the file (throws Error on a write failure); without it the file is dropped.
  void close();
  uint64_t recorded() const;  // tasks written so far
  const std::string& path() const { return path_; }

 private:
  std::unique_ptr<DpBackend> inner_;
  std::string path_;
  mutable std::mutex mutex_;
  OutputFile out_;
  uint64_t next_id_ = 0;  // the id column: tasks numbered in the order they were written
};

}  // namespace agatha::io
