// kernels/gpu/dp_cuda.cu — the CUDA backend: device kernel and host launcher.
//
// Device side (one warp per warp plan, see host_plan.hpp). Sequences arrive packed 4
// bits a base, so a tile side is one 32-bit word. The warp's tasks start on
// subwarps of 8 lanes; every slice, each lane computes its tiles of the next `slice`
// tile anti-diagonals of its task (tile_task.hpp), keeping the best-cell statistics of
// the cells it computed in a per-lane rolling window; then, anti-diagonal by
// anti-diagonal, the lanes of a task publish their partial statistics, the task's
// leader merges them and finalizes the anti-diagonal (Z-drop, mqe/mte) exactly as the
// reference orders it. A finished task's leader walks the traceback on the device and
// its lanes rejoin the running task with the most work left. Lanes whose slot holds no
// running task touch no task's memory.
//
// Host side: tasks are packed per chunk, uploaded, computed and downloaded on two
// streams so a chunk's transfers overlap the other chunk's kernel; each chunk's
// results and CIGARs come back in two asynchronous copies on its own stream. A chunk
// is at most 40% of the device memory that is free or already held by this backend;
// when an allocation fails anyway the chunk is halved and retried. Every CUDA call is
// checked; failures raise agatha::Error and leave the backend idle and reusable.
//
// The same source compiles for the host emulation of CUDA (kernels/gpu/emu): there
// <cuda_runtime.h> is the emulation's, AGATHA_CUDA_NS names the namespace of this
// translation unit's backend, and the launch site below calls emu_launch.
#include "cuda_backend.hpp"

#include <agatha/error.hpp>

#include "../traceback.hpp"
#include "arch_select.hpp"
#include "host_plan.hpp"

#include <cuda_runtime.h>

#include <cstring>
#include <string>
#include <vector>

#if !defined(AGATHA_CUDA_NS)
#define AGATHA_CUDA_NS cuda
#endif
// The architectures nvcc was asked to embed (set by meson.build).
#if !defined(AGATHA_CUDA_SASS)
#define AGATHA_CUDA_SASS ""
#endif
#if !defined(AGATHA_CUDA_PTX)
#define AGATHA_CUDA_PTX ""
#endif

namespace agatha::gpu::AGATHA_CUDA_NS {
namespace {

// The tuning (policy.hpp), as compile-time constants.
constexpr int kWarp = kTilePolicy.warp;
constexpr int kSubwarp = kTilePolicy.subwarp;
constexpr int kSlots = kTilePolicy.slots();  // tasks a warp starts with
constexpr int kSlice = kTilePolicy.slice;
constexpr int kRing = ring_size(kSlice);
constexpr int kWarpsPerBlock = kTilePolicy.warps_per_block;
static_assert(kWarp == 32 && kSubwarp < kWarp && kWarp % kSubwarp == 0,
              "a slot's lanes are kSubwarp consecutive bits of a 32-lane mask (WarpState::lanes)");

// A device allocation that failed: the launcher retries with a smaller chunk.
class OutOfDeviceMemory : public Error {
 public:
  using Error::Error;
};

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(e));
}

// Per-task device addresses, filled by the host.
struct DeviceTask {
  TaskParams p;
  const uint32_t* tpack;  // 4-bit packed target, 8 bases a word
  const uint32_t* qpack;  // 4-bit packed query
  ColState* col;
  RowState* row;
  uint8_t* dir;
  int8_t* uv;
  const int64_t* row_off;
  uint32_t* cigar;  // room for qlen + tlen + 2 operations
};

struct DeviceResult {
  Progress prog;
  int32_t n_cigar;
  bool reach_end;
};

// Which slot (task) each lane works for, and the slot states, in shared memory.
struct WarpState {
  uint32_t lanes[kSlots];  // lane mask of each slot's group
  int32_t task[kSlots];    // task index, -1 when the slot is empty
  int32_t next_d[kSlots];
  bool running[kSlots];
  RStat part[kWarp];  // partial statistics published for a merge
};

