#!/usr/bin/env python3
"""Writes the synthetic long-read RNA test set: a genome with gene models, annotation
files and simulated reads (see README.md in this directory for what each file holds).

    make_splice_data.py [OUTDIR]      (default: the directory of this script)

Deterministic: one fixed seed and a PRNG of our own (splitmix64), so the output does
not depend on the Python version; gzip members are written with mtime 0 and no name.

The genome (three contigs, 1.0 Mb) is random sequence (GC 42%) with genes on both
strands placed along it, a few copies of a 300 bp interspersed repeat, one processed
pseudogene (an intronless copy of a spliced transcript), a paralogous gene copy and an
N run. Gene structure:
  - 1 to 12 exons; internal exons 30-250 bp with a few micro-exons (10-29 bp); first
    and last exons 80-1200 bp;
  - introns from 60 bp to 20 kb (half under 400 bp, one in eight over 3 kb);
  - intron motifs (transcript sense): GT-AG with a consensus donor (AG|GTRAGT) and a
    pyrimidine tract before the acceptor (YAG|G), GC-AG (about 8%), AT-AC (about 6%);
  - isoforms: exon skipping, alternative donors and acceptors (shifted 4-60 bp, the
    new site planted), intron retention.
Most isoforms are annotated (genes.gtf); some are not ("novel": reads from them span
unannotated junctions), and a few whole genes are unannotated. annot.bed12 holds a
subset of the annotated transcripts and introns.bed the introns of another subset, the
two forms of minimap2's --junc-bed.

Reads (FASTQ, name = set + number, comment = origin):
  ont.fq.gz   cDNA, both orientations, 6-14% errors (deletions > insertions >
              substitutions, homopolymer-biased insertions), poly(A) tails, 5' truncation,
              short adapter-like junk at the ends; plus unrelated random reads;
  hifi.fq.gz  Iso-Seq-like full-length transcripts in transcript sense, ~1% errors, no
              poly(A); plus a few random reads;
  drna.fq.gz  direct-RNA-like: transcript sense (for minimap2 -uf), U for T, 3'-anchored
              with frequent 5' truncation, 8-13% errors, a short poly(A).
"""
import gzip
import os
import sys

MASK64 = (1 << 64) - 1


