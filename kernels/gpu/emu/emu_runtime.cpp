// kernels/gpu/emu/emu_runtime.cpp — the host "device" behind cuda_runtime.h: memory,
// streams, launches, and the lanes of a block with CUDA's warp-collective semantics.
//
// Lanes are fibers (one stack each, switched by a few instructions on x86-64, ucontext
// elsewhere) that the block's scheduler runs until each waits at a collective or exits;
// then it releases every group of lanes whose mask is complete. With AGATHA_EMU_THREADS
// every lane is an OS thread and collectives are a mutex and a condition variable, so
// ThreadSanitizer sees exactly the happens-before edges a warp barrier gives.
#include "cuda_runtime.h"
#include "emu_control.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#if defined(AGATHA_EMU_THREADS) && defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
extern "C" {
void AnnotateIgnoreSyncBegin(const char* file, int line);
void AnnotateIgnoreSyncEnd(const char* file, int line);
void AnnotateIgnoreReadsBegin(const char* file, int line);
void AnnotateIgnoreReadsEnd(const char* file, int line);
void AnnotateIgnoreWritesBegin(const char* file, int line);
void AnnotateIgnoreWritesEnd(const char* file, int line);
}
#define AGATHA_EMU_TSAN 1
#endif

// AddressSanitizer follows the fiber switches (it must know which stack is current, or
// it reports the lane stacks' frames as overflows): __sanitizer_{start,finish}_switch_fiber
// around every switch.
#if defined(__SANITIZE_ADDRESS__)
#define AGATHA_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AGATHA_EMU_ASAN 1
#endif
#endif
#if defined(AGATHA_EMU_ASAN) && !defined(AGATHA_EMU_THREADS)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#if !defined(AGATHA_EMU_THREADS)
#include <sys/mman.h>
#if !defined(__x86_64__)
#include <ucontext.h>
#endif
#endif

