#!/usr/bin/env bash
# bench/scaling.sh - how `agatha align` and minimap2 2.24 use more threads: whole-genome
# alignment (few, long queries) and ultra-long reads, each timed at several -t values.
#
# Usage:
#   bench/scaling.sh
#   SETS=asm1 THREADS_LIST="1 2" bench/scaling.sh
#
# Environment (all optional):
#   SETS="asm3 asm1 ecoli ul"  data sets (below)
#   THREADS_LIST="1 2 4 8 N"   -t values; N = all cores (nproc); duplicates dropped
#   REPEATS=1            runs of each program per set and -t, alternating (minimap2, agatha,
#                        minimap2, ...); the table gives the median wall time and the largest
#                        peak RSS (shared, noisy machines: use 3 or more)
#   AGATHA=build/agatha  agatha binary (relative paths are from the repo root)
#   MINIMAP2=minimap2    minimap2 2.24 binary (agatha runs with --compat 2.24)
#   CACHE=bench/.cache   where the prepared data live (git-ignored)
#   RESULTS=FILE         also write the table as TSV to FILE
#   PLOT=FILE.svg        the plot (default CACHE/scaling.svg)
#   UL_DEPTH=4           pbsim depth of the ul reads
#
# Data sets:
#   asm3   a synthetic repeat-rich genome of three contigs (6, 4 and 2 Mb; bench/make-genome.py
#          --lengths-mb 6,4,2 --seed 1) and its copy with 0.3% divergence (substitutions, a
#          tenth as many 1-3 bp indels; --copy-of ... --divergence 0.003 --seed 2), the copy's
#          three contigs as queries: `-c -x asm5` (PAF with CIGAR)
#   asm1   the same copy joined into one 12 Mb query: `-c -x asm5`
#   ecoli  a real genome, E. coli DH10B (nanook-examples, as bench/mapping.sh's ont set),
#          against its 0.3%-divergent copy (--seed 3), one 4.7 Mb query: `-c -x asm5`
#   ul     ultra-long ONT-like reads: pbsim CLR (model_qc_clr, accuracy 0.90, mean length
#          60 kb, up to 300 kb, depth UL_DEPTH, fixed seed) from DH10B: `-a -x map-ont` (SAM)
#
# For each set and -t, both programs build the index from the FASTA and run under
# /usr/bin/time; agatha's output must equal minimap2's (SAM @PG lines aside), else the
# row says `differs`. The table: wall seconds of each, each program's speed-up over its
# own -t 1 run, agatha/minimap2 time and peak RSS ratios. The plot draws wall time against
# threads for both programs, one panel per set.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
  exit 0
