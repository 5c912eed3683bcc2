// mm_sketch's algorithm (sketch.c): a rolling 2-bit k-mer on each strand, the canonical
// (smaller) one hashed, then a (w)-window minimum kept by a small state machine over a
// circular buffer of the last w k-mers. The state machine is ported literally because
// its corner cases (first window, ties, ambiguous bases) decide the output.
//
// The work runs in three stages over blocks of positions, with the same result as one
// pass: the scan of the bases records each step of the state machine (the canonical
// k-mer, its position and strand, span and valid length); the k-mers of a block are then
// hashed together (eight at a time with AVX-512, four with AVX2, where the CPU has it); then the steps are fed
// to the window in order. Hashing apart from the scan takes its long dependency chain
// out of the loop that carries the rolling k-mers.
#include "sketch.hpp"
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cassert>

#include <agatha/nt4.hpp>

#include "../util/parallel_for.hpp"

namespace agatha::index {
namespace {

constexpr uint64_t kEmpty = ~uint64_t{0};

// mm_sketch's window: xs/ys hold the last w k-mers (kEmpty where invalid), in a
// circular buffer. run() feeds it a block of steps with its state in locals.
class Window {
 public:
  Window(int w, int k, std::vector<Minimizer>& out) : w_(w), wk_(w + k), out_(out) {
    xs_.fill(kEmpty), ys_.fill(kEmpty);
  }

  // One step per k-mer (x, y) ending at the current base, l being the number of valid
  // k-mer bases seen since the last ambiguous base; an invalid step has x = y = kEmpty.
  void run(const uint64_t* x, const uint64_t* y, const int32_t* len, int n) {
    uint64_t min_x = min_x_, min_y = min_y_;
    int pos = pos_, min_pos = min_pos_;
    for (int j = 0; j < n; ++j) {
      // Both halves of the minimum in general registers: left to itself, GCC keeps the
      // pair in one vector register, and the compare every step then waits on moves
      // between the register files (and a round trip through the stack).
      asm("" : "+r"(min_x), "+r"(min_y));
      const uint64_t ix = x[j], iy = y[j];
      const int l = len[j];
      xs_[pos] = xs_[pos + w_] = ix, ys_[pos] = ys_[pos + w_] = iy;
      if (l == wk_ - 1 && min_x != kEmpty) emit_ties(min_x, min_y, pos, w_ - 1);  // first full window
      if (ix <= min_x) {
        if (l >= wk_ && min_x != kEmpty) out_.push_back({min_x, min_y});
        min_x = ix, min_y = iy, min_pos = pos;
      } else if (pos == min_pos) {  // the minimum leaves the window
        if (l >= wk_ - 1 && min_x != kEmpty) out_.push_back({min_x, min_y});
        min_pos = rescan(pos);
        min_x = xs_[min_pos], min_y = ys_[min_pos];
        if (l >= wk_ - 1 && min_x != kEmpty) emit_ties(min_x, min_y, pos, w_);
      }
      pos = (pos + 1) & -static_cast<int>(pos + 1 != w_);  // wraps to 0 at w, without a branch
    }
    min_x_ = min_x, min_y_ = min_y, pos_ = pos, min_pos_ = min_pos;
  }

  void finish() {
    if (min_x_ != kEmpty) out_.push_back({min_x_, min_y_});
  }

 private:
  // Emits the entries equal in x to the minimum but at another position, among the
  // `count` slots after pos in age order (oldest first: pos + 1, ..., w - 1, 0, ...).
  // The slots are stored twice over (slot j also at j + w), so that this order is one
  // contiguous run of a fixed length: two loops split at the wrap would end at a
  // different point each time, a mispredicted branch each.
  void emit_ties(uint64_t min_x, uint64_t min_y, int pos, int count) {
    for (int j = pos + 1; j <= pos + count; ++j)
      if (xs_[j] == min_x && ys_[j] != min_y) out_.push_back({xs_[j], ys_[j]});
  }