namespace AGATHA_EMU_NS {
namespace {

constexpr size_t kDefaultDeviceMemory = size_t(4) << 30;

// ---------------------------------------------------------------------------------------
// Global state: one emulated device. API calls are serialised by one lock.
// ---------------------------------------------------------------------------------------
struct Allocation {
  size_t size;
  bool device;
};

struct Device {
  std::recursive_mutex mu;
  std::map<uintptr_t, Allocation> allocs;
  size_t total = kDefaultDeviceMemory;
  Faults faults;
  long n_malloc = 0, n_host_malloc = 0, n_launch = 0, n_kernel = 0, n_copy = 0;
  Stats stats;
  cudaError_t sticky = cudaSuccess;
  std::string fault;
  int host_threads = 0;
  std::vector<Stream*> streams;
  uint64_t seed = 0x9e3779b97f4a7c15ull;
};

Device& dev() {
  static Device* d = [] {
    auto* x = new Device;
    if (const char* e = std::getenv("AGATHA_EMU_DEVICE_MEMORY")) x->total = std::strtoull(e, nullptr, 10);
    return x;
  }();
  return *d;
}

thread_local cudaError_t t_last_error = cudaSuccess;

cudaError_t fail(cudaError_t e) {
  t_last_error = e;
  return e;
}

// Fills memory with pseudo-random bytes, as uninitialised device memory may hold anything.
void fill_garbage(void* p, size_t n, uint64_t seed) {
  auto* b = static_cast<unsigned char*>(p);
  uint64_t x = seed;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    x += 0x9e3779b97f4a7c15ull;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    std::memcpy(b + i, &z, 8);
  }
  for (; i < n; ++i) b[i] = static_cast<unsigned char>(0xA5 ^ i);
}

// The allocation holding [p, p+n), or nullptr.
const Allocation* find(const void* p, size_t n) {
  auto& d = dev();
  const auto a = reinterpret_cast<uintptr_t>(p);
  auto it = d.allocs.upper_bound(a);
  if (it == d.allocs.begin()) return nullptr;
  --it;
  if (a < it->first || a + n > it->first + it->second.size) return nullptr;
  return &it->second;
}

bool is_device(const void* p, size_t n) {
  const Allocation* a = find(p, n);
  return a && a->device;
}
bool is_pinned(const void* p, size_t n) {
  const Allocation* a = find(p, n);
  return a && !a->device;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Streams: queues of operations, run when the host synchronises.
// ---------------------------------------------------------------------------------------
struct Stream {
  std::deque<std::function<cudaError_t()>> ops;
  bool blocking = true;
};

namespace {

cudaError_t run_ops(Stream& s, size_t count) {
  cudaError_t first = cudaSuccess;
  for (size_t k = 0; k < count && !s.ops.empty(); ++k) {
    auto op = std::move(s.ops.front());
    s.ops.pop_front();
    const cudaError_t e = op();
    if (e != cudaSuccess && first == cudaSuccess) first = e;
  }
  return first;
}

cudaError_t flush(Stream& s) { return run_ops(s, s.ops.size()); }

cudaError_t flush_all() {
  cudaError_t first = cudaSuccess;
  for (Stream* s : dev().streams) {
    const cudaError_t e = flush(*s);
    if (e != cudaSuccess && first == cudaSuccess) first = e;
  }
  return first;
}

bool known_stream(cudaStream_t s) {
  const auto& v = dev().streams;
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Enqueues `op` on `s`; on the legacy default stream (nullptr) it waits for every
// blocking stream and runs at once.
cudaError_t submit(cudaStream_t s, std::function<cudaError_t()> op) {
  auto& d = dev();
  if (!s) {
    ++d.stats.legacy_stream_ops;
    flush_all();
    if (d.sticky != cudaSuccess) return d.sticky;
    return op();
  }
  if (!known_stream(s)) return fail(cudaErrorInvalidResourceHandle);
  s->ops.push_back(std::move(op));
  return cudaSuccess;
}

// ---------------------------------------------------------------------------------------
// Lanes and collectives
// ---------------------------------------------------------------------------------------
enum class LaneState : uint8_t { kRunnable, kWaiting, kExited };

struct Block;

struct Lane {
  LaneIds ids{};
  Block* block = nullptr;
  int index = 0;
  LaneState st = LaneState::kRunnable;
  Collective kind = Collective::kSyncwarp;
  unsigned mask = 0;
  int arg = 0, width = 32;
  uint64_t value = 0, result = 0;
  source_location where;
#if defined(AGATHA_EMU_THREADS)
  unsigned epoch = 0, block_epoch = 0;  // collectives passed: warp and block ones
#else
  bool started = false;
  void* sp = nullptr;
  char* stack = nullptr;
  void* asan_fake = nullptr;  // AddressSanitizer's fake stack of the lane while it is switched out
#endif
};

struct Aborted {};  // unwinds the lanes of a faulted block

struct Block {
  std::vector<Lane>* lanes = nullptr;
  int n = 0;
  const std::function<void()>* body = nullptr;
  std::string fault;
  bool aborted = false;
  int live = 0, waiting = 0;
  unsigned bx = 0;
#if defined(AGATHA_EMU_THREADS)
  std::mutex mu;
  std::condition_variable cv;
  // Addresses on which ThreadSanitizer is told of each barrier's ordering: per warp and
  // per parity of the collectives passed, so a lane that has gone on to the next
  // barrier cannot order a slower lane's accesses after this one.
  std::vector<std::array<char, 2>> warp_sync;
  std::array<char, 2> block_sync{};
#else
  void* sched_sp = nullptr;
#endif
};

thread_local Lane* t_lane = nullptr;

const char* kind_name(Collective k) {
  switch (k) {
    case Collective::kSyncwarp: return "__syncwarp";
    case Collective::kShflIdx: return "__shfl_sync";
    case Collective::kShflXor: return "__shfl_xor_sync";
    case Collective::kShflUp: return "__shfl_up_sync";
    case Collective::kShflDown: return "__shfl_down_sync";
    case Collective::kBallot: return "__ballot_sync";
    case Collective::kSyncthreads: return "__syncthreads";
  }
  return "?";
}

std::string hex(unsigned m) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", m);
  return b;
}

std::string at(const Lane& l) {
  return std::string(kind_name(l.kind)) + "(" + (l.kind == Collective::kSyncthreads ? "" : hex(l.mask)) + ") at " +
         l.where.file_name() + ":" + std::to_string(l.where.line());
}

std::string who(const Block& b, int i) {
  return "block " + std::to_string(b.bx) + " warp " + std::to_string(i / 32) + " lane " + std::to_string(i % 32);
}

void set_fault(Block& b, const std::string& what) {
  if (b.fault.empty()) b.fault = what;
}

// The value lane k (warp-relative) of a complete group receives.
bool shuffle_result(Block& b, int base, int wn, Lane& l, int k) {
  const int w = l.width;
  const int seg = k & ~(w - 1);
  int src = k;
  switch (l.kind) {
    case Collective::kShflIdx:
      src = seg + static_cast<int>(static_cast<unsigned>(l.arg) % static_cast<unsigned>(w));
      break;
    case Collective::kShflXor:
      src = k ^ l.arg;
      if ((src & ~(w - 1)) != seg || src < 0) src = k;
      break;
    case Collective::kShflUp:
      src = k - l.arg;
      if (src < seg) src = k;
      break;
    case Collective::kShflDown:
      src = k + l.arg;
      if (src >= seg + w) src = k;
      break;
    default: return true;
  }
  if (src >= wn || !(l.mask >> src & 1u)) {
    set_fault(b, who(b, base + k) + ": " + at(l) + " reads lane " + std::to_string(src) + ", which is not in the mask");
    return false;
  }
  l.result = (*b.lanes)[base + src].value;
  return true;
}

// If the group of waiting lane i is complete, computes its results and releases it.
// Faults (a lane of the mask exited, collectives of different kinds under one mask)
// are recorded in b.fault.
bool try_release(Block& b, int i) {
  auto& lanes = *b.lanes;
  Lane& l = lanes[i];
  if (l.st != LaneState::kWaiting) return false;
  if (l.kind == Collective::kSyncthreads) {
    int at_bar = 0;
    for (int k = 0; k < b.n; ++k) {
      const Lane& o = lanes[k];
      if (o.st == LaneState::kExited) continue;
      if (o.st != LaneState::kWaiting || o.kind != Collective::kSyncthreads) return false;
      ++at_bar;
    }
    for (int base = 0; base < b.n; base += 32) {
      int exited = 0, wn = std::min(32, b.n - base);
      for (int k = 0; k < wn; ++k) exited += lanes[base + k].st == LaneState::kExited;
      if (exited > 0 && exited < wn) {
        set_fault(b, who(b, i) + ": " + at(l) + " is reached while " + std::to_string(exited) + " lanes of warp " +
                         std::to_string(base / 32) + " have exited");
        return false;
      }
    }
    for (int k = 0; k < b.n; ++k)
      if (lanes[k].st == LaneState::kWaiting) lanes[k].st = LaneState::kRunnable;
    b.waiting -= at_bar;
    return true;
  }
  const int base = i / 32 * 32, wn = std::min(32, b.n - base);
  const unsigned m = l.mask;
  for (unsigned bits = m; bits; bits &= bits - 1) {
    const int k = std::countr_zero(bits);
    if (k >= wn) {
      set_fault(b, who(b, i) + ": " + at(l) + " names lane " + std::to_string(k) + ", which the block does not have");
      return false;
    }
    const Lane& o = lanes[base + k];
    if (o.st == LaneState::kExited) {
      set_fault(b, who(b, i) + " waits at " + at(l) + ", but lane " + std::to_string(k) +
                       " of its mask has exited without reaching it");
      return false;
    }
    if (o.st != LaneState::kWaiting || o.kind == Collective::kSyncthreads || o.mask != m) return false;
    if (o.kind != l.kind || o.width != l.width) {
      set_fault(b, who(b, i) + " waits at " + at(l) + " while lane " + std::to_string(k) +
                       " of the same mask waits at " + at(o));
      return false;
    }
  }
  if (l.kind == Collective::kBallot) {
    uint64_t ballot = 0;
    for (unsigned bits = m; bits; bits &= bits - 1) {
      const int k = std::countr_zero(bits);
      if (lanes[base + k].value) ballot |= uint64_t(1) << k;
    }
    for (unsigned bits = m; bits; bits &= bits - 1) lanes[base + std::countr_zero(bits)].result = ballot;
  } else if (l.kind != Collective::kSyncwarp) {
    for (unsigned bits = m; bits; bits &= bits - 1) {
      const int k = std::countr_zero(bits);
      if (!shuffle_result(b, base, wn, lanes[base + k], k)) return false;
    }
  }
  for (unsigned bits = m; bits; bits &= bits - 1) lanes[base + std::countr_zero(bits)].st = LaneState::kRunnable;
  b.waiting -= std::popcount(m);
  return true;
}

// A lane that exits while lanes of its warp wait for it at a collective is a fault.
void check_exit(Block& b, int i) {
  auto& lanes = *b.lanes;
  const int base = i / 32 * 32, wn = std::min(32, b.n - base);
  for (int k = 0; k < wn; ++k) {
    const Lane& o = lanes[base + k];
    if (o.st == LaneState::kWaiting && o.kind != Collective::kSyncthreads && (o.mask >> (i - base) & 1u))
      set_fault(b, who(b, base + k) + " waits at " + at(o) + ", but lane " + std::to_string(i - base) +
                       " of its mask has exited without reaching it");
  }
}

std::string deadlock(const Block& b) {
  std::string s = "block " + std::to_string(b.bx) + ": deadlock; waiting lanes:";
  int shown = 0;
  for (int k = 0; k < b.n && shown < 8; ++k) {
    const Lane& o = (*b.lanes)[k];
    if (o.st != LaneState::kWaiting) continue;
    s += " [warp " + std::to_string(k / 32) + " lane " + std::to_string(k % 32) + ": " + at(o) + "]";
    ++shown;
  }
  return s;
}

// $AGATHA_EMU_DROP_SYNCWARP=FILE:LINE turns the __syncwarp at that place into a no-op:
// a deliberately broken kernel, to show that the ThreadSanitizer test catches it.
bool dropped(Collective kind, const source_location& where) {
  static const std::string drop = [] {
    const char* e = std::getenv("AGATHA_EMU_DROP_SYNCWARP");
    return std::string(e ? e : "");
  }();
  if (drop.empty() || kind != Collective::kSyncwarp) return false;
  const size_t colon = drop.rfind(':');
  if (colon == std::string::npos || std::to_string(where.line()) != drop.substr(colon + 1)) return false;
  const std::string file = where.file_name(), name = drop.substr(0, colon);
  return file.size() >= name.size() && file.compare(file.size() - name.size(), name.size(), name) == 0;
}

void validate(const Lane& l, Collective kind, unsigned mask, int width, const source_location& where) {
  if (kind == Collective::kSyncthreads) return;
  const int lane = l.index % 32;
  auto complain = [&](const std::string& what) {
    throw std::runtime_error(who(*l.block, l.index) + ": " + kind_name(kind) + "(" + hex(mask) + ") at " +
                             where.file_name() + ":" + std::to_string(where.line()) + ": " + what);
  };
  if (!(mask >> lane & 1u)) complain("the mask does not name the calling lane");
  if (width < 1 || width > 32 || (width & (width - 1)) != 0) complain("width must be a power of two up to 32");
}

// The calling lane, checked: inside a kernel, a mask that names it, a valid width.
// nullptr when the collective is dropped ($AGATHA_EMU_DROP_SYNCWARP).
Lane* enter(Collective kind, unsigned mask, int width, const source_location& where) {
  Lane* l = t_lane;
  if (!l) throw std::logic_error("a warp collective was called outside a kernel");
  validate(*l, kind, mask, width, where);
  return dropped(kind, where) ? nullptr : l;
}

// Records that lane l waits at a collective (under the block's lock, with threads).
void arrive(Lane& l, Collective kind, unsigned mask, uint64_t value, int arg, int width, const source_location& where) {
  l.kind = kind, l.mask = mask, l.value = value, l.arg = arg, l.width = width, l.where = where;
  l.st = LaneState::kWaiting;
  ++l.block->waiting;
}

}  // namespace

#if defined(AGATHA_EMU_THREADS)
// ---------------------------------------------------------------------------------------
// Lanes as OS threads
// ---------------------------------------------------------------------------------------
namespace {

// Under ThreadSanitizer the emulation's own mutex, which every lane of a block takes,
// must not count as synchronisation between the kernel's lanes (it would order every
// access of one warp after another's): inside the emulation TSan ignores
// synchronisation and memory accesses, and each collective tells it exactly the
// ordering CUDA gives, a release by every arriving lane and an acquire by every
// released one.
struct Quiet {
#if defined(AGATHA_EMU_TSAN)
  Quiet() {
    AnnotateIgnoreSyncBegin(__FILE__, __LINE__);
    AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
    AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
  }
  ~Quiet() {
    AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
    AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
    AnnotateIgnoreSyncEnd(__FILE__, __LINE__);
  }
#endif
};

void tsan_release(void* p) {
#if defined(AGATHA_EMU_TSAN)
  __tsan_release(p);
#else
  (void)p;
#endif
}
void tsan_acquire(void* p) {
#if defined(AGATHA_EMU_TSAN)
  __tsan_acquire(p);
#else
  (void)p;
#endif
}

}  // namespace

uint64_t collective(Collective kind, unsigned mask, uint64_t value, int arg, int width, const source_location& where) {
  Lane* l = enter(kind, mask, width, where);
  if (!l) return 0;
  Block& b = *l->block;
  const bool block_wide = kind == Collective::kSyncthreads;
  char* sync = block_wide ? &b.block_sync[l->block_epoch % 2] : &b.warp_sync[l->index / 32][l->epoch % 2];
  tsan_release(sync);
  uint64_t result = 0;
  {
    Quiet quiet;
    std::unique_lock lock(b.mu);
    if (b.aborted) throw Aborted{};
    arrive(*l, kind, mask, value, arg, width, where);
    if (try_release(b, l->index)) {
      b.cv.notify_all();
    } else if (!b.fault.empty() || b.waiting == b.live) {
      if (b.fault.empty()) set_fault(b, deadlock(b));
      b.aborted = true;
      b.cv.notify_all();
    }
    b.cv.wait(lock, [&] { return l->st == LaneState::kRunnable || b.aborted; });
    if (b.aborted) throw Aborted{};
    result = l->result;
  }
  ++(block_wide ? l->block_epoch : l->epoch);
  tsan_acquire(sync);
  return result;
}

namespace {

void run_block(const std::function<void()>& body, dim3 grid, dim3 block, unsigned bx, std::string& fault) {
  const int n = static_cast<int>(block.x * block.y * block.z);
  std::vector<Lane> lanes(static_cast<size_t>(n));
  Block b;
  b.lanes = &lanes, b.n = n, b.body = &body, b.live = n, b.bx = bx;
  b.warp_sync.assign(static_cast<size_t>(n + 31) / 32, std::array<char, 2>{});
  std::vector<std::thread> threads;
  threads.reserve(lanes.size());
  for (int i = 0; i < n; ++i) {
    Lane& l = lanes[i];
    l.block = &b, l.index = i;
    l.ids.thread = uint3{static_cast<unsigned>(i) % block.x, static_cast<unsigned>(i) / block.x % block.y,
                         static_cast<unsigned>(i) / (block.x * block.y)};
    l.ids.block = uint3{bx % grid.x, bx / grid.x % grid.y, bx / (grid.x * grid.y)};
    l.ids.block_dim = block, l.ids.grid_dim = grid;
    threads.emplace_back([&b, &l] {
      t_lane = &l, current_ids = &l.ids;
      std::string err;
      try {
        (*b.body)();
      } catch (const Aborted&) {
      } catch (const std::exception& e) {
        err = e.what();
      } catch (...) {
        err = "unknown exception";
      }
      Quiet quiet;
      std::lock_guard lock(b.mu);
      if (!err.empty()) set_fault(b, err), b.aborted = true;
      l.st = LaneState::kExited;
      --b.live;
      check_exit(b, l.index);
      if (!b.fault.empty()) b.aborted = true;
      if (!b.aborted && b.live > 0 && b.waiting == b.live) {
        bool released = false;
        for (int k = 0; k < b.n && !released; ++k) released = try_release(b, k);
        if (!released) set_fault(b, deadlock(b)), b.aborted = true;
      }
      b.cv.notify_all();
      t_lane = nullptr, current_ids = nullptr;
    });
  }
  for (auto& t : threads) t.join();
  fault = b.fault;
}

// Blocks run one after another (their __shared__ variables are one instance).
std::string run_grid(const std::function<void()>& body, dim3 grid, dim3 block) {
  const unsigned nb = grid.x * grid.y * grid.z;
  for (unsigned bx = 0; bx < nb; ++bx) {
    std::string fault;
    run_block(body, grid, block, bx, fault);
    if (!fault.empty()) return fault;
  }
  return {};
}

}  // namespace

#else
// ---------------------------------------------------------------------------------------
// Lanes as fibers
// ---------------------------------------------------------------------------------------
namespace {

constexpr size_t kStack = size_t(256) << 10;
constexpr size_t kGuard = 4096;

#if defined(__x86_64__)
extern "C" void agatha_emu_switch(void** save_sp, void* next_sp);
extern "C" void agatha_emu_trampoline();
// Saves the callee-saved registers and the SSE/x87 control words on the current stack,
// stores the stack pointer to *save_sp, and resumes the context saved at next_sp.
asm(R"(
  .text
  .p2align 4
  .globl agatha_emu_switch
  .hidden agatha_emu_switch
  .type agatha_emu_switch,@function
agatha_emu_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size agatha_emu_switch,.-agatha_emu_switch
  .p2align 4
  .globl agatha_emu_trampoline
  .hidden agatha_emu_trampoline
  .type agatha_emu_trampoline,@function
agatha_emu_trampoline:
  .cfi_startproc
  .cfi_undefined rip
  movq %rbx, %rdi
  callq *%r12
  ud2
  .cfi_endproc
  .size agatha_emu_trampoline,.-agatha_emu_trampoline
)");

// A fresh context that starts fn(arg) on the stack [base, base+size).
void* make_context(char* base, size_t size, void (*fn)(void*), void* arg) {
  uintptr_t top = (reinterpret_cast<uintptr_t>(base) + size) & ~uintptr_t(15);
  top -= 16;
  auto* t = reinterpret_cast<uint64_t*>(top);
  t[-1] = reinterpret_cast<uint64_t>(&agatha_emu_trampoline);  // return address
  t[-2] = 0;                                                   // rbp
  t[-3] = reinterpret_cast<uint64_t>(arg);                     // rbx
  t[-4] = reinterpret_cast<uint64_t>(fn);                      // r12
  t[-5] = t[-6] = t[-7] = 0;                                   // r13-r15
  uint32_t ctl[2] = {0x1F80u, 0x037Fu};                        // default MXCSR, x87 control word
  std::memcpy(&t[-8], ctl, sizeof ctl);
  return &t[-8];
}
void switch_to(void** save, void* next) { agatha_emu_switch(save, next); }
#else
struct UContext {
  ucontext_t uc;
};
void* make_context(char* base, size_t size, void (*fn)(void*), void* arg) {
  auto* c = new UContext;
  getcontext(&c->uc);
  c->uc.uc_stack.ss_sp = base;
  c->uc.uc_stack.ss_size = size;
  c->uc.uc_link = nullptr;
  makecontext(&c->uc, reinterpret_cast<void (*)()>(fn), 1, arg);
  return c;
}
void switch_to(void** save, void* next) {
  auto* self = static_cast<UContext*>(*save);
  if (!self) *save = self = new UContext;
  swapcontext(&self->uc, &static_cast<UContext*>(next)->uc);
}
#endif

// Stacks with a guard page below each, reused by the blocks an OS thread runs.
struct StackPool {
  std::vector<char*> stacks;
  ~StackPool() {
    for (char* s : stacks) munmap(s - kGuard, kStack + kGuard);
  }
  char* get(size_t i) {
    while (stacks.size() <= i) {
      void* p = mmap(nullptr, kStack + kGuard, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw std::runtime_error("emulation: cannot map a lane stack");
      mprotect(p, kGuard, PROT_NONE);
      stacks.push_back(static_cast<char*>(p) + kGuard);
    }
    return stacks[i];
  }
};
thread_local StackPool t_stacks;

#if defined(AGATHA_EMU_ASAN)
thread_local const void* t_sched_bottom = nullptr;  // the scheduling thread's own stack
thread_local size_t t_sched_size = 0;
#endif
// On a lane, just after switching to it / just before switching back to the scheduler.
void lane_arrived(Lane& l) {
#if defined(AGATHA_EMU_ASAN)
  __sanitizer_finish_switch_fiber(l.asan_fake, &t_sched_bottom, &t_sched_size);
#else
  (void)l;
#endif
}
void lane_leaving(Lane& l, bool exiting) {
#if defined(AGATHA_EMU_ASAN)
  __sanitizer_start_switch_fiber(exiting ? nullptr : &l.asan_fake, t_sched_bottom, t_sched_size);
#else
  (void)l, (void)exiting;
#endif
}

void lane_entry(void* p) {
  Lane* l = static_cast<Lane*>(p);
  lane_arrived(*l);
  Block& b = *l->block;
  try {
    (*b.body)();
  } catch (const Aborted&) {
  } catch (const std::exception& e) {
    set_fault(b, e.what());
  } catch (...) {
    set_fault(b, "unknown exception");
  }
  l->st = LaneState::kExited;
  --b.live;
  if (!b.aborted) check_exit(b, l->index);
  lane_leaving(*l, true);
  switch_to(&l->sp, b.sched_sp);
  std::abort();  // an exited lane is never resumed
}

void resume(Block& b, Lane& l) {
  l.started = true;
  t_lane = &l, current_ids = &l.ids;
#if defined(AGATHA_EMU_ASAN)
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, l.stack, kStack);
#endif
  switch_to(&b.sched_sp, l.sp);
#if defined(AGATHA_EMU_ASAN)
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
  t_lane = nullptr, current_ids = nullptr;
}

}  // namespace

uint64_t collective(Collective kind, unsigned mask, uint64_t value, int arg, int width, const source_location& where) {
  Lane* l = enter(kind, mask, width, where);
  if (!l) return 0;
  Block& b = *l->block;
  arrive(*l, kind, mask, value, arg, width, where);
  lane_leaving(*l, false);
  switch_to(&l->sp, b.sched_sp);
  lane_arrived(*l);
  if (b.aborted) throw Aborted{};
  return l->result;
}

namespace {

void run_block(const std::function<void()>& body, dim3 grid, dim3 block, unsigned bx, std::vector<Lane>& lanes,
               std::string& fault) {
  const int n = static_cast<int>(block.x * block.y * block.z);
  lanes.assign(static_cast<size_t>(n), Lane{});
  Block b;
  b.lanes = &lanes, b.n = n, b.body = &body, b.live = n, b.bx = bx;
  for (int i = 0; i < n; ++i) {
    Lane& l = lanes[i];
    l.block = &b, l.index = i;
    l.ids.thread = uint3{static_cast<unsigned>(i) % block.x, static_cast<unsigned>(i) / block.x % block.y,
                         static_cast<unsigned>(i) / (block.x * block.y)};
    l.ids.block = uint3{bx % grid.x, bx / grid.x % grid.y, bx / (grid.x * grid.y)};
    l.ids.block_dim = block, l.ids.grid_dim = grid;
    l.stack = t_stacks.get(static_cast<size_t>(i));
#if defined(AGATHA_EMU_ASAN)
    // A lane's stack is reused by the next block (and its address by a later thread's
    // mapping): frames that never returned (lane_entry's) or an earlier thread's frames
    // leave poisoned shadow bytes there, which a new lane's frames would trip over.
    __asan_unpoison_memory_region(l.stack, kStack);
#endif
    l.sp = make_context(l.stack, kStack, lane_entry, &l);
  }
  for (;;) {
    for (Lane& l : lanes)
      if (l.st == LaneState::kRunnable && b.fault.empty()) resume(b, l);
    if (!b.fault.empty() || b.live == 0) break;
    bool released = false;
    for (int i = 0; i < n && b.fault.empty(); ++i) released |= try_release(b, i);
    if (b.fault.empty() && !released) set_fault(b, deadlock(b));
    if (!b.fault.empty()) break;
  }
  if (!b.fault.empty()) {  // unwind the lanes still inside the kernel
    b.aborted = true;
    for (Lane& l : lanes) {
      if (l.st == LaneState::kExited) continue;
      if (l.started)
        resume(b, l);
      else
        l.st = LaneState::kExited;
    }
  }
  fault = b.fault;
}

// Blocks are dealt to host threads; the first fault stops the grid.
std::string run_grid(const std::function<void()>& body, dim3 grid, dim3 block) {
  const unsigned nb = grid.x * grid.y * grid.z;
  int threads = dev().host_threads > 0 ? dev().host_threads : static_cast<int>(std::thread::hardware_concurrency());
  threads = std::max(1, std::min<int>(threads, static_cast<int>(nb)));
  std::atomic<unsigned> next{0};
  std::mutex mu;
  std::string first;
  auto worker = [&] {
    std::vector<Lane> lanes;
    for (unsigned bx; (bx = next.fetch_add(1)) < nb;) {
      std::string fault;
      run_block(body, grid, block, bx, lanes, fault);
      if (fault.empty()) continue;
      std::lock_guard lock(mu);
      if (first.empty()) first = fault;
      next.store(nb);
    }
  };
  std::vector<std::thread> pool;
  for (int k = 1; k < threads; ++k) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  return first;
}

}  // namespace
#endif

// ---------------------------------------------------------------------------------------
// Launches
// ---------------------------------------------------------------------------------------
void enqueue_launch(const char* kernel, dim3 grid, dim3 block, size_t smem, cudaStream_t s,
                    std::function<void()> body) {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  ++d.stats.launches;
  if (d.sticky != cudaSuccess) return void(fail(d.sticky));
  const unsigned threads = block.x * block.y * block.z;
  if (threads == 0 || threads > 1024 || grid.x * grid.y * grid.z == 0 || smem > 0) {
    fail(cudaErrorInvalidValue);
    return;
  }
  if (d.faults.launch >= 0 && d.n_launch++ == d.faults.launch) return void(fail(cudaErrorLaunchOutOfResources));
  const bool inject = d.faults.kernel >= 0 && d.n_kernel++ == d.faults.kernel;
  const cudaError_t e = submit(s, [body = std::move(body), grid, block, inject, name = std::string(kernel)] {
    auto& dv = dev();
    if (dv.sticky != cudaSuccess) return dv.sticky;
    std::string fault = inject ? std::string("injected kernel fault") : run_grid(body, grid, block);
    if (fault.empty()) return cudaSuccess;
    dv.fault = name + ": " + fault;
    dv.sticky = cudaErrorLaunchFailure;
    return cudaErrorLaunchFailure;
  });
  if (e != cudaSuccess) fail(e);
}

cudaError_t func_attributes(cudaFuncAttributes* a) {
  if (!a) return fail(cudaErrorInvalidValue);
  *a = cudaFuncAttributes{};
  a->maxThreadsPerBlock = 1024;
  a->ptxVersion = a->binaryVersion = 90;
  return cudaSuccess;
}

// ---------------------------------------------------------------------------------------
// Errors and the device
// ---------------------------------------------------------------------------------------
cudaError_t cudaGetLastError() {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  if (d.sticky != cudaSuccess) return d.sticky;
  const cudaError_t e = t_last_error;
  t_last_error = cudaSuccess;
  return e;
}

cudaError_t cudaPeekAtLastError() {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  return d.sticky != cudaSuccess ? d.sticky : t_last_error;
}

const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorNoKernelImageForDevice: return "cudaErrorNoKernelImageForDevice";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorUnknown: return "cudaErrorUnknown";
  }
  return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorLaunchFailure: {
      // The fault's description, kept per host thread so the pointer stays valid.
      thread_local std::string msg;
      auto& d = dev();
      std::lock_guard lock(d.mu);
      msg = "unspecified launch failure" + (d.fault.empty() ? std::string() : " (emulation: " + d.fault + ")");
      return msg.c_str();
    }
    default: return cudaGetErrorName(e);
  }
}

