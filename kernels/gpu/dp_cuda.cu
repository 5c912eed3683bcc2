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
// its lanes rejoin the running task with the most work left.
//
// Host side: tasks are packed per chunk (device memory is checked first and a batch
// that does not fit is split), uploaded, computed and downloaded on two streams so a
// chunk's transfers overlap the previous chunk's kernel. Every CUDA call is checked;
// failures raise agatha::Error.
#include "cuda_backend.hpp"

#include <agatha/error.hpp>

#include "../traceback.hpp"
#include "host_plan.hpp"

#include <cuda_runtime.h>

#include <cstring>
#include <string>
#include <vector>

namespace agatha::gpu {
namespace {

constexpr int kWarp = 32;
constexpr int kSubwarp = 8;
constexpr int kSlots = kWarp / kSubwarp;  // tasks a warp starts with
constexpr int kSlice = 3;
constexpr int kRing = kTile * (kSlice + 1);
constexpr int kWarpsPerBlock = 4;

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
  } else if (!s.zdropped && extz && s.mqe + dt.p.end_bonus > s.max) {
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
    ws.lanes[lane] = 0xffu << (kSubwarp * lane);
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
    const bool mine = read_flag(ws.running[slot]);
    const DeviceTask& dt = tasks[ws.task[slot] < 0 ? 0 : ws.task[slot]];
    const TileLayout l = make_layout(dt.p);
    TaskMem m{dt.col, dt.row, dt.dir, dt.uv, dt.row_off, nullptr};
    const uint32_t group = read_shared(ws.lanes[slot]);
    const int32_t rank = __popc(group & ((1u << lane) - 1)), n_lanes = __popc(group);
    const int32_t nd = n_tile_diagonals(l);
    // Phase 1: a slice of tile anti-diagonals; all lanes take the same number of steps.
    for (int step = 0; step < kSlice; ++step) {
      const int32_t D = read_shared(ws.next_d[slot]) + step;
      if (mine && D < nd)
        for_lane_tiles(l, D, rank, n_lanes, [&](int32_t T, int32_t J) {
          compute_tile(dt.p, l, dt.tpack, dt.qpack, m, T, J, window, kRing);
        });
      __syncwarp();
    }
    // Phase 2: finalize completed anti-diagonals in order, one per round for every task.
    const int32_t d_last = imin(read_shared(ws.next_d[slot]) + kSlice, nd) - 1;
    Progress& prog = results[ws.task[slot] < 0 ? 0 : ws.task[slot]].prog;
    const int32_t r_end = dt.p.qlen + dt.p.tlen - 2;
    const int32_t r_last = d_last == nd - 1 ? r_end : imin(kTile * d_last + kTile - 1, r_end);
    int32_t rounds = mine ? imax(0, r_last - read_shared(prog.next_r) + 1) : 0;
    for (int off = 16; off > 0; off >>= 1) rounds = imax(rounds, __shfl_xor_sync(0xffffffffu, rounds, off));
    const int32_t r0 = read_shared(prog.next_r);
    __syncwarp();
    for (int32_t i = 0; i < rounds; ++i) {
      const int32_t r = r0 + i;
      const bool live = mine && r <= r_last && !read_flag(prog.done);
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
        finalize_r(dt.p, l, m, r, stat, prog);
        prog.next_r = r + 1;
      }
      __syncwarp();
    }
    // Phase 3: advance, finish, rejoin (uniform control flow around the barrier).
    if (mine && rank == 0) {
      ws.next_d[slot] = d_last + 1;
      if (prog.done) {
        device_traceback(dt, l, m, prog, results[ws.task[slot]]);
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
      if (lane == __ffs(group) - 1) atomicOr(&ws.lanes[target], group);
      slot = target;
    }
    __syncwarp();
  }
}

// ---------------------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------------------
// A growable CUDA allocation that keeps its capacity: device memory (cudaMalloc) or
// pinned host memory for asynchronous copies (cudaMallocHost).
enum class Memory { kDevice, kPinnedHost };

template <class T, Memory M>
class CudaBuffer {
 public:
  CudaBuffer() = default;
  ~CudaBuffer() { release(); }
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;
  T* get() const { return p_; }
  void ensure(size_t n) {
    if (n <= n_) return;
    release();
    void* p = nullptr;
    const size_t bytes = std::max<size_t>(n, 1) * sizeof(T);
    if constexpr (M == Memory::kDevice)
      check(cudaMalloc(&p, bytes), "cudaMalloc");
    else
      check(cudaMallocHost(&p, bytes), "cudaMallocHost");
    p_ = static_cast<T*>(p), n_ = n;
  }

