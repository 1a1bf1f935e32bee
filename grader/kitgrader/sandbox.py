"""Running untrusted programs: a wall-clock timeout, a memory limit, capped output, a clean
environment, its own process group (so the whole group is killed), and optionally another
user id (so it cannot touch the grader's files or signal the grader).

Two memory guards: RLIMIT_AS, where no GPU driver needs a large address space, turns a
runaway allocation into std::bad_alloc; and a watchdog that sums the resident memory of the
process group and kills it past the limit, which also works beside CUDA.
"""
import ctypes
import os
import resource
import signal
import time
from dataclasses import dataclass
from pathlib import Path
import subprocess

PASS_ENV = ("PATH", "LD_LIBRARY_PATH", "LANG", "LC_ALL", "CUDA_VISIBLE_DEVICES", "CUDA_HOME",
            "OCL_ICD_VENDORS", "OCL_ICD_FILENAMES", "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES")
PASS_PREFIXES = ("POCL_", "KIT_CL_")


@dataclass
class Limits:
    timeout_s: float = 120.0
    memory_mb: int = 4096
    address_space_limit: bool = True   # RLIMIT_AS as well as the watchdog
    max_output_mb: int = 64            # RLIMIT_FSIZE: any file the program writes, its log included
    run_as: tuple = None               # (uid, gid) when started as root with --run-as
    max_processes: int = 256           # RLIMIT_NPROC of the --run-as user


@dataclass
class Outcome:
    returncode: int        # exit status, or -signal
    timed_out: bool
    memory_exceeded: bool
    wall_s: float
    cpu_s: float
    peak_rss_mb: float

    def describe(self, limits):
        """Why a run did not end normally, in words; '' when it exited by itself."""
        if self.timed_out:
            return f"timed out after {limits.timeout_s:.0f} s (an endless loop or a deadlock?) and was killed"
        if self.memory_exceeded:
            return f"used more than {limits.memory_mb} MB of memory and was killed"
        if self.returncode < 0:
            sig = -self.returncode
            try:
                name = signal.Signals(sig).name
            except ValueError:
                name = f"signal {sig}"
            hint = {"SIGSEGV": " (an out-of-bounds access?)", "SIGABRT": " (an uncaught exception or failed assert?)",
                    "SIGXFSZ": " (wrote too much output)", "SIGFPE": " (an integer division by zero?)"}.get(name, "")
            return f"crashed with {name}{hint}"
        return ""


def clean_env(home, extra=None):
    """The environment untrusted code sees: nothing that points back at the grader."""
    env = {k: v for k, v in os.environ.items() if k in PASS_ENV or k.startswith(PASS_PREFIXES)}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    env.setdefault("LANG", "C.UTF-8")
    env["HOME"] = str(home)
    env["TMPDIR"] = str(home)
    env.update(extra or {})
    return env


def _limit_child(limits, set_as):
    def apply():
        os.setsid()
        mem = limits.memory_mb << 20
        if set_as:
            resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        out = limits.max_output_mb << 20
        resource.setrlimit(resource.RLIMIT_FSIZE, (out, out))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if limits.run_as:
            # Counted per user: a dedicated user has nothing else running, so this caps forks.
            resource.setrlimit(resource.RLIMIT_NPROC, (limits.max_processes, limits.max_processes))
            uid, gid = limits.run_as
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
    return apply


