// kernels/gpu/gpu_sim.cpp — the gpu-sim backend: the CUDA kernels' schedule executed on
// the host. Tasks are bucketed into warps (long, wide tasks into thread blocks of their
// own); within a warp, subwarps of lanes sweep their task's tiles slice by slice, merge
// the lanes' best-cell keys of the completed anti-diagonals and finalize them, and
// regroup when a task ends (subwarp rejoining); the traceback recomputes the direction
// bytes tile by tile from the tiles' boundary records. Every decision that shapes a
// result is the shared __host__ __device__ code of tile_dp.hpp, tile_task.hpp and
// tile_schedule.hpp — every tile takes the general path here; the device's fast path
// for tiles inside the band is checked against it by gpu-emu — so CI exercises what the
// GPU computes.
#include "gpu_sim.hpp"

#include <agatha/error.hpp>

#include "../traceback.hpp"
#include "host_plan.hpp"

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

namespace agatha::gpu {
namespace {

// One task's state on the host: the same buffers the kernel keeps in device memory.
struct HostTask {
  const DpTask* task = nullptr;
  DpResult* out = nullptr;
  TaskParams p{};
  TileLayout l{};
  std::vector<TileRecord> rec;
  std::vector<int32_t> col_h, row_h, spec;
  std::vector<int8_t> uv;
  std::vector<int64_t> row_off;
  std::vector<uint32_t> tpack, qpack;
  std::vector<int8_t> sites;  // splice tasks: donor and acceptor scores (splice_site_bytes)
  // Per lane, the best-cell keys of anti-diagonals 8*next_d .. (pending ones first).
  std::vector<std::vector<BestKey>> keys;
  TaskMem mem{};
  Progress prog{};
  int32_t next_d = 0, n_lanes = 0;
  TileProfile::Counts* prof = nullptr;  // the worker's counts for this task's kind, or null
};

// fast_pair's test (dp_cuda.cu) of exact mode: the H above the 16 columns of tiles A and B
// (B = A for one tile) within [-16384, 16383] of the first, else the general path.
bool h_near(const TaskMem& m, int32_t ta, int32_t tb) {
  const int64_t base = m.col_h[ta * kTile];
  for (int a = 0; a < kTile; ++a)
    for (int32_t T : {ta, tb}) {
      const int64_t d = m.col_h[T * kTile + a] - base;
      if (d < -0x4000 || d > 0x3fff) return false;
    }
  return true;
}

// Counts what the CUDA kernel's compute_step does with the pair (T, J), (T+1, J-1)
// (`pair`) or the tile (T, J), before they are computed.
void profile_pair(const HostTask& h, int32_t T, int32_t J, bool pair, const UvWindow& win) {
  TileProfile::Counts& c = *h.prof;
  const TilePath pa = tile_path(h.p, T, J);
  const TilePath pb = pair ? tile_path(h.p, T + 1, J - 1) : TilePath::kTaskEdge;
  auto kept = [&win](int32_t t) { return t >= win.lo && t <= win.hi; };
  auto on_fast = [](TilePath k) { return k == TilePath::kFast || k == TilePath::kFastEdge; };
  const bool fa = on_fast(pa), fb = pair && on_fast(pb);
  for (int32_t k = 0; k < (pair ? 2 : 1); ++k) {
    const int32_t dt = k == 0 && fa && fb ? 1 : 0;
    const TilePath path = k == 0 ? pa : pb;
    if (on_fast(path)) {
      if (h.p.approx_max || h_near(h.mem, T + k, T + k + dt)) {
        ++(dt == 1 ? c.fast_pairs : c.fast_singles);
        if (path == TilePath::kFastEdge || (dt == 1 && pb == TilePath::kFastEdge))
          ++c.fast_edge;
        else if (h.p.approx_max && (kept(T + k) || (dt == 1 && kept(T + k + 1))))
          ++c.fast_keep_uv;
        if (dt == 1) return;
        continue;
      }
      ++c.general_far;
    } else if (path == TilePath::kTaskEdge) {
      ++c.general_task_edge;
    } else {
      ++c.general_band_edge;
    }
  }
}

void start_task(HostTask& h, int32_t lanes, TileProfile* prof) {
  h.p = make_params(*h.task);
  h.prof = prof ? &prof->kind[profile_kind(h.p)] : nullptr;
  h.n_lanes = lanes;
  progress_init(h.prog);
  if (!h.p.active) {
    h.prog.done = true;
    return;
  }
  h.l = make_layout(h.p);
  h.row_off = tile_row_offsets(h.l);
  h.tpack = pack_bases(h.task->target);
  h.qpack = pack_bases(h.task->query);
  const size_t tiles = static_cast<size_t>(h.row_off.back());
  h.rec.assign(tiles, TileRecord{});
  h.col_h.assign(static_cast<size_t>(h.p.tlen), 0);
  h.row_h.assign(static_cast<size_t>(h.p.qlen), 0);
  if (!h.p.approx_max) h.spec.assign(2 * (static_cast<size_t>(h.p.qlen) + h.p.tlen), 0);
  if (h.p.approx_max) h.uv.assign(tiles * 2 * kTile * kTile, 0);
  h.mem = TaskMem{h.rec.data(), h.col_h.data(), h.row_h.data(), h.spec.data(), h.uv.data(), h.row_off.data(),
                  nullptr, nullptr};
  if (h.p.splice) {
    h.sites = splice_site_bytes(*h.task);
    h.mem.donor = h.sites.data(), h.mem.acceptor = h.sites.data() + h.sites.size() / 2;
  }
}

// Advances a task by one slice; returns true once it is finished.
bool step_slice(HostTask& h, const Schedule& sch) {
  if (h.prog.done) return true;
  const int32_t nd = n_tile_diagonals(h.l);
  const int32_t d0 = h.next_d, d_end = imin(d0 + sch.slice, nd);
  const size_t span = static_cast<size_t>(kTile) * sch.slice + kTileDiagonals;
  h.keys.resize(static_cast<size_t>(h.n_lanes));
  for (auto& k : h.keys) k.resize(span, 0);
  // the tiles whose u, v an APPROX_MAX task keeps (none in exact mode, as on the device)
  const UvWindow win = h.p.approx_max ? uv_window(h.prog, sch.slice) : UvWindow{};
  for (int32_t D = d0; D < d_end; ++D) {
    for (int32_t lane = 0; lane < h.n_lanes; ++lane) {
      auto tile = [&](int32_t T, int32_t J) {
        Ring ring;
        ring_clear(ring);
        ColState col[kTile];
        if (h.p.splice)
          general_tile<false, true>(h.p, h.l, h.tpack.data(), h.qpack.data(), h.mem, T, J, col, ring.k, win, nullptr);
        else
          general_tile<false>(h.p, h.l, h.tpack.data(), h.qpack.data(), h.mem, T, J, col, ring.k, win, nullptr);
        for (int d = 0; d < kTileDiagonals; ++d) key_max(h.keys[lane][kTile * (D - d0) + d], ring.k[d]);
      };
      for_lane_pairs(h.l, D, lane, h.n_lanes, [&](int32_t T, int32_t J, bool pair) {
        if (h.prof) profile_pair(h, T, J, pair, win);
        tile(T, J);
        if (pair) tile(T + 1, J - 1);
      });
    }
  }
  h.next_d = d_end;
  const int32_t r_last = complete_through(h.p, d_end - 1, d_end == nd);
  while (!h.prog.done && h.prog.next_r <= r_last) {
    const int32_t r = h.prog.next_r;
    BestKey key = 0;
    for (const auto& k : h.keys) key_max(key, k[r - kTile * d0]);
    finalize_r(h.p, h.l, h.mem, r, key, h.prog);
    ++h.prog.next_r;
    if (h.prof) ++h.prof->anti_diagonals;
  }
  // Keys of anti-diagonals the next slice completes move to the front.
  const size_t shift = static_cast<size_t>(kTile) * (d_end - d0);
  for (auto& k : h.keys) {
    std::copy(k.begin() + static_cast<std::ptrdiff_t>(shift), k.end(), k.begin());
    std::fill(k.end() - static_cast<std::ptrdiff_t>(shift), k.end(), 0);
  }
  return h.prog.done;
}

void finish_task(HostTask& h) {
  DpResult& r = *h.out;
  r = DpResult{};
  const Progress& s = h.prog;
  r.score = s.score, r.max = s.max, r.max_q = s.max_q, r.max_t = s.max_t;
  r.mqe = s.mqe, r.mqe_t = s.mqe_t, r.mte = s.mte, r.mte_q = s.mte_q;
  r.zdropped = s.zdropped;
  r.cells = s.cells;
  if (h.prof) ++h.prof->tasks, h.prof->cells += s.cells;
  int i0, j0;
  if (h.p.active && h.p.with_cigar && kernels::traceback_start(*h.task, h.p.tlen, h.p.qlen, r, i0, j0)) {
    r.cigar.resize(static_cast<size_t>(i0) + j0 + 2);
    DirCache cache;
    auto dir = [&](int32_t i, int32_t j) {
      if (h.prof && (i / kTile != cache.T || j / kTile != cache.J)) {
        ++h.prof->traceback_tiles;
        if (tile_path(h.p, i / kTile, j / kTile) == TilePath::kFast) ++h.prof->traceback_fast_tiles;
      }
      return dir_at(h.p, h.l, h.tpack.data(), h.qpack.data(), h.mem, cache, i, j);
    };
    auto range = [&h](int32_t rr, int32_t& st, int32_t& en) {
      const Range g = range_of(h.p, rr);
      st = g.st, en = g.en;
    };
    r.cigar.resize(static_cast<size_t>(
        kernels::walk_back(i0, j0, h.p.rev_cigar, dir, range, r.cigar.data(), h.p.splice ? h.p.long_thres : 0)));
    r.cigar.shrink_to_fit();
  }
  // Release the large buffers now; the result is all that remains.
  std::vector<TileRecord>().swap(h.rec);
  std::vector<int8_t>().swap(h.uv);
  std::vector<int32_t>().swap(h.col_h);
  std::vector<int32_t>().swap(h.row_h);
  std::vector<int32_t>().swap(h.spec);
  std::vector<int8_t>().swap(h.sites);
  std::vector<std::vector<BestKey>>().swap(h.keys);
}

// One warp: subwarps start on the first tasks of its queue; whenever tasks end, whole
// freed subwarps start queued tasks and leftover lanes join the running task with the
// most tile anti-diagonals left.
void run_warp(const std::vector<uint32_t>& queue, std::span<const DpTask> tasks, std::span<DpResult> results,
              const Schedule& sch, TileProfile* prof) {
  std::vector<HostTask> runs(queue.size());
  std::vector<HostTask*> active;
  size_t next = 0;
  int32_t free_lanes = sch.warp;
  auto launch = [&] {
    while (free_lanes >= sch.subwarp && next < queue.size()) {
      HostTask& h = runs[next];
      h.task = &tasks[queue[next]], h.out = &results[queue[next]];
      ++next;
      start_task(h, sch.subwarp, prof);
      free_lanes -= sch.subwarp;
      active.push_back(&h);
    }
  };
  launch();
  while (!active.empty()) {
    for (HostTask* h : active) step_slice(*h, sch);
    for (size_t k = 0; k < active.size();) {
      if (active[k]->prog.done) {
        finish_task(*active[k]);
        free_lanes += active[k]->n_lanes;
        active.erase(active.begin() + static_cast<std::ptrdiff_t>(k));
      } else {
        ++k;
      }
    }
    launch();
    if (free_lanes > 0 && !active.empty()) {
      std::vector<int32_t> remaining;
      std::vector<char> running;
      for (HostTask* h : active) remaining.push_back(n_tile_diagonals(h->l) - h->next_d), running.push_back(1);
      const int32_t k = rejoin_target(remaining.data(), reinterpret_cast<const bool*>(running.data()),
                                      static_cast<int32_t>(active.size()));
      active[k]->n_lanes += free_lanes;
      free_lanes = 0;
    }
  }
}

// A long task alone on a thread block's lanes (the block kernel's schedule).
void run_block_task(uint32_t i, std::span<const DpTask> tasks, std::span<DpResult> results, const Schedule& sch,
                    TileProfile* prof) {
  HostTask h;
  h.task = &tasks[i], h.out = &results[i];
  start_task(h, kTilePolicy.block_threads(), prof);
  while (!step_slice(h, sch)) {
  }
  finish_task(h);
}

class GpuSimBackend final : public DpBackend {
 public:
  GpuSimBackend(int threads, const Schedule& sch, TileProfile* profile)
      : threads_(std::max(1, threads)), sch_(sch), profile_(profile) {}
  std::string name() const override { return "gpu-sim"; }

