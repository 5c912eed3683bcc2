#!/usr/bin/env python3
"""Helpers of scripts/record-splice-golden.sh (ksw_exts2 golden tasks).

    splice_golden.py edge OUT.tsv
        writes the hand-made splice DP tasks (input columns 1-14 only) that the driver
        then answers with minimap2's own ksw_exts2_sse;
    splice_golden.py wide EDGE.tsv OUT.tsv
        writes the edge tasks of EDGE.tsv (input columns; those under 400,000 cells) again
        with scorings minimap2 accepts past the splice kernels' range (-A/-B past int8,
        negative e, q2 up to 200, -C and --junc-bonus past int8), a seeded choice;
    splice_golden.py r231 EDGE.tsv OUT.tsv
        writes the edge tasks of EDGE.tsv (input columns) for minimap2 2.31's ksw_exts2:
        those with one strand flag (2.31 refuses both), every other one with miniprot's
        splice model (KSW_EZ_SPLICE_CMPLX), each with agatha's mte_q mark (0x40000) and an
        end bonus (column 11 "zdrop,end_bonus") of -1, 0, 5 or 40 in turn;
    splice_golden.py sample QUOTA MAX_CELLS LOG.tsv >> OUT.tsv
        prints a deterministic selection of QUOTA recorded tasks of LOG.tsv: duplicates
        dropped, tasks grouped by (flag, N in the CIGAR, Z-dropped, junction bits,
        reach_end), each
        group in the order of a hash of the task, groups taken in turn, so rare kinds are
        kept; tasks over MAX_CELLS (qlen * tlen) are left out, except that the task with
        the longest target under 4 * MAX_CELLS is always kept.

Everything is deterministic (splitmix64 and SHA-1; no Python random).
"""
import hashlib
import sys

MASK64 = (1 << 64) - 1
MARK = 0x10000  # agatha's "this is a ksw_exts2 task" flag bit
SCORE_ONLY, RIGHT, APPROX_MAX, APPROX_DROP, EXTZ_ONLY, REV_CIGAR = 0x01, 0x02, 0x08, 0x10, 0x40, 0x80
SPLICE_FOR, SPLICE_REV, SPLICE_FLANK, SPLICE_CMPLX = 0x100, 0x200, 0x400, 0x800
MTE_Q_CELL = 0x40000  # agatha's mark of minimap2 2.31's mte_q