class Rng:
    """splitmix64: a small PRNG whose sequence is fixed by this code alone."""

    def __init__(self, seed):
        self.s = seed & MASK64

    def next64(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & MASK64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def random(self):
        return (self.next64() >> 11) / float(1 << 53)

    def randint(self, a, b):
        """Uniform integer in [a, b]."""
        return a + self.next64() % (b - a + 1)

    def choice(self, seq):
        return seq[self.next64() % len(seq)]

    def loguniform(self, a, b):
        """Integer in [a, b], uniform in log scale."""
        import math
        return int(round(math.exp(math.log(a) + self.random() * (math.log(b) - math.log(a)))))


rng = Rng(0x5EED5111CE)
COMP = str.maketrans("ACGTNacgtn", "TGCANtgcan")


def revcomp(s):
    return s.translate(COMP)[::-1]


def base(gc=0.42):
    r = rng.random()
    if r < gc:
        return "C" if r < gc / 2 else "G"
    return "A" if r < gc + (1 - gc) / 2 else "T"


def rand_seq(n, gc=0.42):
    return "".join(base(gc) for _ in range(n))


def pyrimidine(p=0.8):
    return rng.choice("CT") if rng.random() < p else rng.choice("AG")


# ---------------------------------------------------------------------------------------
# Gene models. Coordinates are 0-based, half-open, on the forward strand of the contig;
# an exon list is sorted by position whatever the strand.
# ---------------------------------------------------------------------------------------
MOTIFS = [("GT", "AG")] * 86 + [("GC", "AG")] * 8 + [("AT", "AC")] * 6


def exon_lengths(n):
    out = []
    for i in range(n):
        if i == 0 or i == n - 1:
            out.append(rng.randint(80, 1200) if n > 1 else rng.randint(400, 2500))
        elif rng.random() < 0.06:
            out.append(rng.randint(10, 29))  # micro-exon
        else:
            out.append(rng.randint(30, 250))
    return out


def intron_length():
    r = rng.random()
    if r < 0.5:
        return rng.randint(60, 400)
    if r < 0.875:
        return rng.loguniform(400, 3000)
    return rng.loguniform(3000, 20000)


class Genome:
    def __init__(self, length):
        self.seq = list(rand_seq(length))

    def put(self, pos, s):
        self.seq[pos:pos + len(s)] = list(s)

    def get(self, st, en):
        return "".join(self.seq[st:en])


def plant_intron(g, strand, ist, ien, motif, consensus=True):
    """Plants the motif of the intron [ist, ien) on the contig; the gene's strand says
    which end is the donor. With `consensus`, also the donor's AG|GTRAGT (ATATCC for
    AT-AC) and a pyrimidine tract with YAG before the acceptor; else only the two
    dinucleotides."""
    donor, acceptor = motif
    dsite, asite, exon_tail = donor, acceptor, ""
    if consensus:
        if donor == "GT":
            dsite = "GT" + rng.choice("AG") + "AGT"
        elif donor == "AT":
            dsite = "ATATCC"
        tract = "".join(pyrimidine() for _ in range(12))
        asite = tract + (rng.choice("CT") + "AG" if acceptor == "AG" else "AC")
        exon_tail = "AG" if donor != "AT" else ""
        if len(dsite) + len(asite) + 10 > ien - ist:
            dsite, asite = donor, acceptor
    if strand == "+":
        g.put(ist, dsite)
        g.put(ien - len(asite), asite)
        g.put(ist - len(exon_tail), exon_tail)
    else:
        g.put(ien - len(dsite), revcomp(dsite))
        g.put(ist, revcomp(asite))
        g.put(ien, revcomp(exon_tail))


class Transcript:
    def __init__(self, tid, gene, exons, kind):
        self.tid, self.gene, self.exons, self.kind = tid, gene, exons, kind
        self.annotated = True
        self.in_bed12 = False

    def introns(self):
        return [(self.exons[i][1], self.exons[i + 1][0]) for i in range(len(self.exons) - 1)]

    def seq(self, g):
        s = "".join(g.get(a, b) for a, b in self.exons)
        return s if self.gene.strand == "+" else revcomp(s)

    def length(self):
        return sum(b - a for a, b in self.exons)


class Gene:
    def __init__(self, gid, chrom, strand):
        self.gid, self.chrom, self.strand = gid, chrom, strand
        self.transcripts = []
        self.annotated = True
        self.motifs = {}  # intron (st, en) -> motif


def build_gene(g, gid, chrom, strand, start):
    """Lays out one gene from `start`; returns the gene and its end on the contig."""
    gene = Gene(gid, chrom, strand)
    r = rng.random()
    n_exons = 1 if r < 0.07 else rng.randint(2, 4) if r < 0.4 else rng.randint(5, 12)
    lens = exon_lengths(n_exons)
    exons, pos = [], start
    for i, ln in enumerate(lens):
        exons.append((pos, pos + ln))
        pos += ln
        if i + 1 < n_exons:
            pos += intron_length()
    # exons were laid out 5'->3' for '+'; for '-' the same layout reads 3'->5', which is
    # just as random, so the list stays sorted by position either way.
    main = Transcript(gid + ".1", gene, exons, "main")
    gene.transcripts.append(main)
    for ist, ien in main.introns():
        motif = rng.choice(MOTIFS)
        gene.motifs[(ist, ien)] = motif
        plant_intron(g, strand, ist, ien, motif)
    add_isoforms(g, gene, main)
    return gene, pos


def add_isoforms(g, gene, main):
    ex = main.exons
    n = len(ex)
    k = 2

    def new(exons, kind):
        nonlocal k
        t = Transcript("%s.%d" % (gene.gid, k), gene, exons, kind)
        k += 1
        gene.transcripts.append(t)
        return t

    if n >= 3 and rng.random() < 0.55:  # exon skipping: the new intron joins known sites
        i = rng.randint(1, n - 2)
        if ex[i + 1][0] - ex[i - 1][1] <= 20000:
            new(ex[:i] + ex[i + 1:], "skip")
    if n >= 2 and rng.random() < 0.35:  # alternative 5' or 3' end of an intron
        i = rng.randint(0, n - 2)
        (a0, a1), (b0, b1) = ex[i], ex[i + 1]
        shift = (rng.randint(3, 6) if rng.random() < 0.25 else rng.randint(12, 60)) * rng.choice([-1, 1])
        side = rng.choice(["left", "right"])
        if side == "left" and a1 + shift - a0 >= 15 and a1 + shift + 60 < b0:
            exons = ex[:i] + [(a0, a1 + shift), (b0, b1)] + ex[i + 2:]
            ist, ien = a1 + shift, b0
            kind = "alt_donor" if gene.strand == "+" else "alt_acceptor"
        elif side == "right" and b0 + shift < b1 - 15 and b0 + shift - 60 > a1:
            exons = ex[:i] + [(a0, a1), (b0 + shift, b1)] + ex[i + 2:]
            ist, ien = a1, b0 + shift
            kind = "alt_acceptor" if gene.strand == "+" else "alt_donor"
        else:
            exons = None
        if exons:
            motif = rng.choice(MOTIFS)
            gene.motifs[(ist, ien)] = motif
            plant_intron(g, gene.strand, ist, ien, motif)
            new(exons, kind)
            # the new site's consensus may have overwritten a dinucleotide of the main
            # isoform's introns: write those again (transcripts.tsv reports the motifs
            # as they end up in the genome)
            for jst, jen in main.introns():
                plant_intron(g, gene.strand, jst, jen, gene.motifs[(jst, jen)], consensus=False)
    if n >= 2 and rng.random() < 0.08:  # intron retention (a short intron)
        short = [i for i in range(n - 1) if ex[i + 1][0] - ex[i][1] < 400]
        if short:
            i = rng.choice(short)
            new(ex[:i] + [(ex[i][0], ex[i + 1][1])] + ex[i + 2:], "retained")


def make_genome():
    contigs = [("chr1", 480000), ("chr2", 340000), ("chr3", 180000)]
    repeat = rand_seq(300, gc=0.55)
    genomes, genes = {}, []
    gnum = 0
    for chrom, length in contigs:
        g = Genome(length)
        genomes[chrom] = g
        pos = rng.randint(3000, 8000)
        while True:
            strand = rng.choice("+-")
            gid = "G%03d" % (gnum + 1)
            save = g.seq[:]
            gene, end = build_gene(g, gid, chrom, strand, pos)
            if end + 3000 > length:
                g.seq = save
                break
            gnum += 1
            genes.append(gene)
            pos = end + rng.loguniform(1500, 15000)
        # interspersed repeat copies (~5% divergence) in intergenic space
        for _ in range(6):
            p = free_spot(genes, chrom, length, 300)
            if p is not None:
                g.put(p, mutate(repeat if rng.random() < 0.5 else revcomp(repeat), 0.05, 0.0))
    # annotation status: some whole genes and some alternative isoforms unannotated
    for gene in genes:
        if rng.random() < 0.1:
            gene.annotated = False
        for t in gene.transcripts:
            t.annotated = gene.annotated and (t.kind == "main" or rng.random() < 0.7)
    # a processed pseudogene of a spliced '+' transcript and a paralogous copy of a
    # whole gene (5% divergent), both in free space of chr1 / chr2
    spliced = [t for gene in genes for t in gene.transcripts
               if len(t.exons) >= 4 and t.kind == "main" and t.length() < 3000]
    src = spliced[0]
    pseudo = mutate(src.seq(genomes[src.gene.chrom]), 0.03, 0.0) + "A" * 25
    p = free_spot(genes, "chr1", len(genomes["chr1"].seq), len(pseudo))
    genomes["chr1"].put(p, pseudo)
    pseudogene = ("chr1", p, p + len(pseudo), src.tid)
    small = [gene for gene in genes if gene.chrom == "chr3" and len(gene.transcripts[0].exons) >= 3
             and gene.transcripts[0].exons[-1][1] - gene.transcripts[0].exons[0][0] < 6000]
    par = small[0]
    gst, gen = par.transcripts[0].exons[0][0], par.transcripts[0].exons[-1][1]
    copy = mutate(genomes["chr3"].get(gst, gen), 0.05, 0.0)
    p2 = free_spot(genes, "chr2", len(genomes["chr2"].seq), len(copy))
    paralog = None
    if p2 is not None:
        genomes["chr2"].put(p2, copy[: len(genomes["chr2"].seq) - p2])
        paralog = ("chr2", p2, p2 + len(copy), par.gid)
    # an N run in intergenic space of chr2
    p3 = free_spot(genes, "chr2", len(genomes["chr2"].seq), 200)
    genomes["chr2"].put(p3, "N" * 137)
    extras = {"pseudogene": pseudogene, "paralog": paralog, "nrun": ("chr2", p3, p3 + 137)}
    return contigs, genomes, genes, extras


occupied = []


def free_spot(genes, chrom, length, size):
    """A position of `size` bases between genes (and earlier insertions) on chrom."""
    spans = [(t.exons[0][0] - 200, t.exons[-1][1] + 200) for gene in genes if gene.chrom == chrom
             for t in gene.transcripts] + [(a - 200, b + 200) for c, a, b in occupied if c == chrom]
    for _ in range(1000):
        p = rng.randint(1000, length - size - 1000)
        if all(p + size <= a or p >= b for a, b in spans):
            occupied.append((chrom, p, p + size))
            return p
    return None


# ---------------------------------------------------------------------------------------
# Read simulation
# ---------------------------------------------------------------------------------------
def mutate(s, rate, hp_bias=0.5, sub_frac=0.25, ins_frac=0.33):
    """Errors at `rate` per base: substitutions, insertions (a copy of the base with
    probability hp_bias, else a random base) and deletions for the rest."""
    out = []
    p_sub, p_ins = rate * sub_frac, rate * ins_frac
    for c in s:
        r = rng.random()
        if r < p_sub:
            out.append(rng.choice([b for b in "ACGT" if b != c]))
        elif r < p_sub + p_ins:
            out.append(c if rng.random() < hp_bias else rng.choice("ACGT"))
            out.append(c)
        elif r < rate:
            continue
        else:
            out.append(c)
    return "".join(out)


def quals(n, lo, hi):
    """Phred+33 qualities in constant runs of 10-60 bases."""
    out = []
    while len(out) < n:
        q = chr(33 + rng.randint(lo, hi))
        out.extend(q * rng.randint(10, 60))
    return "".join(out[:n])


def pick_transcript(txs, weights):
    r = rng.random() * weights[-1]
    lo, hi = 0, len(weights) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if weights[mid] > r:
            hi = mid
        else:
            lo = mid + 1
    return txs[lo]


def cumulative(txs):
    w, acc = [], 0.0
    for t in txs:
        # main isoforms are expressed more; novel isoforms are rarer but present
        acc += (3.0 if t.kind == "main" else 1.2) * (0.5 + rng.random())
        w.append(acc)
    return w


def simulate(genomes, genes, name, n, style):
    txs = [t for gene in genes for t in gene.transcripts]
    weights = cumulative(txs)
    recs = []
    for i in range(n):
        t = pick_transcript(txs, weights)
        s = t.seq(genomes[t.gene.chrom])
        L = len(s)
        st, en = 0, L
        if style == "ont":
            if rng.random() < 0.35:
                st = rng.randint(0, max(0, L - 150))
            s = s[st:en] + "A" * rng.randint(8, 30)
            rate = 0.06 + rng.random() * 0.08
            s = mutate(s, rate, hp_bias=0.6, sub_frac=0.25, ins_frac=0.3)
            s = rand_seq(rng.randint(0, 25)) + s + rand_seq(rng.randint(0, 15))
            ori = "+"
            if rng.random() < 0.5:
                s, ori = revcomp(s), "-"
            q = quals(len(s), 4, 22)
        elif style == "hifi":
            rate = 0.004 + rng.random() * 0.012
            s = mutate(s, rate, hp_bias=0.7, sub_frac=0.35, ins_frac=0.35)
            ori = "+"
            q = quals(len(s), 25, 60)
        else:  # drna
            if rng.random() < 0.6:
                st = rng.randint(0, max(0, L - 120))
            s = s[st:en] + "A" * rng.randint(0, 12)
            rate = 0.08 + rng.random() * 0.05
            s = mutate(s, rate, hp_bias=0.5, sub_frac=0.3, ins_frac=0.25).replace("T", "U")
            ori = "+"
            q = quals(len(s), 3, 18)
        tag = "novel" if not t.annotated else "annotated"
        comment = "tx=%s gene=%s %s:%d-%d(%s) kind=%s %s tx_from=%d tx_to=%d read_strand=%s err=%.3f" % (
            t.tid, t.gene.gid, t.gene.chrom, t.exons[0][0], t.exons[-1][1], t.gene.strand, t.kind, tag,
            st, min(en, L), ori, rate)
        recs.append(("%s%04d" % (name, i + 1), comment, s, q))
    n_rand = {"ont": 8, "hifi": 4, "drna": 4}[style]
    for i in range(n_rand):
        s = rand_seq(rng.randint(300, 2000), gc=0.45)
        if style == "drna":
            s = s.replace("T", "U")
        q = quals(len(s), 5, 30)
        recs.append(("%s_rand%02d" % (name, i + 1), "unrelated random sequence", s, q))
    return recs


# ---------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------
def gz_write(path, text):
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as f:
            f.write(text.encode())


def write_fasta(path, contigs, genomes):
    out = []
    for chrom, _ in contigs:
        s = "".join(genomes[chrom].seq)
        out.append(">%s synthetic contig\n" % chrom)
        out.extend(s[i:i + 80] + "\n" for i in range(0, len(s), 80))
    gz_write(path, "".join(out))


def write_fastq(path, recs):
    gz_write(path, "".join("@%s %s\n%s\n+\n%s\n" % r for r in recs))


def attr(gene, t, extra=""):
    return 'gene_id "%s"; transcript_id "%s";%s' % (gene.gid, t.tid, extra)


def write_gtf(path, genes):
    out = []
    for gene in genes:
        txs = [t for t in gene.transcripts if t.annotated]
        if not txs:
            continue
        st = min(t.exons[0][0] for t in txs)
        en = max(t.exons[-1][1] for t in txs)
        out.append("%s\tsynthetic\tgene\t%d\t%d\t.\t%s\t.\tgene_id \"%s\";\n" % (gene.chrom, st + 1, en, gene.strand, gene.gid))
        for t in txs:
            out.append("%s\tsynthetic\ttranscript\t%d\t%d\t.\t%s\t.\t%s\n" % (
                gene.chrom, t.exons[0][0] + 1, t.exons[-1][1], gene.strand, attr(gene, t, ' isoform_kind "%s";' % t.kind)))
            order = t.exons if gene.strand == "+" else t.exons[::-1]
            for k, (a, b) in enumerate(order):
                out.append("%s\tsynthetic\texon\t%d\t%d\t.\t%s\t.\t%s\n" % (
                    gene.chrom, a + 1, b, gene.strand, attr(gene, t, ' exon_number "%d";' % (k + 1))))
    with open(path, "w") as f:
        f.write("".join(out))


def write_bed12(path, genes):
    out = []
    for gene in genes:
        for t in gene.transcripts:
            if not t.in_bed12:
                continue
            st, en = t.exons[0][0], t.exons[-1][1]
            sizes = ",".join(str(b - a) for a, b in t.exons) + ","
            starts = ",".join(str(a - st) for a, b in t.exons) + ","
            out.append("%s\t%d\t%d\t%s\t0\t%s\t%d\t%d\t0\t%d\t%s\t%s\n" % (
                gene.chrom, st, en, t.tid, gene.strand, st, en, len(t.exons), sizes, starts))
    with open(path, "w") as f:
        f.write("".join(out))


def write_intron_bed(path, genes, chosen):
    seen, out = set(), []
    for gene in genes:
        if gene.gid not in chosen:
            continue
        for t in gene.transcripts:
            if not t.annotated:
                continue
            for ist, ien in t.introns():
                if (ist, ien) in seen:
                    continue
                seen.add((ist, ien))
                out.append((gene.chrom, ist, ien, "%s_intron" % gene.gid, gene.strand))
    out.sort()
    with open(path, "w") as f:
        f.write("".join("%s\t%d\t%d\t%s\t0\t%s\n" % r for r in out))


def write_transcripts(path, genomes, genes):
    out = ["#tx\tgene\tchrom\tstrand\tkind\tannotated\tin_bed12\tin_introns_bed\tlength\texons\tintron_motifs\n"]
    for gene in genes:
        for t in gene.transcripts:
            motifs = []
            g = genomes[gene.chrom]
            for ist, ien in t.introns():
                m = g.get(ist, ist + 2) + "-" + g.get(ien - 2, ien)
                motifs.append(m if gene.strand == "+" else revcomp(g.get(ien - 2, ien)) + "-" + revcomp(g.get(ist, ist + 2)))
            out.append("%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\t%s\n" % (
                t.tid, gene.gid, gene.chrom, gene.strand, t.kind, t.annotated, t.in_bed12, gene.in_intron_bed,
                t.length(), ",".join("%d-%d" % e for e in t.exons), ",".join(motifs) or "."))
    with open(path, "w") as f:
        f.write("".join(out))


def main():
    # make_splice_data.py [OUTDIR [ONT_READS]]: a larger ONT_READS (bench/mapping.sh's
    # splice set) changes only the reads drawn after it, never the committed files' bytes
    # at the default of 360.
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    n_ont = int(sys.argv[2]) if len(sys.argv) > 2 else 360
    os.makedirs(outdir, exist_ok=True)
    contigs, genomes, genes, extras = make_genome()
    # junction BEDs: BED12 of the annotated transcripts of about half the annotated
    # genes; 6-column introns of about a third of the others
    intron_genes = set()
    for gene in genes:
        gene.in_intron_bed = 0
        if not gene.annotated:
            continue
        r = rng.random()
        if r < 0.5:
            for t in gene.transcripts:
                t.in_bed12 = t.annotated and len(t.exons) > 1
        elif r < 0.7:
            intron_genes.add(gene.gid)
            gene.in_intron_bed = 1
    write_fasta(os.path.join(outdir, "genome.fa.gz"), contigs, genomes)
    write_gtf(os.path.join(outdir, "genes.gtf"), genes)
    write_bed12(os.path.join(outdir, "annot.bed12"), genes)
    write_intron_bed(os.path.join(outdir, "introns.bed"), genes, intron_genes)
    write_transcripts(os.path.join(outdir, "transcripts.tsv"), genomes, genes)
    write_fastq(os.path.join(outdir, "ont.fq.gz"), simulate(genomes, genes, "ont", n_ont, "ont"))
    write_fastq(os.path.join(outdir, "hifi.fq.gz"), simulate(genomes, genes, "hifi", 160, "hifi"))
    write_fastq(os.path.join(outdir, "drna.fq.gz"), simulate(genomes, genes, "drna", 160, "drna"))
    with open(os.path.join(outdir, "features.tsv"), "w") as f:
        f.write("#feature\tchrom\tstart\tend\tnote\n")
        c, a, b, src = extras["pseudogene"]
        f.write("processed_pseudogene\t%s\t%d\t%d\tintronless copy of %s (3%% divergent)\n" % (c, a, b, src))
        if extras["paralog"]:
            c, a, b, src = extras["paralog"]
            f.write("paralog\t%s\t%d\t%d\tcopy of gene %s (5%% divergent)\n" % (c, a, b, src))
        c, a, b = extras["nrun"]
        f.write("N_run\t%s\t%d\t%d\t137 N\n" % (c, a, b))
    n_tx = sum(len(g.transcripts) for g in genes)
    n_in = sum(len(t.introns()) for g in genes for t in g.transcripts)
    sys.stderr.write("genes %d, transcripts %d, transcript introns %d\n" % (len(genes), n_tx, n_in))


if __name__ == "__main__":
    main()
