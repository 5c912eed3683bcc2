#!/usr/bin/env bash
# scripts/record-splice-golden.sh - records the golden tasks of the splice-aware guided
# DP (minimap2's ksw_exts2_sse) into tests/data/splice/*.golden.tsv.gz.
#
# Usage: scripts/record-splice-golden.sh [OUTDIR]     (default: tests/data/splice)
#
# Environment (optional): MM_RELEASE=2.24 (the default: ont, hifi, drna, edge and wide
# golden files) or 2.31 (r231-ont, r231-hifi, r231-drna, r231-edge: minimap2 2.31's kernel
# with miniprot's splice model unless -J 0, its end bonus, and -J 0 runs);
# CACHE=bench/.cache (fetched source and builds), PYTHON=python3, CC=cc,
# MINIMAP2=minimap2 (an installed minimap2 of the same release, whose SAM the recording
# build's must equal; CHECK_INSTALLED=0 skips that comparison).
#
# What it does:
#   1. Fetches minimap2 2.24's sources at run time (never committed), as bench/dp.sh
#      does: the mappy 2.24 sdist from PyPI, sha256-pinned, cached under $CACHE.
#   2. Builds minimap2 from them with its own Makefile, unmodified, then links main.o
#      and libminimap2.a with scripts/exts2_recorder.c and the linker option
#      --wrap=ksw_exts2_sse: every call of the splice kernel is logged with its inputs
#      and its whole result. The same wrapper, with a small main (-DEXTS2_DRIVER), is the
#      driver that answers hand-made tasks with the same kernel.
#   3. Maps the synthetic RNA reads of tests/data/splice with that minimap2 (-t 1) under
#      several presets and options; checks its SAM equals the installed minimap2's
#      (@PG aside), so the tasks are the ones minimap2 2.24 itself runs.
#   4. Keeps a deterministic selection of each run's tasks (scripts/splice_golden.py
#      sample) and writes the hand-made edge cases (splice_golden.py edge) through the
#      driver; gzips everything with -9n.
set -euo pipefail

