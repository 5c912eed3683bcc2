#!/usr/bin/env bash
# Builds agatha and its tests with AddressSanitizer and UndefinedBehaviorSanitizer in
# ./build-asan and runs the suites that cover input handling and the CPU engine: options,
# io, index, map, format, align, pipeline, cli, eval, util; kernels but for its differential
# tests, the full golden files and gpu-sim's run of the splice golden files (the
# hand-checked fixtures, the extremes, local_sw, the committed golden subset on every
# backend, the splice golden files on the others, gpu-emu's kernel source among them);
# the end-to-end tests (gpu-emu's
# end-to-end pass excepted: it is the slowest and its kernel source is covered by the
# golden subset), and the fuzz corpus replays. Any sanitizer report fails the run. CUDA
# is left out (nvcc does not take -fsanitize).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build-asan/build.ninja ]; then
  meson setup build-asan -Dtests=true -Dcuda=disabled -Db_sanitize=address,undefined -Db_lundef=false \
    -Dbuildtype=debugoptimized > /dev/null
fi
# Only what the suites below run (the GPU suites and the differential tests are left to
# the main build).
ninja -C build-asan agatha tests/test_options tests/test_io tests/test_index tests/test_map tests/test_format \
  tests/test_align tests/test_pipeline tests/test_kernels tests/test_cli tests/test_eval tests/test_e2e tests/test_util \
  tests/fuzz/fuzz_seq_reader tests/fuzz/fuzz_agi tests/fuzz/fuzz_mmi tests/fuzz/fuzz_task_file tests/fuzz/fuzz_eval_alignments \
  tests/fuzz/fuzz_eval_truth tests/fuzz/fuzz_junc_bed tests/fuzz/fuzz_base_mods
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:check_initialization_order=1:strict_init_order=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
run() {  # run [MESON-TEST-OPTION...] SUITE... with GTEST_FILTER=$filter
  GTEST_FILTER="$filter" meson test -C build-asan --no-rebuild --print-errorlogs --num-processes "$(nproc)" "$@"
}
status=0
# (The 400 Mb index build of the progress lines is left to the main build: the same code
# as the small index of the other progress tests, at several times the memory here.)
filter='-ProgressLargeIndex.*' run options io index map format align pipeline cli eval util fuzz-seq_reader fuzz-agi fuzz-mmi fuzz-task_file \
  fuzz-eval_alignments fuzz-eval_truth fuzz-junc_bed fuzz-base_mods || status=1
# kernels and e2e are one test process each, mostly on one core: they run side by side,
# each with meson logs of its own name.
filter='-*/DpDifferential.*:DpLongTask.*:*/Golden.SharedGoldenFiles/*:*/SpliceDp.GoldenTasks*/gpu_sim' run --logbase kernels kernels &
kernels_pid=$!
# The e2e cases once, as minimap2 2.31 (the default): their --compat 2.24 runs take the
# same code but for the rules of include/agatha/compat.hpp, and CI's time is limited
# (for that also the GPU emulation's and the thread counts' runs of every case, which
# the plain build's tests run).
filter='-*E2eGpuEmu*:*E2eThreads*:*__2_24*' run --logbase e2e e2e &
e2e_pid=$!
wait "$kernels_pid" || status=1
wait "$e2e_pid" || status=1
python3 scripts/test-summary.py build-asan || status=1
exit "$status"
