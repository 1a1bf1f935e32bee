#!/usr/bin/env python3
"""The sandbox against processes that try to outlive their test program, and against files
left behind.

A program starts a chain of 30 processes, each in a new session (setsid) and each starting
the next before it exits, so that at no moment is the whole chain a direct child of the
grader; the last one waits, then writes a marker (standing for killing the next student's
tests). After sandbox.run returns, nothing of the chain may be left and the marker must
never appear. Run as root, the same is checked with --run-as nobody (killing by user).

Private /tmp and /dev/shm: student A writes 100 MB into each of /tmp and /dev/shm and 20 MB
into its $TMPDIR, then waits; student B, graded at the same time by another grader process,
looks for A's files. B must see none, A must have written all of it (inside its sandbox),
and once both are done nothing of it is left: not in /tmp, not in /dev/shm, not in the
scratch folders. As root the same is checked with --run-as nobody (one student after the
other: one --run-as user serves one student at a time). Where the machine allows no mount
namespace these checks are reported as SKIP, never as passed.

Killed gradings: a grading process killed with SIGKILL leaves its kitgrade-* folder; the
next grading's sweep removes it, and leaves alone a live grading's folder and folders that
are not a grading's.

  test_sandbox.py        exit status 0 when every check holds (under a minute)
"""
import json
import os
import pwd
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(KIT / "grader"))
from kitgrader import grading, sandbox  # noqa: E402

CHAIN = r"""
link() {  # $1: links left
  if [ "$1" -gt 0 ]; then setsid bash -c "$(declare -f link); link $(($1 - 1))" & exit 0; fi
  sleep 1.5; echo escaped > "$MARKER"
}
link 30
"""


def chain_survivors(run_as, work):
    marker = work / f"marker-{run_as}"
    os.chmod(work, 0o777)
    env = sandbox.clean_env(work, {"MARKER": str(marker)})
    limits = sandbox.Limits(timeout_s=20, memory_mb=512, run_as=run_as)
    script = work / "chain.sh"
    script.write_text(CHAIN)
    out = sandbox.run(["bash", str(script)], work, env, limits, work / "chain.log")
    time.sleep(2.5)
    left = [pid for pid, (_, _, state) in sandbox._processes().items()
            if state != "Z" and _environ_has(pid, str(marker))]
    return out, marker.exists(), left


def _environ_has(pid, text):
    try:
        return text.encode() in Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return False


STUDENT_A = r"""
set -e
for top in /tmp /dev/shm; do
  for i in 1 2; do dd if=/dev/zero of="$top/$TAG-$i" bs=1M count=50 status=none; done
done
dd if=/dev/zero of="$TMPDIR/$TAG-scratch" bs=1M count=20 status=none
du -sm /tmp/$TAG-* /dev/shm/$TAG-* "$TMPDIR/$TAG-scratch" | awk '{s += $1} END {print s}' > wrote
touch ready
sleep "$HOLD"
"""

STUDENT_B = r"""
{ ls -a /tmp /dev/shm; ls "$A_SCRATCH" 2>&1; } > saw
"""


def student(role, folder, run_as):
    """One student's program, graded by this process (a grader of its own)."""
    folder = Path(folder)
    script = folder / "prog.sh"
    script.write_text(STUDENT_A if role == "A" else STUDENT_B)
    env = sandbox.clean_env(folder, {"TAG": os.environ["TAG"], "HOLD": os.environ.get("HOLD", "0"),
                                     "A_SCRATCH": os.environ.get("A_SCRATCH", "")})
    limits = sandbox.Limits(timeout_s=60, memory_mb=512, run_as=run_as)
    out = sandbox.run(["sh", str(script)], folder, env, limits, folder / "log", scratch=folder / "scratch")
    (folder / "outcome.json").write_text(json.dumps(out.__dict__))


