#!/usr/bin/env python3
"""Prints how long each test suite of a test run took, for the next change to see what
it costs: one row per meson test (suite name, GoogleTest cases or 1, seconds), from the
logs meson leaves in BUILDDIR/meson-logs (testlog.json, and the NAME.json of runs with
--logbase NAME), the GoogleTest counts from BUILDDIR/<suite>.xml; then the phases of the
run, if a file of `PHASE<TAB>SECONDS` lines is given.

  suite-times.py [--phases FILE] BUILDDIR...
"""
import glob
import json
import os
import sys
import xml.etree.ElementTree as ET


def gtest_cases(build, name):
    path = os.path.join(build, name + ".xml")
    try:
        return sum(1 for _ in ET.parse(path).getroot().iter("testcase"))
    except (OSError, ET.ParseError):
        return None


def runs(build):
    """(name, result, seconds) of every test in the build's meson logs, later logs
    replacing earlier runs of the same test."""
    found = {}
    logs = sorted(glob.glob(os.path.join(build, "meson-logs", "*.json")), key=os.path.getmtime)
    for log in logs:
        with open(log) as f:
            for line in f:
                try:
                    t = json.loads(line)
                    found[t["name"]] = (t.get("result", "?"), float(t.get("duration", 0.0)))
                except (ValueError, KeyError, TypeError):
                    continue
    return found


def main(argv):
    phases = None
    if len(argv) > 2 and argv[1] == "--phases":
        phases, argv = argv[2], argv[:1] + argv[3:]
    rows = []
    for build in argv[1:]:
        for name, (result, secs) in runs(build).items():
            short = name.split(" / ")[-1]
            n = gtest_cases(build, short)
            rows.append((build, short, n if n is not None else 1, secs, result))
    if rows:
        print(f"{'build':<12} {'suite':<24} {'tests':>6} {'seconds':>8}  result")
        for build, name, n, secs, result in sorted(rows, key=lambda r: (r[0], -r[3])):
            print(f"{build:<12} {name:<24} {n:>6} {secs:>8.0f}  {result}")
        for build in argv[1:]:
            total = sum(r[3] for r in rows if r[0] == build)
            print(f"{build:<12} {'(sum of the suites)':<24} {'':>6} {total:>8.0f}")
    if phases:
        try:
            with open(phases) as f:
                lines = [l.rstrip("\n").split("\t") for l in f if "\t" in l]
        except OSError:
            lines = []
        if lines:
            print(f"{'phase':<37} {'seconds':>8}")
            for phase, secs in lines:
                print(f"{phase:<37} {float(secs):>8.0f}")
            print(f"{'(all phases)':<37} {sum(float(s) for _, s in lines):>8.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
