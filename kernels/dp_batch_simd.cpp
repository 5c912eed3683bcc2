// kernels/dp_batch_simd.cpp — full-band gap fills several at a time, one task per
// lane: the task shape that dominates HiFi and repeat-rich mapping (ksw_extd2 with
// KSW_EZ_APPROX_MAX, no Z-drop, a band that holds every cell, a few hundred bases a
// side). One source, compiled once per instruction set like dp_simd.cpp: 16 tasks a step
// with SSE4.1 (extd2_batch_sse41), 32 with AVX2, 64 with AVX-512.
//
// Why the answers are dp_simd.cpp's, cell for cell. With a band that holds the whole
// matrix, every cell of a task's matrix is inside its exact band, so every score is
// fresh (no stale scores), and a cell reads only its left and upper neighbours — cells
// of the matrix or the border values (border[r] for the first row and column, the
// initial constants at t = -1). Cells outside a task's matrix (the rounded margin of
// the reference, or here the cells past a shorter task's ends in a batch of longer
// ones) feed only cells further outside. So each cell of the matrix is the same 8-bit
// function of the same inputs as in the per-task kernel, computed with the same vector
// operations, and so are its direction byte, the approximate-maximum path that reads
// them, and the traceback. Only the layout and the order differ: lane l of every vector
// belongs to task l, and the batch computes the largest matrix in it row by row (any
// order that has a cell's left and upper neighbours before it gives the same values).
#include "dp_common.hpp"
#include "dp_kernels.hpp"
#include "dp_cell_simd.hpp"
#include "simd_common.hpp"

#if !defined(AGATHA_ISA_SSE41) && !defined(AGATHA_ISA_AVX2) && !defined(AGATHA_ISA_AVX512)
#error "dp_batch_simd.cpp must be compiled with AGATHA_ISA_SSE41, AGATHA_ISA_AVX2 or AGATHA_ISA_AVX512"
#endif

#include <immintrin.h>

#include <algorithm>
#include <cassert>
#include <cstring>
#include <span>

namespace agatha::kernels {
namespace {

constexpr int kLanes = Vec::W;
using V = Vec::T;

// With AVX-512 the direction bits of a cell vector are its eight masks (PlaneCells,
// dp_cell_simd.hpp), 64 bytes as its direction bytes would be: bit l of word k is lane
// l's bit k. Without mask registers, one byte per lane.
#if defined(AGATHA_ISA_AVX512)
inline constexpr bool kPlanes = true;
#else
inline constexpr bool kPlanes = false;
#endif

// The target's N as the per-task kernel codes it: target ^ query then indexes the
// score table directly (0 match, 1-3 mismatch, 4-12 with an N).
constexpr uint8_t kTargetN = 8;

struct Consts {
  V q, q2, qe, qe2, mch, zero, one, two, three, four, table, cont_e, cont_f, cont_e2, cont_f2;
  explicit Consts(const Setup& st)
      : q(Vec::set1(st.q)),
        q2(Vec::set1(st.q2)),
        qe(Vec::set1(st.qe)),
        qe2(Vec::set1(st.qe2)),
        mch(Vec::set1(st.sc_match)),
        zero(Vec::zero()),
        one(Vec::set1(1)),
        two(Vec::set1(2)),
        three(Vec::set1(3)),
        four(Vec::set1(4)),
        cont_e(Vec::set1(dir_bit::kContE)),
        cont_f(Vec::set1(dir_bit::kContF)),
        cont_e2(Vec::set1(dir_bit::kContE2)),
        cont_f2(Vec::set1(dir_bit::kContF2)) {
    int8_t t[16];
    std::fill(t, t + 16, st.sc_ambi);
    t[0] = st.sc_match;
    t[1] = t[2] = t[3] = st.sc_mismatch;
    table = Vec::table16(t);
  }
};

// One row j of the batch (cells t = 0..T-1 of every lane), left to right. The values
// of the cell on the left (x, v, x2) stay in registers; the row above's (u, y, y2) are
// read from arrays indexed by t, y and y2 replaced in place and u written to u_out; v
// and the direction bytes are kept for the approximate-maximum path and the traceback.
__attribute__((always_inline)) inline void batch_row(const Consts& k, int T, const uint8_t* tg, V qj, V x, V v, V x2,
                                                    const int8_t* u_in, int8_t* u_out, int8_t* y, int8_t* y2,
                                                    int8_t* v_out, uint8_t* dir) {
  for (int t = 0; t < T; ++t) {
    const size_t at = static_cast<size_t>(t) * kLanes;
    const V ut = Vec::load(u_in + at);
    const V z = Vec::lookup(k.table, Vec::xor_(Vec::load(tg + at), qj));
    // Left-aligned gaps, as dp_simd.cpp's kLeft mode.
    const auto c = update_cells<Mode::kLeft, Vec, Consts, kPlanes>(
        k, v, ut, Vec::add(x, v), Vec::add(Vec::load(y + at), ut), Vec::add(x2, v), Vec::add(Vec::load(y2 + at), ut), z);
    x = c.x, v = c.v, x2 = c.x2;
    Vec::store(u_out + at, c.u);
    Vec::store(v_out + at, c.v);
    Vec::store(y + at, c.y);
    Vec::store(y2 + at, c.y2);
#if defined(AGATHA_ISA_AVX512)
    for (int i = 0; i < 4; ++i)
      Vec::store_mask(dir + at + 8 * i, c.src[i]), Vec::store_mask(dir + at + 8 * (4 + i), c.cont[i]);
#else
    Vec::store(dir + at, c.dir);
#endif
  }
}

// Cell (t, j)'s direction byte of lane l, whose cell vector's bits start at `cell`.
__attribute__((always_inline)) inline uint32_t dir_byte(const uint8_t* cell, int l) {
#if defined(AGATHA_ISA_AVX512)
  return plane_dir_byte(cell, l);
#else
  return cell[l];
#endif
}

// One sequence per lane, transposed: out[t * kLanes + l] = seqs[l][t] for t < its
// length, 0 past it and in the lanes from n on, for t below T rounded up to 16. In
// blocks of 16 lanes by 16 positions: 16 loads, a 16 x 16 byte transpose, 16 stores.
void transpose_codes(const std::span<const uint8_t>* const* seqs, int n, int T, uint8_t* out) {
  for (int l0 = 0; l0 < kLanes; l0 += 16) {
    for (int t0 = 0; t0 < T; t0 += 16) {
      __m128i x[16];
      for (int k = 0; k < 16; ++k) {
        const int l = l0 + k;
        const size_t len = l < n ? seqs[l]->size() : 0, t = static_cast<size_t>(t0);
        if (len >= t + 16) {
          x[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(seqs[l]->data() + t));
        } else {
          alignas(16) uint8_t part[16] = {};
          if (len > t) std::memcpy(part, seqs[l]->data() + t, len - t);
          x[k] = _mm_load_si128(reinterpret_cast<const __m128i*>(part));
        }
      }
      // Four rounds of interleaving row i with row i + 8 (low halves into row 2i, high
      // halves into 2i + 1) transpose a 16 x 16 block of bytes.
      for (int round = 0; round < 4; ++round) {
        __m128i y[16];
        for (int i = 0; i < 8; ++i)
          y[2 * i] = _mm_unpacklo_epi8(x[i], x[i + 8]), y[2 * i + 1] = _mm_unpackhi_epi8(x[i], x[i + 8]);
        std::copy(y, y + 16, x);
      }
      for (int i = 0; i < 16; ++i)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + static_cast<size_t>(t0 + i) * kLanes + l0), x[i]);
    }
  }
}

}  // namespace

