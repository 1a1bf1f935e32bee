#!/usr/bin/env python3
"""Checks the kit's include boundaries, so a lab never reaches into another lab.

    check_includes.py [ROOT]

Every `#include "..."` in a C++, CUDA or OpenCL source must name a header found in one of
the folders its file may see:

  labs/common/ROLE/             labs/common only (the kit depends on no lab); headers are named
                                with their role folder: "formats/csr.hpp", "gpu/cuda_run.hpp"
  labs/NN-x/, reference/NN-x/,  labs/common and labs/NN-x (its own lab)
  starter/NN-x/
  tests/NN-x/, tests/hidden/NN-x/   the above for lab NN-x, plus tests/NN-x and tests/support
  tests/common/, tests/cli/     labs/common and tests/support
  tests/support/                labs/common
  cli/, bench/, fuzz/           labs/common (what they need of a lab travels in the registry)

and the file's own folder. A path with `..` is refused: it would step around the rule. The
Makefile gives each target exactly these include folders, so a violation would not compile
anyway; this check names the file and line instead of leaving a compiler error to decode.
Exit status 1 on any violation.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "labs"))
from lab_manifests import LAB_NAME as LAB  # noqa: E402

SOURCE_SUFFIXES = (".cpp", ".hpp", ".cu", ".cuh", ".cl", ".h")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def allowed_folders(path):
    """The folders (relative to the root) whose headers `path` may include, or None if unchecked."""
    parts = path.split("/")
    common = ["labs/common"]
    if parts[:2] in (["labs", "common"], ["tests", "support"]):
        return common
    if parts[0] in ("labs", "reference", "starter") and len(parts) >= 3 and LAB.match(parts[1]):
        return common + ["labs/" + parts[1]]
    if parts[0] == "tests" and len(parts) >= 3:
        lab = parts[2] if parts[1] == "hidden" and len(parts) >= 4 else parts[1]
        if LAB.match(lab):
            return common + ["labs/" + lab, "tests/" + lab, "tests/support"]
        if parts[1] in ("common", "cli"):
            return common + ["tests/support"]
    if parts[0] in ("cli", "bench", "fuzz"):
        return common
    return None


def where_header_lives(root, header):
    """Folders under labs/ and tests/ that hold a file of that name, for the message."""
    name = os.path.basename(header)
    return sorted({os.path.relpath(folder, root).replace(os.sep, "/")
                   for top in ("labs", "tests") for folder, _, files in os.walk(os.path.join(root, top))
                   if name in files})


def violations(root):
    found = []
    for top in ("labs", "reference", "starter", "tests", "cli", "bench", "fuzz"):
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                full = os.path.join(folder, name)
                rel = os.path.relpath(full, root).replace(os.sep, "/")
                allowed = allowed_folders(rel)
                if allowed is None:
                    continue
                own = os.path.dirname(rel)
                with open(full, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        header = m.group(1)
                        if ".." in header.split("/"):
                            found.append(f"{rel}:{number}: #include \"{header}\" steps out with '..'; "
                                         f"include it by name from one of: {', '.join([own] + allowed)}")
                            continue
                        if any(os.path.isfile(os.path.join(root, d, header)) for d in [own] + allowed):
                            continue
                        owners = where_header_lives(root, header)
                        where = f" (it lives in {', '.join(owners)})" if owners else " (no such header in the kit)"
                        found.append(f"{rel}:{number}: #include \"{header}\" is outside what this file may see"
                                     f"{where}; it may include from: {', '.join([own] + allowed)}. "
                                     "Move what it needs to labs/common, or pass it through the registry.")
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    found = violations(root)
    for line in found:
        print(line, file=sys.stderr)
    if found:
        print(f"check-includes: {len(found)} include(s) cross a lab boundary", file=sys.stderr)
        return 1
    print("check-includes: every include stays within its lab, labs/common and the test support")
    return 0


if __name__ == "__main__":
    sys.exit(main())
