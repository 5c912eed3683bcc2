// kernels/dp_dispatch.cpp — which SIMD kernels this processor can run (CPUID, via the
// compiler's builtins, which also check that the OS saves the AVX registers).
#include "dp_kernels.hpp"

namespace agatha::kernels {

bool cpu_has_sse41() {
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_cpu_supports("sse4.1");
#else
  return false;
#endif
}

bool cpu_has_avx2() {
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

}  // namespace agatha::kernels
