// kernels/dp_common.hpp — what every CPU backend of the guided DP shares: task set-up
// (gap-piece order, boundary differences, scores), anti-diagonal geometry, the
// per-thread workspace and the traceback.
//
// Coordinates: t = target index (i), j = query index, anti-diagonal r = t + j. The DP
// is stored as 8-bit differences (Suzuki-Kasahara form, as ksw2):
//   u(t) = H(t,j) - H(t-1,j)      v(t) = H(t,j) - H(t,j-1)
//   x(t) = E'(t,j) - H(t,j)       y(t) = F'(t,j) - H(t,j)     (short gap piece q,e)
//   x2(t) = E2'(t,j) - H(t,j)     y2(t) = F2'(t,j) - H(t,j)   (long gap piece q2,e2)
// where E' is the deletion state leaving the cell (consumes target) and F' the
// insertion state (consumes query). Each array is indexed by t and holds the values of
// the last anti-diagonal that computed that t.
//
// Band geometry: the exact band of anti-diagonal r is [st0, en0]; every backend
// computes the range rounded outward to 16-cell blocks, [st, en], because the
// reference does, and the cells in the margin ("soft band") feed later in-band cells.
#pragma once

#include <agatha/dp.hpp>

#include "dp_rules.hpp"
#include "traceback.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

namespace agatha::kernels {

inline constexpr int kBlock = 16;  // the reference's vector width, which fixes the soft band

// ---------------------------------------------------------------------------------------
// Task set-up
// ---------------------------------------------------------------------------------------
struct Setup {
  int qlen = 0, tlen = 0, w = 0;
  int tlen16 = 0;  // tlen rounded up to a multiple of kBlock
  // Gap pieces ordered so that q + e <= q2 + e2 (the reference swaps them).
  int8_t q = 0, e = 0, q2 = 0, e2 = 0, qe = 0, qe2 = 0;
  // q + e of the first piece as the task gives it, before the swap: ksw_extd2 takes it
  // once before swapping and subtracts it for H(0,0), so with the pieces given in the
  // other order every H (score, max, mqe, mte) moves by the difference.
  int32_t qe_row0 = 0;
  // Boundary: H(-1,j) - H(-1,j-1) is -e up to long_thres, long_diff at it, -e2 after.
  int long_thres = 0;
  int8_t long_diff = 0;
  int8_t sc_match = 0, sc_mismatch = 0, sc_ambi = 0, sc_transition = 0;
  bool with_cigar = false, approx_max = false;
  // KSW_EZ_GENERIC_SC (DpScoring::generic): scores from the matrix, refreshed on the
  // exact band [st0, en0] of each anti-diagonal only.
  bool generic = false;
};

// Fills `s` and returns true when the task needs the DP; false when the reference
// returns its reset result at once (empty sequence, or a mismatch so costly that
// the difference arithmetic cannot hold it).
inline bool prepare(const DpTask& task, Setup& s) {
  s.qlen = static_cast<int>(task.query.size());
  s.tlen = static_cast<int>(task.target.size());
  if (s.qlen <= 0 || s.tlen <= 0) return false;
  // As minimap2 passes them: q, e, q2, e2 as int8_t, the matrix from ksw_gen_simple_mat.
  int q = static_cast<int8_t>(task.scoring.q), e = static_cast<int8_t>(task.scoring.e);
  int q2 = static_cast<int8_t>(task.scoring.q2), e2 = static_cast<int8_t>(task.scoring.e2);
  s.qe_row0 = q + e;
  if (q2 + e2 < q + e) std::swap(q, q2), std::swap(e, e2);
  const KswMatrix m = ksw_matrix(task.scoring);
  const int min_sc = std::min({m.match, m.mismatch, m.ambi, m.transition});
  if (-min_sc > 2 * (q + e)) return false;
  s.q = static_cast<int8_t>(q), s.e = static_cast<int8_t>(e);
  s.q2 = static_cast<int8_t>(q2), s.e2 = static_cast<int8_t>(e2);
  s.qe = static_cast<int8_t>(q + e), s.qe2 = static_cast<int8_t>(q2 + e2);
  s.sc_match = m.match;
  s.sc_mismatch = m.mismatch;
  s.sc_transition = m.transition;
  s.generic = task.scoring.generic();
  // A zero N entry means "-e2" in the reference, unless it reads the matrix itself.
  s.sc_ambi = m.ambi == 0 && !s.generic ? static_cast<int8_t>(-e2) : m.ambi;
  // A band of max(tlen, qlen) already holds every cell, so a wider one (up to INT_MAX)
  // computes the same cells; clamping keeps band arithmetic (w + r, w + 30) in range.
  const int full = std::max(s.tlen, s.qlen);
  s.w = task.w < 0 || task.w > full ? full : task.w;
  s.tlen16 = (s.tlen + kBlock - 1) / kBlock * kBlock;
  // First gap length at which the long piece is cheaper.
  int lt = e != e2 ? (q2 - q) / (e - e2) - 1 : 0;
  if (q2 + e2 + lt * e2 > q + e + lt * e) ++lt;
  s.long_thres = lt;
  s.long_diff = static_cast<int8_t>(lt * (e - e2) - (q2 - q) - e2);
  s.with_cigar = !(task.flag & dp_flag::kScoreOnly);
  s.approx_max = (task.flag & dp_flag::kApproxMax) != 0;
  return true;
}

// The substitution score of target code tb against query code qb, as the reference's
// score vectors hold it.
inline int8_t pair_score(const Setup& s, uint8_t tb, uint8_t qb) {
  if (tb == 4 || qb == 4) return s.sc_ambi;
  if (tb == qb) return s.sc_match;
  return (tb ^ qb) == 2 && tb < 4 && qb < 4 ? s.sc_transition : s.sc_mismatch;
}

// The last cell of anti-diagonal [st0, en0] whose score the reference refreshes: the
// end of the last 16-cell chunk from st0, or en0 itself with generic scoring.
inline int refresh_end(const Setup& s, int st0, int en0) {
  return s.generic ? en0 : st0 + ((en0 - st0) & ~(kBlock - 1)) + kBlock - 1;
}

// H(-1, r) - H(-1, r-1) (equally H(r,-1) - H(r-1,-1)): the border's difference at r.
inline int8_t boundary_diff(const Setup& s, int r) {
  if (r == 0) return static_cast<int8_t>(-s.qe);
  if (r < s.long_thres) return static_cast<int8_t>(-s.e);
  if (r == s.long_thres) return s.long_diff;
  return static_cast<int8_t>(-s.e2);
}

struct AntiDiagonal {
  int st0, en0;  // exact band
  int st, en;    // rounded outward to kBlock
};

static_assert(kMteQCellFlag == dp_flag::kMteQCell);
inline int32_t mte_q_end(const DpTask& task, const AntiDiagonal& d) { return mte_q_end(task.flag, d.en0, d.en); }

// Anti-diagonal r's band (rounded outward to 16-cell blocks) for the anti-diagonals of
// one task in turn, with the task's bounds held as the formulas use them. at() returns
// false when the band is empty (the run stops, reported as Z-dropped).
class BandWalker {
 public:
  explicit BandWalker(const Setup& s) : q1_(s.qlen - 1), t1_(s.tlen - 1), w1_(s.w - 1), w_(s.w) {}
  bool at(int r, AntiDiagonal& d) const {
    const int st = std::max(std::max(0, r - q1_), (r - w1_) >> 1);  // ceil((r-w)/2)
    const int en = std::min(std::min(t1_, r), (r + w_) >> 1);       // floor((r+w)/2)
    d.st0 = st, d.en0 = en;
    d.st = st & ~(kBlock - 1);  // when 0 <= st <= en: rounding down by masking
    d.en = en | (kBlock - 1);   // and up to the last cell of en's block
    return st <= en;
  }

