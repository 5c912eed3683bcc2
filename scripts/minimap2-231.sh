#!/usr/bin/env bash
# scripts/minimap2-231.sh - builds minimap2 2.31's command-line program, the second
# compatibility oracle (tests/data/e2e/expected-2.31/, the `oracles` test suite,
# bench/mapping.sh), from PyPI's mappy 2.31 sdist, which carries minimap2's C sources and
# its Makefile.
#
# Usage: scripts/minimap2-231.sh [OUT]     (default: build/tests/minimap2-2.31)
#
# What it does:
#   1. If OUT is there and `OUT --version` prints 2.31-r1302, nothing: OUT is reused.
#   2. `python3 -m pip download --no-deps --no-binary mappy mappy==2.31` into
#      $CACHE/dl (once; scripts/mappy-sdist.sh), checked against its pinned sha256.
#   3. Unpacks it into a scratch directory beside OUT, runs `make` there (minimap2's own
#      Makefile: the `minimap2` program, about 20 s; needs make, a C compiler and zlib's
#      headers) and moves the program to OUT once its --version is 2.31-r1302.
#
# Exit status: 0 with OUT in place; 1 on any failure, with the reason on stderr. With
# ORACLE_SOFT_FAIL=1 (how Meson's target runs it, so that a build without network does
# not fail) a failure still exits with 0: the reason goes to OUT.why, and OUT is left
# absent; the tests that need OUT then skip with that reason.
#
# Environment (optional): CACHE=(OUT's directory)/mappy-cache  PYTHON=python3  MAKE=make
#   JOBS=2 (make -j)
set -euo pipefail

VERSION=2.31 VERSION_LINE=2.31-r1302
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${1:-$ROOT/build/tests/minimap2-$VERSION}  # where Meson's target tests/minimap2-2.31 is
[[ $OUT == /* ]] || OUT=$PWD/$OUT
OUT_DIR=$(dirname "$OUT")
CACHE=${CACHE:-$OUT_DIR/mappy-cache}
[[ $CACHE == /* ]] || CACHE=$PWD/$CACHE
PYTHON=${PYTHON:-python3}
MAKE=${MAKE:-make}
JOBS=${JOBS:-2}

note() { echo "minimap2-231.sh: $*" >&2; }
die() {
	echo "minimap2-231.sh: error: $*" >&2
	if [[ ${ORACLE_SOFT_FAIL:-0} == 1 ]]; then
		echo "minimap2 $VERSION could not be built: $*" > "$OUT.why"
		exit 0
	fi
	exit 1
}

is_oracle() { [[ -x $1 ]] && [[ $("$1" --version 2>/dev/null) == "$VERSION_LINE" ]]; }

mkdir -p "$OUT_DIR" || die "cannot create $OUT_DIR"
if is_oracle "$OUT"; then
	rm -f "$OUT.why"
	exit 0
fi

MAPPY_SDIST_VERSION=$VERSION source "$ROOT/scripts/mappy-sdist.sh"
fetch_mappy_sdist

WORK=$(mktemp -d "$OUT_DIR/.minimap2-$VERSION.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
tar -xzf "$TARBALL" -C "$WORK" || die "cannot unpack $TARBALL"
SRC=$WORK/mappy-$VERSION
[[ -f $SRC/Makefile && -f $SRC/main.c ]] || die "$TARBALL holds no minimap2 Makefile and main.c"
note "building minimap2 $VERSION (make in $SRC) ..."
"$MAKE" -C "$SRC" -j"$JOBS" minimap2 > "$WORK/make.log" 2>&1 || { tail -n 20 "$WORK/make.log" >&2; die "make failed"; }
is_oracle "$SRC/minimap2" || die "the program built does not print $VERSION_LINE for --version"
mv -f "$SRC/minimap2" "$OUT"
rm -f "$OUT.why"
note "$OUT: minimap2 $("$OUT" --version)"
