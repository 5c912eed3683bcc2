#!/usr/bin/env bash
# The device check for the CUDA backend.
#
#   scripts/gpu-check.sh prepare     on a development machine (Debian, with nvcc): builds
#                                    gpu-bundle/ (agatha and the GPU test binaries for
#                                    sm_90 with the shared libraries they load, the golden
#                                    files of ../shared/golden, minimap2 and the pb and
#                                    ont read sets of bench/mapping.sh), to carry to a
#                                    device (which has no network access)
#   scripts/gpu-check.sh [BUNDLE]    on a machine with an NVIDIA GPU, from the repository
#                                    root (default bundle: gpu-bundle; without one, it
#                                    builds build-gpu with meson where the dependencies are)
#
# Checks, each with a time limit so the whole run stays within a few minutes:
#   1. agatha gpu-info: runtime, driver, device, the kernel image it loads;
#   2. the GPU test suites (test_gpu: golden subset, auto fall-back, emulated launcher
#      and pipeline overlap, the 100 kb emulated block-path test left out — it is the
#      CPU's; test_build: the kernel images cuobjdump finds in the binary);
#   3. every golden file on `agatha dp --backend gpu --check` (the splice ones too, on
#      the splice kernel; a note of tasks handed to the CPU is counted);
#   4. compute-sanitizer memcheck, racecheck and synccheck on 300 golden tasks;
#   5. `agatha align --dp-backend gpu` against `--dp-backend cpu` on five read sets (spliced
#      ONT cDNA among them);
#   6. DP throughput, GPU against the cpu backend on all cores (median of 3), in cells/s,
#      on golden ontul and pb, the spliced ONT cDNA and short-read files of tests/data,
#      and on a synthetic set of long, wide-band tasks (132 tasks
#      of 30 kb with a 5,000-cell band and 8 of 100 kb with a 20,000-cell band: the
#      block path), each with the GPU's time split into uploads, the warp kernel, the
#      block kernel, the traceback kernel and downloads (AGATHA_GPU_TIMING), and the
#      GPU's answers compared with the cpu backend's;
#   7. end to end: `agatha align --dp-backend gpu -t CORES` against `minimap2 -t CORES`
#      on bench/mapping.sh's pb and ont sets (SAM agreement, wall time and memory
#      ratios: time ratio = agatha / minimap2, so 0.5 is twice as fast).
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
  # The end-to-end sets (fetched once into bench/.cache by bench/mapping.sh) and minimap2.
  if command -v minimap2 >/dev/null 2>&1 &&
     PREPARE_ONLY=1 SETS="pb ont" AGATHA="$B/agatha" bench/mapping.sh; then
    mkdir -p gpu-bundle/bench/mapping
    for f in pb.ref.fa pb.reads.fq dh10b.fa ont.reads.fq.gz; do
      cp bench/.cache/mapping/$f gpu-bundle/bench/mapping/
    done
    cp "$(command -v minimap2)" gpu-bundle/minimap2
    ldd gpu-bundle/minimap2 | awk '$3 ~ /^\// {print $3}' |
      grep -v -E '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so' | xargs -r -I{} cp -n {} gpu-bundle/lib/
  else
    echo "gpu-check prepare: no minimap2 or no bench data; the end-to-end comparison will be skipped"
  fi
  du -sh gpu-bundle
  # The device tool carries at most 64 MiB of ignored files.
  [ "$(du -sm gpu-bundle | cut -f1)" -le 64 ] || echo "gpu-check prepare: gpu-bundle is over 64 MiB"
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
  [ "$t" = test_gpu ] && filter='-LongTask.*'  # emulated on the CPU: minutes, nothing of the device
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
# tasks recorded from minimap2's kernels under the sr preset and other scorings (the
# single-affine and wide ones are handed to the CPU's scalar kernels, with a note)
for path in tests/data/dp/*.golden.tsv.gz; do
  f=dp_$(basename "$path" .golden.tsv.gz)
  timeout 300 "$AGATHA" dp "$path" --backend gpu --check >"$OUT/check_$f.log" 2>&1
  say "$f: exit $? $(grep -E '^checked' "$OUT/check_$f.log")"
done
# the splice (ksw_exts2) tasks of both releases, on the GPU's splice kernel (only the
# `wide` file's scorings outside the 8-bit range go to the CPU, with a note)
for path in tests/data/splice/*.golden.tsv.gz; do
  f=splice_$(basename "$path" .golden.tsv.gz)
  timeout 300 "$AGATHA" dp "$path" --backend gpu --check --bench >"$OUT/check_$f.log" 2>&1
  say "$f: exit $? $(grep -E '^checked' "$OUT/check_$f.log") $(grep -oE 'cells_per_s=[0-9.e+]+' "$OUT/check_$f.log" | head -1) $(grep -c 'run on the scalar' "$OUT/check_$f.log") CPU note(s)"
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
align_same splice "-x splice" tests/data/splice/genome.fa.gz tests/data/splice/ont.fq.gz

say "== throughput (median of 3), gpu vs cpu on $CORES cores"
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# The synthetic set: targets of random bases, queries copied from them with 1%
# substitutions and 0.6% short indels; flags 0 (global), 64 (extension) and 8 (gap fill).
synthetic() {
  python3 - "$1" <<'PY'
import random, sys
random.seed(13)
def task(i, n, w, flag):
    t = ''.join(random.choice('ACGT') for _ in range(n))
    q, k = [], 0
    while k < n:
        x = random.random()
        if x < 0.01: q.append(random.choice('ACGT')); k += 1
        elif x < 0.013: k += random.randint(1, 5)
        elif x < 0.016: q.append(''.join(random.choice('ACGT') for _ in range(random.randint(1, 5))))
        else: q.append(t[k]); k += 1
    return '\t'.join(map(str, ['syn%d' % i, flag, 2, 4, 1, 4, 2, 24, 1, w, 400, 0, ''.join(q)[:n], t]))
with open(sys.argv[1], 'w') as f:
    for i in range(132): print(task(i, 30000, 5000, (0, 64, 8)[i % 3]), file=f)
    for i in range(8): print(task(132 + i, 100000, 20000, (0, 64)[i % 2]), file=f)
PY
}
SETS="ontul pb splice_ont dp_sr"
if synthetic "$OUT/long.tsv" 2>"$OUT/long.log"; then SETS="$SETS long"; else say "long: python3 failed (see long.log)"; fi
for f in $SETS; do
  path="$GOLDEN/$f.golden.tsv.gz"
  [ "$f" = long ] && path="$OUT/long.tsv"
  [ "$f" = splice_ont ] && path=tests/data/splice/ont.golden.tsv.gz
  [ "$f" = dp_sr ] && path=tests/data/dp/sr.golden.tsv.gz
  [ -f "$path" ] || continue
  AGATHA_GPU_TIMING=1 timeout 300 "$AGATHA" dp "$path" --backend gpu -t "$CORES" --bench -o "$OUT/answers_${f}_gpu.tsv" \
    >"$OUT/split_$f.log" 2>&1
  say "$f: time split $(grep -oE 'gpu-timing: .*' "$OUT/split_$f.log" | sed 's/gpu-timing: backend=gpu //')"
  timeout 300 "$AGATHA" dp "$path" --backend cpu -t "$CORES" -o "$OUT/answers_${f}_cpu.tsv" >/dev/null 2>&1
  if cmp -s "$OUT/answers_${f}_gpu.tsv" "$OUT/answers_${f}_cpu.tsv"; then
    say "$f: gpu answers identical to cpu ($(wc -l <"$OUT/answers_${f}_cpu.tsv") tasks)"
    rm -f "$OUT/answers_${f}_gpu.tsv" "$OUT/answers_${f}_cpu.tsv"
  else
    say "$f: gpu answers DIFFER from cpu (answers_${f}_*.tsv)"
  fi
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

say "== end to end: agatha align --dp-backend gpu -t $CORES vs minimap2 -t $CORES (bench/mapping.sh)"
MM2="" CACHE_DIR=""
if [ -x "$BUNDLE/minimap2" ] && [ -d "$BUNDLE/bench/mapping" ]; then
  MM2=$PWD/$BUNDLE/minimap2 CACHE_DIR=$PWD/$BUNDLE/bench
elif command -v minimap2 >/dev/null 2>&1 && [ -d bench/.cache/mapping ]; then
  MM2=$(command -v minimap2) CACHE_DIR=$PWD/bench/.cache
fi
if [ -n "$MM2" ]; then
  say "minimap2 $("$MM2" --version 2>&1)"
  a=$AGATHA
  [ "${a#/}" != "$a" ] || a=$PWD/$a
  # minimap2 2.24 only: the bundle carries Debian's minimap2 (the device has no network).
  CACHE=$CACHE_DIR SETS="ont pb" RELEASES=2.24 THREADS=$CORES MINIMAP2=$MM2 AGATHA=$a AGATHA_OPTS="--dp-backend gpu" \
    RESULTS="$OUT/mapping.tsv" timeout 600 bench/mapping.sh >"$OUT/mapping.log" 2>&1
  say "exit $? (time_ratio = agatha / minimap2 wall time: the goal is at most 0.5 on ont)"
  if command -v column >/dev/null 2>&1; then column -t -s $'\t' "$OUT/mapping.tsv"; else cat "$OUT/mapping.tsv"; fi |
    tee -a "$REPORT"
  for set in ont pb; do
    say "$set: $(grep -ohE '[0-9]+ DP tasks in [0-9]+ round.*' "$CACHE_DIR/out/$set.2.24.agatha.sam.stats.1.log" 2>/dev/null)"
  done
else
  say "no minimap2 and bench data here (scripts/gpu-check.sh prepare puts them in the bundle)"
fi
say "== done; report in $REPORT"
