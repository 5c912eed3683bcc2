// kernels/gpu/dp_cuda.cu — the CUDA backend: device kernels and host launcher.
//
// Device side. Sequences arrive packed 4 bits a base, so a tile side is one 32-bit
// word. Three kernels run per chunk, on the chunk's stream:
//   * tile_dp_kernel, one warp per warp plan (host_plan.hpp): the warp's tasks start on
//     subwarps of 8 lanes; every step each lane computes its pairs of tiles of its task's
//     next tile anti-diagonal (tile_schedule.hpp) — pairs inside the band on the fast
//     path below, the others with the general cell rules (tile_task.hpp) — and keeps the
//     best-cell keys of the 15 anti-diagonals the step touches in its slot of shared
//     memory. Then lane k of each 8-lane segment merges anti-diagonal k (and k + 8) over
//     its segment, and the task's leader merges its segments' results and finalizes the
//     8 completed anti-diagonals (Z-drop, mqe/mte) exactly as the reference orders them.
//     A finished task's lanes rejoin the running task with the most work left. A task's
//     descriptor and progress live in shared memory, nothing of it in registers between
//     steps; lanes whose slot holds no running task touch no task's memory.
//   * tile_dp_block_kernel, one thread block (8 warps) per long, wide task (the
//     bucketing's block list): the same steps over 256 lanes; warp w merges
//     anti-diagonal w over the block (shared memory, then shuffles).
//   * traceback_kernel, one lane per task: the walk of traceback.hpp, the direction bytes
//     of each tile on its path recomputed from the boundary records the DP left.
//
// Host side: tasks are packed per chunk into pinned memory, uploaded, computed and
// downloaded on two streams so a chunk's transfers overlap the other chunk's kernels;
// a chunk goes up in one asynchronous copy (sequences, descriptors, plan) and comes
// back in one (results, CIGARs), and the host sleeps on an event until it is back. A
// run leaves the host's cores to the read pipeline, which overlaps it with the next
// group's seeding and chaining (runs_on_device, src/pipeline/batch_aligner.cpp). A chunk
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

#if defined(AGATHA_CUDA_EMULATION)
#include <atomic>
#include <mutex>
#endif
#include <cstdio>
#include <cstdlib>
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

#if defined(AGATHA_CUDA_EMULATION)
// The emulation's count of the paths the kernel takes (set_profile): one atomic per kind
// of task and quantity, added to from every lane, moved into the caller's TileProfile
// after each run. On a device AGATHA_COUNT_PATH is nothing.
enum PathField {
  kFastPair, kFastSingle, kFastEdge, kFastKeepUv, kGeneralFar, kGeneralTaskEdge, kGeneralBandEdge,
  kAntiDiagonals, kTracebackTiles, kTracebackFastTiles, kPathFields
};
std::atomic<bool> g_counting{false};
std::atomic<uint64_t> g_counts[TileProfile::kKinds][kPathFields];
std::mutex g_profile_mu;
TileProfile* g_profile = nullptr;
void count_path(const TaskParams& p, PathField f) {
  if (g_counting.load(std::memory_order_relaxed)) g_counts[profile_kind(p)][f].fetch_add(1, std::memory_order_relaxed);
}
#define AGATHA_COUNT_PATH(p, f) count_path(p, f)
#else
#define AGATHA_COUNT_PATH(p, f) ((void)0)
#endif

// The tuning (policy.hpp), as compile-time constants.
constexpr int kWarp = kTilePolicy.warp;
constexpr int kSubwarp = kTilePolicy.subwarp;
constexpr int kSlots = kTilePolicy.slots();  // tasks a warp starts with
constexpr int kWarpsPerBlock = kTilePolicy.warps_per_block;
constexpr int kBlockWarps = kTilePolicy.block_warps;
constexpr int kBlockThreads = kTilePolicy.block_threads();
constexpr int kTracebackThreads = 128;
// Blocks of the warp kernel an SM is to hold at once: the register budget ptxas gets
// (65536 / (2 x 128) = 256, of which the kernel takes what the fast path needs without a
// spill). Without it ptxas picks its own target, and spills; so does it with 3 blocks
// (168 registers: 52 bytes of spills, a 24-byte stack frame) and 4 (128 registers: 356
// bytes, 152) with nvcc 13 for sm_90. 2 blocks of 4 warps is 12.5% occupancy; the fast
// path's 64 unrolled cells of two tiles give each warp the independent instructions
// that more warps would otherwise provide.
constexpr int kWarpBlocksPerSm = 2;
static_assert(kWarp == 32 && kSubwarp < kWarp && kWarp % kSubwarp == 0,
              "a slot's lanes are kSubwarp consecutive bits of a 32-lane mask (WarpState::lanes)");
static_assert(kTilePolicy.slice == 1, "the kernels finalize after every tile anti-diagonal");

// A device allocation that failed: the launcher retries with a smaller chunk.
class OutOfDeviceMemory : public Error {
 public:
  using Error::Error;
};

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(e));
}

// Per-task device addresses and parameters, filled by the host.
struct DeviceTask {
  TaskParams p;
  const uint32_t* tpack;  // 4-bit packed target, 8 bases a word
  const uint32_t* qpack;  // 4-bit packed query
  TaskMem m;
  uint32_t* cigar;  // room for qlen + tlen + 2 operations
};

struct DeviceResult {
  Progress prog;
  int32_t n_cigar;
  bool reach_end;
};

// ---------------------------------------------------------------------------------------
// The fast path: a pair of tiles wholly inside the band
// ---------------------------------------------------------------------------------------
// Two tiles of a tile anti-diagonal, A and B — the neighbours (T, J) and (T+1, J-1) of a
// pair, or one tile twice when its neighbour is not inside the band — are computed
// together, cell (a, b) of A and of B in one 32-bit register: two 16-bit
// lanes, A in bits 0-15, each holding an 8-bit difference v as v << 8 (low byte zero).
// Wrapping 16-bit arithmetic on such lanes is exactly the reference's wrapping 8-bit
// arithmetic and signed 16-bit order is int8 order, so the recurrence is a straight
// run of native packed instructions (VIADD.16x2, VIMNMX.S16x2, VIMNMX3.S16x2): no
// per-cell range, margin or border test, all 64 cells unrolled with every index a
// compile-time constant, every value in a register.
//
// The 64 cells of a pair are unrolled on a device, where every index must be a
// compile-time constant for the tile to live in registers; the host emulation keeps the
// loops (arrays on the stack are free there, and 64 unrolled cells overflow a host's
// instruction cache).
#if defined(__CUDA_ARCH__)
#define AGATHA_ROW_LOOP _Pragma("unroll")
#define AGATHA_CELL_LOOP _Pragma("unroll")
#elif defined(__CUDACC__)
#define AGATHA_ROW_LOOP
#define AGATHA_CELL_LOOP
#else
#define AGATHA_ROW_LOOP _Pragma("GCC unroll 1")
#define AGATHA_CELL_LOOP _Pragma("GCC unroll 1")
#endif

// PTX prmt.b32 (default mode: a selector nibble with bit 3 set replicates the sign of
// its byte; CUDA's __byte_perm has no such mode).
__device__ __forceinline__ uint32_t prmt(uint32_t a, uint32_t b, uint32_t c) {
#if defined(__CUDA_ARCH__)
  uint32_t d;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
#elif defined(AGATHA_CUDA_EMULATION)
  return ::AGATHA_EMU_NS::ptx_prmt(a, b, c);
#else
  return a ^ b ^ c;  // nvcc's host pass: device code never runs there
#endif
}

// Two packed lanes [0, x, 0, y] (x, y int8 in the high bytes) from byte k of words wa
// (tile A) and wb (tile B): lo = wa & 0x00ff00ff serves bytes 0 and 2 and its zero
// bytes, hi = wa & 0xff00ff00 bytes 1 and 3.
template <int k>
__device__ __forceinline__ uint32_t unpack(uint32_t lo, uint32_t hi, uint32_t wb) {
  if constexpr (k == 0) return prmt(lo, wb, 0x4101);
  if constexpr (k == 1) return prmt(hi, wb, 0x5010);
  if constexpr (k == 2) return prmt(lo, wb, 0x6121);
  return prmt(hi, wb, 0x7030);
}
// Eight packed registers from A's 8 bytes (wa0, wa1) and B's (wb0, wb1).
__device__ __forceinline__ void unpack8(uint32_t wa0, uint32_t wa1, uint32_t wb0, uint32_t wb1, uint32_t (&out)[kTile]) {
  const uint32_t l0 = wa0 & 0x00ff00ffu, h0 = wa0 & 0xff00ff00u, l1 = wa1 & 0x00ff00ffu, h1 = wa1 & 0xff00ff00u;
  out[0] = unpack<0>(l0, h0, wb0), out[1] = unpack<1>(l0, h0, wb0);
  out[2] = unpack<2>(l0, h0, wb0), out[3] = unpack<3>(l0, h0, wb0);
  out[4] = unpack<0>(l1, h1, wb1), out[5] = unpack<1>(l1, h1, wb1);
  out[6] = unpack<2>(l1, h1, wb1), out[7] = unpack<3>(l1, h1, wb1);
}
// The inverse: A's 8 bytes and B's 8 bytes from eight packed registers.
__device__ __forceinline__ void pack8(const uint32_t (&in)[kTile], uint32_t& a0, uint32_t& a1, uint32_t& b0,
                                      uint32_t& b1) {
  const uint32_t w01 = prmt(in[0], in[1], 0x7351), w23 = prmt(in[2], in[3], 0x7351);
  const uint32_t w45 = prmt(in[4], in[5], 0x7351), w67 = prmt(in[6], in[7], 0x7351);
  a0 = prmt(w01, w23, 0x5410), b0 = prmt(w01, w23, 0x7632);
  a1 = prmt(w45, w67, 0x5410), b1 = prmt(w45, w67, 0x7632);
}

// Row b's lanes [0, a, 0, b'] of one record column held packed 4 rows a word (wa: tile
// A's two words, wb: B's), unpacked as in unpack8.
__device__ __forceinline__ uint32_t row_lanes(const uint32_t (&wa)[2], const uint32_t (&wb)[2], int b) {
  const int k = b % 4;
  const uint32_t keep = k & 1 ? 0xff00ff00u : 0x00ff00ffu;
  const uint32_t pick = k == 0 ? 0x4101u : k == 1 ? 0x5010u : k == 2 ? 0x6121u : 0x7030u;
  return prmt(wa[b / 4] & keep, wb[b / 4], pick);
}