die() { echo "record-splice-golden.sh: error: $*" >&2; exit 1; }
note() { echo "record-splice-golden.sh: $*" >&2; }

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${1:-$ROOT/tests/data/splice}
[[ $OUT == /* ]] || OUT=$PWD/$OUT
CACHE=${CACHE:-bench/.cache}
PYTHON=${PYTHON:-python3}
CC=${CC:-cc}
MINIMAP2=${MINIMAP2:-minimap2}
CHECK_INSTALLED=${CHECK_INSTALLED:-1}
cd "$ROOT"
[[ $CACHE == /* ]] || CACHE=$ROOT/$CACHE
DATA=$ROOT/tests/data/splice
[[ -f $DATA/genome.fa.gz ]] || die "$DATA/genome.fa.gz missing (run $DATA/make_splice_data.py)"

MM_RELEASE=${MM_RELEASE:-2.24}
case $MM_RELEASE in
2.24) PREFIX= REC_DEFS= ;;
2.31) PREFIX=r231- REC_DEFS=-DEXTS2_MM231 ;;
*) die "MM_RELEASE must be 2.24 or 2.31" ;;
esac
if [[ $CHECK_INSTALLED == 1 ]]; then
	v=$("$MINIMAP2" --version 2>/dev/null) || die "cannot run $MINIMAP2 (CHECK_INSTALLED=0 skips the comparison)"
	[[ $v == "$MM_RELEASE"-* ]] || die "$MINIMAP2 is minimap2 $v, not $MM_RELEASE: set MINIMAP2 (or CHECK_INSTALLED=0)"
fi

# --- 1. fetch minimap2's sources (as bench/dp.sh) -------------------------------
MAPPY_VER=$MM_RELEASE
source "$ROOT/scripts/mappy-sdist.sh"
fetch_mappy_sdist

# --- 2. build the recording minimap2 and the driver ---------------------------
B=$CACHE/splice-rec
[[ $MM_RELEASE == 2.24 ]] || B=$CACHE/splice-rec-$MM_RELEASE
SRC=$B/mappy-$MAPPY_VER
if [[ ! -f $SRC/libminimap2.a || ! -f $SRC/main.o ]]; then
	rm -rf "$SRC"
	mkdir -p "$B"
	tar -xzf "$TARBALL" -C "$B"
	[[ -f $SRC/ksw2_exts2_sse.c && -f $SRC/Makefile ]] || die "$TARBALL lacks ksw2_exts2_sse.c or the Makefile"
	note "building minimap2 $MAPPY_VER in $SRC"
	make -C "$SRC" CC="$CC" -j2 libminimap2.a main.o >"$B/make.log" 2>&1 || { tail -n 20 "$B/make.log" >&2; die "make failed"; }
fi
LIBS="-lm -lz -lpthread"
"$CC" -g -O2 -Wall $REC_DEFS -I"$SRC" -c scripts/exts2_recorder.c -o "$B/recorder.o"
"$CC" -g -O2 -Wall $REC_DEFS -DEXTS2_DRIVER -I"$SRC" -c scripts/exts2_recorder.c -o "$B/driver.o"
"$CC" -o "$B/minimap2-rec" "$SRC/main.o" "$B/recorder.o" -L"$SRC" -lminimap2 $LIBS -Wl,--wrap=ksw_exts2_sse
"$CC" -o "$B/exts2-driver" "$B/driver.o" -L"$SRC" -lminimap2 $LIBS -Wl,--wrap=ksw_exts2_sse

# --- 3. record ------------------------------------------------------------------
W=$B/runs
rm -rf "$W"
mkdir -p "$W"
G=$DATA/genome.fa.gz
# name | reads | tasks kept | max cells per task | minimap2 options
RUNS_2_24=(
	"ont.splice|ont|450|3000000|-ax splice"
	"ont.junc12|ont|300|3000000|-ax splice --junc-bed $DATA/annot.bed12"
	"ont.un.noflank|ont|150|3000000|-ax splice -un --splice-flank=no"
	"hifi.hq|hifi|350|3000000|-ax splice:hq"
	"hifi.hq.junc6|hifi|200|3000000|-ax splice:hq --junc-bed $DATA/introns.bed --junc-bonus 12"
	"hifi.hq.uf.C5|hifi|150|3000000|-ax splice:hq -uf -C5"
	"drna.uf|drna|350|3000000|-ax splice -uf -k14"
	"drna.uf.junc12|drna|150|3000000|-ax splice -uf -k14 --junc-bed $DATA/annot.bed12"
)
# 2.31: miniprot's model (-J 1, the default) on both strands (-ub) and one, the end
# bonus of the extensions (--end-bonus), minimap2's model (-J 0) with and without flanks.
RUNS_2_31=(
	"ont.splice|ont|200|1000000|-ax splice"
	"ont.junc12|ont|120|1000000|-ax splice --junc-bed $DATA/annot.bed12"
	"ont.eb20|ont|120|1000000|-ax splice --end-bonus 20"
	"ont.J0.noflank|ont|80|1000000|-ax splice -J0 -un --splice-flank=no"
	"hifi.hq|hifi|150|1000000|-ax splice:hq"
	"hifi.hq.junc6|hifi|80|1000000|-ax splice:hq --junc-bed $DATA/introns.bed --junc-bonus 12"
	"hifi.hq.J0.uf.C5|hifi|100|1000000|-ax splice:hq -J0 -uf -C5 --end-bonus 8"
	"drna.uf|drna|150|1000000|-ax splice -uf -k14"
	"drna.eb5.junc12|drna|100|1000000|-ax splice -uf -k14 --end-bonus 5 --junc-bed $DATA/annot.bed12"
)
if [[ $MM_RELEASE == 2.24 ]]; then RUNS=("${RUNS_2_24[@]}"); else RUNS=("${RUNS_2_31[@]}"); fi
for spec in "${RUNS[@]}"; do
	IFS='|' read -r name reads quota cells opts <<<"$spec"
	note "$name: minimap2 $opts"
	# shellcheck disable=SC2086 # opts is a word list
	EXTS2_LOG=$W/$name.log EXTS2_TAG=$name "$B/minimap2-rec" $opts -t 1 "$G" "$DATA/$reads.fq.gz" \
		>"$W/$name.sam" 2>"$W/$name.err" || { tail "$W/$name.err" >&2; die "minimap2 failed on $name"; }
	if [[ $CHECK_INSTALLED == 1 ]]; then
		# shellcheck disable=SC2086
		"$MINIMAP2" $opts -t 1 "$G" "$DATA/$reads.fq.gz" 2>/dev/null >"$W/$name.installed.sam" ||
			die "the installed $MINIMAP2 failed on $name (CHECK_INSTALLED=0 skips this check)"
		cmp -s <(grep -v '^@PG' "$W/$name.sam") <(grep -v '^@PG' "$W/$name.installed.sam") ||
			die "$name: the recording build's SAM differs from the installed $MINIMAP2's"
	fi
	"$PYTHON" scripts/splice_golden.py sample "$quota" "$cells" "$W/$name.log" >>"$W/$PREFIX${name%%.*}.golden.tsv"
done

# --- 4. hand-made edge cases ------------------------------------------------------
"$PYTHON" scripts/splice_golden.py edge "$W/edge.in.tsv"
if [[ $MM_RELEASE == 2.31 ]]; then
	# the edge tasks with one strand flag, half with miniprot's model, with end bonuses
	"$PYTHON" scripts/splice_golden.py r231 "$W/edge.in.tsv" "$W/r231-edge.in.tsv"
	EXTS2_LOG=$W/r231-edge.golden.tsv "$B/exts2-driver" "$W/r231-edge.in.tsv"
	[[ $(wc -l <"$W/r231-edge.golden.tsv") == $(wc -l <"$W/r231-edge.in.tsv") ]] || die "the driver did not answer every edge task"
	mkdir -p "$OUT"
	for f in ont hifi drna edge; do
		gzip -9n <"$W/r231-$f.golden.tsv" >"$OUT/r231-$f.golden.tsv.gz"
		note "$OUT/r231-$f.golden.tsv.gz: $(wc -l <"$W/r231-$f.golden.tsv") tasks, $(stat -c %s "$OUT/r231-$f.golden.tsv.gz") bytes"
	done
	exit 0
fi
EXTS2_LOG=$W/edge.golden.tsv "$B/exts2-driver" "$W/edge.in.tsv"
[[ $(wc -l <"$W/edge.golden.tsv") == $(grep -vc '^#' "$W/edge.in.tsv") ]] || die "the driver did not answer every edge task"
# the same constructs under scorings past the splice kernels' range (the scalar oracle's)
"$PYTHON" scripts/splice_golden.py wide "$W/edge.in.tsv" "$W/wide.in.tsv"
EXTS2_LOG=$W/wide.golden.tsv "$B/exts2-driver" "$W/wide.in.tsv"

mkdir -p "$OUT"
for f in ont hifi drna edge wide; do
	gzip -9n <"$W/$f.golden.tsv" >"$OUT/$f.golden.tsv.gz"
	note "$OUT/$f.golden.tsv.gz: $(wc -l <"$W/$f.golden.tsv") tasks, $(stat -c %s "$OUT/$f.golden.tsv.gz") bytes"
done
