"""Grading a folder of submissions (one folder, .zip or .tar.gz per student), resumably.

Each student is graded by its own `grade.py grade` process into OUT/<student>.partial, which
becomes OUT/<student> with a done.json stamp once finished. A rerun skips students whose
stamp matches their submission, so an interrupted class run picks up where it stopped.
Progress and an estimate of the time left are printed as students finish.

A class run always ends with a complete grades.csv, whatever an upload is named or holds:
each student's folder name is made safe and unique (safe_name, submissions_in), and a
student whose grading fails in any way (its process crashed, the grader raised) gets a row
worth 0 with the reason in `notes` instead of stopping the others.
"""
import csv
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import unicodedata
from collections import Counter
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from . import results, scoring, submission
from .grading import WORK_PREFIX, Grader

ARCHIVES = (".zip", ".tar.gz", ".tgz", ".tar", ".tar.xz", ".tar.bz2")
# Names the grader writes itself, in OUT or in a student's folder: a student folder never takes
# one (the CSV's name and the labs' names are added per run).
RESERVED = {"grades.csv", "results.json", "grading.json", "report.txt", "done.json", "logs", "submission"}
SUFFIXES = (".partial", ".error.log")  # OUT/<student>.partial, OUT/<student>.error.log
MAX_NAME_BYTES = 100


def safe_name(raw):
    """A folder name any file system and any CSV reader takes, from an upload's name: ASCII
    letters, digits and ._-+@ kept (accents dropped: José -> Jose), anything else (bytes that
    are not UTF-8, spaces, slashes, controls) made '_'; no leading dot, dash, + or @ (a hidden
    file, an option, a spreadsheet formula)."""
    text = unicodedata.normalize("NFKD", raw)
    s = "".join(c if c.isascii() and (c.isalnum() or c in "._-+@") else "_"
                for c in text if not unicodedata.combining(c))
    s = s.lstrip(".-+@").rstrip(".")[:MAX_NAME_BYTES]
    return s or "submission"


def submissions_in(folder, reserved=()):
    """([(student, path)] in name order, [entries ignored]). A student's name is its upload's
    name without the archive suffix, made safe (safe_name) and unique even where case does not
    count, never a name of RESERVED or reserved, nor one the grader's own names could meet
    (kitgrade-*, *.partial, *.error.log): "grades.csv.zip" is graded as "grades.csv-2"."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"--subs {submission._printable(str(folder))}: not a folder")
    taken = {n.casefold() for n in RESERVED | set(reserved)}
    out, ignored = [], []
    for e in sorted(folder.iterdir()):
        low = e.name.lower()
        if e.name.startswith("."):
            continue
        if not (e.is_dir() or low.endswith(ARCHIVES)):
            ignored.append(e)
            continue
        cut = next((len(x) for x in ARCHIVES if low.endswith(x)), 0)
        name = safe_name(e.name[:len(e.name) - cut])
        if name.casefold().startswith(WORK_PREFIX):
            name = "_" + name
        if name.casefold().endswith(SUFFIXES):
            name += "_"
        student, n = name, 1
        while student.casefold() in taken:
            n += 1
            student = f"{name}-{n}"
        taken.add(student.casefold())
        out.append((student, e))
    return out, ignored


def _sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


def _stamp(path, labs, cache_fp):
    return {"submission": submission.fingerprint(path), "labs": labs, "cache": cache_fp}


def _say(text):
    """print, for any terminal encoding (a path need not be UTF-8)."""
    enc = sys.stdout.encoding or "utf-8"
    print(submission._printable(text).encode(enc, "replace").decode(enc), flush=True)


def _remove(path):
    """Whatever is at path (a folder, a file, a link) is gone, so a rename can take its place."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif os.path.lexists(path):
        path.unlink()


def _checked(student, g):
    """g, once shown to go into grades.csv (a grading.json of another shape raises here, not
    while the CSV of the whole class is written)."""
    results.write_csv({student: [g]}, os.devnull)
    return g


def _ungraded(grader, student):
    """The 0 row of a student who could not be graded: every test of every lab did not run."""
    labs = [scoring.score_lab(lab, outcomes={}) for lab in grader.labs]
    return {"student": student, "graded_at": results.now(), "score": 0, "not_run": 0, "incomplete": False,
            "max_score": sum(l["max_score"] for l in labs), "notes": [], "labs": labs}


