#!/usr/bin/env python3
"""The grader's adversarial suite: bad submissions, each with the exact score it must get.

  run_adversarial.py [--cache DIR] [--out DIR] [--only CASE,...] [--sm 90]

Cases live in cases.json; a case's own files in submissions/<case>/. The suite grades each
with tight limits (10 s per test binary, 1 GB of memory), checks scores, test statuses,
messages and notes, then checks that the instructor's files and the prebuilt tree are
unchanged, that grading a class folder resumes, and that nothing was written where a case
tried to write. Meant for a machine without a GPU (CUDA tests are then 'not run').
Exit status 0 when every check holds.
"""
import argparse
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
KIT = HERE.parents[1]
GRADE = KIT / "grader" / "grade.py"
LABS = "00-basics,01-coo,02-csr,10-multi-gpu"


def kit_digest():
    """sha256 of each instructor file a submission of the graded labs could try to change."""
    paths = [KIT / "Makefile"]
    for lab in LABS.split(","):
        for top in ("tests", "tests/hidden", "reference", "starter", "labs"):
            paths += sorted(p for p in (KIT / top / lab).glob("*") if p.is_file())
    return {str(p.relative_to(KIT)): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


def make_submission(name, case, dest_root):
    """Lays out the case's submission: base files, then the case's own files; packs it if asked."""
    folder = dest_root / name
    top = folder / case["wrap"] if case.get("wrap") else folder
    top.mkdir(parents=True)
    for lab, source in case.get("base", {}).items():
        (top / "starter" / lab).mkdir(parents=True, exist_ok=True)
        for f in sorted((KIT / source / lab).iterdir()):
            if not (case.get("cpu_only") and f.suffix == ".cu"):
                shutil.copy(f, top / "starter" / lab / f.name)
    own = HERE / "submissions" / case.get("submission", name)
    for f in sorted(own.rglob("*")):
        if f.is_file() and f.name != ".keep":
            (top / f.relative_to(own)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(f, top / f.relative_to(own))
    for rel in case.get("drop", []):
        (top / rel).unlink()
    pack = case.get("pack")
    if not pack:
        return folder
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    raw = case.get("raw_entries", [])
    if pack == "zip":
        out = dest_root / f"{name}.zip"
        with zipfile.ZipFile(out, "w") as z:
            for p in files:
                z.write(p, p.relative_to(folder).as_posix())
            for e in raw:
                z.writestr(e["name"], e.get("text", ""))
    else:
        out = dest_root / f"{name}.tar.gz"
        with tarfile.open(out, "w:gz") as t:
            for p in files:
                t.add(p, p.relative_to(folder).as_posix())
            for e in raw:
                info = tarfile.TarInfo(e["name"])
                if "symlink" in e:
                    info.type, info.linkname = tarfile.SYMTYPE, e["symlink"]
                    t.addfile(info)
                else:
                    data = e["text"].encode()
                    info.size = len(data)
                    t.addfile(info, io.BytesIO(data))
    shutil.rmtree(folder)
    return out


def check(name, case, out_dir):
    """Problems with one graded case (empty list: as expected)."""
    problems = []
    g = json.loads((out_dir / "grading.json").read_text())
    results_text = (out_dir / "results.json").read_text()
    labs = {l["lab"]: l for l in g["labs"]}
    for lab, score in case["expect"].items():
        got = labs[lab]["score"] if lab in labs else None
        if got != score:
            problems.append(f"{lab}: score {got}, expected {score}")
    for lab, build in case.get("build", {}).items():
        if labs[lab]["build"] != build:
            problems.append(f"{lab}: build {labs[lab]['build']}, expected {build}")
    tests = {t["name"]: t for l in g["labs"] for t in l["tests"]}
    for t, status in case.get("tests", {}).items():
        if tests[t]["status"] != status:
            problems.append(f"{t}: {tests[t]['status']}, expected {status} ({tests[t]['message'][:200]})")
    for t, text in case.get("messages", {}).items():
        if text not in tests[t]["message"]:
            problems.append(f"{t}: message lacks {text!r}: {tests[t]['message'][:300]!r}")
    notes = "\n".join(g["notes"])
    for text in case.get("notes_contain", []):
        if text not in notes:
            problems.append(f"notes lack {text!r}: {notes!r}")
    everything = results_text + (out_dir / "report.txt").read_text() + "".join(
        p.read_text(errors="replace") for p in (out_dir / "logs").glob("*"))
    for text in case.get("output_contains", []):
        if text not in results_text:
            problems.append(f"results.json lacks {text!r}")
    for text in case.get("output_excludes", []):
        if text in everything:
            problems.append(f"the output holds {text!r}")
    review = [t for t in json.loads(results_text)["tests"] if t["extra_data"]["kit_status"] == "review"]
    for text in case.get("review_contains", []):
        if not review or text not in review[0]["output"] or review[0]["visibility"] != "hidden":
            problems.append(f"results.json has no hidden review entry holding {text!r}")
    if "incomplete" in case and g["incomplete"] != case["incomplete"]:
        problems.append(f"incomplete is {g['incomplete']}, expected {case['incomplete']}")
    if g.get("tampered_with_cache"):
        problems.append("the prebuilt tree was modified")
    for path in case.get("must_not_exist", []):
        if os.path.exists(path):
            problems.append(f"{path} exists")
    # Every GPU test is reported as not run (or failed), never passed, on this machine.
    for t in tests.values():
        if t["gpu"] and t["status"] == "passed":
            problems.append(f"{t['name']}: a GPU test passed on a machine without a GPU")
    return problems


def grade(sub, out, lab, cache, sm, extra):
    cmd = [sys.executable, str(GRADE), "grade", "--sub", str(sub), "--out", str(out), "--lab", lab,
           "--cache", str(cache), "--frozen-cache", "--sm", sm, "--timeout", "10", "--memory-mb", "1024",
           "--quiet", *extra]
    return subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, CUDA_VISIBLE_DEVICES=""))


