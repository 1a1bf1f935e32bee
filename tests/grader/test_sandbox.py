#!/usr/bin/env python3
"""The sandbox against processes that try to outlive their test program, and against files
left behind.

A program starts a chain of 30 processes, each in a new session (setsid) and each starting
the next before it exits, so that at no moment is the whole chain a direct child of the
grader; the last one waits, then writes a marker (standing for killing the next student's
tests). After sandbox.run returns, nothing of the chain may be left and the marker must
never appear. Run as root, the same is checked with --run-as nobody (killing by user).

Private /tmp, /var/tmp and /dev/shm: student A writes 100 MB into each of /tmp, /var/tmp and
/dev/shm and 20 MB into its $TMPDIR, then waits; student B, graded at the same time by another
grader process, looks for A's files, and for a file an earlier student left in the machine's
/var/tmp. B must see none, A must have written all of it (inside its sandbox), and once both
are done nothing of it is left: not in /tmp, /var/tmp or /dev/shm, not in the scratch folders.
As root the same is checked with --run-as nobody (one student after the other: one --run-as
user serves one student at a time). Where the machine allows no mount namespace these checks
are reported as SKIP, never as passed.

Hidden paths: a kit's reference/ (world-readable, with a visible folder inside it), another
grading's kitgrade-* folder and the real kit's reference/ are listed in Limits.hidden_paths.
The program, started from its own kitgrade-* folder, must not read them by absolute path, by
'..' from its folder, through /proc/self/cwd, through /proc/<grader>/cwd (the grader's working
folder is the reference, as with `make grade`; not checked as root without --run-as: root may
follow that link), nor by a preprocessor #include; it may read its own files and the visible
folder inside the hidden one, sees nothing else there and cannot write there. The same program
without hidden_paths reads them (so the mask, not the permissions, is what stopped it). As the
grader's user and, as root, with --run-as nobody.

Network: a program connects to a port the test listens on at 127.0.0.1, and lists its network
interfaces: the connect must fail and the only interface be lo (which is down).

Limits: 300 MB put into /dev/shm count against a 200 MB memory limit (the program is killed),
and 200 MB written into the scratch folder go past a 100 MB disk limit (killed too).

MPI without ssh: with ssh and rsh off the PATH and no launcher named by the site (as on a GPU
node whose image has no ssh), gtest.mpirun starts 2 ranks in the sandbox; plain mpirun, without
the launch arguments the grader adds there, fails on the same PATH (so the check can fail).

Killed gradings: a grading process killed with SIGKILL leaves its kitgrade-* folder; the
next grading's sweep removes it, and leaves alone a live grading's folder and folders that
are not a grading's.

  test_sandbox.py        exit status 0 when every check holds (under a minute)
"""
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(KIT / "grader"))
from kitgrader import grading, gtest, processes, sandbox  # noqa: E402

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
    left = [pid for pid, (_, _, state) in processes.processes().items()
            if state != "Z" and _environ_has(pid, str(marker))]
    return out, marker.exists(), left


def _environ_has(pid, text):
    try:
        return text.encode() in Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return False


STUDENT_A = r"""
set -e
for top in /tmp /var/tmp /dev/shm; do
  for i in 1 2; do dd if=/dev/zero of="$top/$TAG-$i" bs=1M count=50 status=none; done
done
dd if=/dev/zero of="$TMPDIR/$TAG-scratch" bs=1M count=20 status=none
du -sm /tmp/$TAG-* /var/tmp/$TAG-* /dev/shm/$TAG-* "$TMPDIR/$TAG-scratch" | awk '{s += $1} END {print s}' > wrote
touch ready
sleep "$HOLD"
"""

STUDENT_B = r"""
{ ls -a /tmp /var/tmp /dev/shm; ls "$A_SCRATCH" 2>&1; } > saw
"""


def student(role, folder, run_as):
    """One student's program, graded by this process (a grader of its own)."""
    folder = Path(folder)
    script = folder / "prog.sh"
    script.write_text({"A": STUDENT_A, "B": STUDENT_B}.get(role, SLEEPER))
    env = sandbox.clean_env(folder, {"TAG": os.environ["TAG"], "HOLD": os.environ.get("HOLD", "0"),
                                     "A_SCRATCH": os.environ.get("A_SCRATCH", "")})
    limits = sandbox.Limits(timeout_s=60, memory_mb=512, run_as=run_as)
    out = sandbox.run(["sh", str(script)], folder, env, limits, folder / "log", scratch=folder / "scratch")
    (folder / "outcome.json").write_text(json.dumps(out.__dict__))


SLEEPER = "sleep 3; echo survived > \"$HOME/../survived\"\n"


