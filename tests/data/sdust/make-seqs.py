#!/usr/bin/env python3
"""Writes seqs.fa: low-complexity test sequences for SDUST (tests/map/sdust_test.cpp).

Deterministic (fixed seed, Python's random module). Each record is named after what it
holds: homopolymers, micro- and minisatellites with units of 2-8 bases (exact and
mutated), repeats shorter and longer than SDUST's 64-base window, repeats inside random
flanks, Ns inside and beside repeats (SDUST's window is not emptied at an N), lower
case, sequences of fewer than three bases, and random sequences. Only A/C/G/T/N (either
case) are used: minimap2 and its stand-alone sdust read U differently.
"""
import random

rng = random.Random(20261204)
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


def tandem(unit, length):
    return (unit * (length // len(unit) + 1))[:length]


recs = []
for b in B:
    for n in (10, 30, 64, 65, 200):
        recs.append((f"homo_{b}{n}", b * n))
for unit in ("AC", "AT", "CAG", "GAA", "AAAG", "ACGT", "TTAGG", "CACGTG", "AATGGAAT", "GGCCCTTA"):
    for n in (40, 66, 150):
        recs.append((f"sat_{unit}_{n}", tandem(unit, n)))
    recs.append((f"sat_{unit}_mut", mutate(tandem(unit, 200), 0.08)))
    recs.append((f"flank_{unit}", rand_seq(150) + tandem(unit, rng.randint(20, 120)) + rand_seq(150)))
for i in range(6):
    parts = []
    for _ in range(8):
        r = rng.random()
        if r < 0.4:
            parts.append(rand_seq(rng.randint(10, 200)))
        elif r < 0.7:
            parts.append(tandem(rand_seq(rng.randint(1, 6)), rng.randint(5, 150)))
        elif r < 0.85:
            parts.append(mutate(tandem(rand_seq(rng.randint(2, 12)), rng.randint(30, 300)), 0.05))
        else:
            parts.append("N" * rng.randint(1, 5))
    recs.append((f"mixed_{i}", "".join(parts)))
recs.append(("n_inside_repeat", tandem("CA", 50) + "N" + tandem("CA", 50) + "NN" + rand_seq(80)))
recs.append(("n_after_repeat", "A" * 40 + "N" + rand_seq(100) + "N" + tandem("GT", 30)))
recs.append(("n_every_30", "N".join(tandem("AAC", 30) for _ in range(6))))
recs.append(("n_short_runs", "N".join(["ACGTAC", "AA", "A", "TTTTT", "GGGGGGGGGG"] * 4)))
recs.append(("lower_case", rand_seq(60) + tandem("ga", 90) + rand_seq(60).lower() + "t" * 50))
recs.append(("tiny_1", "A"))
recs.append(("tiny_2", "AC"))
recs.append(("tiny_3", "AAA"))
recs.append(("only_n", "NNNNN"))
for i, n in enumerate((100, 1000, 5000)):
    recs.append((f"random_{n}", rand_seq(n)))
recs.append(("random_lowgc", "".join(rng.choice("AAATTTCG") for _ in range(2000))))
recs.append(("long_mutated_minisat", mutate(tandem(rand_seq(25), 1000), 0.1)))

with open("seqs.fa", "w") as f:
    for name, s in recs:
        f.write(f">{name}\n")
        for i in range(0, len(s), 80):
            f.write(s[i:i + 80] + "\n")