class Rng:
    def __init__(self, seed):
        self.s = seed & MASK64

    def next64(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & MASK64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def randint(self, a, b):
        return a + self.next64() % (b - a + 1)

    def random(self):
        return (self.next64() >> 11) / float(1 << 53)

    def choice(self, seq):
        return seq[self.next64() % len(seq)]


rng = Rng(0xE7520DA7A)
COMP = str.maketrans("ACGTN", "TGCAN")


def rseq(n, alphabet="ACGT"):
    return "".join(rng.choice(alphabet) for _ in range(n))


def mutate(s, rate):
    out = []
    for c in s:
        r = rng.random()
        if r < rate / 3:
            out.append(rng.choice("ACGT"))
        elif r < 2 * rate / 3:
            out.append(c + rng.choice("ACGT"))
        elif r < rate:
            continue
        else:
            out.append(c)
    return "".join(out)


# Scoring schemes: (a, b, ambi, q, e, q2, noncan, junc_bonus)
SCHEMES = [
    (1, 2, 1, 2, 1, 32, 9, 9),    # -x splice
    (1, 4, 1, 6, 1, 24, 9, 5),    # -x splice:hq
    (1, 2, 1, 2, 1, 32, 5, 9),    # splice -C5
    (1, 4, 1, 6, 1, 24, 0, 0),    # hq, no non-canonical penalty, no bonus
    (2, 4, 2, 4, 2, 40, 15, 12),
    (1, 2, 0, 2, 1, 32, 9, 9),    # ambi 0: N scored -e
    (3, 6, 1, 8, 2, 60, 30, 20),
    (1, 1, 1, 1, 1, 20, 1, 1),
]


def task(tid, flag, sch, junc, q, t, zdrop):
    a, b, ambi, gq, ge, gq2, noncan, jb = sch
    return "\t".join(str(x) for x in (tid, flag | MARK, a, b, ambi, gq, ge, gq2, noncan, jb, zdrop,
                                       junc if junc is not None else "*", q or "*", t or "*"))


def junc_for(t, sites, rev=False):
    """A junction array for target t: sites is a list of (position, bits)."""
    j = [0] * len(t)
    for p, bits in sites:
        if 0 <= p < len(t):
            j[p] |= bits
    return "".join("0123456789abcdef"[x] for x in j)


def random_junc(n, density):
    return "".join("0123456789abcdef"[rng.randint(1, 15)] if rng.random() < density else "0" for _ in range(n))


def spliced_pair(strand, motif, intron_len, exon1, exon2, err):
    """(query, target, donor_pos, acceptor_pos) of a two-exon construct on the target
    forward strand; strand '-' reverse-complements the motif (CT..AC for GT..AG)."""
    d, a = motif
    if strand == "-":
        d, a = a.translate(COMP)[::-1], d.translate(COMP)[::-1]
    inner = max(0, intron_len - 4)
    intron = d + rseq(inner) + a if intron_len >= 4 else rseq(intron_len)
    e1, e2 = rseq(exon1), rseq(exon2)
    target = e1 + intron + e2
    query = mutate(e1 + e2, err)
    return query, target, exon1 - 1, exon1 + len(intron) - 1


def edge_tasks():
    out = []
    n = [0]

    def add(kind, flag, sch, junc, q, t, zdrop):
        n[0] += 1
        out.append(task("edge.%s.%04d" % (kind, n[0]), flag, sch, junc, q, t, zdrop))

    base_flags = [0, SCORE_ONLY, RIGHT, APPROX_MAX, APPROX_MAX | APPROX_DROP, EXTZ_ONLY, EXTZ_ONLY | RIGHT | REV_CIGAR,
                  REV_CIGAR, APPROX_MAX | RIGHT, EXTZ_ONLY | SCORE_ONLY, APPROX_MAX | APPROX_DROP | EXTZ_ONLY | RIGHT,
                  SCORE_ONLY | APPROX_MAX]
    splice_flags = [0, SPLICE_FOR, SPLICE_REV, SPLICE_FOR | SPLICE_REV, SPLICE_FOR | SPLICE_FLANK,
                    SPLICE_REV | SPLICE_FLANK, SPLICE_FOR | SPLICE_REV | SPLICE_FLANK, SPLICE_FLANK]
    # 1. empty and one-base sequences, every flag pair
    for bf in base_flags:
        for sf in splice_flags:
            sch = rng.choice(SCHEMES)
            for q, t in (("", ""), ("", "ACGT"), ("ACG", ""), ("A", "A"), ("A", "C"), ("N", "A"), ("A", "N"), ("N", "N"),
                         ("G", "GTAG"), ("AG", "A")):
                add("tiny", bf | sf, sch, None, q, t, rng.choice([-1, 0, 5, 100]))
    # 2. early returns: q2 <= q + e (and q2 just above it), and a mismatch dearer than
    #    two gap opens
    for bf in base_flags[:6]:
        add("q2_small", bf | SPLICE_FOR, (1, 2, 1, 4, 2, 6, 9, 9), None, rseq(20), rseq(30), 100)
        add("q2_above", bf | SPLICE_REV, (1, 2, 1, 4, 2, 7, 9, 9), None, rseq(20), rseq(30), 100)
        add("mis_dear", bf | SPLICE_FOR, (1, 9, 1, 2, 1, 32, 9, 9), None, rseq(20), rseq(30), 100)
    # 3. two-exon constructs: every motif on both strands, intron lengths around the
    #    long-gap threshold and beyond, with and without junction annotation
    motifs = [("GT", "AG"), ("GC", "AG"), ("AT", "AC"), ("GT", "AC"), ("CT", "AC"), ("GA", "TT")]
    for i in range(420):
        sch = rng.choice(SCHEMES)
        strand = rng.choice("+-")
        motif = rng.choice(motifs)
        il = rng.choice([0, 1, 2, 3, 4, 5, 8, 12, 15, 16, 17, 20, 25, 30, 31, 32, 33, 40, 50, 64, 100, 150, 300, 1000])
        e1, e2 = rng.randint(1, 60), rng.randint(1, 60)
        q, t, dpos, apos = spliced_pair(strand, motif, il, e1, e2, rng.choice([0, 0, 0.02, 0.08]))
        sf = rng.choice(splice_flags)
        bf = rng.choice(base_flags)
        junc = None
        r = rng.random()
        if r < 0.3:  # the true junction annotated, with the strand's bits
            junc = junc_for(t, [(dpos, 1 if strand == "+" else 8), (apos, 2 if strand == "+" else 4)])
        elif r < 0.45:  # annotated on the other strand
            junc = junc_for(t, [(dpos, 8 if strand == "+" else 1), (apos, 4 if strand == "+" else 2)])
        elif r < 0.6:
            junc = random_junc(len(t), 0.05)
        elif r < 0.65:
            junc = "0" * len(t)
        if bf & REV_CIGAR:  # a left extension: both sequences reversed, as minimap2 passes them
            q, t = q[::-1], t[::-1]
            junc = junc[::-1] if junc else junc
        add("exon2", bf | sf, sch, junc, q, t, rng.choice([-1, 20, 100, 200, 400]))
    # 4. random sequences of every length class, N runs, tandem repeats, unrelated pairs
    for i in range(360):
        sch = rng.choice(SCHEMES)
        kind = rng.choice(["rand", "similar", "nrun", "tandem", "unrelated", "sites"])
        lq, lt = rng.randint(1, 90), rng.randint(1, 400)
        if kind == "similar":
            t = rseq(lt)
            q = mutate(t[rng.randint(0, lt // 3):], 0.1)[:200] or "A"
        elif kind == "nrun":
            t = rseq(lt)
            p = rng.randint(0, lt - 1)
            t = t[:p] + "N" * rng.randint(1, 40) + t[p:]
            q = mutate(t, 0.05)
            if rng.random() < 0.5:
                p = rng.randint(0, len(q))
                q = q[:p] + "N" * rng.randint(1, 10) + q[p:]
        elif kind == "tandem":
            unit = rseq(rng.randint(1, 6))
            t = (unit * 200)[:lt]
            q = (unit * 100)[:lq]
        elif kind == "unrelated":
            q, t = rseq(lq), rseq(lt)
        elif kind == "sites":  # dense splice motifs: every donor/acceptor pattern
            t = rseq(lt, "AGGTCTAC")
            q = mutate(t[: lt // 2] + t[-lq // 2:], 0.05) or "G"
        else:
            q, t = rseq(lq), rseq(lt)
        junc = random_junc(len(t), rng.choice([0.0, 0.02, 0.2, 1.0])) if rng.random() < 0.4 else None
        flag = rng.choice(base_flags) | rng.choice(splice_flags)
        add(kind, flag, sch, junc, q, t, rng.choice([-1, 0, 1, 5, 20, 100, 200, 400]))
    # 5. extreme site scores: noncan and junction bonuses whose sums leave int8
    for i in range(60):
        a, b, ambi, gq, ge, gq2 = rng.choice([(1, 2, 1, 2, 1, 32), (1, 4, 1, 6, 1, 24)])
        noncan = rng.choice([0, 1, 2, 3, 9, 31, 64, 100, 127])
        jb = rng.choice([-128, -100, -20, -1, 0, 1, 50, 100, 127])
        q, t, dpos, apos = spliced_pair(rng.choice("+-"), ("GT", "AG"), rng.randint(20, 120), 30, 30, 0.02)
        junc = random_junc(len(t), 0.3)
        flag = rng.choice(base_flags) | rng.choice(splice_flags)
        add("extreme", flag, (a, b, ambi, gq, ge, gq2, noncan, jb), junc, q, t, rng.choice([-1, 200]))
    # 6. long introns (H values far from 0, long N operations)
    for i in range(24):
        sch = rng.choice(SCHEMES[:3])
        q, t, dpos, apos = spliced_pair(rng.choice("+-"), ("GT", "AG"), rng.randint(1500, 20000), rng.randint(20, 200),
                                        rng.randint(20, 200), 0.05)
        flag = rng.choice([APPROX_MAX, 0, EXTZ_ONLY, EXTZ_ONLY | RIGHT | REV_CIGAR]) | rng.choice(splice_flags[1:])
        if flag & REV_CIGAR:
            q, t = q[::-1], t[::-1]
        add("long", flag, sch, None, q, t, rng.choice([-1, 200, 400]))
    # 7. wide scoring schemes: penalties and scores up to 127, q = 0, gap and site
    #    scores whose sums wrap around in the 8-bit differences
    for i in range(200):
        a = rng.choice([1, 2, 5, 20, 60, 127])
        sch = (a, rng.choice([0, 1, 4, 30, 127]), rng.choice([0, 1, 127]), rng.choice([0, 1, 6, 40, 127]),
               rng.choice([1, 2, 9, 127]), rng.choice([0, 24, 64, 127]), rng.randint(0, 127), rng.randint(-128, 127))
        lt = rng.randint(1, 200)
        t = rseq(lt, rng.choice(["ACGT", "AGGTCTAC", "ACGTN"]))
        p = rng.randint(0, lt)
        p2 = rng.randint(p, lt)
        q = mutate(t[:p] + t[p2:], rng.choice([0.0, 0.05, 0.2])) or rseq(rng.randint(1, 50))
        junc = random_junc(lt, 0.1) if rng.random() < 0.5 else None
        add("wide", rng.choice(base_flags) | rng.choice(splice_flags), sch, junc, q, t, rng.choice([-1, 0, 3, 50, 1000]))
    return out


def parse(line):
    f = line.rstrip("\n").split("\t")
    return f


def wide_tasks(edge_path):
    rng = Rng(20261206)
    ri = rng.randint
    out = []
    with open(edge_path) as fp:
        for line in fp:
            if line.startswith("#"):
                continue
            f = line.rstrip("\n").split("\t")[:14]
            if len(f[12]) * max(1, len(f[13])) > 400000:
                continue
            f[0] = "wide:" + f[0]
            f[2] = str(ri(-300, 300) if ri(0, 2) == 0 else ri(1, 127))
            f[3] = str(ri(-300, 300) if ri(0, 2) == 0 else ri(1, 127))
            f[4] = str(ri(-130, 130) if ri(0, 4) == 0 else ri(0, 3))
            q, e = ri(1, 40), ri(1, 12)
            if ri(0, 5) == 0:
                e = ri(-3, -1)
            f[5], f[6], f[7] = str(q), str(e), str(ri(q + max(e, 0) + 1, 200))
            f[8] = str(ri(-130, 300) if ri(0, 2) == 0 else ri(0, 30))
            f[9] = str(ri(-300, 300) if ri(0, 2) == 0 else ri(-20, 20))
            out.append("\t".join(f))
    return out


def r231_tasks(edge_path):
    out, k = [], 0
    with open(edge_path) as fp:
        for line in fp:
            if not line.strip() or line.startswith("#"):
                continue
            f = line.rstrip("\n").split("\t")[:14]
            flag = int(f[1])
            if flag & SPLICE_FOR and flag & SPLICE_REV:
                continue
            flag |= MTE_Q_CELL | (SPLICE_CMPLX if k % 2 == 0 else 0)
            f[1] = str(flag)
            f[10] = "%s,%d" % (f[10], (-1, 0, 5, 40)[k // 2 % 4])
            f[0] = "r231:" + f[0]
            out.append("\t".join(f))
            k += 1
    return out


def sample(quota, max_cells, path):
    seen, groups, longest = set(), {}, None
    with open(path) as fp:
        for line in fp:
            f = parse(line)
            key = "\t".join(f[1:14])
            if key in seen:
                continue
            seen.add(key)
            qlen = 0 if f[12] == "*" else len(f[12])
            tlen = 0 if f[13] == "*" else len(f[13])
            cells = qlen * tlen
            h = hashlib.sha1(key.encode()).hexdigest()
            if cells <= 4 * max_cells and (longest is None or tlen > longest[0]):
                longest = (tlen, h, line)
            if cells > max_cells:
                continue
            g = (int(f[1]), "N" in f[25], f[22], f[11] != "*" and f[11].strip("0") != "", f[23])
            groups.setdefault(g, []).append((h, line))
    longest_line = longest[2] if longest else None
    picked = [longest_line] if longest_line else []
    queues = [sorted(v) for _, v in sorted(groups.items())]
    i = 0
    while len(picked) < quota and any(queues):
        q = queues[i % len(queues)]
        if q:
            line = q.pop(0)[1]
            if line is not longest_line:
                picked.append(line)
        i += 1
    sys.stdout.write("".join(picked))
    sys.stderr.write("[M::sample] %s: %d distinct tasks, %d kept\n" % (path, len(seen), len(picked)))


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "edge":
        with open(sys.argv[2], "w") as fp:
            fp.write("".join(l + "\n" for l in edge_tasks()))
    elif len(sys.argv) == 4 and sys.argv[1] == "wide":
        with open(sys.argv[3], "w") as fp:
            fp.write("".join(l + "\n" for l in wide_tasks(sys.argv[2])))
    elif len(sys.argv) == 4 and sys.argv[1] == "r231":
        with open(sys.argv[3], "w") as fp:
            fp.write("".join(l + "\n" for l in r231_tasks(sys.argv[2])))
    elif len(sys.argv) == 5 and sys.argv[1] == "sample":
        sample(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        sys.stderr.write(__doc__)
        sys.exit(1)


if __name__ == "__main__":
    main()
