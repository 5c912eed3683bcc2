#!/usr/bin/env bash
# scripts/record-dp-golden.sh - records golden tasks of the guided DP (minimap2 2.24's
# ksw_extd2_sse, and ksw_extz2_sse where a scoring has one gap piece) into
# tests/data/dp/*.golden.tsv.gz, from minimap2's own kernels.
#
# Usage: scripts/record-dp-golden.sh [OUTDIR]     (default: tests/data/dp)
#
# Environment (optional): CACHE=bench/.cache (fetched source and builds), PYTHON=python3,
# CC=cc, DWGSIM=dwgsim, MINIMAP2=minimap2 (the installed 2.24 binary the recording
# build is compared with; CHECK_INSTALLED=0 skips that comparison).
#
# What it does (as scripts/record-splice-golden.sh does for the splice kernel):
#   1. Fetches minimap2 2.24's sources at run time (never committed): the mappy 2.24
#      sdist from PyPI, sha256-pinned, cached under $CACHE.
#   2. Builds minimap2 from them with its own Makefile, unmodified, and links main.o and
#      libminimap2.a with scripts/ksw2_recorder.c and the linker options
#      --wrap=ksw_extd2_sse --wrap=ksw_extz2_sse: every guided-DP call is logged with its
#      inputs and whole result (a ksw_extz2 call with agatha's mark 0x20000 in its flag).
#   3. Simulates short reads with dwgsim (fixed seed) from tests/data/e2e/ont.ref.fa.gz
#      and maps them with -ax sr, single-end and paired; maps the e2e long reads under
#      non-default scorings of the long-read presets, and the e2e HiFi reads with
#      -ax map-hifi as it stands (hifi.golden.tsv.gz). Each run's SAM must equal the
#      installed minimap2's (@PG aside), so the tasks are the ones minimap2 2.24 runs.
#   4. Keeps a deterministic selection of each run's tasks (scripts/splice_golden.py
#      sample: duplicates dropped, groups by flag / Z-drop / end bonus, SHA-1 order).
#   5. Answers random tasks (scripts/ksw2_diff.c's generator, fixed seeds) with the
#      same kernels; gzips each file with -9n.
set -euo pipefail

