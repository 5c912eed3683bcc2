// kernels/dp_kernels.hpp — the per-task CPU kernels. Each computes one DpTask into a
// DpResult with the thread's Workspace; all of them return identical results.
//
//   extd2_scalar     one cell at a time; the readable oracle        (dp_scalar.cpp)
//   extd2_sse41      16 cells a step, SSE4.1                         (dp_simd.cpp)
//   extd2_avx2       32 cells a step, AVX2                           (dp_simd.cpp)
//   extd2_avx512     64 cells a step, AVX-512 (BW)                   (dp_simd.cpp)
//   exts2_scalar     the splice model (ksw_exts2), one cell at a time (dp_splice_scalar.cpp)
//   exts2_sse41      the splice model, 16 cells a step, SSE4.1       (dp_splice_simd.cpp)
//   exts2_avx2       the splice model, 32 cells a step, AVX2         (dp_splice_simd.cpp)
//   exts2_avx512     the splice model, 64 cells a step, AVX-512      (dp_splice_simd.cpp)
//   extz2_scalar     single affine gaps (ksw_extz2), one cell at a time (dp_extz2_scalar.cpp)
#pragma once

#include <agatha/dp.hpp>

#include <string>
#include <string_view>

namespace agatha::kernels {

struct Workspace;

using KernelFn = void (*)(const DpTask&, DpResult&, Workspace&);

void extd2_scalar(const DpTask& task, DpResult& res, Workspace& ws);
void extd2_sse41(const DpTask& task, DpResult& res, Workspace& ws);
void extd2_avx2(const DpTask& task, DpResult& res, Workspace& ws);
void extd2_avx512(const DpTask& task, DpResult& res, Workspace& ws);
// Splice tasks (flag has dp_flag::kSplice).
void exts2_scalar(const DpTask& task, DpResult& res, Workspace& ws);
void exts2_sse41(const DpTask& task, DpResult& res, Workspace& ws);
void exts2_avx2(const DpTask& task, DpResult& res, Workspace& ws);
void exts2_avx512(const DpTask& task, DpResult& res, Workspace& ws);

// Full-band approximate-maximum gap fills, one task per lane (dp_batch_simd.cpp): n
// tasks (1 <= n <= batch_lanes of the ISA), each one batch_task accepts, all with the
// same key; results[l] answers tasks[l], exactly as extd2_* would.
using BatchFn = void (*)(const DpTask* const* tasks, DpResult* const* results, int n, Workspace& ws);
void extd2_batch_sse41(const DpTask* const* tasks, DpResult* const* results, int n, Workspace& ws);
void extd2_batch_avx2(const DpTask* const* tasks, DpResult* const* results, int n, Workspace& ws);
void extd2_batch_avx512(const DpTask* const* tasks, DpResult* const* results, int n, Workspace& ws);
inline constexpr int kBatchLanesSse41 = 16, kBatchLanesAvx2 = 32, kBatchLanesAvx512 = 64;
// Tasks longer than this on either side run alone (their direction rows would take
// lanes x qlen x tlen bytes).
inline constexpr int kBatchMaxLen = 320;
// Whether the batch kernels compute this task: a ksw_extd2 task with CIGAR, left-aligned
// gaps, KSW_EZ_APPROX_MAX without APPROX_DROP or EXTZ_ONLY, a band that holds every cell,
// ksw_gen_simple_mat scoring, both sides 1..kBatchMaxLen long, and not one that backends
// hand to the scalar oracle. key then identifies its scoring: tasks batch together only
// with equal keys.
[[nodiscard]] bool batch_task(const DpTask& task, uint64_t& key);

// A gap fill whose best path is the diagonal (dp_diagonal.cpp): a full-band ksw_extd2
// task with KSW_EZ_APPROX_MAX and no APPROX_DROP, EXTZ_ONLY or splicing, whose query and
// target have one length, scored so that no pair beats a match and every gap costs, where
// the diagonal's pairs lose less against all matches than a match and two one-base gaps
// are worth. Then the result is true and *res (unless res is null) what extd2_* would
// give: one M operation, the diagonal's score (see dp_diagonal.cpp for ksw2's offset
// when the gap pieces come costlier first). Else it is false and *res untouched.
[[nodiscard]] bool diagonal_fill(const DpTask& task, DpResult* res);

// Single-affine tasks (flag has dp_flag::kSingleAffine), for every backend.
void extz2_scalar(const DpTask& task, DpResult& res, Workspace& ws);

// Instruction sets of this processor, from CPUID (dp_dispatch.cpp).
struct CpuIsas {
  bool sse41 = false, avx2 = false, avx512 = false;  // avx512: F, BW and VL
};
CpuIsas cpu_isas();
bool cpu_has_sse41();
bool cpu_has_avx2();
bool cpu_has_avx512();

// The instruction set a request ("auto", "sse41", "avx2", "avx512") means on a processor
// with `have`: "auto" is the widest it has. name is empty when it cannot run, and error
// then says why. A pure function, so that the choice is tested for every processor on
// any processor.
struct IsaChoice {
  std::string name, error;
};
IsaChoice resolve_isa(std::string_view requested, const CpuIsas& have);

}  // namespace agatha::kernels
