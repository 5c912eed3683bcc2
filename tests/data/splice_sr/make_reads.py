#!/usr/bin/env python3
"""Short RNA-seq reads for -x splice:sr (minimap2 2.31), from the synthetic genome and
transcripts of tests/data/splice. Deterministic (own splitmix64, gzip mtime 0).

Writes into this directory:
  sr.r1.fq.gz, sr.r2.fq.gz   pairs (FR): read 1 from a fragment's start on the transcript
                             strand, read 2 the reverse complement of its end
  sr.se.fq.gz                single-end reads (read 1 of further fragments)
Reads are 100 or 150 bases, 0.5-2% substitutions, a rare N; fragments 180-450 bases.
A few reads come from the reverse strand of random genome positions and a few are random.
"""
import gzip, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
SPLICE = os.path.join(HERE, '..', 'splice')

class Rng:
    def __init__(self, seed): self.s = seed & (2**64 - 1)
    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & (2**64 - 1)
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
        return z ^ (z >> 31)
    def below(self, n): return self.next() % n
    def unif(self): return self.next() / 2**64

def read_fasta(path):
    seqs, name, buf = {}, None, []
    with gzip.open(path, 'rt') as f:
        for line in f:
            line = line.strip()
            if line.startswith('>'):
                if name: seqs[name] = ''.join(buf)
                name, buf = line[1:].split()[0], []
            else: buf.append(line.upper())
    if name: seqs[name] = ''.join(buf)
    return seqs

COMP = str.maketrans('ACGTN', 'TGCAN')
def rc(s): return s.translate(COMP)[::-1]

def mutate(rng, s, rate):
    out = []
    for c in s:
        u = rng.unif()
        if u < rate: out.append('ACGT'[(('ACGT'.index(c) if c in 'ACGT' else 0) + 1 + rng.below(3)) % 4])
        elif u < rate + 0.0005: out.append('N')
        else: out.append(c)
    return ''.join(out)

def fq(f, name, seq, rng):
    qual = ''.join(chr(33 + 20 + rng.below(20)) for _ in seq)
    f.write(f'@{name}\n{seq}\n+\n{qual}\n')

def main():
    genome = read_fasta(os.path.join(SPLICE, 'genome.fa.gz'))
    txs = []
    with open(os.path.join(SPLICE, 'transcripts.tsv')) as f:
        for line in f:
            if line.startswith('#'): continue
            t = line.rstrip('\n').split('\t')
            exons = [tuple(map(int, e.split('-'))) for e in t[9].split(',')]
            seq = ''.join(genome[t[2]][s:e] for s, e in exons)
            if t[3] == '-': seq = rc(seq)
            if len(seq) >= 500: txs.append((t[0], seq))
    rng = Rng(20240531)
    chroms = sorted(genome)
    def fragment():
        k = rng.below(40)
        if k == 0:  # random sequence
            return 'rand', ''.join('ACGT'[rng.below(4)] for _ in range(400))
        if k == 1:  # genomic (intronic/intergenic), either strand
            c = chroms[rng.below(len(chroms))]
            p = rng.below(len(genome[c]) - 500)
            s = genome[c][p:p + 450]
            return f'{c}:{p}', rc(s) if rng.below(2) else s
        name, seq = txs[rng.below(len(txs))]
        fl = 180 + rng.below(270)
        p = rng.below(len(seq) - fl)
        return f'{name}:{p}', seq[p:p + fl]
    gz = lambda p: gzip.GzipFile(os.path.join(HERE, p), 'wb', mtime=0)
    import io
    with gz('sr.r1.fq.gz') as g1, gz('sr.r2.fq.gz') as g2:
        f1, f2 = io.TextIOWrapper(g1, 'ascii'), io.TextIOWrapper(g2, 'ascii')
        for i in range(300):
            src, frag = fragment()
            rl = 100 if rng.below(3) else 150
            rl = min(rl, len(frag))
            rate = 0.005 + rng.unif() * 0.015
            r1 = mutate(rng, frag[:rl], rate)
            r2 = mutate(rng, rc(frag[-rl:]), rate)
            fq(f1, f'p{i}', r1, rng)
            fq(f2, f'p{i}', r2, rng)
        f1.flush(); f2.flush()
    with gz('sr.se.fq.gz') as g:
        f = io.TextIOWrapper(g, 'ascii')
        for i in range(400):
            src, frag = fragment()
            rl = 100 if rng.below(3) else 150
            rl = min(rl, len(frag))
            s = mutate(rng, frag[:rl], 0.005 + rng.unif() * 0.015)
            if rng.below(2): s = rc(s)
            fq(f, f's{i}', s, rng)
        f.flush()

if __name__ == '__main__':
    main()
