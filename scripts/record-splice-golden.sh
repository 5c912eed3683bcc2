#!/usr/bin/env bash
# scripts/record-splice-golden.sh - records the golden tasks of the splice-aware guided
# DP (minimap2 2.24's ksw_exts2_sse) into tests/data/splice/*.golden.tsv.gz.
#
# Usage: scripts/record-splice-golden.sh [OUTDIR]     (default: tests/data/splice)
#
# Environment (optional): CACHE=bench/.cache (fetched source and builds), PYTHON=python3,
# CC=cc, MINIMAP2=minimap2 (the installed 2.24 binary the recording build is compared
# with; CHECK_INSTALLED=0 skips that comparison).
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

# --- 1. fetch minimap2 2.24's sources (as bench/dp.sh) ------------------------
source "$ROOT/scripts/mappy-sdist.sh"
fetch_mappy_sdist

# --- 2. build the recording minimap2 and the driver ---------------------------
B=$CACHE/splice-rec
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
"$CC" -g -O2 -Wall -I"$SRC" -c scripts/exts2_recorder.c -o "$B/recorder.o"
"$CC" -g -O2 -Wall -DEXTS2_DRIVER -I"$SRC" -c scripts/exts2_recorder.c -o "$B/driver.o"
"$CC" -o "$B/minimap2-rec" "$SRC/main.o" "$B/recorder.o" -L"$SRC" -lminimap2 $LIBS -Wl,--wrap=ksw_exts2_sse
"$CC" -o "$B/exts2-driver" "$B/driver.o" -L"$SRC" -lminimap2 $LIBS -Wl,--wrap=ksw_exts2_sse

# --- 3. record ------------------------------------------------------------------
W=$B/runs
rm -rf "$W"
mkdir -p "$W"
G=$DATA/genome.fa.gz
# name | reads | tasks kept | max cells per task | minimap2 options
RUNS=(
	"ont.splice|ont|450|3000000|-ax splice"
	"ont.junc12|ont|300|3000000|-ax splice --junc-bed $DATA/annot.bed12"
	"ont.un.noflank|ont|150|3000000|-ax splice -un --splice-flank=no"
	"hifi.hq|hifi|350|3000000|-ax splice:hq"
	"hifi.hq.junc6|hifi|200|3000000|-ax splice:hq --junc-bed $DATA/introns.bed --junc-bonus 12"
	"hifi.hq.uf.C5|hifi|150|3000000|-ax splice:hq -uf -C5"
	"drna.uf|drna|350|3000000|-ax splice -uf -k14"
	"drna.uf.junc12|drna|150|3000000|-ax splice -uf -k14 --junc-bed $DATA/annot.bed12"
)
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
	"$PYTHON" scripts/splice_golden.py sample "$quota" "$cells" "$W/$name.log" >>"$W/${name%%.*}.golden.tsv"
done

# --- 4. hand-made edge cases ------------------------------------------------------
"$PYTHON" scripts/splice_golden.py edge "$W/edge.in.tsv"
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
