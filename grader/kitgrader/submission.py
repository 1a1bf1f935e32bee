"""A submission: a folder, a .zip or a .tar.gz, opened into a staging folder the grader owns.

Nothing in a submission is trusted. Only regular files are taken: links, devices and
entries whose path is absolute or climbs with ".." are refused and noted. Sizes are capped
while reading, so an archive that lies about its sizes cannot fill the disk.
"""
import hashlib
import os
import shutil
import stat
import tarfile
import zipfile
from pathlib import Path, PurePosixPath

MAX_FILES = 2000
MAX_FILE_BYTES = 4 << 20
MAX_TOTAL_BYTES = 64 << 20
# Folders that archivers add and that never hold student work.
JUNK = {"__MACOSX", ".DS_Store", ".git", "Thumbs.db"}


class SubmissionError(Exception):
    """The submission cannot be opened at all (not found, not an archive, too big)."""


class _Budget:
    def __init__(self):
        self.files = 0
        self.bytes = 0

    def take(self, size):
        self.files += 1
        self.bytes += size
        if self.files > MAX_FILES or self.bytes > MAX_TOTAL_BYTES:
            raise SubmissionError(f"submission too large (over {MAX_FILES} files or {MAX_TOTAL_BYTES >> 20} MB)")


def safe_relative(name):
    """The entry name as a safe relative path, or None when it is absolute or climbs out."""
    name = name.replace("\\", "/")
    p = PurePosixPath(name)
    if p.is_absolute() or name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return None
    parts = [x for x in p.parts if x not in ("", ".")]
    if not parts or any(x == ".." for x in parts) or any(x in JUNK for x in parts):
        return None
    return PurePosixPath(*parts)


def _write_capped(src, dest, budget, notes, label):
    """Copies the stream src to dest, at most MAX_FILE_BYTES; oversized files are dropped."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    data = src.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        notes.append(f"{label}: larger than {MAX_FILE_BYTES >> 20} MB, ignored")
        return
    budget.take(len(data))
    with open(dest, "wb") as out:
        out.write(data)


def _from_folder(src, dest, notes, budget):
    for dirpath, dirnames, filenames in os.walk(src, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in JUNK and not os.path.islink(os.path.join(dirpath, d)))
        for f in sorted(filenames):
            full = Path(dirpath, f)
            rel = full.relative_to(src).as_posix()
            st = os.lstat(full)
            if not stat.S_ISREG(st.st_mode):
                notes.append(f"{rel}: not a regular file (link or device), ignored")
                continue
            if safe_relative(rel) is None:
                continue
            with open(full, "rb") as fh:
                _write_capped(fh, dest / rel, budget, notes, rel)


def _from_zip(src, dest, notes, budget):
    with zipfile.ZipFile(src) as z:
        for info in z.infolist():
            if info.is_dir():
                continue
            rel = safe_relative(info.filename)
            mode = info.external_attr >> 16
            if rel is None:
                notes.append(f"{info.filename}: path leaves the submission, ignored")
                continue
            if mode and not stat.S_ISREG(mode):
                notes.append(f"{info.filename}: not a regular file (link or device), ignored")
                continue
            with z.open(info) as fh:
                _write_capped(fh, dest / rel, budget, notes, str(rel))


def _from_tar(src, dest, notes, budget):
    with tarfile.open(src, "r:*") as t:
        for member in t:
            if member.isdir():
                continue
            rel = safe_relative(member.name)
            if rel is None:
                notes.append(f"{member.name}: path leaves the submission, ignored")
                continue
            if not member.isfile():
                notes.append(f"{member.name}: not a regular file (link or device), ignored")
                continue
            fh = t.extractfile(member)
            if fh is not None:
                _write_capped(fh, dest / rel, budget, notes, str(rel))


def unpack(src, dest):
    """Copies or extracts submission src into the empty folder dest. Returns notes (strings)."""
    src, dest = Path(src), Path(dest)
    notes, budget = [], _Budget()
    dest.mkdir(parents=True, exist_ok=True)
    if not os.path.lexists(src):
        raise SubmissionError(f"submission {src} not found")
    name = src.name.lower()
    try:
        if src.is_dir() and not src.is_symlink():
            _from_folder(src, dest, notes, budget)
        elif name.endswith(".zip"):
            _from_zip(src, dest, notes, budget)
        elif name.endswith((".tar.gz", ".tgz", ".tar", ".tar.xz", ".tar.bz2")):
            _from_tar(src, dest, notes, budget)
        elif src.is_file():
            with open(src, "rb") as fh:  # one loose file, e.g. a single-file lab
                _write_capped(fh, dest / src.name, budget, notes, src.name)
        else:
            raise SubmissionError(f"submission {src} is neither a folder nor a .zip/.tar.gz")
    except (zipfile.BadZipFile, tarfile.TarError, EOFError, OSError, RuntimeError, NotImplementedError,
            ValueError, UnicodeError) as e:  # damaged, encrypted or oddly compressed archives
        raise SubmissionError(f"cannot open {src.name}: {e}") from e
    return notes


def _bases(root):
    """root, then the single folder it wraps (archives often hold one top folder), and so on."""
    out, cur = [root], root
    for _ in range(3):
        entries = [e for e in cur.iterdir() if e.name not in JUNK]
        if len(entries) == 1 and entries[0].is_dir():
            cur = entries[0]
            out.append(cur)
        else:
            break
    return out


def find_lab_files(root, lab, allow_flat):
    """Where the submission keeps lab's files: {file name: path} and a description.

    Looks for starter/<lab>/ or <lab>/ (at the top or under the one wrapping folder); with
    allow_flat (one lab graded), files lying at the top count too.
    """
    root = Path(root)
    for base in reversed(_bases(root)):
        for cand in (base / "starter" / lab.name, base / lab.name):
            if cand.is_dir():
                return _present(cand, lab), cand.relative_to(root).as_posix() or "."
    if allow_flat:
        for base in reversed(_bases(root)):
            found = _present(base, lab)
            if found:
                return found, base.relative_to(root).as_posix() or "."
    return {}, None


def _present(folder, lab):
    return {f: folder / f for f in lab.student_files if (folder / f).is_file() and not (folder / f).is_symlink()}


def all_files(root):
    root = Path(root)
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def digest(paths):
    """sha256 over the names and contents of the given {name: path} files."""
    h = hashlib.sha256()
    for name in sorted(paths):
        h.update(name.encode() + b"\0" + Path(paths[name]).read_bytes() + b"\0")
    return h.hexdigest()


def fingerprint(src):
    """A cheap identity of a submission as handed in (for resuming a class run)."""
    src = Path(src)
    h = hashlib.sha256()
    if src.is_dir():
        for p in sorted(src.rglob("*")):
            if p.is_file() and not p.is_symlink():
                st = p.stat()
                h.update(f"{p.relative_to(src)}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    elif src.exists():
        st = src.stat()
        h.update(f"{src.name}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    return h.hexdigest()


def clear(path):
    shutil.rmtree(path, ignore_errors=True)
