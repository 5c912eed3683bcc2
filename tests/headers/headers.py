#!/usr/bin/env python3
"""The headers that must compile on their own: include/agatha/*.hpp, src/**/*.hpp and
kernels/**/*.hpp, as paths relative to the source tree, sorted.

  headers.py SOURCE_DIR                      prints them, one a line (meson reads the
                                             list when it configures the build)
  headers.py --units OUTDIR HEADER...        writes OUTDIR/<unit_name(HEADER)> for each:
                                             a translation unit that includes the header
                                             twice (its include guard must hold)
  headers.py SOURCE_DIR HEADER...            exits 1 unless the HEADERs (the ones the
                                             build compiled) are exactly the headers
                                             there are now
"""
import pathlib
import sys


def headers(root):
    root = pathlib.Path(root)
    found = list(root.glob("include/agatha/*.hpp")) + list(root.glob("src/**/*.hpp")) + list(root.glob("kernels/**/*.hpp"))
    return sorted(p.relative_to(root).as_posix() for p in found)


def unit_name(header):
    """The translation unit's file name: the path with '/' and '.' as '_', then .cpp
    (meson's underscorify)."""
    return "".join(c if c.isalnum() else "_" for c in header) + ".cpp"


def write_units(outdir, hdrs):
    for h in hdrs:
        text = f'// {h} on its own (tests/headers/headers.py).\n#include "{h}"\n#include "{h}"\n'
        path = pathlib.Path(outdir) / unit_name(h)
        if not path.exists() or path.read_text() != text:  # unchanged files keep their time
            path.write_text(text)
    return 0


def main(argv):
    if len(argv) >= 3 and argv[1] == "--units":
        return write_units(argv[2], argv[3:])
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    now = headers(argv[1])
    if len(argv) == 2:
        print("\n".join(now))
        return 0
    compiled = sorted(argv[2:])
    missing = sorted(set(now) - set(compiled))
    gone = sorted(set(compiled) - set(now))
    for h in missing:
        print(f"not compiled on its own: {h} (new since meson configured the build: run `meson setup --reconfigure`)")
    for h in gone:
        print(f"compiled but no longer in the tree: {h} (run `meson setup --reconfigure`)")
    if not now:
        print("no headers found under " + argv[1])
        return 1
    print(f"{len(compiled)} headers compiled on their own")
    return 1 if missing or gone or not now else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
