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

This module runs the program and watches it; isolation.py sets up its view of the machine,
processes.py finds, measures and kills its processes, diskuse.py handles its files.
"""
import os
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import diskuse, isolation, processes
# What callers use of the modules below, under the names they have always had here.
from .diskuse import remove_tree  # noqa: F401
from .isolation import SHARED_TMP, missing_isolation, namespaces_available, private_tmp_available  # noqa: F401

PASS_ENV = ("PATH", "LD_LIBRARY_PATH", "LANG", "LC_ALL", "CUDA_VISIBLE_DEVICES", "CUDA_HOME",
            "OCL_ICD_VENDORS", "OCL_ICD_FILENAMES", "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES",
            "OPAL_PREFIX")
# The site's MPI, PMIx, UCX and NCCL settings reach the programs as they reach `make test`: a GPU
# node without ssh says OMPI_MCA_plm=isolated there, and mpirun fails at once without it.
PASS_PREFIXES = ("POCL_", "KIT_CL_", "OMPI_MCA_", "PMIX_MCA_", "PRTE_MCA_", "UCX_", "NCCL_")


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


def run(cmd, cwd, env, limits, log_path, memory_guard=True, scratch=None, visible=()):
    """Runs cmd; stdout and stderr go to log_path. Never raises for what the program does.
    scratch: a folder made fresh for this program as its HOME and TMPDIR, removed afterwards.
    visible: folders (besides cwd and scratch) the program needs that may lie under /tmp or
    under a hidden path."""
    lock = processes.user_lock(limits.run_as[0]) if limits.run_as else None
    try:
        return _run(cmd, cwd, env, limits, log_path, memory_guard, scratch, visible)
    finally:
        if lock is not None:
            os.close(lock)


@dataclass
class _Setting:
    """What one run of a program is given: the folders it keeps (cwd, visible, scratch, resolved),
    its namespaces and private tmpfs mounts, and the file systems watched for its disk use."""
    keep: list
    mount_ns: bool
    net_ns: bool
    tops: list
    disks: list
    disk_start: dict = field(default_factory=dict)
    own_start: int = 0


def _prepare(cwd, limits, scratch, visible):
    processes.become_subreaper()
    processes.kill_descendants(limits.run_as)  # anything an earlier program left behind goes before this one starts
    if scratch is not None:
        diskuse.fresh_scratch(scratch, limits.run_as)
    keep = sorted({str(Path(p).resolve()) for p in (cwd, *visible, *([scratch] if scratch else []))})
    mount_ns, net_ns = namespaces_available(limits, keep) if limits.private_tmp else (False, False)
    tops = isolation.private_tops(keep) if mount_ns else []
    disks = diskuse.file_systems(keep) if limits.disk_mb > 0 else []
    setting = _Setting(keep, mount_ns, net_ns, tops, disks, {d: diskuse.used_bytes(d) for d in disks})
    # Under --run-as the program can write only its own folders (its /tmp, /var/tmp and
    # /dev/shm are tmpfs, counted as memory), so a file system that grows is blamed on it only
    # when its folders grew as much: other jobs writing to a shared disk never kill it.
    setting.own_start = diskuse.tree_bytes(keep) if disks and limits.run_as else 0
    return setting


def _start(cmd, cwd, env, limits, log_path, set_as, setting):
    visible = setting.keep if setting.mount_ns else None
    child = isolation.limit_child(limits, set_as, visible, str(Path(cwd).resolve()), setting.net_ns, setting.tops)
    with open(log_path, "wb") as log:
        return subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT, close_fds=True, preexec_fn=child)


@dataclass
class _Watch:
    """What watching a running program saw."""
    status: int = None
    usage: object = None
    timed_out: bool = False
    memory_exceeded: bool = False
    disk_exceeded: bool = False
    peak_mb: float = 0.0


def _over_limits(proc, limits, memory_guard, setting, watch):
    """Kills the program's group when its memory or disk use is over the limits."""
    if memory_guard:
        # What it keeps in its own tmpfs mounts is memory too (seen through its root).
        held = sum(diskuse.used_bytes(f"/proc/{proc.pid}/root{t}") for t in setting.tops) / (1 << 20)
        rss = processes.group_rss_mb(proc.pid) + held
        watch.peak_mb = max(watch.peak_mb, rss)
        if rss > limits.memory_mb:
            watch.memory_exceeded = True
            processes.kill_group(proc.pid)
    limit = limits.disk_mb << 20
    if any(diskuse.used_bytes(d) - setting.disk_start[d] > limit for d in setting.disks) and (
            not limits.run_as or diskuse.tree_bytes(setting.keep) - setting.own_start > limit):
        watch.disk_exceeded = True
        processes.kill_group(proc.pid)


def _watch(proc, limits, memory_guard, setting, start):
    """Waits for the program, killing it past its time, memory or disk limit."""
    watch, next_check = _Watch(), 0.0
    while watch.status is None:
        pid, st, ru = os.wait4(proc.pid, os.WNOHANG)
        if pid == proc.pid:
            watch.status, watch.usage = st, ru
            break
        now = time.monotonic()
        if now - start > limits.timeout_s:
            watch.timed_out = True
            processes.kill_group(proc.pid)
        elif now >= next_check:
            _over_limits(proc, limits, memory_guard, setting, watch)
            next_check = now + 0.2
        time.sleep(0.02 if now - start < 2 else 0.05)
    return watch


def _clean_up(proc, limits, scratch, setting):
    processes.kill_group(proc.pid)  # leftovers of the group (children it started) go too
    processes.kill_descendants(limits.run_as)
    # Every process of the program is gone: its /tmp, /var/tmp and /dev/shm went with its namespace.
    if scratch is not None:
        remove_tree(scratch)
    if not setting.mount_ns and limits.run_as:
        diskuse.remove_owned_by(limits.run_as[0])


def _run(cmd, cwd, env, limits, log_path, memory_guard, scratch, visible):
    setting = _prepare(cwd, limits, scratch, visible)
    if scratch is not None:
        env = dict(env, HOME=str(scratch), TMPDIR=str(scratch))
    start = time.monotonic()
    try:
        proc = _start(cmd, cwd, env, limits, log_path, limits.address_space_limit and memory_guard, setting)
    except BaseException:
        if scratch is not None:
            remove_tree(scratch)
        raise
    watch = _watch(proc, limits, memory_guard, setting, start)
    _clean_up(proc, limits, scratch, setting)
    proc.returncode = os.waitstatus_to_exitcode(watch.status)
    cpu = watch.usage.ru_utime + watch.usage.ru_stime
    peak = max(watch.peak_mb, watch.usage.ru_maxrss / 1024.0)
    disk_exceeded = watch.disk_exceeded and not (watch.timed_out or watch.memory_exceeded)
    return Outcome(proc.returncode, watch.timed_out, watch.memory_exceeded, time.monotonic() - start, cpu, peak,
                   setting.mount_ns, setting.net_ns, disk_exceeded)


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
