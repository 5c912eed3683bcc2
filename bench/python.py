#!/usr/bin/env python3
"""bench/python.py - the Python module against mappy on the same reads: mappy mapping them
from THREADS Python threads (a ThreadBuffer each, as mappy's docs advise), agatha doing
the same, and agatha's map_many(reads, THREADS). Prints wall seconds (median of REPEATS
runs, alternating), hits/s and agatha/mappy time ratios; checks that every hit is the
same (fields as tests/python/hits.py lists them, cs left out).

    bench/python.py REF READS [PRESET] [--threads 2] [--repeats 3] [--compat 2.24]

Run it with a Python that imports both agatha and mappy (scripts/python-tests.sh makes
one: build/python/venv/bin/python, which sees Debian's mappy 2.24; --compat 2.24 then).
The index is built once per program before the clock starts.
"""
import argparse
import statistics
import sys
import threading
import time

import agatha
import mappy


def hit_key(h):
    return (h.ctg, h.r_st, h.r_en, h.strand, h.q_st, h.q_en, h.mapq, h.cigar_str, h.is_primary, h.mlen, h.blen, h.NM,
            h.trans_strand, h.read_num)


def threaded(aligner, seqs, threads, buffers):
    out = [None] * len(seqs)

    def work(t):
        kw = {"buf": buffers[t]} if buffers else {}
        for i in range(t, len(seqs), threads):
            out[i] = [hit_key(h) for h in aligner.map(seqs[i], **kw)]

    pool = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    for p in pool:
        p.start()
    for p in pool:
        p.join()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ref")
    ap.add_argument("reads")
    ap.add_argument("preset", nargs="?", default="map-ont")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--compat", default="2.24")
    args = ap.parse_args()
    seqs = [s for _, s, _ in mappy.fastx_read(args.reads)]
    m = mappy.Aligner(args.ref, preset=args.preset, n_threads=args.threads)
    a = agatha.Aligner(args.ref, preset=args.preset, n_threads=args.threads, compat=args.compat)
    runs = {
        "mappy, Python threads": lambda: threaded(m, seqs, args.threads, [mappy.ThreadBuffer() for _ in range(args.threads)]),
        "agatha, Python threads": lambda: threaded(a, seqs, args.threads, None),
        "agatha map_many": lambda: [[hit_key(h) for h in hs] for hs in a.map_many(seqs, args.threads)],
    }
    times = {k: [] for k in runs}
    results = {}
    for _ in range(args.repeats):
        for name, run in runs.items():
            t0 = time.perf_counter()
            results[name] = run()
            times[name].append(time.perf_counter() - t0)
    want = results["mappy, Python threads"]
    n_hits = sum(map(len, want))
    base = statistics.median(times["mappy, Python threads"])
    print(f"{len(seqs)} reads, {sum(map(len, seqs))} bases, {n_hits} hits; preset {args.preset}; "
          f"{args.threads} threads; median of {args.repeats}")
    print(f"{'run':24s} {'seconds':>8s} {'hits/s':>10s} {'ratio':>6s} same")
    for name in runs:
        t = statistics.median(times[name])
        print(f"{name:24s} {t:8.2f} {n_hits / t:10.1f} {t / base:6.2f} {'yes' if results[name] == want else 'NO'}")
    return 0 if all(results[n] == want for n in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