 private:
  int q1_, t1_, w1_, w_;
};

// One anti-diagonal's band (BandWalker, for a caller that asks for one).
inline bool anti_diagonal(const Setup& s, int r, AntiDiagonal& d) { return BandWalker(s).at(r, d); }

// boundary_diff(s, r) for r in [0, boundary_len(s)), the range a task reads it for (the
// border cells t = 0 and j = 0 of an anti-diagonal whose rounded range reaches them:
// r < qlen + kBlock and r < tlen16), written into `out` once per task.
inline int boundary_len(const Setup& s) { return std::max(s.qlen, s.tlen) + kBlock; }
inline void fill_boundary(const Setup& s, int8_t* out) {
  for (int r = 0, n = boundary_len(s); r < n; ++r) out[r] = boundary_diff(s, r);
}

// ---------------------------------------------------------------------------------------
// Workspace
// ---------------------------------------------------------------------------------------
// A 64-byte aligned, growable, uninitialised array that keeps its capacity across tasks.
template <class T>
class AlignedArray {
 public:
  T* data() { return ptr_.get(); }
  const T* data() const { return ptr_.get(); }
  size_t capacity() const { return cap_; }
  // Frees the array (capacity 0).
  void release() { ptr_.reset(), cap_ = 0; }
  T& operator[](size_t i) { return ptr_.get()[i]; }
  const T& operator[](size_t i) const { return ptr_.get()[i]; }
  // Ensures room for n elements, keeping the first `keep` (at least doubling the
  // capacity when it grows, so a run of growing calls copies little).
  T* grow(size_t n, size_t keep) {
    if (n > cap_) {
      AlignedArray bigger;
      bigger.reserve(std::max(n, 2 * cap_));
      if (keep) std::memcpy(bigger.data(), data(), keep * sizeof(T));
      std::swap(ptr_, bigger.ptr_), std::swap(cap_, bigger.cap_);
    }
    return ptr_.get();
  }
  // Ensures room for n elements; contents are unspecified afterwards.
  T* reserve(size_t n) {
    if (n > cap_) {
      size_t bytes = (std::max<size_t>(n, 16) * sizeof(T) + 63) / 64 * 64;
      void* p = std::aligned_alloc(64, bytes);
      if (!p) throw std::bad_alloc();
      ptr_.reset(static_cast<T*>(p));
      cap_ = bytes / sizeof(T);
    }
    return ptr_.get();
  }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T, Free> ptr_;
  size_t cap_ = 0;
};

// Reused by one thread across tasks.
struct Workspace {
  AlignedArray<int8_t> diff;      // u v x y x2 y2 s, each kStride past tlen16
  AlignedArray<uint8_t> seq;      // target, padding, reversed query, padding
  AlignedArray<int32_t> H;        // exact-mode H per t
  AlignedArray<int8_t> border;    // boundary_diff by r
  AlignedArray<uint8_t> dir;      // traceback bytes, one row per anti-diagonal
  std::vector<size_t> row;        // start of each row in dir
  std::vector<int> off, off_end;  // rounded [st, en] of each row
  std::vector<int> org;           // where each row's first vector starts (bit-plane rows)
};

// Padding after every array: vector loads and stores of up to 64 bytes (one AVX-512
// vector) starting anywhere up to `en` + 1 stay inside.
inline constexpr int kPad = 128;

// Makes room for `bytes` of direction rows before a task's DP, so that its rows never
// grow mid-task: a growing buffer copies the rows written so far and briefly holds both
// copies, which for the largest tasks (a spliced gap fill across a long intron writes
// qlen x tlen bytes) would set the peak memory of a whole run. The old buffer is freed
// before the new one is allocated; pages of it the task never reaches stay unmapped.
// It grows to at least twice its old capacity: a run of slowly growing tasks would
// otherwise allocate a fresh buffer for nearly every task, and the kernel would map and
// zero every page of it again as the rows reach them. Only pages a task writes take
// memory, so the resident size stays that of the largest task's rows.
inline void reserve_rows(Workspace& ws, size_t bytes) {
  if (bytes + kPad > ws.dir.capacity()) {
    const size_t want = std::max(bytes + kPad, 2 * ws.dir.capacity());
    ws.dir.release(), ws.dir.reserve(want);
  }
}

// Sizes the per-anti-diagonal row index of the traceback (rows are written for every
// anti-diagonal computed, and the walk reads only those) and, when the widest possible
// rows might not fit in the row buffer, reserves room for them: that bound itself when
// it is small (about twice the exact size at most; kept, it lets the next tasks of that size
// skip this), else exactly what the rows of every anti-diagonal take (a task that stops
// early uses less), counted in a pass over the anti-diagonals.
// A kernel whose rows are not one byte per cell passes the bytes of a row (row_bytes(d))
// and a bound on them given the widest range (widest_row(cells)).
inline constexpr size_t kRowBoundBytes = size_t{4} << 20;
// Sizes the row index (row, off, off_end and org) for n anti-diagonals. Every kernel that
// records rows sizes it here: a workspace serves every kind of task in turn, and a kernel
// writes all four entries of a row whichever kernel last grew them.
inline void size_row_index(Workspace& ws, size_t n) {
  if (ws.row.size() < n || ws.org.size() < n)
    ws.row.resize(n), ws.off.resize(n), ws.off_end.resize(n), ws.org.resize(n);
}
template <class RowBytes, class WidestRow>
inline void prepare_traceback(const Setup& s, Workspace& ws, RowBytes row_bytes, WidestRow widest_row) {
  const auto n_diag = static_cast<size_t>(s.qlen + s.tlen - 1);
  size_row_index(ws, n_diag);
  const size_t widest =
      widest_row(static_cast<size_t>(std::min(s.tlen16, std::min({s.tlen, s.qlen, s.w + 1}) + 2 * kBlock)));
  if (n_diag * widest + kPad <= ws.dir.capacity()) return;
  if (n_diag * widest <= kRowBoundBytes) return reserve_rows(ws, n_diag * widest);
  size_t bytes = 0;
  AntiDiagonal d;
  for (int r = 0; r < static_cast<int>(n_diag) && anti_diagonal(s, r, d); ++r) bytes += row_bytes(d);
  reserve_rows(ws, bytes);
}
inline void prepare_traceback(const Setup& s, Workspace& ws) {
  prepare_traceback(
      s, ws, [](const AntiDiagonal& d) { return static_cast<size_t>(d.en - d.st + 1); },
      [](size_t cells) { return cells; });
}

// Records anti-diagonal r's row: one direction byte per cell of its rounded range,
// after the `used` bytes of the rows before it (growing the buffer as needed; vector
// stores may write up to kPad bytes past the row). Returns the row.
inline uint8_t* traceback_row(Workspace& ws, int r, const AntiDiagonal& d, size_t& used) {
  const auto len = static_cast<size_t>(d.en - d.st + 1);
  uint8_t* row = ws.dir.grow(used + len + kPad, used) + used;
  ws.row[static_cast<size_t>(r)] = used, ws.off[static_cast<size_t>(r)] = d.st,
  ws.off_end[static_cast<size_t>(r)] = d.en;
  used += len;
  return row;
}

// traceback_row for a kernel's anti-diagonal loop: the same rows, with the buffer and
// index pointers held by a local object, which the loop's byte stores cannot alias, so
// they stay in registers instead of being reloaded from the workspace for every row.
class RowWriter {
 public:
  explicit RowWriter(Workspace& ws)
      : ws_(ws),
        base_(ws.dir.data()),
        cap_(ws.dir.capacity()),
        row_(ws.row.data()),
        off_(ws.off.data()),
        end_(ws.off_end.data()),
        org_(ws.org.data()) {}
  // next() for a task whose rows prepare_traceback has made room for.
  uint8_t* next_reserved(int r, const AntiDiagonal& d) {
    const auto i = static_cast<size_t>(r);
    row_[i] = used_, off_[i] = d.st, end_[i] = d.en;
    uint8_t* row = base_ + used_;
    used_ += static_cast<size_t>(d.en - d.st + 1);
    return row;
  }
  // next_reserved() for rows of `bytes` bytes whose first vector starts at `origin`.
  uint8_t* next_reserved(int r, const AntiDiagonal& d, int origin, size_t bytes) {
    const auto i = static_cast<size_t>(r);
    row_[i] = used_, off_[i] = d.st, end_[i] = d.en, org_[i] = origin;
    uint8_t* row = base_ + used_;
    used_ += bytes;
    return row;
  }
  uint8_t* next(int r, const AntiDiagonal& d) {
    const auto len = static_cast<size_t>(d.en - d.st + 1);
    if (used_ + len + kPad > cap_) base_ = ws_.dir.grow(used_ + len + kPad, used_), cap_ = ws_.dir.capacity();
    return next_reserved(r, d);
  }