namespace {
// The query functions' common shape: a value written through a pointer that must not be null.
cudaError_t put(int* out, int value) {
  if (!out) return fail(cudaErrorInvalidValue);
  *out = value;
  return cudaSuccess;
}
}  // namespace

cudaError_t cudaGetDeviceCount(int* n) { return put(n, 1); }
cudaError_t cudaGetDevice(int* d) { return put(d, 0); }
cudaError_t cudaSetDevice(int d) { return d == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice); }

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int d) {
  if (!p) return fail(cudaErrorInvalidValue);
  if (d != 0) return fail(cudaErrorInvalidDevice);
  *p = cudaDeviceProp{};
  std::snprintf(p->name, sizeof p->name, "%s", "CPU emulation of a CUDA device");
  auto& dv = dev();
  std::lock_guard lock(dv.mu);
  p->totalGlobalMem = dv.total;
  p->sharedMemPerBlock = 48 << 10;
  p->regsPerBlock = 65536, p->warpSize = 32, p->maxThreadsPerBlock = 1024;
  p->major = 9, p->minor = 0;
  p->multiProcessorCount = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  p->clockRate = 0;
  return cudaSuccess;
}

// No CUDA runtime or driver: the emulation reports version 0.
cudaError_t cudaRuntimeGetVersion(int* v) { return put(v, 0); }
cudaError_t cudaDriverGetVersion(int* v) { return put(v, 0); }

