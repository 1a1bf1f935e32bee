"""What a grading run writes, and how runs are merged into grades.csv.

One submission's output folder:
  results.json   Gradescope's format (schema: grader/results.schema.json)
  report.txt     the readable report, for the instructor (hidden tests, review flags, timings)
  grading.json   everything, per lab and test; the merge step reads only this
  logs/          build logs and test program output
"""
import csv
import json
import re
import time
from pathlib import Path

from . import VERSION
from .labs import LAB_STEP


def _fmt(x):
    return f"{x:g}"


def _test_output(t):
    if t["status"] == "passed":
        return "passed" + (f"\n{t['message']}" if t["message"] else "")
    if t["status"] == "not_run":
        return ("NOT RUN, 0 points for now: " + t["message"] +
                "\nThis score is incomplete: this test needs a backend this grading machine lacks (a GPU, for a "
                "CUDA test); it earns its points when your instructor grades it where that backend runs.")
    return t["message"] or "failed"


def headline(message):
    """The most telling line of a failure: the kit's own explanation naming the lab step."""
    lines = [l.strip() for l in (message or "").splitlines() if l.strip()]
    for l in lines:
        m = re.match(r"^Actual: false \((.*)\)$", l)
        if m:
            return m.group(1)
    for l in lines:
        if LAB_STEP.search(l):
            return l
    rest = [l for l in lines if not re.match(r"^(\S+:\d+|Failed|Value of:.*|Expected:.*)$", l)]
    return (rest or lines or [""])[0]


def _step_lines(lab, include_hidden):
    lines = []
    for n, s in lab["steps"].items():
        tests = [t for t in lab["tests"] if str(t["step"]) == n and (include_hidden or not t["hidden"])]
        score, top = sum(t["score"] for t in tests), sum(t["max_score"] for t in tests)
        not_run = sum(t["status"] == "not_run" for t in tests)
        extra = f"  ({not_run} not run here)" if not_run else ""
        hidden = sum(t["max_score"] for t in lab["tests"] if str(t["step"]) == n and t["hidden"])
        if not include_hidden and hidden:
            extra += f"  + {_fmt(hidden)} hidden point{'' if hidden == 1 else 's'}, shown when grades are published"
        lines.append(f"  step {n} [{s['backend']}] {s['title']}: {_fmt(score)}/{_fmt(top)}{extra}")
        not_run_why = {}
        for t in tests:
            first = headline(t["message"] or t["status"])[:200]
            if t["status"] == "not_run":
                not_run_why.setdefault(first, []).append(t["name"])
            elif t["status"] != "passed":
                lines.append(f"      {t['name']}: {t['status']}: {first}")
        for why, names in not_run_why.items():
            lines.append(f"      {len(names)} test(s) {why}")
    return lines


def summary(grading, include_hidden):
    """The text at the top of results.json (public view) or of report.txt (everything)."""
    labs = grading["labs"]
    out = [f"SpMV lab kit autograder {VERSION}"]
    if include_hidden:
        out.append(f"Score: {_fmt(grading['score'])} / {_fmt(grading['max_score'])}")
    else:
        public = sum(t["score"] for l in labs for t in l["tests"] if not t["hidden"])
        public_max = sum(t["max_score"] for l in labs for t in l["tests"] if not t["hidden"])
        out.append(f"Public tests: {_fmt(public)} / {_fmt(public_max)} points")
    if grading["incomplete"]:
        out.append(f"INCOMPLETE: {grading['not_run']} test(s) not run on this machine (0 points for now); "
                   "they need a backend this machine lacks (a GPU, for CUDA tests) and earn their points where it runs.")
    for lab in labs:
        out.append("")
        head = f"{lab['lab']}: {lab['title']}"
        out.append(head + (f": {_fmt(lab['score'])}/{_fmt(lab['max_score'])}" if include_hidden else ""))
        if lab["build"] != "ok":
            what = {"failed": "did not build: 0 points for this lab",
                    "rejected": "was not run, because its code reaches outside the lab's interface: 0 points "
                                "for this lab"}.get(lab["build"], "could not be graded")
            out.append(f"  The lab {what}.")
            out.extend("    " + l for l in lab["build_errors"].splitlines())
            continue
        out.extend(_step_lines(lab, include_hidden))
    notes = grading.get("notes") or []
    if notes:
        out += ["", "Notes:"] + [f"  - {n}" for n in notes]
    return "\n".join(out)


