// kernels/gpu/arch_select.hpp — which of a fat binary's kernel images a GPU can run.
//
// nvcc embeds SASS (machine code for one architecture, sm_XY) and PTX (virtual code for
// compute_XY, compiled by the driver at load time). CUDA's compatibility rules: SASS for
// sm_XY runs on devices of compute capability X.Z with Z >= Y (same major revision);
// PTX for compute_XY is JIT-compiled for any device of compute capability >= X.Y. The
// driver prefers a SASS image that runs, the newest such, over PTX. Plain host code, so
// the decision is tested without a GPU; the CUDA backend checks it against what the
// runtime loads (cudaFuncGetAttributes).
#pragma once

#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace agatha::gpu {

struct KernelImage {
  enum Kind { kNone, kSass, kPtx } kind = kNone;
  int arch = 0;  // 10 * major + minor of the image
};

// Architectures written as "75,80,90" (or with ';' or spaces); others are ignored.
inline std::vector<int> parse_arch_list(std::string_view s) {
  std::vector<int> out;
  int v = -1;
  for (size_t i = 0; i <= s.size(); ++i) {
    const char c = i < s.size() ? s[i] : ',';
    if (c >= '0' && c <= '9') {
      v = (v < 0 ? 0 : v * 10) + (c - '0');
    } else {
      if (v > 0) out.push_back(v);
      v = -1;
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The image a device of compute capability cc (10 * major + minor) runs.
inline KernelImage pick_image(std::span<const int> sass, std::span<const int> ptx, int cc) {
  KernelImage best;
  for (int a : sass)
    if (a / 10 == cc / 10 && a % 10 <= cc % 10 && a > best.arch) best = KernelImage{KernelImage::kSass, a};
  if (best.kind != KernelImage::kNone) return best;
  for (int a : ptx)
    if (a <= cc && a > best.arch) best = KernelImage{KernelImage::kPtx, a};
  return best;
}

inline std::string describe(const KernelImage& k) {
  switch (k.kind) {
    case KernelImage::kSass: return "sm_" + std::to_string(k.arch) + " SASS";
    case KernelImage::kPtx: return "compute_" + std::to_string(k.arch) + " PTX, compiled by the driver";
    case KernelImage::kNone: break;
  }
  return "none";
}

inline std::string join_archs(std::span<const int> a, const char* prefix) {
  std::string s;
  for (int x : a) {
    if (!s.empty()) s += ' ';
    s += prefix;
    s += std::to_string(x);
  }
  return s.empty() ? "none" : s;
}

}  // namespace agatha::gpu
