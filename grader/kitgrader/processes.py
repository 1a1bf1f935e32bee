"""The program's processes: found through /proc (the grader is their child subreaper, so
detached ones come back to it), measured, and killed; and the lock that makes programs of one
--run-as user take turns.
"""
import ctypes
import fcntl
import os
import resource
import signal
import time

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


def group_rss_mb(sid):
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


def become_subreaper():
    """Makes this process the child subreaper: a process that detaches from the untrusted
    program (double fork, setsid) is re-parented here instead of to init, so it is found."""
    global _subreaper
    if _subreaper is None:
        try:
            _subreaper = ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
        except (OSError, AttributeError):
            _subreaper = False
    return _subreaper


def processes():
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


def kill_descendants(run_as=None, deadline_s=10.0):
    """Kills every process below the grader (the grader is a subreaper, so detached ones come
    back here) and, under --run-as, every process of that user. Each round stops them all
    first, so that a chain of forks cannot outrun the killing; rounds go on until none is left."""
    me, end, quiet = os.getpid(), time.monotonic() + deadline_s, 0
    # /proc is not read atomically: a process forked while it is read can be missed, so only
    # several empty rounds in a row end the killing.
    while time.monotonic() < end and quiet < 5:
        procs = processes()
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


def kill_group(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def user_lock(uid):
    """An exclusive lock on the --run-as user, shared by every grader process of this machine:
    each program of that user kills every other process of it when it starts and ends, so two
    gradings with the same user (two `make grade` at once) must take turns, one program at a
    time, or they kill each other's builds and tests."""
    fd = os.open(f"/tmp/kitgrade-user-{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd
