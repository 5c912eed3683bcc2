#!/usr/bin/env python3
"""The Snakemake workflow (workflow/Snakefile) run locally, as CI runs it.

1. The bundled example (data/ref.fa, data/reads.fq) in 4 chunks, formats sam, paf and
   bam: the gathered SAM equals one `agatha align` run over all the reads (@PG lines
   aside), the PAF equals one `agatha align -c` run, and `samtools view -h` of the
   merged BAM equals that of one `agatha align --sort` run and that of `samtools sort`
   of one unsorted run (@PG lines aside); samtools quickcheck accepts it and its index
   is there. The split made 4 chunks, and no chunk file or per-chunk result is left.
2. Gzip reads in which every read comes three times, the copies in different chunks (3
   chunks): equal positions across chunks, and unmapped reads, merge in read order.

Exit code 77 (meson: skipped) when snakemake is not installed; without samtools the
BAM part is left out, with a note. Run by meson (suite workflow) with AGATHA_SOURCE_DIR
and AGATHA_BINARY set.
"""

import gzip
import os
import shutil
import subprocess
import sys
import tempfile

SOURCE = os.path.abspath(os.environ.get("AGATHA_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..")))
AGATHA = os.environ.get("AGATHA_BINARY", os.path.join(SOURCE, "build", "agatha"))
SKIP = 77

failures = []


