// How the CUDA backend is built: the fat binary holds a kernel image for every current
// GPU (cuobjdump reads what is really embedded), as SASS for each architecture
// (-Dgpu_archs=all) or, built where there is no GPU, as PTX that the driver compiles, the architectures the binary reports
// are those, and meson refuses an nvcc older than CUDA 12 (the CUDA sources are C++20).
// Tests that need nvcc, cuobjdump or meson skip, visibly, where they are absent.
#include "../../kernels/gpu/arch_select.hpp"
#include "../../kernels/gpu/cuda_backend.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/files.hpp"
#include "support/paths.hpp"
#include "support/run.hpp"

namespace agatha {
namespace {

namespace fs = std::filesystem;

using test::shell_quote;

// `cmd` through the shell, stdout and stderr together in `out`.
test::CommandResult shell(const std::string& cmd) { return test::run_shell(cmd + " 2>&1"); }

std::set<int> archs(const std::string& text, const std::string& kind) {
  std::set<int> s;
  const std::regex re(kind + R"( file\s+\d+: \S+\.sm_(\d+)a?\.(cubin|ptx))");
  for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it) s.insert(std::stoi((*it)[1]));
  return s;
}

// The architectures of the ELF images that hold the DP kernel, from `cuobjdump
// --dump-resource-usage` (one "arch = sm_N" per image, then its "Function NAME:" lines).
// nvcc's link step may add an image of its own (an empty sm_75 one with CUDA 13), which
// --list-elf lists too.
std::set<int> kernel_sass(const std::string& usage) {
  std::set<int> s;
  const std::regex arch_re(R"(arch = sm_(\d+)a?\b)");
  int arch = -1;
  std::istringstream in(usage);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (line.find("Fatbin") != std::string::npos)
      arch = -1;
    else if (std::regex_search(line, m, arch_re))
      arch = std::stoi(m[1]);
    else if (arch >= 0 && line.find("Function") != std::string::npos &&
             line.find("tile_dp_kernel") != std::string::npos)
      s.insert(arch);
  }
  return s;
}

TEST(CudaBuild, FatBinaryHoldsSassForCurrentGpusAndPtxForLaterOnes) {
#if !defined(AGATHA_HAVE_CUDA)
  GTEST_SKIP() << "this build has no CUDA backend";
#else
  const char* env = std::getenv("AGATHA_CUOBJDUMP");
  const std::string tool = env && *env ? env : AGATHA_CUOBJDUMP;
  if (tool.empty()) GTEST_SKIP() << "cuobjdump not found";
  const test::CommandResult r =
      shell(shell_quote(tool) + " --list-elf --list-ptx " + shell_quote(test::agatha_binary()));
  ASSERT_EQ(r.code, 0) << r.out;
  const test::CommandResult usage =
      shell(shell_quote(tool) + " --dump-resource-usage " + shell_quote(test::agatha_binary()));
  ASSERT_EQ(usage.code, 0) << usage.out;
  const std::set<int> elf = kernel_sass(usage.out), ptx = archs(r.out, "PTX");
  // Every kernel image is also one --list-elf lists.
  for (int a : elf) EXPECT_TRUE(archs(r.out, "ELF").count(a)) << "sm_" << a << "\n" << r.out;
  // What the binary says it holds is what it holds.
  const auto sass_built = gpu::cuda::built_sass(), ptx_built = gpu::cuda::built_ptx();
  EXPECT_EQ(elf, std::set<int>(sass_built.begin(), sass_built.end())) << r.out << usage.out;
  EXPECT_EQ(ptx, std::set<int>(ptx_built.begin(), ptx_built.end())) << r.out;
  ASSERT_EQ(ptx.size(), 1u) << r.out;
  const std::string policy = AGATHA_GPU_ARCH_POLICY;
  if (policy == "chosen") GTEST_SKIP() << "built for a chosen list of architectures (-Dgpu_archs)";
  if (policy == "device") GTEST_SKIP() << "built for this machine's GPUs (SASS " << gpu::join_archs(sass_built, "sm_") << ")";
  if (policy == "all") {
    for (int a : {75, 80, 86, 89, 90}) EXPECT_TRUE(elf.count(a)) << "no SASS for sm_" << a << "\n" << r.out;
    EXPECT_GE(*ptx.begin(), *elf.rbegin()) << "the PTX must be of the newest architecture";
  } else {
    // Built without a GPU: one portable PTX image, of Turing, and no SASS.
    ASSERT_EQ(policy, "portable");
    EXPECT_TRUE(elf.empty()) << r.out;
    EXPECT_EQ(*ptx.begin(), 75) << r.out;
  }
  // Every data-centre and desktop GPU from Turing on gets an image.
  const std::vector<int> s(elf.begin(), elf.end()), p(ptx.begin(), ptx.end());
  for (int cc : {75, 80, 86, 87, 89, 90, 100, 103, 120, 121, 130})
    EXPECT_NE(gpu::pick_image(s, p, cc).kind, gpu::KernelImage::kNone) << "compute capability " << cc;
#endif
}