// The tie byte of a best-cell candidate at pair position pos (t - t0 of A, 0..15) for
// each phase st0 mod 4 (byte ph): priority (4 - lane) << 4 | (15 - pos), so that the
// larger byte is the reference's choice among equal H.
constexpr uint32_t tie_bytes(int pos) {
  uint32_t w = 0;
  for (int ph = 0; ph < 4; ++ph) w |= static_cast<uint32_t>(((4 - ((pos - ph) & 3)) << 4) | (15 - pos)) << (8 * ph);
  return w;
}
__device__ constexpr uint32_t kTieBytes[2 * kTile] = {
    tie_bytes(0), tie_bytes(1), tie_bytes(2),  tie_bytes(3),  tie_bytes(4),  tie_bytes(5),  tie_bytes(6),  tie_bytes(7),
    tie_bytes(8), tie_bytes(9), tie_bytes(10), tie_bytes(11), tie_bytes(12), tie_bytes(13), tie_bytes(14), tie_bytes(15)};

// The prmt selectors that build a cell's 32-bit key (Hrel << 16 | tie << 8) for each
// anti-diagonal 8D + d of a step, two 16-bit selectors a word (tile A's; B's is + 0x2200).
struct KeySelectors {
  uint32_t w[(kTileDiagonals + 1) / 2];
};
__device__ __forceinline__ KeySelectors key_selectors(const TaskParams& p, int32_t D) {
  KeySelectors s;
  AGATHA_UNROLL
  for (int k = 0; k < (kTileDiagonals + 1) / 2; ++k) s.w[k] = 0;
  AGATHA_UNROLL
  for (int d = 0; d < kTileDiagonals; ++d) {
    const int32_t r = kTile * D + d;
    const int32_t st0 = imax(imax(0, r - p.qlen + 1), (r - p.w + 1) >> 1);
    s.w[d / 2] |= (0x104Cu + 0x11u * static_cast<uint32_t>(st0 & 3)) << (16 * (d & 1));
  }
  return s;
}

// A tile's inputs from its neighbours' records (TileRecord: bu by by2 rx rv rx2, 8 bytes
// each): the bottom row of the tile above — (bu, by) and by2 — and the right column of
// the tile to the left — rx and (rv, rx2). Above row 0 and left of column 0, the border
// as compute_cell reads it: boundary_diff of the cell's anti-diagonal for u (v), -qe
// for y (x), -qe2 for y2 (x2).
__device__ __forceinline__ uint32_t border_word(const TaskParams& p, int32_t r0) {
  uint32_t w = 0;
  AGATHA_UNROLL
  for (int k = 0; k < 4; ++k) w |= static_cast<uint32_t>(static_cast<uint8_t>(boundary_diff(p, r0 + k))) << (8 * k);
  return w;
}
__device__ __forceinline__ void load_up(const TaskParams& p, const TileLayout& l, const TaskMem& m, int32_t T,
                                        int32_t J, uint4& w01, uint2& w2) {
  if (J > 0) {
    const uint4* rec = reinterpret_cast<const uint4*>(&m.rec[tile_index(l, m, T, J - 1)]);
    w01 = rec[0], w2 = reinterpret_cast<const uint2*>(rec)[2];
    return;
  }
  const uint32_t nqe = static_cast<uint8_t>(-p.qe) * 0x01010101u, nqe2 = static_cast<uint8_t>(-p.qe2) * 0x01010101u;
  w01 = make_uint4(border_word(p, T * kTile), border_word(p, T * kTile + 4), nqe, nqe);
  w2 = make_uint2(nqe2, nqe2);
}
__device__ __forceinline__ void load_left(const TaskParams& p, const TileLayout& l, const TaskMem& m, int32_t T,
                                          int32_t J, uint2& w3, uint4& w45) {
  if (T > 0) {
    const uint4* rec = reinterpret_cast<const uint4*>(&m.rec[tile_index(l, m, T - 1, J)]);
    w3 = reinterpret_cast<const uint2*>(rec)[3], w45 = rec[2];
    return;
  }
  const uint32_t nqe = static_cast<uint8_t>(-p.qe) * 0x01010101u, nqe2 = static_cast<uint8_t>(-p.qe2) * 0x01010101u;
  w3 = make_uint2(nqe, nqe);
  w45 = make_uint4(border_word(p, J * kTile), border_word(p, J * kTile + 4), nqe2, nqe2);
}