  // Where the new minimum is, scanning oldest first from pos + 1 round to pos; `<=` makes
  // the newest of equal x win (and an all-empty window gives its newest slot, pos).
  [[nodiscard]] int rescan(int pos) const {
    uint64_t best_x = kEmpty;
    int best = pos;
    for (int j = pos + 1; j <= pos + w_; ++j)
      if (xs_[j] <= best_x) best_x = xs_[j], best = j;
    return best >= w_ ? best - w_ : best;
  }

  const int w_, wk_;
  std::array<uint64_t, 2 * kMaxW> xs_, ys_;  // the last w k-mers, twice over
  std::vector<Minimizer>& out_;
  uint64_t min_x_ = kEmpty, min_y_ = kEmpty;
  int pos_ = 0, min_pos_ = 0;
};

// The steps of one block: for step j, key[j] is the canonical k-mer and low[j] the low
// 32 bits of y (position << 1 | strand), or low[j] = kNoKmer where the step has no k-mer
// (an ambiguous base, fewer than k valid bases, a span of 256 or more); len[j] is the
// valid length `l` the window sees.
constexpr int kBlockSteps = 4096;
constexpr uint64_t kNoKmer = ~uint64_t{0};

struct Steps {
  std::array<uint64_t, kBlockSteps> key;  // canonical k-mer, then hash << 8 | span
  std::array<uint64_t, kBlockSteps> low;  // pos << 1 | strand, or kNoKmer
  std::array<uint16_t, kBlockSteps> span;
  std::array<int32_t, kBlockSteps> len;
};

// key[j] = hash64(key[j], mask) << 8 | span[j] for the steps [0, n) (also for those
// without a k-mer: their key is ignored).
void hash_steps_scalar(uint64_t* key, const uint16_t* span, int n, uint64_t mask) {
  for (int j = 0; j < n; ++j) key[j] = hash64(key[j], mask) << 8 | span[j];
}

__attribute__((target("avx2"))) void hash_steps_avx2(uint64_t* keys, const uint16_t* spans, int n, uint64_t mask) {
  const __m256i m = _mm256_set1_epi64x(static_cast<long long>(mask));
  const __m256i ones = _mm256_set1_epi64x(-1);
  int j = 0;
  for (; j + 4 <= n; j += 4) {
    __m256i key = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(keys + j));
    key = _mm256_and_si256(_mm256_add_epi64(_mm256_xor_si256(key, ones), _mm256_slli_epi64(key, 21)), m);
    key = _mm256_xor_si256(key, _mm256_srli_epi64(key, 24));
    key = _mm256_and_si256(
        _mm256_add_epi64(_mm256_add_epi64(key, _mm256_slli_epi64(key, 3)), _mm256_slli_epi64(key, 8)), m);
    key = _mm256_xor_si256(key, _mm256_srli_epi64(key, 14));
    key = _mm256_and_si256(
        _mm256_add_epi64(_mm256_add_epi64(key, _mm256_slli_epi64(key, 2)), _mm256_slli_epi64(key, 4)), m);
    key = _mm256_xor_si256(key, _mm256_srli_epi64(key, 28));
    key = _mm256_and_si256(_mm256_add_epi64(key, _mm256_slli_epi64(key, 31)), m);
    const __m256i span = _mm256_cvtepu16_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(spans + j)));
    key = _mm256_or_si256(_mm256_slli_epi64(key, 8), span);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(keys + j), key);
  }
  for (; j < n; ++j) keys[j] = hash64(keys[j], mask) << 8 | spans[j];
}