def check(ok, what):
    print(("ok:   " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, **kw)
    if r.returncode != 0:
        sys.stderr.write(f"command failed ({r.returncode}): {' '.join(cmd)}\n{r.stderr.decode(errors='replace')[-3000:]}\n")
        raise SystemExit(1)
    return r.stdout


def without_pg(text):
    return b"".join(line for line in text.splitlines(keepends=True) if not line.startswith(b"@PG"))


def first_difference(a, b):
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return f"line {i + 1}:\n  want {x[:200]!r}\n  got  {y[:200]!r}"
    return f"{len(la)} lines against {len(lb)}" if len(la) != len(lb) else ""


def same(want, got, what):
    diff = first_difference(want, got)
    check(want == got and len(want) > 0, what + ("" if not diff else "; first difference at " + diff))


def snakemake(workdir, reference, reads, chunks, formats):
    cmd = ["snakemake", "-s", os.path.join(SOURCE, "workflow", "Snakefile"), "--directory", workdir, "--cores", "2",
           "--quiet", "--config", f"reference={reference}", f"reads={reads}", f"agatha={AGATHA}",
           f"chunks={chunks}", f"formats=[{','.join(formats)}]", "threads=1"]
    print("$ " + " ".join(cmd))
    run(cmd)
    return os.path.join(workdir, "results")


def agatha(*args):
    run([AGATHA, "align", *args])


def check_leftovers(results):
    left = [d for d in ("chunks", "aln") if os.path.isdir(os.path.join(results, d)) and os.listdir(os.path.join(results, d))]
    check(not left, "no chunk file or per-chunk result left (" + ", ".join(left) + ")")


def check_bam(results, tmp, reference, reads, tag):
    bam = os.path.join(results, "example.bam")
    sorted_once = os.path.join(tmp, tag + ".single.sorted.bam")
    plain_once = os.path.join(tmp, tag + ".single.bam")
    by_samtools = os.path.join(tmp, tag + ".single.samtools.bam")
    agatha("-x", "map-pb", reference, reads, "-o", sorted_once, "--sort")
    agatha("-x", "map-pb", reference, reads, "-o", plain_once)
    run(["samtools", "sort", "-o", by_samtools, plain_once])
    got = without_pg(run(["samtools", "view", "-h", bam]))
    check(got.startswith(b"@HD\tVN:1.6\tSO:coordinate\n"), f"{tag}: the merged BAM is coordinate-sorted")
    same(without_pg(run(["samtools", "view", "-h", sorted_once])), got,
         f"{tag}: samtools view of the merged BAM equals one agatha align --sort run")
    same(without_pg(run(["samtools", "view", "-h", by_samtools])), got,
         f"{tag}: samtools view of the merged BAM equals samtools sort of one agatha align run")
    run(["samtools", "quickcheck", bam])
    check(os.path.exists(bam + ".csi"), f"{tag}: the merged BAM's index exists")
    run(["samtools", "idxstats", bam])


def main():
    if shutil.which("snakemake") is None:
        print("SKIP: snakemake is not installed (scripts/install-deps.sh installs it); the workflow is not tested")
        return SKIP
    if not os.access(AGATHA, os.X_OK):
        print(f"FAIL: no agatha binary at {AGATHA}")
        return 1
    have_samtools = shutil.which("samtools") is not None
    if not have_samtools:
        print("NOTE: samtools is not installed: the sorted-BAM part of the workflow is not tested")
    formats = ["sam", "paf"] + (["bam"] if have_samtools else [])
    reference = os.path.join(SOURCE, "data", "ref.fa")

    with tempfile.TemporaryDirectory() as tmp:
        # 1. The bundled example in 4 chunks.
        reads = os.path.join(SOURCE, "data", "reads.fq")
        results = snakemake(os.path.join(tmp, "run1"), reference, reads, 4, formats)
        with open(os.path.join(results, "logs", "split_reads.log")) as f:
            split_log = f.read()
        check(split_log.count(" reads, ") == 4 and " 0 reads" not in split_log, "the reads went into 4 chunks")
        single_sam = os.path.join(tmp, "single.sam")
        single_paf = os.path.join(tmp, "single.paf")
        agatha("-x", "map-pb", reference, reads, "-o", single_sam)
        agatha("-c", "-x", "map-pb", reference, reads, "-o", single_paf)
        with open(os.path.join(results, "example.sam"), "rb") as f:
            gathered = f.read()
        with open(single_sam, "rb") as f:
            once = f.read()
        same(without_pg(once), without_pg(gathered), "the gathered SAM equals one agatha align run, @PG aside")
        check(gathered.count(b"\n@PG") + gathered.startswith(b"@PG") == 1, "the gathered SAM has one @PG line")
        with open(os.path.join(results, "example.paf"), "rb") as f, open(single_paf, "rb") as g:
            same(g.read(), f.read(), "the gathered PAF equals one agatha align -c run")
        if have_samtools:
            check_bam(results, tmp, reference, reads, "example")
        check_leftovers(results)

        # 2. Every read three times, gzip, the copies in different chunks.
        with gzip.open(os.path.join(SOURCE, "tests", "data", "e2e", "mt.sub.fq.gz"), "rb") as f:
            lines = f.read().split(b"\n")
        tripled = b""
        for copy in range(3):
            for i in range(0, len(lines) - 1, 4):
                name = lines[i].split()[0]
                tripled += name + b"_" + str(copy).encode() + b"\n" + lines[i + 1] + b"\n+\n" + lines[i + 3] + b"\n"
        reads = os.path.join(tmp, "tripled.fq.gz")
        with gzip.open(reads, "wb") as g:
            g.write(tripled)
        results = snakemake(os.path.join(tmp, "run2"), reference, reads, 3, ["sam"] + (["bam"] if have_samtools else []))
        with open(os.path.join(results, "logs", "split_reads.log")) as f:
            check(f.read().count(": 12 reads, ") == 3, "tripled reads: one copy of every read in each of the 3 chunks")
        agatha("-x", "map-pb", reference, reads, "-o", single_sam)
        with open(os.path.join(results, "example.sam"), "rb") as f, open(single_sam, "rb") as g:
            same(without_pg(g.read()), without_pg(f.read()), "tripled reads: the gathered SAM equals one run")
        if have_samtools:
            check_bam(results, tmp, reference, reads, "tripled")
        check_leftovers(results)

    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