cudaError_t cudaDeviceSynchronize() {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  ++d.stats.device_syncs;
  const cudaError_t e = flush_all();
  if (d.sticky != cudaSuccess) return d.sticky;
  return e == cudaSuccess ? cudaSuccess : fail(e);
}

// ---------------------------------------------------------------------------------------
// Memory
// ---------------------------------------------------------------------------------------
namespace {

cudaError_t allocate(void** p, size_t bytes, bool device) {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  if (!p) return fail(cudaErrorInvalidValue);
  *p = nullptr;
  if (d.sticky != cudaSuccess) return d.sticky;
  if (device) {
    ++d.stats.mallocs;
    if (d.faults.malloc >= 0 && d.n_malloc++ == d.faults.malloc) return fail(cudaErrorMemoryAllocation);
    if (std::max<size_t>(bytes, 1) > d.total - std::min(d.total, d.stats.device_bytes))
      return fail(cudaErrorMemoryAllocation);
  } else {
    ++d.stats.host_mallocs;
    if (d.faults.host_malloc >= 0 && d.n_host_malloc++ == d.faults.host_malloc) return fail(cudaErrorMemoryAllocation);
  }
  // 256-byte aligned, as cudaMalloc guarantees.
  void* q = std::aligned_alloc(256, (std::max<size_t>(bytes, 1) + 255) / 256 * 256);
  if (!q) return fail(cudaErrorMemoryAllocation);
  d.seed += 0x9e3779b97f4a7c15ull;
  fill_garbage(q, bytes, d.seed);
  const size_t size = std::max<size_t>(bytes, 1);
  d.allocs[reinterpret_cast<uintptr_t>(q)] = Allocation{size, device};
  if (device) {
    d.stats.device_bytes += size;
    d.stats.peak_device_bytes = std::max(d.stats.peak_device_bytes, d.stats.device_bytes);
  }
  *p = q;
  return cudaSuccess;
}

cudaError_t release(void* p, bool device) {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  ++d.stats.device_syncs;
  flush_all();  // cudaFree and cudaFreeHost wait for the device
  if (!p) return cudaSuccess;
  auto it = d.allocs.find(reinterpret_cast<uintptr_t>(p));
  if (it == d.allocs.end() || it->second.device != device) return fail(cudaErrorInvalidValue);
  if (device) d.stats.device_bytes -= it->second.size;
  ++d.stats.frees;
  d.allocs.erase(it);
  std::free(p);
  return cudaSuccess;
}

// Checks a copy's ranges against the allocations and its kind; returns the resolved kind.
cudaError_t check_copy(void* dst, const void* src, size_t n, cudaMemcpyKind& kind) {
  const bool dd = is_device(dst, n), sd = is_device(src, n);
  if (kind == cudaMemcpyDefault)
    kind = sd ? (dd ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost)
              : (dd ? cudaMemcpyHostToDevice : cudaMemcpyHostToHost);
  switch (kind) {
    case cudaMemcpyHostToDevice: return dd && !sd ? cudaSuccess : cudaErrorInvalidValue;
    case cudaMemcpyDeviceToHost: return sd && !dd ? cudaSuccess : cudaErrorInvalidValue;
    case cudaMemcpyDeviceToDevice: return sd && dd ? cudaSuccess : cudaErrorInvalidValue;
    case cudaMemcpyHostToHost: return !sd && !dd ? cudaSuccess : cudaErrorInvalidValue;
    default: return cudaErrorInvalidValue;
  }
}

bool inject_copy_fault() {
  auto& d = dev();
  return d.faults.copy >= 0 && d.n_copy++ == d.faults.copy;
}

}  // namespace

