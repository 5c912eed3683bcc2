#!/usr/bin/env bash
# Runs agatha's fuzz targets with libFuzzer (clang) under ASan and UBSan, each for a set
# time, and prints one line per target: executions, crashes, hangs.
#
#   scripts/fuzz.sh [-t SECONDS] [TARGET...]     (default: 600 s each, every target)
#
# Targets: seq_reader agi mmi task_file eval_alignments eval_truth junc_bed base_mods (tests/fuzz/). Each run
# starts from tests/fuzz/corpus/TARGET and grows a working corpus in
# build-fuzz/corpus/TARGET. Findings land in build-fuzz/artifacts/TARGET/ (crash-*,
# leak-*, oom-*: crashes; timeout-*: hangs, an input running over 10 s); minimise one
# with `build-fuzz/tests/fuzz/fuzz_TARGET -minimize_crash=1 FILE` and, once fixed,
# commit it to tests/fuzz/corpus/TARGET, where the `fuzz-TARGET` test replays it.
# Needs clang with its compiler-rt (Debian: clang libclang-rt-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=600
if [ "${1:-}" = "-t" ]; then secs=$2; shift 2; fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(seq_reader agi mmi task_file eval_alignments eval_truth junc_bed base_mods)
if [ ! -f build-fuzz/build.ninja ]; then
  CC=clang CXX=clang++ meson setup build-fuzz -Dfuzzing=true -Dtests=false -Dcuda=disabled \
    -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized > /dev/null
fi
ninja -C build-fuzz $(printf 'tests/fuzz/fuzz_%s ' "${targets[@]}") > /dev/null
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
status=0
printf '%-16s %8s %14s %8s %6s\n' target seconds executions crashes hangs
for t in "${targets[@]}"; do
  work=build-fuzz/corpus/$t art=build-fuzz/artifacts/$t log=build-fuzz/fuzz-$t.log
  mkdir -p "$work" "$art"
  ./build-fuzz/tests/fuzz/fuzz_"$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$art/" "$work" "tests/fuzz/corpus/$t" > "$log" 2>&1 || status=1
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  secs_run=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | awk '{print $5}' || true)
  crashes=$(find "$art" -name 'crash-*' -o -name 'leak-*' -o -name 'oom-*' | wc -l)
  hangs=$(find "$art" -name 'timeout-*' | wc -l)
  [ "$crashes" -eq 0 ] && [ "$hangs" -eq 0 ] || status=1
  printf '%-16s %8s %14s %8d %6d\n' "$t" "${secs_run:-$secs}" "$execs" "$crashes" "$hangs"
done
exit "$status"
