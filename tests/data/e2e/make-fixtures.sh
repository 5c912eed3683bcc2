#!/usr/bin/env bash
# tests/data/e2e/make-fixtures.sh - regenerates the end-to-end fixtures (README.md):
# the derived inputs, then the output of both oracles, minimap2 2.24 (into expected/)
# and minimap2 2.31 (into expected-2.31/, the same names), for every case of cases.tsv
# and of minimap2-cases.tsv (the minimap2 front end's cases), and their -h texts.
#
# Usage (from anywhere):
#   tests/data/e2e/make-fixtures.sh [inputs|mods-inputs|expected|minimap2|all]     (default: all)
# (minimap2: only the cases of minimap2-cases.tsv and the help texts, of both releases)
#
# Needs the Debian packages minimap2 (2.24+dfsg), samtools (1.16), pbsim (1.0.3+git20180330) and dwgsim
# (0.1.14), python3 and gzip; minimap2 2.31 comes from scripts/minimap2-231.sh (PyPI's
# mappy 2.31 sdist, built with make), unless MINIMAP2_231 names it. The ONT and DH10B data come from the Debian packages nanook-examples and
# python3-nanoget-examples, fetched once with `apt-get download` into CACHE/deb (the
# cache of bench/mapping.sh). Every step is deterministic: a rerun reproduces the
# committed files byte for byte.
#
# Environment (optional): MINIMAP2=minimap2 (2.24)
#   MINIMAP2_231=build/tests/minimap2-2.31 (built there by scripts/minimap2-231.sh when absent)
#   PBSIM=pbsim  DWGSIM=dwgsim  MM2_TEST=/usr/share/doc/minimap2/test
#   PBSIM_MODELS=/usr/share/pbsim/models  CACHE=bench/.cache
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
E2E=tests/data/e2e
MINIMAP2=${MINIMAP2:-minimap2}
MINIMAP2_231=${MINIMAP2_231:-}
PBSIM=${PBSIM:-pbsim}
DWGSIM=${DWGSIM:-dwgsim}
MM2_TEST=${MM2_TEST:-/usr/share/doc/minimap2/test}
PBSIM_MODELS=${PBSIM_MODELS:-/usr/share/pbsim/models}
CACHE=${CACHE:-$ROOT/bench/.cache}
WHAT=${1:-all}

# Windows of E. coli DH10B (1-based, inclusive) for the ONT and HiFi references.
ONT_START=1180001 ONT_END=1430000
HIFI_START=2000001 HIFI_END=2050000

cd "$ROOT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
log() { echo "[make-fixtures] $*" >&2; }
py() { python3 "$E2E/make-inputs.py" "$@"; }

"$MINIMAP2" --version | grep -qx '2.24-r1122' || { log "need minimap2 2.24-r1122"; exit 1; }
# minimap2 2.31, for the expected files of expected-2.31/ (not needed for the inputs).
need_231() {
  if [[ -z $MINIMAP2_231 ]]; then
    MINIMAP2_231=$ROOT/build/tests/minimap2-2.31
    scripts/minimap2-231.sh "$MINIMAP2_231"
  fi
  "$MINIMAP2_231" --version | grep -qx '2.31-r1302' || { log "need minimap2 2.31-r1302 (MINIMAP2_231)"; exit 1; }
}

# Unpacks a Debian package (downloaded once into CACHE/deb) into TMP/root.
fetch_deb() {
  mkdir -p "$CACHE/deb"
  if ! ls "$CACHE/deb/$1"_*.deb >/dev/null 2>&1; then
    log "apt-get download $1"
    (cd "$CACHE/deb" && apt-get download "$1" >/dev/null)
  fi
  dpkg-deb -x "$CACHE/deb/$1"_*.deb "$TMP/root"
}

