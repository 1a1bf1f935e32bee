#!/usr/bin/env python3
"""The reference gets every point that can run here: grades it (all labs by default) and
fails if any test failed, or if a test that did not run is one whose backend runs here.
With --cpu-only the submission is the reference without its .cu files (the starter's stand
in): it must earn exactly the points of the tests that do not need a GPU, in every lab.

  check_reference_marks.py [--sm SM] [--lab all] [--cache DIR] [--no-cuda] [--cpu-only]

Prints the score, the points that could run, and each failing test with its message.
"""
import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

KIT = Path(__file__).resolve().parents[2]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sm", default=None, help="nvcc architecture(s), e.g. 90 or '80 90'")
    p.add_argument("--lab", default="all")
    p.add_argument("--cache", default=None, help="prebuilt tree (default: the grader's, per SM)")
    p.add_argument("--no-cuda", action="store_true")
    p.add_argument("--cpu-only", action="store_true", help="grade the reference without its .cu files")
    a = p.parse_args()
    out = Path(tempfile.mkdtemp(prefix="reference-marks-"))
    sub = "reference"
    if a.cpu_only:
        sub = out / "cpu-only"
        shutil.copytree(KIT / "reference", sub, ignore=shutil.ignore_patterns("*.cu"))
    cmd = [sys.executable, str(KIT / "grader" / "grade.py"), "grade", "--sub", str(sub), "--lab", a.lab,
           "--out", str(out / "grading"), "--student", "reference-cpu-only" if a.cpu_only else "reference"]
    if a.sm:
        cmd += ["--sm", a.sm]
    if a.cache:
        cmd += ["--cache", a.cache]
    if a.no_cuda:
        cmd.append("--no-cuda")
    rc = subprocess.run(cmd, cwd=KIT).returncode
    try:
        g = json.loads((out / "grading" / "grading.json").read_text())
    except OSError:
        print(f"check_reference_marks: the grading wrote no grading.json (grade.py exit {rc})")
        return 1
    tests = [t for lab in g["labs"] for t in lab["tests"]]
    if a.cpu_only:  # the GPU tests fail or are not run; every other test passes
        bad = [t for t in tests if not t["gpu"] and t["status"] != "passed"]
        can_run = sum(t["max_score"] for t in tests if not t["gpu"])
    else:
        bad = [t for t in tests if t["status"] not in ("passed", "not_run")]
        can_run = sum(t["max_score"] for t in tests if t["status"] != "not_run")
    what = "the reference without its .cu files" if a.cpu_only else "the reference"
    print(f"check_reference_marks: {what}, SM={a.sm or 'default'}: {g['score']:g} / {can_run:g} points that can run here "
          f"({g['max_score']:g} in all; {g['not_run']} tests not run here)")
    for t in bad:
        print(f"  FAILED {t['name']}: {t['message'][:400]}")
    return 1 if bad or g["score"] != can_run else 0


if __name__ == "__main__":
    sys.exit(main())
