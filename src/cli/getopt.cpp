// The command-line scanner of minimap2 2.24 (ketopt's rules). See getopt.hpp.
#include "getopt.hpp"

#include <algorithm>
#include <utility>

namespace agatha::cli {

OptionScanner::OptionScanner(std::vector<std::string> words, std::string_view short_spec,
                             std::span<const LongOption> longs)
    : words_(std::move(words)), short_spec_(short_spec), longs_(longs) {
  if (words_.empty()) words_.emplace_back();
}

void OptionScanner::move_before_arguments(size_t from, size_t to) {
  if (skipped_ == 0) return;
  // The option words [from, to) sit after the skipped arguments [from - skipped_, from):
  // rotate them in front, keeping both groups in order.
  std::rotate(words_.begin() + static_cast<std::ptrdiff_t>(from - skipped_),
              words_.begin() + static_cast<std::ptrdiff_t>(from), words_.begin() + static_cast<std::ptrdiff_t>(to));
}

std::vector<std::string> OptionScanner::arguments() const {
  return {words_.begin() + static_cast<std::ptrdiff_t>(first_arg_), words_.end()};
}

int OptionScanner::next() {
  const size_t n = words_.size();
  const auto is_option = [&](size_t i) { return words_[i].size() > 1 && words_[i][0] == '-'; };
  has_value_ = false, value_.clear(), long_index_ = -1;
  // Arguments before the next option are passed over (and later moved after it).
  while (cur_ < n && !is_option(cur_)) ++cur_, ++skipped_;
  const size_t start = cur_;
  if (cur_ >= n) {
    first_arg_ = cur_ - skipped_;
    return kEnd;
  }
  const std::string& w = words_[cur_];
  option_word_ = w;
  int result = kUnknown;
  bool word_done = false;
  if (w[1] == '-') {
    if (w.size() == 2) {  // "--": the end of the options
      move_before_arguments(cur_, cur_ + 1);
      ++cur_;
      first_arg_ = cur_ - skipped_;
      return kEnd;
    }
    pos_ = 0;
    word_done = true;
    const size_t eq = w.find('=', 2);
    const std::string_view name = std::string_view(w).substr(2, (eq == std::string::npos ? w.size() : eq) - 2);
    int exact = -1, partial = -1, n_exact = 0, n_partial = 0;
    for (size_t k = 0; k < longs_.size(); ++k) {
      if (!longs_[k].name.starts_with(name)) continue;
      if (longs_[k].name.size() == name.size())
        ++n_exact, exact = static_cast<int>(k);
      else
        ++n_partial, partial = static_cast<int>(k);
    }
    // Ambiguous: reported before the scan moves on (the word stays where it is).
    if (n_exact > 1 || (n_exact == 0 && n_partial > 1)) return kUnknown;
    const int k = n_exact == 1 ? exact : n_partial == 1 ? partial : -1;
    if (k >= 0) {
      const LongOption& o = longs_[static_cast<size_t>(k)];
      result = o.id, long_index_ = k;
      if (eq != std::string::npos) has_value_ = true, value_ = w.substr(eq + 1);
      if (o.arg == ArgKind::kRequired && eq == std::string::npos) {
        if (cur_ + 1 < n)
          has_value_ = true, value_ = words_[++cur_];
        else
          result = kMissing;
      }
    }
  } else {  // a short option, possibly within a cluster
    if (pos_ == 0) pos_ = 1;
    const char c = w[pos_++];
    result = static_cast<unsigned char>(c);
    const size_t at = short_spec_.find(c);
    if (c == ':' || at == std::string::npos) {
      result = kUnknown;
    } else if (at + 1 < short_spec_.size() && short_spec_[at + 1] == ':') {
      if (pos_ < w.size()) {
        has_value_ = true, value_ = w.substr(pos_);
      } else if (cur_ + 1 < n) {
        has_value_ = true, value_ = words_[++cur_];
      } else {
        result = kMissing;
      }
      word_done = true;
    }
    if (pos_ >= words_[cur_].size()) word_done = true;
  }
  if (word_done) {
    ++cur_, pos_ = 0;
    move_before_arguments(start, cur_);
  }
  return result;
}

}  // namespace agatha::cli
