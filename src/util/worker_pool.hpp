// src/util/worker_pool.hpp — the worker numbers 0 .. n-1 of a DP backend's inline
// workspaces (DpBackend::inline_workers), lent to whichever thread computes: a number is
// held by one thread at a time, and a thread that finds none free waits for one.
#pragma once

#include <condition_variable>
#include <mutex>
#include <vector>

namespace agatha::util {

class WorkerPool {
 public:
  explicit WorkerPool(int n) {
    for (int w = n - 1; w >= 0; --w) free_.push_back(w);
  }
  int take() {
    std::unique_lock<std::mutex> lock(lock_);
    freed_.wait(lock, [this] { return !free_.empty(); });
    const int w = free_.back();
    free_.pop_back();
    return w;
  }
  void give(int w) {
    {
      const std::lock_guard<std::mutex> lock(lock_);
      free_.push_back(w);
    }
    freed_.notify_one();
  }

  // A number held for the object's lifetime.
  class Lease {
   public:
    explicit Lease(WorkerPool& pool) : pool_(pool), worker_(pool.take()) {}
    ~Lease() { pool_.give(worker_); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    int worker() const { return worker_; }

   private:
    WorkerPool& pool_;
    int worker_;
  };

 private:
  std::mutex lock_;
  std::condition_variable freed_;
  std::vector<int> free_;  // numbers not in use
};

}  // namespace agatha::util
