"""Running one GoogleTest binary and reading what really happened.

The verdicts come from a judge: the same tests linked with the starter, built by the
instructor, which never runs student code. First the student's build of the tests runs with
--kit-record=FILE: each call of a test into student code (kit::testing::observe, see
tests/support/observe.hpp) records what it returned or threw. Its own results file only
tells whether that run was whole; when it was not (a crash, a timeout, exit() called early),
each test is run again alone, each with its own record file. Then the judge runs with
--kit-replay=FILE,...: it re-runs every test, takes the student's values from the records
instead of calling the code, computes the expected values itself and decides. A test whose
calls were never recorded fails in the judge, with the reason the student's run gave.

The judge's verdict is read from the JSON file GoogleTest writes at a path in a folder of the
grader's, and only when the judge's run is consistent (it ended by itself, wrote the file
after it started, and its exit status agrees with the file).
"""
import hashlib
import json
import os
import re
import shutil
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from . import sandbox

MAX_MESSAGE = 1500
RERUN_CAP = 4  # re-runs of one test program: at most this many timeouts in all
MAX_RECORD_BYTES = 1 << 30  # what the judge reads of one record file (observe.cpp refuses more)
SKIP_LINE = re.compile(r"^  SKIPPED (\S+): (.*)$")


@dataclass
class TestOutcome:
    status: str    # passed | failed | skipped | no_time (not re-run: the program's time was used up)
    message: str
    time_s: float = 0.0


def _clean(text, limit=MAX_MESSAGE):
    text = "".join(c if c.isprintable() or c in "\n\t" else "?" for c in str(text))
    return text if len(text) <= limit else text[:limit] + f"\n... ({len(text) - limit} more characters cut)"


def _seconds(value):
    try:
        return float(str(value).rstrip("s"))
    except ValueError:
        return 0.0


def parse_report(path):
    """{Suite.Name: TestOutcome} from a GoogleTest JSON file. Raises ValueError if malformed."""
    data = json.loads(Path(path).read_text(encoding="utf-8", errors="replace"))
    if not isinstance(data, dict) or not isinstance(data.get("testsuites"), list):
        raise ValueError("no 'testsuites' list")
    out, failed = {}, 0
    for suite in data["testsuites"]:
        for case in suite.get("testsuite", []):
            name = f"{suite['name']}.{case['name']}"
            failures = case.get("failures") or []
            t = _seconds(case.get("time", "0"))
            if case.get("status") == "NOTRUN":
                out[name] = TestOutcome("failed", "the test is disabled", t)
            elif failures:
                failed += 1
                out[name] = TestOutcome("failed", _clean("\n".join(str(f.get("failure", "")) for f in failures)), t)
            elif case.get("result") == "SKIPPED":
                skipped = case.get("skipped") or []
                msg = "\n".join(str(s.get("message", "")) for s in skipped if isinstance(s, dict))
                out[name] = TestOutcome("skipped", _clean(msg), t)
            elif case.get("result") == "COMPLETED" and case.get("status") == "RUN":
                out[name] = TestOutcome("passed", "", t)
            else:
                failed += 1
                out[name] = TestOutcome("failed", f"unexpected result {case.get('result')!r}", t)
    if int(data.get("tests", -1)) != len(out) or int(data.get("failures", -1)) != failed:
        raise ValueError("test counts do not add up")
    return out


def _skip_reasons(log_path):
    """Skip reasons as the kit's test main prints them (used only as message text)."""
    reasons = {}
    try:
        for line in Path(log_path).read_text(errors="replace").splitlines():
            m = SKIP_LINE.match(line)
            if m:
                reasons[m.group(1)] = m.group(2)
    except OSError:
        pass
    return reasons