def gradescope(grading):
    """results.json in Gradescope's autograder format."""
    tests = []
    for lab in grading["labs"]:
        steps = lab["steps"]
        for i, t in enumerate(lab["tests"], 1):
            backend = steps.get(str(t["step"]), {}).get("backend", "")
            tests.append({
                "name": f"{lab['lab']} step {t['step']}: {t['name']}",
                "number": f"{lab['lab'][:2]}.{t['step']}.{i}",
                "score": t["score"], "max_score": t["max_score"],
                "status": "passed" if t["status"] == "passed" else "failed",
                "output": _test_output(t),
                "visibility": "after_published" if t["hidden"] else "visible",
                "tags": [lab["lab"], f"step {t['step']}", backend],
                "extra_data": {"kit_status": t["status"], "gpu": t["gpu"], "tier": t["tier"]},
            })
    review = review_text(grading)
    if review:
        # Gradescope shows a "hidden" test to instructors only: the student never sees the flags.
        tests.append({"name": "Instructor review: flags for a human look (not part of the score)",
                      "score": 0, "max_score": 0, "status": "failed", "output": review, "visibility": "hidden",
                      "tags": ["review"], "extra_data": {"kit_status": "review", "gpu": False, "tier": 0}})
    return {
        "score": grading["score"],
        "execution_time": round(grading["execution_time"], 1),
        "output": summary(grading, include_hidden=False),
        "output_format": "text",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {
            "grader_version": VERSION, "incomplete": grading["incomplete"], "not_run": grading["not_run"],
            "labs": {l["lab"]: {"build": l["build"], "score": l["score"], "max_score": l["max_score"],
                                "steps": {n: {"score": s["score"], "max_score": s["max_score"]}
                                          for n, s in l["steps"].items()}}
                     for l in grading["labs"]},
        },
    }


def review_text(grading):
    """What an instructor should look at: refused code, suspicious lines, a tampered tree."""
    out = [f"WARNING: {n}" for n in grading.get("notes", []) if n.startswith("WARNING")]
    for lab in grading["labs"]:
        if lab["build"] == "rejected":
            out.append(f"{lab['lab']}: not run, its objects reach outside the lab's interface:")
            out.extend("    " + l for l in lab["build_errors"].splitlines())
        for f, flags in (lab.get("review_flags") or {}).items():
            if f == "(objects)":
                continue
            out.append(f"{lab['lab']}: review {f}:")
            out.extend("    " + x for x in flags[:20])
    return "\n".join(out)


def report(grading):
    """report.txt: the whole picture, hidden tests and review flags included."""
    out = [summary(grading, include_hidden=True), ""]
    out.append(f"Submission: {grading['submission']}  (student: {grading['student']})")
    out.append(f"Graded {grading['graded_at']} on {grading['machine']['host']} "
               f"(GPU: {'yes' if grading['machine']['gpu'] else 'no'}) in {grading['execution_time']:.1f} s "
               f"(CPU time of builds and tests: {grading['cpu_time']:.1f} s)")
    for lab in grading["labs"]:
        out += ["", f"== {lab['lab']}  files from: {lab.get('files_from') or '(none found)'}"]
        for t in lab["tests"]:
            mark = {"passed": "PASS", "failed": "FAIL", "not_run": "NOT RUN", "error": "ERROR"}[t["status"]]
            vis = " (hidden)" if t["hidden"] else ""
            out.append(f"  {mark:8} {_fmt(t['score'])}/{_fmt(t['max_score'])}  {t['name']}{vis}")
            if t["status"] != "passed" and t["message"]:
                out.extend("             " + l for l in t["message"].splitlines()[:12])
        for f, flags in (lab.get("review_flags") or {}).items():
            out.append(f"  review {f}:")
            out.extend("    " + x for x in flags[:20])
        if lab.get("timing"):
            out.append("  time: " + ", ".join(f"{k} {v:.1f} s" for k, v in lab["timing"].items()))
    return "\n".join(out) + "\n"


