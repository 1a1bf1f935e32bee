"""Running one GoogleTest binary and reading what really happened.

The verdict comes from the JSON file GoogleTest writes at a path the grader picks, never from
stdout, and only when the run is consistent: the program ended by itself, wrote the file
after it started, did not leave GoogleTest's premature-exit marker behind, and its exit
status agrees with the failures in the file. Otherwise every test of the binary counts as
failed, with the reason; then (unless disabled) each test is re-run in a process of its own
so that one crashing test does not take the others with it. A re-run test also needs its
own consistent JSON file to count.
"""
import hashlib
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path

from . import sandbox

MAX_MESSAGE = 1500
RERUN_CAP = 4  # re-runs of one test program: at most this many timeouts in all
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
                 visible=()):
        self.results_dir, self.logs_dir, self.cwd = Path(results_dir), Path(logs_dir), cwd
        self.env, self.limits, self.retry, self.memory_guard = env, limits, retry, memory_guard
        self.scratch, self.visible = scratch, tuple(visible)  # a fresh HOME/TMPDIR per program run
        self.cpu_s = 0.0
        self.digest = None
        self.shared_tmp = False  # some run had the machine's /tmp and /dev/shm (no namespace here)

    def _attempt(self, binary, tag, gtest_filter=None, timeout=None):
        """One run. Returns ({name: TestOutcome}, None) or (None, why it cannot be trusted)."""
        if self.digest and sha256(binary) != self.digest:
            return None, "was modified after it was built (by code run in an earlier test?)"
        json_path = self.results_dir / f"{tag}.json"
        marker = self.results_dir / f"{tag}.premature"
        for p in (json_path, marker):
            if p.exists():
                p.unlink()
        cmd = [str(binary), f"--gtest_output=json:{json_path}", "--gtest_color=no"]
        if gtest_filter:
            cmd.append(f"--gtest_filter={gtest_filter}")
        limits = self.limits if timeout is None else sandbox.Limits(**{**self.limits.__dict__, "timeout_s": timeout})
        env = dict(self.env, TEST_PREMATURE_EXIT_FILE=str(marker))
        log = self.logs_dir / f"{tag}.log"
        started = time.time()
        out = sandbox.run(cmd, self.cwd, env, limits, log, self.memory_guard, scratch=self.scratch,
                          visible=(self.results_dir, Path(binary).parent, *self.visible))
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

    def run_binary(self, binary, tests, digest=None):
        """Outcomes of the given TestSpecs, all held by one binary: {name: TestOutcome}.
        digest: the binary's sha256 when it was built; a binary that changed is not run."""
        self.digest = digest
        name = Path(binary).name
        if not Path(binary).exists():
            return {t.name: TestOutcome("failed", f"{name} was not built") for t in tests}
        results, why = self._attempt(binary, name)
        if results is not None:
            return {t.name: results.get(t.name, TestOutcome("failed", f"did not run: {name} does not report it"))
                    for t in tests}
        if not self.retry:
            return {t.name: TestOutcome("failed", f"{name} {why}; every test of it fails") for t in tests}
        return self._rerun_one_by_one(binary, name, why, tests)

    def _rerun_one_by_one(self, binary, name, why, tests):
        """Each test again, alone, with its own timeout: one hanging test must not use up the
        time of the next. All re-runs of one program share a cap of RERUN_CAP timeouts."""
        outcomes, budget_end = {}, time.monotonic() + RERUN_CAP * self.limits.timeout_s
        for i, t in enumerate(tests):
            left = budget_end - time.monotonic()
            if left < 1:
                outcomes[t.name] = TestOutcome("no_time", f"{name} {why}; no time left to re-run this test on its own")
                continue
            res, own_why = self._attempt(binary, f"{name}.{i}", gtest_filter=t.name,
                                         timeout=min(self.limits.timeout_s, left))
            r = res.get(t.name) if res else None
            if r is None:
                detail = own_why or "does not report it"
                outcomes[t.name] = TestOutcome("failed", f"{name} {why}; run on its own, this test {detail}")
            else:
                r.message = _clean(f"(re-run on its own after {name} {why})\n{r.message}".rstrip())
                outcomes[t.name] = r
        return outcomes


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
