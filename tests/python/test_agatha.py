"""The Python module `agatha` against mappy, minimap2's own binding (scripts/python-tests.sh
runs these): every field of every hit, on the bundled example and on every data set of
the end-to-end cases (tests/data/e2e/cases.tsv: reference, reads and preset), equal to
mappy 2.24's (Debian's python3-mappy, imported here) under compat="2.24" and to mappy
2.31's (built from its sdist; a subprocess, MAPPY231_PYTHON) by default; map_many equal
to map() for any number of threads; and bad input as exceptions.

mappy's own quirk on pairs is kept where it is harmless and not where it is not: a second
read's hits keep their coordinates on its reverse complement (as mappy's), but their
cs/MD are computed on that read (mappy computes them on the first read, which misplaces
them), so those two fields of second reads are not compared.
"""
import json
import os
import pathlib
import subprocess
import sys
import threading

import pytest

import agatha

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(pathlib.Path(__file__).parent))
import hits as hits_mod  # noqa: E402

try:
    import mappy
except ImportError:  # pragma: no cover - reported by the tests that need it
    mappy = None

MAPPY231 = os.environ.get("MAPPY231_PYTHON", "")
CS = hits_mod.FIELDS.index("cs")
READ_NUM = hits_mod.FIELDS.index("read_num")
STR = hits_mod.FIELDS.index("str")
ALIGNMENT_FORMATS = (".bam", ".cram", ".sam.gz")
# Presets minimap2 2.24 does not have (mappy 2.24 ignores an unknown preset silently;
# agatha raises OptionError).
ONLY_231 = {"lr", "lr:hq", "lr:hqae", "map-iclr", "map-iclr-prerender"}


def e2e_sets():
    """(reference, reads, preset) of the e2e cases, once each: one reads file, or two
    (pairs); preset None for minimap2's defaults."""
    sets = set()
    for line in (ROOT / "tests/data/e2e/cases.tsv").read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        _, _, ref, reads, opts = line.split("\t")
        files = reads.split()
        if len(files) > 2 or any(f.endswith(ALIGNMENT_FORMATS) for f in files):
            continue
        words = opts.split()
        preset = words[words.index("-x") + 1] if "-x" in words else None
        sets.add((ref, ",".join(files), preset))
    return sorted(sets, key=lambda s: (s[0], s[1], s[2] or ""))


SETS = e2e_sets()


def set_id(s):
    return f"{pathlib.Path(s[1].split(',')[0]).name}-{s[2] or 'default'}"


def comparable(all_hits, pairs, weak=False):
    """Hits as lists, without the cs/MD of second reads of pairs (see the module doc); with
    minimap2 2.31's weak pairing (splice:sr), whose hits all have read_num 1, of every read."""
    out = []
    for read in all_hits:
        row = []
        for h in read:
            h = list(h)
            if pairs and (h[READ_NUM] == 2 or weak):
                h[CS] = h[CS + 1] = None
                h[STR] = h[STR].split("\tcs:Z:")[0]
            row.append(h)
        out.append(row)
    return out


def first_difference(want, got):
    if len(want) != len(got):
        return f"{len(want)} reads vs {len(got)}"
    for i, (a, b) in enumerate(zip(want, got)):
        if a != b:
            return f"read {i}:\n  mappy:  {str(a)[:800]}\n  agatha: {str(b)[:800]}"
    return ""


def in_root(path):
    return str(ROOT / path)


@pytest.mark.parametrize("s", SETS, ids=set_id)
def test_hits_equal_mappy_224(s):
    if mappy is None:
        pytest.skip("mappy 2.24 is not installed (Debian: python3-mappy)")
    ref, reads, preset = s
    if preset in ONLY_231:
        pytest.skip(f"minimap2 2.24 has no preset {preset}")
    files = ",".join(in_root(f) for f in reads.split(","))
    want = comparable(hits_mod.hits_of("mappy", in_root(ref), files, preset), "," in reads)
    got = comparable(hits_mod.hits_of("agatha", in_root(ref), files, preset, "2.24"), "," in reads)
    assert sum(map(len, want)) > 0 or reads.endswith("MT-orang.fa.gz")
    assert first_difference(want, got) == ""


