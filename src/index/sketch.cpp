// mm_sketch's algorithm (sketch.c): a rolling 2-bit k-mer on each strand, the canonical
// (smaller) one hashed, then a (w)-window minimum kept by a small state machine over a
// circular buffer of the last w k-mers. The state machine is ported literally because
// its corner cases (first window, ties, ambiguous bases) decide the output.
#include "sketch.hpp"

#include <array>
#include <cassert>

#include <agatha/nt4.hpp>

namespace agatha::index {
namespace {

constexpr uint64_t kEmpty = ~uint64_t{0};
constexpr Minimizer kNone{kEmpty, kEmpty};

// Run lengths of the last (up to k) homopolymer-compressed symbols (mm_sketch's tq queue).
class RunFifo {
 public:
  void clear() { count_ = front_ = 0; }
  int count() const { return count_; }
  void push(int v) { slot_[(front_ + count_++) & 31] = v; }
  int pop_front() {
    const int v = slot_[front_];
    front_ = (front_ + 1) & 31, --count_;
    return v;
  }

 private:
  std::array<int, 32> slot_{};
  int count_ = 0, front_ = 0;
};

// mm_sketch's window: buf holds the last w k-mers (empty records where invalid).
class Window {
 public:
  Window(int w, int k, std::vector<Minimizer>& out) : w_(w), wk_(w + k), buf_(w, kNone), out_(out) {}

  // One step of the state machine for the k-mer `info` ending at the current base,
  // `l` being the number of valid k-mer bases seen since the last ambiguous base.
  void step(const Minimizer& info, int l) {
    buf_[pos_] = info;
    if (l == wk_ - 1 && min_.x != kEmpty) emit_ties(pos_ + 1, w_, 0, pos_);  // first full window
    if (info.x <= min_.x) {
      if (l >= wk_ && min_.x != kEmpty) out_.push_back(min_);
      min_ = info, min_pos_ = pos_;
    } else if (pos_ == min_pos_) {  // the minimum leaves the window
      if (l >= wk_ - 1 && min_.x != kEmpty) out_.push_back(min_);
      rescan();
      if (l >= wk_ - 1 && min_.x != kEmpty) emit_ties(pos_ + 1, w_, 0, pos_ + 1);
    }
    if (++pos_ == w_) pos_ = 0;
  }

  void finish() {
    if (min_.x != kEmpty) out_.push_back(min_);
  }

 private:
  // Emits entries equal in x to min but at another position, scanning [a0,a1) then [b0,b1).
  void emit_ties(int a0, int a1, int b0, int b1) {
    for (int j = a0; j < a1; ++j)
      if (buf_[j].x == min_.x && buf_[j].y != min_.y) out_.push_back(buf_[j]);
    for (int j = b0; j < b1; ++j)
      if (buf_[j].x == min_.x && buf_[j].y != min_.y) out_.push_back(buf_[j]);
  }

  // New minimum over the window, oldest first; `>=` makes the newest of equal x win.
  void rescan() {
    min_.x = kEmpty;
    for (int j = pos_ + 1; j < w_; ++j)
      if (min_.x >= buf_[j].x) min_ = buf_[j], min_pos_ = j;
    for (int j = 0; j <= pos_; ++j)
      if (min_.x >= buf_[j].x) min_ = buf_[j], min_pos_ = j;
  }

  const int w_, wk_;
  std::vector<Minimizer> buf_;
  std::vector<Minimizer>& out_;
  Minimizer min_ = kNone;
  int pos_ = 0, min_pos_ = 0;
};

}  // namespace

void sketch(std::string_view seq, int w, int k, uint32_t rid, bool hpc, std::vector<Minimizer>& out) {
  assert(k > 0 && k <= kMaxK && w > 0 && w <= kMaxW);
  const int len = static_cast<int>(seq.size());
  const uint64_t mask = (uint64_t{1} << 2 * k) - 1;
  const int rc_shift = 2 * (k - 1);
  uint64_t fwd = 0, rev = 0;  // the k-mer and its reverse complement, 2 bits per base
  int l = 0, span = 0;
  RunFifo runs;
  Window window(w, k, out);

  for (int i = 0; i < len; ++i) {
    const uint8_t c = nt4(seq[i]);
    Minimizer info = kNone;
    if (c < 4) {
      if (hpc) {  // jump to the last base of this run; the run length joins the span
        int run = 1;
        if (i + 1 < len && nt4(seq[i + 1]) == c) {
          for (run = 2; i + run < len; ++run)
            if (nt4(seq[i + run]) != c) break;
          i += run - 1;
        }
        runs.push(run);
        span += run;
        if (runs.count() > k) span -= runs.pop_front();
      } else {
        span = l + 1 < k ? l + 1 : k;
      }
      fwd = (fwd << 2 | c) & mask;
      rev = (rev >> 2) | (uint64_t{3} ^ c) << rc_shift;
      if (fwd == rev) continue;  // palindrome: the position does not exist for the window
      const uint64_t z = fwd < rev ? 0 : 1;
      ++l;
      if (l >= k && span < 256) {
        info.x = hash64(z ? rev : fwd, mask) << 8 | static_cast<uint64_t>(span);
        // pos << 1 is computed in 32 bits, as minimap2 does.
        info.y = static_cast<uint64_t>(rid) << 32 | static_cast<uint32_t>(static_cast<uint32_t>(i) << 1) | z;
      }
    } else {
      l = 0, span = 0;
      runs.clear();
    }
    window.step(info, l);
  }
  window.finish();
}

}  // namespace agatha::index