def printable(value):
    """value with every string made writable as UTF-8 (file names need not be UTF-8)."""
    if isinstance(value, str):
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    if isinstance(value, dict):
        return {printable(k): printable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [printable(v) for v in value]
    return value


def write(out_dir, grading):
    grading = printable(grading)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "grading.json").write_text(json.dumps(grading, indent=1))
    (out / "report.txt").write_text(report(grading))
    (out / "results.json").write_text(json.dumps(gradescope(grading), indent=1))


# ---------------------------------------------------------------- merging runs into grades.csv
def load_runs(paths):
    """grading.json of every output folder given, or of their sub-folders. {student: [grading]}"""
    runs = {}
    for p in map(Path, paths):
        candidates = [p] if (p / "grading.json").exists() else sorted(d for d in p.iterdir() if d.is_dir())
        for d in candidates:
            try:
                g = json.loads((d / "grading.json").read_text())
            except (OSError, ValueError):
                continue
            runs.setdefault(g["student"], []).append(g)
    return runs


def _rank(t, graded_at):
    """A test that really ran beats one that did not; among those, the latest run wins."""
    return (t["status"] in ("passed", "failed"), graded_at)


def merge_student(gradings):
    """One grading from several runs of one student (e.g. Gradescope's CPU run + a GPU run)."""
    labs = {}
    for g in sorted(gradings, key=lambda g: g["graded_at"]):
        for lab in g["labs"]:
            cur = labs.setdefault(lab["lab"], {"lab": lab, "tests": {}, "at": {}})
            cur["lab"] = {**lab, "tests": None}
            for t in lab["tests"]:
                old = cur["tests"].get(t["name"])
                if old is None or _rank(t, g["graded_at"]) >= _rank(old, cur["at"][t["name"]]):
                    cur["tests"][t["name"]] = t
                    cur["at"][t["name"]] = g["graded_at"]
    merged = []
    for name in sorted(labs):
        lab, tests = labs[name]["lab"], list(labs[name]["tests"].values())
        steps = {n: {**s, "score": sum(t["score"] for t in tests if str(t["step"]) == n),
                     "not_run": sum(t["status"] == "not_run" for t in tests if str(t["step"]) == n)}
                 for n, s in lab["steps"].items()}
        not_run = sum(t["status"] == "not_run" for t in tests)
        merged.append({**lab, "tests": tests, "steps": steps, "score": sum(t["score"] for t in tests),
                       "not_run": not_run, "incomplete": not_run > 0})
    return merged


def write_csv(runs, csv_path):
    """grades.csv: one row per student, one column per lab step, each lab's total, the total."""
    per_student = {s: merge_student(g) for s, g in sorted(runs.items())}
    columns = {}  # (lab, step) -> max score, in lab/step order
    for labs in per_student.values():
        for lab in labs:
            for n, s in lab["steps"].items():
                columns[(lab["lab"], int(n))] = s["max_score"]
    lab_max = {}
    for (lab, _), m in columns.items():
        lab_max[lab] = lab_max.get(lab, 0) + m
    order = sorted(columns)
    header = ["student"] + [f"{lab} step{n} (/{_fmt(columns[(lab, n)])})" for lab, n in order]
    header += [f"{lab} (/{_fmt(m)})" for lab, m in sorted(lab_max.items())]
    header += [f"total (/{_fmt(sum(lab_max.values()))})", "not_run", "notes"]
    Path(csv_path).parent.mkdir(parents=True, exist_ok=True)
    with open(csv_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for student, labs in per_student.items():
            by = {l["lab"]: l for l in labs}
            row = [student]
            row += [_fmt(by[lab]["steps"][str(n)]["score"]) if lab in by else "" for lab, n in order]
            row += [_fmt(by[lab]["score"]) if lab in by else "" for lab in sorted(lab_max)]
            row.append(_fmt(sum(l["score"] for l in labs)))
            row.append(str(sum(l["not_run"] for l in labs)))
            notes = [f"{l['lab']} build {l['build']}" for l in labs if l["build"] != "ok"]
            row.append("; ".join(notes))
            w.writerow(row)
    return len(per_student)


def now():
    return time.strftime("%Y-%m-%dT%H:%M:%S")
