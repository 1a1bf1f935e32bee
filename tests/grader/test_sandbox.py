#!/usr/bin/env python3
"""The sandbox against processes that try to outlive their test program.

A program starts a chain of 30 processes, each in a new session (setsid) and each starting
the next before it exits, so that at no moment is the whole chain a direct child of the
grader; the last one waits, then writes a marker (standing for killing the next student's
tests). After sandbox.run returns, nothing of the chain may be left and the marker must
never appear. Run as root, the same is checked with --run-as nobody (killing by user).

  test_sandbox.py        exit status 0 when every check holds (a few seconds)
"""
import os
import pwd
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(KIT / "grader"))
from kitgrader import sandbox  # noqa: E402

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


def main():
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
    print(f"test_sandbox: {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
