// kernels/dp_dispatch.cpp — which SIMD kernels this processor can run (CPUID, via the
// compiler's builtins, which also check that the OS saves the AVX and AVX-512
// registers), and the choice among them.
#include "dp_kernels.hpp"

namespace agatha::kernels {

CpuIsas cpu_isas() {
  CpuIsas c;
#if defined(__x86_64__) || defined(__i386__)
  c.sse41 = __builtin_cpu_supports("sse4.1");
  c.avx2 = __builtin_cpu_supports("avx2");
  // The AVX-512 kernels use byte and word lanes (BW) and the EVEX forms of 128- and
  // 256-bit instructions (VL) besides the foundation.
  c.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl");
#endif
  return c;
}

bool cpu_has_sse41() { return cpu_isas().sse41; }
bool cpu_has_avx2() { return cpu_isas().avx2; }
bool cpu_has_avx512() { return cpu_isas().avx512; }

IsaChoice resolve_isa(std::string_view requested, const CpuIsas& have) {
  if (requested == "auto") {
    if (have.avx512) return {"avx512", {}};
    if (have.avx2) return {"avx2", {}};
    if (have.sse41) return {"sse41", {}};
    return {{}, "the cpu backend needs SSE4.1; use --backend scalar"};
  }
  if (requested == "avx512")
    return have.avx512 ? IsaChoice{"avx512", {}}
                       : IsaChoice{{}, "this processor does not support AVX-512 (F, BW and VL)"};
  if (requested == "avx2") return have.avx2 ? IsaChoice{"avx2", {}} : IsaChoice{{}, "this processor does not support AVX2"};
  if (requested == "sse41")
    return have.sse41 ? IsaChoice{"sse41", {}} : IsaChoice{{}, "this processor does not support SSE4.1"};
  return {{}, "unknown instruction set '" + std::string(requested) + "' (expected auto, sse41, avx2 or avx512)"};
}

}  // namespace agatha::kernels
