#!/usr/bin/env bash
# bench/index.sh - `agatha index` against `minimap2 -d` (2.24) on a large synthetic
# genome: wall time, peak memory and index file size, with agatha/minimap2 ratios
# (below 1: agatha is faster or smaller).
#
# Usage:
#   bench/index.sh
#   SIZE_MB=100 THREADS=4 bench/index.sh
#
# Environment (all optional):
#   SIZE_MB=400          genome size in Mb (bench/make-genome.py --size-mb; 30% repeats,
#                        SIZE_MB/20 contigs, at least 1; seed 1: always the same bytes)
#   THREADS=2            -t for both programs
#   PRESETS="map-ont map-hifi"  -x for both (map-ont: k 15, w 10; map-hifi: k 19, w 19)
#   AGATHA=build/agatha  agatha binary (relative paths are from the repo root)
#   MINIMAP2=minimap2    minimap2 2.24 binary
#   CACHE=bench/.cache   where the genome and the indexes are written (git-ignored)
#   RESULTS=FILE         also write the table as TSV to FILE
#
# Both programs read the same FASTA from the page cache (it is read once before the
# first run) and write their index beside it; each runs once under /usr/bin/time -v.
# The agatha index is then checked by mapping nothing with it (`agatha align IDX
# /dev/null`), which loads and verifies every field.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SIZE_MB=${SIZE_MB:-400}
THREADS=${THREADS:-2}
PRESETS=${PRESETS:-map-ont map-hifi}
AGATHA=${AGATHA:-build/agatha}
MINIMAP2=${MINIMAP2:-minimap2}
CACHE=${CACHE:-$ROOT/bench/.cache}
RESULTS=${RESULTS:-}
[[ $AGATHA = /* ]] || AGATHA=$ROOT/$AGATHA
[[ -x $AGATHA ]] || { echo "index.sh: no agatha binary at $AGATHA (meson setup build && ninja -C build)" >&2; exit 1; }
command -v "$MINIMAP2" >/dev/null || { echo "index.sh: $MINIMAP2 not found" >&2; exit 1; }
DATA=$CACHE/index
mkdir -p "$DATA"
log() { echo "[index.sh] $*" >&2; }
# measure OUT STATS CMD...: wall seconds and peak RSS (KiB) of CMD into STATS
source "$ROOT/bench/measure.sh"

ref=$DATA/genome$SIZE_MB.fa
if [[ ! -s $ref ]]; then
  contigs=$((SIZE_MB / 20 > 0 ? SIZE_MB / 20 : 1))
  log "make-genome.py: $SIZE_MB Mb in $contigs contigs, 30% repeats"
  python3 "$ROOT/bench/make-genome.py" --size-mb "$SIZE_MB" --contigs "$contigs" --repeat-frac 0.3 --seed 1 > "$ref.tmp"
  mv "$ref.tmp" "$ref"
fi
cat "$ref" > /dev/null

header="preset\tgenome_Mb\tmm2_s\tagatha_s\ttime_ratio\tmm2_MiB\tagatha_MiB\tmem_ratio\tmmi_MB\tagi_MB\tsize_ratio"
rows=()
for preset in $PRESETS; do
  mmi=$DATA/genome$SIZE_MB.$preset.mmi agi=$DATA/genome$SIZE_MB.$preset.agi
  log "$preset: $MINIMAP2 -x $preset -t $THREADS -d $mmi $ref"
  measure /dev/null "$DATA/$preset.mm2.stats" "$MINIMAP2" -x "$preset" -t "$THREADS" -d "$mmi" "$ref"
  log "$preset: $AGATHA index -x $preset -t $THREADS $ref -o $agi"
  measure /dev/null "$DATA/$preset.agatha.stats" "$AGATHA" index -x "$preset" -t "$THREADS" "$ref" -o "$agi"
  "$AGATHA" align -x "$preset" "$agi" /dev/null > /dev/null 2>&1 || { log "$agi does not load"; exit 1; }
  read -r mm_s mm_kb < "$DATA/$preset.mm2.stats"
  read -r ag_s ag_kb < "$DATA/$preset.agatha.stats"
  mm_bytes=$(stat -c %s "$mmi") ag_bytes=$(stat -c %s "$agi")
  rows+=("$(awk -v p="$preset" -v g="$SIZE_MB" -v ms="$mm_s" -v as="$ag_s" -v mk="$mm_kb" -v ak="$ag_kb" \
    -v mb="$mm_bytes" -v ab="$ag_bytes" 'BEGIN{
      printf "%s\t%d\t%.1f\t%.1f\t%.2f\t%.0f\t%.0f\t%.2f\t%.0f\t%.0f\t%.2f", p, g, ms, as, (ms > 0 ? as / ms : 0),
        mk / 1024, ak / 1024, (mk > 0 ? ak / mk : 0), mb / 1e6, ab / 1e6, (mb > 0 ? ab / mb : 0)}')")
  rm -f "$mmi" "$agi"
done

{
  printf '%b\n' "$header"
  printf '%s\n' "${rows[@]}"
} | column -t -s $'\t'
if [[ -n $RESULTS ]]; then
  { printf '%b\n' "$header"; printf '%s\n' "${rows[@]}"; } > "$RESULTS"
fi
