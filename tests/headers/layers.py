#!/usr/bin/env python3
"""The source tree's layers, lowest first, and the check that no file includes one above
its own: kernels/ (the DP and chaining kernels) and the public headers under
include/agatha/ at the bottom, then src/util, src/dp (the backend factory over the
kernels), src/index, src/map, src/align, src/format, src/io, src/eval, src/pipeline,
src/cli and src/python (the Python module) on top. A file may include its own directory and any lower layer.

  layers.py SOURCE_DIR     prints each upward include (file:line: from -> to) and exits 1
                           if there is one
"""
import pathlib
import re
import sys

ORDER = ["kernels", "util", "dp", "index", "map", "align", "format", "io", "eval", "pipeline", "cli", "python"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path, root):
    """The layer a file of the tree (or an included path resolved in it) belongs to."""
    rel = path.resolve().relative_to(root.resolve()).parts
    if rel[0] == "kernels":
        return "kernels"
    if rel[0] == "src" and len(rel) > 2:
        return rel[1]
    return None  # include/agatha and src/*.cpp: the public API, below every layer


def upward_includes(root):
    root = pathlib.Path(root)
    found = []
    files = [p for p in root.glob("src/**/*") if p.suffix in (".hpp", ".cpp")]
    files += [p for p in root.glob("kernels/**/*") if p.suffix in (".hpp", ".cpp", ".cu")]
    for f in sorted(files):
        own = layer_of(f, root)
        if own is None:
            continue
        for no, line in enumerate(f.read_text().splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = (f.parent / m.group(1))
            if not target.exists():
                continue  # a generated header or one of the include path
            to = layer_of(target, root)
            if to is None or to == own:
                continue
            if own not in ORDER or to not in ORDER:
                found.append(f"{f.relative_to(root)}:{no}: {own} -> {to} (a layer missing from layers.py's ORDER)")
            elif ORDER.index(to) > ORDER.index(own):
                found.append(f"{f.relative_to(root)}:{no}: {own} -> {to}")
    return found


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    bad = upward_includes(argv[1])
    for b in bad:
        print(b)
    print(f"layers.py: {len(bad)} upward include(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