def class_run(cache, sm, work, extra, subs_made):
    """A class folder of three submissions: graded, then resumed without regrading."""
    problems = []
    folder = work / "class-subs"
    folder.mkdir()
    for name in ("empty", "does_not_compile", "correct_zip_wrapped"):
        shutil.move(str(subs_made[name]), folder / Path(subs_made[name]).name)
    out = work / "class-out"
    cmd = [sys.executable, str(GRADE), "class", "--subs", str(folder), "--out", str(out), "--lab", "02-csr",
           "--cache", str(cache), "--frozen-cache", "--sm", sm, "--timeout", "10",
           # Under --run-as every process of the user is killed after each test program, so two
           # students at once need two users; the suite has one ('nobody').
           "--parallel", "1" if "--run-as" in extra else "2", *extra]
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
    first = subprocess.run(cmd, capture_output=True, text=True, env=env)
    rows = list(__import__("csv").reader(open(out / "grades.csv")))
    scores = {r[0]: r[-3] for r in rows[1:]}
    # The same scores as when each is graded alone (cases.json), whatever the lab is worth now.
    cases = json.loads((HERE / "cases.json").read_text())["cases"]
    want = {n: str(cases[n]["expect"]["02-csr"]) for n in ("does_not_compile", "empty", "correct_zip_wrapped")}
    if scores != want:
        problems.append(f"class grades.csv totals {scores}\n{first.stdout}")
    if not rows[0][1].startswith("02-csr step1"):
        problems.append(f"class grades.csv header {rows[0]}")
    t0 = time.monotonic()
    second = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if "3 already graded, 0 to grade" not in second.stdout or time.monotonic() - t0 > 30:
        problems.append(f"class run did not resume: {second.stdout}")
    return problems


def report(title, problems, failed, name):
    """Prints a check's PASS or FAIL line and its problems; a failure's name joins failed."""
    print(f"{'PASS' if not problems else 'FAIL'}  {title}", flush=True)
    for p in problems:
        print(f"      {p}")
    if problems:
        failed.append(name)


def skip_reason(case, is_root, run_as):
    """Why this machine cannot run the case, or None."""
    if case.get("needs_run_as") and not is_root:
        return "needs --run-as (the suite must run as root, with a user 'nobody')"
    if case.get("needs_private_tmp") and not private_tmp_here(run_as):
        return "this machine gives no mount namespace, so no private /tmp (the grader flags it)"
    if case.get("needs_no_gpu_driver") and any(Path("/dev").glob("nvidia*")):
        return "beside a GPU driver the grader uses no RLIMIT_AS (the watchdog case covers it)"
    return None


def run_case(name, case, a, work, out_root, run_as):
    """Grades the case's submission alone: (the submission, its problems, seconds)."""
    sub = make_submission(name, case, work / "subs")
    out = out_root / name
    shutil.rmtree(out, ignore_errors=True)
    t1 = time.monotonic()
    work_dir = work / "trees"
    work_dir.mkdir(exist_ok=True)
    os.chmod(work_dir, 0o755)
    proc = grade(sub, out, case["lab"], a.cache, a.sm, run_as + ["--work-dir", str(work_dir)] +
                 case.get("grader_args", []))
    secs = time.monotonic() - t1
    if proc.returncode != 0 or not (out / "grading.json").exists():
        return sub, [f"grade.py exited with {proc.returncode}:\n{proc.stdout}{proc.stderr}"], secs
    return sub, check(name, case, out), secs


