#!/usr/bin/env python3
"""Splits a FASTA or FASTQ file (plain or gzip) into chunk files by bases, in read order.

    split_reads.py READS CHUNK_1 ... CHUNK_N
    split_reads.py --extension READS

The first form writes N chunk files: each holds a contiguous run of the reads, every
read is in exactly one, and the chunks hold about the same number of bases (a read goes
to the chunk its middle base falls in when the bases are cut into N equal parts, so a
chunk may be empty when there are fewer reads than chunks, or one read is very long).
Records are copied byte for byte, header comments and line breaks included (blank
lines before the first record, and between FASTQ records, are left out). A chunk
whose name ends in ".gz" is written gzip-compressed (level 1). Counts go to stderr.

The second form prints the file name extension chunks of READS take: "fq" or "fa",
with ".gz" when READS is gzip ("fq" for an empty file).

The reads are read twice (the total number of bases first), never held in memory.
Bad input (not FASTA/FASTQ, a record cut short) is an error naming the file and line,
exit status 1, and no chunk file is left.
"""

import gzip
import os
import sys


class InputError(Exception):
    pass


def is_gzip(path):
    with open(path, "rb") as f:
        return f.read(2) == b"\x1f\x8b"


def open_reads(path):
    return gzip.open(path, "rb") if is_gzip(path) else open(path, "rb")


def sniff(path):
    """'fastq', 'fasta' or None (no records), from the first byte that is not blank."""
    with open_reads(path) as f:
        for no, line in enumerate(f, 1):
            s = line.strip()
            if not s:
                continue
            if s.startswith(b"@"):
                return "fastq"
            if s.startswith(b">"):
                return "fasta"
            found = s[:1].decode("latin-1")
            raise InputError(f"'{path}' line {no}: not FASTA or FASTQ: expected '>' or '@', found '{found}'")
    return None


def chunk_extension(path):
    """The extension of the chunk files of `path`: fq or fa, plus .gz for gzip input."""
    ext = "fa" if sniff(path) == "fasta" else "fq"
    return ext + ".gz" if is_gzip(path) else ext


def records(path):
    """Yields (raw lines, bases) per record of `path`, in order."""
    kind = sniff(path)
    if kind is None:
        return
    with open_reads(path) as f:
        yield from (_fasta if kind == "fasta" else _fastq)(path, f)


def _fasta(path, f):
    lines, bases = None, 0
    for line in f:
        if line.startswith(b">"):
            if lines is not None:
                yield lines, bases
            lines, bases = [line], 0
        elif lines is not None:  # a sequence line (before the first header sniff lets only blank lines through)
            lines.append(line)
            bases += len(line.strip())
    if lines is not None:
        yield lines, bases


def _fastq(path, f):
    """FASTQ records; sequence and quality may take several lines each (kseq reads them so):
    the quality ends once it is as long as the sequence, so a quality line that starts
    with '@' or '+' is not taken for a header."""
    it = enumerate(f, 1)
    for no, line in it:
        if not line.strip():
            continue
        if not line.startswith(b"@"):
            raise InputError(f"'{path}' line {no}: expected a FASTQ header ('@'), found {line[:1]!r}")
        lines, start = [line], no
        seq = 0
        for no, line in it:
            lines.append(line)
            if line.startswith(b"+"):
                break
            seq += len(line.strip())
        else:
            raise InputError(f"'{path}' line {start}: record cut short (no '+' line)")
        qual = 0
        while qual < seq:
            nxt = next(it, None)
            if nxt is None:
                raise InputError(f"'{path}' line {start}: record cut short (quality shorter than the sequence)")
            no, line = nxt
            lines.append(line)
            qual += len(line.strip())
        yield lines, seq


def chunk_of(bases_before, bases, total, n):
    """The chunk of a read: where its middle base falls among n equal parts of `total`."""
    if total == 0:
        return 0
    return min(n - 1, (2 * bases_before + bases) * n // (2 * total))


def split(path, outputs):
    """Writes the reads of `path` into the files `outputs`; returns [(reads, bases)] per chunk."""
    n = len(outputs)
    total = sum(b for _, b in records(path))
    counts = [[0, 0] for _ in range(n)]
    files = [gzip.open(o, "wb", compresslevel=1) if o.endswith(".gz") else open(o, "wb") for o in outputs]
    try:
        before = 0
        for lines, bases in records(path):
            k = chunk_of(before, bases, total, n)
            files[k].writelines(lines)
            counts[k][0] += 1
            counts[k][1] += bases
            before += bases
    finally:
        for f in files:
            f.close()
    return [tuple(c) for c in counts]


def main(argv):
    if len(argv) == 3 and argv[1] == "--extension":
        print(chunk_extension(argv[2]))
        return 0
    if len(argv) < 3 or argv[1].startswith("-"):
        print(__doc__.strip().split("\n\n")[0], file=sys.stderr)
        return 2
    reads, outputs = argv[1], argv[2:]
    try:
        counts = split(reads, outputs)
    except (InputError, OSError, EOFError) as e:
        for o in outputs:
            if os.path.exists(o):
                os.remove(o)
        print(f"[E::split_reads] {e}", file=sys.stderr)
        return 1
    for o, (r, b) in zip(outputs, counts):
        print(f"[M::split_reads] {o}: {r} reads, {b} bases", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
