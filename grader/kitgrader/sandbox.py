"""Running untrusted programs: a wall-clock timeout, a memory limit, capped output and disk use,
a clean environment, its own process group (so the whole group is killed), and optionally another
user id (so it cannot touch the grader's files or signal the grader).

Two memory guards: RLIMIT_AS, where no GPU driver needs a large address space, turns a
runaway allocation into std::bad_alloc; and a watchdog that sums the resident memory of the
process group and what it holds in its private tmpfs mounts, and kills it past the limit,
which also works beside CUDA. A disk watchdog kills it when the file systems it can write to
(its working folder, its scratch folder, the folders the caller names) have filled by more
than Limits.disk_mb since it started.

Scratch space: each program gets its own scratch folder as HOME and TMPDIR, made fresh before
it starts and removed once it and everything it started are gone; and, where the kernel allows
a mount namespace (as root, or through a user namespace otherwise), its own /tmp, /var/tmp and
/dev/shm: fresh tmpfs mounts, capped in size, seen by this program alone and gone with its last
process. The folders the program needs (its working folder and those the caller names) stay
visible at their own paths when they lie under /tmp, /var/tmp or /dev/shm. In the same
namespace the folders of Limits.hidden_paths (the instructor's solutions, the hidden tests,
other gradings' folders) are covered by an empty read-only tmpfs, with the visible folders that
lie inside them bound back on top; and, where it can be had, a network namespace of its own
leaves the program no network at all (a loopback interface that is down). Where no namespace
can be had, /tmp, /var/tmp and /dev/shm are the machine's and nothing is hidden:
Outcome.private_tmp is then False (the grader flags it), and under --run-as what that user
left in them is removed after the program.
"""
import ctypes
import fcntl
import glob
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
    private_tmp: bool = True           # own /tmp, /var/tmp and /dev/shm where a mount namespace can be had
    tmp_mb: int = 1024                 # size of each of those tmpfs mounts
    private_net: bool = True           # a network namespace of its own (no network) where one can be had
    disk_mb: int = 4096                # growth of the writable file systems before it is killed; 0: no check
    # Folders made unreadable in the program's mount namespace (an empty read-only tmpfs over
    # each; visible folders inside one are bound back). Glob patterns (WORK/kitgrade-*) are
    # matched when the program starts.
    hidden_paths: tuple = ()


@dataclass
class Outcome:
    returncode: int        # exit status, or -signal
    timed_out: bool
    memory_exceeded: bool
    wall_s: float
    cpu_s: float
    peak_rss_mb: float
    private_tmp: bool = False  # it had its own /tmp, /var/tmp and /dev/shm, and hidden_paths were masked
    private_net: bool = False  # it had a network namespace of its own
    disk_exceeded: bool = False

    def describe(self, limits):
        """Why a run did not end normally, in words; '' when it exited by itself."""
        if self.timed_out:
            return f"timed out after {limits.timeout_s:.0f} s (an endless loop or a deadlock?) and was killed"
        if self.memory_exceeded:
            return f"used more than {limits.memory_mb} MB of memory and was killed"
        if self.disk_exceeded:
            return f"wrote more than {limits.disk_mb} MB to disk and was killed"
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


SHARED_TMP = ("/tmp", "/var/tmp", "/dev/shm")
_CLONE_NEWNS, _CLONE_NEWUSER, _CLONE_NEWNET = 0x00020000, 0x10000000, 0x40000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC, _MS_REMOUNT = 0x1, 0x2, 0x4, 0x8, 0x20
_MS_BIND, _MS_REC, _MS_PRIVATE = 0x1000, 0x4000, 0x40000


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


def _private_tops(visible):
    """The shared scratch folders that get a tmpfs of their own (each once, by its real path:
    /var/tmp may be a link to /tmp), leaving out one that lies inside a visible folder."""
    tops = []
    for top in SHARED_TMP:
        real = os.path.realpath(top)
        if os.path.isdir(real) and real not in tops and not any(_inside(real, v) for v in visible):
            tops.append(real)
    return tops


def _outermost(paths):
    """The paths that lie inside no other one of them (binding those back brings the rest)."""
    paths = sorted(set(paths))
    return [p for p in paths if not any(q != p and _inside(p, q) for q in paths)]


def _cover(top, visible, fstype_data, read_only):
    """A fresh tmpfs over top, with the visible folders inside it bound back at their own paths."""
    held = [(v, os.open(v, os.O_PATH | os.O_DIRECTORY))
            for v in _outermost(v for v in visible if v != top and _inside(v, top) and os.path.isdir(v))]
    flags = _MS_NOSUID | _MS_NODEV | (_MS_NOEXEC if read_only else 0)
    _mount("tmpfs", top, "tmpfs", flags, fstype_data)
    for path, fd in held:
        os.makedirs(path, mode=0o755, exist_ok=True)
        _mount(f"/proc/self/fd/{fd}", path, None, _MS_BIND | _MS_REC)
        os.close(fd)
    if read_only:
        _mount(None, top, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | flags)


