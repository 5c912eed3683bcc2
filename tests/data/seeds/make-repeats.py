#!/usr/bin/env python3
"""Writes rep.fa.gz and rep.fq: a small repeat-rich reference and reads sampled from it.

Deterministic (fixed seed, Python's random module). The reference has three sequences:
two of random bases with a 1 kb element copied 16 times (about 1% of bases mutated per
copy), short tandem repeats, low-complexity runs, lower-case stretches and N runs; the
third ends in a 160 kb perfect tandem array of a 37 bp unit (minimizers occurring more
than 4095 times). Reads are 1.5-4 kb, from both strands, with about 8% substitutions,
insertions and deletions, a few with Ns; two reach into the tandem array.
They exercise the high-occurrence seed selection, rep_len, equal anchor keys in the
radix sort, and mid_occ above minimap2's lower clamp.
"""
import gzip
import io
import random

rng = random.Random(20240611)
B = "ACGT"


def rand_seq(n):
    return "".join(rng.choice(B) for _ in range(n))


def mutate(s, rate):
    out = []
    for c in s:
        r = rng.random()
        if r < rate / 3:
            out.append(rng.choice(B))
        elif r < 2 * rate / 3:
            out.append(c + rng.choice(B))
        elif r < rate:
            continue
        else:
            out.append(c)
    return "".join(out)


def revcomp(s):
    return s[::-1].translate(str.maketrans("ACGTNacgtn", "TGCANtgcan"))


element = rand_seq(1000)
unit = rand_seq(37)
chroms = []
for ci in range(3):
    parts = []
    for j in range(8):
        parts.append(rand_seq(rng.randint(800, 3000)))
        parts.append(mutate(element, 0.01))
        if j % 5 == 2:
            parts.append(unit * rng.randint(10, 40))
        if j % 7 == 3:
            parts.append("N" * rng.randint(1, 30))
        if j % 6 == 4:
            parts.append("A" * rng.randint(20, 60) + "CA" * rng.randint(10, 30))
        if j % 4 == 1:
            parts.append(rand_seq(400).lower())
    if ci == 2:
        parts.append(unit * (160000 // len(unit)))
    chroms.append("".join(parts))

with gzip.GzipFile("rep.fa.gz", "wb", mtime=0) as gz, io.TextIOWrapper(gz) as f:
    for ci, s in enumerate(chroms):
        f.write(">chr%d repeat-rich\n" % (ci + 1))
        for i in range(0, len(s), 70):
            f.write(s[i:i + 70] + "\n")

with open("rep.fq", "w") as f:
    for ri in range(10):
        s = chroms[ri % 2] if ri < 8 else chroms[2]
        n = rng.randint(1500, 4000)
        st = rng.randrange(len(s) - n) if ri < 8 else len(chroms[2]) - 160000 - n // 2
        r = mutate(s[st:st + n].upper().replace("N", "A"), 0.08)
        if ri % 2:
            r = revcomp(r)
        if ri % 5 == 3:
            p = rng.randrange(len(r) - 10)
            r = r[:p] + "N" * rng.randint(1, 5) + r[p + 5:]
        q = "".join(chr(33 + rng.randint(2, 40)) for _ in r)
        f.write("@rep%d\n%s\n+\n%s\n" % (ri + 1, r, q))