cudaError_t cudaMalloc(void** p, size_t bytes) { return allocate(p, bytes, true); }
cudaError_t cudaMallocHost(void** p, size_t bytes) { return allocate(p, bytes, false); }
cudaError_t cudaFree(void* p) { return release(p, true); }
cudaError_t cudaFreeHost(void* p) { return release(p, false); }

cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  if (d.sticky != cudaSuccess) return d.sticky;
  if (free_bytes) *free_bytes = d.total - std::min(d.total, d.stats.device_bytes);
  if (total_bytes) *total_bytes = d.total;
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t n, cudaMemcpyKind kind) {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  ++d.stats.sync_copies;
  if (d.sticky != cudaSuccess) return d.sticky;
  if (n == 0) return cudaSuccess;
  if (check_copy(dst, src, n, kind) != cudaSuccess) return fail(cudaErrorInvalidValue);
  if (inject_copy_fault()) return fail(cudaErrorUnknown);
  return submit(nullptr, [=] {
    std::memmove(dst, src, n);
    return cudaSuccess;
  });
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t n, cudaMemcpyKind kind, cudaStream_t s) {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  if (s) ++d.stats.async_copies;
  if (d.sticky != cudaSuccess) return d.sticky;
  if (n == 0) return cudaSuccess;
  if (check_copy(dst, src, n, kind) != cudaSuccess) return fail(cudaErrorInvalidValue);
  if (inject_copy_fault()) return fail(cudaErrorUnknown);
  if (kind == cudaMemcpyHostToDevice && !is_pinned(src, n)) {
    // Pageable source: staged before the call returns.
    auto staged = std::make_shared<std::vector<unsigned char>>(static_cast<const unsigned char*>(src),
                                                               static_cast<const unsigned char*>(src) + n);
    return submit(s, [=] {
      std::memcpy(dst, staged->data(), n);
      return cudaSuccess;
    });
  }
  const cudaError_t e = submit(s, [=] {
    std::memmove(dst, src, n);
    return cudaSuccess;
  });
  if (e != cudaSuccess || !s) return e;
  if (kind == cudaMemcpyDeviceToHost && !is_pinned(dst, n)) {
    // Pageable destination: complete before the call returns.
    const cudaError_t f = run_ops(*s, s->ops.size());
    if (f != cudaSuccess) return fail(f);
  }
  return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void* p, int value, size_t n, cudaStream_t s) {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  if (d.sticky != cudaSuccess) return d.sticky;
  if (n == 0) return cudaSuccess;
  if (!is_device(p, n)) return fail(cudaErrorInvalidValue);
  return submit(s, [=] {
    std::memset(p, value, n);
    return cudaSuccess;
  });
}
cudaError_t cudaMemset(void* p, int value, size_t n) { return cudaMemsetAsync(p, value, n, nullptr); }

