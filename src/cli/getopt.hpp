// src/cli/getopt.hpp — the command-line scanner of minimap2 2.24 (its ketopt): getopt
// with permutation and GNU-style long options, so that a minimap2 command line is read
// exactly as minimap2 reads it.
//
// The rules:
//  - a word that does not start with '-' (or is "-" alone) is an argument; options may
//    follow arguments (the words are permuted as they are scanned, options first);
//  - "--" alone ends the options: every word after it is an argument;
//  - "-abc" is a cluster of short options; an option that takes a value takes the rest of
//    the word ("-k15", "-ax" then "sr"... : "-axsr") or else the next word, whatever it
//    looks like ("-k -5");
//  - "--name" or "--name=VALUE"; a unique prefix of a name selects it ("--sec=no"), an
//    exact name wins over longer ones that start with it ("--splice" vs "--splice-flank");
//    a required value is the text after '=' or else the next word; an optional one only
//    ever the text after '='; "=VALUE" on a long option that takes none is ignored;
//  - an unknown option, or an ambiguous prefix, is reported as kUnknown; a value missing
//    at the end of the line as kMissing.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agatha::cli {

enum class ArgKind { kNone, kRequired, kOptional };

struct LongOption {
  std::string_view name;
  ArgKind arg = ArgKind::kNone;
  int id = 0;  // what next() returns for it
};

class OptionScanner {
 public:
  static constexpr int kEnd = -1;        // no more options: arguments() is valid
  static constexpr int kUnknown = '?';   // unknown option or ambiguous long-option prefix
  static constexpr int kMissing = ':';   // option value missing at the end of the line

  // words[0] is the program name and is never scanned. short_spec lists the short
  // options, each followed by ':' when it takes a value (getopt's syntax). A short
  // option returns its character, a long option its id.
  OptionScanner(std::vector<std::string> words, std::string_view short_spec, std::span<const LongOption> longs);

  // The next option (or kEnd, kUnknown, kMissing).
  int next();
  // The value of the option last returned; null when it has none.
  [[nodiscard]] const std::string* value() const { return has_value_ ? &value_ : nullptr; }
  // The long option last returned (index into `longs`), or -1 for a short one.
  [[nodiscard]] int long_index() const { return long_index_; }
  // The word minimap2 names in "unknown option in WORD": the word before the scan
  // position, in the words as permuted so far (which need not be the unknown option).
  [[nodiscard]] const std::string& word_before() const { return words_[cur_ - 1]; }
  // The word of the option last returned, as given ("-aZ" for Z).
  [[nodiscard]] const std::string& option_word() const { return option_word_; }
  // After kEnd: the arguments, in their order.
  [[nodiscard]] std::vector<std::string> arguments() const;

 private:
  // Moves the words [from, to) of the options just scanned before the `skipped_`
  // arguments that precede them.
  void move_before_arguments(size_t from, size_t to);

  std::vector<std::string> words_;
  std::string short_spec_;
  std::span<const LongOption> longs_;
  size_t cur_ = 1;      // the word being scanned
  size_t pos_ = 0;      // within a short-option cluster: the next character; 0: none begun
  size_t skipped_ = 0;  // arguments passed over (they sit just before cur_)
  size_t first_arg_ = 1;
  bool has_value_ = false;
  std::string value_;
  std::string option_word_;
  int long_index_ = -1;
};

// mm_parse_num's suffix: x scaled by a K, M or G (either case: x1e3, 1e6, 1e9) at
// text[pos], and pos moved past it; x unchanged without one.
[[nodiscard]] inline double apply_num_suffix(const std::string& text, size_t& pos, double x) {
  if (pos >= text.size()) return x;
  const char c = text[pos];
  const double scale = c == 'G' || c == 'g' ? 1e9 : c == 'M' || c == 'm' ? 1e6 : c == 'K' || c == 'k' ? 1e3 : 0;
  if (scale == 0) return x;
  ++pos;
  return x * scale;
}

}  // namespace agatha::cli
