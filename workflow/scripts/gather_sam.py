#!/usr/bin/env python3
"""Concatenates the SAM files of the chunks of one set of reads, in chunk order.

    gather_sam.py OUT.sam CHUNK_1.sam ... CHUNK_N.sam

OUT.sam gets the header of the first chunk (its @PG line included) once, then the
records of every chunk in order: what one `agatha align` run over all the reads writes,
@PG line aside. The chunks were aligned against one index with the same options, so
their headers may differ only in @PG lines; any other difference is an error, as is a
chunk whose header lines do not all come before its records. Exit status 1 on error,
and OUT.sam is not left behind.
"""

import os
import sys


class GatherError(Exception):
    pass


def header_and_body(path):
    """The header lines of a SAM file and the byte offset where its records start."""
    header = []
    with open(path, "rb") as f:
        offset = 0
        for line in f:
            if not line.startswith(b"@"):
                break
            header.append(line)
            offset += len(line)
    return header, offset


def without_pg(header):
    return [h for h in header if not h.startswith(b"@PG")]


def gather(out, chunks):
    first_header, _ = header_and_body(chunks[0])
    with open(out, "wb") as o:
        o.writelines(first_header)
        for path in chunks:
            header, offset = header_and_body(path)
            if without_pg(header) != without_pg(first_header):
                raise GatherError(f"'{path}': its header differs from that of '{chunks[0]}' (not one index and set of options?)")
            with open(path, "rb") as f:
                f.seek(offset)
                for line in f:
                    if line.startswith(b"@"):
                        raise GatherError(f"'{path}': a header line after the records")
                    o.write(line)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().split("\n\n")[0], file=sys.stderr)
        return 2
    try:
        gather(argv[1], argv[2:])
    except (GatherError, OSError) as e:
        if os.path.exists(argv[1]):
            os.remove(argv[1])
        print(f"[E::gather_sam] {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