// Computes tiles A = (T, J) and B = (T + dt, J - dt), dt = 1 (a pair of neighbours) or
// 0 (A twice), both on the fast path (fast_path_tile), and writes both records and H
// columns; with kExact, the best-cell keys of their cells go to keys[d]. (With dt = 0
// lane B repeats lane A, keys included; B's copy of a cell never beats A's, whose tie
// byte names the lower position.) Returns false, having written nothing, when the H
// values the tiles start from are too far apart for 16-bit lanes (the caller then takes
// the general path).
//
// kSplice: a splice task's tiles (ksw_exts2's cell, see compute_cell): x2 is the long-gap
// state, H also takes E2 plus the acceptor score of the column, E2 leaves the cell as
// max(E2 - (H - q2), donor) - q2, H is not capped, and there is no y2 (its record bytes
// are written as zeros). The columns' donor and acceptor scores are loaded with the
// tiles' inputs and held as packed lanes like them.
//
// kKeepUv (APPROX_MAX only): the tiles' u and v are also stored, a row at a time, to
// uv_a (tile A) and uv_b (tile B) where not null: the tiles the greedy path may read
// (UvWindow), in general_tile's layout.
//
// kEdge (APPROX_MAX only): a tile may lie in the first row or column (TilePath::kFastEdge)
// and read the border's values as its record (load_up, load_left); without it the
// records are read directly.
template <bool kExact, bool kSplice = false, bool kKeepUv = false, bool kEdge = false>
__device__ __forceinline__ bool fast_pair(const TaskParams& p, const TileLayout& l, const uint32_t* tpack,
                                          const uint32_t* qpack, const TaskMem& m, int32_t T, int32_t J, int32_t dt,
                                          const KeySelectors& sel, BestKey* keys, int8_t* uv_a = nullptr,
                                          int8_t* uv_b = nullptr) {
  static_assert(!(kExact && (kKeepUv || kEdge)), "exact mode keeps no u, v and has no fast edge tiles");
  const int32_t t0 = T * kTile, TB = T + dt, JB = J - dt;
  // H of the 16 columns above the tiles, relative to the first (exact mode only).
  int32_t base = 0;
  uint32_t hc[kTile];
  if constexpr (kExact) {
    const int4* ch = reinterpret_cast<const int4*>(m.col_h + t0);
    const int4* chb = reinterpret_cast<const int4*>(m.col_h + TB * kTile);
    const int4 h0 = ch[0], h1 = ch[1], h2 = chb[0], h3 = chb[1];
    base = h0.x;
    const int32_t ha[kTile] = {h0.x, h0.y, h0.z, h0.w, h1.x, h1.y, h1.z, h1.w};
    const int32_t hb[kTile] = {h2.x, h2.y, h2.z, h2.w, h3.x, h3.y, h3.z, h3.w};
    // Inputs within +-16384 of the base keep every cell within +-17408 (8 steps of at
    // most 128): 16-bit lanes, and 32-bit keys with the tie byte below them.
    uint32_t far = 0;
    AGATHA_UNROLL
    for (int a = 0; a < kTile; ++a) {
      const uint32_t ra = static_cast<uint32_t>(ha[a] - base), rb = static_cast<uint32_t>(hb[a] - base);
      far |= (ra + 0x4000u) | (rb + 0x4000u);
      hc[a] = prmt(ra, rb, 0x5410);
    }
    if (far & 0xffff8000u) return false;
  }
  // Inputs: the bottom rows of the tiles above A and B, the right columns of the tiles
  // to their left (for a pair, B's left is A's above); in APPROX_MAX mode a tile of the
  // first row or column (fast_path_tile's kFastEdge) reads the border's instead.
  uint4 ua0, ub0, la2, lb2;
  uint2 ua1, ub1, la1, lb1;
  if constexpr (kEdge) {
    load_up(p, l, m, T, J, ua0, ua1);
    load_up(p, l, m, TB, JB, ub0, ub1);
    load_left(p, l, m, T, J, la1, la2);
    load_left(p, l, m, TB, JB, lb1, lb2);
  } else {
    const uint4* up_a = reinterpret_cast<const uint4*>(&m.rec[tile_index(l, m, T, J - 1)]);
    const uint4* up_b = reinterpret_cast<const uint4*>(&m.rec[tile_index(l, m, TB, JB - 1)]);
    const uint4* left_a = reinterpret_cast<const uint4*>(&m.rec[tile_index(l, m, T - 1, J)]);
    const uint4* left_b = reinterpret_cast<const uint4*>(&m.rec[tile_index(l, m, TB - 1, JB)]);
    ua0 = up_a[0], ub0 = up_b[0], la2 = left_a[2], lb2 = left_b[2];
    ua1 = reinterpret_cast<const uint2*>(up_a)[2], ub1 = reinterpret_cast<const uint2*>(up_b)[2];
    la1 = reinterpret_cast<const uint2*>(left_a)[3], lb1 = reinterpret_cast<const uint2*>(left_b)[3];
  }
  uint32_t cu[kTile], cy[kTile], cy2[kTile];
  unpack8(ua0.x, ua0.y, ub0.x, ub0.y, cu);
  unpack8(ua0.z, ua0.w, ub0.z, ub0.w, cy);
  // Splice tasks: cy2 holds the columns' acceptor scores and sd their donor scores.
  uint32_t sd[kSplice ? kTile : 1];
  if constexpr (kSplice) {
    const uint2 acc_a = *reinterpret_cast<const uint2*>(m.acceptor + t0);
    const uint2 acc_b = *reinterpret_cast<const uint2*>(m.acceptor + TB * kTile);
    const uint2 don_a = *reinterpret_cast<const uint2*>(m.donor + t0);
    const uint2 don_b = *reinterpret_cast<const uint2*>(m.donor + TB * kTile);
    unpack8(acc_a.x, acc_a.y, acc_b.x, acc_b.y, cy2);
    unpack8(don_a.x, don_a.y, don_b.x, don_b.y, sd);
  } else {
    unpack8(ua1.x, ua1.y, ub1.x, ub1.y, cy2);
  }
  // The row inputs stay packed, 4 rows a word, until their row runs.
  const uint32_t rx_a[2] = {la1.x, la1.y}, rx_b[2] = {lb1.x, lb1.y};
  const uint32_t rv_a[2] = {la2.x, la2.y}, rv_b[2] = {lb2.x, lb2.y};
  const uint32_t rw_a[2] = {la2.z, la2.w}, rw_b[2] = {lb2.z, lb2.w};
  // Scores: a cell's prmt selector nibble (t ^ q) | ((t | q) & 4) picks M (0), X (1-3)
  // or the N score (4-7) from the table below; nibbles 0 and 2 are 8: the sign of M
  // (positive), a zero low byte.
  const uint32_t twa = tpack[T], twb = tpack[TB], qwa = qpack[J], qwb = qpack[JB];
  const uint32_t x8 = static_cast<uint8_t>(p.sc_mismatch), n8 = static_cast<uint8_t>(p.sc_ambi);
  const uint32_t tab_lo = static_cast<uint8_t>(p.sc_match) | x8 << 8 | x8 << 16 | x8 << 24;
  const uint32_t tab_hi = n8 * 0x01010101u;
  uint32_t tp[kTile];
  AGATHA_UNROLL
  for (int a = 0; a < kTile; ++a) tp[a] = ((twa >> (4 * a)) & 0xf) << 4 | ((twb >> (4 * a)) & 0xf) << 12 | 0x0808u;
  // Scoring constants, packed.
  auto pk = [](int32_t v) { return (static_cast<uint32_t>(v) & 0xffu) * 0x01000100u; };
  const uint32_t kM = pk(p.sc_match), kQ = pk(p.q), kQ2 = pk(p.q2), kNqe = pk(-p.qe), kNqe2 = pk(-p.qe2);
  const uint32_t c15 = static_cast<uint32_t>(kKeyTMask - t0 - 15);
  // The best key of anti-diagonal d of the pair, relative to base; merged into the
  // lane's keys as soon as its last cell (row min(d, 7)) is done.
  int32_t best[kTileDiagonals];
  AGATHA_UNROLL
  for (int d = 0; d < kTileDiagonals; ++d) best[d] = INT32_MIN;
  auto merge_key = [&](int d) {
    const uint32_t k = static_cast<uint32_t>(best[d]);
    const int32_t h = base + (best[d] >> 16);
    const uint32_t lo = ((k >> 12) & 7u) << kKeyTBits | (c15 + ((k >> 8) & 15u));
    key_max(keys[d], static_cast<uint64_t>(static_cast<uint32_t>(h) ^ 0x80000000u) << 32 | lo);
  };
  // The right columns leave packed as their rows complete: w* hold rows (b-1, b) of a
  // pair of rows, *_a / *_b the finished words of A and B.
  uint32_t ox_a[2], ox_b[2], ov_a[2], ov_b[2], ow_a[2], ow_b[2];
  uint32_t px = 0, pv = 0, pw = 0, qx = 0, qv = 0, qw = 0;
  uint32_t row_v[kKeepUv ? kTile : 1];  // kKeepUv: the row's v, by column
  AGATHA_ROW_LOOP
  for (int b = 0; b < kTile; ++b) {
    // Row b's (x, v, x2) of A and B.
    uint32_t x = row_lanes(rx_a, rx_b, b), v = row_lanes(rv_a, rv_b, b), x2 = row_lanes(rw_a, rw_b, b);
    const uint32_t qp = ((qwa >> (4 * b)) & 0xf) << 4 | ((qwb >> (4 * b)) & 0xf) << 12;
    AGATHA_CELL_LOOP
    for (int a = 0; a < kTile; ++a) {
      const uint32_t s = prmt(tab_lo, tab_hi, (tp[a] ^ qp) | ((tp[a] | qp) & 0x4040u));
      const uint32_t ea = __vadd2(x, v), eb = __vadd2(cy[a], cu[a]);
      const uint32_t ea2 = __vadd2(x2, v);
      uint32_t z, eb2 = 0;
      if constexpr (kSplice) {
        z = __vimax3_s16x2(s, ea, __vmaxs2(eb, __vadd2(ea2, cy2[a])));
      } else {
        eb2 = __vadd2(cy2[a], cu[a]);
        z = __vmins2(__vimax3_s16x2(__vimax3_s16x2(s, ea, eb), ea2, eb2), kM);
      }
      const uint32_t nu = __vsub2(z, v), nv = __vsub2(z, cu[a]);
      const uint32_t zq = __vsub2(z, kQ), zq2 = __vsub2(z, kQ2);
      x = __vadd2(__vmaxs2(__vsub2(ea, zq), 0), kNqe);
      cy[a] = __vadd2(__vmaxs2(__vsub2(eb, zq), 0), kNqe);
      if constexpr (kSplice) {
        x2 = __vadd2(__vmaxs2(__vsub2(ea2, zq2), sd[a]), kNqe2);
      } else {
        x2 = __vadd2(__vmaxs2(__vsub2(ea2, zq2), 0), kNqe2);
        cy2[a] = __vadd2(__vmaxs2(__vsub2(eb2, zq2), 0), kNqe2);
      }
      v = nv, cu[a] = nu;
      if constexpr (kKeepUv) row_v[a] = nv;
      if constexpr (kExact) {
        // H(t, j) = H(t, j-1) + v: v to its sign-extended 16-bit value, added to the
        // column's H; then the cell's key for its anti-diagonal d = a + b.
        hc[a] = __vadd2(hc[a], prmt(nv, 0, 0xB391));
        const int d = a + b;
        const uint32_t sa = d & 1 ? sel.w[d / 2] >> 16 : sel.w[d / 2];
        const int32_t ka = static_cast<int32_t>(prmt(hc[a], kTieBytes[a], sa));
        const int32_t kb = static_cast<int32_t>(prmt(hc[a], kTieBytes[kTile + a], sa + 0x2200u));
        best[d] = __vimax3_s32(best[d], ka, kb);
      }
    }
    if constexpr (kExact) {
      merge_key(b);
      if (b == kTile - 1) {
        AGATHA_UNROLL
        for (int d = kTile; d < kTileDiagonals; ++d) merge_key(d);
      }
    }
    if constexpr (kKeepUv) {
      // Row b's u (the columns' states now) and v of A and B, 8 bytes each.
      uint32_t ua0, ua1, ub0, ub1, va0, va1, vb0, vb1;
      pack8(cu, ua0, ua1, ub0, ub1);
      pack8(row_v, va0, va1, vb0, vb1);
      if (uv_a) {
        reinterpret_cast<uint2*>(uv_a)[b] = make_uint2(ua0, ua1);
        reinterpret_cast<uint2*>(uv_a + kTile * kTile)[b] = make_uint2(va0, va1);
      }
      if (uv_b) {
        reinterpret_cast<uint2*>(uv_b)[b] = make_uint2(ub0, ub1);
        reinterpret_cast<uint2*>(uv_b + kTile * kTile)[b] = make_uint2(vb0, vb1);
      }
    }
    // Rows (b-1, b) of A and B into one word each quantity, then 4 rows into A's word
    // and B's word.
    const int w = b / 4;
    if (b % 2 == 0) {
      px = x, pv = v, pw = x2;
    } else {
      const uint32_t nx = prmt(px, x, 0x7351), nv2 = prmt(pv, v, 0x7351), nw = prmt(pw, x2, 0x7351);
      if (b % 4 == 1) {
        qx = nx, qv = nv2, qw = nw;
      } else {
        ox_a[w] = prmt(qx, nx, 0x5410), ox_b[w] = prmt(qx, nx, 0x7632);
        ov_a[w] = prmt(qv, nv2, 0x5410), ov_b[w] = prmt(qv, nv2, 0x7632);
        ow_a[w] = prmt(qw, nw, 0x5410), ow_b[w] = prmt(qw, nw, 0x7632);
      }
    }
  }
  // Records: A's bottom row and right column, then B's.
  uint32_t a_u0, a_u1, b_u0, b_u1, a_y0, a_y1, b_y0, b_y1, a_z0, a_z1, b_z0, b_z1;
  pack8(cu, a_u0, a_u1, b_u0, b_u1);
  pack8(cy, a_y0, a_y1, b_y0, b_y1);
  if constexpr (kSplice)
    a_z0 = a_z1 = b_z0 = b_z1 = 0;
  else
    pack8(cy2, a_z0, a_z1, b_z0, b_z1);
  uint4* out_a = reinterpret_cast<uint4*>(&m.rec[tile_index(l, m, T, J)]);
  uint4* out_b = reinterpret_cast<uint4*>(&m.rec[tile_index(l, m, TB, JB)]);
  out_a[0] = make_uint4(a_u0, a_u1, a_y0, a_y1), out_a[1] = make_uint4(a_z0, a_z1, ox_a[0], ox_a[1]);
  out_a[2] = make_uint4(ov_a[0], ov_a[1], ow_a[0], ow_a[1]);
  out_b[0] = make_uint4(b_u0, b_u1, b_y0, b_y1), out_b[1] = make_uint4(b_z0, b_z1, ox_b[0], ox_b[1]);
  out_b[2] = make_uint4(ov_b[0], ov_b[1], ow_b[0], ow_b[1]);
  if constexpr (kExact) {
    // H of the bottom rows.
    int32_t ha[kTile], hb[kTile];
    AGATHA_UNROLL
    for (int a = 0; a < kTile; ++a) {
      ha[a] = base + static_cast<int32_t>(prmt(hc[a], 0, 0x9910));
      hb[a] = base + static_cast<int32_t>(prmt(hc[a], 0, 0xBB32));
    }
    int4* ch = reinterpret_cast<int4*>(m.col_h + t0);
    int4* chb = reinterpret_cast<int4*>(m.col_h + TB * kTile);
    ch[0] = make_int4(ha[0], ha[1], ha[2], ha[3]), ch[1] = make_int4(ha[4], ha[5], ha[6], ha[7]);
    chb[0] = make_int4(hb[0], hb[1], hb[2], hb[3]), chb[1] = make_int4(hb[4], hb[5], hb[6], hb[7]);
  }
  return true;
}