 private:
  void release() {
    if (!p_) return;
    if constexpr (M == Memory::kDevice)
      cudaFree(p_);
    else
      cudaFreeHost(p_);
    p_ = nullptr, n_ = 0;
  }
  T* p_ = nullptr;
  size_t n_ = 0;
};

template <class T>
using DeviceBuffer = CudaBuffer<T, Memory::kDevice>;
template <class T>
using PinnedBuffer = CudaBuffer<T, Memory::kPinnedHost>;

size_t align8(size_t n) { return (n + 7) / 8 * 8; }

// Device bytes of one task: `in` is uploaded (sequences, tile-row offsets), `work` is
// device-only (column/row states, CIGAR, direction bytes, APPROX_MAX u/v).
struct TaskSize {
  size_t in = 0, work = 0;
  size_t seq = 0, row_off = 0, col = 0, row = 0, cigar = 0, dir = 0, uv = 0;
};

TaskSize task_size(const TaskParams& p) {
  TaskSize s;
  auto words = [](int32_t n) { return sizeof(uint32_t) * (static_cast<size_t>(n) / kTile + 1); };
  s.seq = align8(words(p.tlen) + words(p.qlen));
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
  s.work = s.col + s.row + s.cigar + s.dir + s.uv;
  return s;
}

// One of two pipeline stages: a stream with its own device and pinned buffers, so one
// chunk's transfers overlap the other chunk's kernel.
struct Stage {
  cudaStream_t stream = nullptr;
  DeviceBuffer<uint64_t> in, work;
  DeviceBuffer<DeviceTask> tasks;
  DeviceBuffer<DeviceResult> res;
  DeviceBuffer<int32_t> plan;
  PinnedBuffer<uint8_t> h_in;
  PinnedBuffer<DeviceResult> h_res;
  std::vector<DeviceTask> dt;
  size_t lo = 0, n = 0;  // the chunk in flight
  bool busy = false;
};

class CudaBackend final : public DpBackend {
 public:
  CudaBackend() {
    std::string why;
    if (!cuda_device_available(&why)) throw Error("no usable CUDA device: " + why);
    for (Stage& st : stages_) check(cudaStreamCreate(&st.stream), "cudaStreamCreate");
  }
  ~CudaBackend() override {
    for (Stage& st : stages_)
      if (st.stream) cudaStreamDestroy(st.stream);
  }
  std::string name() const override { return "gpu"; }