def same_user_at_once(run_as, work):
    """Problems with two graders (two processes) that run programs as the same user at once:
    each program kills every process of its user when it starts and ends, so without taking
    turns the second grader's program would kill the first's."""
    folders = [work / "first", work / "second"]
    for f in folders:
        f.mkdir()
        os.chmod(f, 0o777)
    cmd = [sys.executable, __file__, "--student", "S"]
    first = subprocess.Popen(cmd + [str(folders[0]), json.dumps(run_as)], env=dict(os.environ, TAG="x"))
    time.sleep(1)
    subprocess.run(cmd + [str(folders[1]), json.dumps(run_as)], env=dict(os.environ, TAG="x"))
    first.wait()
    return [f"the {f.name} grader's program was killed: {(f / 'log').read_text(errors='replace')}"
            for f in folders if not (f / "survived").exists()]


def private_tmp(run_as, work):
    """Problems (empty: none) with two students' /tmp, /var/tmp and /dev/shm; None when not
    available here."""
    if not sandbox.private_tmp_available(sandbox.Limits(run_as=run_as)):
        return None
    tag = f"kitgrade-sandbox-test-{os.getpid()}"
    # What an earlier student left in the machine's /var/tmp (before it was private).
    planted = Path("/var/tmp") / f"kitgrade-sandbox-planted-{os.getpid()}"
    planted.write_text("left by an earlier student\n")
    os.chmod(planted, 0o644)
    try:
        return _private_tmp(run_as, work, tag, planted)
    finally:
        planted.unlink(missing_ok=True)


def _private_tmp(run_as, work, tag, planted):
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
    if wrote < 320:
        problems.append(f"student A wrote {wrote} MB, not 320 MB: " + (folders["A"] / "log").read_text(errors="replace"))
    saw = (folders["B"] / "saw").read_text(errors="replace") if (folders["B"] / "saw").exists() else None
    if saw is None or tag in saw:
        problems.append(f"student B saw student A's files: {saw!r}")
    if saw is None or planted.name in saw or "/var/tmp:" not in saw:
        problems.append(f"student B did not have an empty /var/tmp of its own: {saw!r}")
    for r, f in folders.items():
        if not json.loads((f / "outcome.json").read_text())["private_tmp"]:
            problems.append(f"student {r} ran without a private /tmp")
        if (f / "scratch").exists():
            problems.append(f"student {r}'s scratch folder is still there")
    for top in sandbox.SHARED_TMP:
        left = [e.name for e in os.scandir(top) if e.name.startswith(tag)] if os.path.isdir(top) else []
        if left:
            problems.append(f"left in {top}: {left}")
            for name in left:  # a failed run leaves no 100 MB files behind
                sandbox.remove_tree(os.path.join(top, name))
    return problems


HIDDEN_PROBE = r"""
try() { if cat "$2" >/dev/null 2>&1; then echo "$1 read"; else echo "$1 denied"; fi; }
try absolute "$T/kit/reference/solution.cpp"
try sibling "$T/work/kitgrade-other/02-csr/answer.cpp"
try dotdot ../../kitgrade-other/02-csr/answer.cpp
try proc-self-cwd /proc/self/cwd/../../kitgrade-other/02-csr/answer.cpp
try proc-grader-cwd "/proc/$PPID/cwd/solution.cpp"
try visible-inside-hidden "$T/kit/reference/public/matrix.mtx"
try own-file ./mine.cpp
if [ -n "$KIT_REFERENCE_FILE" ]; then try kit-reference "$KIT_REFERENCE_FILE"; fi
if command -v cpp >/dev/null; then
  if echo "#include \"$T/kit/reference/solution.cpp\"" | cpp -P 2>/dev/null | grep -q SECRET; then
    echo "include read"; else echo "include denied"; fi
fi
if touch "$T/kit/reference/planted" 2>/dev/null; then echo "write read"; else echo "write denied"; fi
echo "listing $(ls -A "$T/kit/reference" | tr '\n' ' ')"
"""


