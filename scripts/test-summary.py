#!/usr/bin/env python3
"""Counts the GoogleTest cases in the XML reports meson leaves in the build directory
and prints 'tests: N passed, M failed, K skipped'. Exit 1 on a failure or no tests."""
import glob
import os
import sys
import xml.etree.ElementTree as ET

build = sys.argv[1] if len(sys.argv) > 1 else "build"
passed = failed = skipped = 0
for path in sorted(glob.glob(os.path.join(build, "*.xml"))):
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
