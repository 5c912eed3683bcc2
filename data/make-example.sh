#!/bin/sh
# Regenerates the bundled example in data/ (see data/README.md).
#
#   sh data/make-example.sh            # from the repository root, or
#   sh make-example.sh                 # from inside data/
#
# Needs the Debian packages minimap2 (2.24+dfsg-3, for the reference in its
# test data) and pbsim (1.0.3+git20180330.e014b1d+dfsg-3, prints "pbsim 1.0.4"),
# plus gzip.  MM2_TEST and PBSIM_MODELS may point elsewhere.
# pbsim is deterministic for a fixed --seed, so the outputs are byte-identical
# to the committed files (checksums in data/README.md).
set -eu

DATA=$(cd "$(dirname "$0")" && pwd)
MM2_TEST=${MM2_TEST:-/usr/share/doc/minimap2/test}
PBSIM_MODELS=${PBSIM_MODELS:-/usr/share/pbsim/models}
SEED=42

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM

# 1. Reference: orang-utan mitochondrial genome from minimap2's test data.
#    Only change: the header comment " co:Z:comment" is dropped so that the
#    sequence name is the single word MT_orang (pbsim copies the whole header
#    line into the MAF name field, where a space would break the format).
gzip -dc "$MM2_TEST/MT-orang.fa.gz" | sed '1s/^>\([^ ]*\).*$/>\1/' > "$DATA/ref.fa"

# 2. PacBio CLR-like reads simulated with pbsim (model-based, fixed seed).
(
  cd "$TMP"
  pbsim --prefix sd \
        --data-type CLR \
        --depth 30 \
        --model_qc "$PBSIM_MODELS/model_qc_clr" \
        --length-mean 3300 --length-sd 1300 \
        --length-min 1000 --length-max 8000 \
        --seed "$SEED" \
        "$DATA/ref.fa" > pbsim.log 2>&1
)
cp "$TMP/sd_0001.fastq" "$DATA/reads.fq"
gzip -9n -c "$TMP/sd_0001.maf" > "$DATA/reads.maf.gz"
grep -E 'read (num|length|accuracy)|rate' "$TMP/pbsim.log" || true

# 3. Guided-DP golden tasks (recorded from minimap2 2.24), if available.
if [ -n "${GOLDEN:-}" ] && [ -f "$GOLDEN/mt.golden.tsv.gz" ]; then
  cat "$GOLDEN/mt.golden.tsv.gz" > "$DATA/mt.dp.tsv.gz"
fi
