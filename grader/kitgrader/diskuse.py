"""The program's files: its scratch folder, what it leaves behind, and the disk it uses.
"""
import os
import shutil

from .isolation import SHARED_TMP

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


def fresh_scratch(scratch, run_as):
    remove_tree(scratch)
    os.mkdir(scratch, 0o700)
    if run_as:
        os.chown(scratch, *run_as)


def remove_owned_by(uid):
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


def used_bytes(path):
    try:
        st = os.statvfs(path)
    except OSError:
        return 0
    return (st.f_blocks - st.f_bfree) * st.f_frsize


def tree_bytes(paths):
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


def file_systems(paths):
    """One path per file system among paths (those the program can write to)."""
    out = {}
    for p in paths:
        try:
            out.setdefault(os.stat(p).st_dev, p)
        except OSError:
            continue
    return list(out.values())