// The traceback's direction bytes of a tile on the fast path (fast_path_tile), written to
// dir (row-major, 64 bytes) as general_tile<true> writes them: fast_pair's recurrence on
// the tile alone (both 16-bit lanes hold it) from the records of the tiles above and to
// the left, each cell's direction byte — the source of H (the candidates in
// compute_cell's order, a later one taking over when strictly larger, or not smaller
// with gaps placed right: kRight) and the "continues" bits — formed from 16-bit lane
// masks; a row's eight bytes are stored as one 64-bit word.
template <bool kSplice, bool kRight>
__device__ __forceinline__ void fast_dir_tile(const TaskParams& p, const TileLayout& l, const uint32_t* tpack,
                                              const uint32_t* qpack, const TaskMem& m, int32_t T, int32_t J,
                                              uint8_t* dir) {
  const int32_t t0 = T * kTile;
  const uint4* up = reinterpret_cast<const uint4*>(&m.rec[tile_index(l, m, T, J - 1)]);
  const uint4* left = reinterpret_cast<const uint4*>(&m.rec[tile_index(l, m, T - 1, J)]);
  const uint4 u0 = up[0], l2 = left[2];
  const uint2 u1 = reinterpret_cast<const uint2*>(up)[2], l1 = reinterpret_cast<const uint2*>(left)[3];
  uint32_t cu[kTile], cy[kTile], cy2[kTile];
  unpack8(u0.x, u0.y, u0.x, u0.y, cu);
  unpack8(u0.z, u0.w, u0.z, u0.w, cy);
  uint32_t sd[kSplice ? kTile : 1];  // splice: the donor scores; cy2 the acceptor scores
  if constexpr (kSplice) {
    const uint2 acc = *reinterpret_cast<const uint2*>(m.acceptor + t0);
    const uint2 don = *reinterpret_cast<const uint2*>(m.donor + t0);
    unpack8(acc.x, acc.y, acc.x, acc.y, cy2);
    unpack8(don.x, don.y, don.x, don.y, sd);
  } else {
    unpack8(u1.x, u1.y, u1.x, u1.y, cy2);
  }
  const uint32_t rx[2] = {l1.x, l1.y}, rv[2] = {l2.x, l2.y}, rw[2] = {l2.z, l2.w};
  const uint32_t tw = tpack[T], qw = qpack[J];
  const uint32_t x8 = static_cast<uint8_t>(p.sc_mismatch), n8 = static_cast<uint8_t>(p.sc_ambi);
  const uint32_t tab_lo = static_cast<uint8_t>(p.sc_match) | x8 << 8 | x8 << 16 | x8 << 24;
  const uint32_t tab_hi = n8 * 0x01010101u;
  auto pk = [](int32_t v) { return (static_cast<uint32_t>(v) & 0xffu) * 0x01000100u; };
  const uint32_t kM = pk(p.sc_match), kQ = pk(p.q), kQ2 = pk(p.q2), kNqe = pk(-p.qe), kNqe2 = pk(-p.qe2);
  // a beats b: strictly larger, or with gaps placed right not smaller (compute_cell)
  auto beats = [](uint32_t a, uint32_t b) { return kRight ? __vcmpges2(a, b) : __vcmpgts2(a, b); };
  AGATHA_NO_UNROLL
  for (int b = 0; b < kTile; ++b) {
    uint32_t x = row_lanes(rx, rx, b), v = row_lanes(rv, rv, b), x2 = row_lanes(rw, rw, b);
    const uint32_t qp = ((qw >> (4 * b)) & 0xf) * 0x1010u;
    uint32_t row_dir[kTile];  // the cells' direction bytes, in byte 1 of each lane
    AGATHA_UNROLL
    for (int a = 0; a < kTile; ++a) {
      const uint32_t tp = ((tw >> (4 * a)) & 0xf) * 0x1010u | 0x0808u;
      uint32_t z = prmt(tab_lo, tab_hi, (tp ^ qp) | ((tp | qp) & 0x4040u));
      const uint32_t ea = __vadd2(x, v), eb = __vadd2(cy[a], cu[a]), ea2 = __vadd2(x2, v);
      // the source of H: 1 E, 2 F, 3 E2, 4 F2 (in byte 1 of each lane), 0 the diagonal
      uint32_t src = beats(ea, z) & 0x0100u;
      z = __vmaxs2(z, ea);
      src = __vmaxs2(src, beats(eb, z) & 0x0200u);
      z = __vmaxs2(z, eb);
      uint32_t eb2 = 0;
      if constexpr (kSplice) {
        const uint32_t ea2a = __vadd2(ea2, cy2[a]);
        src = __vmaxs2(src, beats(ea2a, z) & 0x0300u);
        z = __vmaxs2(z, ea2a);
      } else {
        eb2 = __vadd2(cy2[a], cu[a]);
        src = __vmaxs2(src, beats(ea2, z) & 0x0300u);
        z = __vmaxs2(z, ea2);
        src = __vmaxs2(src, beats(eb2, z) & 0x0400u);
        z = __vmins2(__vmaxs2(z, eb2), kM);
      }
      const uint32_t nu = __vsub2(z, v), nv = __vsub2(z, cu[a]);
      const uint32_t zq = __vsub2(z, kQ), zq2 = __vsub2(z, kQ2);
      const uint32_t ap = __vsub2(ea, zq), bp = __vsub2(eb, zq), a2p = __vsub2(ea2, zq2);
      const uint32_t floor2 = kSplice ? sd[a] : 0u;
      uint32_t d = src | (beats(ap, 0) & 0x0800u) | (beats(bp, 0) & 0x1000u) | (beats(a2p, floor2) & 0x2000u);
      x = __vadd2(__vmaxs2(ap, 0), kNqe);
      cy[a] = __vadd2(__vmaxs2(bp, 0), kNqe);
      x2 = __vadd2(__vmaxs2(a2p, floor2), kNqe2);
      if constexpr (!kSplice) {
        const uint32_t b2p = __vsub2(eb2, zq2);
        d |= beats(b2p, 0) & 0x4000u;
        cy2[a] = __vadd2(__vmaxs2(b2p, 0), kNqe2);
      }
      v = nv, cu[a] = nu;
      row_dir[a] = d;
    }
    uint32_t d0, d1, unused0, unused1;
    pack8(row_dir, d0, d1, unused0, unused1);
    reinterpret_cast<uint2*>(dir)[b] = make_uint2(d0, d1);
  }
}

// The direction byte of cell (t, j) for the traceback: its tile's bytes recomputed when
// the walk enters it (the fast path's tiles by fast_dir_tile, the others by the general
// path), as dir_at (tile_task.hpp) does on the host.
__device__ __forceinline__ uint8_t device_dir_at(const DeviceTask& dt, const TileLayout& l, DirCache& c, int32_t t,
                                                 int32_t j) {
  const int32_t T = t / kTile, J = j / kTile;
  if (T != c.T || J != c.J) {
    AGATHA_COUNT_PATH(dt.p, kTracebackTiles);
    if (tile_path(dt.p, T, J) == TilePath::kFast) {
      AGATHA_COUNT_PATH(dt.p, kTracebackFastTiles);
      const bool right = (dt.p.flag & 0x02) != 0;
      if (dt.p.splice)
        right ? fast_dir_tile<true, true>(dt.p, l, dt.tpack, dt.qpack, dt.m, T, J, c.dir)
              : fast_dir_tile<true, false>(dt.p, l, dt.tpack, dt.qpack, dt.m, T, J, c.dir);
      else
        right ? fast_dir_tile<false, true>(dt.p, l, dt.tpack, dt.qpack, dt.m, T, J, c.dir)
              : fast_dir_tile<false, false>(dt.p, l, dt.tpack, dt.qpack, dt.m, T, J, c.dir);
      c.T = T, c.J = J;
    } else {
      return dir_at(dt.p, l, dt.tpack, dt.qpack, dt.m, c, t, j);
    }
  }
  return c.dir[(j % kTile) * kTile + t % kTile];
}

