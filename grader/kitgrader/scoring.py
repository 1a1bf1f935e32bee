"""Points: test outcomes -> per test, per step and per lab, using the manifest's points.

A test earns its points only when it passed. A skipped test (no GPU here) is 'not_run':
0 points and the lab is marked incomplete, never counted as passed. A lab that does not
build scores 0, with the compiler's first errors.
"""
import re

REVIEW_PATTERNS = [
    (r"\b(exit|_exit|_Exit|quick_exit|abort)\s*\(", "ends the process"),
    (r"\bgtest\b|\bGTEST_|testing::|\bTEST\s*\(", "touches GoogleTest"),
    (r"/proc/|getenv\s*\(|environ\b", "inspects the process or environment"),
    (r"\b(system|popen|fork|vfork|execv|execl|execvp|kill|signal)\s*\(", "starts or signals processes"),
    (r"\b(fopen|freopen|ofstream|ifstream|fstream|open|remove|rename|unlink)\s*\(", "opens or changes files"),
    (r"tests/hidden|\.\./", "names tests/hidden or a parent folder"),
    (r"#\s*include\s*[<\"](/|\.\.)", "includes a file outside the lab"),
    (r"\basm\b|__asm__", "inline assembly"),
]


def review_flags(files):
    """Lines of student files worth an instructor's look: {file: [flag, ...]}. Not a verdict."""
    flags = {}
    for name, path in sorted(files.items()):
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        for lineno, line in enumerate(text.splitlines(), 1):
            for pattern, what in REVIEW_PATTERNS:
                if re.search(pattern, line):
                    flags.setdefault(name, []).append(f"line {lineno}: {what}: {line.strip()[:120]}")
    return flags


def first_errors(log_text, max_lines=30):
    """The compiler's first errors from a build log, with a little context."""
    lines = log_text.splitlines()
    pat = re.compile(r"error|undefined reference|multiple definition|No rule to make target|Killed", re.I)
    idx = next((i for i, l in enumerate(lines) if pat.search(l) and not l.startswith("make")), None)
    if idx is None:
        idx = next((i for i, l in enumerate(lines) if pat.search(l)), max(0, len(lines) - max_lines))
    picked = [l for l in lines[max(0, idx - 3):] if not re.match(r"^make(\[\d+\])?: (Entering|Leaving)", l)]
    out = picked[:max_lines]
    if len(picked) > max_lines:
        out.append(f"... ({len(picked) - max_lines} more lines in the build log)")
    return "\n".join(out)


def _test_backend(step_backend, gpu):
    """Where one test runs: a GPU test on CUDA; the other tests of a CUDA step (choosing a
    launch shape) on the CPU; those of a mixed step ("opencl+cuda") on its other backend."""
    if gpu:
        return "cuda"
    others = [b for b in step_backend.split("+") if b != "cuda"]
    return others[0] if others else "cpu"


def _suite(name):
    """A test's suite, a typed test's type left out: Step2_CsrCuda/float.Rdb450 -> Step2_CsrCuda."""
    return name.split(".")[0].split("/")[0]


def _first_clause(reason):
    """'kit built without CUDA (nvcc not found at build time)' of a skip reason, without the advice after ';'."""
    return (reason or "no reason given").split(";", 1)[0].strip()


def _apply_gates(lab, tests):
    """A failed gate (a CUDA step's GPU floor) takes the points of every other test of its
    suite, over every type of a typed suite: a CPU loop behind a CUDA launcher computes the
    right y, but earns nothing."""
    for gate in (t for t in lab.tests if t.gates):
        entry = next(e for e in tests if e["name"] == gate.name)
        if entry["status"] != "failed":
            continue
        suite = _suite(gate.name)
        for e in tests:
            if _suite(e["name"]) == suite and e is not entry and e["status"] == "passed":
                e.update(status="failed", score=0,
                         message=f"no points: the step's GPU gate {gate.name} failed: {entry['message']}")


def score_lab(lab, outcomes=None, build_error=None, kit_error=None, rejected=None, absent=()):
    """The lab's result as a plain dict (the per-lab JSON the merge step reads).

    rejected: why the student's objects were not run (kitgrader.symbols). absent: backends the
    grader knows cannot run here; a skipped test of any other backend fails, since a skip it
    did not expect may come from the code under test.
    """
    tests = []
    for t in lab.tests:
        backend = _test_backend(lab.steps[t.step].backend, t.gpu)
        entry = {"name": t.name, "step": t.step, "tier": t.tier, "max_score": t.points, "score": 0,
                 "gpu": t.gpu, "hidden": t.hidden}
        if kit_error:
            entry.update(status="error", message=f"grader problem, not yours: {kit_error}")
        elif build_error is not None:
            entry.update(status="failed", message="not run: the lab did not build (see the compiler errors)")
        elif rejected is not None:
            entry.update(status="failed", message="not run: the grader refused to run your code, which reaches "
                         "outside the lab's interface:\n" + rejected)
        else:
            o = outcomes.get(t.name)
            if o is None:
                entry.update(status="failed", message="did not run")
            elif o.status == "passed":
                entry.update(status="passed", score=t.points, message=o.message)
            elif o.status == "no_time" and backend in absent:
                entry.update(status="not_run", message=f"not run here (its backend, {backend}, is absent): "
                             f"{o.message}")
            elif o.status == "skipped" and backend not in absent:
                entry.update(status="failed", message=f"skipped, although its backend ({backend}) runs here: "
                             f"{o.message}")
            elif o.status == "skipped":
                # The kit's skip reason advises a user ("install the CUDA Toolkit and rebuild"): a
                # student graded here can do nothing about it, so only the fact is kept.
                where = "graded on a GPU node" if t.gpu else "graded where its backend runs"
                entry.update(status="not_run", message=f"not run here: this grading machine cannot run {backend} "
                             f"({_first_clause(o.message)}); {where}")
            else:
                entry.update(status="failed", message=o.message or "failed")
        tests.append(entry)
    _apply_gates(lab, tests)
    steps = {}
    for n, s in sorted(lab.steps.items()):
        mine = [e for e in tests if e["step"] == n]
        steps[str(n)] = {"title": s.title, "backend": s.backend,
                         "score": sum(e["score"] for e in mine), "max_score": sum(e["max_score"] for e in mine),
                         "not_run": sum(e["status"] == "not_run" for e in mine)}
    not_run = sum(e["status"] == "not_run" for e in tests)
    return {
        "lab": lab.name, "title": lab.title,
        "score": sum(e["score"] for e in tests), "max_score": lab.max_points,
        "build": ("kit-error" if kit_error else "failed" if build_error is not None
                  else "rejected" if rejected is not None else "ok"),
        "build_errors": build_error or kit_error or rejected or "",
        "incomplete": not_run > 0 or bool(kit_error), "not_run": not_run,
        "steps": steps, "tests": tests,
    }
