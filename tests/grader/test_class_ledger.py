#!/usr/bin/env python3
"""A class run keeps each grade as graded: a later student's code that rewrites an earlier
student's grading.json (possible when --run-as is not used) changes neither grades.csv nor,
in the end, that grading.json. No build needed: the per-student grading is a stand-in script.

  test_class_ledger.py      exit status 0 when every check holds
"""
import csv
import json
import sys
import tempfile
from pathlib import Path

KIT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(KIT / "grader"))
from kitgrader import classroom, grading  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from class_stubs import stub_grader  # noqa: E402

# Writes a grading worth 0 for its own student; the student "mallory" also rewrites the
# grading of "alice" (graded before it) to 10 and its own done stamp stays honest.
STAND_IN = r"""
import json, sys
from pathlib import Path
student, out = sys.argv[1], Path(sys.argv[2])
def grading(who, score):
    test = {"name": "Step1_X.Y", "step": 1, "status": "passed" if score else "failed", "score": score,
            "max_score": 10, "message": "", "hidden": False, "gpu": False, "tier": 1}
    lab = {"lab": "00-basics", "title": "t", "build": "ok", "score": score, "max_score": 10, "not_run": 0,
           "incomplete": False, "tests": [test],
           "steps": {"1": {"title": "s", "backend": "cpu", "score": score, "max_score": 10, "not_run": 0}}}
    return {"student": who, "graded_at": "2024-01-01T00:00:00", "score": score, "max_score": 10,
            "not_run": 0, "incomplete": False, "labs": [lab]}
out.mkdir(parents=True, exist_ok=True)
(out / "grading.json").write_text(json.dumps(grading(student, 0)))
if student == "mallory":
    (out.parent / "alice" / "grading.json").write_text(json.dumps(grading("alice", 10)))
"""


def main():
    classroom.Grader = stub_grader()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        subs = work / "subs"
        for s in ("alice", "mallory"):
            (subs / s).mkdir(parents=True)
        script = work / "stand_in.py"
        script.write_text(STAND_IN)
        opts = grading.Options(kit=KIT, cache_dir=work / "cache")

        def argv(student, sub, out):
            return [sys.executable, str(script), student, str(out)]
        classroom.grade_folder(opts, subs, work / "out", work / "grades.csv", 1, False, argv)
        rows = {r[0]: r for r in csv.reader(open(work / "grades.csv"))}
        alice_csv = rows["alice"][-3]
        alice_json = json.loads((work / "out" / "alice" / "grading.json").read_text())["score"]
    ok = alice_csv == "0" and alice_json == 0
    print(f"{'PASS' if ok else 'FAIL'}  a grading rewritten by a later student: grades.csv {alice_csv}, "
          f"grading.json {alice_json} (graded 0)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