// ---------------------------------------------------------------------------------------
// One tile anti-diagonal of a task, by one lane
// ---------------------------------------------------------------------------------------
// The lane's pairs of tile anti-diagonal D of task dt (a copy in shared memory);
// best-cell keys go to keys[0..14], the general path keeps its column states in
// col[0..7] (both this lane's shared memory). last_t is the APPROX_MAX greedy path's
// position after the anti-diagonals before 8*D.
// kSplice: the task is a splice task (every task of a kernel is of one kind).
template <bool kSplice>
__device__ __forceinline__ void compute_step(const DeviceTask& dt, int32_t D, int32_t last_t, int32_t rank,
                                             int32_t n_lanes, BestKey* keys, ColState* col) {
  const TaskParams p = dt.p;
  const TileLayout l = make_layout(p);
  const TaskMem m = dt.m;
  const uint32_t* tpack = dt.tpack;
  const uint32_t* qpack = dt.qpack;
  Progress at{};
  at.last_h0_t = last_t;
  const UvWindow win = p.approx_max ? uv_window(at, 1) : UvWindow{};
  const bool exact = !p.approx_max;
  const KeySelectors sel = key_selectors(p, D);
  // A tile inside the band takes the fast path (with its pair's other tile, or alone);
  // an APPROX_MAX tile whose u, v the greedy path may read takes the variant that keeps
  // them.
  auto uv_of = [&](int32_t T, int32_t J) {
    return T >= win.lo && T <= win.hi ? m.uv + tile_index(l, m, T, J) * (2 * kTile * kTile) : nullptr;
  };
  auto run_fast = [&](int32_t T, int32_t J, int32_t dt, bool edge) {
    if (exact) return fast_pair<true, kSplice>(p, l, tpack, qpack, m, T, J, dt, sel, keys);
    int8_t* uv_a = uv_of(T, J);
    int8_t* uv_b = dt == 1 ? uv_of(T + 1, J - 1) : nullptr;
    if (edge)
      return uv_a || uv_b
                 ? fast_pair<false, kSplice, true, true>(p, l, tpack, qpack, m, T, J, dt, sel, keys, uv_a, uv_b)
                 : fast_pair<false, kSplice, false, true>(p, l, tpack, qpack, m, T, J, dt, sel, keys);
    if (uv_a || uv_b) return fast_pair<false, kSplice, true>(p, l, tpack, qpack, m, T, J, dt, sel, keys, uv_a, uv_b);
    return fast_pair<false, kSplice>(p, l, tpack, qpack, m, T, J, dt, sel, keys);
  };
  for_lane_pairs(l, D, rank, n_lanes, [&](int32_t T, int32_t J, bool pair) {
    const TilePath ka = tile_path(p, T, J), kb = pair ? tile_path(p, T + 1, J - 1) : TilePath::kTaskEdge;
    const bool fa = ka == TilePath::kFast || ka == TilePath::kFastEdge;
    const bool fb = pair && (kb == TilePath::kFast || kb == TilePath::kFastEdge);
    // The pair together when both tiles can take the fast path, else each tile alone
    // (one call site per path: the fast path is long straight-line code).
    bool both_done = false;
    AGATHA_NO_UNROLL
    for (int32_t k = 0; k < (pair ? 2 : 1) && !both_done; ++k) {
      const int32_t dt = k == 0 && fa && fb ? 1 : 0;
      const bool edge = (k == 0 ? ka : kb) == TilePath::kFastEdge || (dt == 1 && kb == TilePath::kFastEdge);
      if ((k == 0 ? fa : fb) && run_fast(T + k, J - k, dt, edge)) {
#if defined(AGATHA_CUDA_EMULATION)
        AGATHA_COUNT_PATH(p, dt == 1 ? kFastPair : kFastSingle);
        if (edge)
          AGATHA_COUNT_PATH(p, kFastEdge);
        else if (!exact && (uv_of(T + k, J - k) || (dt == 1 && uv_of(T + k + 1, J - k - 1))))
          AGATHA_COUNT_PATH(p, kFastKeepUv);
#endif
        both_done = dt == 1;
        continue;
      }
#if defined(AGATHA_CUDA_EMULATION)
      const TilePath why = k == 0 ? ka : kb;
      AGATHA_COUNT_PATH(p, (k == 0 ? fa : fb)           ? kGeneralFar
                           : why == TilePath::kTaskEdge ? kGeneralTaskEdge
                                                        : kGeneralBandEdge);
#endif
      general_tile<false, kSplice>(p, l, tpack, qpack, m, T + k, J - k, col, keys, win, nullptr);
    }
  });
}

// Finalizes the anti-diagonals 8*D + i, i < n, of a task with their merged keys
// (key(i)), in order, stopping at termination.
template <class KeyFn>
__device__ __forceinline__ void finalize_step(const DeviceTask& dt, int32_t D, int32_t nd, int32_t n, KeyFn key,
                                              Progress& s) {
  const TileLayout l = make_layout(dt.p);
  const int32_t r_last = complete_through(dt.p, D, D == nd - 1);
  AGATHA_NO_UNROLL
  for (int32_t i = 0; i < n; ++i) {
    const int32_t r = kTile * D + i;
    if (s.done || r != s.next_r || r > r_last) break;
    finalize_r(dt.p, l, dt.m, r, key(i), s);
    AGATHA_COUNT_PATH(dt.p, kAntiDiagonals);
    ++s.next_r;
  }
}

// Moves the keys of the anti-diagonals the next tile anti-diagonal completes to the front.
__device__ __forceinline__ void keys_shift(BestKey* keys) {
  AGATHA_UNROLL
  for (int d = 0; d < kTileDiagonals; ++d) keys[d] = d + kTile < kTileDiagonals ? keys[d + kTile] : 0;
}
__device__ __forceinline__ void keys_clear(BestKey* keys) {
  AGATHA_UNROLL
  for (int d = 0; d < kTileDiagonals; ++d) keys[d] = 0;
}

__device__ __forceinline__ BestKey shfl_xor_key(BestKey k, int mask) {
  return __shfl_xor_sync(0xffffffffu, static_cast<unsigned long long>(k), mask);
}

#if defined(AGATHA_STATIC_PROBE)
// The interior-tile path on its own, for scripts/gpu-static.sh: exactly the function the
// kernels inline for a pair of tiles inside the band, behind a __noinline__ wrapper,
// called from a kernel with the warp kernel's launch bounds (so its register budget).
// One wrapper per form: exact and APPROX_MAX, for ksw_extd2 and splice tasks; the
// APPROX_MAX form that also stores both tiles' u and v (UvWindow), and the one for tiles
// at a task edge (kEdge: the border read as records), storing u, v too (its dearest form).
#define AGATHA_PAIR_PROBE(name, ...)                                                                        \
  __device__ __noinline__ bool name(const DeviceTask* dt, int32_t T, int32_t J, const KeySelectors* sel,      \
                                    BestKey* keys) {                                                          \
    const TileLayout l = make_layout(dt->p);                                                                  \
    return fast_pair<__VA_ARGS__>(dt->p, l, dt->tpack, dt->qpack, dt->m, T, J, 1, *sel, keys, dt->m.uv,      \
                                  dt->m.uv + 2 * kTile * kTile);                                              \
  }
AGATHA_PAIR_PROBE(static_probe_pair_exact, true)
AGATHA_PAIR_PROBE(static_probe_pair_approx, false)
AGATHA_PAIR_PROBE(static_probe_pair_approx_uv, false, false, true)
AGATHA_PAIR_PROBE(static_probe_pair_approx_edge, false, false, true, true)
AGATHA_PAIR_PROBE(static_probe_splice_pair_exact, true, true)
AGATHA_PAIR_PROBE(static_probe_splice_pair_approx, false, true)
AGATHA_PAIR_PROBE(static_probe_splice_pair_approx_uv, false, true, true)
AGATHA_PAIR_PROBE(static_probe_splice_pair_approx_edge, false, true, true, true)
#undef AGATHA_PAIR_PROBE
// The general path (any tile, every rule), for comparison: its per-cell loop; the same
// for splice tasks; the traceback's recomputation of a tile's direction bytes (both
// kinds); the finalization of one anti-diagonal (Z-drop test, maxima, greedy path).
__device__ __noinline__ void static_probe_general_tile(const DeviceTask* dt, int32_t T, int32_t J, ColState* col,
                                                       BestKey* keys) {
  const TileLayout l = make_layout(dt->p);
  general_tile<false>(dt->p, l, dt->tpack, dt->qpack, dt->m, T, J, col, keys, UvWindow{}, nullptr);
}
__device__ __noinline__ void static_probe_splice_general_tile(const DeviceTask* dt, int32_t T, int32_t J,
                                                              ColState* col, BestKey* keys) {
  const TileLayout l = make_layout(dt->p);
  general_tile<false, true>(dt->p, l, dt->tpack, dt->qpack, dt->m, T, J, col, keys, UvWindow{}, nullptr);
}
__device__ __noinline__ void static_probe_traceback_tile(const DeviceTask* dt, int32_t T, int32_t J, ColState* col,
                                                         uint8_t* dir) {
  const TileLayout l = make_layout(dt->p);
  general_tile<true>(dt->p, l, dt->tpack, dt->qpack, dt->m, T, J, col, nullptr, UvWindow{}, dir);
}
__device__ __noinline__ void static_probe_splice_traceback_tile(const DeviceTask* dt, int32_t T, int32_t J,
                                                                ColState* col, uint8_t* dir) {
  const TileLayout l = make_layout(dt->p);
  general_tile<true, true>(dt->p, l, dt->tpack, dt->qpack, dt->m, T, J, col, nullptr, UvWindow{}, dir);
}
__device__ __noinline__ void static_probe_fast_dir_tile(const DeviceTask* dt, int32_t T, int32_t J, uint8_t* dir) {
  const TileLayout l = make_layout(dt->p);
  fast_dir_tile<false, false>(dt->p, l, dt->tpack, dt->qpack, dt->m, T, J, dir);
}
__device__ __noinline__ void static_probe_splice_fast_dir_tile(const DeviceTask* dt, int32_t T, int32_t J,
                                                               uint8_t* dir) {
  const TileLayout l = make_layout(dt->p);
  fast_dir_tile<true, false>(dt->p, l, dt->tpack, dt->qpack, dt->m, T, J, dir);
}
__device__ __noinline__ void static_probe_finalize(const DeviceTask* dt, int32_t r, BestKey key, Progress* s) {
  const TileLayout l = make_layout(dt->p);
  finalize_r(dt->p, l, dt->m, r, key, *s);
}
__global__ void __launch_bounds__(kWarp* kWarpsPerBlock, kWarpBlocksPerSm)
    static_probe_kernel(const DeviceTask* dt, int32_t T, int32_t J, const KeySelectors* sel, int* out) {
  __shared__ BestKey keys[kTileDiagonals];
  __shared__ ColState col[kTile];
  __shared__ uint8_t dir[kTile * kTile];
  __shared__ Progress prog;
  static_probe_general_tile(dt, T, J, col, keys);
  static_probe_splice_general_tile(dt, T, J, col, keys);
  static_probe_traceback_tile(dt, T, J, col, dir);
  static_probe_splice_traceback_tile(dt, T, J, col, dir);
  static_probe_fast_dir_tile(dt, T, J, dir);
  static_probe_splice_fast_dir_tile(dt, T, J, dir);
  static_probe_finalize(dt, T, keys[0], &prog);
  out[0] = static_probe_pair_exact(dt, T, J, sel, keys) + static_probe_pair_approx(dt, T, J, sel, keys) +
           static_probe_splice_pair_exact(dt, T, J, sel, keys) + static_probe_splice_pair_approx(dt, T, J, sel, keys) +
           static_probe_pair_approx_uv(dt, T, J, sel, keys) + static_probe_splice_pair_approx_uv(dt, T, J, sel, keys) +
           static_probe_pair_approx_edge(dt, T, J, sel, keys) + static_probe_splice_pair_approx_edge(dt, T, J, sel, keys);
  out[1] = static_cast<int>(keys[threadIdx.x % kTileDiagonals]) + dir[threadIdx.x % 64] + prog.max;
}
#endif

