#!/usr/bin/env python3
"""Check every lab manifest against the tree and the built test binaries.

  check_manifests.py BIN_DIR LAB...

For each lab: the student files are exactly the files in reference/LAB/; every test the
binaries contain has an entry with points, and every entry names a test that exists; every
test's step is one of the lab's steps. A test without points could never be graded; a
manifest entry without a test would be points nobody can earn.
"""
import json
import os
import subprocess
import sys


def listed_tests(binary):
    out = subprocess.run([binary, "--gtest_list_tests"], capture_output=True, text=True, check=True).stdout
    tests, suite = set(), None
    for line in out.splitlines():
        if not line.strip() or line.startswith("Skipped") or line.startswith("KIT-SUMMARY"):
            continue
        if not line.startswith(" "):
            suite = line.split("#")[0].strip()
        else:
            tests.add(suite + line.split("#")[0].strip())
    return tests


def check(bin_dir, lab):
    problems = []
    with open(os.path.join("labs", lab, "manifest.json"), encoding="utf-8") as f:
        m = json.load(f)
    if m.get("lab") != lab:
        problems.append(f"'lab' is {m.get('lab')!r}, expected {lab!r}")
    # The student edition (make dist-student) has no reference/ and no tests/hidden/.
    ref_root = "reference" if os.path.isdir(os.path.join("reference", lab)) else "starter"
    ref_files = sorted(os.listdir(os.path.join(ref_root, lab)))
    if sorted(m["student_files"]) != ref_files:
        problems.append(f"student_files {sorted(m['student_files'])} != files in {ref_root}/{lab}/ {ref_files}")
    hidden_here = os.path.isdir(os.path.join("tests", "hidden", lab))
    steps = {s["step"] for s in m["steps"]}
    entries = {t["name"]: t for t in m["tests"]}
    built = set()
    for suffix, hidden in (("", False), ("_hidden", True)):
        binary = os.path.join(bin_dir, f"test_{lab}{suffix}")
        if not os.path.exists(binary):
            continue
        for name in listed_tests(binary):
            built.add(name)
            entry = entries.get(name)
            if entry is None:
                problems.append(f"test {name} has no manifest entry (no points)")
            elif bool(entry.get("hidden")) != hidden:
                problems.append(f"test {name}: manifest says hidden={bool(entry.get('hidden'))}, binary says {hidden}")
    for name, t in entries.items():
        if name not in built and (hidden_here or not t.get("hidden")):
            problems.append(f"manifest entry {name} matches no test")
        if t["step"] not in steps:
            problems.append(f"test {name}: step {t['step']} is not a step of the lab")
        if t["points"] < 0 or (t["points"] == 0 and not t.get("gates")):
            problems.append(f"test {name}: points must be positive (0 only for a gate)")
        if t.get("gates") and not (t.get("gpu") and t.get("hidden")):
            problems.append(f"test {name}: a gate is a hidden GPU test")
    return problems


def main():
    bin_dir, labs = sys.argv[1], sys.argv[2:]
    bad = False
    for lab in labs:
        for p in check(bin_dir, lab):
            print(f"manifest {lab}: {p}")
            bad = True
    if not bad:
        print(f"manifests: {len(labs)} lab(s) consistent with their tests")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
