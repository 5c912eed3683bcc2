#include "dp.hpp"

#include <agatha/cigar.hpp>
#include <agatha/nt4.hpp>
#include <algorithm>

#include <algorithm>
#include <string_view>

namespace agatha::test {

const std::vector<std::string>& all_backends() {
  static const std::vector<std::string> names = {"scalar", "cpu-sse41", "cpu-avx2", "cpu-avx512", "gpu-sim", "gpu-emu"};
  return names;
}

std::unique_ptr<DpBackend> try_backend(const std::string& name, int threads) {
  DpBackendOptions opt;
  opt.threads = threads;
  if (name == "scalar" || name == "gpu-sim" || name == "gpu-emu") {
    opt.backend = name;
  } else {
    opt.backend = "cpu";
    opt.isa = name.substr(4);
    if (opt.isa == "scalar" || !isa_runs(opt.isa)) return nullptr;
  }
  return make_dp_backend(opt);
}

bool isa_runs(const std::string& isa) {
  if (isa == "scalar") return true;
  const std::vector<std::string> have = supported_isas();
  return std::find(have.begin(), have.end(), isa) != have.end();
}

std::vector<uint8_t> encode(const std::string& s) {
  std::vector<uint8_t> out;
  for (char c : s) out.push_back(nt4(c));
  return out;
}

std::string decode(const std::vector<uint8_t>& codes) {
  std::string out;
  for (uint8_t c : codes) out += "ACGTN"[c < 4 ? c : 4];
  return out;
}

std::vector<uint32_t> parse_cigar(const std::string& s) {
  static constexpr std::string_view kOps = "MIDNSHP=X";
  std::vector<uint32_t> out;
  uint32_t len = 0;
  for (char c : s) {
    if (c >= '0' && c <= '9')
      len = len * 10 + static_cast<uint32_t>(c - '0');
    else
      out.push_back(len << 4 | static_cast<uint32_t>(kOps.find(c))), len = 0;
  }
  return out;
}

std::string cigar_text(const std::vector<uint32_t>& cigar) {
  std::string out;
  cigar::append_text(out, cigar);
  return out;
}

std::vector<uint32_t> collapse_eqx(const std::vector<uint32_t>& ops) {
  std::vector<uint32_t> out;
  for (uint32_t c : ops) {
    uint32_t op = cigar::op(c);
    if (op == cigar::kEqual || op == cigar::kDiff) op = cigar::kMatch;
    if (!out.empty() && op == cigar::kMatch && cigar::op(out.back()) == cigar::kMatch)
      out.back() += cigar::len(c) << 4;
    else
      out.push_back(cigar::make(cigar::len(c), op));
  }
  return out;
}

}  // namespace agatha::test