fi
SETS=${SETS:-asm3 asm1 ecoli ul}
NPROC=$(nproc)
THREADS_LIST=${THREADS_LIST:-1 2 4 8 $NPROC}
REPEATS=${REPEATS:-1}
AGATHA=${AGATHA:-build/agatha}
MINIMAP2=${MINIMAP2:-minimap2}
CACHE=${CACHE:-bench/.cache}
RESULTS=${RESULTS:-}
UL_DEPTH=${UL_DEPTH:-4}
[[ -n $RESULTS && $RESULTS != /* ]] && RESULTS=$PWD/$RESULTS
PLOT=${PLOT:-}
[[ -n $PLOT && $PLOT != /* ]] && PLOT=$PWD/$PLOT
cd "$ROOT"
[[ $CACHE == /* ]] || CACHE=$ROOT/$CACHE
[[ $AGATHA == /* ]] || AGATHA=$ROOT/$AGATHA
PLOT=${PLOT:-$CACHE/scaling.svg}
[[ $REPEATS =~ ^[1-9][0-9]*$ ]] || { echo "scaling.sh: REPEATS must be a positive integer" >&2; exit 1; }
[[ -x $AGATHA ]] || { echo "scaling.sh: no agatha binary at $AGATHA (meson setup build && ninja -C build)" >&2; exit 1; }
command -v "$MINIMAP2" >/dev/null || { echo "scaling.sh: $MINIMAP2 not found" >&2; exit 1; }
[[ $("$MINIMAP2" --version) = 2.24-r1122 ]] || { echo "scaling.sh: $MINIMAP2 is not minimap2 2.24" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "scaling.sh: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }
# The -t values, in increasing order, each once.
read -r -a TLIST <<<"$(tr ' ' '\n' <<<"$THREADS_LIST" | grep -E '^[1-9][0-9]*$' | sort -n -u | tr '\n' ' ')"
((${#TLIST[@]})) || { echo "scaling.sh: THREADS_LIST has no thread count" >&2; exit 1; }

DEB=$CACHE/deb
DATA=$CACHE/scaling
OUT=$CACHE/out
mkdir -p "$DEB" "$DATA" "$OUT"
log() { echo "[scaling.sh] $*" >&2; }

genome() { python3 "$ROOT/bench/make-genome.py" "$@"; }

prepare_asm() {
  [[ -s $DATA/asm.fa ]] || genome --lengths-mb 6,4,2 --seed 1 > "$DATA/asm.fa"
  [[ -s $DATA/asm.q.fa ]] || genome --copy-of "$DATA/asm.fa" --divergence 0.003 --seed 2 > "$DATA/asm.q.fa"
  [[ -s $DATA/asm.one.fa ]] || genome --copy-of "$DATA/asm.fa" --divergence 0.003 --seed 2 --join asm_q > "$DATA/asm.one.fa"
}

prepare_dh10b() {
  [[ -s $DATA/dh10b.fa ]] && return
  if ! ls "$DEB"/nanook-examples_*.deb >/dev/null 2>&1; then
    log "apt-get download nanook-examples"
    (cd "$DEB" && apt-get download nanook-examples >/dev/null)
  fi
  dpkg-deb -x "$DEB"/nanook-examples_*.deb "$DEB/root"
  tar -xzf "$DEB/root/usr/share/doc/nanook/examples/data.tar.gz" -O \
    data/nanook_ecoli_500/references/ecoli_dh10b_cs.fasta > "$DATA/dh10b.fa"
}

prepare_ecoli() {
  prepare_dh10b
  [[ -s $DATA/dh10b.q.fa ]] || genome --copy-of "$DATA/dh10b.fa" --divergence 0.003 --seed 3 > "$DATA/dh10b.q.fa"
}

prepare_ul() {
  prepare_dh10b
  [[ -s $DATA/ul.reads.fq ]] && return
  command -v pbsim >/dev/null || { log "pbsim not installed (apt-get install pbsim)"; exit 1; }
  local tmp=$DATA/pbsim
  rm -rf "$tmp" && mkdir -p "$tmp"
  log "pbsim CLR, mean length 60 kb, depth $UL_DEPTH"
  (cd "$tmp" && pbsim --data-type CLR --model_qc /usr/share/pbsim/models/model_qc_clr --accuracy-mean 0.90 \
    --length-mean 60000 --length-sd 40000 --length-min 10000 --length-max 300000 --depth "$UL_DEPTH" --seed 13 \
    --prefix ul "$DATA/dh10b.fa" >/dev/null 2>&1)
  cat "$tmp"/ul_*.fastq > "$DATA/ul.reads.fq"
  rm -rf "$tmp"
}

# run OUTFILE CMD...: runs CMD with stdout to OUTFILE; prints "wall_s rss_kb".
run() {
  local out=$1 err=$OUT/scaling.time
  shift
  /usr/bin/time -f "%e %M" -o "$err" "$@" >"$out" 2>"$OUT/scaling.stderr" || {
    tail -n 5 "$OUT/scaling.stderr" >&2
    echo "scaling.sh: failed: $*" >&2
    exit 1
  }
  cat "$err"
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END{print (NR%2)? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
maxof() { printf '%s\n' "$@" | sort -g | tail -n 1; }

ROWS=()  # set threads mm_s ag_s mm_rss ag_rss same
for set in $SETS; do
  case $set in
    asm3) prepare_asm; ref=$DATA/asm.fa qry=$DATA/asm.q.fa opts="-c -x asm5" ;;
    asm1) prepare_asm; ref=$DATA/asm.fa qry=$DATA/asm.one.fa opts="-c -x asm5" ;;
    ecoli) prepare_ecoli; ref=$DATA/dh10b.fa qry=$DATA/dh10b.q.fa opts="-c -x asm5" ;;
    ul) prepare_ul; ref=$DATA/dh10b.fa qry=$DATA/ul.reads.fq opts="-a -x map-ont" ;;
    *) echo "scaling.sh: unknown set '$set'" >&2; exit 1 ;;
  esac
  for t in "${TLIST[@]}"; do
    log "$set -t $t ($REPEATS run(s) of each)"
    mm_s=() ag_s=() mm_m=() ag_m=()
    for ((i = 1; i <= REPEATS; i++)); do
      read -r s m < <(run "$OUT/$set.mm2.out" "$MINIMAP2" $opts -t "$t" "$ref" "$qry")
      mm_s+=("$s") mm_m+=("$m")
      read -r s m < <(run "$OUT/$set.agatha.out" "$AGATHA" align --compat 2.24 $opts -t "$t" "$ref" "$qry")
      ag_s+=("$s") ag_m+=("$m")
    done
    same=identical
    cmp -s <(grep -v '^@PG' "$OUT/$set.mm2.out") <(grep -v '^@PG' "$OUT/$set.agatha.out") || same=differs
    ROWS+=("$set $t $(median "${mm_s[@]}") $(median "${ag_s[@]}") $(maxof "${mm_m[@]}") $(maxof "${ag_m[@]}") $same")
  done
done

echo
echo "Scaling: wall seconds (median of $REPEATS), speed-up over the same program's -t 1 (or its first -t), $NPROC cores"
printf '%s\n' "${ROWS[@]}" | awk -v results="$RESULTS" '
BEGIN {
  fmt = "%-6s %4s %9s %9s %8s %8s %9s %9s %9s %9s  %s\n"
  printf fmt, "set", "-t", "mm2_s", "agatha_s", "mm2_x", "agatha_x", "time_ag/mm", "rss_ag/mm", "ag_rss_MB", "ag_rss_x", "output"
  if (results != "") print "set\tthreads\tmm2_s\tagatha_s\tmm2_speedup\tagatha_speedup\ttime_ratio\trss_ratio\tmm2_rss_kb\tagatha_rss_kb\toutput" > results
}
{
  if ($1 != cur) { cur = $1; mm1 = $3; ag1 = $4; agm1 = $6 }
  printf fmt, $1, $2, sprintf("%.2f", $3), sprintf("%.2f", $4), sprintf("%.2fx", mm1 / $3), sprintf("%.2fx", ag1 / $4),
    sprintf("%.3f", $4 / $3), sprintf("%.3f", $6 / $5), sprintf("%.1f", $6 / 1024), sprintf("%.2f", $6 / agm1), $7
  if (results != "") printf "%s\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.4f\t%.4f\t%s\t%s\t%s\n", $1, $2, $3, $4, mm1 / $3, ag1 / $4, $4 / $3, $6 / $5, $5, $6, $7 > results
}'

# The plot: one panel per set, wall time against -t (log2 axis) for both programs.
printf '%s\n' "${ROWS[@]}" | python3 -c '
import sys, math
rows = [l.split() for l in sys.stdin if l.strip()]
sets = []
for r in rows:
    if r[0] not in sets: sets.append(r[0])
W, H, PW, PH, M = 300, 240, 300, 240, 50
out = ['"'"'<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">'"'"' % (PW * len(sets), PH + 30)]
out.append('"'"'<rect width="100%" height="100%" fill="white"/>'"'"')
colours = {"minimap2 2.24": "#d95f02", "agatha": "#1b9e77"}
for k, s in enumerate(sets):
    rs = [r for r in rows if r[0] == s]
    ts = [int(r[1]) for r in rs]
    series = {"minimap2 2.24": [float(r[2]) for r in rs], "agatha": [float(r[3]) for r in rs]}
    ymax = max(max(v) for v in series.values()) * 1.1
    x0, y0 = k * PW + M, PH - 30
    xw, yh = PW - M - 15, PH - 60
    lx = lambda t: x0 + (math.log2(t) / max(1e-9, math.log2(max(ts))) * xw if max(ts) > 1 else xw / 2)
    ly = lambda v: y0 - v / ymax * yh
    out.append('"'"'<text x="%d" y="18" font-size="13" font-weight="bold">%s</text>'"'"' % (x0, s))
    out.append('"'"'<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'"'"' % (x0, y0, x0 + xw, y0))
    out.append('"'"'<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'"'"' % (x0, y0, x0, y0 - yh))
    for t in ts:
        out.append('"'"'<text x="%.1f" y="%d" text-anchor="middle">%d</text>'"'"' % (lx(t), y0 + 14, t))
    for i in range(5):
        v = ymax * i / 4
        out.append('"'"'<text x="%d" y="%.1f" text-anchor="end">%.1f</text>'"'"' % (x0 - 4, ly(v) + 4, v))
    out.append('"'"'<text x="%.1f" y="%d" text-anchor="middle">threads (-t)</text>'"'"' % (x0 + xw / 2, y0 + 28))
    out.append('"'"'<text x="%d" y="%.1f" transform="rotate(-90 %d %.1f)" text-anchor="middle">wall seconds</text>'"'"' % (x0 - 36, y0 - yh / 2, x0 - 36, y0 - yh / 2))
    for n, (name, v) in enumerate(series.items()):
        pts = " ".join("%.1f,%.1f" % (lx(t), ly(y)) for t, y in zip(ts, v))
        out.append('"'"'<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>'"'"' % (pts, colours[name]))
        for t, y in zip(ts, v):
            out.append('"'"'<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>'"'"' % (lx(t), ly(y), colours[name]))
        out.append('"'"'<text x="%d" y="%d" fill="%s">%s</text>'"'"' % (x0 + 8, y0 - 10 - 14 * (1 - n), colours[name], name))
out.append("</svg>")
print("\n".join(out))
' > "$PLOT"
log "plot: $PLOT"