die() { echo "record-dp-golden.sh: error: $*" >&2; exit 1; }
note() { echo "record-dp-golden.sh: $*" >&2; }

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${1:-$ROOT/tests/data/dp}
[[ $OUT == /* ]] || OUT=$PWD/$OUT
CACHE=${CACHE:-bench/.cache}
PYTHON=${PYTHON:-python3}
CC=${CC:-cc}
DWGSIM=${DWGSIM:-dwgsim}
MINIMAP2=${MINIMAP2:-minimap2}
CHECK_INSTALLED=${CHECK_INSTALLED:-1}
cd "$ROOT"
[[ $CACHE == /* ]] || CACHE=$ROOT/$CACHE
E2E=$ROOT/tests/data/e2e
command -v "$DWGSIM" >/dev/null || die "$DWGSIM not found (apt-get install dwgsim)"

# --- 1. fetch minimap2 2.24's sources ----------------------------------------------
MAPPY_VER=2.24  # its recorder is written for 2.24's kernels
source "$ROOT/scripts/mappy-sdist.sh"
fetch_mappy_sdist

# --- 2. build the recording minimap2 --------------------------------------------------
B=$CACHE/dp-rec
SRC=$B/mappy-$MAPPY_VER
if [[ ! -f $SRC/libminimap2.a || ! -f $SRC/main.o ]]; then
	rm -rf "$SRC"
	mkdir -p "$B"
	tar -xzf "$TARBALL" -C "$B"
	[[ -f $SRC/ksw2_extd2_sse.c && -f $SRC/Makefile ]] || die "$TARBALL lacks ksw2_extd2_sse.c or the Makefile"
	note "building minimap2 $MAPPY_VER in $SRC"
	make -C "$SRC" CC="$CC" -j2 libminimap2.a main.o >"$B/make.log" 2>&1 || { tail -n 20 "$B/make.log" >&2; die "make failed"; }
fi
"$CC" -g -O2 -Wall -I"$SRC" -c scripts/ksw2_recorder.c -o "$B/recorder.o"
"$CC" -o "$B/minimap2-rec" "$SRC/main.o" "$B/recorder.o" -L"$SRC" -lminimap2 -lm -lz -lpthread \
	-Wl,--wrap=ksw_extd2_sse -Wl,--wrap=ksw_extz2_sse

# --- 3. inputs --------------------------------------------------------------------------
W=$B/runs
rm -rf "$W"
mkdir -p "$W"
REF=$W/ref.fa
gzip -dc "$E2E/ont.ref.fa.gz" >"$REF"
# 3,000 pairs of 150 bp reads, 300 bp inserts (sd 30), 0.5% base errors, 0.1% mutations
# (10% of them indels), 2% random reads, seed 11.
"$DWGSIM" -z 11 -N 3000 -1 150 -2 150 -d 300 -s 30 -e 0.005 -E 0.005 -r 0.001 -R 0.1 -y 0.02 \
	"$REF" "$W/sim" >"$W/dwgsim.log" 2>&1 || { tail "$W/dwgsim.log" >&2; die "dwgsim failed"; }
R1=$W/sim.bwa.read1.fastq.gz R2=$W/sim.bwa.read2.fastq.gz
[[ -f $R1 ]] || R1=$W/sim.bwa.read1.fastq
[[ -f $R2 ]] || R2=$W/sim.bwa.read2.fastq
[[ -f $R1 && -f $R2 ]] || die "dwgsim did not write the two read files"

# --- 4. record ----------------------------------------------------------------------------
# file | name | tasks kept | max cells per task | reference | reads | minimap2 options
RUNS=(
	"sr|sr.se|2500|3000000|$REF|$R1|-ax sr"
	"sr|sr.pe|2500|3000000|$REF|$R1 $R2|-ax sr"
	"scoring|pb.A1B2|700|3000000|$E2E/ont.ref.fa.gz|$E2E/ont.reads.fq.gz|-ax map-pb -A1 -B2 -O3,20 -E2,1"
	"scoring|ont.O4E2|700|3000000|$E2E/ont.ref.fa.gz|$E2E/ont.reads.fq.gz|-ax map-ont -O4 -E2"
	"scoring|hifi.z50|400|3000000|$E2E/hifi.ref.fa.gz|$E2E/hifi.reads.fq.gz|-ax map-hifi -z50"
	"hifi|hifi|1000|3000000|$E2E/hifi.ref.fa.gz|$E2E/hifi.reads.fq.gz|-ax map-hifi"
	"scoring|asm5.z100|300|3000000|$E2E/MT-human.fa.gz|$E2E/MT-orang.fa.gz|-ax asm5 -z100,50"
	"wide|ont.A100B200|600|3000000|$E2E/ont.ref.fa.gz|$E2E/ont.reads.fq.gz|-ax map-ont -A100 -B200 -O30,60 -E5,1"
	"wide|ont.A60O50E10|600|3000000|$E2E/ont.ref.fa.gz|$E2E/ont.reads.fq.gz|-ax map-ont -A60 -B100 -O50 -E10"
	"wide|pb.A300B-7|400|3000000|$E2E/ont.ref.fa.gz|$E2E/ont.reads.fq.gz|-ax map-pb -A300 -B-7 -O10,40 -E6,1"
)
for spec in "${RUNS[@]}"; do
	IFS='|' read -r file name quota cells ref reads opts <<<"$spec"
	note "$name: minimap2 $opts"
	# shellcheck disable=SC2086 # opts and reads are word lists
	KSW2_LOG=$W/$name.log KSW2_TAG=$name "$B/minimap2-rec" $opts -t 1 "$ref" $reads \
		>"$W/$name.sam" 2>"$W/$name.err" || { tail "$W/$name.err" >&2; die "minimap2 failed on $name"; }
	[[ -s $W/$name.log ]] || die "$name: no DP call was recorded"
	if [[ $CHECK_INSTALLED == 1 ]]; then
		# shellcheck disable=SC2086
		"$MINIMAP2" $opts -t 1 "$ref" $reads 2>/dev/null >"$W/$name.installed.sam" ||
			die "the installed $MINIMAP2 failed on $name (CHECK_INSTALLED=0 skips this check)"
		cmp -s <(grep -v '^@PG' "$W/$name.sam") <(grep -v '^@PG' "$W/$name.installed.sam") ||
			die "$name: the recording build's SAM differs from the installed $MINIMAP2's"
	fi
	"$PYTHON" scripts/splice_golden.py sample "$quota" "$cells" "$W/$name.log" >>"$W/$file.golden.tsv"
done

# --- 5. random tasks through minimap2's kernels ------------------------------------------
# scripts/ksw2_diff.c's generator (splitmix64, fixed seeds): 1,500 single-affine tasks
# (half with scorings past the everyday range) answered by ksw_extz2_sse and 1,000
# dual-affine tasks with any scoring mm_check_opt accepts answered by ksw_extd2_sse.
DRV=$(CACHE=$CACHE CC=$CC PYTHON=$PYTHON scripts/ksw2-diff.sh gen 0 0 z 2>&1 >/dev/null | sed -n 's/^ksw2-diff.sh: driver //p')
[[ -x $DRV ]] || die "could not build scripts/ksw2_diff.c"
{ "$DRV" gen 1500 20261204 z; "$DRV" gen 1000 20261205 d; } >"$W/syn.in.tsv"
"$DRV" answer "$W/syn.in.tsv" >"$W/syn.golden.tsv"

mkdir -p "$OUT"
for f in sr scoring wide syn hifi; do
	gzip -9n <"$W/$f.golden.tsv" >"$OUT/$f.golden.tsv.gz"
	note "$OUT/$f.golden.tsv.gz: $(wc -l <"$W/$f.golden.tsv") tasks, $(stat -c %s "$OUT/$f.golden.tsv.gz") bytes"
done