// Flags written by one lane and read by others after a __syncwarp: read through
// volatile so the compiler cannot reuse an earlier load.
__device__ bool read_flag(const bool& f) { return *static_cast<const volatile bool*>(&f); }
template <class T>
__device__ T read_shared(const T& v) {
  return *static_cast<const volatile T*>(&v);
}

__device__ void device_traceback(const DeviceTask& dt, const TileLayout& l, const TaskMem& m, Progress& s,
                                 DeviceResult& out) {
  out.n_cigar = 0, out.reach_end = false;
  if (!dt.p.with_cigar) return;
  const bool extz = dt.p.extz_only;
  int32_t i0, j0;
  if (!s.zdropped && !extz) {
    i0 = dt.p.tlen - 1, j0 = dt.p.qlen - 1;
  } else if (!s.zdropped && extz && kernels::end_bonus_wins(s.mqe, dt.p.end_bonus, s.max)) {
    out.reach_end = true;
    i0 = s.mqe_t, j0 = dt.p.qlen - 1;
  } else if (s.max_t >= 0 && s.max_q >= 0) {
    i0 = s.max_t, j0 = s.max_q;
  } else {
    return;
  }
  auto dir = [&](int32_t i, int32_t j) { return dir_at(l, m, i, j); };
  auto range = [&](int32_t r, int32_t& st, int32_t& en) {
    const Range g = range_of(dt.p, r);
    st = g.st, en = g.en;
  };
  out.n_cigar = kernels::walk_back(i0, j0, dt.p.rev_cigar, dir, range, dt.cigar);
}

