#!/usr/bin/env python3
# Writes two_refs.fa and reads.fq (deterministic) from data/ref.fa; run from the
# repository root: python3 tests/data/sam/make-reads.py
import random

random.seed(7)
seq = ''.join(l.strip() for l in open('data/ref.fa') if not l.startswith('>'))
comp = {'A': 'T', 'C': 'G', 'G': 'C', 'T': 'A'}


def rc(s):
    return ''.join(comp[c] for c in reversed(s))


def mut(s):  # a substitution every 37 bases, one deletion, one insertion
    s = list(s)
    for i in range(10, len(s) - 10, 37):
        s[i] = {'A': 'C', 'C': 'G', 'G': 'T', 'T': 'A'}[s[i]]
    del s[60]
    s.insert(120, 'G')
    return ''.join(s)


dup = seq[3000:3400]  # present in both references: secondaries
with open('tests/data/sam/two_refs.fa', 'w') as f:
    f.write('>chrA\n' + seq[0:2000] + dup + seq[2000:2500] + '\n')
    f.write('>chrB desc\n' + seq[5000:6000] + dup + seq[6000:6300] + '\n')


def qual(n):
    return ''.join(chr(33 + random.randint(5, 40)) for _ in range(n))


reads = {
    'fwd': mut(seq[500:750]).lower()[:5] + mut(seq[500:750])[5:],  # lower-case start
    'rev': rc(mut(seq[1200:1450])).replace('A', 'R', 1),  # an IUPAC code
    'sec': mut(dup[50:330]),
    'chim': mut(seq[100:350]) + rc(mut(seq[5200:5450])),  # primary + supplementary
    'unm': ''.join(random.choice('ACGT') for _ in range(80)),
}
with open('tests/data/sam/reads.fq', 'w') as f:
    for k, v in reads.items():
        f.write('@%s comment\n%s\n+\n%s\n' % (k, v, qual(len(v))))