def whole_suite_checks(a, work, out_root, run_as, is_root, subs_made, failed):
    """The checks over the whole suite: a class folder, the private cache, a tampered cache."""
    report("class folder graded, then resumed",
           class_run(a.cache, a.sm, work, run_as + ["--work-dir", str(work / "trees")], subs_made), failed, "class")
    report("the tests read their matrices from a public copy; the rest of the cache is private"
           + (" (a graded run as 'nobody' scored rdb450)" if is_root else ""),
           private_cache(a.cache, out_root, is_root), failed, "private-cache")
    report("a cached object rewritten with its size and date kept is never graded from",
           tampered_cache(a.cache, a.sm, work, run_as), failed, "cache")


def after_suite_checks(before, work, failed):
    """Nothing of the kit changed, and no test program still runs."""
    after = kit_digest()
    changed = sorted(f for f in set(before) | set(after) if before.get(f) != after.get(f))
    if changed:
        print(f"FAIL  instructor files changed during the suite: {', '.join(changed)}")
        failed.append("kit")
    leftovers = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _runs_from(p, work)]
    if leftovers:
        print(f"FAIL  test programs still running after grading: {[p.name for p in leftovers]}")
        failed.append("leftovers")


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", type=Path, default=KIT / "build" / "grader-test-cache")
    ap.add_argument("--out", type=Path, help="keep each case's output here (default: a temporary folder)")
    ap.add_argument("--only", help="comma-separated case names")
    ap.add_argument("--sm", default=os.environ.get("SM", "90"))
    return ap.parse_args()


def main():
    a = parse_args()
    cases = json.loads((HERE / "cases.json").read_text())["cases"]
    chosen = a.only.split(",") if a.only else list(cases)
    a.cache.parent.mkdir(parents=True, exist_ok=True)  # a fresh checkout has no build/ yet
    is_root = can_run_as_nobody(a.cache)
    run_as = ["--run-as", "nobody"] if is_root else []
    # Per-submission trees go to /tmp so that code climbing out of its tree finds no kit there.
    work = Path(tempfile.mkdtemp(prefix="kitgrade-suite-", dir="/tmp" if os.path.isdir("/tmp") else None))
    out_root = a.out or work / "out"
    os.chmod(work, 0o755)
    before = kit_digest()
    t0 = time.monotonic()
    pre = subprocess.run([sys.executable, str(GRADE), "prebuild", "--lab", LABS, "--cache", str(a.cache),
                          "--sm", a.sm], capture_output=True, text=True)
    print(f"suite: prebuilt tree ready in {time.monotonic() - t0:.0f} s", flush=True)
    if pre.returncode != 0:
        print(pre.stdout + pre.stderr)
        return 1
    failed, subs_made = [], {}
    for name in chosen:
        why = skip_reason(cases[name], is_root, run_as)
        if why:
            print(f"SKIP  {name}: {why}")
            continue
        subs_made[name], problems, secs = run_case(name, cases[name], a, work, out_root, run_as)
        report(f"{name} ({secs:.1f} s)", problems, failed, name)
    if not a.only:
        whole_suite_checks(a, work, out_root, run_as, is_root, subs_made, failed)
    after_suite_checks(before, work, failed)
    shutil.rmtree(work, ignore_errors=True)
    checks = len(chosen) + (0 if a.only else 3) + 2  # cases, the class run, cache checks, kit and leftovers
    print(f"suite: {checks - len(failed)} checks passed, {len(failed)} failed"
          + (f" ({', '.join(failed)})" if failed else "") + f", {time.monotonic() - t0:.0f} s in all")
    return 1 if failed else 0


def private_tmp_here(run_as):
    """True when the grader can give test programs their own /tmp and /dev/shm here."""
    sys.path.insert(0, str(KIT / "grader"))
    from kitgrader import sandbox
    user = None
    if run_as:
        import pwd
        pw = pwd.getpwnam(run_as[1])
        user = (pw.pw_uid, pw.pw_gid)
    return sandbox.private_tmp_available(sandbox.Limits(run_as=user))


