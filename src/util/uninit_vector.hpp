// src/util/uninit_vector.hpp — a std::vector whose resize() leaves new elements of a
// trivial type uninitialised, for large arrays that are filled right after (in parallel,
// or by a read): the pages are first touched by the thread that writes them, and no
// time goes to zeroing what is overwritten.
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace agatha::util {

template <class T>
struct UninitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitAllocator<U>;
  };
  UninitAllocator() = default;
  template <class U>
  UninitAllocator(const UninitAllocator<U>&) noexcept {}
  // Value-initialisation (resize(n), vector(n)) becomes default-initialisation: nothing
  // for trivial types.
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using UninitVector = std::vector<T, UninitAllocator<T>>;

}  // namespace agatha::util
