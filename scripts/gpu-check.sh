#!/usr/bin/env bash
# The device check for the CUDA backend, run on a machine with an NVIDIA GPU.
#
#   scripts/gpu-check.sh [GOLDEN_DIR]      (default: ../shared/golden, else .golden)
#
# Builds with CUDA (unless $BUILD/agatha exists already), runs the GPU test suite, checks
# `agatha dp --backend gpu` against every golden file, measures GPU cells/s on
# golden/ontul and golden/pb and the ratio to the cpu backend on all CPU cores, checks
# that `agatha align --dp-backend gpu` writes the same SAM as the cpu backend, and
# writes everything under $OUT (default ./gpu-check-out), summary in $OUT/report.txt.
# Each step has a time limit so the whole check stays within a few minutes.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-check-out}
BUILD=${BUILD:-build-gpu}
GOLDEN=${1:-}
if [ -z "$GOLDEN" ]; then
  if [ -d ../shared/golden ]; then GOLDEN=../shared/golden; else GOLDEN=.golden; fi
fi
mkdir -p "$OUT"
REPORT="$OUT/report.txt"
: >"$REPORT"
say() { echo "$*" | tee -a "$REPORT"; }
CORES=$(nproc)

say "== device"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1 | tee -a "$REPORT"

say "== build ($BUILD)"
if [ ! -x "$BUILD/agatha" ]; then
  if ! { meson setup "$BUILD" -Dcuda=enabled -Dtests=true >"$OUT/build.log" 2>&1 &&
         timeout 900 ninja -C "$BUILD" >>"$OUT/build.log" 2>&1; }; then
    say "build failed; see build.log"
    exit 1
  fi
fi
say "ok"

say "== GPU tests"
timeout 300 "$BUILD/tests/test_gpu" --gtest_output="json:$OUT/test_gpu.json" >"$OUT/test_gpu.log" 2>&1
say "test_gpu exit $? ($(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/test_gpu.log" | tr '\n' ' '))"

say "== golden files, --backend gpu --check"
for f in mt pb ontul syn; do
  path="$GOLDEN/$f.golden.tsv.gz"
  if [ ! -f "$path" ]; then say "$f: missing ($path)"; continue; fi
  timeout 300 "$BUILD/agatha" dp "$path" --backend gpu --check --bench >"$OUT/check_$f.log" 2>&1
  say "$f: exit $? $(grep -E '^checked' "$OUT/check_$f.log") $(grep -oE 'cells_per_s=[0-9.e+]+' "$OUT/check_$f.log")"
done

say "== throughput (median of 3), gpu vs cpu on $CORES cores"
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for f in ontul pb; do
  path="$GOLDEN/$f.golden.tsv.gz"
  [ -f "$path" ] || continue
  for backend in gpu cpu; do
    : >"$OUT/tp_${f}_$backend.txt"
    for _ in 1 2 3; do
      timeout 300 "$BUILD/agatha" dp "$path" --backend "$backend" -t "$CORES" --bench -o /dev/null 2>&1 |
        grep -oE 'seconds=[0-9.]+' | cut -d= -f2 >>"$OUT/tp_${f}_$backend.txt"
    done
  done
  cells=$("$BUILD/agatha" dp "$path" --backend cpu -t "$CORES" --bench -o /dev/null 2>&1 | grep -oE 'cells=[0-9]+' | cut -d= -f2)
  g=$(median <"$OUT/tp_${f}_gpu.txt")
  c=$(median <"$OUT/tp_${f}_cpu.txt")
  awk -v f="$f" -v n="$cells" -v g="$g" -v c="$c" 'BEGIN {
    if (g > 0 && c > 0) printf "%s: cells %d  gpu %.3f s = %.1f Gcells/s  cpu %.3f s = %.1f Gcells/s  gpu/cpu speed %.2fx\n", f, n, g, n / g / 1e9, c, n / c / 1e9, c / g;
    else printf "%s: no timing (gpu %s, cpu %s)\n", f, g, c }' | tee -a "$REPORT"
done
say "== agatha align: --dp-backend gpu vs cpu (SAM, @PG aside)"
align_same() {  # name, options, ref, reads
  local name=$1 opts=$2 ref=$3 reads=$4
  timeout 300 "$BUILD/agatha" align $opts --dp-backend gpu -t "$CORES" "$ref" "$reads" -o "$OUT/align_${name}_gpu.sam" 2>"$OUT/align_${name}_gpu.log"
  local eg=$?
  timeout 300 "$BUILD/agatha" align $opts --dp-backend cpu -t "$CORES" "$ref" "$reads" -o "$OUT/align_${name}_cpu.sam" 2>"$OUT/align_${name}_cpu.log"
  local ec=$?
  if [ $eg -ne 0 ] || [ $ec -ne 0 ]; then say "$name: exit gpu $eg cpu $ec"; return; fi
  if cmp -s <(grep -v '^@PG' "$OUT/align_${name}_gpu.sam") <(grep -v '^@PG' "$OUT/align_${name}_cpu.sam"); then
    say "$name: identical ($(grep -vc '^@' "$OUT/align_${name}_gpu.sam") records; $(grep -oE '[0-9]+ DP tasks in [0-9]+ round' "$OUT/align_${name}_gpu.log"))"
  else
    say "$name: DIFFERENT"
  fi
}
align_same bundled "-x map-pb" data/ref.fa data/reads.fq
align_same inv "" tests/data/e2e/t-inv.fa.gz tests/data/e2e/q-inv.fa.gz
align_same ont "-x map-ont" tests/data/e2e/ont.ref.fa.gz tests/data/e2e/ont.reads.fq.gz
align_same hifi "-x map-hifi" tests/data/e2e/hifi.ref.fa.gz tests/data/e2e/hifi.reads.fq.gz
say "== done; report in $REPORT"
