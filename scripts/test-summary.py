#!/usr/bin/env python3
"""Counts the GoogleTest cases in the XML reports meson leaves in the build directory
(<builddir>/<suite>.xml, one per gtest suite: options, io, index, map, format, align,
pipeline, kernels, eval, cli, e2e, gpu, build, tsan) and prints
'tests: N passed, M failed, K skipped'. The other tests (headers, the fuzz-* corpus
replays) write no report: meson's own summary shows them. Reports of suites the build
no longer defines (left by an older layout) are named and not counted. Exit 1 on a
failure or no tests."""
import glob
import json
import os
import sys
import xml.etree.ElementTree as ET

build = sys.argv[1] if len(sys.argv) > 1 else "build"


def gtest_suites(build):
    """The names of the build's gtest-protocol tests, or None without meson's record."""
    try:
        with open(os.path.join(build, "meson-info", "intro-tests.json")) as f:
            return {t["name"] for t in json.load(f) if t.get("protocol") == "gtest"}
    except (OSError, ValueError, KeyError):
        return None


suites = gtest_suites(build)
passed = failed = skipped = 0
for path in sorted(glob.glob(os.path.join(build, "*.xml"))):
    name = os.path.splitext(os.path.basename(path))[0]
    if suites is not None and name not in suites:
        print(f"not counted: {path} (no suite '{name}' in this build)", file=sys.stderr)
        continue
    root = ET.parse(path).getroot()
    for case in root.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None or case.get("result") == "skipped":
            skipped += 1
        else:
            passed += 1
print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed or passed == 0 else 0)
