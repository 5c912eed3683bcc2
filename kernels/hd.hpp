// kernels/hd.hpp — AGATHA_HD marks code compiled for both the host and the device:
// the logic that decides DP results is written once and runs on CPU and GPU alike.
#pragma once

#if defined(__CUDACC__)
#define AGATHA_HD __host__ __device__ __forceinline__
#else
#define AGATHA_HD inline
#endif
