#!/usr/bin/env bash
# The device check for the CUDA backend.
#
#   scripts/gpu-check.sh prepare     on a development machine (Debian, with nvcc): builds
#                                    gpu-bundle/ (agatha and the GPU test binaries for
#                                    sm_90 with the shared libraries they load, the golden
#                                    files of ../shared/golden), to carry to a device
#   scripts/gpu-check.sh [BUNDLE]    on a machine with an NVIDIA GPU, from the repository
#                                    root (default bundle: gpu-bundle; without one, it
#                                    builds build-gpu with meson where the dependencies are)
#
# Checks, each with a time limit so the whole run stays within a few minutes:
#   1. agatha gpu-info: runtime, driver, device, the kernel image it loads;
#   2. the GPU test suites (test_gpu: golden subset, auto fall-back, emulated launcher;
#      test_build: the kernel images cuobjdump finds in the binary);
#   3. every golden file on `agatha dp --backend gpu --check`;
#   4. compute-sanitizer memcheck, racecheck and synccheck on 300 golden tasks;
#   5. `agatha align --dp-backend gpu` against `--dp-backend cpu` on four read sets;
#   6. DP throughput, GPU against the cpu backend on all cores (median of 3).
# Output under $OUT (default ./gpu-check-out); the summary is $OUT/report.txt.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = prepare ]; then
  set -e
  B=${BUILD:-build-gpu}
  [ -f "$B/build.ninja" ] || meson setup "$B" -Dcuda=enabled -Dtests=true -Dgpu_archs=90
  ninja -C "$B" agatha tests/test_gpu tests/test_build
  rm -rf gpu-bundle && mkdir -p gpu-bundle/lib gpu-bundle/golden
  cp "$B/agatha" "$B/tests/test_gpu" "$B/tests/test_build" gpu-bundle/
  for exe in gpu-bundle/agatha gpu-bundle/test_gpu; do
    ldd "$exe" | awk '$3 ~ /^\// {print $3}' | grep -v -E '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so' |
      xargs -r -I{} cp -n {} gpu-bundle/lib/
  done
  if [ -d ../shared/golden ]; then cp ../shared/golden/*.golden.tsv.gz gpu-bundle/golden/; fi
  du -sh gpu-bundle
  echo "carry gpu-bundle (git ignores it) and run: scripts/gpu-check.sh gpu-bundle"
  exit 0
fi

OUT=${OUT:-$PWD/gpu-check-out}
mkdir -p "$OUT"
REPORT="$OUT/report.txt"
: >"$REPORT"
say() { echo "$*" | tee -a "$REPORT"; }
CORES=$(nproc)
BUNDLE=${1:-gpu-bundle}

if [ -x "$BUNDLE/agatha" ]; then
  AGATHA=$BUNDLE/agatha
  TESTS=$BUNDLE
  GOLDEN=$BUNDLE/golden
  export LD_LIBRARY_PATH="$PWD/$BUNDLE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export AGATHA_SOURCE_DIR=$PWD AGATHA_BINARY=$PWD/$AGATHA
else
  BUILD=${BUILD:-build-gpu}
  say "== build ($BUILD)"
  if [ ! -x "$BUILD/agatha" ]; then
    if ! { meson setup "$BUILD" -Dcuda=enabled -Dtests=true >"$OUT/build.log" 2>&1 &&
           timeout 900 ninja -C "$BUILD" >>"$OUT/build.log" 2>&1; }; then
      say "build failed; see build.log"
      exit 1
    fi
  fi
  AGATHA=$BUILD/agatha
  TESTS=$BUILD/tests
  GOLDEN=../shared/golden
fi
if command -v cuobjdump >/dev/null 2>&1; then export AGATHA_CUOBJDUMP=$(command -v cuobjdump); fi

say "== device"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1 | tee -a "$REPORT"
"$AGATHA" gpu-info 2>&1 | tee -a "$REPORT"

say "== GPU test suites"
for t in test_gpu test_build; do
  [ -x "$TESTS/$t" ] || { say "$t: missing"; continue; }
  filter='*'
  [ "$t" = test_build ] && filter='CudaBuild.FatBinary*:CudaBuild.GpuInfo*'  # no meson setup there
  timeout 300 "$TESTS/$t" --gtest_filter="$filter" >"$OUT/$t.log" 2>&1
  say "$t exit $? ($(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/$t.log" | tr '\n' ' '))"
done

say "== golden files, --backend gpu --check"
for f in mt pb ontul syn; do
  path="$GOLDEN/$f.golden.tsv.gz"
  if [ ! -f "$path" ]; then say "$f: missing ($path)"; continue; fi
  timeout 300 "$AGATHA" dp "$path" --backend gpu --check --bench >"$OUT/check_$f.log" 2>&1
  say "$f: exit $? $(grep -E '^checked' "$OUT/check_$f.log") $(grep -oE 'cells_per_s=[0-9.e+]+' "$OUT/check_$f.log")"
done

say "== compute-sanitizer (300 golden tasks)"
if command -v compute-sanitizer >/dev/null 2>&1; then
  zcat tests/data/golden_subset.tsv.gz | head -300 >"$OUT/small.tsv"
  for tool in memcheck racecheck synccheck; do
    timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 9 "$AGATHA" dp "$OUT/small.tsv" --backend gpu --check \
      -o /dev/null >"$OUT/sanitizer_$tool.log" 2>&1
    say "$tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer_$tool.log" | tr '\n' ' ')"
  done
else
  say "compute-sanitizer not found (PyPI: nvidia-cuda-sanitizer-api)"
fi

say "== agatha align: --dp-backend gpu vs cpu (SAM, @PG aside)"
align_same() {  # name, options, ref, reads
  local name=$1 opts=$2 ref=$3 reads=$4
  timeout 300 "$AGATHA" align $opts --dp-backend gpu -t "$CORES" "$ref" "$reads" -o "$OUT/align_${name}_gpu.sam" 2>"$OUT/align_${name}_gpu.log"
  local eg=$?
  timeout 300 "$AGATHA" align $opts --dp-backend cpu -t "$CORES" "$ref" "$reads" -o "$OUT/align_${name}_cpu.sam" 2>"$OUT/align_${name}_cpu.log"
  local ec=$?
  if [ $eg -ne 0 ] || [ $ec -ne 0 ]; then say "$name: exit gpu $eg cpu $ec"; return; fi
  if cmp -s <(grep -v '^@PG' "$OUT/align_${name}_gpu.sam") <(grep -v '^@PG' "$OUT/align_${name}_cpu.sam"); then
    say "$name: identical ($(grep -vc '^@' "$OUT/align_${name}_gpu.sam") records; $(grep -oE '[0-9]+ DP tasks in [0-9]+ round' "$OUT/align_${name}_gpu.log"))"
  else
    say "$name: DIFFERENT"
  fi
  rm -f "$OUT/align_${name}_gpu.sam" "$OUT/align_${name}_cpu.sam"
}
align_same bundled "-x map-pb" data/ref.fa data/reads.fq
align_same inv "" tests/data/e2e/t-inv.fa.gz tests/data/e2e/q-inv.fa.gz
align_same ont "-x map-ont" tests/data/e2e/ont.ref.fa.gz tests/data/e2e/ont.reads.fq.gz
align_same hifi "-x map-hifi" tests/data/e2e/hifi.ref.fa.gz tests/data/e2e/hifi.reads.fq.gz

say "== throughput (median of 3), gpu vs cpu on $CORES cores"
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for f in ontul pb; do
  path="$GOLDEN/$f.golden.tsv.gz"
  [ -f "$path" ] || continue
  for backend in gpu cpu; do
    : >"$OUT/tp_${f}_$backend.txt"
    for _ in 1 2 3; do
      timeout 300 "$AGATHA" dp "$path" --backend "$backend" -t "$CORES" --bench -o /dev/null 2>&1 |
        grep -oE 'seconds=[0-9.]+' | cut -d= -f2 >>"$OUT/tp_${f}_$backend.txt"
    done
  done
  cells=$("$AGATHA" dp "$path" --backend cpu -t "$CORES" --bench -o /dev/null 2>&1 | grep -oE 'cells=[0-9]+' | cut -d= -f2)
  g=$(median <"$OUT/tp_${f}_gpu.txt")
  c=$(median <"$OUT/tp_${f}_cpu.txt")
  awk -v f="$f" -v n="$cells" -v g="$g" -v c="$c" 'BEGIN {
    if (g > 0 && c > 0) printf "%s: cells %d  gpu %.3f s = %.1f Gcells/s  cpu %.3f s = %.1f Gcells/s  gpu/cpu speed %.2fx\n", f, n, g, n / g / 1e9, c, n / c / 1e9, c / g;
    else printf "%s: no timing (gpu %s, cpu %s)\n", f, g, c }' | tee -a "$REPORT"
done
say "== done; report in $REPORT"