// ---------------------------------------------------------------------------------------
// Streams
// ---------------------------------------------------------------------------------------
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned flags) {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  if (!s) return fail(cudaErrorInvalidValue);
  if (d.sticky != cudaSuccess) return d.sticky;
  *s = new Stream;
  (*s)->blocking = (flags & cudaStreamNonBlocking) == 0;
  d.streams.push_back(*s);
  return cudaSuccess;
}
cudaError_t cudaStreamCreate(cudaStream_t* s) { return cudaStreamCreateWithFlags(s, cudaStreamDefault); }

cudaError_t cudaStreamDestroy(cudaStream_t s) {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  if (!known_stream(s)) return fail(cudaErrorInvalidResourceHandle);
  flush(*s);  // work already enqueued still completes
  d.streams.erase(std::find(d.streams.begin(), d.streams.end(), s));
  delete s;
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  ++d.stats.stream_syncs;
  if (!s) {
    ++d.stats.legacy_stream_ops;
    flush_all();
  } else {
    if (!known_stream(s)) return fail(cudaErrorInvalidResourceHandle);
    flush(*s);
  }
  return d.sticky;
}

cudaError_t cudaStreamQuery(cudaStream_t s) {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  if (d.sticky != cudaSuccess) return d.sticky;
  if (!s) return cudaSuccess;
  if (!known_stream(s)) return fail(cudaErrorInvalidResourceHandle);
  return s->ops.empty() ? cudaSuccess : cudaErrorNotReady;
}

