#!/usr/bin/env bash
# Builds agatha with its tests in ./build and runs every suite; prints a one-line
# summary of the GoogleTest cases at the end. Exits non-zero if anything failed.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/build.ninja ]; then
  meson setup build -Dtests=true
fi
ninja -C build
status=0
meson test -C build --print-errorlogs --num-processes "$(nproc)" || status=$?
python3 scripts/test-summary.py build || status=$?
exit "$status"
