#!/usr/bin/env python3
"""Writes the derived inputs of the e2e fixtures (see README.md); deterministic.

  make-inputs.py mt-sub READS.fq OUT.fq
      the first 10 reads of the bundled example with FASTQ comments (SAM tags, for -y)
      added to most of them, then two reads that cannot map (random 1,500 bp; 12 bp)
  make-inputs.py slice REF.fa NAME START END OUT.fa
      bases START..END (1-based, inclusive) of the first sequence, as sequence NAME
  make-inputs.py pick-ont MAPPING.paf START END READS.fq.gz OUT.fq
      ONT reads for a reference slice, chosen from minimap2's mapping-only PAF of all
      reads against the whole genome (rules in pick_ont)
  make-inputs.py long-cigar OUT_REF.fa OUT_READS.fa
      a random 130 kb reference and one 120 kb read (reverse strand) whose --eqx CIGAR
      has more than 65,535 operations: blocks of 60 exact bases alternate with 100
      bases in which every other base is substituted
  make-inputs.py pairs SEED R1.fq.gz R2.fq.gz OUT_R1.fq OUT_R2.fq OUT_IL.fq
      dwgsim's read pairs with some mates changed so that pairing has improper cases
      (rules in pairs): a random mate (unmapped), a mate reverse-complemented (wrong
      strand), a mate swapped with a far pair's, both mates random; written as two
      files and as one interleaved file in which a few pairs lost their second mate
  make-inputs.py pairs-plain-names R1.fq.gz R2.fq.gz OUT_R1.fq OUT_R2.fq
      the pairs with the /1 and /2 of their names dropped (equal names in both files)
  make-inputs.py sr-reads SEED REF.fa OUT.fq DWGSIM.fq.gz...
      short reads for the sr preset: dwgsim's single-end reads of the files in turn,
      each name dwgsim's prefixed with rN_ (N counting the reads from 1: dwgsim's names
      repeat across files), where every 12th read gets 1-3 N bases and every 40th
      a run of 20 N; then 30 reads of 150 bp from the first sequence of REF (half of them
      reverse-complemented) with a cluster of substitutions in the middle, 10-21 within 25
      bases (24 reads) or 30-35 within 45 (6 reads), so that the ungapped alignment of
      their anchors' diagonal drops by about the Z-drop threshold or far more; then four
      reads that cannot map
      or barely can: one of all N, one of 15 bases (shorter than k), one 150 bp read of
      random bases, and one half N
  make-inputs.py overlap-pairs SEED N REF.fa OUT_R1.fq OUT_R2.fq
      N pairs of 150 bp reads of fragments of 120-260 bp of the first sequence of REF
      (so that the two reads of most pairs overlap and share k-mers), 1% substitutions;
      the first read from either end of the fragment
  make-inputs.py mods SEED READS.fq.gz OUT.fq
      the first 12 reads, then 4 chimeras (a read's second half joined to the reverse complement
      of another's first half: supplementary records on both strands), each header
      replaced by the name and ONT-style SAM tags: base modifications (MM/ML: C+mh? with
      two probabilities a call, A+a., and in turn G-m? with T+17802. or N+n?; every 7th
      read none), qs:i, ch:i and du:f, for `samtools import -T '*'`
"""
import gzip
import random
import sys

COMP = str.maketrans("ACGT", "TGCA")


