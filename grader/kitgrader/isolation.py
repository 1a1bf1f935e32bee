"""A program's own view of the machine, set up in the child before it runs: its resource
limits, a mount namespace with a fresh tmpfs over /tmp, /var/tmp and /dev/shm, the instructor's
folders (Limits.hidden_paths) covered by an empty read-only tmpfs with the folders it needs
bound back on top, and a network namespace with no network; then the drop to --run-as.
"""
import ctypes
import dataclasses
import glob
import os
import resource
import subprocess
from pathlib import Path

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


def private_tops(visible):
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
    if net:
        _loopback_up()  # MPI's launcher talks to its ranks over it; it reaches nothing outside
    _mount(None, "/", None, _MS_REC | _MS_PRIVATE)  # nothing mounted here reaches the machine
    tops = private_tops(visible) if tops is None else tops
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


def _loopback_up():
    """Brings up the loopback interface of a fresh network namespace (SIOCSIFFLAGS: IFF_UP |
    IFF_RUNNING on "lo"). The namespace has no other interface, so this opens no network."""
    import fcntl
    import socket
    import struct
    siocgifflags, siocsifflags, up_running = 0x8913, 0x8914, 0x1 | 0x40
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        req = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(s.fileno(), siocgifflags, req))[1]
        fcntl.ioctl(s.fileno(), siocsifflags, struct.pack("16sH14x", b"lo", flags | up_running))


def limit_child(limits, set_as, visible=None, cwd=None, net=False, tops=None):
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


_namespaces_ok = {}


def _probe(limits, visible, net):
    probe = dataclasses.replace(limits, address_space_limit=False)
    try:
        return subprocess.run(["true"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, cwd="/", timeout=30, env={"PATH": "/usr/bin:/bin"},
                              preexec_fn=limit_child(probe, False, visible, net=net)).returncode == 0
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