def private_cache(cache, out_root, is_root):
    """The kit can be private (mode 700) and the tests still read their matrices: they were
    built to read a world-readable copy outside the cache's private tree, which stays 700.
    As root, 'nobody' can open that copy and not the tree, and a reference graded as 'nobody'
    (the 'correct' case) earned its rdb450 points."""
    problems = []
    cache = cache.resolve()
    public, tree = cache / "public-matrices", cache / "tree"
    modes = {p: os.stat(p).st_mode & 0o777 for p in (cache, tree, public, public / "rdb450.mtx")}
    want = {cache: 0o711, tree: 0o700, public: 0o755, public / "rdb450.mtx": 0o644}
    for p, m in want.items():
        if modes[p] != m:
            problems.append(f"{p} has mode {modes[p]:o}, expected {m:o}")
    objs = list(tree.glob("build/obj-*/tests/support/test_support.cpp.o"))
    if not objs:
        problems.append("no test_support object in the prebuilt tree")
    for obj in objs:
        data = obj.read_bytes()
        if str(public).encode() not in data or str(tree / "matrices").encode() in data:
            problems.append(f"{obj.relative_to(cache)} does not read its matrices from {public}")
    if is_root:
        for path, readable in ((public / "rdb450.mtx", True), (tree / "matrices" / "rdb450.mtx", False)):
            if _nobody_can_open(path) != readable:
                problems.append(f"'nobody' {'cannot' if readable else 'can'} open {path}")
        try:
            g = json.loads((out_root / "correct" / "grading.json").read_text())
            want = ("Step1_CsrCpu/float.Rdb450", "Step1_CsrCpu/double.Rdb450")
            rdb = [t for l in g["labs"] for t in l["tests"] if t["name"] in want]
            if len(rdb) != len(want) or any(t["status"] != "passed" for t in rdb):
                problems.append(f"graded as 'nobody', the reference did not pass {' and '.join(want)}: {rdb}")
        except (OSError, ValueError) as e:
            problems.append(f"no grading of the 'correct' case to look at ({e})")
    return problems


def _nobody_can_open(path):
    import pwd
    pw = pwd.getpwnam("nobody")
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setgid(pw.pw_gid)
            os.setuid(pw.pw_uid)
            open(path, "rb").close()
            os._exit(0)
        except BaseException:
            os._exit(1)
    return os.waitpid(pid, 0)[1] == 0


def tampered_cache(cache, sm, work, extra):
    """An object of the prebuilt tree rewritten (same size, same mtime): the next grading must
    refuse the tree rather than build from it, and a prebuild must repair it."""
    feats = dict(kv.split("=", 1) for kv in (cache / "tree" / "build" / ".features").read_text().split() if "=" in kv)
    obj = next((cache / "tree" / "build" / feats.get("objdir", "obj") / "labs" / "00-basics").glob("*.o"))
    st = obj.stat()
    data = bytearray(obj.read_bytes())
    data[-1] ^= 0xFF
    obj.write_bytes(bytes(data))
    os.utime(obj, ns=(st.st_atime_ns, st.st_mtime_ns))
    problems = []
    sub = work / "tamper-sub"
    (sub / "starter" / "00-basics").mkdir(parents=True)
    shutil.copy(KIT / "reference" / "00-basics" / "csr_cpu.cpp", sub / "starter" / "00-basics")
    out = work / "tamper-out"
    proc = grade(sub, out, "00-basics", cache, sm, extra + ["--work-dir", str(work / "trees")])
    if proc.returncode == 3 and "modified" in proc.stderr and not (out / "grading.json").exists():
        pass  # refused up front (--frozen-cache): the instructor side failed, exit status 3
    else:
        problems += _graded_from_tampered(out, proc)
    pre = subprocess.run([sys.executable, str(GRADE), "prebuild", "--lab", LABS, "--cache", str(cache), "--sm", sm],
                         capture_output=True, text=True)
    if pre.returncode != 0 or obj.read_bytes() == bytes(data):
        problems.append(f"prebuild did not repair the tree: {pre.stdout}{pre.stderr}")
    return problems


def _graded_from_tampered(out, proc):
    """Problems when a grading was written although its tree was tampered with."""
    problems = []
    try:
        g = json.loads((out / "grading.json").read_text())
        if g["labs"][0]["build"] != "kit-error" or not any("WARNING" in n for n in g["notes"]):
            problems.append(f"graded from a tampered tree: build {g['labs'][0]['build']}, notes {g['notes']}")
    except (OSError, ValueError, KeyError, IndexError):
        problems.append(f"no grading written ({proc.returncode}): {proc.stdout}{proc.stderr}")
    return problems


def can_run_as_nobody(cache):
    """Root, a user 'nobody', and a cache that user can reach (its matrices are read at run time)."""
    import pwd
    import stat
    try:
        pwd.getpwnam("nobody")
    except KeyError:
        return False
    cache = cache.resolve()
    reachable = all(os.stat(p).st_mode & stat.S_IXOTH for p in [*cache.parents] if p != Path("/"))
    if os.geteuid() == 0 and not reachable:
        print(f"suite: {cache} is not reachable by 'nobody': student code runs as root here")
    return os.geteuid() == 0 and reachable


def _runs_from(proc, folder):
    """True when the process runs a program from folder, or from a grading tree of the suite."""
    try:
        exe = os.readlink(Path(proc, "exe"))
    except OSError:
        return False
    return exe.startswith(str(folder)) or "/kitgrade-" in exe


if __name__ == "__main__":
    sys.exit(main())
