"""agatha: long-read alignment whose results equal minimap2's, with mappy's Python API.

    import agatha
    a = agatha.Aligner("ref.fa", preset="map-ont")
    for hit in a.map(seq):
        print(hit.ctg, hit.r_st, hit.r_en, hit.strand, hit.mapq, hit.cigar_str)

Aligner, Alignment, fastx_read, revcomp and ThreadBuffer behave as mappy's (minimap2
2.31's by default; compat="2.24" for 2.24's). Beyond mappy: Aligner(..., compat=,
backend=, isa=) and Aligner.map_many(reads, threads), which maps many reads (sequences,
or (seq, seq2) pairs) on several threads and returns their hits in order.
"""
from ._agatha import (Aligner, Alignment, Error, InputError, OptionError, ThreadBuffer, __version__, fastx_read,
                      revcomp, verbose)

__all__ = ["Aligner", "Alignment", "Error", "InputError", "OptionError", "ThreadBuffer", "fastx_read", "revcomp",
           "verbose", "__version__"]
