#!/usr/bin/env python3
"""Check every lab manifest against the tree and the built test binaries.

  check_manifests.py BIN_DIR LAB...

For each lab: the student files are exactly the files in reference/LAB/; every test the
binaries contain has an entry with points, and every entry names a test that exists; every
test's step is one of the lab's steps. A test without points could never be graded; a
manifest entry without a test would be points nobody can earn.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "labs"))
from lab_manifests import listed_tests, manifest_path, points_allowed, read_manifest  # noqa: E402


def binary_tests(binary):
    return listed_tests(subprocess.run([binary, "--gtest_list_tests"], capture_output=True, text=True,
                                       check=True).stdout)


def handout_points(lab, manifest):
    """A handout's "## Step N: ... (P points)" headings that disagree with the manifest."""
    path = os.path.join("handouts", f"{lab}.md")
    if not os.path.isfile(path):
        return [f"no handout {path}"]
    totals = {}
    for t in manifest.get("tests", []):
        totals[t["step"]] = totals.get(t["step"], 0) + float(t["points"])
    problems = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"## Step (\d+)\b.*\((\d+(?:\.\d+)?) points?\)\s*$", line)
            if m and abs(float(m.group(2)) - totals.get(int(m.group(1)), 0)) > 1e-9:
                problems.append(f"{path}: step {m.group(1)} says {m.group(2)} points, the manifest gives "
                                f"{totals.get(int(m.group(1)), 0):g}")
    return problems


def check(bin_dir, lab):
    problems = []
    m = read_manifest(manifest_path(".", lab))
    problems += handout_points(lab, m)
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
        for name in binary_tests(binary):
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
        if not name.startswith(f"Step{t['step']}_"):  # make test STEP=N filters on the prefix
            problems.append(f"test {name}: the name of a step {t['step']} test starts with Step{t['step']}_")
        if not points_allowed(t["points"], t.get("gates")):
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
