#!/usr/bin/env bash
# bench/mapping.sh - `agatha align` against both minimap2 releases it is compatible with,
# 2.24 and 2.31, on real and simulated E. coli long reads: agreement, wall time and peak
# memory, one row per set and release (agatha with --compat REL against minimap2 REL).
# Two modes:
#   MODE=sam  (default) base-level alignment: `minimap2 -ax P` vs `agatha align -x P`
#             (SAM is agatha's default output)
#   MODE=paf  mapping only: `minimap2 -x P` vs `agatha align --map-only -x P` (PAF
#             without base-level alignment)
#
# Usage:
#   bench/mapping.sh
#   MODE=paf SETS=ont bench/mapping.sh
#
# Environment (all optional):
#   MODE=sam             sam or paf (above)
#   THREADS=2            -t for both programs
#   AGATHA=build/agatha  agatha binary (relative paths are from the repo root)
#   AGATHA_OPTS=         extra options for agatha only (e.g. "--dp-backend scalar")
#   MINIMAP2=minimap2    minimap2 2.24 binary
#   MINIMAP2_231=build/tests/minimap2-2.31   minimap2 2.31 binary; built there by
#                        scripts/minimap2-231.sh (PyPI's mappy 2.31 sdist) when absent
#   RELEASES="2.24 2.31" the releases compared (agatha align --compat REL)
#   CACHE=bench/.cache   where the packages and the prepared data live (git-ignored)
#   SETS="pb ont hifi rep rephifi splice srpe"   data sets to run (see below; ontbam too on request)
#   PB_READS=2000        reads taken from the head of pacbio_filtered.fastq
#   HIFI_DEPTH=10        pbsim depth of the simulated HiFi reads
#   HIFI_SEED=11         pbsim --seed (fixed: the reads are the same on every run)
#   REP_DEPTH=3          pbsim depth of the rep and rephifi reads
#   SPLICE_READS=10000   simulated reads of the splice set
#   SR_PAIRS=100000      dwgsim read pairs of the srpe set
#   REPEATS=1            runs of each program per set, alternating (minimap2, agatha,
#                        minimap2, ...); the table gives the median wall time of each and the
#                        largest peak RSS (machines that are shared and noisy: use 3 or more)
#   RESULTS=FILE         also write the table as TSV to FILE
#   PREPARE_ONLY=1       prepare the data sets in CACHE/mapping and stop (scripts/gpu-check.sh
#                        prepare carries them to a machine without network access)
#
# Data sets (Debian packages fetched with `apt-get download`, unpacked with dpkg-deb):
#   pb    wtdbg2-examples: selfSampleData/reference.fasta (E. coli) and the first
#         PB_READS reads of selfSampleData/pacbio_filtered.fastq, -x map-pb
#   ont   python3-nanoget-examples: nanotest/reads.fastq.gz against the E. coli DH10B
#         reference of nanook-examples (data/nanook_ecoli_500/references/
#         ecoli_dh10b_cs.fasta), -x map-ont
#   ontbam  the ont set's reads as an unaligned BAM (samtools import -T '*'), the input a
#         basecaller writes: agatha reads the BAM, minimap2 `samtools fastq -T '*' BAM |`
#         (its time includes samtools'); set against the ont row, agatha's time on both
#         inputs
#   hifi  pbsim CCS reads (model_qc_ccs, mean length 10 kb, fixed seed) simulated from
#         that DH10B reference, -x map-hifi
#   rep   ONT-like reads (pbsim CLR, model_qc_clr, accuracy 0.90, mean length 15 kb,
#         depth REP_DEPTH, fixed seed) from a synthetic 12 Mb genome with 30% interspersed
#         and tandem repeats (bench/make-genome.py --size-mb 12 --contigs 6 --seed 1),
#         -x map-ont
#   rephifi  pbsim CCS reads (as hifi, depth REP_DEPTH) from the same genome, -x map-hifi
#   splice  SPLICE_READS ONT-cDNA-like reads (both orientations, 6-14% errors, poly(A)
#         tails, 5'-truncated ones) from the transcripts of the synthetic 1 Mb genome with
#         69 genes on both strands that tests/data/splice/make_splice_data.py writes (the
#         committed test set's generator, asked for more reads), -x splice
#   srpe  SR_PAIRS Illumina-like read pairs (2 x 150 bp, fragments 450 +- 50 bp, dwgsim
#         with a fixed seed, 2% random reads) from that DH10B reference, as two files:
#         -x sr R1 R2 (fragments: the pairs are mapped and paired together); its "reads"
#         are pairs, compared as units (a pair's SAM records share their name)
#
# For each set both programs build the index from the FASTA and run under
# /usr/bin/time -v (python's resource module when that is missing). Outputs are
# compared read by read: a read agrees when its lines (SAM records, or PAF lines) are
# the same in both, in the same order. The table gives wall seconds and peak RSS of
# both and agatha/minimap2 ratios (time ratio < 1: agatha faster; memory ratio: target
# <= 1.2), and per mode:
#   sam  reads (in the input), mm2_records, identical_records (minimap2 records agatha
#        printed identically), identical_reads, agreement (identical_reads / reads),
#        diff_reads, header (the header lines other than @PG are identical: yes/no);
#        @PG lines are not compared (they hold the command line)
#   paf  reads, mapped_reads (reads with a line in either output), mm2_lines, identical
#        (minimap2 lines agatha printed identically), diff_reads
# Differing reads are listed in CACHE/out/SET.RELEASE.MODE.diff (SAM records there without SEQ
# and QUAL, which are replaced by the read length).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MODE=${MODE:-sam}
THREADS=${THREADS:-2}
AGATHA=${AGATHA:-build/agatha}
read -r -a AGATHA_OPTS <<< "${AGATHA_OPTS:-}"
MINIMAP2=${MINIMAP2:-minimap2}
MINIMAP2_231=${MINIMAP2_231:-$ROOT/build/tests/minimap2-2.31}
RELEASES=${RELEASES:-2.24 2.31}
CACHE=${CACHE:-$ROOT/bench/.cache}
SETS=${SETS:-pb ont hifi rep rephifi splice srpe}
PB_READS=${PB_READS:-2000}
HIFI_DEPTH=${HIFI_DEPTH:-10}
HIFI_SEED=${HIFI_SEED:-11}
REP_DEPTH=${REP_DEPTH:-3}
SPLICE_READS=${SPLICE_READS:-10000}
SR_PAIRS=${SR_PAIRS:-100000}
RESULTS=${RESULTS:-}
REPEATS=${REPEATS:-1}
[[ $REPEATS =~ ^[1-9][0-9]*$ ]] || { echo "mapping.sh: REPEATS must be a positive integer, not '$REPEATS'" >&2; exit 1; }
[[ $MODE = sam || $MODE = paf ]] || { echo "mapping.sh: MODE must be sam or paf, not '$MODE'" >&2; exit 1; }
[[ $AGATHA = /* ]] || AGATHA=$ROOT/$AGATHA
[[ -x $AGATHA ]] || { echo "mapping.sh: no agatha binary at $AGATHA (meson setup build && ninja -C build)" >&2; exit 1; }
# minimap2_of REL: the program of a release.
minimap2_of() {
  case $1 in
    2.24) echo "$MINIMAP2" ;;
    2.31) echo "$MINIMAP2_231" ;;
  esac
}
for rel in $RELEASES; do
  case $rel in
    2.24) command -v "$MINIMAP2" >/dev/null || { echo "mapping.sh: $MINIMAP2 not found" >&2; exit 1; }
      [[ $("$MINIMAP2" --version) = 2.24-r1122 ]] || { echo "mapping.sh: $MINIMAP2 is not minimap2 2.24" >&2; exit 1; } ;;
    # minimap2 2.31: built by scripts/minimap2-231.sh unless MINIMAP2_231 already is it.
    2.31) [[ -x $MINIMAP2_231 && $("$MINIMAP2_231" --version) = 2.31-r1302 ]] || "$ROOT/scripts/minimap2-231.sh" "$MINIMAP2_231" ;;
    *) echo "mapping.sh: unknown release '$rel' in RELEASES (2.24 or 2.31)" >&2; exit 1 ;;
  esac
done

DEB=$CACHE/deb
DATA=$CACHE/mapping
OUT=$CACHE/out
mkdir -p "$DEB" "$DATA" "$OUT"

log() { echo "[mapping.sh] $*" >&2; }

# Downloads (once) and unpacks a Debian package into $DEB/root.
fetch_deb() {
  local pkg=$1
  if ! ls "$DEB"/"${pkg}"_*.deb >/dev/null 2>&1; then
    log "apt-get download $pkg"
    (cd "$DEB" && apt-get download "$pkg" >/dev/null)
  fi
  dpkg-deb -x "$DEB"/"${pkg}"_*.deb "$DEB/root"
}

prepare_pb() {
  [[ -s $DATA/pb.reads.fq && -s $DATA/pb.ref.fa ]] && return
  fetch_deb wtdbg2-examples
  local tgz=$DEB/root/usr/share/doc/wtdbg2-examples/selfSampleData.tar.gz
  tar -xzf "$tgz" -C "$DATA" selfSampleData/reference.fasta selfSampleData/pacbio_filtered.fastq
  mv "$DATA/selfSampleData/reference.fasta" "$DATA/pb.ref.fa"
  # 4-line FASTQ records (checked: no wrapped lines in this file).
  head -n $((PB_READS * 4)) "$DATA/selfSampleData/pacbio_filtered.fastq" > "$DATA/pb.reads.fq"
  rm -rf "$DATA/selfSampleData"
}

prepare_dh10b() {
  [[ -s $DATA/dh10b.fa ]] && return
  fetch_deb nanook-examples
  tar -xzf "$DEB/root/usr/share/doc/nanook/examples/data.tar.gz" -O \
    data/nanook_ecoli_500/references/ecoli_dh10b_cs.fasta > "$DATA/dh10b.fa"
}

prepare_ont() {
  prepare_dh10b
  [[ -s $DATA/ont.reads.fq.gz ]] && return
  fetch_deb python3-nanoget-examples
  cp "$DEB/root/usr/share/doc/python3-nanoget/examples/nanotest/reads.fastq.gz" "$DATA/ont.reads.fq.gz"
}

prepare_ontbam() {
  prepare_ont
  [[ -s $DATA/ont.reads.bam ]] && return
  samtools import --no-PG -T '*' -o "$DATA/ont.reads.bam" "$DATA/ont.reads.fq.gz"
}

prepare_hifi() {
  prepare_dh10b
  [[ -s $DATA/hifi.reads.fq ]] && return
  command -v pbsim >/dev/null || { log "pbsim not installed (apt-get install pbsim)"; exit 1; }
  local model=/usr/share/pbsim/models/model_qc_ccs tmp=$DATA/pbsim
  rm -rf "$tmp" && mkdir -p "$tmp"
  log "pbsim CCS, depth $HIFI_DEPTH, seed $HIFI_SEED"
  (cd "$tmp" && pbsim --data-type CCS --model_qc "$model" --depth "$HIFI_DEPTH" --length-mean 10000 \
    --length-sd 2000 --length-min 2000 --length-max 20000 --seed "$HIFI_SEED" --prefix hifi "$DATA/dh10b.fa" \
    >/dev/null 2>&1)
  cat "$tmp"/hifi_*.fastq > "$DATA/hifi.reads.fq"
  rm -rf "$tmp"
}

prepare_rep_genome() {
  [[ -s $DATA/rep.fa ]] && return
  log "make-genome.py: 12 Mb, 30% repeats"
  python3 "$ROOT/bench/make-genome.py" --size-mb 12 --contigs 6 --repeat-frac 0.3 --seed 1 > "$DATA/rep.fa"
}

# pbsim reads from $DATA/rep.fa into $DATA/$1.reads.fq; the rest of the arguments go to pbsim.
simulate_rep() {
  local name=$1
  shift
  [[ -s $DATA/$name.reads.fq ]] && return
  command -v pbsim >/dev/null || { log "pbsim not installed (apt-get install pbsim)"; exit 1; }
  local tmp=$DATA/pbsim
  rm -rf "$tmp" && mkdir -p "$tmp"
  log "pbsim $name: $*"
  (cd "$tmp" && pbsim "$@" --depth "$REP_DEPTH" --seed 7 --prefix "$name" "$DATA/rep.fa" >/dev/null 2>&1)
  cat "$tmp"/"$name"_*.fastq > "$DATA/$name.reads.fq"
  rm -rf "$tmp"
}

prepare_rep() {
  prepare_rep_genome
  simulate_rep rep --data-type CLR --model_qc /usr/share/pbsim/models/model_qc_clr --accuracy-mean 0.90 \
    --accuracy-sd 0.03 --accuracy-min 0.80 --length-mean 15000 --length-sd 8000 --length-min 1000 --length-max 60000
}

prepare_rephifi() {
  prepare_rep_genome
  simulate_rep rephifi --data-type CCS --model_qc /usr/share/pbsim/models/model_qc_ccs --length-mean 10000 \
    --length-sd 2000 --length-min 2000 --length-max 20000
}

prepare_splice() {
  local dir=$DATA/splice
  [[ -s $dir/ont.fq.gz && $(cat "$dir/reads" 2>/dev/null) = "$SPLICE_READS" ]] && return
  log "splice: simulating $SPLICE_READS reads (tests/data/splice/make_splice_data.py)"
  python3 "$ROOT/tests/data/splice/make_splice_data.py" "$dir" "$SPLICE_READS" 2>/dev/null
  echo "$SPLICE_READS" > "$dir/reads"
}

prepare_srpe() {
  prepare_dh10b
  [[ -s $DATA/srpe.r1.fq.gz && $(cat "$DATA/srpe.pairs" 2>/dev/null) = "$SR_PAIRS" ]] && return
  command -v dwgsim >/dev/null || { log "dwgsim not installed (apt-get install dwgsim)"; exit 1; }
  log "dwgsim: $SR_PAIRS pairs"
  dwgsim -z 13 -N "$SR_PAIRS" -1 150 -2 150 -d 450 -s 50 -y 0.02 -e 0.005 -E 0.01 -r 0.001 \
    "$DATA/dh10b.fa" "$DATA/srpe" >/dev/null 2>&1
  mv "$DATA/srpe.bwa.read1.fastq.gz" "$DATA/srpe.r1.fq.gz"
  mv "$DATA/srpe.bwa.read2.fastq.gz" "$DATA/srpe.r2.fq.gz"
  rm -f "$DATA"/srpe.bfast.fastq.gz "$DATA"/srpe.mutations.*
  echo "$SR_PAIRS" > "$DATA/srpe.pairs"
}

# measure OUT STATS CMD...: bench/measure.sh
source "$ROOT/bench/measure.sh"

# Agreement of two outputs (MODE sam or paf), read by read. Prints
# "reads_seen mm_lines same_lines same_reads diff_reads header_same" and writes the
# differing reads to the third argument.
compare() {
  python3 - "$MODE" "$1" "$2" "$3" <<'EOF'
import collections, sys
mode, mm_path, ag_path, diff_path = sys.argv[1:]
def load(path):
    by, header = collections.OrderedDict(), []
    for line in open(path):
        if mode == "sam" and line.startswith("@"):
            if not line.startswith("@PG"):
                header.append(line)
            continue
        by.setdefault(line.split("\t", 1)[0], []).append(line)
    return by, header
def brief(line):
    if mode != "sam":
        return line
    f = line.rstrip("\n").split("\t")
    return "\t".join(f[:9] + [f"<{len(f[9])} bases>" if f[9] != "*" else "*"] + f[11:]) + "\n"
(mm, mm_head), (ag, ag_head) = load(mm_path), load(ag_path)
same = sum(sum((collections.Counter(v) & collections.Counter(ag.get(k, []))).values()) for k, v in mm.items())
names = list(mm) + [k for k in ag if k not in mm]
diff = [k for k in names if mm.get(k) != ag.get(k)]
with open(diff_path, "w") as f:
    if mm_head != ag_head:
        f.write("## header\n< " + "< ".join(mm_head) + "> " + "> ".join(ag_head))
    for k in diff:
        f.write(f"## {k}\n< " + "< ".join(map(brief, mm.get(k, []))) + "> " + "> ".join(map(brief, ag.get(k, []))))
header_same = ("yes" if mm_head == ag_head else "no") if mode == "sam" else "-"
print(len(names), sum(map(len, mm.values())), same, len(names) - len(diff), len(diff), header_same)
EOF
}

# median_stats PREFIX: "median-wall max-rss" over the files PREFIX.1 .. PREFIX.REPEATS.
median_stats() {
  local i
  for ((i = 1; i <= REPEATS; i++)); do cat "$1.$i"; done | sort -g -k1,1 |
    awk '{w[NR] = $1; if ($2 > m) m = $2} END{printf "%s %s\n", (NR % 2 ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2), m}'
}

count_reads() {
  local f
  if [[ $1 == *.bam ]]; then samtools view -c "$1"; return; fi
  for f in "$@"; do
    case $f in *.gz) zcat "$f" ;; *) cat "$f" ;; esac
  done | awk 'NR%4==1' | wc -l
}

if [[ $MODE = sam ]]; then
  header="set\trelease\tpreset\treads\tmm2_records\tidentical_records\tidentical_reads\tagreement\tdiff_reads\theader"
  mm2_mode=(-a) agatha_mode=()
else
  header="set\trelease\tpreset\treads\tmapped_reads\tmm2_lines\tidentical\tdiff_reads"
  mm2_mode=() agatha_mode=(--map-only)
fi
header+="\tmm2_s\tagatha_s\ttime_ratio\tmm2_MiB\tagatha_MiB\tmem_ratio"
rows=()
for set in $SETS; do
  mates=()  # the second reads file of a paired set
  case $set in
    pb) prepare_pb; ref=$DATA/pb.ref.fa reads=$DATA/pb.reads.fq preset=map-pb ;;
    ont) prepare_ont; ref=$DATA/dh10b.fa reads=$DATA/ont.reads.fq.gz preset=map-ont ;;
    ontbam) prepare_ontbam; ref=$DATA/dh10b.fa reads=$DATA/ont.reads.bam preset=map-ont ;;
    hifi) prepare_hifi; ref=$DATA/dh10b.fa reads=$DATA/hifi.reads.fq preset=map-hifi ;;
    rep) prepare_rep; ref=$DATA/rep.fa reads=$DATA/rep.reads.fq preset=map-ont ;;
    rephifi) prepare_rephifi; ref=$DATA/rep.fa reads=$DATA/rephifi.reads.fq preset=map-hifi ;;
    splice) prepare_splice; ref=$DATA/splice/genome.fa.gz reads=$DATA/splice/ont.fq.gz preset=splice ;;
    srpe) prepare_srpe; ref=$DATA/dh10b.fa reads=$DATA/srpe.r1.fq.gz mates=("$DATA/srpe.r2.fq.gz") preset=sr ;;
    *) log "unknown set '$set'"; exit 1 ;;
  esac
  if [[ -n ${PREPARE_ONLY:-} ]]; then
    log "$set: $ref $reads"
    continue
  fi
  for rel in $RELEASES; do
    mm2_cmd=("$(minimap2_of "$rel")" "${mm2_mode[@]}" -x "$preset" -t "$THREADS" "$ref" "$reads" "${mates[@]}")
    if [[ $reads == *.bam ]]; then  # minimap2 reads FASTA/FASTQ: samtools converts the BAM
      mm2_cmd=(bash -c 'set -o pipefail; samtools fastq -T "*" "$1" 2>/dev/null | "${@:2}" -' _ "$reads"
        "$(minimap2_of "$rel")" "${mm2_mode[@]}" -x "$preset" -t "$THREADS" "$ref")
    fi
    agatha_cmd=("$AGATHA" align --compat "$rel" "${agatha_mode[@]}" "${AGATHA_OPTS[@]}" -x "$preset" -t "$THREADS" "$ref" "$reads"
      "${mates[@]}")
    for ((rep = 1; rep <= REPEATS; rep++)); do
      log "$set ($rel): ${mm2_cmd[*]}"
      measure "$OUT/$set.$rel.mm2.$MODE" "$OUT/$set.$rel.mm2.$MODE.stats.$rep" "${mm2_cmd[@]}"
      log "$set ($rel): ${agatha_cmd[*]}"
      measure "$OUT/$set.$rel.agatha.$MODE" "$OUT/$set.$rel.agatha.$MODE.stats.$rep" "${agatha_cmd[@]}"
    done
    read -r n_seen mm_lines same same_reads diff_reads header_same < <(compare "$OUT/$set.$rel.mm2.$MODE" \
      "$OUT/$set.$rel.agatha.$MODE" "$OUT/$set.$rel.$MODE.diff")
    read -r mm_s mm_kb < <(median_stats "$OUT/$set.$rel.mm2.$MODE.stats")
    read -r ag_s ag_kb < <(median_stats "$OUT/$set.$rel.agatha.$MODE.stats")
    n_reads=$(count_reads "$reads")  # paired sets: pairs (their records share a name)
    if [[ $MODE = sam ]]; then
      row=$(awk -v s="$set" -v r="$rel" -v p="$preset" -v n="$n_reads" -v ml="$mm_lines" -v sa="$same" -v sr="$same_reads" \
        -v d="$diff_reads" -v h="$header_same" 'BEGIN{
          printf "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%.2f%%\t%d\t%s", s, r, p, n, ml, sa, sr, (n > 0 ? 100 * sr / n : 0), d, h}')
    else
      row=$(printf '%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d' "$set" "$rel" "$preset" "$n_reads" "$n_seen" "$mm_lines" "$same" "$diff_reads")
    fi
    rows+=("$row$(awk -v ms="$mm_s" -v as="$ag_s" -v mk="$mm_kb" -v ak="$ag_kb" 'BEGIN{
        printf "\t%.2f\t%.2f\t%.2f\t%.1f\t%.1f\t%.2f",
          ms, as, (ms > 0 ? as / ms : 0), mk / 1024, ak / 1024, (mk > 0 ? ak / mk : 0)}')")
  done
done

[[ -z ${PREPARE_ONLY:-} ]] || exit 0
if [[ -n $RESULTS ]]; then
  { printf '%b\n' "$header"; printf '%s\n' "${rows[@]}"; } > "$RESULTS"
fi
{
  printf '%b\n' "$header"
  printf '%s\n' "${rows[@]}"
} | column -t -s $'\t'
