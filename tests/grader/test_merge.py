#!/usr/bin/env python3
"""grade.py merge: runs of the same student combine per test; grades.csv adds up.

Builds grading.json files from the real 02-csr manifest (no compiling): alice has a CPU run
(GPU tests not run) and a later GPU-node run (CPU tests not run there), so her merged grade
is full marks; bob has two CPU runs, and the later one, where a test ran, wins. Exit status
0 when the CSV holds exactly the expected figures.
"""
import csv
import subprocess
import sys
import tempfile
from pathlib import Path

KIT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(KIT / "grader"))
from kitgrader import labs as labsmod, results, scoring  # noqa: E402
from kitgrader.gtest import TestOutcome  # noqa: E402


def grading(student, lab, at, outcome_of, absent):
    """absent: the backends that run could not use (only their skipped tests are 'not run')."""
    res = scoring.score_lab(lab, {t.name: outcome_of(t) for t in lab.tests}, absent=absent)
    return {"student": student, "submission": student, "graded_at": at, "machine": {"host": "x", "gpu": False},
            "score": res["score"], "max_score": res["max_score"], "incomplete": res["incomplete"],
            "not_run": res["not_run"], "execution_time": 1.0, "cpu_time": 1.0, "notes": [], "labs": [res]}


def main():
    lab = labsmod.discover(KIT)["02-csr"]
    cpu_points = sum(t.points for t in lab.tests if not t.gpu)
    ran = TestOutcome("passed", "")
    no_gpu = TestOutcome("skipped", "no CUDA device")
    cpu_run, gpu_run = {"cuda"}, {"cpu", "opencl"}  # a laptop run; a GPU-only run of the CUDA steps
    runs = {
        "cpu/alice": grading("alice", lab, "2024-01-01T10:00:00", lambda t: no_gpu if t.gpu else ran, cpu_run),
        "gpu/alice": grading("alice", lab, "2024-01-01T11:00:00", lambda t: ran if t.gpu else no_gpu, gpu_run),
        "cpu/bob": grading("bob", lab, "2024-01-01T10:00:00", lambda t: no_gpu if t.gpu else ran, cpu_run),
        "again/bob": grading("bob", lab, "2024-01-01T12:00:00",
                             lambda t: no_gpu if t.gpu else TestOutcome("failed", "wrong")
                             if t.name == "Step3_ChooseLanes.FollowsMeanRowLength" else ran, cpu_run),
    }
    with tempfile.TemporaryDirectory() as tmp:
        for rel, g in runs.items():
            results.write(Path(tmp) / rel, g)
        out = Path(tmp) / "grades.csv"
        proc = subprocess.run([sys.executable, str(KIT / "grader" / "grade.py"), "merge", f"{tmp}/cpu",
                               f"{tmp}/gpu", f"{tmp}/again", "--csv", str(out)], capture_output=True, text=True)
        rows = list(csv.reader(open(out))) if out.exists() else []
    problems = []
    if proc.returncode != 0 or len(rows) != 3:
        problems.append(f"merge failed: {proc.stdout}{proc.stderr}")
    else:
        header, by = rows[0], {r[0]: dict(zip(rows[0], r)) for r in rows[1:]}
        total = next(h for h in header if h.startswith("total"))
        want = {"alice": (f"{lab.max_points:g}", "0"), "bob": (f"{cpu_points - 1:g}", str(sum(t.gpu for t in lab.tests)))}
        for student, (score, not_run) in want.items():
            if (by[student][total], by[student]["not_run"]) != (score, not_run):
                problems.append(f"{student}: total {by[student][total]}, not_run {by[student]['not_run']}; "
                                f"expected {score}, {not_run}")
        steps = [h for h in header if h.startswith("02-csr step")]
        if len(steps) != len(lab.steps) or total != f"total (/{lab.max_points:g})":
            problems.append(f"unexpected header {header}")
    for p in problems:
        print("FAIL", p)
    print(f"test_merge: {'ok' if not problems else 'FAILED'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