@pytest.mark.parametrize("s", SETS, ids=set_id)
def test_hits_equal_mappy_231(s):
    """The default release against mappy 2.31, with read names (2.31's map(name=): the
    per-read hash and the all-vs-all self and dual filters use them, as the CLI's)."""
    if not MAPPY231:
        pytest.skip("mappy 2.31 is not available (scripts/python-tests.sh builds it from its sdist)")
    ref, reads, preset = s
    files = ",".join(in_root(f) for f in reads.split(","))
    run = subprocess.run([MAPPY231, str(pathlib.Path(__file__).parent / "hits.py"), "mappy", in_root(ref), files,
                          preset or "-", "-", "named"], capture_output=True, text=True, check=True,
                         env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    weak = preset == "splice:sr"
    want = comparable(json.loads(run.stdout), "," in reads, weak)
    got = comparable(hits_mod.hits_of("agatha", in_root(ref), files, preset, named=True), "," in reads, weak)
    assert sum(map(len, want)) > 0 or reads.endswith("MT-orang.fa.gz")
    assert first_difference(want, got) == ""


def test_maps_the_bundled_example():
    a = agatha.Aligner(in_root("data/ref.fa"), preset="map-pb")
    assert a and a.seq_names == ["MT_orang"] and a.n_seq == 1 and (a.k, a.w) == (19, 10)
    n, primary = 0, 0
    for name, seq, qual in agatha.fastx_read(in_root("data/reads.fq")):
        n += 1
        hits = list(a.map(seq))
        primary += sum(h.is_primary for h in hits)
        for h in hits:
            assert h.ctg == "MT_orang" and 0 <= h.r_st < h.r_en <= h.ctg_len and h.cigar_str
    assert n == 155 and primary == 155


def test_reference_access_and_helpers_equal_mappy():
    if mappy is None:
        pytest.skip("mappy 2.24 is not installed")
    ref = in_root("tests/data/e2e/MT-human.fa.gz")
    a, m = agatha.Aligner(ref, compat="2.24"), mappy.Aligner(ref)
    assert a.seq_names == m.seq_names and (a.k, a.w, a.n_seq) == (m.k, m.w, m.n_seq)
    name = a.seq_names[0]
    for start, end in [(0, 100), (16000, 0x7fffffff), (5, 5), (20000, 20010), (-3, 10)]:
        assert a.seq(name, start, end) == m.seq(name, start, end), (start, end)
    assert a.seq("no-such-sequence") is None
    seq = "ACGTNacgtnRYMK" * 3
    assert agatha.revcomp(seq) == mappy.revcomp(seq)
    for comment in (False, True):
        assert list(agatha.fastx_read(in_root("tests/data/e2e/mt.sub.fq.gz"), comment)) == \
            list(mappy.fastx_read(in_root("tests/data/e2e/mt.sub.fq.gz"), comment))


@pytest.mark.parametrize("kw", [
    {"k": 15, "w": 5}, {"min_cnt": 2, "min_chain_score": 20}, {"bw": 100, "best_n": 1}, {"min_dp_score": 400},
    {"scoring": [1, 2, 2, 1]}, {"scoring": [2, 4, 4, 2, 24, 1, 2]}, {"extra_flags": 0x4000000},  # MM_F_EQX
    {"extra_flags": 0x100000}, {"extra_flags": 0x200000},  # MM_F_FOR_ONLY, MM_F_REV_ONLY
], ids=lambda kw: "-".join(f"{k}={v}" for k, v in kw.items()))
def test_keywords_equal_mappy_224(kw):
    if mappy is None:
        pytest.skip("mappy 2.24 is not installed")
    ref, reads = in_root("tests/data/e2e/ont.ref.fa.gz"), in_root("tests/data/e2e/ont.reads.fq.gz")
    m, a = mappy.Aligner(ref, preset="map-ont", **kw), agatha.Aligner(ref, preset="map-ont", compat="2.24", **kw)
    for _, seq, _ in mappy.fastx_read(reads):
        want = [hits_mod.fields(h) for h in m.map(seq, cs=True, MD=True)]
        assert [hits_mod.fields(h) for h in a.map(seq, cs=True, MD=True)] == want


def test_aligner_of_one_sequence_equals_mappy():
    if mappy is None:
        pytest.skip("mappy 2.24 is not installed")
    ref = next(agatha.fastx_read(in_root("data/ref.fa")))[1]
    m, a = mappy.Aligner(seq=ref, preset="map-pb"), agatha.Aligner(seq=ref, preset="map-pb", compat="2.24")
    for _, seq, _ in list(mappy.fastx_read(in_root("data/reads.fq")))[:40]:
        assert [hits_mod.fields(h) for h in a.map(seq)] == [hits_mod.fields(h) for h in m.map(seq)]


def test_map_many_equals_map_for_any_threads():
    a = agatha.Aligner(in_root("tests/data/e2e/ont.ref.fa.gz"), preset="sr")
    r1 = [s for _, s, _ in agatha.fastx_read(in_root("tests/data/e2e/pe.r1.fq.gz"))]
    r2 = [s for _, s, _ in agatha.fastx_read(in_root("tests/data/e2e/pe.r2.fq.gz"))]
    reads = r1[:60] + list(zip(r1[60:], r2[60:]))
    want = [[hits_mod.fields(h) for h in (a.map(*r, cs=True) if isinstance(r, tuple) else a.map(r, cs=True))]
            for r in reads]
    for threads in (1, 2, 3, 8):
        got = a.map_many(reads, threads, cs=True)
        assert [[hits_mod.fields(h) for h in hs] for hs in got] == want, threads


def test_map_from_several_python_threads():
    a = agatha.Aligner(in_root("data/ref.fa"), preset="map-pb")
    reads = [s for _, s, _ in agatha.fastx_read(in_root("data/reads.fq"))]
    want = [[hits_mod.fields(h) for h in a.map(s)] for s in reads]
    got = [None] * len(reads)

    def work(t):
        for i in range(t, len(reads), 4):
            got[i] = [hits_mod.fields(h) for h in a.map(reads[i])]

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == want


def test_backends_and_isas_give_the_same_hits():
    ref, reads = in_root("tests/data/e2e/ont.ref.fa.gz"), in_root("tests/data/e2e/ont.reads.fq.gz")
    seqs = [s for _, s, _ in agatha.fastx_read(reads)]
    want = None
    for kw in ({"backend": "scalar"}, {"backend": "cpu", "isa": "sse41"}, {"backend": "cpu"}, {"backend": "gpu-sim"}):
        a = agatha.Aligner(ref, preset="map-ont", **kw)
        got = [[hits_mod.fields(h) for h in hs] for hs in a.map_many(seqs, 2, cs=True, MD=True)]
        want = want or got
        assert got == want, kw


def test_bad_input_raises_with_the_cli_messages(tmp_path):
    with pytest.raises(agatha.InputError, match="cannot open '/no/such/ref.fa'"):
        agatha.Aligner("/no/such/ref.fa")
    bad = tmp_path / "bad.fa"
    bad.write_text("hello\n")
    with pytest.raises(agatha.InputError, match="not FASTA or FASTQ"):
        agatha.Aligner(str(bad))
    with pytest.raises(agatha.OptionError, match="unknown preset"):
        agatha.Aligner(in_root("data/ref.fa"), preset="no-such-preset")
    with pytest.raises(agatha.OptionError, match="not a release"):
        agatha.Aligner(in_root("data/ref.fa"), compat="2.17")
    with pytest.raises(agatha.OptionError, match="extra_flags"):
        agatha.Aligner(in_root("data/ref.fa"), extra_flags=1 << 40)
    with pytest.raises(agatha.Error):
        agatha.Aligner(in_root("data/ref.fa"), backend="no-such-backend")
    with pytest.raises(agatha.InputError):
        list(agatha.fastx_read("/no/such/reads.fq"))
    a = agatha.Aligner(in_root("data/ref.fa"), preset="map-pb")
    assert list(a.map("")) == [] and list(a.map("NNNN")) == []
    with pytest.raises(TypeError):
        a.map_many([b"ACGT", 5])