def _write_csv(gradings, csv_path, notes):
    """grades.csv from {student: grading}, with notes[student] put first in its `notes` cell.
    Gradings that each pass _checked can still disagree (a lab with other steps, when a
    grading.json was forged): then they are added one by one, the most common shape first, and
    one that does not fit is a 0 row."""
    try:
        n = results.write_csv({s: [g] for s, g in gradings.items()}, csv_path)
    except Exception:  # noqa: BLE001
        shape = {s: repr(sorted((l["lab"], sorted(l["steps"])) for l in g["labs"])) for s, g in gradings.items()}
        count = Counter(shape.values())
        kept = {}
        for s in sorted(gradings, key=lambda s: (-count[shape[s]], s)):  # the usual shape first
            g = gradings[s]
            try:
                results.write_csv({**kept, s: [g]}, os.devnull)
                kept[s] = [g]
            except Exception as e:  # noqa: BLE001
                kept[s] = [{**g, "labs": [], "score": 0}]
                why = f"not graded: its grading does not fit the class's ({type(e).__name__}: {e})"
                notes[s] = notes.get(s) or why
        n = results.write_csv(kept, csv_path)
    with open(csv_path, newline="", errors="replace") as f:
        rows = list(csv.reader(f))
    for row in rows[1:]:
        if notes.get(row[0]):
            row[-1] = "; ".join(x for x in (notes[row[0]], row[-1]) if x)
    with open(csv_path, "w", newline="", errors="replace") as f:
        csv.writer(f).writerows(rows)
    return n


def _class_list(grader, subs, out_root, csv_path, labs):
    """(student, path) of every submission in subs, and the entries that are no submission."""
    everyone, ignored = submissions_in(subs, {csv_path.name, *getattr(grader, "all_labs", {}), *labs})
    here = out_root.resolve()
    for s, e in list(everyone):  # OUT (or a folder holding it) inside SUBS is no student
        if e.resolve() == here or e.resolve() in here.parents:
            everyone.remove((s, e))
            ignored.append(e)
    return everyone, ignored


