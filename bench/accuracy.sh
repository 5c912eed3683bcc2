#!/usr/bin/env bash
# bench/accuracy.sh - mapping accuracy of agatha and minimap2 2.24 on pbsim reads with
# known origins, printed by `agatha eval` (paftools.js mapeval convention).
#
# Usage: bench/accuracy.sh [REF.fa]        (default data/ref.fa)
# Environment: AGATHA=build/agatha MINIMAP2=minimap2 PRESET=map-pb DEPTH=10 SEED=7
#              OUT=bench/.cache/accuracy (work directory; the plot is OUT/accuracy.svg)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REF=${1:-$ROOT/data/ref.fa}
AGATHA=${AGATHA:-$ROOT/build/agatha}
MINIMAP2=${MINIMAP2:-minimap2}
PRESET=${PRESET:-map-pb}
DEPTH=${DEPTH:-10}
SEED=${SEED:-7}
OUT=${OUT:-$ROOT/bench/.cache/accuracy}
[[ -x $AGATHA ]] || { echo "accuracy.sh: no agatha binary at $AGATHA (meson setup build && ninja -C build)" >&2; exit 1; }
command -v pbsim >/dev/null || { echo "accuracy.sh: pbsim not found (apt-get install pbsim)" >&2; exit 1; }
MODEL=$(ls /usr/share/pbsim/models/model_qc_clr 2>/dev/null || true)
mkdir -p "$OUT"
cd "$OUT"
rm -f sd_*
if [[ -n $MODEL ]]; then
  pbsim --prefix sd --depth "$DEPTH" --seed "$SEED" --model_qc "$MODEL" "$REF" >pbsim.log 2>&1
else
  pbsim --prefix sd --depth "$DEPTH" --seed "$SEED" --data-type CLR "$REF" >pbsim.log 2>&1
fi
cat sd_*.fastq >reads.fq
cat sd_*.maf >truth.maf
inputs=() labels=()
"$MINIMAP2" -ax "$PRESET" "$REF" reads.fq >minimap2.sam 2>minimap2.log
inputs+=(minimap2.sam) labels+=(-l minimap2)
if "$AGATHA" align -ax "$PRESET" "$REF" reads.fq >agatha.sam 2>agatha.log && [[ -s agatha.sam ]]; then
  inputs+=(agatha.sam) labels+=(-l agatha)
else
  echo "accuracy.sh: 'agatha align -a' failed (see $OUT/agatha.log); trying --map-only PAF" >&2
  if "$AGATHA" align --map-only -x "$PRESET" "$REF" reads.fq >agatha.paf 2>agatha-paf.log; then
    inputs+=(agatha.paf) labels+=(-l agatha-paf)
  else
    echo "accuracy.sh: 'agatha align --map-only' failed too (see $OUT/agatha-paf.log); minimap2 only" >&2
  fi
fi
"$AGATHA" eval --truth truth.maf "${labels[@]}" "${inputs[@]}" --plot accuracy.svg
echo "plot: $OUT/accuracy.svg" >&2