TEST(CudaBuild, GpuInfoNamesTheBuildAndTheDevice) {
  const auto r = test::run_agatha("gpu-info 2>&1");
  EXPECT_NE(r.out.find("CUDA backend: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("usable: "), std::string::npos) << r.out;
  EXPECT_EQ(r.code, r.out.find("usable: yes") != std::string::npos ? 0 : 1) << r.out;
  const auto e = test::run_agatha("gpu-info --emulated 2>&1");
  EXPECT_EQ(e.code, 0) << e.out;
  EXPECT_NE(e.out.find("device 0: CPU emulation of a CUDA device, compute capability 9.0"), std::string::npos) << e.out;
  EXPECT_NE(e.out.find("kernel image: host emulation"), std::string::npos) << e.out;
  const auto v = test::run_agatha("--version 2>&1");
  EXPECT_EQ(v.code, 0);
  EXPECT_NE(v.out.find("CUDA backend: "), std::string::npos) << v.out;
}

// meson with an nvcc that reports CUDA 11.8 (a wrapper around the real one): refused
// when CUDA is required, skipped with a warning when it is optional.
TEST(CudaBuild, MesonRefusesNvccOlderThan12) {
  if (std::string(AGATHA_NVCC).empty() || !fs::exists(AGATHA_NVCC)) GTEST_SKIP() << "nvcc not found";
  if (std::string(AGATHA_MESON).empty() || !fs::exists(AGATHA_MESON)) GTEST_SKIP() << "meson not found";
  const test::TempDir dir;
  const fs::path fake = dir / "nvcc";
  {
    std::ofstream f(fake);
    f << "#!/bin/sh\n"
         "for a in \"$@\"; do case \"$a\" in --version|-V)\n"
         "  echo 'nvcc: NVIDIA (R) Cuda compiler driver'\n"
         "  echo 'Cuda compilation tools, release 11.8, V11.8.89'\n"
         "  echo 'Build cuda_11.8.r11.8/compiler.31833905_0'; exit 0;; esac; done\n"
         "exec '"
      << AGATHA_NVCC << "' \"$@\"\n";
  }
  fs::permissions(fake, fs::perms::owner_all);
  auto setup = [&](const std::string& feature, const std::string& name) {
    return shell("PATH=" + shell_quote(dir.string()) + ":\"$PATH\" " + shell_quote(AGATHA_MESON) + " setup " +
                 shell_quote(dir.file(name)) + " " + shell_quote(test::source_dir()) +
                 " -Dtests=false -Dcuda=" + feature);
  };
  const test::CommandResult required = setup("enabled", "required");
  EXPECT_NE(required.code, 0) << required.out;
  EXPECT_NE(required.out.find("accepts from CUDA 12 on; nvcc 11.8.89 found"), std::string::npos) << required.out;
  const test::CommandResult optional = setup("auto", "optional");
  EXPECT_EQ(optional.code, 0) << optional.out;
  EXPECT_NE(optional.out.find("building without the CUDA backend"), std::string::npos) << optional.out;
  EXPECT_TRUE(std::regex_search(optional.out, std::regex(R"(CUDA\s*: (NO|False))"))) << optional.out;
}

}  // namespace
}  // namespace agatha
