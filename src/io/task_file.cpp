#include "task_file.hpp"

#include <agatha/cigar.hpp>
#include <agatha/error.hpp>
#include <agatha/nt4.hpp>

#include <charconv>
#include <span>
#include <string_view>

namespace agatha::io {
namespace {

std::string where(const std::string& path, size_t line_no) { return "'" + path + "' line " + std::to_string(line_no); }

std::vector<std::string_view> split_tabs(std::string_view s) {
  std::vector<std::string_view> out;
  size_t b = 0;
  for (;;) {
    const size_t e = s.find('\t', b);
    out.push_back(s.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
    if (e == std::string_view::npos) break;
    b = e + 1;
  }
  return out;
}

int32_t parse_int(std::string_view f, const char* what, const std::string& path, size_t line_no) {
  int32_t v = 0;
  const auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
  if (f.empty() || ec != std::errc() || p != f.data() + f.size())
    throw InputError(where(path, line_no) + ": column '" + what + "' is not an integer: '" + std::string(f) + "'");
  return v;
}

std::vector<uint8_t> parse_seq(std::string_view f) {
  if (f == "*") return {};
  std::vector<uint8_t> out(f.size());
  for (size_t i = 0; i < f.size(); ++i) out[i] = nt4(f[i]);
  return out;
}

// A junction column: '*', or one hexadecimal digit (0-9, a-f) per target base.
std::vector<uint8_t> parse_junc(std::string_view f, size_t tlen, const std::string& path, size_t line_no) {
  if (f == "*") return {};
  if (f.size() != tlen)
    throw InputError(where(path, line_no) + ": the junction column has " + std::to_string(f.size()) +
                     " digits for a target of " + std::to_string(tlen) + " bases");
  std::vector<uint8_t> out(f.size());
  for (size_t i = 0; i < f.size(); ++i) {
    const char c = f[i];
    if (c >= '0' && c <= '9')
      out[i] = static_cast<uint8_t>(c - '0');
    else if (c >= 'a' && c <= 'f')
      out[i] = static_cast<uint8_t>(c - 'a' + 10);
    else
      throw InputError(where(path, line_no) + ": the junction column has '" + std::string(1, c) + "' at " +
                       std::to_string(i + 1) + ", expected a hexadecimal digit 0-9 or a-f");
  }
  return out;
}

// Columns 3-8, which both kinds of task share: a b ambi q e q2.
void parse_gap_scores(const std::vector<std::string_view>& f, TaskRecord& r, const std::string& path,
                      size_t line_no) {
  r.scoring.a = parse_int(f[2], "a", path, line_no);
  r.scoring.b = parse_int(f[3], "b", path, line_no);
  r.scoring.ambi = parse_int(f[4], "ambi", path, line_no);
  r.scoring.q = parse_int(f[5], "q", path, line_no);
  r.scoring.e = parse_int(f[6], "e", path, line_no);
  r.scoring.q2 = parse_int(f[7], "q2", path, line_no);
}

// Columns 3-12 of a splice task: a b ambi q e q2 noncan junc_bonus zdrop[,end_bonus]
// junc (the junction column is checked once the target is known).
void parse_splice_params(const std::vector<std::string_view>& f, TaskRecord& r, const std::string& path,
                         size_t line_no) {
  parse_gap_scores(f, r, path, line_no);
  r.scoring.e2 = 0;
  r.noncan = parse_int(f[8], "noncan", path, line_no);
  r.junc_bonus = parse_int(f[9], "junc_bonus", path, line_no);
  if (const std::string why = validate_splice_scoring(r.scoring, r.noncan, r.junc_bonus); !why.empty())
    throw InputError(where(path, line_no) + ": " + why);
  // "zdrop" or "zdrop,end_bonus": minimap2 2.31's ksw_exts2 takes an end bonus, 2.24's
  // none (an end bonus of 0 has no effect).
  const std::string_view z = f[10];
  const size_t comma = z.find(',');
  r.zdrop = parse_int(z.substr(0, comma), "zdrop", path, line_no);
  r.w = -1, r.end_bonus = comma == std::string_view::npos ? 0 : parse_int(z.substr(comma + 1), "end_bonus", path, line_no);
}

}  // namespace

DpTask TaskRecord::task() const {
  DpTask t;
  t.query = query;
  t.target = target;
  t.scoring = scoring;
  t.flag = flag;
  t.w = w, t.zdrop = zdrop, t.end_bonus = end_bonus;
  t.noncan = noncan, t.junc_bonus = junc_bonus;
  t.junc = junc;
  return t;
}

TaskRecord parse_task_line(const std::string& line, const std::string& path, size_t line_no) {
  const auto f = split_tabs(line);
  if (f.size() < static_cast<size_t>(kTaskInputColumns))
    throw InputError(where(path, line_no) + ": expected at least " + std::to_string(kTaskInputColumns) +
                     " tab-separated columns, found " + std::to_string(f.size()));
  TaskRecord r;
  r.line = line_no;
  r.id = std::string(f[0]);
  const int32_t flag = parse_int(f[1], "flag", path, line_no);
  const bool splice = flag >= 0 && (static_cast<uint32_t>(flag) & dp_flag::kSplice);
  if (flag < 0 || (static_cast<uint32_t>(flag) & ~(splice ? dp_flag::kKnownSplice : dp_flag::kKnownGuided)))
    throw InputError(where(path, line_no) + ": unknown flag bits in " + std::to_string(flag));
  r.flag = static_cast<uint32_t>(flag);
  if (splice) {
    parse_splice_params(f, r, path, line_no);
  } else {
    parse_gap_scores(f, r, path, line_no);
    r.scoring.e2 = parse_int(f[8], "e2", path, line_no);
    if (const std::string why = validate_scoring(r.scoring, (r.flag & dp_flag::kSingleAffine) != 0); !why.empty())
      throw InputError(where(path, line_no) + ": " + why);
    r.w = parse_int(f[9], "w", path, line_no);
    r.zdrop = parse_int(f[10], "zdrop", path, line_no);
    r.end_bonus = parse_int(f[11], "end_bonus", path, line_no);
  }
  for (int k : {12, 13})
    if (f[k].size() > kMaxTaskSequence)
      throw InputError(where(path, line_no) + ": the " + (k == 12 ? "query" : "target") + " has " +
                       std::to_string(f[k].size()) + " bases, more than the " + std::to_string(kMaxTaskSequence) +
                       " a task may have");
  r.query = parse_seq(f[12]);
  r.target = parse_seq(f[13]);
  if (splice) r.junc = parse_junc(f[11], r.target.size(), path, line_no);
  if (f.size() >= static_cast<size_t>(kTaskInputColumns + kTaskAnswerColumns)) {
    r.has_answer = true;
    for (int k = 0; k < kTaskAnswerColumns; ++k) r.answer[k] = std::string(f[kTaskInputColumns + k]);
  }
  return r;
}

std::array<std::string, kTaskAnswerColumns> format_answer(const DpResult& r) {
  return {std::to_string(r.score),
          std::to_string(r.max),
          std::to_string(r.max_q),
          std::to_string(r.max_t),
          std::to_string(r.mqe),
          std::to_string(r.mqe_t),
          std::to_string(r.mte),
          std::to_string(r.mte_q),
          std::to_string(r.zdropped ? 1 : 0),
          std::to_string(r.reach_end ? 1 : 0),
          std::to_string(r.cigar.size()),
          cigar::to_string(r.cigar)};
}

std::string format_task_line(std::string_view id, const DpTask& task, const DpResult* answer) {
  const DpScoring& sc = task.scoring;
  if (sc.generic())
    throw Error("a DP task with a transition penalty (-b) has no task-file form");
  std::string s(id);
  auto put = [&s](int64_t v) { s += '\t', s += std::to_string(v); };
  auto put_seq = [&s](std::span<const uint8_t> codes) {
    s += '\t';
    if (codes.empty()) {
      s += '*';
      return;
    }
    for (uint8_t c : codes) s += "ACGTN"[c < 4 ? c : 4];
  };
  put(task.flag);
  put(sc.a), put(sc.b), put(sc.ambi), put(sc.q), put(sc.e), put(sc.q2);
  if (task.flag & dp_flag::kSplice) {
    put(task.noncan), put(task.junc_bonus), put(task.zdrop);
    if (task.end_bonus != 0) s += ',', s += std::to_string(task.end_bonus);
    s += '\t';
    if (task.junc.empty()) s += '*';
    for (uint8_t j : task.junc) {
      if (j > 15) throw Error("a splice task's junction byte " + std::to_string(j) + " has no task-file digit");
      s += "0123456789abcdef"[j];
    }
  } else {
    put(sc.e2), put(task.w), put(task.zdrop), put(task.end_bonus);
  }
  put_seq(task.query), put_seq(task.target);
  if (answer)
    for (const std::string& f : format_answer(*answer)) s += '\t', s += f;
  s += '\n';
  return s;
}

}  // namespace agatha::io
