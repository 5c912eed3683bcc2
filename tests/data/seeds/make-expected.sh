#!/usr/bin/env bash
# Regenerates the expected seeding output in this folder from minimap2 2.24 (Debian
# package minimap2 2.24+dfsg). Run from the repository root. --print-seeds forces one
# thread; it prints per read `QR name tid qlen`, `RS rep_len` and one `SD` line per
# anchor after the radix sort (name rpos strand qpos span diff); with sr, in the order of
# its heap merge of the seeds' hit lists (--heap-sort).
set -euo pipefail
out=tests/data/seeds
seeds() {  # seeds NAME REF READS minimap2-options...
  local name=$1 ref=$2 reads=$3
  shift 3
  minimap2 "$@" --print-seeds -t 1 "$ref" "$reads" 2>&1 >/dev/null | grep -E '^(QR|RS|SD)' | gzip -9n >"$out/$name.seeds.gz"
}
(cd "$out" && python3 make-repeats.py)  # writes rep.fa.gz and rep.fq
for p in map-pb map-ont map-hifi; do
  seeds "mt.$p" data/ref.fa data/reads.fq -x "$p"
done
seeds mt.map-pb.T10 data/ref.fa data/reads.fq -x map-pb -T 10
seeds rep.map-hifi $out/rep.fa.gz $out/rep.fq -x map-hifi
seeds rep.map-pb.f20 $out/rep.fa.gz $out/rep.fq -x map-pb -f 20
seeds rep.map-ont.f20 $out/rep.fa.gz $out/rep.fq -x map-ont -f 20
seeds rep.sr $out/rep.fa.gz $out/rep.fq -x sr
