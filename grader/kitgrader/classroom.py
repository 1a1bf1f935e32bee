"""Grading a folder of submissions (one folder, .zip or .tar.gz per student), resumably.

Each student is graded by its own `grade.py grade` process into OUT/<student>.partial, which
becomes OUT/<student> with a done.json stamp once finished. A rerun skips students whose
stamp matches their submission, so an interrupted class run picks up where it stopped.
Progress and an estimate of the time left are printed as students finish.
"""
import json
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from . import results, submission
from .grading import Grader, student_name

ARCHIVES = (".zip", ".tar.gz", ".tgz", ".tar")


def submissions_in(folder):
    """[(student, path)] in name order; a name seen twice gets a suffix."""
    out, seen = [], {}
    for e in sorted(Path(folder).iterdir()):
        if e.name.startswith(".") or not (e.is_dir() or e.name.lower().endswith(ARCHIVES)):
            continue
        name = student_name(e)
        seen[name] = seen.get(name, 0) + 1
        out.append((name if seen[name] == 1 else f"{name}-{seen[name]}", e))
    return out


def _sha(text):
    return __import__("hashlib").sha256(text.encode()).hexdigest()


def _stamp(path, labs, cache_fp):
    return {"submission": submission.fingerprint(path), "labs": labs, "cache": cache_fp}


def grade_folder(opts, subs, out_root, csv_path, parallel, redo, grade_argv, users=None):
    """grade_argv(student, sub, out): the command grading one submission. users: a queue of
    --run-as users (None: none); each student takes one for the time it is graded."""
    grader = Grader(opts)
    grader.prepare()
    cache_fp = (grader.cache.stamp() or {}).get("fingerprint")
    labs = [l.name for l in grader.labs]
    out_root = Path(out_root)
    out_root.mkdir(parents=True, exist_ok=True)
    todo, done = [], 0
    everyone = submissions_in(subs)
    # Each student's grading is held here from the moment its grading process ends, and
    # grades.csv is written from memory: code graded later cannot change an earlier grade.
    held = {}
    for student, path in everyone:
        stamp_file = out_root / student / "done.json"
        try:
            stamp = json.loads(stamp_file.read_text())
            text = (out_root / student / "grading.json").read_text()
            if not redo and stamp == {**_stamp(path, labs, cache_fp), "grading": _sha(text)}:
                held[student] = json.loads(text)
                done += 1
                continue
        except (OSError, ValueError):
            pass
        todo.append((student, path))
    print(f"class: {len(everyone)} submission(s) in {subs}; {done} already graded, {len(todo)} to grade", flush=True)
    t0, finished, failures = time.monotonic(), 0, []

    def one(student, path):
        partial = out_root / f"{student}.partial"
        shutil.rmtree(partial, ignore_errors=True)
        start = time.monotonic()
        user = users.get() if users else None
        try:
            argv = grade_argv(student, path, partial) + (["--run-as", user] if user else [])
            proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
        finally:
            if users:
                users.put(user)
        ok = proc.returncode in (0, 3) and (partial / "grading.json").exists()
        line = f"{student}: GRADER ERROR (see {out_root / (student + '.error.log')})"
        if ok:
            final = out_root / student
            shutil.rmtree(final, ignore_errors=True)
            text = (partial / "grading.json").read_text()
            g = held[student] = json.loads(text)
            partial.rename(final)
            (final / "done.json").write_text(json.dumps({**_stamp(path, labs, cache_fp), "grading": _sha(text)}))
            line = f"{student}: {g['score']:g}/{g['max_score']:g}" + (
                f" ({g['not_run']} not run here)" if g["not_run"] else "")
        else:
            (out_root / f"{student}.error.log").write_text(proc.stdout)
        return student, ok, time.monotonic() - start, line

    with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        futures = [pool.submit(one, s, p) for s, p in todo]
        for f in as_completed(futures):
            student, ok, secs, line = f.result()
            finished += 1
            left = (time.monotonic() - t0) / finished * (len(todo) - finished)
            eta = f"{left:.0f} s" if left < 120 else f"{left / 60:.0f} min"
            print(f"[{done + finished}/{len(everyone)}] {line}  ({secs:.0f} s; about {eta} left)", flush=True)
            if not ok:
                failures.append(student)
            if not grader.cache.intact() and not opts.frozen_cache:
                print("class: the prebuilt tree was modified; rebuilding it", flush=True)
                grader.prepare()
    for student, g in held.items():
        on_disk = out_root / student / "grading.json"
        try:
            same = json.loads(on_disk.read_text()) == g
        except (OSError, ValueError):
            same = False
        if not same:
            print(f"class: WARNING: {on_disk} was changed after it was graded; the grade as graded is kept",
                  flush=True)
            on_disk.write_text(json.dumps(g, indent=1))
    n = results.write_csv({s: [g] for s, g in held.items()}, csv_path)
    print(f"class: {n} student(s) in {csv_path}; {len(failures)} could not be graded"
          + (f": {', '.join(failures)}" if failures else ""), flush=True)
    return 1 if failures else 0