make_inputs() {
  local f
  for f in MT-human.fa.gz MT-orang.fa.gz q-inv.fa.gz t-inv.fa.gz; do cp "$MM2_TEST/$f" "$E2E/$f"; done

  py mt-sub data/reads.fq "$TMP/mt.sub.fq"
  gzip -9n -c "$TMP/mt.sub.fq" > "$E2E/mt.sub.fq.gz"

  fetch_deb nanook-examples
  fetch_deb python3-nanoget-examples
  tar -xzf "$TMP/root/usr/share/doc/nanook/examples/data.tar.gz" -O \
    data/nanook_ecoli_500/references/ecoli_dh10b_cs.fasta > "$TMP/dh10b.fa"
  local ont=$TMP/root/usr/share/doc/python3-nanoget/examples/nanotest/reads.fastq.gz
  log "choosing ONT reads (minimap2 -x map-ont against the whole genome)"
  "$MINIMAP2" -x map-ont -t 1 "$TMP/dh10b.fa" "$ont" 2>/dev/null > "$TMP/ont.paf"
  py pick-ont "$TMP/ont.paf" $ONT_START $ONT_END "$ont" "$TMP/ont.reads.fq"
  py slice "$TMP/dh10b.fa" dh10b_${ONT_START}_${ONT_END} $ONT_START $ONT_END "$TMP/ont.ref.fa"
  gzip -9n -c "$TMP/ont.reads.fq" > "$E2E/ont.reads.fq.gz"
  gzip -9n -c "$TMP/ont.ref.fa" > "$E2E/ont.ref.fa.gz"

  py slice "$TMP/dh10b.fa" dh10b_${HIFI_START}_${HIFI_END} $HIFI_START $HIFI_END "$TMP/hifi.ref.fa"
  log "pbsim CCS reads"
  (cd "$TMP" && "$PBSIM" --data-type CCS --model_qc "$PBSIM_MODELS/model_qc_ccs" --depth 3 --length-mean 5000 \
    --length-sd 1500 --length-min 1000 --length-max 10000 --seed 11 --prefix hifi hifi.ref.fa > pbsim.log 2>&1)
  gzip -9n -c "$TMP/hifi_0001.fastq" > "$E2E/hifi.reads.fq.gz"
  gzip -9n -c "$TMP/hifi.ref.fa" > "$E2E/hifi.ref.fa.gz"

  log "dwgsim read pairs"
  "$DWGSIM" -z 11 -N 160 -1 150 -2 150 -d 450 -s 50 -y 0.03 -e 0.005 -E 0.01 -r 0.001 \
    "$TMP/ont.ref.fa" "$TMP/pe" > "$TMP/dwgsim.log" 2>&1
  py pairs 5 "$TMP/pe.bwa.read1.fastq.gz" "$TMP/pe.bwa.read2.fastq.gz" "$TMP/pe.r1.fq" "$TMP/pe.r2.fq" "$TMP/pe.il.fq"
  local p
  for p in pe.r1 pe.r2 pe.il; do gzip -9n -c "$TMP/$p.fq" > "$E2E/$p.fq.gz"; done
  # Pair files whose names disagree: the first 12 pairs, the 3rd and 7th second reads
  # renamed (minimap2 groups reads by name, so these are mapped as single reads).
  head -n 48 "$TMP/pe.r1.fq" > "$TMP/pe.names.r1.fq"
  head -n 48 "$TMP/pe.r2.fq" | awk 'NR == 9 { $0 = "@renamed_a/2" } NR == 25 { $0 = "@renamed_b" } { print }' \
    > "$TMP/pe.names.r2.fq"
  for p in pe.names.r1 pe.names.r2; do gzip -9n -c "$TMP/$p.fq" > "$E2E/$p.fq.gz"; done
  gzip -dc tests/data/seeds/rep.fa.gz > "$TMP/rep.fa"
  "$DWGSIM" -z 12 -N 16 -1 100 -2 100 -d 300 -s 30 -y 0 -e 0.005 -E 0.01 -r 0.001 \
    "$TMP/rep.fa" "$TMP/perep" > "$TMP/dwgsim.log" 2>&1
  py pairs-plain-names "$TMP/perep.bwa.read1.fastq.gz" "$TMP/perep.bwa.read2.fastq.gz" "$TMP/pe.rep.r1.fq" \
    "$TMP/pe.rep.r2.fq"
  for p in pe.rep.r1 pe.rep.r2; do gzip -9n -c "$TMP/$p.fq" > "$E2E/$p.fq.gz"; done
  # Short reads for the sr preset: dwgsim single-end reads (150 bp, then 100 bp; 3%
  # random reads) of the ONT slice and of the repeat reference, with Ns and substitution
  # clusters added by make-inputs.py. On the repeat reference only the first 26.5 kb of
  # chr3 are sampled (all of chr1 and chr2): the 160 kb tandem array that follows
  # (from 24,365) gives a read thousands of anchors, so a few reads of it are enough.
  log "dwgsim short reads"
  gzip -dc tests/data/seeds/rep.fa.gz > "$TMP/rep.fa"
  printf 'chr1\t0\t25906\nchr2\t0\t26439\nchr3\t0\t26500\n' > "$TMP/rep.bed"
  local set ref len n seed
  while read -r set ref len n seed; do
    local bed=()
    [[ $set = rep ]] && bed=(-x "$TMP/rep.bed")
    "$DWGSIM" -N "$n" -1 "$len" -2 0 -y 0.03 -z "$seed" -H -o 1 "${bed[@]}" "$TMP/$ref" "$TMP/$set.$len" \
      > "$TMP/dwgsim.log" 2>&1
  done <<'SETS'
ecoli ont.ref.fa 150 300 11
ecoli ont.ref.fa 100 200 12
rep rep.fa 150 250 13
rep rep.fa 100 150 14
SETS
  py sr-reads 7 "$TMP/ont.ref.fa" "$TMP/sr.ecoli.fq" "$TMP/ecoli.150.bwa.read1.fastq.gz" "$TMP/ecoli.100.bwa.read1.fastq.gz"
  py sr-reads 8 "$TMP/rep.fa" "$TMP/sr.rep.fq" "$TMP/rep.150.bwa.read1.fastq.gz" "$TMP/rep.100.bwa.read1.fastq.gz"
  gzip -9n -c "$TMP/sr.ecoli.fq" > "$E2E/sr.ecoli.fq.gz"
  gzip -9n -c "$TMP/sr.rep.fq" > "$E2E/sr.rep.fq.gz"
  # Pairs whose reads overlap (fragments of 120-260 bp): their k-mers are shared, so
  # sr's heap merge and --heap-sort=no order the anchors differently.
  py overlap-pairs 21 60 "$TMP/ont.ref.fa" "$TMP/pe.ov.r1.fq" "$TMP/pe.ov.r2.fq"
  for p in pe.ov.r1 pe.ov.r2; do gzip -9n -c "$TMP/$p.fq" > "$E2E/$p.fq.gz"; done

  py long-cigar "$TMP/longcigar.ref.fa" "$TMP/longcigar.reads.fa"
  gzip -9n -c "$TMP/longcigar.ref.fa" > "$E2E/longcigar.ref.fa.gz"
  gzip -9n -c "$TMP/longcigar.reads.fa" > "$E2E/longcigar.reads.fa.gz"
  make_mods_inputs
}