class Runner:
    """Runs test binaries of one grading tree with the given limits."""

    def __init__(self, results_dir, logs_dir, cwd, env, limits, retry=True, memory_guard=True, scratch=None,
                 visible=(), judge_dir=None):
        self.results_dir, self.logs_dir, self.cwd = Path(results_dir), Path(logs_dir), cwd
        self.judge_dir = Path(judge_dir) if judge_dir else None  # the grader's own: records copied, judge output
        self.env, self.limits, self.retry, self.memory_guard = env, limits, retry, memory_guard
        self.scratch, self.visible = scratch, tuple(visible)  # a fresh HOME/TMPDIR per program run
        self.cpu_s = 0.0
        self.shared_tmp = False  # some run had the machine's /tmp and /dev/shm (no namespace here)

    def _attempt(self, binary, digest, tag, gtest_filter=None, timeout=None, record=None, replay=None, launch=()):
        """One run. Returns ({name: TestOutcome}, None) or (None, why it cannot be trusted).
        digest: the binary's sha256 when it was built (None: not checked). record: the student's
        program records its calls in this file. replay: the record files the judge replays; it
        writes its results in judge_dir, the grader's own folder."""
        if digest and sha256(binary) != digest:
            return None, "was modified after it was built (by code run in an earlier test?)"
        judge = replay is not None
        where = self.judge_dir if judge else self.results_dir
        json_path = where / f"{tag}.json"
        marker = where / f"{tag}.premature"
        for p in (json_path, marker):
            if p.exists() or p.is_symlink():
                p.unlink()
        cmd = [*launch, str(binary), f"--gtest_output=json:{json_path}", "--gtest_color=no"]
        if gtest_filter:
            cmd.append(f"--gtest_filter={gtest_filter}")
        if record:
            cmd.append(f"--kit-record={record}")
        if judge:
            cmd.append("--kit-replay=" + ",".join(map(str, replay)))
        over = {} if timeout is None else {"timeout_s": timeout}
        if judge:  # trusted code reading hostile records: limits, but no other user and no masks
            over.update(run_as=None, hidden_paths=())
        limits = sandbox.Limits(**{**self.limits.__dict__, **over}) if over else self.limits
        env = dict(self.env, TEST_PREMATURE_EXIT_FILE=str(marker))
        log = self.logs_dir / f"{tag}.log"
        started = time.time()
        cwd, scratch = (where, where / "home") if judge else (self.cwd, self.scratch)
        out = sandbox.run(cmd, cwd, env, limits, log, self.memory_guard, scratch=scratch,
                          visible=(where, Path(binary).parent, *self.visible))
        self.cpu_s += out.cpu_s
        self.shared_tmp |= limits.private_tmp and not out.private_tmp
        why = out.describe(limits)
        if why:
            return None, why
        if marker.exists():
            return None, f"stopped before its tests finished (exit status {out.returncode}: exit() called early?)"
        if not json_path.exists() or json_path.stat().st_mtime < started - 1:
            return None, f"exited with status {out.returncode} without writing its results"
        try:
            results = parse_report(json_path)
        except (ValueError, KeyError, TypeError) as e:
            return None, f"wrote a damaged results file ({e})"
        any_failed = any(r.status == "failed" for r in results.values())
        if out.returncode not in (0, 1) or (out.returncode == 1) != any_failed:
            return None, f"exit status {out.returncode} disagrees with its results file"
        reasons = _skip_reasons(log)
        for name, r in results.items():
            if r.status == "skipped" and not r.message:
                r.message = reasons.get(name, "skipped without a reason")
        return results, None

    def run_binary(self, binary, tests, digest=None, judge=None, judge_digest=None, ranks=()):
        """Outcomes of the given TestSpecs, all held by one binary: {name: TestOutcome}.
        digest: the binary's sha256 when it was built; a binary that changed is not run.
        judge, judge_digest: the instructor's build of the same tests, which decides.
        ranks: the rank counts at which the program runs under mpirun (the lab's "mpi_ranks"):
        each count is recorded (by rank 0, see tests/support/gtest_main.cpp) and judged on its
        own, and a test passes only if it passes at every count."""
        name = Path(binary).name
        if not Path(binary).exists():
            return {t.name: TestOutcome("failed", f"{name} was not built") for t in tests}
        if judge is None or self.judge_dir is None:
            return {t.name: TestOutcome("failed", f"the grader has no judge for {name}: rebuild the cache "
                                        "(grade.py prebuild)") for t in tests}
        if not ranks:
            return self._run_judged(binary, tests, digest, judge, judge_digest, name, ())
        per_count = {n: self._run_judged(binary, tests, digest, judge, judge_digest, f"{name}.np{n}", mpirun(n, self.limits))
                     for n in ranks}
        return {t.name: combine_counts({n: out[t.name] for n, out in per_count.items()}) for t in tests}

    def _run_judged(self, binary, tests, digest, judge, judge_digest, name, launch):
        """The student's program recorded (started by launch, if any), then the judge's verdicts."""
        records, problems = self._record(binary, digest, name, tests, launch)
        verdicts, why = self._attempt(judge, judge_digest, f"{name}.judge", replay=self._copy_records(records))
        if verdicts is None:
            return {t.name: TestOutcome("failed", f"the judge could not replay {name}'s records: {why}")
                    for t in tests}
        out = {}
        for t in tests:
            r = verdicts.get(t.name) or TestOutcome("failed", f"did not run: {name} does not report it")
            status, problem = problems.get(t.name, (None, None))
            if problem and r.status != "passed":
                r = TestOutcome(status if status == "no_time" else r.status, _clean(f"{problem}\n{r.message}".rstrip()),
                                r.time_s)
            out[t.name] = r
        return out

    def _record(self, binary, digest, name, tests, launch=()):
        """Runs the student's program, recording its calls. Returns (record files, {test:
        (status, why its run was not whole)}); a run that was not whole is re-run test by test."""
        first = self.results_dir / f"{name}.rec"
        _, why = self._attempt(binary, digest, name, record=first, launch=launch)
        if why is None:
            return [first], {}
        if not self.retry:
            return [first], {t.name: ("failed", f"{name} {why}") for t in tests}
        return self._rerun_one_by_one(binary, digest, name, why, tests, first, launch)

    def _rerun_one_by_one(self, binary, digest, name, why, tests, first, launch=()):
        """Each test again, alone, with its own timeout and record file: one hanging test must
        not use up the time of the next. All re-runs of one program share a cap of RERUN_CAP
        timeouts."""
        records, problems = [first], {}
        budget_end = time.monotonic() + RERUN_CAP * self.limits.timeout_s
        for i, t in enumerate(tests):
            left = budget_end - time.monotonic()
            if left < 1:
                problems[t.name] = ("no_time", f"{name} {why}; no time left to re-run this test on its own")
                continue
            rec = self.results_dir / f"{name}.{i}.rec"
            _, own_why = self._attempt(binary, digest, f"{name}.{i}", gtest_filter=t.name,
                                       timeout=min(self.limits.timeout_s, left), record=rec, launch=launch)
            records.append(rec)
            problems[t.name] = ("failed", f"{name} {why}; run on its own, this test {own_why}" if own_why
                                else f"(re-run on its own after {name} {why})")
        return records, problems

    def _copy_records(self, records):
        """The record files, copied into the grader's folder without following links and cut
        at the judge's limit: the student's program wrote them, so they are hostile input."""
        copies = []
        for i, src in enumerate(records):
            dst = self.judge_dir / f"{i}.rec"
            try:
                fd = os.open(src, os.O_RDONLY | os.O_NOFOLLOW)
            except OSError:
                continue  # nothing recorded: every call of those tests fails in the judge
            with os.fdopen(fd, "rb") as f, open(dst, "wb") as out:
                left = MAX_RECORD_BYTES if stat.S_ISREG(os.fstat(f.fileno()).st_mode) else 0
                while left > 0 and (chunk := f.read(min(left, 1 << 20))):
                    out.write(chunk)
                    left -= len(chunk)
            copies.append(dst)
        return copies