// ---------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------
struct Event {
  bool done = false;
  bool timing = true;
  std::chrono::steady_clock::time_point at;
};

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned flags) {
  if (!e || (flags & ~(cudaEventBlockingSync | cudaEventDisableTiming)) != 0) return fail(cudaErrorInvalidValue);
  *e = new Event;
  (*e)->timing = (flags & cudaEventDisableTiming) == 0;
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* e) { return cudaEventCreateWithFlags(e, cudaEventDefault); }

cudaError_t cudaEventDestroy(cudaEvent_t e) {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  if (!e) return fail(cudaErrorInvalidResourceHandle);
  flush_all();  // a record still queued must not write to it afterwards
  delete e;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  if (!e) return fail(cudaErrorInvalidResourceHandle);
  if (d.sticky != cudaSuccess) return d.sticky;
  e->done = false;
  return submit(s, [e] {
    e->at = std::chrono::steady_clock::now(), e->done = true;
    return cudaSuccess;
  });
}

cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  if (!e) return fail(cudaErrorInvalidResourceHandle);
  ++d.stats.event_syncs;
  flush_all();
  return d.sticky;
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  if (!ms || !start || !end) return fail(cudaErrorInvalidValue);
  if (!start->timing || !end->timing) return fail(cudaErrorInvalidResourceHandle);
  if (!start->done || !end->done) return fail(cudaErrorNotReady);
  *ms = std::chrono::duration<float, std::milli>(end->at - start->at).count();
  return cudaSuccess;
}

