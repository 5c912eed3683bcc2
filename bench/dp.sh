#!/usr/bin/env bash
# bench/dp.sh - agatha's CPU DP engine vs minimap2 2.24's own SSE4.1 ksw_extd2
# kernel, on the same DP tasks (the golden task files), one thread.
#
# Usage:
#   bench/dp.sh [GOLDEN_DIR]
#     GOLDEN_DIR  folder holding NAME.golden.tsv.gz (default: <repo>/../shared/golden)
#                 (or a run's own tasks, recorded with AGATHA_DP_RECORD: bench/README.md)
#
# Environment (all optional):
#   REPEATS=5          timed repeats per kernel and file; the median is reported
#   FILES="pb ontul"   task sets to run: GOLDEN_DIR/NAME.golden.tsv.gz
#   AGATHA=build/agatha  agatha binary (relative paths are from the repo root);
#                      build it first: meson setup build && ninja -C build
#   ISAS="sse41 avx2 avx512"  agatha --isa values to run (each skipped on CPUs
#                      without it; avx512 needs AVX-512 F, BW and VL)
#   NO_BATCH=1         run agatha with --no-batch: every task alone, as the
#                      per-task kernels compute them (by default the full-band gap
#                      fills are computed several at a time, one per vector lane)
#   MINIMAP2_ONLY=1    run only the minimap2 kernel (no agatha binary needed)
#   KSW_ALLOC=kalloc   kalloc: minimap2's per-thread kalloc pool, as minimap2 runs;
#                      malloc: km=NULL, i.e. plain malloc/free per call
#   CACHE=bench/.cache where the fetched source and the driver build live
#   PYTHON=python3     python used for `-m pip download`
#   CC=cc              C compiler for the minimap2 kernel and the driver
#   RESULTS=FILE       also write the table as TSV to FILE
#
# What it does:
#   1. Fetches minimap2 2.24's ksw2 sources at run time (never committed): the
#      mappy 2.24 sdist from PyPI (`pip download mappy==2.24 --no-binary mappy`,
#      sha256-pinned), cached under bench/.cache (git-ignored).
#   2. Builds bench/ksw2_driver.c with ksw2_extd2_sse.c (-O2 -msse4.1, like
#      minimap2's Makefile), a copy of it instrumented to count DP cells, and
#      kalloc.c. See the header of ksw2_driver.c.
#   3. For each task file, REPEATS times in turn: the driver once (it checks every
#      output against golden columns 15-20 and 23-26, then times one pass), then
#      `AGATHA dp FILE --backend cpu --isa ISA --bench` once per ISA (which, like the
#      driver, runs each batch once untimed before timing it), reading its
#      stderr lines
#        bench: tasks=N cells=C seconds=S tasks_per_s=X cells_per_s=Y
#        bench-width: ... width=RANGE tasks=N cells=C seconds=S cells_per_s=Y
#   4. Prints a table: file, kernel, median (and min) seconds, tasks/s and
#      Gcells/s (both from the median), and the
#      wall-time ratio kernel/minimap2 (lower is faster) with its inverse
#      (speedup). Cells/s uses agatha's cell count for every kernel (same tasks,
#      same cells); the script checks it equals the count measured inside
#      minimap2's kernel and warns if not. Then a second table: agatha's median
#      Gcells/s per ISA and band width (the cells of one anti-diagonal at most).
#
# "cells" = in-band cells of every anti-diagonal processed until the end or a
# Z-drop: sum over r of (en0 - st0 + 1), st0 = max(0, r-qlen+1, ceil((r-w)/2)),
# en0 = min(tlen-1, r, floor((r+w)/2)), w < 0 meaning max(qlen, tlen).
#
# Exit status: 0; 1 on errors; 2 if the minimap2 kernel disagreed with the golden
# answers (then the fetched source is not the expected kernel).
set -euo pipefail

