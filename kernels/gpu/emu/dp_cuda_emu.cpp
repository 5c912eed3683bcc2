// kernels/gpu/emu/dp_cuda_emu.cpp — the CUDA backend's own source (kernel and launcher)
// compiled for the host emulation of CUDA: the gpu-emu backend. With AGATHA_EMU_THREADS
// (the ThreadSanitizer build) every lane is an OS thread and the backend is
// gpu::emu_threads.
#if defined(AGATHA_EMU_THREADS)
#define AGATHA_CUDA_NS emu_threads
#else
#define AGATHA_CUDA_NS emu
#endif
#include "../dp_cuda.cu"