// ---------------------------------------------------------------------------------------
// Control (emu_control.hpp)
// ---------------------------------------------------------------------------------------
void reset() {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  flush_all();
  d.sticky = cudaSuccess;
  d.fault.clear();
  d.faults = Faults{};
  d.n_malloc = d.n_host_malloc = d.n_launch = d.n_kernel = d.n_copy = 0;
  const size_t bytes = d.stats.device_bytes;
  d.stats = Stats{};
  d.stats.device_bytes = d.stats.peak_device_bytes = bytes;
  d.total = kDefaultDeviceMemory;
  if (const char* e = std::getenv("AGATHA_EMU_DEVICE_MEMORY")) d.total = std::strtoull(e, nullptr, 10);
  t_last_error = cudaSuccess;
}

void set_device_memory(size_t total_bytes) {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  d.total = total_bytes;
}

size_t device_memory() {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  return d.total;
}

void set_faults(const Faults& f) {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  d.faults = f;
  d.n_malloc = d.n_host_malloc = d.n_launch = d.n_kernel = d.n_copy = 0;
}

Stats stats() {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  return d.stats;
}

void set_host_threads(int n) {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  d.host_threads = n;
}

std::string last_fault() {
  auto& d = dev();
  std::lock_guard lock(d.mu);
  return d.fault;
}

}  // namespace AGATHA_EMU_NS