def hidden_paths(run_as, work):
    """Problems (empty: none) with Limits.hidden_paths; None when no mount namespace here."""
    if not sandbox.private_tmp_available(sandbox.Limits(run_as=run_as)):
        return None
    files = {"kit/reference/solution.cpp": "int SECRET = 42;\n",
             "kit/reference/public/matrix.mtx": "%%MatrixMarket\n",
             "work/kitgrade-other/02-csr/answer.cpp": "// another student's SECRET\n",
             "work/kitgrade-mine/02-csr/mine.cpp": "// mine\n"}
    for rel, text in files.items():
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        (work / rel).write_text(text)
    for dirpath, dirnames, filenames in os.walk(work):  # all readable by anyone: only the mask stops it
        os.chmod(dirpath, 0o755)
        for f in filenames:
            os.chmod(os.path.join(dirpath, f), 0o644)
    cwd = work / "work" / "kitgrade-mine" / "02-csr"
    os.chmod(cwd, 0o777)
    (work / "probe.sh").write_text(HIDDEN_PROBE)
    kit_ref = sorted(p for p in (KIT / "reference").rglob("*") if p.is_file())[:1]
    hidden = (str(work / "kit" / "reference"), str(work / "work" / "kitgrade-*"),
              *([str(KIT / "reference")] if kit_ref else []))
    env = sandbox.clean_env(cwd, {"T": str(work), "KIT_REFERENCE_FILE": str(kit_ref[0]) if kit_ref else ""})
    seen = {}
    for masked in (True, False):
        limits = sandbox.Limits(timeout_s=30, memory_mb=512, run_as=run_as, hidden_paths=hidden if masked else ())
        here = os.getcwd()
        os.chdir(work / "kit" / "reference")  # the grader's working folder, as with `make grade` in the kit
        try:
            out = sandbox.run(["bash", str(work / "probe.sh")], cwd, env, limits, work / "probe.log",
                              visible=[work, work / "kit" / "reference" / "public"])
        finally:
            os.chdir(here)
        text = (work / "probe.log").read_text(errors="replace")
        seen[masked] = dict(line.split(" ", 1) for line in text.splitlines() if " " in line)
        seen[masked]["private_tmp"] = out.private_tmp
    problems = []
    want = {"absolute": "denied", "sibling": "denied", "dotdot": "denied", "proc-self-cwd": "denied",
            "visible-inside-hidden": "read", "own-file": "read", "write": "denied", "listing": "public ",
            "include": "denied", "kit-reference": "denied"}
    if run_as or os.geteuid() != 0:  # another user id, or a user namespace; root may follow it
        want["proc-grader-cwd"] = "denied"
    for key, value in want.items():
        got = seen[True].get(key)
        if got is None and key in ("include", "kit-reference"):
            continue  # no preprocessor here; no reference/ in this kit (the student edition)
        if got != value:
            problems.append(f"with hidden paths, {key}: {got!r}, not {value!r}")
    for key in ("absolute", "sibling", "include"):
        if seen[False].get(key, "read") != "read":
            problems.append(f"without hidden paths, {key} was {seen[False][key]!r}: this test proves nothing here")
    if not seen[True]["private_tmp"]:
        problems.append("the program ran without a mount namespace")
    return problems


NET_PROBE = r"""
if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then echo "connect connected"; else echo "connect failed"; fi
echo "interfaces $(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\n' ' ')"
"""


def no_network(run_as, work):
    """Problems (empty: none) with the network namespace; None when none can be had here."""
    limits = sandbox.Limits(timeout_s=30, memory_mb=512, run_as=run_as)
    if not sandbox.namespaces_available(limits)[1]:
        return None
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    port = listener.getsockname()[1]
    try:
        socket.create_connection(("127.0.0.1", port), timeout=3).close()  # the port is open out here
        (work / "net.sh").write_text(NET_PROBE)
        os.chmod(work, 0o777)
        out = sandbox.run(["bash", str(work / "net.sh"), str(port)], work, sandbox.clean_env(work), limits,
                          work / "net.log")
    finally:
        listener.close()
    text = (work / "net.log").read_text(errors="replace")
    got = dict(line.split(" ", 1) for line in text.splitlines() if " " in line)
    problems = []
    if got.get("connect") != "failed":
        problems.append(f"connect to 127.0.0.1:{port}: {got.get('connect')!r} ({text!r})")
    if got.get("interfaces", "").split() != ["lo"]:
        problems.append(f"network interfaces: {got.get('interfaces')!r}")
    if not out.private_net:
        problems.append("Outcome.private_net is False")
    return problems