__global__ void __launch_bounds__(kWarp* kWarpsPerBlock)
    tile_dp_kernel(const DeviceTask* tasks, const int32_t* plan, int32_t n_warps, DeviceResult* results) {
  __shared__ WarpState shared[kWarpsPerBlock];
  const int32_t warp = blockIdx.x * kWarpsPerBlock + threadIdx.x / kWarp;
  if (warp >= n_warps) return;  // whole warps exit together
  const int32_t lane = threadIdx.x % kWarp;
  WarpState& ws = shared[threadIdx.x / kWarp];
  RStat window[kRing];
  for (int k = 0; k < kRing; ++k) rstat_reset(window[k]);

  if (lane < kSlots) {
    const int32_t t = plan[warp * kSlots + lane];
    ws.task[lane] = t, ws.next_d[lane] = 0, ws.running[lane] = t >= 0;
    ws.lanes[lane] = ((1u << kSubwarp) - 1) << (kSubwarp * lane);
    if (t >= 0) {
      progress_init(results[t].prog);
      results[t].n_cigar = 0, results[t].reach_end = false;
      if (!tasks[t].p.active) results[t].prog.done = true, ws.running[lane] = false;
    }
  }
  __syncwarp();
  int32_t slot = lane / kSubwarp;

  for (;;) {
    bool any = false;
    for (int k = 0; k < kSlots; ++k) any |= read_flag(ws.running[k]);
    if (!any) break;
    // A lane whose slot runs no task (never filled, or just finished) computes nothing
    // and reads no task until it rejoins; it still meets every barrier.
    const bool mine = read_flag(ws.running[slot]);
    const int32_t ti = mine ? read_shared(ws.task[slot]) : -1;
    const DeviceTask* dt = mine ? &tasks[ti] : nullptr;
    Progress* prog = mine ? &results[ti].prog : nullptr;
    TileLayout l{};
    TaskMem m{};
    uint32_t group = 0;
    int32_t rank = 0, n_lanes = 0, nd = 0, next_d = 0;
    if (mine) {
      l = make_layout(dt->p);
      m = TaskMem{dt->col, dt->row, dt->dir, dt->uv, dt->row_off, nullptr};
      group = read_shared(ws.lanes[slot]);
      rank = __popc(group & ((1u << lane) - 1)), n_lanes = __popc(group);
      nd = n_tile_diagonals(l);
      next_d = read_shared(ws.next_d[slot]);
    }
    // Phase 1: a slice of tile anti-diagonals; all lanes take the same number of steps.
    for (int step = 0; step < kSlice; ++step) {
      const int32_t D = next_d + step;
      if (mine && D < nd)
        for_lane_tiles(l, D, rank, n_lanes, [&](int32_t T, int32_t J) {
          compute_tile(dt->p, l, dt->tpack, dt->qpack, m, T, J, window, kRing);
        });
      __syncwarp();
    }
    // Phase 2: finalize completed anti-diagonals in order, one per round for every task.
    const int32_t d_last = imin(next_d + kSlice, nd) - 1;
    int32_t r_last = -1, r0 = 0, rounds = 0;
    if (mine) {
      const int32_t r_end = dt->p.qlen + dt->p.tlen - 2;
      r_last = d_last == nd - 1 ? r_end : imin(kTile * d_last + kTile - 1, r_end);
      r0 = read_shared(prog->next_r);
      rounds = imax(0, r_last - r0 + 1);
    }
    for (int off = 16; off > 0; off >>= 1) rounds = imax(rounds, __shfl_xor_sync(0xffffffffu, rounds, off));
    __syncwarp();
    for (int32_t i = 0; i < rounds; ++i) {
      const int32_t r = r0 + i;
      const bool live = mine && r <= r_last && !read_flag(prog->done);
      if (live) {
        ws.part[lane] = window[r % kRing];
        rstat_reset(window[r % kRing]);
      }
      __syncwarp();
      if (live && rank == 0) {
        RStat stat;
        rstat_reset(stat);
        for (int k = 0; k < kWarp; ++k)
          if (group >> k & 1) rstat_merge(stat, ws.part[k]);
        finalize_r(dt->p, l, m, r, stat, *prog);
        prog->next_r = r + 1;
      }
      __syncwarp();
    }
    // Phase 3: advance, finish, rejoin (uniform control flow around the barrier).
    if (mine && rank == 0) {
      ws.next_d[slot] = d_last + 1;
      if (prog->done) {
        device_traceback(*dt, l, m, *prog, results[ti]);
        ws.running[slot] = false;
      }
    }
    __syncwarp();
    const bool freed = !read_flag(ws.running[slot]);
    int32_t target = -1;
    if (freed) {
      for (int k = 0; k < kRing; ++k) rstat_reset(window[k]);  // drop run-ahead statistics
      int32_t remaining[kSlots];
      bool running[kSlots];
      for (int k = 0; k < kSlots; ++k) {
        running[k] = read_flag(ws.running[k]);
        remaining[k] = running[k] ? n_tile_diagonals(make_layout(tasks[ws.task[k]].p)) - ws.next_d[k] : 0;
      }
      target = rejoin_target(remaining, running, kSlots);
    }
    __syncwarp();
    if (freed && target >= 0) {
      // The freed lanes of this slot that are still together: one of them adds them all.
      const uint32_t mates = read_shared(ws.lanes[slot]);
      if (lane == __ffs(static_cast<int>(mates)) - 1) atomicOr(&ws.lanes[target], mates);
      slot = target;
    }
    __syncwarp();
  }
}

// ---------------------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------------------
// A growable CUDA allocation that keeps its capacity: device memory (cudaMalloc) or
// pinned host memory for asynchronous copies (cudaMallocHost). A failed allocation
// throws OutOfDeviceMemory and clears the runtime's last-error state, so the error is
// not reported again by a later check.
enum class Memory { kDevice, kPinnedHost };