  void run(std::span<const DpTask> tasks, std::span<DpResult> results) override {
    if (results.size() != tasks.size()) throw Error("DpBackend::run: results and tasks differ in size");
    std::vector<int64_t> work(tasks.size());
    std::vector<char> is_block(tasks.size());
    for (size_t i = 0; i < tasks.size(); ++i) {
      const TaskParams p = make_params(tasks[i]);
      work[i] = tile_cells(p), is_block[i] = block_task(p);
    }
    std::vector<uint32_t> blocks;
    const auto warps = plan_warps(work, sch_.warp / sch_.subwarp, &blocks, &is_block);
    const size_t units = blocks.size() + warps.size();
    std::atomic<size_t> next{0};
    std::exception_ptr failure;
    std::mutex mu;
    auto worker = [&] {
      TileProfile local;
      TileProfile* prof = profile_ ? &local : nullptr;
      try {
        for (size_t w; (w = next.fetch_add(1)) < units;) {
          if (w < blocks.size())
            run_block_task(blocks[w], tasks, results, sch_, prof);
          else
            run_warp(warps[w - blocks.size()], tasks, results, sch_, prof);
        }
      } catch (...) {
        std::lock_guard lock(mu);
        if (!failure) failure = std::current_exception();
        next.store(units);
      }
      if (prof) {
        std::lock_guard lock(mu);
        profile_->add(local);
      }
    };
    std::vector<std::jthread> pool;
    for (int k = 1; k < threads_; ++k) pool.emplace_back(worker);
    worker();
    pool.clear();
    if (failure) std::rethrow_exception(failure);
  }

 private:
  int threads_;
  Schedule sch_;
  TileProfile* profile_;
};

}  // namespace

std::unique_ptr<DpBackend> make_gpu_sim_backend(int threads, const Schedule& sch, TileProfile* profile) {
  if (sch.slice < 1 || sch.subwarp < 1 || sch.warp < sch.subwarp)
    throw OptionError("gpu-sim: slice and lane counts must be positive, warp >= subwarp");
  return std::make_unique<GpuSimBackend>(threads, sch, profile);
}

}  // namespace agatha::gpu
