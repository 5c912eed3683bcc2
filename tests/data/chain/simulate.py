#!/usr/bin/env python3
"""Deterministic repeat-rich test cases for chaining. Mode "repeats" (default) writes
rep.fa (two contigs with diverged copies of one segment, one copy inverted, and a
tandem repeat) and rep.fq (noisy long reads, some from the ancestral repeat, some with a
1.5 kb deletion so that the DP pass splits them and the long-join pass rejoins). Mode
"strand" writes strand.fa (a 16 kb segment and an inverted, 0.4%-diverged copy of 10 kb of it, plus unique
sequence and the repeat family again) and strand.fq (accurate reads long enough for
secondaries on the other strand to pass the strand check of mm_select_sub, and chimeric
reads that give several primaries with secondaries). Only random.random() is used,
whose sequence is fixed for a given seed in CPython."""
import random
import sys

rng = random.Random(20240)


def pick(n):
    return int(rng.random() * n)


def rand_seq(n):
    return "".join("ACGT"[pick(4)] for _ in range(n))


def revcomp(s):
    return s[::-1].translate(str.maketrans("ACGT", "TGCA"))


def mutate(s, rate):
    """Substitutions and 1-base indels, each with probability rate/3 per base."""
    out = []
    for c in s:
        r = rng.random()
        if r < rate / 3:
            out.append("ACGT"[pick(4)])
        elif r < 2 * rate / 3:
            continue
        elif r < rate:
            out.append(c + "ACGT"[pick(4)])
        else:
            out.append(c)
    return "".join(out)


def main(out_dir):
    rep = rand_seq(6000)
    unit = rand_seq(57)
    a = [rand_seq(9000), mutate(unit * 40, 0.05), rand_seq(3000)]
    for div in (0.01, 0.02, 0.03):
        a += [mutate(rep, div), rand_seq(6000 + pick(3000))]
    a += [revcomp(mutate(rep, 0.015)), rand_seq(8000)]
    chr_a = "".join(a)
    chr_b = rand_seq(5000) + mutate(rep, 0.02) + rand_seq(7000)
    refs = [("chrA", chr_a), ("chrB", chr_b)]
    with open(f"{out_dir}/rep.fa", "w") as f:
        for name, s in refs:
            f.write(f">{name}\n")
            for i in range(0, len(s), 80):
                f.write(s[i:i + 80] + "\n")
    with open(f"{out_dir}/rep.fq", "w") as f:
        for r in range(36):
            name, s = refs[0] if rng.random() < 0.8 else refs[1]
            if r % 2 == 1:  # from the ancestral repeat: similar to every copy
                name, s = "rep", rep
            length = 3000 + pick(4000) if r % 2 == 0 else 1500 + pick(2500)
            st = pick(len(s) - length)
            read = s[st:st + length]
            if r % 4 == 2 and length > 4000:  # a 1.5 kb deletion in the middle
                mid = length // 2
                read = read[:mid] + read[mid + 1500:]
            read = mutate(read, 0.02 + 0.08 * rng.random())
            if rng.random() < 0.5:
                read = revcomp(read)
            f.write(f"@r{r}_{name}_{st}\n{read}\n+\n{'5' * len(read)}\n")


def write_fasta(path, refs):
    with open(path, "w") as f:
        for name, s in refs:
            f.write(f">{name}\n")
            for i in range(0, len(s), 80):
                f.write(s[i:i + 80] + "\n")


def main_strand(out_dir):
    seg, rep = rand_seq(16000), rand_seq(3000)
    chr_c = rand_seq(5000) + seg + rand_seq(3000) + revcomp(mutate(seg[4000:14000], 0.004)) + rand_seq(5000)
    chr_d = "".join(mutate(rep, 0.01) + rand_seq(4000 + pick(2000)) for _ in range(4)) + rand_seq(6000)
    write_fasta(f"{out_dir}/strand.fa", [("chrC", chr_c), ("chrD", chr_d)])
    with open(f"{out_dir}/strand.fq", "w") as f:
        for r in range(10):
            if r % 2 == 0:  # long and accurate, from the segment with the inverted copy
                length = 12000 + pick(4000)
                st = 5000 + pick(16000 - length)
                read = mutate(chr_c[st:st + length], 0.01 + 0.06 * rng.random())
            else:  # chimera: unique + repeat family + unique
                a, b = pick(len(chr_c) - 5000), pick(len(chr_c) - 2000)
                r0 = pick(1000)
                read = chr_c[a:a + 2000 + pick(3000)] + mutate(rep[r0:r0 + 2000], 0.01) + chr_c[b:b + 1000 + pick(1000)]
                read = mutate(read, 0.01 + 0.02 * rng.random())
            if rng.random() < 0.5:
                read = revcomp(read)
            f.write(f"@s{r}\n{read}\n+\n{'5' * len(read)}\n")


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    if len(sys.argv) > 2 and sys.argv[2] == "strand":
        main_strand(out)
    else:
        main(out)