// The same eight at a time (AVX-512F; ~key is one vpternlogq). GCC 12's AVX-512 headers
// set their "undefined" vectors from themselves, which its -Wuninitialized reports in
// every intrinsic using one (GCC bug 105593, fixed in 13): silenced for this function.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
__attribute__((target("avx512f"))) void hash_steps_avx512(uint64_t* keys, const uint16_t* spans, int n, uint64_t mask) {
  const __m512i m = _mm512_set1_epi64(static_cast<long long>(mask));
  int j = 0;
  for (; j + 8 <= n; j += 8) {
    __m512i key = _mm512_loadu_si512(keys + j);
    key = _mm512_and_si512(_mm512_add_epi64(_mm512_ternarylogic_epi64(key, key, key, 0x55), _mm512_slli_epi64(key, 21)), m);
    key = _mm512_xor_si512(key, _mm512_srli_epi64(key, 24));
    key = _mm512_and_si512(_mm512_add_epi64(_mm512_add_epi64(key, _mm512_slli_epi64(key, 3)), _mm512_slli_epi64(key, 8)), m);
    key = _mm512_xor_si512(key, _mm512_srli_epi64(key, 14));
    key = _mm512_and_si512(_mm512_add_epi64(_mm512_add_epi64(key, _mm512_slli_epi64(key, 2)), _mm512_slli_epi64(key, 4)), m);
    key = _mm512_xor_si512(key, _mm512_srli_epi64(key, 28));
    key = _mm512_and_si512(_mm512_add_epi64(key, _mm512_slli_epi64(key, 31)), m);
    const __m512i span = _mm512_cvtepu16_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(spans + j)));
    key = _mm512_or_si512(_mm512_slli_epi64(key, 8), span);
    _mm512_storeu_si512(keys + j, key);
  }
  for (; j < n; ++j) keys[j] = hash64(keys[j], mask) << 8 | spans[j];
}
#pragma GCC diagnostic pop

// Rolls base c (a code below 4) into the k-mer f and its reverse complement rv; false
// when the two are equal (a palindrome: the position has no step).
inline bool roll(uint64_t& f, uint64_t& rv, uint8_t c, uint64_t mask, int rc_shift) {
  f = (f << 2 | c) & mask;
  rv = (rv >> 2) | (uint64_t{3} ^ c) << rc_shift;
  return f != rv;
}

}  // namespace

int sketch_hash_isa() {
  static const int isa = __builtin_cpu_supports("avx512f") ? 2 : __builtin_cpu_supports("avx2") ? 1 : 0;
  return isa;
}

void hash_keys(uint64_t* key, const uint16_t* span, int n, uint64_t mask, int isa) {
  if (isa == 2)
    hash_steps_avx512(key, span, n, mask);
  else if (isa == 1)
    hash_steps_avx2(key, span, n, mask);
  else
    hash_steps_scalar(key, span, n, mask);
}

void sketch_range(std::string_view seq, int w, int k, uint32_t rid, bool hpc, int warm_bases, int from, int to,
                  std::vector<Minimizer>& out) {
  for (const int back : {warm_bases, 16 * warm_bases})
    if (from > back && sketch_piece(seq, w, k, rid, hpc, from - back, from, to, out)) return;
  const bool done = sketch_piece(seq, w, k, rid, hpc, 0, from, to, out);
  assert(done);
  (void)done;
}

void sketch_parallel(std::string_view seq, int w, int k, uint32_t rid, bool hpc, int threads, int min_piece,
                     std::vector<Minimizer>& out) {
  const int len = static_cast<int>(seq.size());
  const int n = std::clamp(len / std::max(1, min_piece), 1, std::max(1, threads));
  if (n == 1) return sketch(seq, w, k, rid, hpc, out);
  std::vector<std::vector<Minimizer>> parts(static_cast<size_t>(n));
  util::parallel_for(parts.size(), n, [&](size_t p, int) {
    const int from = static_cast<int>(int64_t{len} * static_cast<int64_t>(p) / n);
    const int to = static_cast<int>(int64_t{len} * static_cast<int64_t>(p + 1) / n);
    sketch_range(seq, w, k, rid, hpc, 4096, from, to, parts[p]);
  });
  size_t total = out.size();
  for (const auto& part : parts) total += part.size();
  out.reserve(total);
  for (const auto& part : parts) out.insert(out.end(), part.begin(), part.end());
}