# Reads as a basecaller hands them over: an unaligned BAM (samtools import -T '*' of
# FASTQ whose comments hold base modifications and ONT's tags, with an @RG), the same
# as CRAM and as SAM, and an aligned, coordinate-sorted BAM of agatha's own output of
# them (-a -y -Y, so every record keeps its tags). AGATHA: the agatha program.
make_mods_inputs() {
  local agatha=${AGATHA:-$ROOT/build/agatha}
  py mods 31 "$E2E/ont.reads.fq.gz" "$TMP/mods.fq"
  samtools import --no-PG -T '*' -r ID:ont-run1 -r SM:sample1 -r PL:ONT -o "$E2E/mods.bam" "$TMP/mods.fq"
  samtools view --no-PG -C -o "$E2E/mods.cram" "$E2E/mods.bam"
  samtools view --no-PG -h "$E2E/mods.bam" | gzip -9n > "$E2E/mods.sam.gz"
  "$agatha" align -a -y -Y -x map-ont "$E2E/ont.ref.fa.gz" "$E2E/mods.bam" 2>/dev/null |
    samtools sort --no-PG -o "$E2E/mods.aligned.bam" -
}

# keep DIR FILE CODE: a case's outcome, from TMP/stdout and TMP/minimap2.log. Exit code
# 0: the output as DIR/FILE.gz. Otherwise (a release rejects the case's options: 2.31 an
# option that 2.24 takes, 2.24 a preset of 2.31; README.md) DIR/NAME.error: "exit CODE"
# and the last line of stderr, which the tests require of agatha too.
keep() {
  local dir=$1 file=$2 code=$3 name=${2%.*}
  rm -f "$dir/$file.gz" "$dir/$name.error"
  if [[ $code = 0 ]]; then
    gzip -9n -c "$TMP/stdout" > "$dir/$file.gz"
    return
  fi
  cat "$TMP/minimap2.log" >&2
  log "minimap2 failed (exit $code): recorded as $name.error"
  printf 'exit %s\n%s\n' "$code" "$(tail -n 1 "$TMP/minimap2.log")" > "$dir/$name.error"
}

