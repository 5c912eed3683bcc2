// Fuzz target: the DP task file (agatha dp's input), line by line, and the tasks it
// accepts run on the scalar oracle and every other CPU backend here: the answers must
// be identical (a difference aborts); and each accepted line, written back, reads back
// as the same task. At most four tasks, sequences cut to 100 bases, to keep runs fast.
#include "../../src/io/task_file.hpp"

#include <agatha/dp.hpp>
#include <agatha/error.hpp>

#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::vector<std::unique_ptr<agatha::DpBackend>>& backends() {
  static std::vector<std::unique_ptr<agatha::DpBackend>> b = [] {
    std::vector<std::unique_ptr<agatha::DpBackend>> v;
    for (const char* name : {"scalar", "cpu", "gpu-sim"}) {
      agatha::DpBackendOptions o;
      o.backend = name;
      try {
        v.push_back(agatha::make_dp_backend(o));
      } catch (const agatha::Error&) {
      }
    }
    return v;
  }();
  return b;
}

// An accepted task, written back (format_task_line, as AGATHA_DP_RECORD writes tasks),
// reads back as the same task; anything else aborts.
void same_when_written_back(const agatha::io::TaskRecord& r) {
  const std::string line = agatha::io::format_task_line(r.id, r.task(), nullptr);
  const agatha::io::TaskRecord b = agatha::io::parse_task_line(line.substr(0, line.size() - 1), "written.tsv", 1);
  const agatha::DpScoring &x = r.scoring, &y = b.scoring;
  if (b.id != r.id || b.flag != r.flag || x.a != y.a || x.b != y.b || x.ambi != y.ambi || x.q != y.q || x.e != y.e ||
      x.q2 != y.q2 || x.e2 != y.e2 || b.w != r.w || b.zdrop != r.zdrop || b.end_bonus != r.end_bonus ||
      b.noncan != r.noncan || b.junc_bonus != r.junc_bonus || b.query != r.query || b.target != r.target ||
      b.junc != r.junc)
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<agatha::io::TaskRecord> recs;
  size_t line_no = 0;
  for (size_t pos = 0; pos <= text.size() && recs.size() < 4;) {
    const size_t nl = text.find('\n', pos);
    const std::string line(text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
    ++line_no;
    try {
      agatha::io::TaskRecord r = agatha::io::parse_task_line(line, "fuzz.tsv", line_no);
      same_when_written_back(r);
      if (r.query.size() > 100) r.query.resize(100);
      if (r.target.size() > 100) r.target.resize(100);
      recs.push_back(std::move(r));
    } catch (const agatha::Error&) {
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  if (recs.empty()) return 0;
  std::vector<agatha::DpTask> tasks;
  for (const auto& r : recs) tasks.push_back(r.task());
  std::vector<std::vector<agatha::DpResult>> res;
  for (auto& b : backends()) {
    res.emplace_back(tasks.size());
    b->run(tasks, res.back());
  }
  for (size_t k = 1; k < res.size(); ++k)
    for (size_t i = 0; i < tasks.size(); ++i)
      if (agatha::io::format_answer(res[k][i]) != agatha::io::format_answer(res[0][i])) std::abort();
  return 0;
}
