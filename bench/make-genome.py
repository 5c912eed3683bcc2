#!/usr/bin/env python3
"""Writes a deterministic synthetic genome with interspersed and tandem repeats, for the
benchmarks (bench/mapping.sh's `rep` sets, bench/index.sh).

  bench/make-genome.py --size-mb 12 --contigs 6 --seed 1 > rep.fa

Each contig is unique random sequence in which copies of repeat families are inserted
until --repeat-frac of it is repeats: 100 families of 300-6,000 bp, each copy a piece of
its family's consensus on either strand with 0-15% substitutions and a few small indels,
and tandem arrays (units of 2-200 bp, 10-100 copies). The same arguments always give the
same bytes.
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size-mb", type=float, default=12)
    ap.add_argument("--contigs", type=int, default=6)
    ap.add_argument("--repeat-frac", type=float, default=0.3)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    families = [random_bases(rng, rng.randrange(300, 6001)) for _ in range(100)]
    contig_len = int(a.size_mb * 1e6 / a.contigs)
    out = sys.stdout.buffer
    for c in range(a.contigs):
        parts, length, rep = [], 0, 0
        while length < contig_len:
            if rep < a.repeat_frac * max(length, 1):
                piece = tandem(rng) if rng.random() < 0.1 else repeat_copy(rng, families)
                rep += len(piece)
            else:
                piece = random_bases(rng, rng.randrange(2000, 20001))
            parts.append(piece)
            length += len(piece)
        seq = b"".join(parts)[:contig_len]
        out.write(b">chr%d\n" % (c + 1))
        for i in range(0, len(seq), 80):
            out.write(seq[i:i + 80] + b"\n")


if __name__ == "__main__":
    main()
