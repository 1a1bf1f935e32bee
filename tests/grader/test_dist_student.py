#!/usr/bin/env python3
"""What the student edition (scripts/edition/dist_student.sh, make dist-student) contains.

  test_dist_student.py [--build]

Checks the archive: no reference/, tests/hidden/, grader/ or tests/grader/; no file whose
content is a reference or hidden-test file; no solution region in starter/; every lab's
manifest, starter files and public tests; a Makefile that defaults to IMPL=starter; the
students' README (scripts/edition/README.student.md), not the instructor's. With --build it
also unpacks the edition, fills 00-basics with the reference solution (as a student who
finished would), builds and runs that lab's tests there without CUDA, and runs the manifest
check, which must hold without reference/ and tests/hidden/; the test summary shows the points
(step 1 of 00-basics all earned, the untouched 01-coo none); and `make starter`,
`make check-starter`, `make check-judge`, `make dist-student` and `make clean` leave every
edited starter/ file as it was. Exit status 0 when all holds.
"""
import hashlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

KIT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(KIT / "scripts" / "labs"))
from lab_manifests import lab_names, manifest_path, read_manifest  # noqa: E402
TOP = "spmv-kit-student"
FORBIDDEN = ("reference/", "tests/hidden/", "tests/grader/", "grader/", ".ci/", ".helper/", "build")


def sha(data):
    return hashlib.sha256(data).hexdigest()


def main():
    build = "--build" in sys.argv[1:]
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run([str(KIT / "scripts" / "edition" / "dist_student.sh"), tmp], capture_output=True, text=True)
        if proc.returncode != 0:
            print(proc.stdout + proc.stderr)
            return 1
        files = {}
        with tarfile.open(Path(tmp) / f"{TOP}.tar.gz") as t:
            for m in t.getmembers():
                if not m.name.startswith(TOP + "/") and m.name != TOP:
                    problems.append(f"entry outside {TOP}/: {m.name}")
                if m.isfile():
                    files[m.name[len(TOP) + 1:]] = t.extractfile(m).read()
            if build:
                t.extractall(tmp, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(tmp)
        for name in files:
            if name.startswith(FORBIDDEN):
                problems.append(f"the edition holds {name}")
        starter_sums = {sha(p.read_bytes()) for p in (KIT / "starter").rglob("*") if p.is_file()}
        secret = {sha(p.read_bytes()): p.relative_to(KIT).as_posix()
                  for top in ("reference", "tests/hidden") for p in (KIT / top).rglob("*") if p.is_file()}
        for name, data in files.items():
            s = sha(data)
            if s in secret and s not in starter_sums:
                problems.append(f"{name} has the content of {secret[s]}")
            if name.startswith("starter/") and b"BEGIN SOLUTION" in data:
                problems.append(f"{name} holds a solution region")
        makefile = files.get("Makefile", b"").decode()
        if not any(line.split() == ["IMPL", "?=", "starter"] for line in makefile.splitlines()):
            problems.append("the Makefile does not default to IMPL ?= starter")
        for lab in (lab for lab in lab_names(KIT) if manifest_path(KIT, lab).is_file()):
            if f"labs/{lab}/manifest.json" not in files:
                problems.append(f"{lab}: manifest missing")
            for f in read_manifest(manifest_path(KIT, lab))["student_files"]:
                if f"starter/{lab}/{f}" not in files:
                    problems.append(f"{lab}: starter/{lab}/{f} missing")
            for test in (KIT / "tests" / lab).glob("*.cpp"):
                if f"tests/{lab}/{test.name}" not in files:
                    problems.append(f"{lab}: public test {test.name} missing")
        if "matrices/rdb450.mtx" not in files:
            problems.append("matrices/rdb450.mtx missing")
        problems += readme_problems(files.get("README.md", b"").decode())
        if build and not problems:
            problems += build_check(Path(tmp) / TOP)
    for p in problems:
        print("FAIL", p)
    print(f"test_dist_student: {len(files)} files checked{' and built' if build else ''}, {len(problems)} problem(s)")
    return 1 if problems else 0


def readme_problems(readme):
    """The edition's README is the students': no instructor command, and the student's loop."""
    if readme != (KIT / "scripts" / "edition" / "README.student.md").read_text(encoding="utf-8"):
        return ["README.md is not scripts/edition/README.student.md"]
    found = [f"README.md speaks of {w}" for w in ("make grade", "make starter", "reference/", "verify-starter") if w in readme]
    return found + [f"README.md does not say {w}" for w in ("make test LAB=", "--gtest_filter", "Points", "GPU")
                    if w not in readme]


def points_check(edition):
    """make test's summary shows the points: 00-basics step 1 (CPU, filled) earns all its public
    points, the untouched 01-coo none."""
    step1 = sum(t["points"] for t in read_manifest(manifest_path(edition, "00-basics"))["tests"]
                if t["step"] == 1 and not t.get("hidden"))
    coo = sum(t["points"] for t in read_manifest(manifest_path(edition, "01-coo"))["tests"] if not t.get("hidden"))
    proc = subprocess.run(["scripts/testing/run_tests.sh", "build/test-logs/starter", "build/starter/bin/test_00-basics",
                           "build/starter/bin/test_01-coo"], cwd=edition, capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    want = [f"00-basics step 1: {step1:g} of {step1:g} public", f"01-coo total: 0 of {coo:g} public points"]
    return [f"the test summary lacks '{w}':\n{out[-2000:]}" for w in want if w not in out]


def edits_kept(edition):
    """No make target a student can type deletes or rewrites an edited starter/ file."""
    edited = sorted((edition / "starter").rglob("*.*"))
    before = {p: p.read_bytes() for p in edited}
    for target in ("starter", "check-starter", "check-judge", "dist-student", "clean"):
        proc = subprocess.run(["make", "NVCC=", "BUILD=build", target], cwd=edition, capture_output=True, text=True)
        crash = re.search(r"Traceback|cannot stat|No such file|command not found", proc.stdout + proc.stderr)
        if crash:  # a target that cannot run here refuses with a sentence, it does not crash
            return [f"make {target} in the student edition fails with '{crash.group(0)}':\n{proc.stderr[-800:]}"]
        lost = [p.relative_to(edition).as_posix() for p in edited if not p.is_file() or p.read_bytes() != before[p]]
        if lost:
            return [f"make {target} in the student edition changed or removed {', '.join(lost[:5])}"]
    return []


def build_check(edition):
    """A student who finished 00-basics builds and runs its tests in the edition: they pass, and
    the manifest check holds without reference/ and tests/hidden/."""
    for f in (KIT / "reference" / "00-basics").iterdir():
        shutil.copy(f, edition / "starter" / "00-basics" / f.name)
    steps = [["make", "-j2", "NVCC=", "BUILD=build", "build/starter/bin/test_00-basics", "build/starter/bin/test_01-coo"],
             ["build/starter/bin/test_00-basics"],
             [sys.executable, "scripts/testing/check_manifests.py", "build/starter/bin", "00-basics"]]
    for cmd in steps:
        proc = subprocess.run(cmd, cwd=edition, capture_output=True, text=True)
        if proc.returncode != 0:
            return [f"{' '.join(cmd)} failed in the student edition:\n{(proc.stdout + proc.stderr)[-3000:]}"]
    return points_check(edition) + edits_kept(edition)


if __name__ == "__main__":
    sys.exit(main())
