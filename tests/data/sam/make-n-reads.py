#!/usr/bin/env python3
# Writes n_ref.fa, n_reads.fq and n_spliced.fq (deterministic) from data/ref.fa:
# ambiguous bases on either side of an alignment, and spliced reads, for the MD/cs tests. Run from the repository root:
# python3 tests/data/sam/make-n-reads.py
import random

random.seed(11)
seq = ''.join(l.strip() for l in open('data/ref.fa') if not l.startswith('>'))
comp = {'A': 'T', 'C': 'G', 'G': 'C', 'T': 'A', 'N': 'N', 'R': 'Y', 'Y': 'R', 'K': 'M', 'M': 'K',
        'S': 'S', 'W': 'W'}


def rc(s):
    return ''.join(comp[c.upper()] for c in reversed(s))


def put(s, pos, text):  # overwrite s[pos:pos+len(text)]
    return s[:pos] + text + s[pos + len(text):]


def subst(s, step=41, first=15):  # a substitution every `step` bases
    s = list(s)
    for i in range(first, len(s) - 10, step):
        s[i] = {'A': 'C', 'C': 'G', 'G': 'T', 'T': 'A'}.get(s[i], s[i])
    return ''.join(s)


# The reference: 3 kb with a single N (500), an N run (1000-1004), an IUPAC R (1500),
# an N run (2200-2202) and a lower-case stretch (1800-1899).
ref = seq[8000:11000]
ref = put(ref, 500, 'N')
ref = put(ref, 1000, 'NNNNN')
ref = put(ref, 1500, 'R')
ref = put(ref, 2200, 'NNN')
ref = ref[:1800] + ref[1800:1900].lower() + ref[1900:]
with open('tests/data/sam/n_ref.fa', 'w') as f:
    f.write('>chrN\n')
    for i in range(0, len(ref), 60):
        f.write(ref[i:i + 60] + '\n')

up = ref.upper()
base = seq[8000:11000]  # the reference before the ambiguous bases went in
reads = {}
# read N against reference bases, and read N against reference N (500)
r = subst(up[380:720])
r = put(r, 50, 'N')
r = put(r, 120, 'N')
r = put(r, 500 - 380, 'N')
reads['nvsbase'] = r
# reference N run against real bases of the read, a read N inside the ref N run
r = subst(base[850:1200])
r = put(r, 1002 - 850, 'N')
reads['basevsn'] = r
# IUPAC codes and lower case in the read
r = subst(up[1300:1650])
for i, c in zip((30, 77, 140, 201, 260), 'YKMWS'):
    r = put(r, i, c)
r = r[:90] + r[90:130].lower() + r[130:]
reads['iupac'] = r
# reverse strand with Ns, an insertion holding an N, a deletion over the ref R
r = subst(up[1400:1750])
r = r[:40] + 'ANA' + r[40:]
r = r[:1499 - 1400 + 3] + r[1502 - 1400 + 3:]
r = put(r, 200, 'N')
reads['revn'] = rc(r)
# a deletion of reference Ns (2200-2202) and the lower-case reference stretch
r = subst(base[1750:2350])
r = r[:2199 - 1750] + r[2204 - 1750:]
reads['deln'] = r
# an N run in the read longer than the reference's
r = subst(up[900:1300])
r = put(r, 98, 'NNNNNNNN')
reads['nrun'] = r


def qual(n):
    return ''.join(chr(33 + random.randint(5, 40)) for _ in range(n))


with open('tests/data/sam/n_reads.fq', 'w') as f:
    for k, v in reads.items():
        f.write('@%s\n%s\n+\n%s\n' % (k, v, qual(len(v))))


# Spliced reads: two exons joined at a GT..AG intron of the reference; one forward with a
# substitution, one reverse-complemented with a read N.
def spliced(start, donor_from, min_intron, exon2_len):
    d = up.find('GT', donor_from)
    a = up.find('AG', d + min_intron)
    return up[start:d] + up[a + 2:a + 2 + exon2_len]


sp1 = subst(spliced(1550, 1700, 400, 250), step=97, first=30)
sp2 = put(spliced(560, 600, 300, 240), 150, 'N')
with open('tests/data/sam/n_spliced.fq', 'w') as f:
    for k, v in (('spfwd', sp1), ('sprev', rc(sp2))):
        f.write('@%s\n%s\n+\n%s\n' % (k, v, qual(len(v))))
