// src/io/task_file.hpp — DP task files: one task per line, tab-separated, in the
// column layout of the golden vectors (1 id, 2 flag, 3-9 a b ambi q e q2 e2, 10 w,
// 11 zdrop, 12 end_bonus, 13 query, 14 target; optional 15-26 expected answer).
// A splice (ksw_exts2) task, marked by dp_flag::kSplice in its flag, has columns 9-12
// noncan, junc_bonus, zdrop (or "zdrop,end_bonus"; the end bonus is 0 without it) and
// junc (one hex digit of dp_junc bits per target base, '*' for none) instead; the
// others mean the same.
#pragma once

#include <agatha/dp.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace agatha::io {

// Longest query or target a task may have: with both at most 2^23 bases, every H value
// (at most 127 per base of either sequence) fits the engine's 32-bit scores exactly.
inline constexpr size_t kMaxTaskSequence = size_t{1} << 23;
inline constexpr int kTaskInputColumns = 14;
inline constexpr int kTaskAnswerColumns = 12;  // columns 15-26

struct TaskRecord {
  std::string id;
  std::vector<uint8_t> query, target;  // codes 0..4
  DpScoring scoring;
  uint32_t flag = 0;
  int32_t w = -1, zdrop = -1, end_bonus = 0;
  int32_t noncan = 0, junc_bonus = 0;  // splice tasks
  std::vector<uint8_t> junc;           // splice tasks: dp_junc bits per target base, or empty
  bool has_answer = false;
  std::array<std::string, kTaskAnswerColumns> answer;  // text of columns 15-26
  size_t line = 0;

  [[nodiscard]] DpTask task() const;
};

// Parses one line (line_no and path for messages). Throws InputError.
TaskRecord parse_task_line(const std::string& line, const std::string& path, size_t line_no);

// The twelve answer fields of a result, formatted as in columns 15-26.
[[nodiscard]] std::array<std::string, kTaskAnswerColumns> format_answer(const DpResult& r);

// The line (newline included) that parse_task_line reads back as `task`, with the answer
// columns 15-26 when `answer` is given. Throws Error for a task the columns cannot hold:
// one scored from a matrix with transitions (DpScoring::generic).
[[nodiscard]] std::string format_task_line(std::string_view id, const DpTask& task, const DpResult* answer = nullptr);

}  // namespace agatha::io
