#!/usr/bin/env bash
# Builds agatha and its tests with AddressSanitizer and UndefinedBehaviorSanitizer in
# ./build-asan and runs the suites that cover input handling and the CPU engine: unit,
# map, sam, region, chain, cli, eval, the committed golden subset on every backend, the
# end-to-end tests (gpu-emu's end-to-end pass excepted: it is the slowest and its
# kernel source is covered by the golden subset), and the fuzz corpus replays. Any
# sanitizer report fails the run. CUDA is left out (nvcc does not take -fsanitize).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build-asan/build.ninja ]; then
  meson setup build-asan -Dtests=true -Dcuda=disabled -Db_sanitize=address,undefined -Db_lundef=false \
    -Dbuildtype=debugoptimized > /dev/null
fi
ninja -C build-asan
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:check_initialization_order=1:strict_init_order=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
run() {  # run SUITE... with GTEST_FILTER=$filter
  GTEST_FILTER="$filter" meson test -C build-asan --print-errorlogs --num-processes "$(nproc)" "$@"
}
status=0
filter='*' run unit map sam region chain cli eval fuzz-seq_reader fuzz-agi fuzz-task_file \
  fuzz-eval_alignments fuzz-eval_truth || status=1
filter='*CommittedSubset*' run golden || status=1
filter='-*E2eGpuEmu*' run e2e || status=1
python3 scripts/test-summary.py build-asan || status=1
exit "$status"