  void run(std::span<const DpTask> tasks, std::span<DpResult> results) override {
    if (results.size() != tasks.size()) throw Error("DpBackend::run: results and tasks differ in size");
    const size_t n = tasks.size();
    std::vector<TaskParams> params(n);
    std::vector<TaskSize> sizes(n);
    for (size_t i = 0; i < n; ++i) params[i] = make_params(tasks[i]), sizes[i] = task_size(params[i]);
    size_t free_b = 0, total_b = 0;
    check(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    // Two stages in flight, each within 40% of the free memory.
    const size_t budget = free_b / 10 * 4;
    size_t k = 0;
    for (size_t lo = 0; lo < n; ++k) {
      size_t hi = lo, used = 0;
      auto cost = [&](size_t i) {
        return sizes[i].in + sizes[i].work + sizeof(DeviceTask) + sizeof(DeviceResult) + 32;
      };
      while (hi < n && (hi == lo || used + cost(hi) <= budget)) used += cost(hi++);
      if (used > budget)
        throw Error("GPU: DP task " + std::to_string(lo) + " needs " + std::to_string(used) +
                    " bytes of device memory; " + std::to_string(budget) + " are available to one batch");
      Stage& st = stages_[k % 2];
      if (st.busy) harvest(st, results);
      launch(st, tasks, params, sizes, lo, hi);
      lo = hi;
    }
    for (Stage& st : stages_)
      if (st.busy) harvest(st, results);
  }

 private:
  void launch(Stage& st, std::span<const DpTask> tasks, const std::vector<TaskParams>& params,
              const std::vector<TaskSize>& sizes, size_t lo, size_t hi) {
    const size_t n = hi - lo;
    size_t in_total = 0, work_total = 0;
    for (size_t i = lo; i < hi; ++i) in_total += sizes[i].in, work_total += sizes[i].work;
    st.in.ensure(in_total / 8 + 1);
    st.work.ensure(work_total / 8 + 1);
    st.tasks.ensure(n);
    st.res.ensure(n);
    st.h_in.ensure(in_total + 8);
    st.h_res.ensure(n);
    st.dt.assign(n, DeviceTask{});
    uint8_t* in = reinterpret_cast<uint8_t*>(st.in.get());
    uint8_t* work = reinterpret_cast<uint8_t*>(st.work.get());
    std::vector<int64_t> cells(n);
    size_t at_in = 0, at_work = 0;
    for (size_t k = 0; k < n; ++k) {
      const TaskParams& p = params[lo + k];
      const TaskSize& s = sizes[lo + k];
      DeviceTask& d = st.dt[k];
      d.p = p;
      const auto tw = pack_bases(tasks[lo + k].target), qw = pack_bases(tasks[lo + k].query);
      std::memcpy(st.h_in.get() + at_in, tw.data(), tw.size() * sizeof(uint32_t));
      std::memcpy(st.h_in.get() + at_in + tw.size() * sizeof(uint32_t), qw.data(), qw.size() * sizeof(uint32_t));
      d.tpack = reinterpret_cast<const uint32_t*>(in + at_in);
      d.qpack = reinterpret_cast<const uint32_t*>(in + at_in + tw.size() * sizeof(uint32_t));
      if (p.active) {
        const auto off = tile_row_offsets(make_layout(p));
        std::memcpy(st.h_in.get() + at_in + s.seq, off.data(), s.row_off);
      }
      d.row_off = reinterpret_cast<const int64_t*>(in + at_in + s.seq);
      at_in += s.in;
      d.col = reinterpret_cast<ColState*>(work + at_work);
      d.row = reinterpret_cast<RowState*>(work + at_work + s.col);
      d.cigar = reinterpret_cast<uint32_t*>(work + at_work + s.col + s.row);
      d.dir = work + at_work + s.col + s.row + s.cigar;
      d.uv = reinterpret_cast<int8_t*>(work + at_work + s.col + s.row + s.cigar + s.dir);
      at_work += s.work;
      cells[k] = tile_cells(p);
    }
    const auto warps = plan_warps(cells, kSlots);
    std::vector<int32_t> plan(warps.size() * kSlots, -1);
    for (size_t w = 0; w < warps.size(); ++w)
      for (size_t j = 0; j < warps[w].size(); ++j) plan[w * kSlots + j] = static_cast<int32_t>(warps[w][j]);
    st.plan.ensure(plan.size());
    check(cudaMemcpyAsync(st.in.get(), st.h_in.get(), in_total, cudaMemcpyHostToDevice, st.stream), "upload");
    check(cudaMemcpyAsync(st.tasks.get(), st.dt.data(), n * sizeof(DeviceTask), cudaMemcpyHostToDevice, st.stream),
          "upload tasks");
    check(cudaMemcpyAsync(st.plan.get(), plan.data(), plan.size() * sizeof(int32_t), cudaMemcpyHostToDevice, st.stream),
          "upload plan");
    const int32_t n_warps = static_cast<int32_t>(warps.size());
    const int32_t blocks = (n_warps + kWarpsPerBlock - 1) / kWarpsPerBlock;
    tile_dp_kernel<<<blocks, kWarp * kWarpsPerBlock, 0, st.stream>>>(st.tasks.get(), st.plan.get(), n_warps,
                                                                     st.res.get());
    check(cudaGetLastError(), "kernel launch");
    check(cudaMemcpyAsync(st.h_res.get(), st.res.get(), n * sizeof(DeviceResult), cudaMemcpyDeviceToHost, st.stream),
          "download results");
    // (cudaMemcpyAsync from pageable memory returns once the source is staged, so the
    // local plan vector may go.)
    st.lo = lo, st.n = n, st.busy = true;
  }

  void harvest(Stage& st, std::span<DpResult> results) {
    check(cudaStreamSynchronize(st.stream), "DP kernel");
    for (size_t k = 0; k < st.n; ++k) {
      const DeviceResult& dr = st.h_res.get()[k];
      DpResult& r = results[st.lo + k];
      r = DpResult{};
      const Progress& s = dr.prog;
      r.score = s.score, r.max = s.max, r.max_q = s.max_q, r.max_t = s.max_t;
      r.mqe = s.mqe, r.mqe_t = s.mqe_t, r.mte = s.mte, r.mte_q = s.mte_q;
      r.zdropped = s.zdropped, r.reach_end = dr.reach_end, r.cells = s.cells;
      if (dr.n_cigar > 0) {
        r.cigar.resize(static_cast<size_t>(dr.n_cigar));
        check(cudaMemcpy(r.cigar.data(), st.dt[k].cigar, r.cigar.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost),
              "download CIGAR");
      }
    }
    st.busy = false;
  }

  Stage stages_[2];
};

}  // namespace

bool cuda_device_available(std::string* why) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    if (why) *why = cudaGetErrorString(e);
    cudaGetLastError();  // clear the sticky error
    return false;
  }
  if (n == 0) {
    if (why) *why = "no CUDA device found";
    return false;
  }
  return true;
}

std::unique_ptr<DpBackend> make_cuda_backend() { return std::make_unique<CudaBackend>(); }

}  // namespace agatha::gpu