die() { echo "dp.sh: error: $*" >&2; exit 1; }
note() { echo "dp.sh: $*" >&2; }

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# --- arguments (resolved before leaving the caller's directory) -------------
if [[ $# -gt 1 || ${1:-} == -h || ${1:-} == --help ]]; then
	sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
	[[ $# -gt 1 ]] && exit 1 || exit 0
fi
GOLDEN=${1:-$ROOT/../shared/golden}
[[ -d $GOLDEN ]] || die "golden dir '$GOLDEN' not found (pass it as the first argument)"
GOLDEN=$(cd "$GOLDEN" && pwd)

REPEATS=${REPEATS:-5}
FILES=${FILES:-pb ontul}
AGATHA=${AGATHA:-build/agatha}
ISAS=${ISAS:-sse41 avx2 avx512}
MINIMAP2_ONLY=${MINIMAP2_ONLY:-0}
KSW_ALLOC=${KSW_ALLOC:-kalloc}
CACHE=${CACHE:-bench/.cache}
PYTHON=${PYTHON:-python3}
CC=${CC:-cc}
RESULTS=${RESULTS:-}
[[ -n $RESULTS && $RESULTS != /* ]] && RESULTS=$PWD/$RESULTS

cd "$ROOT"
[[ $CACHE == /* ]] || CACHE=$ROOT/$CACHE
[[ $AGATHA == /* ]] || AGATHA=$ROOT/$AGATHA
[[ $REPEATS =~ ^[1-9][0-9]*$ ]] || die "REPEATS must be a positive integer (got '$REPEATS')"
case $KSW_ALLOC in kalloc) ALLOC_OPT=() ;; malloc) ALLOC_OPT=(-m) ;; *) die "KSW_ALLOC must be kalloc or malloc" ;; esac

for f in $FILES; do
	[[ -r $GOLDEN/$f.golden.tsv.gz ]] || die "missing task file $GOLDEN/$f.golden.tsv.gz"
done
grep -qw sse4_1 /proc/cpuinfo || die "this CPU has no SSE4.1; minimap2's kernel cannot run"

RUN_ISAS=()
if [[ $MINIMAP2_ONLY != 1 ]]; then
	[[ -x $AGATHA ]] || die "agatha binary '$AGATHA' not found or not executable.
  Build it first:   meson setup build && ninja -C build
  or point AGATHA=/path/to/agatha, or set MINIMAP2_ONLY=1 to time minimap2's kernel alone."
	for isa in $ISAS; do
		if [[ $isa == avx2 ]] && ! grep -qw avx2 /proc/cpuinfo; then
			note "CPU has no AVX2: skipping agatha --isa avx2"
			continue
		fi
		if [[ $isa == avx512 ]] && ! { grep -qw avx512f /proc/cpuinfo && grep -qw avx512bw /proc/cpuinfo &&
			grep -qw avx512vl /proc/cpuinfo; }; then
			note "CPU has no AVX-512 (F, BW, VL): skipping agatha --isa avx512"
			continue
		fi
		RUN_ISAS+=("$isa")
	done
fi

# --- 1. fetch minimap2 2.24's ksw2 sources -----------------------------------
MAPPY_VER=2.24
MAPPY_SHA256=35a2fb73ef14173283d5abb31e7a318429e0330c3be95851df38dd83d4ff9af9
DL=$CACHE/dl
TARBALL=$DL/mappy-$MAPPY_VER.tar.gz
SRC=$CACHE/mappy-$MAPPY_VER

if [[ ! -f $TARBALL ]]; then
	mkdir -p "$DL"
	note "fetching the mappy $MAPPY_VER sdist (minimap2 $MAPPY_VER sources) from PyPI ..."
	# --no-binary mappy: the source tarball, not a wheel. pip prepares the
	# sdist's metadata in an isolated env (setuptools + Cython wheels); that
	# needs PyPI too but installs nothing into this python.
	if ! "$PYTHON" -m pip download --disable-pip-version-check --no-deps \
		--no-binary mappy "mappy==$MAPPY_VER" -d "$DL" >"$DL/pip.log" 2>&1; then
		tail -n 20 "$DL/pip.log" >&2
		die "pip download mappy==$MAPPY_VER failed (log: $DL/pip.log)"
	fi
	[[ -f $TARBALL ]] || die "pip did not leave $TARBALL (log: $DL/pip.log)"
fi
echo "$MAPPY_SHA256  $TARBALL" | sha256sum -c --quiet - >/dev/null 2>&1 ||
	die "$TARBALL has an unexpected sha256 (remove it to fetch again)"
if [[ ! -f $SRC/ksw2_extd2_sse.c ]]; then
	rm -rf "$SRC"
	tar -xzf "$TARBALL" -C "$CACHE"
	[[ -f $SRC/ksw2_extd2_sse.c && -f $SRC/ksw2.h && -f $SRC/kalloc.c ]] ||
		die "$TARBALL lacks ksw2_extd2_sse.c / ksw2.h / kalloc.c"
fi

# --- 2. build the driver ----------------------------------------------------
B=$CACHE/build
DRIVER=$B/ksw2_driver
mkdir -p "$B"
KSW_CFLAGS="-O2 -msse4.1 -DHAVE_KALLOC" # minimap2's Makefile: -O2, -msse4.1, -DHAVE_KALLOC
# the instrumented copy: one counter after the anti-diagonal's band is known
PATCHED=$B/ksw2_extd2_sse_cnt.c
sed -e 's|^#include "ksw2.h"$|&\nextern unsigned long long ksw_bench_cells;|' \
	-e 's|st0 = st, en0 = en;|& ksw_bench_cells += (unsigned long long)(en0 - st0 + 1);|' \
	"$SRC/ksw2_extd2_sse.c" >"$PATCHED"
[[ $(grep -c 'ksw_bench_cells' "$PATCHED") == 2 ]] ||
	die "could not instrument $SRC/ksw2_extd2_sse.c (unexpected source layout)"
[[ -f /usr/include/zlib.h ]] || echo '#include <zlib.h>' | "$CC" -E - >/dev/null 2>&1 ||
	die "zlib headers missing (Debian: apt-get install zlib1g-dev)"
note "building $DRIVER"
"$CC" $KSW_CFLAGS -I"$SRC" -c "$SRC/ksw2_extd2_sse.c" -o "$B/ksw2_extd2_sse.o"
"$CC" $KSW_CFLAGS -I"$SRC" -Dksw_extd2_sse=ksw_extd2_sse_cnt -c "$PATCHED" -o "$B/ksw2_extd2_sse_cnt.o"
"$CC" -O2 -DHAVE_KALLOC -I"$SRC" -c "$SRC/kalloc.c" -o "$B/kalloc.o"
"$CC" -O2 -Wall -DHAVE_KALLOC -I"$SRC" -c "$ROOT/bench/ksw2_driver.c" -o "$B/ksw2_driver.o"
"$CC" -o "$DRIVER" "$B/ksw2_driver.o" "$B/ksw2_extd2_sse.o" "$B/ksw2_extd2_sse_cnt.o" "$B/kalloc.o" -lz

# --- helpers ------------------------------------------------------------------
kv() { # kv LINE KEY -> value of KEY=value in LINE
	local v
	v=$(sed -n "s/.*[ :]$2=\([^ ]*\).*/\1/p" <<<"$1")
	[[ -n $v ]] || die "no '$2=' in line: $1"
	echo "$v"
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END{print (NR%2)? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

ROWS=()   # file kernel median_s tasks min_s cells minimap2_median_s
STATUS=0
LOG=$CACHE/logs
mkdir -p "$LOG"

# --- 3. run -------------------------------------------------------------------
# Alternating: each repeat runs minimap2's kernel once, then agatha once per ISA, so
# that a slow spell of a shared machine falls on all of them alike.
WROWS=() # file kernel width median_gcells_per_s tasks
for f in $FILES; do
	path=$GOLDEN/$f.golden.tsv.gz
	note "$f: minimap2 ksw_extd2_sse (SSE4.1, $KSW_ALLOC) and agatha ${RUN_ISAS[*]:-}, $REPEATS alternating repeats ..."
	mm_secs=()
	declare -A ag_secs=() ag_wcps=() ag_wtasks=()
	ag_tasks=0 ag_cells=0
	for ((i = 1; i <= REPEATS; i++)); do
		rc=0
		line=$("$DRIVER" -R 1 "${ALLOC_OPT[@]}" "$path" 2>"$LOG/$f.ksw2.err") || rc=$?
		if [[ $rc == 2 ]]; then
			grep MISMATCH "$LOG/$f.ksw2.err" | head -n 5 >&2 || true
			note "WARNING: minimap2 kernel disagrees with $f golden answers: $(kv "$line" mismatches) tasks"
			STATUS=2
		elif [[ $rc != 0 ]]; then
			cat "$LOG/$f.ksw2.err" >&2
			die "ksw2_driver failed on $path"
		fi
		mm_secs+=("$(kv "$line" median_s)")
		mm_tasks=$(kv "$line" tasks)
		mm_cells=$(kv "$line" kernel_cells)
		[[ $i == 1 ]] && note "$f: minimap2: golden check: $(kv "$line" mismatches) mismatches / $mm_tasks tasks"
		for isa in ${RUN_ISAS[@]+"${RUN_ISAS[@]}"}; do
			err=$LOG/$f.agatha-$isa.$i.err
			"$AGATHA" dp "$path" --backend cpu --isa "$isa" --bench ${NO_BATCH:+--no-batch} >/dev/null 2>"$err" || {
				tail -n 20 "$err" >&2
				die "'$AGATHA dp $path --backend cpu --isa $isa --bench' failed"
			}
			bl=$(grep '^bench:' "$err" | tail -n 1) || die "no 'bench:' line on agatha's stderr ($err)"
			ag_secs[$isa]+=" $(kv "$bl" seconds)"
			ag_tasks=$(kv "$bl" tasks)
			ag_cells=$(kv "$bl" cells)
			while read -r wl; do
				w=$(kv "$wl" width)
				ag_wcps[$isa/$w]+=" $(kv "$wl" cells_per_s)"
				ag_wtasks[$isa/$w]=$(kv "$wl" tasks)
			done < <(grep '^bench-width:' "$err")
		done
	done
	mm_sec=$(median "${mm_secs[@]}")
	mm_min=$(printf '%s\n' "${mm_secs[@]}" | sort -g | head -n 1)
	note "$f: minimap2: median $mm_sec s"
	cells=$mm_cells
	ag_rows=()
	for isa in ${RUN_ISAS[@]+"${RUN_ISAS[@]}"}; do
		[[ $ag_tasks == "$mm_tasks" ]] || note "WARNING: $f: agatha ran $ag_tasks tasks, minimap2 $mm_tasks"
		if [[ $ag_cells != "$mm_cells" ]]; then
			note "WARNING: $f: agatha counts $ag_cells cells, minimap2's kernel $mm_cells (using agatha's)"
		fi
		cells=$ag_cells
		read -r -a secs <<<"${ag_secs[$isa]}"
		ag_min=$(printf '%s\n' "${secs[@]}" | sort -g | head -n 1)
		ag_rows+=("$f agatha-$isa $(median "${secs[@]}") $ag_tasks $ag_min")
		for w in 1-63 64-255 256-1023 1024+; do
			[[ -n ${ag_wcps[$isa/$w]:-} ]] || continue
			read -r -a c <<<"${ag_wcps[$isa/$w]}"
			WROWS+=("$f agatha-$isa $w $(median "${c[@]}") ${ag_wtasks[$isa/$w]}")
		done
	done
	ROWS+=("$f minimap2-sse41 $mm_sec $mm_tasks $mm_min $cells $mm_sec")
	for r in ${ag_rows[@]+"${ag_rows[@]}"}; do ROWS+=("$r $cells $mm_sec"); done
	unset ag_secs ag_wcps ag_wtasks
done

# --- 4. table -----------------------------------------------------------------
echo
echo "DP engine benchmark: one thread, median of $REPEATS; cells/s from agatha's cell count where agatha ran"
printf '%s\n' "${ROWS[@]}" | awk -v results="$RESULTS" '
BEGIN {
	fmt = "%-8s %-15s %10s %10s %12s %9s %9s %8s\n"
	printf fmt, "file", "kernel", "median_s", "min_s", "tasks/s", "Gcells/s", "time/mm2", "speedup"
	if (results != "") print "file\tkernel\tmedian_s\tmin_s\ttasks_per_s\tgcells_per_s\ttime_vs_minimap2\tspeedup_vs_minimap2" > results
}
{
	file = $1; k = $2; s = $3; n = $4; mn = $5; c = $6; mm = $7
	tps = n / s; gcps = c / s / 1e9; ratio = s / mm; sp = mm / s
	printf fmt, file, k, sprintf("%.4f", s), sprintf("%.4f", mn), sprintf("%.1f", tps), sprintf("%.3f", gcps), sprintf("%.3f", ratio), sprintf("%.2fx", sp)
	if (results != "") printf "%s\t%s\t%.6f\t%.6f\t%.1f\t%.4f\t%.4f\t%.4f\n", file, k, s, mn, tps, gcps, ratio, sp > results
}'
if ((${#WROWS[@]})); then
	echo
	echo "agatha by band width (min(qlen, tlen, w + 1) cells an anti-diagonal): median Gcells/s"
	printf '%s\n' "${WROWS[@]}" | awk '
	BEGIN { fmt = "%-8s %-15s %-9s %8s %9s\n"; printf fmt, "file", "kernel", "width", "tasks", "Gcells/s" }
	{ printf fmt, $1, $2, $3, $5, sprintf("%.3f", $4 / 1e9) }'
fi
[[ $STATUS == 0 ]] || note "minimap2 kernel mismatched the golden answers (see $LOG/*.ksw2.err)"
exit "$STATUS"