// ---------------------------------------------------------------------------------------
// The warp kernel: up to kSlots tasks per warp, kSubwarp lanes each, rejoining
// ---------------------------------------------------------------------------------------
// The slot states of a warp, in shared memory: the task (a copy of its descriptor) and
// its progress, written by the slot's leader (its lowest lane) and read by its lanes
// after a __syncwarp. Nothing of a task stays in a lane's registers between steps.
struct WarpState {
  DeviceTask dt[kSlots];
  Progress prog[kSlots];
  uint32_t lanes[kSlots];  // lane mask of each slot's group: whole kSubwarp-lane segments
  int32_t task[kSlots];    // task index, -1 when the slot is empty
  int32_t next_d[kSlots], nd[kSlots];
  bool running[kSlots];
  // Each segment's merged keys of the anti-diagonals of a step: lane k of a segment
  // merges anti-diagonals k and k + 8 over the segment's lanes.
  BestKey seg_keys[kSlots][2 * kTile];
};

// Flags written by one lane and read by others after a __syncwarp: read through
// volatile so the compiler cannot reuse an earlier load.
template <class T>
__device__ T read_shared(const T& v) {
  return *static_cast<const volatile T*>(&v);
}

// kSplice: every task of the plan is a splice task (the host launches one kernel per
// kind, each with its own register allocation).
template <bool kSplice>
__global__ void __launch_bounds__(kWarp* kWarpsPerBlock, kWarpBlocksPerSm)
    tile_dp_kernel(const DeviceTask* tasks, const int32_t* plan, int32_t n_warps, DeviceResult* results) {
  __shared__ WarpState shared[kWarpsPerBlock];
  // Each lane's best-cell keys of the anti-diagonals of the current step, and the column
  // states of its general path.
  __shared__ BestKey lane_keys[kWarp * kWarpsPerBlock][kTileDiagonals];
  __shared__ ColState lane_cols[kWarp * kWarpsPerBlock][kTile];
  const int32_t warp = blockIdx.x * kWarpsPerBlock + threadIdx.x / kWarp;
  if (warp >= n_warps) return;  // whole warps exit together
  const int32_t lane = threadIdx.x % kWarp, seg = lane / kSubwarp, seg_lane = lane % kSubwarp;
  WarpState& ws = shared[threadIdx.x / kWarp];
  BestKey* keys = lane_keys[threadIdx.x];
  const BestKey(*warp_keys)[kTileDiagonals] = lane_keys + (threadIdx.x - lane);
  if (lane < kSlots) {
    const int32_t t = plan[warp * kSlots + lane];
    ws.task[lane] = t, ws.running[lane] = t >= 0, ws.next_d[lane] = 0, ws.nd[lane] = 0;
    ws.lanes[lane] = ((1u << kSubwarp) - 1) << (kSubwarp * lane);
    progress_init(ws.prog[lane]);
    if (t >= 0) {
      ws.dt[lane] = tasks[t];
      progress_init(results[t].prog);
      results[t].n_cigar = 0, results[t].reach_end = false;
      if (!tasks[t].p.active)
        results[t].prog.done = true, ws.running[lane] = false;
      else
        ws.nd[lane] = n_tile_diagonals(make_layout(tasks[t].p));
    }
  }
  int32_t slot = seg;
  keys_clear(keys);
  __syncwarp();

  for (;;) {
    bool any = false;
    AGATHA_UNROLL
    for (int k = 0; k < kSlots; ++k) any |= read_shared(ws.running[k]);
    if (!any) break;
    // A lane whose slot runs no task (never filled, or finished with nothing to join)
    // computes nothing and reads no task; it still meets every __syncwarp.
    const bool mine = read_shared(ws.running[slot]);
    const uint32_t group = read_shared(ws.lanes[slot]);
    const bool leader = lane == __ffs(static_cast<int>(group)) - 1;
    const int32_t D = read_shared(ws.next_d[slot]), nd = read_shared(ws.nd[slot]);
    const int n = D == nd - 1 ? kTileDiagonals : kTile;  // anti-diagonals the step completes
    if (mine)
      compute_step<kSplice>(ws.dt[slot], D, read_shared(ws.prog[slot].last_h0_t), __popc(group & ((1u << lane) - 1)),
                   __popc(group), keys, lane_cols[threadIdx.x]);
    __syncwarp();  // keys, records, H, spec and u/v of this step are visible to the warp
    // Lane k of each segment merges anti-diagonals k (and k + 8) over its segment.
    AGATHA_NO_UNROLL
    for (int i = seg_lane; i < n; i += kSubwarp) {
      BestKey k = 0;
      AGATHA_UNROLL
      for (int s = 0; s < kSubwarp; ++s) key_max(k, warp_keys[seg * kSubwarp + s][i]);
      ws.seg_keys[seg][i] = k;
    }
    __syncwarp();
    // The task's leader merges its segments' results and finalizes the completed
    // anti-diagonals in order.
    if (mine && leader) {
      Progress s = ws.prog[slot];
      finalize_step(ws.dt[slot], D, nd, n, [&](int32_t i) {
        BestKey key = 0;
        AGATHA_UNROLL
        for (int g = 0; g < kSlots; ++g)
          if (group >> (g * kSubwarp) & 1) key_max(key, ws.seg_keys[g][i]);
        return key;
      }, s);
      ws.prog[slot] = s;
      ws.next_d[slot] = D + 1;
      if (s.done) {
        results[read_shared(ws.task[slot])].prog = s;
        ws.running[slot] = false;
      }
    }
    keys_shift(keys);
    __syncwarp();
    // Rejoining: the lanes of a finished task join the running task with the most tile
    // anti-diagonals left.
    if (!read_shared(ws.running[slot])) {
      int32_t left[kSlots];
      bool running[kSlots];
      AGATHA_UNROLL
      for (int k = 0; k < kSlots; ++k)
        running[k] = read_shared(ws.running[k]), left[k] = read_shared(ws.nd[k]) - read_shared(ws.next_d[k]);
      const int32_t target = rejoin_target(left, running, kSlots);
      if (target >= 0) {
        if (leader) {
          AGATHA_UNROLL
          for (int k = 0; k < kSlots; ++k)
            if (k == target) atomicOr(&ws.lanes[k], group);
        }
        slot = target;
        keys_clear(keys);  // nothing of the finished task's run-ahead carries over
      }
    }
    __syncwarp();
  }
}

// ---------------------------------------------------------------------------------------
// The block kernel: one long task on a whole thread block
// ---------------------------------------------------------------------------------------
template <bool kSplice>
__global__ void __launch_bounds__(kBlockThreads, 1)
    tile_dp_block_kernel(const DeviceTask* tasks, const int32_t* block_tasks, DeviceResult* results) {
  __shared__ BestKey lane_keys[kBlockThreads][kTileDiagonals];
  __shared__ ColState lane_cols[kBlockThreads][kTile];
  // The merged keys of the anti-diagonals a step completes: warp w merges anti-diagonal
  // w (and w + 8) over the block.
  __shared__ BestKey merged[2 * kTile];
  __shared__ DeviceTask dt;
  __shared__ Progress prog;
  static_assert(kBlockWarps == kTile && kBlockThreads == kWarp * kTile,
                "warp w of the block merges anti-diagonal w of a step; lane l the keys of threads 8l..8l+7");
  const int32_t ti = block_tasks[blockIdx.x];
  const int32_t rank = threadIdx.x, lane = rank % kWarp, warp = rank / kWarp;
  if (rank == 0) {
    dt = tasks[ti];
    progress_init(prog);
    progress_init(results[ti].prog);
    results[ti].n_cigar = 0, results[ti].reach_end = false;
    if (!dt.p.active) prog.done = true;
  }
  BestKey* keys = lane_keys[rank];
  keys_clear(keys);
  __syncthreads();
  const int32_t nd = n_tile_diagonals(make_layout(dt.p));
  for (int32_t D = 0; !read_shared(prog.done); ++D) {
    compute_step<kSplice>(dt, D, prog.last_h0_t, rank, kBlockThreads, keys, lane_cols[rank]);
    const int n = D == nd - 1 ? kTileDiagonals : kTile;
    __syncthreads();  // keys, records, H, spec and u/v of this step are visible to the block
    AGATHA_NO_UNROLL
    for (int i = warp; i < n; i += kBlockWarps) {
      BestKey k = 0;
      AGATHA_UNROLL
      for (int s = 0; s < kTile; ++s) key_max(k, lane_keys[lane * kTile + s][i]);
      AGATHA_UNROLL
      for (int off = kWarp / 2; off > 0; off >>= 1) key_max(k, shfl_xor_key(k, off));
      if (lane == 0) merged[i] = k;
    }
    keys_shift(keys);
    __syncthreads();
    if (rank == 0) finalize_step(dt, D, nd, n, [&](int32_t i) { return merged[i]; }, prog);
    __syncthreads();  // the progress is visible to the block
  }
  if (rank == 0 && dt.p.active) results[ti].prog = prog;
}

