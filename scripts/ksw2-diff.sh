#!/usr/bin/env bash
# scripts/ksw2-diff.sh - builds scripts/ksw2_diff.c against minimap2 2.24's own guided-DP
# kernels (ksw2_extz2_sse.c, ksw2_extd2_sse.c, kalloc.c from the mappy 2.24 sdist,
# fetched from PyPI at run time, sha256-pinned, never committed) and runs it.
#
# Usage: scripts/ksw2-diff.sh [ARGS...]      (default: cmp 200000 1)
#   cmp N SEED [OUT.tsv]   extz2 against extd2 with equal pieces on N random tasks
#   gen N SEED z|d         random task lines (single / dual affine)
#   answer TASKS.tsv       golden lines from minimap2's kernels
# Environment: CACHE=bench/.cache, PYTHON=python3, CC=cc. Prints the driver's path
# on stderr; the driver stays at $CACHE/ksw2-diff/ksw2_diff.
set -euo pipefail
die() { echo "ksw2-diff.sh: error: $*" >&2; exit 1; }
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${CACHE:-bench/.cache}
PYTHON=${PYTHON:-python3}
CC=${CC:-cc}
cd "$ROOT"
[[ $CACHE == /* ]] || CACHE=$ROOT/$CACHE
MAPPY_VER=2.24
MAPPY_SHA256=35a2fb73ef14173283d5abb31e7a318429e0330c3be95851df38dd83d4ff9af9
DL=$CACHE/dl
TARBALL=$DL/mappy-$MAPPY_VER.tar.gz
if [[ ! -f $TARBALL ]]; then
	mkdir -p "$DL"
	echo "ksw2-diff.sh: fetching the mappy $MAPPY_VER sdist from PyPI ..." >&2
	"$PYTHON" -m pip download --disable-pip-version-check --no-deps --no-binary mappy "mappy==$MAPPY_VER" \
		-d "$DL" >"$DL/pip.log" 2>&1 || { tail -n 20 "$DL/pip.log" >&2; die "pip download failed"; }
fi
echo "$MAPPY_SHA256  $TARBALL" | sha256sum -c --quiet - >/dev/null 2>&1 ||
	die "$TARBALL has an unexpected sha256 (remove it to fetch again)"
B=$CACHE/ksw2-diff
SRC=$B/mappy-$MAPPY_VER
if [[ ! -f $SRC/ksw2_extz2_sse.c ]]; then
	rm -rf "$SRC" && mkdir -p "$B" && tar -xzf "$TARBALL" -C "$B"
fi
DRV=$B/ksw2_diff
if [[ ! -x $DRV || scripts/ksw2_diff.c -nt $DRV ]]; then
	for f in ksw2_extz2_sse ksw2_extd2_sse; do
		"$CC" -O2 -msse4.1 -I"$SRC" -c "$SRC/$f.c" -o "$B/$f.o"
	done
	"$CC" -O2 -I"$SRC" -c "$SRC/kalloc.c" -o "$B/kalloc.o"
	"$CC" -O2 -Wall -I"$SRC" -c scripts/ksw2_diff.c -o "$B/ksw2_diff.o"
	"$CC" -o "$DRV" "$B/ksw2_diff.o" "$B/ksw2_extz2_sse.o" "$B/ksw2_extd2_sse.o" "$B/kalloc.o"
fi
echo "ksw2-diff.sh: driver $DRV" >&2
if [[ $# == 0 ]]; then set -- cmp 200000 1; fi
exec "$DRV" "$@"