template <class T, Memory M>
class CudaBuffer {
 public:
  CudaBuffer() = default;
  ~CudaBuffer() { release(); }
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;
  T* get() const { return p_; }
  size_t bytes() const { return n_ * sizeof(T); }
  void ensure(size_t n) {
    if (n <= n_) return;
    release();
    void* p = nullptr;
    const size_t bytes = std::max<size_t>(n, 1) * sizeof(T);
    const cudaError_t e = M == Memory::kDevice ? cudaMalloc(&p, bytes) : cudaMallocHost(&p, bytes);
    if (e == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      throw OutOfDeviceMemory(std::string("CUDA: ") + (M == Memory::kDevice ? "cudaMalloc" : "cudaMallocHost") +
                              " of " + std::to_string(bytes) + " bytes: " + cudaGetErrorString(e));
    }
    check(e, M == Memory::kDevice ? "cudaMalloc" : "cudaMallocHost");
    p_ = static_cast<T*>(p), n_ = n;
  }
  void release() {
    if (!p_) return;
    if constexpr (M == Memory::kDevice)
      cudaFree(p_);
    else
      cudaFreeHost(p_);
    p_ = nullptr, n_ = 0;
  }

 private:
  T* p_ = nullptr;
  size_t n_ = 0;
};

template <class T>
using DeviceBuffer = CudaBuffer<T, Memory::kDevice>;
template <class T>
using PinnedBuffer = CudaBuffer<T, Memory::kPinnedHost>;

size_t align8(size_t n) { return (n + 7) / 8 * 8; }

// Bytes of one task: `in` is uploaded (sequences, tile-row offsets), `work` is
// device-only (column/row states, direction bytes, APPROX_MAX u/v), `cigar` is written
// by the device and downloaded.
struct TaskSize {
  size_t in = 0, work = 0, cigar = 0;
  size_t seq = 0, tseq = 0, row_off = 0, col = 0, row = 0, dir = 0, uv = 0;
};

TaskSize task_size(const TaskParams& p) {
  TaskSize s;
  s.tseq = sizeof(uint32_t) * packed_words(static_cast<size_t>(p.tlen));
  s.seq = align8(s.tseq + sizeof(uint32_t) * packed_words(static_cast<size_t>(p.qlen)));
  if (p.active) {
    const TileLayout l = make_layout(p);
    const size_t tiles = static_cast<size_t>(tile_row_offsets(l).back());
    s.row_off = sizeof(int64_t) * (l.n_j + 1);
    s.col = align8(sizeof(ColState) * p.tlen);
    s.row = align8(sizeof(RowState) * p.qlen);
    s.cigar = p.with_cigar ? align8(sizeof(uint32_t) * (static_cast<size_t>(p.qlen) + p.tlen + 2)) : 0;
    s.dir = p.with_cigar ? align8(tiles * kTile * kTile) : 0;
    s.uv = p.approx_max ? tiles * kTile * kTile * 2 : 0;
  }
  s.in = s.seq + s.row_off;
  s.work = s.col + s.row + s.dir + s.uv;
  return s;
}

// Device bytes a chunk needs for one task.
size_t task_cost(const TaskSize& s) {
  return s.in + s.work + s.cigar + sizeof(DeviceTask) + sizeof(DeviceResult) + sizeof(int32_t) + 32;
}

// One of two pipeline stages: a stream with its own device and pinned buffers, so one
// chunk's transfers overlap the other chunk's kernel.
struct Stage {
  cudaStream_t stream = nullptr;
  DeviceBuffer<uint64_t> in, work, cigar;
  DeviceBuffer<DeviceTask> tasks;
  DeviceBuffer<DeviceResult> res;
  DeviceBuffer<int32_t> plan;
  PinnedBuffer<uint8_t> h_in;
  PinnedBuffer<uint64_t> h_cigar;
  PinnedBuffer<DeviceResult> h_res;
  PinnedBuffer<int32_t> h_plan;
  std::vector<DeviceTask> dt;
  std::vector<size_t> cigar_at;  // offset of each task's CIGAR in cigar / h_cigar (words)
  size_t lo = 0, n = 0;          // the chunk in flight
  bool busy = false;

