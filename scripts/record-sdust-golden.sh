#!/usr/bin/env bash
# scripts/record-sdust-golden.sh - records minimap2 2.24's SDUST intervals (sdust.c's
# stand-alone program) for the SDUST unit test (tests/map/sdust_test.cpp) into
# tests/data/sdust/expected.tsv.
#
# Usage: scripts/record-sdust-golden.sh [OUT]     (default: tests/data/sdust/expected.tsv)
#
# Environment (optional): MM2SRC=DIR (an unpacked minimap2 2.24 / mappy 2.24 source tree
# to use instead of fetching one), CACHE=bench/.cache (fetched source and the build),
# PYTHON=python3, CC=cc.
#
# What it does:
#   1. Takes minimap2 2.24's sources from $MM2SRC or, as bench/dp.sh does, fetches the
#      mappy 2.24 sdist from PyPI (sha256-pinned, cached under $CACHE; never committed).
#   2. Builds sdust.c's own main (-D_SDUST_MAIN, as minimap2's Makefile target `sdust`),
#      unmodified: it prints each record's intervals as "name<TAB>start<TAB>end".
#   3. Runs it on tests/data/sdust/seqs.fa (tests/data/sdust/make-seqs.py) and on the
#      reads tests/data/seeds/rep.fq with the window and threshold pairs below, and
#      writes "W<TAB>T<TAB>file<TAB>name<TAB>start<TAB>end" lines; a (W, T, file) with
#      no interval at all still gets one line "W T file - -1 -1" so that the test knows
#      it was run.
set -euo pipefail

die() { echo "record-sdust-golden.sh: error: $*" >&2; exit 1; }
note() { echo "record-sdust-golden.sh: $*" >&2; }

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${1:-$ROOT/tests/data/sdust/expected.tsv}
[[ $OUT == /* ]] || OUT=$PWD/$OUT
CACHE=${CACHE:-bench/.cache}
PYTHON=${PYTHON:-python3}
CC=${CC:-cc}
cd "$ROOT"
[[ $CACHE == /* ]] || CACHE=$ROOT/$CACHE

# --- 1. minimap2 2.24's sources -------------------------------------------------
if [[ -n ${MM2SRC:-} ]]; then
	SRC=$MM2SRC
else
	MAPPY_VER=2.24
	source "$ROOT/scripts/mappy-sdist.sh"
	fetch_mappy_sdist
	SRC=$CACHE/mappy-$MAPPY_VER
	[[ -f $SRC/sdust.c ]] || tar -xzf "$TARBALL" -C "$CACHE"
fi
[[ -f $SRC/sdust.c && -f $SRC/kalloc.c ]] || die "$SRC lacks sdust.c or kalloc.c"

# --- 2. build sdust ----------------------------------------------------------------
B=$CACHE/sdust
mkdir -p "$B"
"$CC" -O2 -Wall -D_SDUST_MAIN -I"$SRC" "$SRC/sdust.c" "$SRC/kalloc.c" -o "$B/sdust" -lz

# --- 3. record -----------------------------------------------------------------------
# window | threshold (minimap2 masks read minimizers with the window 64)
RUNS="64 20
64 10
64 30
64 5
32 20
100 30"
FILES="tests/data/sdust/seqs.fa tests/data/seeds/rep.fq"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
while read -r W T; do
	for f in $FILES; do
		"$B/sdust" -w "$W" -t "$T" "$f" >"$tmp"
		if [[ -s $tmp ]]; then
			awk -v W="$W" -v T="$T" -v F="$f" 'BEGIN{OFS="\t"} {print W, T, F, $1, $2, $3}' "$tmp"
		else
			printf '%s\t%s\t%s\t-\t-1\t-1\n' "$W" "$T" "$f"
		fi
	done
done <<<"$RUNS" >"$OUT.part"
mv "$OUT.part" "$OUT"
note "wrote $(wc -l <"$OUT") lines to $OUT"