#if defined(AGATHA_ISA_AVX512)
void extd2_batch_avx512(const DpTask* const* tasks, DpResult* const* results, int n, Workspace& ws)
#elif defined(AGATHA_ISA_AVX2)
void extd2_batch_avx2(const DpTask* const* tasks, DpResult* const* results, int n, Workspace& ws)
#else
void extd2_batch_sse41(const DpTask* const* tasks, DpResult* const* results, int n, Workspace& ws)
#endif
{
  // (the caller's part: 1 <= n <= kLanes tasks, each batch_task() with one key)
  assert(n >= 1 && n <= kLanes);
  Setup st[kLanes];
  int T = 0, Q = 0;
  for (int l = 0; l < n; ++l) {
    *results[l] = DpResult{};
    [[maybe_unused]] uint64_t key = 0;
    [[maybe_unused]] const bool ok = prepare(*tasks[l], st[l]) && batch_task(*tasks[l], key);
    assert(ok);
    T = std::max(T, st[l].tlen), Q = std::max(Q, st[l].qlen);
  }
  const Setup& s0 = st[0];
  const auto lanes = static_cast<size_t>(kLanes);
  const size_t row_bytes = static_cast<size_t>(T) * lanes;

  // The sequences, transposed: the codes of position t of every task in one vector (the
  // target's rows rounded up to 16 run into the query's, which are written after them).
  uint8_t* const seq = ws.seq.reserve(static_cast<size_t>(T + Q + 16) * lanes);
  uint8_t *const tg = seq, *const qy = seq + row_bytes;
  {
    const std::span<const uint8_t>* side[kLanes];
    for (int l = 0; l < n; ++l) side[l] = &tasks[l]->target;
    transpose_codes(side, n, T, tg);
    for (int l = 0; l < n; ++l) side[l] = &tasks[l]->query;
    transpose_codes(side, n, Q, qy);
  }
  static_assert(kTargetN == 4 + 4);  // the target's N (4) recoded: code + (code & 4)
  const V k4 = Vec::set1(4);
  for (size_t t = 0; t < static_cast<size_t>(T); ++t) {
    const V c = Vec::load(tg + t * lanes);
    Vec::store(tg + t * lanes, Vec::add(c, Vec::and_(c, k4)));
  }

  // Rows of T vectors: u of the row above and of this row (by the parity of j), y and
  // y2 (replaced in place), v of this row. Row 0 reads the border above it: u(t, -1) =
  // border[t] (the border difference at anti-diagonal t), y = -qe, y2 = -qe2.
  int8_t* const rows = ws.diff.reserve(5 * row_bytes);
  int8_t* const u_rows[2] = {rows, rows + row_bytes};
  int8_t *const y = rows + 2 * row_bytes, *const y2 = y + row_bytes, *const v_row = y2 + row_bytes;
  const int8_t nqe = static_cast<int8_t>(-s0.qe), nqe2 = static_cast<int8_t>(-s0.qe2);
  for (int t = 0; t < T; ++t) std::memset(u_rows[1] + static_cast<size_t>(t) * lanes, boundary_diff(s0, t), lanes);
  std::memset(y, nqe, row_bytes), std::memset(y2, nqe2, row_bytes);
  // The direction bytes, row by row: cell (t, j) of lane l at (j * T + t) * lanes + l.
  uint8_t* const dir = ws.dir.reserve(static_cast<size_t>(Q) * row_bytes);

  // The greedy path of each task (close_approx), at cell (last_t, r - last_t) of
  // anti-diagonal r. Its step to r + 1 reads v of the cell below (row j + 1) and u of the
  // cell to the right (row j), so it is taken once both rows are done: after row j, each
  // path steps right along row j - 1 and then down into row j (on its last row, right to
  // its end).
  struct Path {
    int32_t h0, last_t, r, last_r;
  };
  Path path[kLanes];
  const Consts k(s0);
  for (int j = 0; j < Q; ++j) {
    int8_t *const u_in = u_rows[(j + 1) & 1], *const u_out = u_rows[j & 1];
    // Column 0 reads the border on its left: x = -qe, x2 = -qe2, v = border[j].
    batch_row(k, T, tg, Vec::load(qy + static_cast<size_t>(j) * lanes), Vec::set1(nqe),
              Vec::set1(boundary_diff(s0, j)), Vec::set1(nqe2), u_in, u_out, y, y2, v_row,
              dir + static_cast<size_t>(j) * row_bytes);
    for (int l = 0; l < n; ++l) {
      Path& p = path[l];
      const int qlen = st[l].qlen, tlen = st[l].tlen;
      if (j == 0) p = {v_row[l] - st[l].qe_row0, 0, 0, qlen + tlen - 2};
      if (j >= qlen) continue;
      // u at (t, jj) for jj in {j - 1, j}; v at (t, j).
      const auto u_at = [&](int t, int jj) { return int32_t{u_rows[jj & 1][static_cast<size_t>(t) * lanes + l]}; };
      const auto v_at = [&](int t) { return int32_t{v_row[static_cast<size_t>(t) * lanes + l]}; };
      while (p.r < p.last_r) {
        const int jc = p.r - p.last_t;  // the path's row
        const bool down = jc + 1 <= qlen - 1, right = p.last_t + 1 <= tlen - 1;
        if (down && jc + 1 > j) break;  // the row below is not done yet
        if (down && right) {
          const int32_t d0 = v_at(p.last_t), d1 = u_at(p.last_t + 1, jc);
          const int32_t step = d0 > d1 ? 0 : 1;
          p.h0 += step ? d1 : d0;
          p.last_t += step;
        } else if (down) {
          p.h0 += v_at(p.last_t);
        } else {
          ++p.last_t;
          p.h0 += u_at(p.last_t, jc);
        }
        ++p.r;
      }
    }
  }
  for (int l = 0; l < n; ++l) results[l]->score = path[l].h0;  // every path is at its last anti-diagonal

  // Each task's traceback through its lane of the direction bytes.
  for (int l = 0; l < n; ++l) {
    const DpTask& task = *tasks[l];
    DpResult& res = *results[l];
    res.cells = static_cast<uint64_t>(st[l].qlen) * static_cast<uint64_t>(st[l].tlen);
    int i0, j0;
    if (!traceback_start(task, st[l].tlen, st[l].qlen, res, i0, j0)) continue;
    res.cigar.resize(static_cast<size_t>(i0) + j0 + 2);
    const auto dir_at = [&](int i, int j) {
      return dir_byte(dir + static_cast<size_t>(j) * row_bytes + static_cast<size_t>(i) * lanes, l);
    };
    // Every cell of the matrix is computed: the walk never leaves it, and no cell it
    // visits is outside the range given here.
    const auto range = [&](int r, int32_t& a, int32_t& b) { a = std::max(0, r - Q + 1), b = std::min(T - 1, r); };
    const int m = walk_back(i0, j0, (task.flag & dp_flag::kRevCigar) != 0, dir_at, range, res.cigar.data());
    res.cigar.resize(static_cast<size_t>(m));
    res.cigar.shrink_to_fit();
  }
}

}  // namespace agatha::kernels
