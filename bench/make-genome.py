#!/usr/bin/env python3
"""Writes a deterministic synthetic genome with interspersed and tandem repeats, for the
benchmarks (bench/mapping.sh's `rep` sets, bench/index.sh).

  bench/make-genome.py --size-mb 12 --contigs 6 --seed 1 > rep.fa
  bench/make-genome.py --lengths-mb 6,4,2 --seed 1 > asm.fa          (contigs of these sizes)
  bench/make-genome.py --copy-of asm.fa --divergence 0.003 --seed 2 > asm.q.fa
  bench/make-genome.py --copy-of asm.fa --divergence 0.003 --seed 2 --join one > one.fa

Each contig is unique random sequence in which copies of repeat families are inserted
until --repeat-frac of it is repeats: 100 families of 300-6,000 bp, each copy a piece of
its family's consensus on either strand with 0-15% substitutions and a few small indels,
and tandem arrays (units of 2-200 bp, 10-100 copies). The same arguments always give the
same bytes.

--copy-of FASTA writes a diverged copy of each sequence of FASTA instead (named NAME_q):
substitutions at the rate --divergence and small indels (1-3 bp) a tenth as often, with
--join NAME the copies joined end to end into one sequence NAME (a whole genome as one
query).
"""
import argparse
import random
import sys

COMP = bytes.maketrans(b"ACGT", b"TGCA")
TO_BASE = bytes((b"ACGT"[i & 3] for i in range(256)))


def random_bases(rng, n):
    return bytearray(rng.randbytes(n).translate(TO_BASE))


def mutate(rng, seq, div):
    s = bytearray(seq)
    for _ in range(int(len(s) * div)):
        i = rng.randrange(len(s))
        s[i] = b"ACGT"[(b"ACGT".index(s[i]) + rng.randrange(1, 4)) & 3]
    for _ in range(int(len(s) * div / 10)):  # small indels, a tenth as many
        i = rng.randrange(len(s))
        if rng.random() < 0.5:
            del s[i:i + rng.randrange(1, 4)]
        else:
            s[i:i] = random_bases(rng, rng.randrange(1, 4))
    return s


def repeat_copy(rng, families):
    fam = rng.choice(families)
    start = rng.randrange(0, max(1, len(fam) // 3))
    piece = fam[start:start + rng.randrange(len(fam) // 2, len(fam) + 1)]
    piece = mutate(rng, piece, rng.uniform(0.0, 0.15))
    if rng.random() < 0.5:
        piece = bytearray(bytes(piece)[::-1].translate(COMP))
    return piece


def tandem(rng):
    unit = random_bases(rng, rng.choice([2, 3, 4, 6, 12, 30, 60, 120, 200]))
    return mutate(rng, unit * rng.randrange(10, 101), rng.uniform(0.0, 0.05))


def read_fasta(path):
    name, parts = None, []
    with open(path, "rb") as f:
        for line in f:
            line = line.rstrip(b"\r\n")
            if line.startswith(b">"):
                if name is not None:
                    yield name, b"".join(parts)
                name, parts = line[1:].split()[0], []
            else:
                parts.append(line.upper())
    if name is not None:
        yield name, b"".join(parts)


def write_fasta(out, name, seq):
    out.write(b">" + name + b"\n")
    for i in range(0, len(seq), 80):
        out.write(seq[i:i + 80] + b"\n")


def copy_genome(a, out):
    rng = random.Random(a.seed)
    copies = []
    for name, seq in read_fasta(a.copy_of):
        seq = bytes(seq).translate(bytes.maketrans(b"NRYKMSWBDHV", b"AAAAAAAAAAA"))
        copy = bytes(mutate(rng, seq, a.divergence))
        if a.join:
            copies.append(copy)
        else:
            write_fasta(out, name + b"_q", copy)
    if a.join:
        write_fasta(out, a.join.encode(), b"".join(copies))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size-mb", type=float, default=12)
    ap.add_argument("--contigs", type=int, default=6)
    ap.add_argument("--lengths-mb", help="comma-separated contig sizes (instead of --size-mb/--contigs)")
    ap.add_argument("--repeat-frac", type=float, default=0.3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--copy-of", help="FASTA to copy with divergence (instead of a new genome)")
    ap.add_argument("--divergence", type=float, default=0.003)
    ap.add_argument("--join", help="with --copy-of: one sequence of this name")
    a = ap.parse_args()
    out = sys.stdout.buffer
    if a.copy_of:
        copy_genome(a, out)
        return
    rng = random.Random(a.seed)
    families = [random_bases(rng, rng.randrange(300, 6001)) for _ in range(100)]
    if a.lengths_mb:
        lengths = [int(float(x) * 1e6) for x in a.lengths_mb.split(",")]
    else:
        lengths = [int(a.size_mb * 1e6 / a.contigs)] * a.contigs
    for c, contig_len in enumerate(lengths):
        parts, length, rep = [], 0, 0
        while length < contig_len:
            if rep < a.repeat_frac * max(length, 1):
                piece = tandem(rng) if rng.random() < 0.1 else repeat_copy(rng, families)
                rep += len(piece)
            else:
                piece = random_bases(rng, rng.randrange(2000, 20001))
            parts.append(piece)
            length += len(piece)
        write_fasta(out, b"chr%d" % (c + 1), b"".join(parts)[:contig_len])


if __name__ == "__main__":
    main()
