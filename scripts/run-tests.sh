#!/usr/bin/env bash
# Builds agatha with its tests in ./build and runs every suite, then the Python module's
# tests (scripts/python-tests.sh), then builds it again
# under AddressSanitizer and UndefinedBehaviorSanitizer in ./build-asan and runs the
# input-handling, golden-subset, end-to-end and fuzz-replay suites there
# (scripts/run-sanitizers.sh). Prints a one-line summary of the GoogleTest cases of each
# build. Exits non-zero if anything failed. AGATHA_SANITIZERS=0 skips the second part.
# Ends with a table of the time each test suite and each phase took
# (scripts/suite-times.py); phases are appended to $AGATHA_PHASES if set (.ci/run sets it
# to add its own), else to build/phases.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
phases="${AGATHA_PHASES:-build/phases.tsv}"
t=$SECONDS
phase() {  # phase NAME: the seconds since the previous phase ended
  printf '%s\t%d\n' "$1" $((SECONDS - t)) >> "$phases"
  t=$SECONDS
}
# The tests are off in a plain `meson setup build` (the quick start's): turned on here,
# in a build directory made by it too.
if [ ! -f build/build.ninja ]; then
  meson setup build -Dtests=true
elif [ "$(meson introspect build --buildoptions | python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "tests"))')" != True ]; then
  meson configure build -Dtests=true
fi
if [ -z "${AGATHA_PHASES:-}" ]; then : > "$phases"; fi
ninja -C build agatha
phase "build (agatha)"
# The rest: the test executables, minimap2 2.31 for the oracles suite.
ninja -C build
phase "build (tests)"
status=0
meson test -C build --print-errorlogs --num-processes "$(nproc)" || status=$?
python3 scripts/test-summary.py build || status=$?
phase "tests"
# The Python module: `pip install .` into a fresh environment, then its tests against
# mappy 2.24 and 2.31 (scripts/python-tests.sh).
echo "== Python module =="
./scripts/python-tests.sh || status=1
phase "python (pip install and tests)"
if [ "${AGATHA_SANITIZERS:-1}" != 0 ]; then
  echo "== sanitizers (ASan, UBSan) =="
  ./scripts/run-sanitizers.sh || status=1
  phase "sanitizers (build and tests)"
fi
# The static performance report of the CUDA kernels (where nvcc is present): printed,
# with the task-mix figures of the golden files, and a failure when a budget of the main
# kernels is over (spills, stack frame, instructions per cell on the interior path); a
# missing cuobjdump or nvdisasm is a note, except under CI (CI=true), where it fails.
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "== GPU static report =="
  ./scripts/gpu-static.sh --check || { rc=$?; if [ "$rc" -eq 2 ]; then status=1; fi; }
  phase "GPU static report"
fi
echo "== time per suite and phase =="
builds=(build)
if [ "${AGATHA_SANITIZERS:-1}" != 0 ]; then builds+=(build-asan); fi
python3 scripts/suite-times.py --phases "$phases" "${builds[@]}" || true
exit "$status"