def _proc_stats():
    """(pid, fields after the command name of /proc/pid/stat) of every process still there."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                yield int(entry.name), f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError, ValueError):
            continue


def _group_rss_mb(sid):
    """Resident memory of every process in session sid, in MB."""
    total = 0
    for _, fields in _proc_stats():
        try:
            if int(fields[3]) == sid:  # fields after the name: state ppid pgrp session ...
                total += int(fields[21]) * resource.getpagesize()  # rss in pages
        except (IndexError, ValueError):
            continue
    return total / (1 << 20)


_subreaper = None


def _become_subreaper():
    """Makes this process the child subreaper: a process that detaches from the untrusted
    program (double fork, setsid) is re-parented here instead of to init, so it is found."""
    global _subreaper
    if _subreaper is None:
        try:
            _subreaper = ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
        except (OSError, AttributeError):
            _subreaper = False
    return _subreaper


def _processes():
    """{pid: (ppid, uid, state)} of every process."""
    out = {}
    for pid, fields in _proc_stats():
        try:
            out[pid] = (int(fields[1]), os.stat(f"/proc/{pid}").st_uid, fields[0].decode())
        except (OSError, IndexError, ValueError):
            continue
    return out


def _reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _kill_descendants(run_as=None, deadline_s=10.0):
    """Kills every process below the grader (the grader is a subreaper, so detached ones come
    back here) and, under --run-as, every process of that user. Each round stops them all
    first, so that a chain of forks cannot outrun the killing; rounds go on until none is left."""
    me, end, quiet = os.getpid(), time.monotonic() + deadline_s, 0
    # /proc is not read atomically: a process forked while it is read can be missed, so only
    # several empty rounds in a row end the killing.
    while time.monotonic() < end and quiet < 5:
        procs = _processes()
        victims = {pid for pid, (_, uid, state) in procs.items()
                   if state != "Z" and run_as and uid == run_as[0] and pid != me}
        children = {}
        for pid, (ppid, _, _) in procs.items():
            children.setdefault(ppid, []).append(pid)
        todo = list(children.get(me, []))
        while todo:
            pid = todo.pop()
            if procs[pid][2] != "Z":
                victims.add(pid)
            todo += children.get(pid, [])
        if not victims:
            quiet += 1
            time.sleep(0.02)
            continue
        quiet = 0
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            for pid in victims:
                try:
                    os.kill(pid, sig)
                except OSError:
                    pass
        _reap()
        time.sleep(0.02)
    _reap()


def _kill_group(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run(cmd, cwd, env, limits, log_path, memory_guard=True):
    """Runs cmd; stdout and stderr go to log_path. Never raises for what the program does."""
    _become_subreaper()
    _kill_descendants(limits.run_as)  # anything an earlier program left behind goes before this one starts
    start = time.monotonic()
    set_as = limits.address_space_limit and memory_guard
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                preexec_fn=_limit_child(limits, set_as), close_fds=True)
    timed_out = mem_exceeded = False
    peak = 0.0
    status, usage = None, None
    next_rss_check = 0.0
    while status is None:
        pid, st, ru = os.wait4(proc.pid, os.WNOHANG)
        if pid == proc.pid:
            status, usage = st, ru
            break
        now = time.monotonic()
        if now - start > limits.timeout_s:
            timed_out = True
            _kill_group(proc.pid)
        elif memory_guard and now >= next_rss_check:
            rss = _group_rss_mb(proc.pid)
            peak = max(peak, rss)
            if rss > limits.memory_mb:
                mem_exceeded = True
                _kill_group(proc.pid)
            next_rss_check = now + 0.2
        time.sleep(0.02 if now - start < 2 else 0.05)
    _kill_group(proc.pid)  # leftovers of the group (children it started) go too
    _kill_descendants(limits.run_as)
    proc.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    peak = max(peak, usage.ru_maxrss / 1024.0)
    return Outcome(proc.returncode, timed_out, mem_exceeded, time.monotonic() - start, cpu, peak)


def resolve_user(name):
    """(uid, gid) of a user name, for --run-as; None when not root or name is empty."""
    if not name:
        return None
    import pwd
    if os.geteuid() != 0:
        raise PermissionError("--run-as needs the grader to start as root")
    pw = pwd.getpwnam(name)
    return pw.pw_uid, pw.pw_gid


def has_opencl_platform():
    """True when an OpenCL driver is registered (PoCL counts): OpenCL tests then must run."""
    vendors = os.environ.get("OCL_ICD_VENDORS", "/etc/OpenCL/vendors")
    return bool(os.environ.get("OCL_ICD_FILENAMES")) or any(Path(vendors).glob("*.icd")) or Path(vendors).is_file()


def has_gpu_device():
    """True when an NVIDIA driver is present (device nodes, or WSL's /dev/dxg): CUDA then
    needs a large address space, so RLIMIT_AS must stay off."""
    return any(Path("/dev").glob("nvidia*")) or Path("/dev/dxg").exists()
