#!/usr/bin/env bash
# Regenerates the expected output in this folder: minimap2 2.24's PAF with base alignment
# (-c) for the sr preset with options that tests/pipeline/short_read_test.cpp sets on the
# options directly. Run from the repository root; needs minimap2 2.24 (Debian package
# minimap2 2.24+dfsg) and gzip. The reads are those of tests/data/e2e (make-fixtures.sh).
set -euo pipefail
out=tests/data/sr
ecoli_ref=tests/data/e2e/ont.ref.fa.gz ecoli_reads=tests/data/e2e/sr.ecoli.fq.gz
rep_ref=tests/data/seeds/rep.fa.gz rep_reads=tests/data/e2e/sr.rep.fq.gz
run() {  # run NAME REF READS minimap2-options...
  local name=$1 ref=$2 reads=$3
  shift 3
  minimap2 -c -x sr -t 1 "$@" "$ref" "$reads" | gzip -9n >"$out/$name.paf.gz"
}
run ecoli.F200 $ecoli_ref $ecoli_reads -F 200
run rep.F200 $rep_ref $rep_reads -F 200
run ecoli.z50 $ecoli_ref $ecoli_reads -z 50
run rep.f1000_1000 $rep_ref $rep_reads -f 1000,1000
