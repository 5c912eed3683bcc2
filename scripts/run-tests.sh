#!/usr/bin/env bash
# Builds agatha with its tests in ./build and runs every suite, then builds it again
# under AddressSanitizer and UndefinedBehaviorSanitizer in ./build-asan and runs the
# input-handling, golden-subset, end-to-end and fuzz-replay suites there
# (scripts/run-sanitizers.sh). Prints a one-line summary of the GoogleTest cases of each
# build. Exits non-zero if anything failed. AGATHA_SANITIZERS=0 skips the second part.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/build.ninja ]; then
  meson setup build -Dtests=true
fi
ninja -C build
status=0
meson test -C build --print-errorlogs --num-processes "$(nproc)" || status=$?
python3 scripts/test-summary.py build || status=$?
if [ "${AGATHA_SANITIZERS:-1}" != 0 ]; then
  echo "== sanitizers (ASan, UBSan) =="
  ./scripts/run-sanitizers.sh || status=1
fi
# The static performance report of the CUDA kernels (where nvcc is present): printed,
# and a failure only when a budget of the main kernel is over (spills, stack frame,
# instructions per cell on the interior path); a missing tool is a note.
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "== GPU static report =="
  ./scripts/gpu-static.sh --check || { rc=$?; if [ "$rc" -eq 2 ]; then status=1; fi; }
fi
exit "$status"