void sketch(std::string_view seq, int w, int k, uint32_t rid, bool hpc, std::vector<Minimizer>& out) {
  const bool whole = sketch_piece(seq, w, k, rid, hpc, 0, 0, static_cast<int>(seq.size()), out);
  assert(whole);
  (void)whole;
}

bool sketch_piece(std::string_view seq, int w, int k, uint32_t rid, bool hpc, int warm, int from, int to,
                  std::vector<Minimizer>& out) {
  assert(k > 0 && k <= kMaxK && w > 0 && w <= kMaxW);
  assert(0 <= warm && warm <= from && from <= to && to <= static_cast<int>(seq.size()));
  const int len = static_cast<int>(seq.size());
  const uint64_t mask = (uint64_t{1} << 2 * k) - 1;
  const int rc_shift = 2 * (k - 1);
  const uint64_t rid_high = static_cast<uint64_t>(rid) << 32;
  const int hash_isa_here = sketch_hash_isa();
  uint64_t fwd = 0, rev = 0;  // the k-mer and its reverse complement, 2 bits per base
  int l = 0;
  Window window(w, k, out);
  Steps steps;
  // The piece's emissions start with its first step; what the warm-up emits is dropped.
  const size_t out_before = out.size();
  bool started = warm == 0 && from == 0, stopped = false, saw_n = false, ok = true;

  // The steps of the current block (a local, not a member of steps: the int32 stores
  // to steps.len could alias it, and it would be reloaded every step).
  int n_steps = 0;
  const auto flush = [&] {
    hash_keys(steps.key.data(), steps.span.data(), n_steps, mask, hash_isa_here);
    for (int j = 0; j < n_steps; ++j) {
      const bool none = steps.low[j] == kNoKmer;
      steps.key[j] = none ? kEmpty : steps.key[j];
      steps.low[j] = none ? kEmpty : rid_high | steps.low[j];
    }
    window.run(steps.key.data(), steps.low.data(), steps.len.data(), n_steps);
    n_steps = 0;
  };

  // The piece starts at the current step: what the warm-up emitted is dropped, and the
  // state it left must be the one the whole sequence leaves here (see sketch.hpp);
  // otherwise the caller starts earlier.
  const auto start_piece = [&] {
    flush();
    out.resize(out_before);
    started = true;
    if (warm > 0 && (saw_n || l < w + 2 * k)) ok = false;
  };

  if (!hpc) {
    // One step for every base of [i0, i1) (none for a palindromic k-mer; an ambiguous
    // base resets the k-mer), with the scan's state in locals: a k-mer's span is
    // min(l + 1, k) = k whenever it is recorded (l >= k after the increment).
    const auto scan = [&](int i0, int i1) {
      uint64_t f = fwd, rv = rev;
      int ll = l;
      bool n_seen = saw_n;
      uint64_t* const key = steps.key.data();
      uint64_t* const low = steps.low.data();
      uint16_t* const span = steps.span.data();
      int32_t* const valid = steps.len.data();
      for (int i = i0; i < i1;) {
        // At most one step a base, so the block cannot overflow before `end`.
        const int end = std::min(i1, i + (kBlockSteps - n_steps));
        int j = n_steps;
        for (; i < end; ++i) {
          const uint8_t c = nt4(seq[i]);
          uint64_t kmer = 0, at = kNoKmer;
          uint16_t sp = 0;
          if (c < 4) {
            if (!roll(f, rv, c, mask, rc_shift)) continue;
            const uint64_t z = f < rv ? 0 : 1;  // the canonical k-mer's strand
            if (++ll >= k) {
              kmer = z ? rv : f;
              sp = static_cast<uint16_t>(k);
              at = static_cast<uint32_t>(static_cast<uint32_t>(i) << 1) | z;
            }
          } else {
            ll = 0, n_seen = true;
          }
          key[j] = kmer, low[j] = at, span[j] = sp, valid[j] = ll;
          ++j;
        }
        n_steps = j;
        if (n_steps == kBlockSteps) flush();
      }
      fwd = f, rev = rv, l = ll, saw_n = n_seen;
    };
    if (!started) {
      scan(warm, std::min(from, to));  // the warm-up
      if (from < to) start_piece();
    }
    if (started && ok) scan(from, to);
  } else {
    // A homopolymer run is one step, at its last base; the span is the length of the
    // last k runs (fewer since an ambiguous base, which is a step of its own). The runs
    // of a chunk are found first without branching on the bases (a base ends a run
    // when the next differs), then stepped through. ends[] holds the last positions of
    // the last 32 runs (r counts them); since_n runs followed the last ambiguous base,
    // at n_pos (-1 before the first). The last k runs then start after the end of run
    // r - k when more than k runs followed it, else after n_pos.
    constexpr int kChunk = 4096;
    std::array<int, kChunk> run_end;
    std::array<uint8_t, kChunk> run_code;
    std::array<int, 32> ends{};
    int r = 0, since_n = 0, n_pos = warm - 1;
    uint8_t next = warm < len ? nt4(seq[warm]) : 4;
    for (int c0 = warm; c0 < len && !stopped; c0 += kChunk) {
      const int c1 = std::min(len, c0 + kChunk);
      // A base ends a run when the next differs, when it is ambiguous (code 4), and at
      // the end of the sequence.
      int m = 0;
      const int c_last = std::min(c1, len - 1);
      for (int i = c0; i < c_last; ++i) {
        const uint8_t c = next;
        next = nt4(seq[i + 1]);
        run_end[m] = i, run_code[m] = c;
        m += (c != next) | (c >> 2);
      }
      if (c_last < c1) run_end[m] = len - 1, run_code[m] = next, ++m;
      for (int q = 0; q < m && !stopped;) {
        // One step for each run below the next boundary (`from` before the piece has
        // started, `to` after), with the scan's state in locals.
        const int limit = started ? to : from;
        uint64_t f = fwd, rv = rev;
        int ll = l, j = n_steps;
        bool n_seen = saw_n;
        uint64_t* const key = steps.key.data();
        uint64_t* const low = steps.low.data();
        uint16_t* const sp = steps.span.data();
        int32_t* const valid = steps.len.data();
        for (; q < m; ++q) {
          const int i = run_end[q];
          if (i >= limit) break;
          if (j == kBlockSteps) n_steps = j, flush(), j = 0;
          const uint8_t c = run_code[q];
          uint64_t kmer = 0, at = kNoKmer;
          uint16_t span = 0;
          if (c < 4) {
            ends[++r & 31] = i, ++since_n;
            const int run_span = i - (since_n > k ? ends[(r - k) & 31] : n_pos);
            if (!roll(f, rv, c, mask, rc_shift)) continue;
            const uint64_t z = f < rv ? 0 : 1;  // the canonical k-mer's strand
            if (++ll >= k && run_span < 256) {
              kmer = z ? rv : f;
              span = static_cast<uint16_t>(run_span);
              at = static_cast<uint32_t>(static_cast<uint32_t>(i) << 1) | z;
            }
          } else {
            since_n = 0, n_pos = i, ll = 0, n_seen = true;
          }
          key[j] = kmer, low[j] = at, sp[j] = span, valid[j] = ll;
          ++j;
        }
        fwd = f, rev = rv, l = ll, saw_n = n_seen, n_steps = j;
        if (q == m) break;
        // Run q is at or past the boundary: the piece starts there (its emissions start
        // with this step; the warm-up's are dropped), or has ended.
        if (started || run_end[q] >= to) {
          stopped = true;
        } else {
          start_piece();
          stopped = !ok;
        }
      }
    }
  }
  if (ok) flush();
  if (ok && to == len && !started && warm > 0) ok = false;  // no step checked the state
  if (!ok || !started) {
    out.resize(out_before);
    return ok;
  }
  if (to == len) window.finish();
  return true;
}

}  // namespace agatha::index
