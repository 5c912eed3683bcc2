"""The hits of mappy-compatible modules (mappy, agatha) on a data set, as plain values.

    python hits.py MODULE REF READS[,READS2] PRESET|- [COMPAT|-] [named]

prints, for every read (or pair, when two reads files are given: map(seq, seq2)) in
order, the list of its hits, each hit's fields as a list (FIELDS); MODULE is imported by
name; COMPAT is passed to agatha's Aligner only; `named` passes each read's name
(mappy 2.31's map(name=)). The tests compare these lists.
"""
import importlib
import json
import sys

FIELDS = ["ctg", "ctg_len", "r_st", "r_en", "strand", "q_st", "q_en", "mapq", "cigar", "is_primary", "mlen", "blen",
          "NM", "trans_strand", "read_num", "cs", "MD", "cigar_str", "str"]


def read_records(mod, path):
    return [(name, seq) for name, seq, _ in mod.fastx_read(path)]


def hits_of(module_name, ref, reads, preset, compat=None, named=False):
    mod = importlib.import_module(module_name)
    kw = {} if module_name == "mappy" or compat is None else {"compat": compat}
    aligner = mod.Aligner(ref, preset=preset, **kw)
    files = reads.split(",")
    out = []
    if len(files) == 1:
        for name, seq in read_records(mod, files[0]):
            kw = {"name": name} if named else {}
            out.append([fields(h) for h in aligner.map(seq, cs=True, MD=True, **kw)])
    else:
        for (name, s1), (_, s2) in zip(read_records(mod, files[0]), read_records(mod, files[1])):
            kw = {"name": name} if named else {}
            out.append([fields(h) for h in aligner.map(s1, s2, cs=True, MD=True, **kw)])
    return out


def fields(h):
    return [str(h) if f == "str" else getattr(h, f) for f in FIELDS]


if __name__ == "__main__":
    module_name, ref, reads, preset = sys.argv[1:5]
    compat = sys.argv[5] if len(sys.argv) > 5 and sys.argv[5] != "-" else None
    named = len(sys.argv) > 6 and sys.argv[6] == "named"
    json.dump(hits_of(module_name, ref, reads, None if preset == "-" else preset, compat, named), sys.stdout)
