// tests/kernels/dp_dispatch_test.cpp — the choice of instruction set (resolve_isa) for
// every kind of processor, on whatever processor runs the test; and that what this one
// reports agrees with the backends and chaining kernels it hands out.
#include "../../kernels/chain_scan.hpp"
#include "../../kernels/dp_kernels.hpp"

#include <agatha/dp.hpp>
#include <agatha/error.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace agatha::kernels {
namespace {

constexpr CpuIsas kNone{}, kSse{true, false, false}, kAvx2{true, true, false}, kAvx512{true, true, true};

TEST(ResolveIsa, AutoIsTheWidestThereIs) {
  EXPECT_EQ(resolve_isa("auto", kAvx512).name, "avx512");
  EXPECT_EQ(resolve_isa("auto", kAvx2).name, "avx2");
  EXPECT_EQ(resolve_isa("auto", kSse).name, "sse41");
  const IsaChoice none = resolve_isa("auto", kNone);
  EXPECT_TRUE(none.name.empty());
  EXPECT_NE(none.error.find("SSE4.1"), std::string::npos) << none.error;
}

TEST(ResolveIsa, ANamedSetRunsOnlyWhereThereIsIt) {
  for (const char* isa : {"sse41", "avx2", "avx512"}) EXPECT_EQ(resolve_isa(isa, kAvx512).name, isa);
  EXPECT_EQ(resolve_isa("avx2", kAvx2).name, "avx2");
  EXPECT_EQ(resolve_isa("sse41", kAvx2).name, "sse41");
  const IsaChoice no512 = resolve_isa("avx512", kAvx2);
  EXPECT_TRUE(no512.name.empty());
  EXPECT_NE(no512.error.find("AVX-512"), std::string::npos) << no512.error;
  EXPECT_TRUE(resolve_isa("avx2", kSse).name.empty());
  EXPECT_TRUE(resolve_isa("sse41", kNone).name.empty());
}

TEST(ResolveIsa, UnknownNamesAreRefusedWithTheChoices) {
  const IsaChoice c = resolve_isa("avx10", kAvx512);
  EXPECT_TRUE(c.name.empty());
  EXPECT_NE(c.error.find("'avx10'"), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("avx512"), std::string::npos) << c.error;
}

// This processor: the backend --isa auto gives, the ISAs listed as supported and the
// chaining kernels all follow resolve_isa on cpu_isas().
TEST(ResolveIsa, ThisProcessorsBackendsFollowTheChoice) {
  const CpuIsas here = cpu_isas();
  if (!here.sse41) GTEST_SKIP() << "this processor has no SSE4.1: the cpu backend cannot run";
  DpBackendOptions opt;
  opt.backend = "cpu";
  EXPECT_EQ(make_dp_backend(opt)->name(), "cpu-" + resolve_isa("auto", here).name);
  const std::vector<std::string> listed = supported_isas();
  for (const char* isa : {"sse41", "avx2", "avx512"}) {
    const bool runs = !resolve_isa(isa, here).name.empty();
    EXPECT_EQ(std::find(listed.begin(), listed.end(), isa) != listed.end(), runs) << isa;
    EXPECT_EQ(chain_scan_for(isa) != nullptr, runs) << isa;
    opt.isa = isa;
    if (runs)
      EXPECT_EQ(make_dp_backend(opt)->name(), std::string("cpu-") + isa);
    else
      EXPECT_THROW((void)make_dp_backend(opt), Error) << isa;
  }
  EXPECT_EQ(chain_scan_for("auto"), chain_scan_for(nullptr));
}

}  // namespace
}  // namespace agatha::kernels
