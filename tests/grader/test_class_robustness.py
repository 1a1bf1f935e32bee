#!/usr/bin/env python3
"""One upload never stops a class run: whatever the uploads are named (grades.csv.zip, a name
that is not UTF-8, a lab's name, the grader's own file names, case twins, a leading '-') or
whatever their grading does (crash, get killed, write garbage, raise in the class process),
`grade.py class` ends with a complete grades.csv: one row per upload, a broken one worth 0
with the reason in `notes`. No build needed: the per-student grading is a stand-in script
(as in test_class_ledger.py), and `grade.py class`'s own command line is checked by parsing.

  test_class_robustness.py      exit status 0 when every check holds (seconds)
"""
import csv
import importlib.util
import json
import os
import sys
import tempfile
import zipfile
from pathlib import Path

KIT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(KIT / "grader"))
from kitgrader import classroom, grading, labs as labsmod  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from class_stubs import stub_grader  # noqa: E402

failures = []


def expect(cond, what):
    print(("PASS  " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


# Writes a grading of the lab 00-basics for its student (every test failed); some students'
# gradings go wrong.
STAND_IN = r"""
import json, os, signal, sys
from pathlib import Path
student, out, kit = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
sys.path.insert(0, str(kit / "grader"))
from kitgrader import labs, scoring
lab = scoring.score_lab(labs.discover(kit)["00-basics"], outcomes={})
notes = ["submission refused: too large: 68 MB read after 17 files, over the read budget of 64 MB"] \
    if student == "bomb" else []
g = {"student": student, "graded_at": "2024-01-01T00:00:00", "score": 0, "max_score": lab["max_score"],
     "not_run": 0, "incomplete": False, "notes": notes, "labs": [lab]}
if student == "crash":
    raise SystemExit("Traceback (most recent call last): grader blew up")
if student == "killed":
    os.kill(os.getpid(), signal.SIGKILL)
out.mkdir(parents=True, exist_ok=True)
(out / "grading.json").write_text("not json {" if student == "garbage" else
                                  json.dumps({"score": 1}) if student == "shapeless" else json.dumps(g))
"""

# upload name -> kind ("zip", "dir", "file"); the names that broke `make grade-all`, and more.
UPLOADS = {
    "grades.csv.zip": "zip", os.fsdecode(b"caf\xe9.zip"): "zip", os.fsdecode(b"m\xfcller"): "dir",
    "02-csr": "dir", "00-basics.zip": "zip", "logs": "dir", "kitgrade-x": "dir", "results.json": "dir",
    "grading.json.zip": "zip", "done.json": "dir", "report.txt.tar.gz": "zip", "-rf.zip": "zip",
    "Alice.zip": "zip", "alice": "dir", "bob.zip": "zip", "bob.partial": "dir", "bob.error.log.zip": "zip",
    "Jos\u00e9 N\u00fa\u00f1ez.zip": "zip", "a/b": None, "crash.zip": "zip", "killed.zip": "zip",
    "garbage.zip": "zip", "shapeless.zip": "zip", "bomb.zip": "zip", "raises.zip": "zip",
    "notes.txt": "file", "grades.csv": "file", "02-csr.rar": "file",
}
BROKEN = {"crash": "exit status 1", "killed": "killed by signal 9",
          "garbage": "grading.json is unusable (JSONDecodeError",
          "shapeless": "grading.json is unusable (KeyError", "raises": "the class process itself failed",
          "bomb": "submission refused: too large"}


def class_grader():
    """The lab 00-basics as the class run sees it, without a build."""
    every = labsmod.discover(KIT)
    return stub_grader([every["00-basics"]], every)


def make_uploads(subs):
    subs.mkdir()
    for name, kind in UPLOADS.items():
        if kind == "zip":
            with zipfile.ZipFile(subs / name, "w") as z:
                z.writestr("00-basics/csr_cpu.cpp", "// mine\n")
        elif kind == "dir":
            (subs / name).mkdir()
            (subs / name / os.fsdecode(b"r\xe9sum\xe9.txt")).write_text("cv\n")
        elif kind == "file":
            (subs / name).write_text("x\n")


def run_class(work, script):
    opts = grading.Options(kit=KIT, cache_dir=work / "cache", lab="00-basics")

    def argv(student, sub, out):
        if student == "raises":
            raise RuntimeError("the class process itself failed")
        return [sys.executable, str(script), student, str(out), str(KIT)]
    status = classroom.grade_folder(opts, work / "subs", work / "out", work / "out" / "grades.csv", 2, False, argv)
    with open(work / "out" / "grades.csv", newline="") as f:
        rows = list(csv.reader(f))
    return status, {r[0]: r for r in rows[1:]}, rows[0]


def names():
    """The safe, unique names: every upload kept apart from the others and from fixed names."""
    with tempfile.TemporaryDirectory() as tmp:
        make_uploads(Path(tmp) / "subs")
        got, ignored = classroom.submissions_in(Path(tmp) / "subs", {"grades.csv", "00-basics", "02-csr"})
    students = [s for s, _ in got]
    want = {"grades.csv.zip": "grades.csv-2", os.fsdecode(b"caf\xe9.zip"): "caf_", "02-csr": "02-csr-2",
            "00-basics.zip": "00-basics-2", "logs": "logs-2", "kitgrade-x": "_kitgrade-x",
            "results.json": "results.json-2", "done.json": "done.json-2", "-rf.zip": "rf",
            "bob.partial": "bob.partial_", "bob.error.log.zip": "bob.error.log_",
            "Jos\u00e9 N\u00fa\u00f1ez.zip": "Jose_Nunez"}
    by_upload = {p.name: s for s, p in got}
    wrong = {u: by_upload.get(u) for u, s in want.items() if by_upload.get(u) != s}
    expect(not wrong, f"upload names made safe and kept off the grader's names (wrong: {wrong})")
    unique = len({s.casefold() for s in students}) == len(students) and {"Alice", "alice-2"} <= set(students)
    expect(unique, "names are unique where case does not count (Alice.zip and alice/)")
    fixed = {s.casefold() for s in students} & {"grades.csv", "logs", "results.json", "grading.json", "done.json",
                                                "report.txt", "02-csr", "00-basics", "submission"}
    expect(not fixed and all(s.isascii() and s[0] not in ".-+@" for s in students),
           f"no student is named like a fixed file, a lab or an option ({sorted(fixed)})")
    expect(sorted(p.name for p in ignored) == ["02-csr.rar", "grades.csv", "notes.txt"],
           f"files that are no upload are listed as ignored ({sorted(p.name for p in ignored)})")


def class_run():
    """The whole class run, twice (the second resumes): grades.csv complete both times."""
    classroom.Grader = class_grader()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        make_uploads(work / "subs")
        script = work / "stand_in.py"
        script.write_text(STAND_IN)
        expected, _ = classroom.submissions_in(work / "subs", {"grades.csv", *labsmod.discover(KIT)})
        status, rows, header = run_class(work, script)
        everyone = {s for s, _ in expected}
        expect(set(rows) == everyone, f"grades.csv has one row per upload ({len(rows)} rows, {len(everyone)} uploads;"
                                      f" missing {sorted(everyone - set(rows))})")
        bad = {s: rows.get(s, [""] * 3) for s in BROKEN}
        expect(all(r[-3] == "0" and BROKEN[s] in r[-1] for s, r in bad.items()),
               "a crashed, killed, garbage-writing or raising grading is a row worth 0 with the reason: "
               + "; ".join(f"{s}: {r[-1][:70]}" for s, r in bad.items()))
        expect(status == 1 and (work / "out" / "crash.error.log").is_file(),
               f"the class run says some could not be graded (exit {status}) and keeps the crash's output")
        out = sorted(p.name for p in (work / "out").iterdir())
        expect((work / "out" / "grades.csv").is_file() and "grades.csv-2" in out and "caf_" in out,
               "grades.csv is a file beside the student folders grades.csv-2 and caf_")
        expect(header[1].startswith("00-basics step1"), f"the columns are the lab's ({header[1]})")
        # Resumed: the graded ones are not graded again, the broken ones are retried, and a
        # grading.json forged to another shape on disk (done.json kept honest) cannot stop the CSV.
        forged = work / "out" / "alice-2" / "grading.json"
        g = json.loads(forged.read_text())
        g["labs"][0]["steps"]["9"] = dict(g["labs"][0]["steps"]["1"])  # a step the lab does not have
        forged.write_text(json.dumps(g))
        done = work / "out" / "alice-2" / "done.json"
        stamp = json.loads(done.read_text())
        done.write_text(json.dumps({**stamp, "grading": classroom._sha(forged.read_text())}))
        status, rows, _ = run_class(work, script)
        expect(set(rows) == everyone and "does not fit" in rows["alice-2"][-1] and rows["Alice"][-1] == "",
               f"resumed with a forged grading.json: grades.csv complete, the forged row marked "
               f"({rows.get('alice-2', ['?'])[-1][:60]})")


def out_inside_subs():
    """--out inside --subs: the output folder is not graded as a student, even on a rerun."""
    classroom.Grader = class_grader()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "subs" / "alice").mkdir(parents=True)
        script = work / "stand_in.py"
        script.write_text(STAND_IN)
        opts = grading.Options(kit=KIT, cache_dir=work / "cache", lab="00-basics")
        out = work / "subs" / "graded"
        for _ in range(2):
            classroom.grade_folder(opts, work / "subs", out, out / "grades.csv", 1, False,
                                   lambda st, sub, o: [sys.executable, str(script), st, str(o), str(KIT)])
        with open(out / "grades.csv", newline="") as f:
            students = [r[0] for r in list(csv.reader(f))[1:]]
    expect(students == ["alice"], f"an output folder inside the submissions folder is no student ({students})")


def command_line():
    """`grade.py class` hands each student to `grade.py grade` as NAME=VALUE: a value starting
    with '-' (an upload named -rf.zip in a relative folder) is read as a value, not an option."""
    spec = importlib.util.spec_from_file_location("grade_py", KIT / "grader" / "grade.py")
    grade = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(grade)
    seen = {}
    real = classroom.grade_folder
    classroom.grade_folder = lambda *a, **k: seen.update(argv=k.get("grade_argv") or [x for x in a if callable(x)][0])
    try:
        grade.cmd_class(grade.parser().parse_args(["class", "--subs", "s", "--out", "o", "--lab", "00-basics"]))
    finally:
        classroom.grade_folder = real
    argv = seen["argv"]("-rf", Path("-rf.zip"), Path("-out/-rf.partial"))
    a = grade.parser().parse_args(argv[2:])
    expect((a.student, a.sub, str(a.out)) == ("-rf", "-rf.zip", "-out/-rf.partial"),
           f"grade.py class passes names starting with '-' as values ({a.student!r}, {a.sub!r})")


def main():
    for check in (names, class_run, out_inside_subs, command_line):
        check()
    print(f"test_class_robustness: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
