// src/util/parallel_for.hpp — runs fn(i, worker) for every i < n on up to `threads`
// threads (the calling thread is worker 0). Items are taken by an atomic counter, in
// increasing i, so that items of very different sizes keep every thread busy (order
// them largest first for the best balance). The first exception stops the other
// workers after their current item and is rethrown; the results of the items that ran
// stay where fn put them.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace agatha::util {

template <class Fn>
void parallel_for(size_t n, int threads, Fn&& fn) {
  std::atomic<size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&](int worker) {
    try {
      for (size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < n;) fn(i, worker);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      next.store(n);
    }
  };
  const size_t n_extra = std::min(static_cast<size_t>(threads > 1 ? threads - 1 : 0), n > 0 ? n - 1 : 0);
  std::vector<std::jthread> pool;
  pool.reserve(n_extra);
  for (size_t t = 0; t < n_extra; ++t) pool.emplace_back(work, static_cast<int>(t + 1));
  work(0);
  pool.clear();  // joins
  if (error) std::rethrow_exception(error);
}

}  // namespace agatha::util