def _hidden_now(hidden):
    """hidden_paths as they are now (glob patterns are matched here, in the namespace)."""
    out = []
    for h in hidden:
        for p in (sorted(glob.glob(h)) if glob.has_magic(h) else [h]):
            real = os.path.realpath(p)
            if real != "/" and real not in out:
                out.append(real)
    return out


def _private_tmp(visible, size_mb, cwd=None, hidden=(), net=False, tops=None):
    """In the child, before it drops to --run-as: a mount namespace of its own (and a network
    namespace, with net), with a fresh tmpfs over /tmp, /var/tmp and /dev/shm and the visible
    folders bound back at their own paths; then an empty read-only tmpfs over each hidden
    folder, the visible folders inside it bound back on top; then cwd entered again, so that
    '..' from it walks the namespace's view and not the folders under the mounts.
    Not root: a user namespace mapping the user to itself, so that the program, once it
    runs (not as root inside it either), holds no capability to undo the mounts."""
    flags = _CLONE_NEWNS | (_CLONE_NEWNET if net else 0)
    if os.geteuid() != 0:
        uid, gid = os.getuid(), os.getgid()
        _libc_call("unshare", _CLONE_NEWUSER | flags)
        for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
            with open(f"/proc/self/{name}", "w") as f:
                f.write(text)
    else:
        _libc_call("unshare", flags)
    _mount(None, "/", None, _MS_REC | _MS_PRIVATE)  # nothing mounted here reaches the machine
    tops = _private_tops(visible) if tops is None else tops
    for top in tops:
        _cover(top, visible, f"size={size_mb}m,mode=1777", read_only=False)
    for h in _hidden_now(hidden):
        if h in visible or not os.path.isdir(h):
            continue  # a folder the program needs stays; a missing one needs nothing
        if any(_inside(h, t) for t in tops) and not any(_inside(h, v) for v in visible):
            continue  # under a fresh tmpfs already: gone
        _cover(h, visible, "size=64k,mode=0755", read_only=True)
    if cwd is not None:
        os.chdir(cwd)


def _limit_child(limits, set_as, visible=None, cwd=None, net=False, tops=None):
    def apply():
        os.setsid()
        mem = limits.memory_mb << 20
        if set_as:
            resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        out = limits.max_output_mb << 20
        resource.setrlimit(resource.RLIMIT_FSIZE, (out, out))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if visible is not None:
            _private_tmp(visible, limits.tmp_mb, cwd, limits.hidden_paths, net, tops)
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


_namespaces_ok = {}