def mpirun(ranks, limits):
    """The mpirun command that starts a test program at `ranks` ranks in the sandbox: ranks may
    share cores (--oversubscribe); as root (no --run-as) Open MPI asks to be told it is wanted."""
    root = ["--allow-run-as-root"] if os.geteuid() == 0 and not limits.run_as else []
    return ("mpirun", "-np", str(ranks), "--oversubscribe", *root, *local_launch_args())


def local_launch_args():
    """Open MPI 4 looks for ssh or rsh even when every rank runs on this host, and stops (exit 243)
    where neither is installed and the site set no launcher: it is then given `false`, which a
    single-host run never calls. scripts/testing/mpi_launch.sh makes the same choice for make test."""
    configured = any(k in os.environ for k in ("OMPI_MCA_plm", "OMPI_MCA_plm_rsh_agent"))
    if configured or shutil.which("ssh") or shutil.which("rsh"):
        return ()
    return ("--mca", "plm_rsh_agent", shutil.which("false") or "/bin/false")


def combine_counts(outcomes):
    """One test's outcome over its runs at several rank counts ({ranks: TestOutcome}): failed at
    any count fails (naming the counts), else passed at any passes, else skipped."""
    failed = {n: o for n, o in outcomes.items() if o.status in ("failed", "no_time")}
    if failed:
        n, first = next(iter(failed.items()))
        counts = ", ".join(map(str, failed))
        return TestOutcome(first.status, _clean(f"at {counts} rank(s); at {n}: {first.message}"),
                           sum(o.time_s for o in outcomes.values()))
    passed = [o for o in outcomes.values() if o.status == "passed"]
    if passed:
        return TestOutcome("passed", "", sum(o.time_s for o in outcomes.values()))
    return next(iter(outcomes.values()))


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
