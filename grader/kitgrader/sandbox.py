"""Running untrusted programs: a wall-clock timeout, a memory limit, capped output, a clean
environment, its own process group (so the whole group is killed), and optionally another
user id (so it cannot touch the grader's files or signal the grader).

Two memory guards: RLIMIT_AS, where no GPU driver needs a large address space, turns a
runaway allocation into std::bad_alloc; and a watchdog that sums the resident memory of the
process group and kills it past the limit, which also works beside CUDA.

Scratch space: each program gets its own scratch folder as HOME and TMPDIR, made fresh before
it starts and removed once it and everything it started are gone; and, where the kernel allows
a mount namespace (as root, or through a user namespace otherwise), its own /tmp and /dev/shm:
fresh tmpfs mounts, capped in size, seen by this program alone and gone with its last process.
The folders the program needs (its working folder and those the caller names) stay visible at
their own paths when they lie under /tmp or /dev/shm. Where no namespace can be had, /tmp and
/dev/shm are the machine's: Outcome.private_tmp is then False (the grader flags it), and under
--run-as what that user left in them is removed after the program.
"""
import ctypes
import os
import resource
import shutil
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
    private_tmp: bool = True           # own /tmp and /dev/shm where a mount namespace can be had
    tmp_mb: int = 1024                 # size of each of those tmpfs mounts


@dataclass
class Outcome:
    returncode: int        # exit status, or -signal
    timed_out: bool
    memory_exceeded: bool
    wall_s: float
    cpu_s: float
    peak_rss_mb: float
    private_tmp: bool = False  # it had its own /tmp and /dev/shm

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


SHARED_TMP = ("/tmp", "/dev/shm")
_CLONE_NEWNS, _CLONE_NEWUSER = 0x00020000, 0x10000000
_MS_NOSUID, _MS_NODEV, _MS_BIND, _MS_REC, _MS_PRIVATE = 0x2, 0x4, 0x1000, 0x4000, 0x40000


def _libc_call(name, *args):
    libc = ctypes.CDLL(None, use_errno=True)
    if getattr(libc, name)(*args) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{name}: {os.strerror(err)}")


def _mount(source, target, fstype, flags, data=None):
    enc = (lambda x: None if x is None else os.fsencode(x))
    _libc_call("mount", enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data))


def _inside(path, top):
    return path == top or path.startswith(top.rstrip("/") + "/")


def _private_tmp(visible, size_mb):
    """In the child, before it drops to --run-as: a mount namespace of its own, with a fresh
    tmpfs over /tmp and /dev/shm, and the visible folders bound back at their own paths.
    Not root: a user namespace mapping the user to itself, so that the program, once it
    runs (not as root inside it either), holds no capability to undo the mounts."""
    if os.geteuid() != 0:
        uid, gid = os.getuid(), os.getgid()
        _libc_call("unshare", _CLONE_NEWUSER | _CLONE_NEWNS)
        for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
            with open(f"/proc/self/{name}", "w") as f:
                f.write(text)
    else:
        _libc_call("unshare", _CLONE_NEWNS)
    _mount(None, "/", None, _MS_REC | _MS_PRIVATE)  # nothing mounted here reaches the machine
    for top in SHARED_TMP:
        if not os.path.isdir(top) or any(_inside(top, v) for v in visible):
            continue
        held = [(v, os.open(v, os.O_PATH)) for v in visible if _inside(v, top) and os.path.isdir(v)]
        _mount("tmpfs", top, "tmpfs", _MS_NOSUID | _MS_NODEV, f"size={size_mb}m,mode=1777")
        for path, fd in held:
            os.makedirs(path, mode=0o755, exist_ok=True)
            _mount(f"/proc/self/fd/{fd}", path, None, _MS_BIND | _MS_REC)
            os.close(fd)


def _limit_child(limits, set_as, visible=None):
    def apply():
        os.setsid()
        mem = limits.memory_mb << 20
        if set_as:
            resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        out = limits.max_output_mb << 20
        resource.setrlimit(resource.RLIMIT_FSIZE, (out, out))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if visible is not None:
            _private_tmp(visible, limits.tmp_mb)
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


_private_tmp_ok = {}


def private_tmp_available(limits, visible=()):
    """True when a program run with these limits can get its own /tmp and /dev/shm here
    (tried once per --run-as user with a program that does nothing)."""
    key = limits.run_as
    if key not in _private_tmp_ok:
        probe = Limits(**{**limits.__dict__, "address_space_limit": False})
        try:
            ok = subprocess.run(["true"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, cwd="/", timeout=30, env={"PATH": "/usr/bin:/bin"},
                                preexec_fn=_limit_child(probe, False, [str(Path(v).resolve()) for v in visible])
                                ).returncode == 0
        except (OSError, subprocess.SubprocessError):
            ok = False
        _private_tmp_ok[key] = ok
    return _private_tmp_ok[key]


def remove_tree(path):
    """shutil.rmtree that also gets through folders the program made unreadable (chmod 0)."""
    def retry(func, p, _exc):
        try:
            os.chmod(os.path.dirname(p), 0o700)
            if os.path.isdir(p) and not os.path.islink(p):
                os.chmod(p, 0o700)
                shutil.rmtree(p, ignore_errors=True)
            else:
                func(p)
        except OSError:
            pass
    if os.path.lexists(path):
        shutil.rmtree(path, onerror=retry)


def _fresh_scratch(scratch, run_as):
    remove_tree(scratch)
    os.mkdir(scratch, 0o700)
    if run_as:
        os.chown(scratch, *run_as)


def _remove_owned_by(uid):
    """Fallback cleanup without a namespace: what the --run-as user left in /tmp and /dev/shm."""
    for top in SHARED_TMP:
        try:
            entries = list(os.scandir(top))
        except OSError:
            continue
        for e in entries:
            try:
                if e.stat(follow_symlinks=False).st_uid != uid:
                    continue
                if e.is_dir(follow_symlinks=False):
                    remove_tree(e.path)
                else:
                    os.unlink(e.path)
            except OSError:
                pass


def run(cmd, cwd, env, limits, log_path, memory_guard=True, scratch=None, visible=()):
    """Runs cmd; stdout and stderr go to log_path. Never raises for what the program does.
    scratch: a folder made fresh for this program as its HOME and TMPDIR, removed afterwards.
    visible: folders (besides cwd and scratch) the program needs that may lie under /tmp."""
    _become_subreaper()
    _kill_descendants(limits.run_as)  # anything an earlier program left behind goes before this one starts
    if scratch is not None:
        _fresh_scratch(scratch, limits.run_as)
        env = dict(env, HOME=str(scratch), TMPDIR=str(scratch))
    keep = sorted({str(Path(p).resolve()) for p in (cwd, *visible, *([scratch] if scratch else []))})
    private = limits.private_tmp and private_tmp_available(limits, keep)
    start = time.monotonic()
    set_as = limits.address_space_limit and memory_guard
    try:
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                    stderr=subprocess.STDOUT, close_fds=True,
                                    preexec_fn=_limit_child(limits, set_as, keep if private else None))
    except BaseException:
        if scratch is not None:
            remove_tree(scratch)
        raise
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
    # Every process of the program is gone: its /tmp and /dev/shm went with its namespace.
    if scratch is not None:
        remove_tree(scratch)
    if not private and limits.run_as:
        _remove_owned_by(limits.run_as[0])
    proc.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    peak = max(peak, usage.ru_maxrss / 1024.0)
    return Outcome(proc.returncode, timed_out, mem_exceeded, time.monotonic() - start, cpu, peak, private)


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