def _probe(limits, visible, net):
    probe = Limits(**{**limits.__dict__, "address_space_limit": False})
    try:
        return subprocess.run(["true"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, cwd="/", timeout=30, env={"PATH": "/usr/bin:/bin"},
                              preexec_fn=_limit_child(probe, False, visible, net=net)).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def namespaces_available(limits, visible=()):
    """(mount, net): whether a program run with these limits gets a mount namespace of its own
    here (private /tmp, /var/tmp, /dev/shm, hidden_paths masked), and a network namespace
    with it. Tried once per --run-as user and hidden_paths, with a program that does nothing."""
    key = (limits.run_as, tuple(limits.hidden_paths), bool(limits.private_net))
    if key not in _namespaces_ok:
        keep = [str(Path(v).resolve()) for v in visible]
        if limits.private_net and _probe(limits, keep, True):
            _namespaces_ok[key] = (True, True)
        else:
            _namespaces_ok[key] = (_probe(limits, keep, False), False)
    return _namespaces_ok[key]


def private_tmp_available(limits, visible=()):
    """True when a program run with these limits can get its own /tmp, /var/tmp and /dev/shm
    here (and its hidden_paths masked)."""
    return namespaces_available(limits, visible)[0]


def missing_isolation(limits):
    """What a program run with these limits goes without here, in words ([] when nothing)."""
    missing = []
    if not limits.run_as:
        if os.geteuid() == 0:
            missing.append("another user id (--run-as none: student code runs as root, which can also undo "
                           "its mounts and reads every file)")
        else:
            missing.append("another user id (the grader is not root: student code runs as you, can read "
                           "every file you can read outside the hidden folders, and has no process limit)")
    mount, net = namespaces_available(limits) if limits.private_tmp else (False, False)
    if limits.private_tmp and not mount:
        missing.append("private /tmp, /var/tmp and /dev/shm and hidden instructor folders (no mount namespace "
                       "here)")
    if limits.private_net and not net:
        missing.append("network isolation (no network namespace here: student code can reach the network)")
    return missing


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
    """Fallback cleanup without a namespace: what the --run-as user left in /tmp, /var/tmp and /dev/shm."""
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


def _used_bytes(path):
    try:
        st = os.statvfs(path)
    except OSError:
        return 0
    return (st.f_blocks - st.f_bfree) * st.f_frsize


def _tree_bytes(paths):
    """Disk space the files and folders under paths take (links not followed)."""
    total = 0
    for top in paths:
        for dirpath, dirnames, filenames in os.walk(top):
            for name in dirnames + filenames:
                try:
                    total += os.lstat(os.path.join(dirpath, name)).st_blocks * 512
                except OSError:
                    continue
    return total


def _file_systems(paths):
    """One path per file system among paths (those the program can write to)."""
    out = {}
    for p in paths:
        try:
            out.setdefault(os.stat(p).st_dev, p)
        except OSError:
            continue
    return list(out.values())


def _user_lock(uid):
    """An exclusive lock on the --run-as user, shared by every grader process of this machine:
    each program of that user kills every other process of it when it starts and ends, so two
    gradings with the same user (two `make grade` at once) must take turns, one program at a
    time, or they kill each other's builds and tests."""
    fd = os.open(f"/tmp/kitgrade-user-{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def run(cmd, cwd, env, limits, log_path, memory_guard=True, scratch=None, visible=()):
    """Runs cmd; stdout and stderr go to log_path. Never raises for what the program does.
    scratch: a folder made fresh for this program as its HOME and TMPDIR, removed afterwards.
    visible: folders (besides cwd and scratch) the program needs that may lie under /tmp or
    under a hidden path."""
    lock = _user_lock(limits.run_as[0]) if limits.run_as else None
    try:
        return _run(cmd, cwd, env, limits, log_path, memory_guard, scratch, visible)
    finally:
        if lock is not None:
            os.close(lock)


def _run(cmd, cwd, env, limits, log_path, memory_guard, scratch, visible):
    _become_subreaper()
    _kill_descendants(limits.run_as)  # anything an earlier program left behind goes before this one starts
    if scratch is not None:
        _fresh_scratch(scratch, limits.run_as)
        env = dict(env, HOME=str(scratch), TMPDIR=str(scratch))
    keep = sorted({str(Path(p).resolve()) for p in (cwd, *visible, *([scratch] if scratch else []))})
    mount_ns, net_ns = namespaces_available(limits, keep) if limits.private_tmp else (False, False)
    tops = _private_tops(keep) if mount_ns else []
    disks = _file_systems(keep) if limits.disk_mb > 0 else []
    disk_start = {d: _used_bytes(d) for d in disks}
    # Under --run-as the program can write only its own folders (its /tmp, /var/tmp and
    # /dev/shm are tmpfs, counted as memory), so a file system that grows is blamed on it only
    # when its folders grew as much: other jobs writing to a shared disk never kill it.
    own_start = _tree_bytes(keep) if disks and limits.run_as else 0
    start = time.monotonic()
    set_as = limits.address_space_limit and memory_guard
    try:
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                    stderr=subprocess.STDOUT, close_fds=True,
                                    preexec_fn=_limit_child(limits, set_as, keep if mount_ns else None,
                                                            str(Path(cwd).resolve()), net_ns, tops))
    except BaseException:
        if scratch is not None:
            remove_tree(scratch)
        raise
    timed_out = mem_exceeded = disk_exceeded = False
    peak = 0.0
    status, usage = None, None
    next_check = 0.0
    while status is None:
        pid, st, ru = os.wait4(proc.pid, os.WNOHANG)
        if pid == proc.pid:
            status, usage = st, ru
            break
        now = time.monotonic()
        if now - start > limits.timeout_s:
            timed_out = True
            _kill_group(proc.pid)
        elif now >= next_check:
            if memory_guard:
                # What it keeps in its own tmpfs mounts is memory too (seen through its root).
                held = sum(_used_bytes(f"/proc/{proc.pid}/root{t}") for t in tops) / (1 << 20)
                rss = _group_rss_mb(proc.pid) + held
                peak = max(peak, rss)
                if rss > limits.memory_mb:
                    mem_exceeded = True
                    _kill_group(proc.pid)
            if any(_used_bytes(d) - disk_start[d] > limits.disk_mb << 20 for d in disks) and (
                    not limits.run_as or _tree_bytes(keep) - own_start > limits.disk_mb << 20):
                disk_exceeded = True
                _kill_group(proc.pid)
            next_check = now + 0.2
        time.sleep(0.02 if now - start < 2 else 0.05)
    _kill_group(proc.pid)  # leftovers of the group (children it started) go too
    _kill_descendants(limits.run_as)
    # Every process of the program is gone: its /tmp, /var/tmp and /dev/shm went with its namespace.
    if scratch is not None:
        remove_tree(scratch)
    if not mount_ns and limits.run_as:
        _remove_owned_by(limits.run_as[0])
    proc.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    peak = max(peak, usage.ru_maxrss / 1024.0)
    return Outcome(proc.returncode, timed_out, mem_exceeded, time.monotonic() - start, cpu, peak, mount_ns,
                   net_ns, disk_exceeded and not (timed_out or mem_exceeded))


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
