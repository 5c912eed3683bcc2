#include "sdust.hpp"

#include <agatha/nt4.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <stdexcept>

namespace agatha::map {
namespace {

constexpr int kTripletLen = 3;
constexpr int kTriplets = 1 << (2 * kTripletLen);  // 64 distinct triplets

// A perfect interval of the current window: [start, end) in bases, with its score as
// the fraction score / len (len: triplets minus one).
struct Perfect {
  int32_t start, end;
  int32_t score, len;
};

class DustScanner {
 public:
  DustScanner(int threshold, int window)
      : t_(threshold),
        max_triplets_(window - kTripletLen + 1),
        ring_(std::bit_ceil(static_cast<size_t>(max_triplets_))),
        ring_mask_(ring_.size() - 1) {}

  std::vector<DustInterval> run(std::string_view seq) {
    const auto n = static_cast<int32_t>(seq.size());
    int32_t run_len = 0;  // bases of the current A/C/G/T run up to and including i
    unsigned triplet = 0;
    for (int32_t i = 0; i <= n; ++i) {
      const uint8_t b = i < n ? nt4(seq[static_cast<size_t>(i)]) : 4;
      if (b < 4) {
        ++run_len;
        triplet = (triplet << 2 | b) & (kTriplets - 1);
        if (run_len < kTripletLen) continue;
        // The window: the last W bases of the run, or the run so far.
        const int32_t win_start = std::max(run_len - window_bases(), 0) + (i + 1 - run_len);
        report_leaving(win_start);
        push(static_cast<int>(triplet));
        if (win_score_ * 10 > suffix_len_ * t_) collect_perfect(win_start);
      } else {
        // End of a run (or of the sequence): flush what is pending, the window start
        // stepping on by one base per report.
        int32_t flush_start = std::max(run_len - window_bases() + 1, 0) + (i + 1 - run_len);
        while (!perfect_.empty()) report_leaving(flush_start++);
        run_len = 0;
        triplet = 0;
      }
    }
    return std::move(out_);
  }

 private:
  int window_bases() const { return max_triplets_ + kTripletLen - 1; }
  int size() const { return count_; }
  int at(int k) const { return ring_[(head_ + static_cast<size_t>(k)) & ring_mask_]; }

  // Adds a triplet at the window's right end, shifting the leftmost out when full; keeps
  // the suffix free of any triplet counted more than 2T/10 times (shift_window).
  void push(int tri) {
    if (count_ >= max_triplets_) {
      const int old = at(0);
      head_ = (head_ + 1) & ring_mask_;
      --count_;
      win_score_ -= --win_count_[old];
      if (suffix_len_ > count_) {
        --suffix_len_;
        suffix_score_ -= --suffix_count_[old];
      }
    }
    ring_[(head_ + static_cast<size_t>(count_)) & ring_mask_] = static_cast<uint8_t>(tri);
    ++count_;
    ++suffix_len_;
    win_score_ += win_count_[tri]++;
    suffix_score_ += suffix_count_[tri]++;
    if (suffix_count_[tri] * 10 > 2 * t_) {
      int dropped;
      do {  // shorten the suffix from the left up to and including an occurrence of tri
        dropped = at(count_ - suffix_len_);
        suffix_score_ -= --suffix_count_[dropped];
        --suffix_len_;
      } while (dropped != tri);
    }
  }

  // Reports the leftmost perfect interval if it starts before win_start, merged with the
  // last report when it overlaps or touches it, and forgets every perfect interval that
  // starts before win_start (save_masked_regions).
  void report_leaving(int32_t win_start) {
    if (perfect_.empty() || perfect_.back().start >= win_start) return;
    const Perfect& p = perfect_.back();
    if (!out_.empty() && p.start <= out_.back().end)
      out_.back().end = std::max(out_.back().end, p.end);
    else
      out_.push_back({p.start, p.end});
    while (!perfect_.empty() && perfect_.back().start < win_start) perfect_.pop_back();
  }

  // Extends the clean suffix leftwards one triplet at a time; each extension that scores
  // above T/10 and at least as high as every perfect interval starting at or after it
  // (the best so far included) becomes a perfect interval ending at the window's end
  // (find_perfect). perfect_ stays ordered by decreasing start.
  void collect_perfect(int32_t win_start) {
    std::array<int32_t, kTriplets> counts = suffix_count_;
    int32_t score = suffix_score_;
    int32_t best_score = 0, best_len = 0;
    for (int k = count_ - suffix_len_ - 1; k >= 0; --k) {
      const int tri = at(k);
      score += counts[static_cast<size_t>(tri)]++;
      const int32_t len = count_ - k - 1;
      if (score * 10 <= t_ * len) continue;
      const int32_t start = k + win_start;
      size_t pos = 0;
      for (; pos < perfect_.size() && perfect_[pos].start >= start; ++pos) {
        const Perfect& q = perfect_[pos];
        if (best_score == 0 || q.score * best_len > best_score * q.len) best_score = q.score, best_len = q.len;
      }
      if (best_score != 0 && score * best_len < best_score * len) continue;
      best_score = score, best_len = len;
      perfect_.insert(perfect_.begin() + static_cast<std::ptrdiff_t>(pos),
                      Perfect{start, count_ + kTripletLen - 1 + win_start, score, len});
    }
  }

  const int t_;
  const int max_triplets_;     // W - 2: triplets in a full window
  std::vector<uint8_t> ring_;  // the window's triplets, from head_ on (a power-of-2 ring)
  const size_t ring_mask_;
  size_t head_ = 0;
  int count_ = 0;
  std::array<int32_t, kTriplets> win_count_{}, suffix_count_{};
  int32_t win_score_ = 0, suffix_score_ = 0;
  int suffix_len_ = 0;            // triplets of the clean suffix
  std::vector<Perfect> perfect_;  // by decreasing start (then increasing end)
  std::vector<DustInterval> out_;
};

}  // namespace

std::vector<DustInterval> sdust(std::string_view seq, int threshold, int window) {
  if (window < kTripletLen) throw std::invalid_argument("sdust: the window must be at least 3 bases");
  return DustScanner(threshold, window).run(seq);
}

void drop_minimizers_in(std::vector<index::Minimizer>& mv, size_t first, std::span<const DustInterval> iv) {
  size_t u = 0, kept = first;
  for (size_t j = first; j < mv.size(); ++j) {
    const auto pos = static_cast<int32_t>(static_cast<uint32_t>(mv[j].y) >> 1);
    const auto span = static_cast<int32_t>(mv[j].x & 0xff);
    const int32_t s = pos - (span - 1), e = s + span;  // the minimizer's bases [s, e)
    while (u < iv.size() && iv[u].end <= s) ++u;
    int32_t covered = 0;
    for (size_t v = u; v < iv.size() && iv[v].start < e; ++v)
      covered += std::min(e, iv[v].end) - std::max(s, iv[v].start);
    if (covered <= span >> 1) mv[kept++] = mv[j];
  }
  mv.resize(kept);
}

void mask_low_complexity(std::vector<index::Minimizer>& mv, size_t first, std::string_view seg, int threshold) {
  if (threshold <= 0) return;
  const std::vector<DustInterval> iv = sdust(seg, threshold, kDustWindow);
  drop_minimizers_in(mv, first, iv);
}

}  // namespace agatha::map