// ---------------------------------------------------------------------------------------
// The traceback kernel: one lane per task, direction bytes recomputed tile by tile
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(kTracebackThreads)
    traceback_kernel(const DeviceTask* tasks, int32_t n_tasks, DeviceResult* results) {
  const int32_t i = blockIdx.x * kTracebackThreads + threadIdx.x;
  if (i >= n_tasks) return;
  const DeviceTask& dt = tasks[i];
  if (!dt.p.active || !dt.p.with_cigar) return;
  const Progress s = results[i].prog;
  const bool extz = dt.p.extz_only;
  int32_t i0, j0;
  bool reach_end = false;
  if (!s.zdropped && !extz) {
    i0 = dt.p.tlen - 1, j0 = dt.p.qlen - 1;
  } else if (!s.zdropped && extz && kernels::end_bonus_wins(s.mqe, dt.p.end_bonus, s.max)) {
    reach_end = true;
    i0 = s.mqe_t, j0 = dt.p.qlen - 1;
  } else if (s.max_t >= 0 && s.max_q >= 0) {
    i0 = s.max_t, j0 = s.max_q;
  } else {
    return;
  }
  const TileLayout l = make_layout(dt.p);
  DirCache cache;
  auto dir = [&](int32_t t, int32_t j) { return device_dir_at(dt, l, cache, t, j); };
  auto range = [&](int32_t r, int32_t& st, int32_t& en) {
    const Range g = range_of(dt.p, r);
    st = g.st, en = g.en;
  };
  results[i].n_cigar =
      kernels::walk_back(i0, j0, dt.p.rev_cigar, dir, range, dt.cigar, dt.p.splice ? dt.p.long_thres : 0);
  results[i].reach_end = reach_end;
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
size_t align16(size_t n) { return (n + 15) / 16 * 16; }
struct alignas(16) Word16 {
  uint64_t lo, hi;
};

// Bytes of one task: `in` is uploaded (sequences, tile-row offsets), `work` is
// device-only (tile records, H per column and row, edge H per anti-diagonal, APPROX_MAX
// u/v), `cigar` is written by the device and downloaded.
struct TaskSize {
  size_t in = 0, work = 0, cigar = 0;
  size_t seq = 0, tseq = 0, sites = 0, row_off = 0, rec = 0, col_h = 0, row_h = 0, spec = 0, uv = 0;
};

TaskSize task_size(const TaskParams& p) {
  TaskSize s;
  s.tseq = sizeof(uint32_t) * packed_words(static_cast<size_t>(p.tlen));
  s.seq = align8(s.tseq + sizeof(uint32_t) * packed_words(static_cast<size_t>(p.qlen)));
  if (p.active && p.splice) s.sites = align16(2 * splice_site_stride(static_cast<size_t>(p.tlen)));
  if (p.active) {
    const TileLayout l = make_layout(p);
    const size_t tiles = static_cast<size_t>(tile_row_offsets(l).back());
    s.row_off = sizeof(int64_t) * (l.n_j + 1);
    s.rec = sizeof(TileRecord) * tiles;
    s.col_h = align16(sizeof(int32_t) * p.tlen);
    s.row_h = align16(sizeof(int32_t) * p.qlen);
    s.spec = p.approx_max ? 0 : align16(sizeof(int32_t) * 2 * (static_cast<size_t>(p.qlen) + p.tlen));
    s.uv = p.approx_max ? tiles * kTile * kTile * 2 : 0;
    s.cigar = p.with_cigar ? align8(sizeof(uint32_t) * (static_cast<size_t>(p.qlen) + p.tlen + 2)) : 0;
  }
  s.in = s.seq + s.sites + s.row_off;
  s.work = s.rec + s.col_h + s.row_h + s.spec + s.uv;
  return s;
}

// Device bytes a chunk needs for one task.
size_t task_cost(const TaskSize& s) {
  return s.in + s.work + s.cigar + sizeof(DeviceTask) + sizeof(DeviceResult) + sizeof(int32_t) + 64;
}

// One of two pipeline stages: a stream with its own device and pinned buffers, so one
// chunk's transfers overlap the other chunk's kernels. A chunk moves in one copy each
// way: `in` holds the sequences and tile-row offsets of every task, then the task
// descriptors, then the plan; `out` holds the results, then the CIGARs.
struct Stage {
  cudaStream_t stream = nullptr;
  DeviceBuffer<Word16> in, out;
  DeviceBuffer<Word16> work;  // tile records are read and written 16 bytes at a time
  PinnedBuffer<Word16> h_in, h_out;
  size_t lo = 0, n = 0;  // the chunk in flight
  size_t cigar_off = 0;  // where the CIGARs start in `out` (bytes)
  std::vector<size_t> cigar_at;  // each task's CIGAR, from cigar_off (32-bit words)
  std::vector<uint8_t> kind;     // each task's TileProfile::Kind (the emulation's count)
  bool busy = false;
  // Recorded after the chunk's download; created with cudaEventBlockingSync, so the host
  // thread that waits for the chunk sleeps rather than spinning on a core the read
  // pipeline's threads are using.
  cudaEvent_t done = nullptr;
  // AGATHA_GPU_TIMING: events between the chunk's parts (see Timing).
  cudaEvent_t ev[6] = {};
  bool timed = false;

  size_t device_bytes() const { return in.bytes() + out.bytes() + work.bytes(); }
  void release_device() { in.release(), out.release(), work.release(); }
};

// With AGATHA_GPU_TIMING set (to anything but 0), every chunk is timed with CUDA events
// between its parts — uploads, the warp kernel, the block kernel, the traceback kernel,
// downloads — and the sums go to stderr, one line, when the backend is destroyed
// (scripts/gpu-check.sh reads it). The two stages overlap, so the parts of different
// chunks can run at the same time.
struct Timing {
  static constexpr int kParts = 5;
  static constexpr const char* kNames[kParts] = {"upload", "dp-warp", "dp-block", "traceback", "download"};
  bool on = false;
  double ms[kParts] = {};
  long chunks = 0;
};

#if defined(AGATHA_CUDA_EMULATION)
// Moves the kernel's path counts into the profile set_profile named.
void flush_profile() {
  std::lock_guard lock(g_profile_mu);
  for (int k = 0; k < TileProfile::kKinds; ++k) {
    uint64_t v[kPathFields];
    for (int f = 0; f < kPathFields; ++f) v[f] = g_counts[k][f].exchange(0, std::memory_order_relaxed);
    if (!g_profile) continue;
    TileProfile::Counts& c = g_profile->kind[k];
    c.fast_pairs += v[kFastPair], c.fast_singles += v[kFastSingle], c.fast_edge += v[kFastEdge];
    c.fast_keep_uv += v[kFastKeepUv], c.general_far += v[kGeneralFar], c.general_task_edge += v[kGeneralTaskEdge];
    c.general_band_edge += v[kGeneralBandEdge], c.anti_diagonals += v[kAntiDiagonals];
    c.traceback_tiles += v[kTracebackTiles], c.traceback_fast_tiles += v[kTracebackFastTiles];
  }
}
#endif

class CudaBackend final : public DpBackend {
 public:
  CudaBackend() {
    std::string why;
    if (!device_available(&why)) throw Error("no usable CUDA device: " + why);
    const char* t = std::getenv("AGATHA_GPU_TIMING");
    timing_.on = t && *t && std::string(t) != "0";
    for (Stage& st : stages_) {
      check(cudaStreamCreateWithFlags(&st.stream, cudaStreamNonBlocking), "cudaStreamCreate");
      check(cudaEventCreateWithFlags(&st.done, cudaEventBlockingSync | cudaEventDisableTiming), "cudaEventCreate");
      if (timing_.on)
        for (cudaEvent_t& e : st.ev) check(cudaEventCreate(&e), "cudaEventCreate");
    }
  }
  ~CudaBackend() override {
    for (Stage& st : stages_) {
      if (st.stream) cudaStreamSynchronize(st.stream), cudaStreamDestroy(st.stream);
      if (st.done) cudaEventDestroy(st.done);
      for (cudaEvent_t e : st.ev)
        if (e) cudaEventDestroy(e);
    }
    if (timing_.on) {
      std::string line = "gpu-timing: backend=" + name() + " chunks=" + std::to_string(timing_.chunks);
      for (int k = 0; k < Timing::kParts; ++k) {
        char b[64];
        std::snprintf(b, sizeof b, " %s_ms=%.3f", Timing::kNames[k], timing_.ms[k]);
        line += b;
      }
      std::fprintf(stderr, "%s\n", line.c_str());
    }
  }
  std::string name() const override {
#if defined(AGATHA_CUDA_EMULATION)
    return "gpu-emu";
#else
    return "gpu";
#endif
  }

  // The host's part of a run is packing the chunks and unpacking their results; the
  // rest is waiting on the streams.
  bool runs_on_device() const override { return true; }

  void run(std::span<const DpTask> tasks, std::span<DpResult> results) override {
    if (results.size() != tasks.size()) throw Error("DpBackend::run: results and tasks differ in size");
    try {
      run_chunks(tasks, results);
#if defined(AGATHA_CUDA_EMULATION)
      flush_profile();
#endif
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
    for (size_t i = 0; i < n; ++i) {
      params[i] = make_params(tasks[i]), sizes[i] = task_size(params[i]);
      if (too_long_for_gpu(params[i]))
        throw Error("GPU: DP task " + std::to_string(i) + " has a target of " + std::to_string(params[i].tlen) +
                    " bases; the GPU engine holds targets below " + std::to_string(kMaxKeyTarget));
    }
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
  // so the next run starts clean; the runtime's last-error state is cleared. A stage
  // whose launch failed part-way is not busy but may hold queued work (its upload, a
  // kernel) that reads its pinned buffer and descriptors: it is waited for too, before
  // the next chunk overwrites them.
  void abandon() {
    for (Stage& st : stages_) {
      cudaStreamSynchronize(st.stream);
      st.busy = false, st.n = 0;
    }
    cudaGetLastError();
  }

  void launch(Stage& st, std::span<const DpTask> tasks, const std::vector<TaskParams>& params,
              const std::vector<TaskSize>& sizes, size_t lo, size_t hi) {
    const size_t n = hi - lo;
    size_t seq_total = 0, work_total = 0, cigar_total = 0;
    for (size_t i = lo; i < hi; ++i)
      seq_total += sizes[i].in, work_total += sizes[i].work, cigar_total += sizes[i].cigar;
    // ksw_extd2 tasks (kind 0) and splice tasks (kind 1) run in kernels of their own. The
    // plan holds, kind by kind, kSlots task indices per warp (-1: empty slot), then the
    // kind's block tasks.
    struct KindPlan {
      std::vector<std::vector<uint32_t>> warps;
      std::vector<uint32_t> blocks;
      size_t at = 0;  // the kind's first plan entry
    };
    KindPlan kinds[2];
    size_t plan_n = 0;
    for (int kind = 0; kind < 2; ++kind) {
      std::vector<uint32_t> idx;
      for (size_t k = 0; k < n; ++k)
        if (params[lo + k].splice == (kind == 1)) idx.push_back(static_cast<uint32_t>(k));
      std::vector<int64_t> cells(idx.size());
      std::vector<char> is_block(idx.size());
      for (size_t i = 0; i < idx.size(); ++i)
        cells[i] = tile_cells(params[lo + idx[i]]), is_block[i] = block_task(params[lo + idx[i]]);
      KindPlan& kp = kinds[kind];
      kp.warps = plan_warps(cells, kSlots, &kp.blocks, &is_block);
      for (auto& w : kp.warps)
        for (uint32_t& t : w) t = idx[t];
      for (uint32_t& t : kp.blocks) t = idx[t];
      kp.at = plan_n;
      plan_n += kp.warps.size() * kSlots + kp.blocks.size();
    }
    // The layouts of `in` and `out`.
    const size_t tasks_off = align16(seq_total), plan_off = align16(tasks_off + n * sizeof(DeviceTask));
    const size_t in_total = plan_off + plan_n * sizeof(int32_t);
    st.cigar_off = align16(n * sizeof(DeviceResult));
    const size_t out_total = st.cigar_off + cigar_total;
    st.in.ensure(in_total / sizeof(Word16) + 1);
    st.out.ensure(out_total / sizeof(Word16) + 1);
    st.work.ensure(work_total / sizeof(Word16) + 1);
    st.h_in.ensure(in_total / sizeof(Word16) + 1);
    st.h_out.ensure(out_total / sizeof(Word16) + 1);
    st.cigar_at.assign(n, 0);
    st.kind.resize(n);
    for (size_t k = 0; k < n; ++k) st.kind[k] = static_cast<uint8_t>(profile_kind(params[lo + k]));
    uint8_t* in = reinterpret_cast<uint8_t*>(st.in.get());
    uint8_t* work = reinterpret_cast<uint8_t*>(st.work.get());
    uint8_t* out = reinterpret_cast<uint8_t*>(st.out.get());
    uint8_t* h_in = reinterpret_cast<uint8_t*>(st.h_in.get());
    DeviceTask* h_tasks = reinterpret_cast<DeviceTask*>(h_in + tasks_off);
    size_t at_in = 0, at_work = 0, at_cigar = 0;
    for (size_t k = 0; k < n; ++k) {
      const TaskParams& p = params[lo + k];
      const TaskSize& s = sizes[lo + k];
      DeviceTask d{};
      d.p = p;
      const auto tw = pack_bases(tasks[lo + k].target), qw = pack_bases(tasks[lo + k].query);
      uint8_t* h = h_in + at_in;
      std::memcpy(h, tw.data(), tw.size() * sizeof(uint32_t));
      std::memcpy(h + s.tseq, qw.data(), qw.size() * sizeof(uint32_t));
      d.tpack = reinterpret_cast<const uint32_t*>(in + at_in);
      d.qpack = reinterpret_cast<const uint32_t*>(in + at_in + s.tseq);
      if (s.sites > 0) {
        const auto sites = splice_site_bytes(tasks[lo + k]);
        std::memcpy(h + s.seq, sites.data(), sites.size());
        d.m.donor = reinterpret_cast<const int8_t*>(in + at_in + s.seq);
        d.m.acceptor = d.m.donor + sites.size() / 2;
      }
      if (p.active) {
        const auto off = tile_row_offsets(make_layout(p));
        std::memcpy(h + s.seq + s.sites, off.data(), s.row_off);
      }
      d.m.row_off = reinterpret_cast<const int64_t*>(in + at_in + s.seq + s.sites);
      at_in += s.in;
      uint8_t* w = work + at_work;
      d.m.rec = reinterpret_cast<TileRecord*>(w);
      d.m.col_h = reinterpret_cast<int32_t*>(w + s.rec);
      d.m.row_h = reinterpret_cast<int32_t*>(w + s.rec + s.col_h);
      d.m.spec = reinterpret_cast<int32_t*>(w + s.rec + s.col_h + s.row_h);
      d.m.uv = reinterpret_cast<int8_t*>(w + s.rec + s.col_h + s.row_h + s.spec);
      at_work += s.work;
      d.cigar = reinterpret_cast<uint32_t*>(out + st.cigar_off + at_cigar);
      st.cigar_at[k] = at_cigar / sizeof(uint32_t);
      at_cigar += s.cigar;
      std::memcpy(static_cast<void*>(h_tasks + k), &d, sizeof d);
    }
    int32_t* plan = reinterpret_cast<int32_t*>(h_in + plan_off);
    std::fill(plan, plan + plan_n, -1);
    for (const KindPlan& kp : kinds) {
      int32_t* at = plan + kp.at;
      for (size_t w = 0; w < kp.warps.size(); ++w)
        for (size_t j = 0; j < kp.warps[w].size(); ++j) at[w * kSlots + j] = static_cast<int32_t>(kp.warps[w][j]);
      at += kp.warps.size() * kSlots;
      for (size_t b = 0; b < kp.blocks.size(); ++b) at[b] = static_cast<int32_t>(kp.blocks[b]);
    }
    const DeviceTask* d_tasks = reinterpret_cast<const DeviceTask*>(in + tasks_off);
    const int32_t* d_plan = reinterpret_cast<const int32_t*>(in + plan_off);
    DeviceResult* d_res = reinterpret_cast<DeviceResult*>(out);
    st.timed = timing_.on;
    auto mark = [&](int k) {
      if (st.timed) check(cudaEventRecord(st.ev[k], st.stream), "cudaEventRecord");
    };
    mark(0);
    check(cudaMemcpyAsync(st.in.get(), st.h_in.get(), in_total, cudaMemcpyHostToDevice, st.stream), "upload");
    const int32_t n_tasks = static_cast<int32_t>(n);
    const int32_t tb_blocks = (n_tasks + kTracebackThreads - 1) / kTracebackThreads;
    // Launches the warp kernel (block = false) or the block kernel of each kind.
    auto launch_dp = [&](bool block) {
      for (int kind = 0; kind < 2; ++kind) {
        const KindPlan& kp = kinds[kind];
        const int32_t n_warps = static_cast<int32_t>(kp.warps.size());
        const int32_t warp_blocks = (n_warps + kWarpsPerBlock - 1) / kWarpsPerBlock;
        const int32_t n_blocks = static_cast<int32_t>(kp.blocks.size());
        const int32_t* warp_plan = d_plan + kp.at;
        const int32_t* block_plan = warp_plan + n_warps * kSlots;
        auto warp_kernel = kind == 1 ? tile_dp_kernel<true> : tile_dp_kernel<false>;
        auto block_kernel = kind == 1 ? tile_dp_block_kernel<true> : tile_dp_block_kernel<false>;
#if defined(AGATHA_CUDA_EMULATION)
        if (!block && n_warps > 0)
          emu_launch(warp_kernel, dim3(warp_blocks), dim3(kWarp * kWarpsPerBlock), 0, st.stream, d_tasks, warp_plan,
                     n_warps, d_res);
        if (block && n_blocks > 0)
          emu_launch(block_kernel, dim3(n_blocks), dim3(kBlockThreads), 0, st.stream, d_tasks, block_plan, d_res);
#else
        if (!block && n_warps > 0)
          warp_kernel<<<warp_blocks, kWarp * kWarpsPerBlock, 0, st.stream>>>(d_tasks, warp_plan, n_warps, d_res);
        if (block && n_blocks > 0)
          block_kernel<<<n_blocks, kBlockThreads, 0, st.stream>>>(d_tasks, block_plan, d_res);
#endif
      }
    };
    mark(1);
    launch_dp(false);
    mark(2);
    launch_dp(true);
    mark(3);
#if defined(AGATHA_CUDA_EMULATION)
    if (cigar_total > 0)
      emu_launch(traceback_kernel, dim3(tb_blocks), dim3(kTracebackThreads), 0, st.stream, d_tasks, n_tasks, d_res);
#else
    if (cigar_total > 0) traceback_kernel<<<tb_blocks, kTracebackThreads, 0, st.stream>>>(d_tasks, n_tasks, d_res);
#endif
    check(cudaGetLastError(), "kernel launch");
    mark(4);
    check(cudaMemcpyAsync(st.h_out.get(), st.out.get(), out_total, cudaMemcpyDeviceToHost, st.stream), "download");
    mark(5);
    check(cudaEventRecord(st.done, st.stream), "cudaEventRecord");
    st.lo = lo, st.n = n, st.busy = true;
  }

  void harvest(Stage& st, std::span<DpResult> results) {
    st.busy = false;
    // Sleeps until the chunk is back; the stream's synchronisation then only reports
    // its errors.
    check(cudaEventSynchronize(st.done), "DP kernel");
    check(cudaStreamSynchronize(st.stream), "DP kernel");
    if (st.timed) {
      for (int k = 0; k < Timing::kParts; ++k) {
        float ms = 0;
        if (cudaEventElapsedTime(&ms, st.ev[k], st.ev[k + 1]) == cudaSuccess) timing_.ms[k] += ms;
      }
      cudaGetLastError();
      ++timing_.chunks;
    }
    const uint8_t* h_out = reinterpret_cast<const uint8_t*>(st.h_out.get());
    const uint32_t* cig = reinterpret_cast<const uint32_t*>(h_out + st.cigar_off);
    for (size_t k = 0; k < st.n; ++k) {
      DeviceResult dr;
      std::memcpy(static_cast<void*>(&dr), h_out + k * sizeof(DeviceResult), sizeof dr);
      DpResult& r = results[st.lo + k];
      r = DpResult{};
      const Progress& s = dr.prog;
      r.score = s.score, r.max = s.max, r.max_q = s.max_q, r.max_t = s.max_t;
      r.mqe = s.mqe, r.mqe_t = s.mqe_t, r.mte = s.mte, r.mte_q = s.mte_q;
      r.zdropped = s.zdropped, r.reach_end = dr.reach_end, r.cells = s.cells;
#if defined(AGATHA_CUDA_EMULATION)
      if (g_counting.load(std::memory_order_relaxed)) {
        std::lock_guard lock(g_profile_mu);
        if (g_profile) ++g_profile->kind[st.kind[k]].tasks, g_profile->kind[st.kind[k]].cells += s.cells;
      }
#endif
      if (dr.n_cigar > 0) {
        const uint32_t* c = cig + st.cigar_at[k];
        r.cigar.assign(c, c + dr.n_cigar);
      }
    }
    st.n = 0;
  }

  Stage stages_[2];
  Timing timing_;
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
  const cudaError_t fe = cudaFuncGetAttributes(&a, tile_dp_kernel<false>);
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

#if defined(AGATHA_CUDA_EMULATION)
void set_profile(TileProfile* out) {
  flush_profile();  // counts of earlier runs go where they were asked to
  std::lock_guard lock(g_profile_mu);
  g_profile = out;
  g_counting.store(out != nullptr, std::memory_order_relaxed);
}
#endif

}  // namespace agatha::gpu::AGATHA_CUDA_NS