# MM OPTIONS REFERENCE READS for each case into DIR (MM: a minimap2 program; DIR:
# expected or expected-2.31); OPTIONS are shell words (quotes kept).
make_expected() {
  local MM=$1 dir=$E2E/$2 name output ref reads opts
  mkdir -p "$dir"
  while IFS=$'\t' read -r name output ref reads opts; do
    [[ -z $name || $name = \#* ]] && continue
    log "$2/$name: minimap2 $opts $ref $reads"
    # READS may name several files (fragments), separated by spaces. SAM, BAM or CRAM
    # reads reach minimap2 as `samtools fastq -T '*'` writes them.
    local code=0
    if [[ $reads == *.bam || $reads == *.cram || $reads == *.sam.gz ]]; then
      samtools fastq -T '*' "$reads" 2>/dev/null | eval "\"\$MM\" $opts \"\$ref\" -" 2> "$TMP/minimap2.log" \
        > "$TMP/stdout" || code=$?
    else
      eval "\"\$MM\" $opts \"\$ref\" $reads" 2> "$TMP/minimap2.log" > "$TMP/stdout" || code=$?
    fi
    keep "$dir" "$name.$output" $code
  done < "$E2E/cases.tsv"
}

# MM ARGS for each case of minimap2-cases.tsv into DIR (ARGS: shell words, @OUT: the -o
# file, whose content is then the case's output); and MM's help texts.
make_minimap2_expected() {
  local MM=$1 dir=$E2E/$2 name output args
  # A fixed name: the @PG line holds the command line, so the fixture stays the same.
  local MM2_OUT=/tmp/agatha-make-fixtures-minimap2.out
  mkdir -p "$dir"
  while IFS=$'\t' read -r name output args; do
    [[ -z $name || $name = \#* ]] && continue
    log "$2/$name: minimap2 $args"
    rm -f "$MM2_OUT"
    local code=0
    eval "\"\$MM\" ${args//@OUT/\"\$MM2_OUT\"}" > "$TMP/stdout" 2> "$TMP/minimap2.log" || code=$?
    if [[ $code = 0 && $args == *@OUT* ]]; then mv "$MM2_OUT" "$TMP/stdout"; fi
    keep "$dir" "$name.$output" $code
  done < "$E2E/minimap2-cases.tsv"
  "$MM" -h | gzip -9n > "$dir/mm2_help.txt.gz"
  "$MM" -x sr -t 8 -h | gzip -9n > "$dir/mm2_help_sr_t8.txt.gz"
}

# Both releases: 2.24 into expected/, 2.31 into expected-2.31/.
both() { need_231 && "$1" "$MINIMAP2" expected && "$1" "$MINIMAP2_231" expected-2.31; }

case $WHAT in
  inputs) make_inputs ;;
  mods-inputs) make_mods_inputs ;;
  expected) both make_expected && both make_minimap2_expected ;;
  minimap2) both make_minimap2_expected ;;
  all) make_inputs && both make_expected && both make_minimap2_expected ;;
  *) log "usage: make-fixtures.sh [inputs|expected|minimap2|all]"; exit 1 ;;
esac