def fastq_records(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        while True:
            head = f.readline()
            if not head:
                return
            seq, plus, qual = f.readline(), f.readline(), f.readline()
            assert head[0] == "@" and plus[0] == "+", f"{path}: not 4-line FASTQ at {head!r}"
            yield head.rstrip("\n"), seq.rstrip("\n"), qual.rstrip("\n")


def write_fasta(f, name, seq, width=60):
    f.write(f">{name}\n")
    for i in range(0, len(seq), width):
        f.write(seq[i:i + width] + "\n")


def read_fasta_first(path):
    opener = gzip.open if path.endswith(".gz") else open
    seq, seen = [], False
    with opener(path, "rt") as f:
        for line in f:
            if line.startswith(">"):
                if seen:
                    break
                seen = True
            else:
                seq.append(line.strip())
    return "".join(seq)


# Comments for -y: a tab or a space after the name, one or two tags, and none.
MT_COMMENTS = ["BC:Z:ACGTACGT", "BC:Z:TTAGGC\tXI:i:7", None, "XS:Z:space-separated", None]


def mt_sub(reads, out):
    rng = random.Random(20240601)
    with open(out, "w") as f:
        for i, (head, seq, qual) in enumerate(fastq_records(reads)):
            if i == 10:
                break
            comment = MT_COMMENTS[i % len(MT_COMMENTS)]
            sep = " " if comment and comment.startswith("XS") else "\t"
            f.write(f"{head}{sep + comment if comment else ''}\n{seq}\n+\n{qual}\n")
        rand = "".join(rng.choice("ACGT") for _ in range(1500))
        f.write(f"@random_1500\tXR:Z:random\n{rand}\n+\n{'5' * len(rand)}\n")
        f.write(f"@short_12\n{rand[:12]}\n+\n{'5' * 12}\n")


def slice_ref(ref, name, start, end, out):
    seq = read_fasta_first(ref)
    with open(out, "w") as f:
        write_fasta(f, name, seq[int(start) - 1:int(end)])


def pick_ont(paf, start, end, reads, out):
    """Reads of at most 40 kb with a primary chromosome mapping that overlaps
    [START, END] (1-based); the first two reads of at most 10 kb mapped only to the
    control sequence or at least 500 kb away from the window; the first read of at most
    10 kb without any mapping. Written in input order."""
    lo, hi = int(start) - 1, int(end)
    by_read = {}
    for line in open(paf):
        f = line.rstrip("\n").split("\t")
        by_read.setdefault(f[0], []).append(f)
    chosen, far, nohit = set(), [], []
    for head, seq, _ in fastq_records(reads):
        name, n = head[1:].split()[0], len(seq)
        maps = by_read.get(name, [])
        prim = [f for f in maps if "tp:A:P" in f and not f[5].startswith("DNA_CS")]
        if n <= 40000 and any(int(f[7]) < hi and int(f[8]) > lo for f in prim):
            chosen.add(name)
        elif n <= 10000 and maps and len(far) < 2 and all(
                f[5].startswith("DNA_CS") or int(f[8]) < lo - 500000 or int(f[7]) > hi + 500000 for f in maps):
            far.append(name)
        elif n <= 10000 and not maps and len(nohit) < 1:
            nohit.append(name)
    chosen.update(far, nohit)
    with open(out, "w") as f:
        for head, seq, qual in fastq_records(reads):
            if head[1:].split()[0] in chosen:
                f.write(f"{head}\n{seq}\n+\n{qual}\n")


def long_cigar(out_ref, out_reads):
    rng = random.Random(65536)
    ref = "".join(rng.choice("ACGT") for _ in range(130000))
    src = ref[5000:125000]
    read = []
    for i, b in enumerate(src):
        if i % 160 >= 60 and i % 2 == 1:
            b = rng.choice([c for c in "ACGT" if c != b])
        read.append(b)
    read = "".join(read).translate(COMP)[::-1]
    with open(out_ref, "w") as f:
        write_fasta(f, "synth", ref)
    with open(out_reads, "w") as f:
        write_fasta(f, "dense_mismatches", read)


def random_bases(rng, n):
    return "".join(rng.choice("ACGT") for _ in range(n))


def write_fastq(f, head, seq, qual):
    f.write(f"{head}\n{seq}\n+\n{qual}\n")


def pairs(seed, r1, r2, out1, out2, out_il):
    rng = random.Random(int(seed))
    p1, p2 = list(fastq_records(r1)), list(fastq_records(r2))
    assert len(p1) == len(p2)
    n = len(p1)
    p2 = [list(r) for r in p2]
    p1 = [list(r) for r in p1]
    # Every 12th pair from the 3rd: random second mate; from the 5th: second mate
    # reverse-complemented; from the 7th: second mate of the pair n/2 further (another
    # place of the reference); from the 9th: both mates random.
    for i in range(n):
        if i % 12 == 3:
            p2[i][1] = random_bases(rng, len(p2[i][1]))
        elif i % 12 == 5:
            p2[i][1] = p2[i][1].translate(COMP)[::-1]
            p2[i][2] = p2[i][2][::-1]
        elif i % 12 == 7:
            j = (i + n // 2) % n
            p2[i][1], p2[i][2] = p2[j][1], p2[j][2]
        elif i % 12 == 9:
            p1[i][1] = random_bases(rng, len(p1[i][1]))
            p2[i][1] = random_bases(rng, len(p2[i][1]))
    with open(out1, "w") as f1, open(out2, "w") as f2, open(out_il, "w") as fi:
        for i in range(n):
            write_fastq(f1, *p1[i])
            write_fastq(f2, *p2[i])
            write_fastq(fi, *p1[i])
            if i % 10 != 8:  # every 10th pair from the 9th: no second mate in the interleaved file
                write_fastq(fi, *p2[i])


def pairs_plain_names(r1, r2, out1, out2):
    for src, out in ((r1, out1), (r2, out2)):
        with open(out, "w") as f:
            for head, seq, qual in fastq_records(src):
                name = head.split()[0]
                assert name[-2] == "/", name
                write_fastq(f, name[:-2], seq, qual)


def sr_reads(seed, ref, out, *dwgsim):
    rng = random.Random(int(seed))
    genome = read_fasta_first(ref).upper()
    n = 0
    with open(out, "w") as f:
        for path in dwgsim:
            for head, seq, qual in fastq_records(path):
                seq = list(seq)
                n += 1
                if n % 12 == 0:
                    for _ in range(rng.randint(1, 3)):
                        seq[rng.randrange(len(seq))] = "N"
                if n % 40 == 0:
                    st = rng.randrange(len(seq) - 20)
                    seq[st:st + 20] = "N" * 20
                f.write(f"@r{n}_{head[1:]}\n{''.join(seq)}\n+\n{qual}\n")
        for i in range(30):
            st = rng.randrange(len(genome) - 150)
            seq = list(genome[st:st + 150])
            c0 = rng.randrange(40, 85)
            w, n_sub = (25, 10 + i % 12) if i < 24 else (45, 30 + i % 6)
            for p in rng.sample(range(c0, c0 + w), n_sub):
                seq[p] = rng.choice([b for b in "ACGT" if b != seq[p]])
            seq = "".join(seq)
            strand = "+"
            if i % 2 == 1:
                seq, strand = seq.translate(COMP)[::-1], "-"
            f.write(f"@sr_dense_{i}_{st + 1}{strand}\n{seq}\n+\n{'5' * len(seq)}\n")
        rand = "".join(rng.choice("ACGT") for _ in range(150))
        tail = [("sr_all_N", "N" * 100), ("sr_short_15", rand[:15]), ("sr_random_150", rand),
                ("sr_half_N", "N" * 75 + rand[75:])]
        for name, seq in tail:
            f.write(f"@{name}\n{seq}\n+\n{'5' * len(seq)}\n")


def overlap_pairs(seed, n, ref, out1, out2):
    rng = random.Random(int(seed))
    seq = read_fasta_first(ref)

    def mutate(s):
        return "".join(rng.choice("ACGT") if rng.random() < 0.01 else c for c in s)

    with open(out1, "w") as f1, open(out2, "w") as f2:
        for i in range(int(n)):
            length = rng.randint(120, 260)
            start = rng.randint(0, len(seq) - length)
            frag = seq[start:start + length]
            a, b = mutate(frag[:150]), mutate(frag.translate(COMP)[::-1][:150])
            if rng.random() < 0.5:
                a, b = b, a
            write_fastq(f1, f"@ov{i}/1", a, "I" * len(a))
            write_fastq(f2, f"@ov{i}/2", b, "I" * len(b))


def mod_calls(rng, seq, base, rate):
    """MM skip counts of random calls on bases equal to `base` (N: every base)."""
    skips, run = [], 0
    for b in seq:
        if base != "N" and b != base:
            continue
        if rng.random() < rate:
            skips.append(run)
            run = 0
        else:
            run += 1
    return skips


def mods(seed, reads, out):
    rng = random.Random(int(seed))
    recs = [(h[1:].split()[0], s, q) for h, s, q in fastq_records(reads)][:12]
    for k in range(4):
        a, b = recs[3 * k], recs[3 * k + 1]
        ha, hb = len(a[1]) // 2, len(b[1]) // 2
        seq = a[1][ha:] + b[1][:hb].translate(COMP)[::-1]
        recs.append((f"chimera{k}", seq, a[2][ha:] + b[2][:hb][::-1]))
    with open(out, "w") as f:
        for k, (name, seq, qual) in enumerate(recs):
            tags = []
            if k % 7 != 6:
                types = [("C+mh?", mod_calls(rng, seq, "C", 0.6), 2), ("A+a.", mod_calls(rng, seq, "A", 0.2), 1)]
                if k % 2:
                    types += [("G-m?", mod_calls(rng, seq, "G", 0.3), 1), ("T+17802.", mod_calls(rng, seq, "T", 0.05), 1)]
                else:
                    types.append(("N+n?", mod_calls(rng, seq, "N", 0.01), 1))
                mm = "".join(t + "".join(f",{x}" for x in skips) + ";" for t, skips, _ in types)
                ml = [rng.randint(0, 255) for _, skips, n in types for _ in range(len(skips) * n)]
                tags += [f"MM:Z:{mm}", "ML:B:C" + "".join(f",{p}" for p in ml)]
            tags += [f"qs:i:{rng.randint(7, 25)}", f"ch:i:{rng.randint(1, 512)}", f"du:f:{rng.uniform(0.5, 9):.4f}"]
            write_fastq(f, "@" + name + "\t" + "\t".join(tags), seq, qual)


if __name__ == "__main__":
    cmds = {"mt-sub": mt_sub, "slice": slice_ref, "pick-ont": pick_ont, "long-cigar": long_cigar, "pairs": pairs,
            "pairs-plain-names": pairs_plain_names, "sr-reads": sr_reads,
            "overlap-pairs": overlap_pairs, "mods": mods}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](*sys.argv[2:])
