"""A submission: a folder, a .zip or a .tar.gz, opened into a staging folder the grader owns.

Nothing in a submission is trusted. Only regular files are taken: links, devices and
entries whose path is absolute or climbs with ".." are refused and noted. Sizes are capped
while reading, so an archive that lies about its sizes cannot fill the disk.
"""
import hashlib
import io
import os
import shutil
import stat
import struct
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


MAX_NOTES = 20  # per kind of note; the rest are counted


class _Budget:
    """Files and bytes read so far, dropped ones included: every byte read costs time."""

    def __init__(self):
        self.files = 0
        self.bytes = 0

    def take(self, size):
        self.files += 1
        self.bytes += size
        if self.files > MAX_FILES or self.bytes > MAX_TOTAL_BYTES:
            raise SubmissionError(f"submission too large (over {MAX_FILES} files or {MAX_TOTAL_BYTES >> 20} MB "
                                  "read, entries that were ignored included)")


def _printable(name):
    """A name as text that can always be written out (names that are not UTF-8 included)."""
    if isinstance(name, bytes):
        name = name.decode("utf-8", "replace")
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _cap_notes(notes):
    """At most MAX_NOTES notes of each kind (the text after the name), then one count."""
    kinds, out, dropped = {}, [], {}
    for n in notes:
        kind = n.split(": ", 1)[-1]
        kinds[kind] = kinds.get(kind, 0) + 1
        if kinds[kind] <= MAX_NOTES:
            out.append(n)
        else:
            dropped[kind] = dropped.get(kind, 0) + 1
    out += [f"... and {k} more entries: {kind}" for kind, k in dropped.items()]
    return out


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
    budget.take(len(data))
    if len(data) > MAX_FILE_BYTES:
        notes.append(f"{_printable(label)}: larger than {MAX_FILE_BYTES >> 20} MB, ignored")
        return
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
                notes.append(f"{_printable(rel)}: not a regular file (link or device), ignored")
                continue
            if safe_relative(rel) is None:
                continue
            if _printable(rel) != rel:
                notes.append(f"{_printable(rel)}: name is not UTF-8, ignored")
                continue
            with open(full, "rb") as fh:
                _write_capped(fh, dest / rel, budget, notes, rel)


def _utf8_flag_cleared(data):
    """The zip's bytes with the UTF-8 flag cleared on central-directory entries whose name is
    not valid UTF-8 (zipfile refuses the whole archive for one such name), and those names."""
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - (1 << 16) - 22))
    if end < 0:
        return data, []
    count, _, offset = struct.unpack_from("<HII", data, end + 10)
    out, bad, pos = bytearray(data), [], offset
    for _ in range(count):
        if data[pos:pos + 4] != b"PK\x01\x02":
            break
        flags, = struct.unpack_from("<H", data, pos + 8)
        n, m, k = struct.unpack_from("<HHH", data, pos + 28)
        name = data[pos + 46:pos + 46 + n]
        if flags & 0x800:
            try:
                name.decode("utf-8")
            except UnicodeDecodeError:
                struct.pack_into("<H", out, pos + 8, flags & ~0x800)
                bad.append(name.decode("utf-8", "replace"))
        pos += 46 + n + m + k
    return bytes(out), bad


def _from_zip(src, dest, notes, budget):
    try:
        z = zipfile.ZipFile(src)
    except UnicodeDecodeError:
        with open(src, "rb") as fh:
            data, bad = _utf8_flag_cleared(fh.read(MAX_TOTAL_BYTES * 4))
        notes += [f"{_printable(b)}: name is not valid UTF-8, ignored" for b in bad]
        z = zipfile.ZipFile(io.BytesIO(data))
        bad_names = {info.filename for info in z.infolist() if not info.flag_bits & 0x800 and
                     any(ord(c) > 127 for c in info.filename)}
    else:
        bad_names = set()
    with z:
        for info in z.infolist():
            if info.is_dir() or info.filename in bad_names:
                continue
            rel = safe_relative(info.filename)
            mode = info.external_attr >> 16
            if rel is None:
                notes.append(f"{_printable(info.filename)}: path leaves the submission, ignored")
                continue
            # Writers that store permission bits only (Python's writestr: 0o600) mean a plain file.
            if stat.S_IFMT(mode) and not stat.S_ISREG(mode):
                notes.append(f"{_printable(info.filename)}: not a regular file (link or device), ignored")
                continue
            if info.file_size > MAX_FILE_BYTES:  # declared too large: not even decompressed
                budget.take(MAX_FILE_BYTES)
                notes.append(f"{_printable(info.filename)}: larger than {MAX_FILE_BYTES >> 20} MB, ignored")
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
                notes.append(f"{_printable(member.name)}: path leaves the submission, ignored")
                continue
            if not member.isfile():
                notes.append(f"{_printable(member.name)}: not a regular file (link or device), ignored")
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
            ValueError, UnicodeError, struct.error) as e:  # damaged, encrypted or oddly compressed archives
        raise SubmissionError(f"cannot open {_printable(src.name)}: {e}") from e
    return _cap_notes(notes)


MAX_DEPTH = 6


def _folders(root):
    """Every folder of the submission, shallowest first (junk folders left out)."""
    out, level = [], [Path(root)]
    for _ in range(MAX_DEPTH):
        out += level
        level = sorted(d for f in level for d in f.iterdir()
                       if d.is_dir() and not d.is_symlink() and d.name not in JUNK)
    return out


def find_lab_files(root, lab, allow_flat):
    """Where the submission keeps lab's files: {file name: path} and a description.

    Looks for starter/<lab>/ or <lab>/ at any depth (a checkout beside a README, in folders
    of folders); with allow_flat (one lab graded), any folder holding the lab's files counts
    too. The folder with the most of the lab's files wins, then the shallowest.
    """
    root = Path(root)
    folders = _folders(root)
    best = None
    for rule in ("named", "flat"):
        if rule == "flat" and (best or not allow_flat):
            break
        for f in folders:
            if rule == "named" and f.name != lab.name:
                continue
            found = _present(f, lab)
            if found and (best is None or len(found) > len(best[0])):
                best = (found, f)
    if best is None:
        return {}, None
    return best[0], best[1].relative_to(root).as_posix() or "."


def _present(folder, lab):
    return {f: folder / f for f in lab.student_files if (folder / f).is_file() and not (folder / f).is_symlink()}


def all_files(root):
    root = Path(root)
    return sorted(_printable(p.relative_to(root).as_posix()) for p in root.rglob("*") if p.is_file())


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
