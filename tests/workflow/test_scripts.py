#!/usr/bin/env python3
"""Unit tests of the workflow's helper scripts (workflow/scripts/).

split_reads.py: on the bundled example (data/reads.fq, plain and gzip) and on FASTA and
FASTQ files made here (multi-line records, a quality line that starts with '@',
comments), the chunks concatenated give the input back byte for byte (order kept, every
read exactly once), there are as many chunks as asked, each is a contiguous run of reads
with about a 1/N share of the bases; fewer reads than chunks and an empty file give
empty chunks; gzip chunks are gzip; bad input is an error naming the file and line that
leaves no chunk file. gather_sam.py: the header once, the records in chunk order, and
chunks whose headers differ beyond @PG refused.

Run by meson (suite workflow) with AGATHA_SOURCE_DIR set to the source tree.
"""

import gzip
import os
import random
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.environ.get("AGATHA_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPTS = os.path.join(SOURCE, "workflow", "scripts")
sys.path.insert(0, SCRIPTS)

import split_reads  # noqa: E402


def run_script(name, *args):
    return subprocess.run([sys.executable, os.path.join(SCRIPTS, name), *args], capture_output=True, text=True)


def read_any(path):
    with open(path, "rb") as f:
        data = f.read()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def fastq_names(data):
    lines = data.split(b"\n")
    return [lines[i][1:].split()[0] for i in range(0, len(lines) - 1, 4)]


class SplitReads(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def split(self, reads, n, ext="fq"):
        outs = [self.path(f"chunk{i:03d}.{ext}") for i in range(n)]
        r = run_script("split_reads.py", reads, *outs)
        self.assertEqual(r.returncode, 0, r.stderr)
        return outs

    def assert_partition(self, reads, outs):
        """The chunks, in order, are the input byte for byte; returns each chunk's bytes."""
        chunks = [read_any(o) for o in outs]
        self.assertEqual(b"".join(chunks), read_any(reads))
        return chunks

    def test_bundled_example_in_four_chunks_by_bases(self):
        reads = os.path.join(SOURCE, "data", "reads.fq")
        outs = self.split(reads, 4)
        self.assertEqual(sorted(os.listdir(self.dir)), [os.path.basename(o) for o in outs])
        chunks = self.assert_partition(reads, outs)
        names = [fastq_names(c) for c in chunks]
        everything = fastq_names(read_any(reads))
        self.assertEqual(sum(names, []), everything)  # order kept, each read once
        self.assertEqual(len(set(everything)), len(everything))
        # Bases per chunk: within the longest read of a quarter of the total.
        lens = [len(s) for s in read_any(reads).split(b"\n")[1::4]]
        total, longest = sum(lens), max(lens)
        for c in chunks:
            bases = sum(len(s) for s in c.split(b"\n")[1::4])
            self.assertLessEqual(abs(bases - total / 4), longest, f"chunk of {bases} bases, total {total}")
            self.assertGreater(len(fastq_names(c)), 0)

    def test_gzip_input_and_output(self):
        src = os.path.join(SOURCE, "data", "reads.fq")
        reads = self.path("reads.fq.gz")
        with open(src, "rb") as f, gzip.open(reads, "wb") as g:
            g.write(f.read())
        self.assertEqual(split_reads.chunk_extension(reads), "fq.gz")
        outs = self.split(reads, 3, "fq.gz")
        for o in outs:
            with open(o, "rb") as f:
                self.assertEqual(f.read(2), b"\x1f\x8b", o)
        self.assert_partition(reads, outs)
        # Plain chunks from gzip input, too.
        plain = [self.path(f"p{i}.fq") for i in range(3)]
        self.assertEqual(run_script("split_reads.py", reads, *plain).returncode, 0)
        self.assertEqual(b"".join(read_any(p) for p in plain), read_any(reads))

    def test_multiline_fasta_and_fastq(self):
        rng = random.Random(16)
        fa, fq, lengths = [], [], []
        for i in range(40):
            n = rng.randrange(1, 500)
            lengths.append(n)
            seq = "".join(rng.choice("ACGT") for _ in range(n))
            qual = "@" + "".join(rng.choice("!#+@ABI") for _ in range(n - 1))  # may start lines with '@' or '+'
            wrap = lambda s: "\n".join(s[j:j + 60] for j in range(0, len(s), 60))  # noqa: E731
            fa.append(f">r{i} comment {i}\n{wrap(seq)}\n")
            fq.append(f"@r{i}\tBC:Z:x\n{wrap(seq)}\n+\n{wrap(qual)}\n")
        for name, text, ext in (("m.fa", "".join(fa), "fa"), ("m.fq", "".join(fq), "fq")):
            with self.subTest(name):
                reads = self.path(name)
                with open(reads, "w") as f:
                    f.write(text)
                self.assertEqual(split_reads.chunk_extension(reads), ext)
                got = [(lines[0].split()[0], bases) for lines, bases in split_reads.records(reads)]
                self.assertEqual(got, [((">" if ext == "fa" else "@").encode() + f"r{i}".encode(), n)
                                       for i, n in enumerate(lengths)])
                outs = self.split(reads, 5, ext)
                self.assert_partition(reads, outs)
                for o in outs:
                    os.remove(o)

    def test_fewer_reads_than_chunks_and_empty_input(self):
        reads = self.path("two.fq")
        with open(reads, "w") as f:
            f.write("@a\nACGT\n+\nIIII\n@b\nACGTACGT\n+\nIIIIIIII\n")
        outs = self.split(reads, 5)
        chunks = self.assert_partition(reads, outs)
        self.assertEqual(len(chunks), 5)
        self.assertEqual(sum(1 for c in chunks if c), 2)
        empty = self.path("empty.fq")
        open(empty, "w").close()
        self.assertEqual(split_reads.chunk_extension(empty), "fq")
        outs = self.split(empty, 3, "e.fq")
        self.assertEqual([read_any(o) for o in outs], [b"", b"", b""])

    def test_chunk_of_is_monotone_and_covers_every_chunk(self):
        rng = random.Random(7)
        for n in (1, 2, 4, 7):
            lens = [rng.randrange(0, 1000) for _ in range(200)]
            total, before, seen = sum(lens), 0, []
            for b in lens:
                seen.append(split_reads.chunk_of(before, b, total, n))
                before += b
            self.assertEqual(seen, sorted(seen))
            self.assertEqual(set(seen), set(range(n)))
        self.assertEqual(split_reads.chunk_of(0, 0, 0, 4), 0)

    def test_bad_input_names_the_file_and_leaves_no_chunk(self):
        cases = {
            "text.fq": ("\nhello\n", "line 2: not FASTA or FASTQ: expected '>' or '@', found 'h'"),
            "cut.fq": ("@a\nACGT\n+\nIIII\n@b\nACGT\n", "line 5: record cut short (no '+' line)"),
            "short.fq": ("@a\nACGT\n+\nII\n", "line 1: record cut short (quality shorter than the sequence)"),
            "lost.fa": ("ACGT\n>a\nACGT\n", "line 1: not FASTA or FASTQ: expected '>' or '@', found 'A'"),
        }
        for name, (text, message) in cases.items():
            with self.subTest(name):
                reads = self.path(name)
                with open(reads, "w") as f:
                    f.write(text)
                outs = [self.path(f"x{i}.fq") for i in range(2)]
                r = run_script("split_reads.py", reads, *outs)
                self.assertEqual(r.returncode, 1)
                self.assertIn(f"'{reads}'", r.stderr)
                self.assertIn(message, r.stderr)
                self.assertFalse(any(os.path.exists(o) for o in outs))
        r = run_script("split_reads.py", self.path("missing.fq"), self.path("y.fq"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("missing.fq", r.stderr)


class GatherSam(unittest.TestCase):
    HEADER = "@SQ\tSN:c\tLN:100\n"

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_header_once_then_records_in_chunk_order(self):
        a = self.write("a.sam", self.HEADER + "@PG\tID:agatha\tCL:a\nr1\t0\tc\t1\n")
        b = self.write("b.sam", self.HEADER + "@PG\tID:agatha\tCL:b\nr2\t4\t*\t0\nr3\t0\tc\t5\n")
        c = self.write("c.sam", self.HEADER + "@PG\tID:agatha\tCL:c\n")
        out = os.path.join(self.dir, "out.sam")
        r = run_script("gather_sam.py", out, a, b, c)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            self.assertEqual(f.read(), self.HEADER + "@PG\tID:agatha\tCL:a\nr1\t0\tc\t1\nr2\t4\t*\t0\nr3\t0\tc\t5\n")

    def test_different_headers_are_refused(self):
        a = self.write("a.sam", self.HEADER + "r1\t0\tc\t1\n")
        b = self.write("b.sam", "@SQ\tSN:c\tLN:101\nr2\t0\tc\t1\n")
        out = os.path.join(self.dir, "out.sam")
        r = run_script("gather_sam.py", out, a, b)
        self.assertEqual(r.returncode, 1)
        self.assertIn(f"'{b}': its header differs from that of '{a}'", r.stderr)
        self.assertFalse(os.path.exists(out))
        late = self.write("late.sam", self.HEADER + "r1\t0\tc\t1\n@CO\tlate\n")
        r = run_script("gather_sam.py", out, a, late)
        self.assertEqual(r.returncode, 1)
        self.assertIn("a header line after the records", r.stderr)
        self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main(verbosity=2)