  size_t device_bytes() const {
    return in.bytes() + work.bytes() + cigar.bytes() + tasks.bytes() + res.bytes() + plan.bytes();
  }
  void release_device() {
    in.release(), work.release(), cigar.release(), tasks.release(), res.release(), plan.release();
  }
};

class CudaBackend final : public DpBackend {
 public:
  CudaBackend() {
    std::string why;
    if (!device_available(&why)) throw Error("no usable CUDA device: " + why);
    for (Stage& st : stages_) check(cudaStreamCreateWithFlags(&st.stream, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  ~CudaBackend() override {
    for (Stage& st : stages_)
      if (st.stream) cudaStreamSynchronize(st.stream), cudaStreamDestroy(st.stream);
  }
  std::string name() const override {
#if defined(AGATHA_CUDA_EMULATION)
    return "gpu-emu";
#else
    return "gpu";
#endif
  }

  void run(std::span<const DpTask> tasks, std::span<DpResult> results) override {
    if (results.size() != tasks.size()) throw Error("DpBackend::run: results and tasks differ in size");
    try {
      run_chunks(tasks, results);
    } catch (...) {
      abandon();
      throw;
    }
  }

 private:
  void run_chunks(std::span<const DpTask> tasks, std::span<DpResult> results) {
    const size_t n = tasks.size();
    std::vector<TaskParams> params(n);
    std::vector<TaskSize> sizes(n);
    for (size_t i = 0; i < n; ++i) params[i] = make_params(tasks[i]), sizes[i] = task_size(params[i]);
    size_t free_b = 0, total_b = 0;
    check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    // Two stages in flight, each within 40% of the memory that is free or already held
    // by this backend's buffers (which a chunk reuses or replaces).
    size_t held = 0;
    for (const Stage& st : stages_) held += st.device_bytes();
    size_t budget = (free_b + held) / 10 * 4;
    size_t k = 0;
    for (size_t lo = 0; lo < n;) {
      size_t hi = lo, used = 0;
      while (hi < n && (hi == lo || used + task_cost(sizes[hi]) <= budget)) used += task_cost(sizes[hi++]);
      if (used > budget)
        throw Error("GPU: DP task " + std::to_string(lo) + " needs " + std::to_string(used) +
                    " bytes of device memory; " + std::to_string(budget) + " are available to one batch");
      Stage& st = stages_[k % 2];
      if (st.busy) harvest(st, results);
      try {
        launch(st, tasks, params, sizes, lo, hi);
      } catch (const OutOfDeviceMemory& e) {
        if (hi - lo == 1) throw Error(std::string("GPU: DP task ") + std::to_string(lo) + ": " + e.what());
        // Free what both stages hold and retry this chunk at half its size (its first
        // task alone at least).
        for (Stage& s : stages_) {
          if (s.busy) harvest(s, results);
          s.release_device();
        }
        budget = std::max(used / 2, task_cost(sizes[lo]));
        continue;
      }
      lo = hi, ++k;
    }
    for (Stage& st : stages_)
      if (st.busy) harvest(st, results);
  }

  // After a failure: waits for whatever the stages still have in flight and forgets it,
  // so the next run starts clean; the runtime's last-error state is cleared.
  void abandon() {
    for (Stage& st : stages_) {
      if (st.busy) cudaStreamSynchronize(st.stream);
      st.busy = false, st.n = 0;
    }
    cudaGetLastError();
  }

  void launch(Stage& st, std::span<const DpTask> tasks, const std::vector<TaskParams>& params,
              const std::vector<TaskSize>& sizes, size_t lo, size_t hi) {
    const size_t n = hi - lo;
    size_t in_total = 0, work_total = 0, cigar_total = 0;
    for (size_t i = lo; i < hi; ++i) in_total += sizes[i].in, work_total += sizes[i].work, cigar_total += sizes[i].cigar;
    st.in.ensure(in_total / 8 + 1);
    st.work.ensure(work_total / 8 + 1);
    st.cigar.ensure(cigar_total / 8 + 1);
    st.tasks.ensure(n);
    st.res.ensure(n);
    st.h_in.ensure(in_total + 8);
    st.h_cigar.ensure(cigar_total / 8 + 1);
    st.h_res.ensure(n);
    st.dt.assign(n, DeviceTask{});
    st.cigar_at.assign(n, 0);
    uint8_t* in = reinterpret_cast<uint8_t*>(st.in.get());
    uint8_t* work = reinterpret_cast<uint8_t*>(st.work.get());
    uint8_t* cig = reinterpret_cast<uint8_t*>(st.cigar.get());
    std::vector<int64_t> cells(n);
    size_t at_in = 0, at_work = 0, at_cigar = 0;
    for (size_t k = 0; k < n; ++k) {
      const TaskParams& p = params[lo + k];
      const TaskSize& s = sizes[lo + k];
      DeviceTask& d = st.dt[k];
      d.p = p;
      const auto tw = pack_bases(tasks[lo + k].target), qw = pack_bases(tasks[lo + k].query);
      uint8_t* h = st.h_in.get() + at_in;
      std::memcpy(h, tw.data(), tw.size() * sizeof(uint32_t));
      std::memcpy(h + s.tseq, qw.data(), qw.size() * sizeof(uint32_t));
      d.tpack = reinterpret_cast<const uint32_t*>(in + at_in);
      d.qpack = reinterpret_cast<const uint32_t*>(in + at_in + s.tseq);
      if (p.active) {
        const auto off = tile_row_offsets(make_layout(p));
        std::memcpy(h + s.seq, off.data(), s.row_off);
      }
      d.row_off = reinterpret_cast<const int64_t*>(in + at_in + s.seq);
      at_in += s.in;
      d.col = reinterpret_cast<ColState*>(work + at_work);
      d.row = reinterpret_cast<RowState*>(work + at_work + s.col);
      d.dir = work + at_work + s.col + s.row;
      d.uv = reinterpret_cast<int8_t*>(work + at_work + s.col + s.row + s.dir);
      at_work += s.work;
      d.cigar = reinterpret_cast<uint32_t*>(cig + at_cigar);
      st.cigar_at[k] = at_cigar / sizeof(uint32_t);
      at_cigar += s.cigar;
      cells[k] = tile_cells(p);
    }
    const auto warps = plan_warps(cells, kSlots);
    const size_t plan_n = warps.size() * kSlots;
    st.plan.ensure(plan_n);
    st.h_plan.ensure(plan_n);
    int32_t* plan = st.h_plan.get();
    std::fill(plan, plan + plan_n, -1);
    for (size_t w = 0; w < warps.size(); ++w)
      for (size_t j = 0; j < warps[w].size(); ++j) plan[w * kSlots + j] = static_cast<int32_t>(warps[w][j]);
    // st.dt is pageable: that copy is staged before the call returns.
    check(cudaMemcpyAsync(st.in.get(), st.h_in.get(), in_total, cudaMemcpyHostToDevice, st.stream), "upload");
    check(cudaMemcpyAsync(st.tasks.get(), st.dt.data(), n * sizeof(DeviceTask), cudaMemcpyHostToDevice, st.stream),
          "upload tasks");
    check(cudaMemcpyAsync(st.plan.get(), plan, plan_n * sizeof(int32_t), cudaMemcpyHostToDevice, st.stream),
          "upload plan");
    const int32_t n_warps = static_cast<int32_t>(warps.size());
    const int32_t blocks = (n_warps + kWarpsPerBlock - 1) / kWarpsPerBlock;
#if defined(AGATHA_CUDA_EMULATION)
    emu_launch(tile_dp_kernel, dim3(blocks), dim3(kWarp * kWarpsPerBlock), 0, st.stream, st.tasks.get(),
               st.plan.get(), n_warps, st.res.get());
#else
    tile_dp_kernel<<<blocks, kWarp * kWarpsPerBlock, 0, st.stream>>>(st.tasks.get(), st.plan.get(), n_warps,
                                                                     st.res.get());
#endif
    check(cudaGetLastError(), "kernel launch");
    check(cudaMemcpyAsync(st.h_res.get(), st.res.get(), n * sizeof(DeviceResult), cudaMemcpyDeviceToHost, st.stream),
          "download results");
    if (cigar_total > 0)
      check(cudaMemcpyAsync(st.h_cigar.get(), st.cigar.get(), cigar_total, cudaMemcpyDeviceToHost, st.stream),
            "download CIGARs");
    st.lo = lo, st.n = n, st.busy = true;
  }

  void harvest(Stage& st, std::span<DpResult> results) {
    st.busy = false;
    check(cudaStreamSynchronize(st.stream), "DP kernel");
    const uint32_t* cig = reinterpret_cast<const uint32_t*>(st.h_cigar.get());
    for (size_t k = 0; k < st.n; ++k) {
      const DeviceResult& dr = st.h_res.get()[k];
      DpResult& r = results[st.lo + k];
      r = DpResult{};
      const Progress& s = dr.prog;
      r.score = s.score, r.max = s.max, r.max_q = s.max_q, r.max_t = s.max_t;
      r.mqe = s.mqe, r.mqe_t = s.mqe_t, r.mte = s.mte, r.mte_q = s.mte_q;
      r.zdropped = s.zdropped, r.reach_end = dr.reach_end, r.cells = s.cells;
      if (dr.n_cigar > 0) {
        const uint32_t* c = cig + st.cigar_at[k];
        r.cigar.assign(c, c + dr.n_cigar);
      }
    }
    st.n = 0;
  }

  Stage stages_[2];
};

}  // namespace

std::vector<int> built_sass() { return parse_arch_list(AGATHA_CUDA_SASS); }
std::vector<int> built_ptx() { return parse_arch_list(AGATHA_CUDA_PTX); }

DeviceInfo device_info() {
  DeviceInfo d;
#if defined(AGATHA_CUDA_EMULATION)
  d.emulated = true;
#endif
  d.sass = built_sass(), d.ptx = built_ptx();
  cudaRuntimeGetVersion(&d.runtime_version);
  cudaDriverGetVersion(&d.driver_version);
  const cudaError_t e = cudaGetDeviceCount(&d.device_count);
  if (e != cudaSuccess) {
    d.why = cudaGetErrorString(e);
    d.device_count = 0;
    cudaGetLastError();  // clear the error
    return d;
  }
  if (d.device_count == 0) {
    d.why = "no CUDA device found";
    return d;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    d.why = "cudaGetDeviceProperties failed";
    cudaGetLastError();
    return d;
  }
  d.name = prop.name;
  d.cc = prop.major * 10 + prop.minor;
  d.memory = prop.totalGlobalMem;
  d.multiprocessors = prop.multiProcessorCount;
  cudaFuncAttributes a{};
  const cudaError_t fe = cudaFuncGetAttributes(&a, tile_dp_kernel);
  if (fe != cudaSuccess) {
    cudaGetLastError();
    d.why = "this build holds no kernel image for compute capability " + std::to_string(d.cc / 10) + "." +
            std::to_string(d.cc % 10) + " (SASS: " + join_archs(d.sass, "sm_") + "; PTX: " +
            join_archs(d.ptx, "compute_") + "): " + cudaGetErrorString(fe);
    return d;
  }
  if (d.emulated)
    d.image = "host emulation";
  else
    d.image = describe(pick_image(d.sass, d.ptx, d.cc)) + " (loaded: binary " + std::to_string(a.binaryVersion) +
              ", PTX " + std::to_string(a.ptxVersion) + ")";
  d.usable = true;
  return d;
}

bool device_available(std::string* why) {
  const DeviceInfo d = device_info();
  if (!d.usable && why) *why = d.why;
  return d.usable;
}

std::unique_ptr<DpBackend> make_backend() { return std::make_unique<CudaBackend>(); }

}  // namespace agatha::gpu::AGATHA_CUDA_NS