def mpi_without_ssh(run_as, work):
    """Problems (empty: none) starting 2 ranks where no ssh or rsh is installed; None without mpirun."""
    mpirun = shutil.which("mpirun")
    if not mpirun:
        return None
    bin_dir = work / "bin"  # mpirun and what the ranks run, and no ssh or rsh
    bin_dir.mkdir()
    for tool in ("mpirun", "hostname", "false", "env", "bash"):
        os.symlink(os.path.realpath(shutil.which(tool)), bin_dir / tool)
    os.chmod(work, 0o777)
    limits = sandbox.Limits(timeout_s=60, memory_mb=2048, run_as=run_as, address_space_limit=False)
    saved = {k: os.environ.pop(k) for k in ("OMPI_MCA_plm", "OMPI_MCA_plm_rsh_agent") if k in os.environ}
    saved_path, os.environ["PATH"] = os.environ["PATH"], str(bin_dir)
    try:
        env = sandbox.clean_env(work)
        with_args = sandbox.run([*gtest.mpirun(2, limits), "hostname"], work, env, limits, work / "with.log")
        plain = [a for a in gtest.mpirun(2, limits) if a not in gtest.local_launch_args()]
        without = sandbox.run([*plain, "hostname"], work, env, limits, work / "without.log")
    finally:
        os.environ["PATH"] = saved_path
        os.environ.update(saved)
    problems = []
    ranks = (work / "with.log").read_text(errors="replace").split()
    if with_args.returncode != 0 or len(ranks) != 2:
        problems.append(f"gtest.mpirun at 2 ranks: exit {with_args.returncode}, output {ranks[:20]!r}")
    if without.returncode == 0:
        problems.append("plain mpirun started without ssh too: this check cannot tell the fix from its absence")
    return problems


def limits_hold(run_as, work):
    """Problems (empty: none) with what a program keeps in /dev/shm (memory) and in its scratch
    folder (disk); None when no mount namespace here (the tmpfs check needs one)."""
    if not sandbox.private_tmp_available(sandbox.Limits(run_as=run_as)):
        return None
    os.chmod(work, 0o777)
    problems = []
    # Files of 50 MB: no file may pass 64 MB (RLIMIT_FSIZE).
    cases = (("memory", 'for i in 1 2 3 4 5 6; do dd if=/dev/zero of="/dev/shm/f$i" bs=1M count=50 status=none; done; sleep 20',
              dict(memory_mb=200), "memory_exceeded"),
             ("disk", 'for i in 1 2 3 4; do dd if=/dev/zero of="$TMPDIR/f$i" bs=1M count=50 status=none; done; sleep 20',
              dict(memory_mb=512, disk_mb=100), "disk_exceeded"))
    for name, script, extra, flag in cases:
        limits = sandbox.Limits(timeout_s=30, run_as=run_as, **extra)
        out = sandbox.run(["sh", "-c", script], work, sandbox.clean_env(work), limits, work / f"{name}.log",
                          scratch=work / "scratch")
        if not getattr(out, flag) or out.wall_s > 15:
            problems.append(f"{name}: not killed in time ({out}): {(work / f'{name}.log').read_text(errors='replace')}")
        elif name not in out.describe(limits):
            problems.append(f"{name}: described as {out.describe(limits)!r}")
    if run_as:  # another job fills the same disk meanwhile: not this program's doing
        limits = sandbox.Limits(timeout_s=30, run_as=run_as, memory_mb=512, disk_mb=100)
        other = work.parent / (work.name + "-other-job")
        writer = subprocess.Popen(["sh", "-c", f'sleep 1; for i in 1 2 3 4; do dd if=/dev/zero of="{other}.$i" '
                                   'bs=1M count=50 status=none; done'])
        out = sandbox.run(["sh", "-c", "sleep 4"], work, sandbox.clean_env(work), limits, work / "other.log",
                          scratch=work / "scratch")
        writer.wait()
        for i in range(1, 5):
            Path(f"{other}.{i}").unlink(missing_ok=True)
        if out.disk_exceeded or out.returncode != 0:
            problems.append(f"killed for another job's 200 MB on the same disk: {out}")
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
    checks = (("100 MB in each of /tmp, /var/tmp and /dev/shm: unseen by the other student (who sees an empty "
               "/var/tmp; as the grader's user, two graders at once) and gone afterwards, scratch folders too",
               private_tmp),
              ("hidden paths unreadable (absolute, '..', /proc/self/cwd, /proc/<grader>/cwd, #include), "
               "visible folders inside them readable", hidden_paths),
              ("no network: connect to 127.0.0.1 fails, only lo", no_network),
              ("two graders running programs as the same user at once take turns, neither killing the other's",
               same_user_at_once),
              ("300 MB in /dev/shm count as memory, 200 MB in the scratch folder go past a disk limit (but 200 MB "
               "another job writes to the same disk does not, under --run-as)", limits_hold),
              ("mpirun starts 2 ranks in the sandbox where no ssh or rsh is installed", mpi_without_ssh))
    for what, check in checks:
        for run_as in users:
            who = "as the grader's user" if run_as is None else "with --run-as nobody"
            with tempfile.TemporaryDirectory() as tmp:
                os.chmod(tmp, 0o755)
                problems = check(run_as, Path(tmp))
            if problems is None:
                print(f"SKIP  {what} ({who}): no such namespace on this machine")
                continue
            failures += bool(problems)
            print(f"{'PASS' if not problems else 'FAIL'}  {what} ({who})")
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