def private_tmp(run_as, work):
    """Problems (empty: none) with two students' /tmp and /dev/shm; None when not available here."""
    if not sandbox.private_tmp_available(sandbox.Limits(run_as=run_as)):
        return None
    tag = f"kitgrade-sandbox-test-{os.getpid()}"
    folders = {r: work / r for r in "AB"}
    for f in folders.values():
        f.mkdir()
        os.chmod(f, 0o777)
    env = dict(os.environ, TAG=tag, A_SCRATCH=str(folders["A"] / "scratch"))
    spec = json.dumps(run_as)
    cmd = [sys.executable, __file__, "--student"]
    problems = []
    if run_as is None:  # two graders at once
        a = subprocess.Popen(cmd + ["A", str(folders["A"]), spec], env=dict(env, HOLD="5"))
        end = time.monotonic() + 40
        while not (folders["A"] / "ready").exists() and a.poll() is None and time.monotonic() < end:
            time.sleep(0.1)
        if not (folders["A"] / "ready").exists():
            problems.append("student A never got ready: " + (folders["A"] / "log").read_text(errors="replace"))
        subprocess.run(cmd + ["B", str(folders["B"]), spec], env=env)
        a.wait()
    else:  # one --run-as user: one student after the other
        subprocess.run(cmd + ["A", str(folders["A"]), spec], env=env)
        subprocess.run(cmd + ["B", str(folders["B"]), spec], env=env)
    try:
        wrote = int((folders["A"] / "wrote").read_text())
    except (OSError, ValueError):
        wrote = 0
    if wrote < 220:
        problems.append(f"student A wrote {wrote} MB, not 220 MB: " + (folders["A"] / "log").read_text(errors="replace"))
    saw = (folders["B"] / "saw").read_text(errors="replace") if (folders["B"] / "saw").exists() else None
    if saw is None or tag in saw:
        problems.append(f"student B saw student A's files: {saw!r}")
    for r, f in folders.items():
        if not json.loads((f / "outcome.json").read_text())["private_tmp"]:
            problems.append(f"student {r} ran without a private /tmp")
        if (f / "scratch").exists():
            problems.append(f"student {r}'s scratch folder is still there")
    for top in sandbox.SHARED_TMP:
        left = [e.name for e in os.scandir(top) if e.name.startswith(tag)] if os.path.isdir(top) else []
        if left:
            problems.append(f"left in {top}: {left}")
    return problems


LIVE = """
import sys, time
sys.path.insert(0, sys.argv[1])
from kitgrader import grading
work, lock = grading.make_work_dir(sys.argv[2])
print(work, flush=True)
time.sleep(60)
"""


def stale_work(work):
    """Problems with the sweep of folders left by killed gradings."""
    root = work / "root"
    root.mkdir()
    procs = [subprocess.Popen([sys.executable, "-c", LIVE, str(KIT / "grader"), str(root)], stdout=subprocess.PIPE,
                              text=True) for _ in range(2)]
    killed, live = [Path(p.stdout.readline().strip()) for p in procs]
    (killed / "logs").mkdir()
    (killed / "logs" / "build.log").write_text("a killed grading's files\n")
    procs[0].send_signal(signal.SIGKILL)
    procs[0].wait()
    other = root / "kitgrade-suite-not-a-grading"
    other.mkdir()
    removed = grading.sweep_stale_work(root)
    problems = []
    if killed.exists() or removed != [str(killed)]:
        problems.append(f"the killed grading's folder was not swept (removed: {removed})")
    if not live.exists():
        problems.append("a live grading's folder was swept")
    if not other.exists():
        problems.append("a folder that is no grading's was swept")
    procs[1].kill()
    procs[1].wait()
    return problems


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--student":
        spec = json.loads(sys.argv[4])
        student(sys.argv[2], sys.argv[3], tuple(spec) if spec else None)
        return 0
    failures = 0
    users = [None]
    if os.geteuid() == 0:
        try:
            pw = pwd.getpwnam("nobody")
            users.append((pw.pw_uid, pw.pw_gid))
        except KeyError:
            pass
    for run_as in users:
        with tempfile.TemporaryDirectory() as tmp:
            out, escaped, left = chain_survivors(run_as, Path(tmp))
        ok = not escaped and not left
        failures += not ok
        who = "as the grader's user" if run_as is None else "with --run-as nobody"
        print(f"{'PASS' if ok else 'FAIL'}  a setsid chain of 30 processes {who}: marker written: {escaped}, "
              f"left running: {left} (program ended in {out.wall_s:.1f} s)")
    for run_as in users:
        who = "two graders at once, as the grader's user" if run_as is None else "with --run-as nobody"
        with tempfile.TemporaryDirectory() as tmp:
            os.chmod(tmp, 0o755)
            problems = private_tmp(run_as, Path(tmp))
        if problems is None:
            print(f"SKIP  private /tmp and /dev/shm ({who}): no mount namespace on this machine")
            continue
        failures += bool(problems)
        print(f"{'PASS' if not problems else 'FAIL'}  100 MB in /tmp and in /dev/shm: unseen by the other student "
              f"and gone afterwards, scratch folders too ({who})")
        for p in problems:
            print(f"      {p}")
    with tempfile.TemporaryDirectory() as tmp:
        problems = stale_work(Path(tmp))
    failures += bool(problems)
    print(f"{'PASS' if not problems else 'FAIL'}  a killed grading's kitgrade-* folder is swept by the next one; "
          "a live one's is not")
    for p in problems:
        print(f"      {p}")
    print(f"test_sandbox: {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
