#!/bin/sh
# Writes tests/data/mmi/dump/: the .mmi files minimap2 2.24 writes with -d, which
# `agatha minimap2 -d` and `agatha align -d FILE.mmi` must write byte for byte
# (tests/io/mmi_writer_test.cpp, tests/e2e/mmi_e2e_test.cpp). Run from the repository
# root with minimap2 2.24 on PATH. data/ref.fa's are gzipped (-9n: no name, no time);
# small.fa's multi-part index is small enough as it is.
set -eu
D=tests/data/mmi/dump
mkdir -p "$D"
dump() {  # NAME REF OPTIONS...
  name=$1 ref=$2
  shift 2
  minimap2 "$@" -d "$D/$name.mmi" "$ref" 2> /dev/null
  case $name in ref.*) gzip -9nf "$D/$name.mmi" ;; esac
}
dump ref.map-ont data/ref.fa -x map-ont
dump ref.map-pb data/ref.fa -x map-pb
dump ref.sr data/ref.fa -x sr
dump ref.asm5 data/ref.fa -x asm5
dump ref.splice data/ref.fa -x splice
dump ref.map-ont.noseq data/ref.fa -x map-ont --idx-no-seq
dump ref.k17w7b4 data/ref.fa -k 17 -w 7 --bucket-bits 4
dump small.k5w3.I200 tests/data/mmi/small.fa --bucket-bits 6 -k 5 -w 3 -I 200