class _ClassRun:
    """One grading of a class: each student graded in a process of its own, and each grading
    held here from the moment that process ends (grades.csv is written from memory, so code
    graded later cannot change an earlier grade)."""

    def __init__(self, grader, out_root, labs, grade_argv, users):
        self.grader, self.out_root, self.labs = grader, out_root, labs
        self.grade_argv, self.users = grade_argv, users
        self.cache_fp = (grader.cache.stamp() or {}).get("fingerprint")
        self.held, self.notes, self.failures = {}, {}, []

    def to_grade(self, everyone, redo):
        """The students whose grading is not on disk already for this submission and this
        prebuilt tree; the others' gradings are held as they are."""
        todo = []
        for student, path in everyone:
            try:
                stamp = json.loads((self.out_root / student / "done.json").read_text())
                text = (self.out_root / student / "grading.json").read_text()
                if not redo and stamp == {**_stamp(path, self.labs, self.cache_fp), "grading": _sha(text)}:
                    self.held[student] = _checked(student, json.loads(text))
                    continue
            except Exception:  # noqa: BLE001 - not graded yet, or its folder is unusable: grade it again
                pass
            todo.append((student, path))
        return todo

    def grade_one(self, student, path):
        """The student's grading, from its own process; raises on any failure."""
        partial = self.out_root / f"{student}.partial"
        _remove(partial)
        user = self.users.get() if self.users else None
        try:
            argv = self.grade_argv(student, path, partial) + (["--run-as", user] if user else [])
            proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
        finally:
            if self.users:
                self.users.put(user)
        if proc.returncode not in (0, 3) or not (partial / "grading.json").is_file():
            log = self.out_root / f"{student}.error.log"
            log.write_text(proc.stdout, encoding="utf-8", errors="replace")
            how = f"killed by signal {-proc.returncode}" if proc.returncode < 0 else f"exit status {proc.returncode}"
            last = (proc.stdout.strip().splitlines() or ["no output"])[-1][:200]
            raise RuntimeError(f"its grading process failed ({how}: {last}); see {log}")
        try:
            text = (partial / "grading.json").read_text()
            g = _checked(student, json.loads(text))
        except Exception as e:  # noqa: BLE001
            raise RuntimeError(f"its grading.json is unusable ({type(e).__name__}: {e}); see {partial}") from e
        final = self.out_root / student
        _remove(final)
        partial.rename(final)
        (final / "done.json").write_text(json.dumps({**_stamp(path, self.labs, self.cache_fp), "grading": _sha(text)}))
        return g

    def one(self, student, path):
        """(student, grading or None, seconds, progress line); never raises, so one student's
        failure is that student's row and never the class's end."""
        start = time.monotonic()
        try:
            g = self.grade_one(student, path)
            line = f"{student}: {g['score']:g}/{g['max_score']:g}" + (
                f" ({g['not_run']} not run here)" if g["not_run"] else "")
        except Exception as e:  # noqa: BLE001
            g, why = None, str(e) if isinstance(e, RuntimeError) else f"{type(e).__name__}: {e}"
            self.notes[student] = f"not graded: {submission._printable(why)}"
            line = f"{student}: NOT GRADED: {why}"
        return student, g, time.monotonic() - start, line

    def grade_all(self, todo, parallel, done, total, frozen_cache):
        """Grades the students of todo, parallel at a time, with a progress line for each."""
        t0, finished = time.monotonic(), 0
        with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
            futures = [pool.submit(self.one, s, p) for s, p in todo]
            for f in as_completed(futures):
                student, g, secs, line = f.result()
                finished += 1
                left = (time.monotonic() - t0) / finished * (len(todo) - finished)
                eta = f"{left:.0f} s" if left < 120 else f"{left / 60:.0f} min"
                _say(f"[{done + finished}/{total}] {line}  ({secs:.0f} s; about {eta} left)")
                if g is None:
                    self.failures.append(student)
                else:
                    self.held[student] = g
                if not self.grader.cache.intact() and not frozen_cache:
                    _say("class: the prebuilt tree was modified; rebuilding it")
                    self.grader.prepare()

    def keep_as_graded(self):
        """Puts back a grading.json changed after its grading, and carries a refused upload's
        reason into grades.csv."""
        for student, g in self.held.items():
            on_disk = self.out_root / student / "grading.json"
            try:
                same = json.loads(on_disk.read_text()) == g
            except (OSError, ValueError):
                same = False
            if not same:
                _say(f"class: WARNING: {on_disk} was changed after it was graded; the grade as graded is kept")
                try:
                    on_disk.write_text(json.dumps(g, indent=1))
                except OSError as e:
                    _say(f"class: WARNING: cannot put {on_disk} back: {e}")
            refused = (g.get("notes") or [""])[0]
            if isinstance(refused, str) and refused.startswith(submission.SubmissionError.PREFIX):
                self.notes[student] = refused  # the upload could not be opened: say why in grades.csv


def grade_folder(opts, subs, out_root, csv_path, parallel, redo, grade_argv, users=None):
    """grade_argv(student, sub, out): the command grading one submission. users: a queue of
    --run-as users (None: none); each student takes one for the time it is graded. Returns 1
    when a student could not be graded (its row says why), else 0; grades.csv is written anyway."""
    grader = Grader(opts)
    labs = [l.name for l in grader.labs]
    out_root, csv_path = Path(out_root).absolute(), Path(csv_path)
    if out_root.resolve() == Path(subs).resolve():
        raise ValueError("--out must be another folder than --subs")
    # Listed before the prebuilt tree is prepared, so a wrong --subs costs no build.
    everyone, ignored = _class_list(grader, subs, out_root, csv_path, labs)
    grader.prepare()
    run = _ClassRun(grader, out_root, labs, grade_argv, users)
    out_root.mkdir(parents=True, exist_ok=True)
    if ignored:
        _say(f"class: ignored (no folder, .zip or .tar.gz, or the output folder): {', '.join(e.name for e in ignored)}")
    todo = run.to_grade(everyone, redo)
    done = len(everyone) - len(todo)
    _say(f"class: {len(everyone)} submission(s) in {subs}; {done} already graded, {len(todo)} to grade")
    run.grade_all(todo, parallel, done, len(everyone), opts.frozen_cache)
    run.keep_as_graded()
    gradings = {**run.held, **{s: _ungraded(grader, s) for s in run.failures}}
    n = _write_csv(gradings, csv_path, run.notes)
    _say(f"class: {n} student(s) in {csv_path}; {len(run.failures)} could not be graded"
         + (f": {', '.join(run.failures)}" if run.failures else ""))
    return 1 if run.failures else 0