 private:
  Workspace& ws_;
  uint8_t* base_;
  size_t cap_, used_ = 0;
  size_t* row_;
  int *off_, *end_, *org_;
};

// Lays out the score input the way the reference reads it: the target, zeros up to
// tlen16, then the reversed query and zeros. Reads past the target (t >= tlen) and
// past the query (j < 0) therefore see what the reference sees.
inline uint8_t* layout_sequences(const DpTask& task, const Setup& s, Workspace& ws) {
  const size_t n = static_cast<size_t>(s.tlen16) + s.qlen + 2 * kPad;
  uint8_t* sf = ws.seq.reserve(n);
  std::fill(sf, sf + n, 0);
  std::copy(task.target.begin(), task.target.end(), sf);
  std::reverse_copy(task.query.begin(), task.query.end(), sf + s.tlen16);
  return sf;
}

// ---------------------------------------------------------------------------------------
// Traceback
// ---------------------------------------------------------------------------------------
// Where the reference starts the traceback: the last cell for a global alignment, the
// query end when an extension reaches it with the end bonus (sets reach_end), else the
// best cell; false when there is no CIGAR. Shared by every backend.
inline bool traceback_start(const DpTask& task, int tlen, int qlen, DpResult& res, int& i0, int& j0) {
  const bool extz = (task.flag & dp_flag::kExtzOnly) != 0;
  if (!res.zdropped && !extz) {
    i0 = tlen - 1, j0 = qlen - 1;
  } else if (!res.zdropped && extz && end_bonus_wins(res.mqe, task.end_bonus, res.max)) {
    res.reach_end = true;
    i0 = res.mqe_t, j0 = qlen - 1;
  } else if (res.max_t >= 0 && res.max_q >= 0) {
    i0 = res.max_t, j0 = res.max_q;
  } else {
    return false;
  }
  return true;
}

// Runs the traceback through the workspace's direction rows.
inline void finish_cigar(const DpTask& task, const Setup& s, const Workspace& ws, DpResult& res) {
  int i0, j0;
  if (!s.with_cigar || !traceback_start(task, s.tlen, s.qlen, res, i0, j0)) return;
  res.cigar.resize(static_cast<size_t>(i0) + j0 + 2);
  auto dir = [&ws](int i, int j) { return ws.dir[ws.row[i + j] + (i - ws.off[i + j])]; };
  auto range = [&ws](int r, int32_t& st, int32_t& en) { st = ws.off[r], en = ws.off_end[r]; };
  const int n = walk_back(i0, j0, (task.flag & dp_flag::kRevCigar) != 0, dir, range, res.cigar.data());
  res.cigar.resize(static_cast<size_t>(n));
  res.cigar.shrink_to_fit();  // results are kept for a whole round: no worst-case capacity
}

// Exact maxima: H[t] of anti-diagonal r from H of r-1, and the anti-diagonal's best
// cell with the reference's tie rule — start from (H[en0], en0); cells st0.. in groups
// of four are four lanes, each keeping its first strictly larger value, merged lane 0
// to 3 with strict '>'; the remaining cells before en0 replace only when strictly larger.
inline void exact_row_max(const AntiDiagonal& d, int r, const int8_t* u, const int8_t* v, int32_t qe, int32_t* H,
                          int32_t& max_h, int& max_t) {
  if (r == 0) {
    H[0] = v[0] - qe;
    max_h = H[0], max_t = 0;
    return;
  }
  H[d.en0] = d.en0 > 0 ? H[d.en0 - 1] + u[d.en0] : H[d.en0] + v[d.en0];
  max_h = H[d.en0], max_t = d.en0;
  const int en1 = d.st0 + (d.en0 - d.st0) / 4 * 4;
  int32_t lane_h[4] = {max_h, max_h, max_h, max_h};
  int lane_t[4] = {max_t, max_t, max_t, max_t};
  for (int t = d.st0; t < en1; ++t) {
    H[t] += v[t];
    const int k = (t - d.st0) & 3;
    if (H[t] > lane_h[k]) lane_h[k] = H[t], lane_t[k] = t;
  }
  for (int k = 0; k < 4; ++k)
    if (lane_h[k] > max_h) max_h = lane_h[k], max_t = lane_t[k];
  for (int t = en1; t < d.en0; ++t) {
    H[t] += v[t];
    if (H[t] > max_h) max_h = H[t], max_t = t;
  }
}

// After exact-mode anti-diagonal r, whose best cell is (max_h, max_t) and whose H
// values are in H: target-end and query-end maxima, the Z-drop test, the final score.
// Returns true when the run stops.
inline bool close_exact(const DpTask& task, const Setup& s, const AntiDiagonal& d, int r, const int32_t* H,
                        int32_t max_h, int max_t, DpResult& res) {
  if (d.en0 == s.tlen - 1 && H[d.en0] > res.mte) res.mte = H[d.en0], res.mte_q = r - mte_q_end(task, d);
  if (r - d.st0 == s.qlen - 1 && H[d.st0] > res.mqe) res.mqe = H[d.st0], res.mqe_t = d.st0;
  if (zdrop_rule(res, max_h, r, max_t, task.zdrop, s.e2)) return res.zdropped = true;
  if (r == s.qlen + s.tlen - 2 && d.en0 == s.tlen - 1) res.score = H[s.tlen - 1];
  return false;
}

// After APPROX_MAX anti-diagonal r with differences u, v: one step of the greedy path
// (h0 at last_t), the optional Z-drop on it, the final score. True when the run stops.
inline bool close_approx(const DpTask& task, const Setup& s, const AntiDiagonal& d, int r, const int8_t* u,
                         const int8_t* v, int32_t& h0, int32_t& last_t, DpResult& res) {
  if (r > 0)
    approx_rule(
        d.st0, d.en0, [u](int32_t t) { return int32_t{u[t]}; }, [v](int32_t t) { return int32_t{v[t]}; }, h0, last_t);
  else
    h0 = v[0] - s.qe_row0, last_t = 0;
  if ((task.flag & dp_flag::kApproxDrop) && zdrop_rule(res, h0, r, last_t, task.zdrop, s.e2))
    return res.zdropped = true;
  if (r == s.qlen + s.tlen - 2 && d.en0 == s.tlen - 1) res.score = h0;
  return false;
}

}  // namespace agatha::kernels
