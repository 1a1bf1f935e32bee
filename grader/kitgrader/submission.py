"""A submission: a folder, a .zip or a .tar.gz, opened into a staging folder the grader owns.

Nothing in a submission is trusted. Only regular files are taken: devices and entries whose
path is absolute or climbs with ".." are refused and noted; a link (hard or symbolic) gets
the content of the regular file it points to inside the submission, and is refused and noted
when it points outside it or to nothing. Sizes are capped while reading, so an archive that
lies about its sizes cannot fill the disk, and every limit below is in grader/README.md.
"""
import hashlib
import io
import os
import posixpath
import shutil
import stat
import struct
import tarfile
import zipfile
from pathlib import Path, PurePosixPath

# The limits on one submission (grader/README.md, "Limits", lists each). Reading costs time
# whether or not an entry is kept, so the budgets count ignored entries too.
MAX_UPLOAD_BYTES = 256 << 20  # an archive (or loose file) as handed in
MAX_ENTRIES = 10000           # entries of any kind: files, folders, links
MAX_FILES = 2000              # files read
MAX_FILE_BYTES = 4 << 20      # one file; a larger one is ignored and noted
MAX_TOTAL_BYTES = 64 << 20    # the read budget: bytes read from all files together
MAX_SCAN_BYTES = 1 << 30      # bytes a .tar reader passes over (it decompresses skipped members too)
MAX_PATH_CHARS = 1000         # an entry's path; a longer one is ignored and noted
MAX_PART_BYTES = 255          # one folder or file name in that path (the file systems' limit)
MAX_LINK_BYTES = 4096         # the target of a symbolic link stored in a zip
# Folders that archivers add and that never hold student work.
JUNK = {"__MACOSX", ".DS_Store", ".git", "Thumbs.db"}
README = "see grader/README.md, 'Limits'"


class SubmissionError(Exception):
    """The submission cannot be opened at all (not found, not an archive, too big). The message
    starts with PREFIX: it becomes the first note of the grading, which a class run puts in
    grades.csv."""
    PREFIX = "submission refused: "

    def __init__(self, why):
        super().__init__(self.PREFIX + why)


MAX_NOTES = 20  # per kind of note; the rest are counted


def _mb(n):
    return f"{n / (1 << 20):.0f} MB"


class _Budget:
    """Entries, files and bytes read so far, dropped ones included: every byte read costs time
    (5000 entries overlapping one 4 MB member would otherwise read 20 GB). A refusal names the
    limit and how far the submission got."""

    def __init__(self):
        self.entries = self.files = self.bytes = self.scanned = 0

    @staticmethod
    def _over(what):
        raise SubmissionError(f"too large: {what} ({README})")

    def entry(self, scanned=0):
        """One entry of any kind; scanned: the bytes a reader passes over to get past it."""
        self.entries += 1
        self.scanned += scanned
        if self.entries > MAX_ENTRIES:
            self._over(f"over {MAX_ENTRIES} entries (files, folders and links), the limit on entries")
        if self.scanned > MAX_SCAN_BYTES:
            self._over(f"{_mb(self.scanned)} of archive data to pass over, over the limit of {_mb(MAX_SCAN_BYTES)}")

    def take(self, size):
        self.files += 1
        self.bytes += size
        if self.files > MAX_FILES:
            self._over(f"over {MAX_FILES} files read, the limit on files (ignored ones count too)")
        if self.bytes > MAX_TOTAL_BYTES:
            self._over(f"{_mb(self.bytes)} read after {self.files} files, over the read budget of "
                       f"{_mb(MAX_TOTAL_BYTES)} (ignored, repeated and overlapping entries count too)")


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


def _write_capped(src, dest, rel, budget, notes):
    """Copies the stream src to dest/rel, at most MAX_FILE_BYTES. Returns the file written, or
    None when the entry is ignored (and noted): too large, a name too long, or a path that
    another entry holds (a file where a folder is needed)."""
    label = _printable(str(rel))
    if len(str(rel)) > MAX_PATH_CHARS or any(len(os.fsencode(p)) > MAX_PART_BYTES for p in rel.parts):
        notes.append(f"{label[:80]}...: name longer than {MAX_PATH_CHARS} characters or with a part over "
                     f"{MAX_PART_BYTES} bytes, ignored")
        return None
    data = src.read(MAX_FILE_BYTES + 1)
    budget.take(len(data))
    if len(data) > MAX_FILE_BYTES:
        notes.append(f"{label}: larger than {MAX_FILE_BYTES >> 20} MB, ignored")
        return None
    path = dest / rel
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as out:
            out.write(data)
    except OSError as e:
        notes.append(f"{label}: cannot be written beside the other entries ({e.strerror}), ignored")
        return None
    return path


def _link_target(rel, target, symbolic):
    """Where a link points, as a path inside the submission; None when it points outside. A
    hard link in a tar names its target from the archive's root, a symbolic one from its folder."""
    target = target.replace("\\", "/")
    if target.startswith("/") or (len(target) > 1 and target[1] == ":"):
        return None
    path = posixpath.normpath(posixpath.join(rel.parent.as_posix() if symbolic else "", target))
    return None if path == ".." or path.startswith("../") else PurePosixPath(path)


def _resolve_links(links, dest, budget, notes, taken):
    """Gives each link [(rel, target, symbolic)] the content of the regular file it points to
    inside the submission (taken: {rel: file written}); tar writes a file saved twice as a hard
    link, so dropping links would grade the starter instead of the student's file. Links to
    links are followed. A link that points outside the submission, to nothing taken (missing,
    a folder, an ignored entry) or round a loop is refused and noted."""
    pending = {rel: (target, sym) for rel, target, sym in links}
    while pending:
        where = {rel: _link_target(rel, *v) for rel, v in pending.items()}
        ready = [rel for rel, to in where.items() if to == rel or to not in pending]
        for rel in ready or list(pending):  # none ready: the rest point round a loop
            target, _ = pending.pop(rel)
            label, to = f"{_printable(str(rel))} -> {_printable(target)}", where[rel]
            if not ready:
                notes.append(f"{label}: not a regular file: a link in a loop, refused")
            elif to is None:
                notes.append(f"{label}: not a regular file: a link pointing outside the submission, refused")
            elif to not in taken:
                notes.append(f"{label}: not a regular file: a link to no file of the submission (missing, a folder "
                             "or ignored), refused")
            else:
                with open(taken[to], "rb") as fh:
                    path = _write_capped(fh, dest, rel, budget, notes)
                if path:
                    taken[rel] = path
                    notes.append(f"{label}: not a regular file: a link inside the submission, given that file's content")


def _from_folder(src, dest, notes, budget):
    taken, links = {}, []
    for dirpath, dirnames, filenames in os.walk(src, followlinks=False):
        budget.entry()  # the folder itself
        linked = [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]  # walk lists them as folders
        dirnames[:] = sorted(d for d in dirnames if d not in JUNK and d not in linked)
        for f in sorted(filenames + linked):
            budget.entry()
            full = Path(dirpath, f)
            rel = safe_relative(full.relative_to(src).as_posix())
            if rel is None:
                continue
            if _printable(str(rel)) != str(rel):
                notes.append(f"{_printable(str(rel))}: name is not UTF-8, ignored")
                continue
            st = os.lstat(full)
            if stat.S_ISLNK(st.st_mode):
                links.append((rel, os.readlink(full), True))
            elif not stat.S_ISREG(st.st_mode):
                notes.append(f"{rel}: not a regular file (device, pipe or socket), ignored")
            else:
                with open(full, "rb") as fh:
                    if path := _write_capped(fh, dest, rel, budget, notes):
                        taken[rel] = path
    _resolve_links(links, dest, budget, notes, taken)


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
            data, bad = _utf8_flag_cleared(fh.read(MAX_UPLOAD_BYTES))
        notes += [f"{_printable(b)}: name is not valid UTF-8, ignored" for b in bad]
        z = zipfile.ZipFile(io.BytesIO(data))
        bad_names = {info.filename for info in z.infolist() if not info.flag_bits & 0x800 and
                     any(ord(c) > 127 for c in info.filename)}
    else:
        bad_names = set()
    taken, links = {}, []
    with z:
        for info in z.infolist():
            budget.entry()
            if info.is_dir() or info.filename in bad_names:
                continue
            rel = safe_relative(info.filename)
            mode = info.external_attr >> 16
            if rel is None:
                notes.append(f"{_printable(info.filename)}: path leaves the submission, ignored")
            elif stat.S_ISLNK(mode) and info.file_size <= MAX_LINK_BYTES:  # a zip stores the target as data
                with z.open(info) as fh:
                    target = fh.read(MAX_LINK_BYTES)
                budget.take(len(target))
                links.append((rel, os.fsdecode(target), True))
            # Writers that store permission bits only (Python's writestr: 0o600) mean a plain file.
            elif stat.S_IFMT(mode) and not stat.S_ISREG(mode):
                notes.append(f"{_printable(info.filename)}: not a regular file (a device, a pipe or a link over "
                             f"{MAX_LINK_BYTES} bytes), ignored")
            elif info.file_size > MAX_FILE_BYTES:  # declared too large: not even decompressed
                budget.take(MAX_FILE_BYTES)
                notes.append(f"{_printable(info.filename)}: larger than {MAX_FILE_BYTES >> 20} MB, ignored")
            else:
                with z.open(info) as fh:
                    if path := _write_capped(fh, dest, rel, budget, notes):
                        taken[rel] = path
    _resolve_links(links, dest, budget, notes, taken)


def _from_tar(src, dest, notes, budget):
    taken, links = {}, []
    with tarfile.open(src, "r:*") as t:
        for member in t:
            budget.entry(member.size if member.isfile() else 0)
            if member.isdir():
                continue
            rel = safe_relative(member.name)
            if rel is None:
                notes.append(f"{_printable(member.name)}: path leaves the submission, ignored")
            elif member.islnk() or member.issym():
                links.append((rel, member.linkname, member.issym()))
            elif not member.isfile():
                notes.append(f"{_printable(member.name)}: not a regular file (device or pipe), ignored")
            elif member.size > MAX_FILE_BYTES:  # declared too large: not even read
                budget.take(MAX_FILE_BYTES)
                notes.append(f"{_printable(member.name)}: larger than {MAX_FILE_BYTES >> 20} MB, ignored")
            elif path := _write_capped(t.extractfile(member), dest, rel, budget, notes):
                taken[rel] = path
    _resolve_links(links, dest, budget, notes, taken)


def unpack(src, dest):
    """Copies or extracts submission src into the empty folder dest. Returns notes (strings).
    Raises SubmissionError, and only that, when the submission cannot be opened at all."""
    src, dest = Path(src), Path(dest)
    notes, budget = [], _Budget()
    dest.mkdir(parents=True, exist_ok=True)
    if not os.path.lexists(src):
        raise SubmissionError(f"{_printable(str(src))} not found")
    name = src.name.lower()
    try:
        if src.is_dir() and not src.is_symlink():
            _from_folder(src, dest, notes, budget)
        elif not src.is_file():
            raise SubmissionError(f"{_printable(src.name)} is neither a folder nor a .zip/.tar.gz")
        elif src.stat().st_size > MAX_UPLOAD_BYTES:
            raise SubmissionError(f"too large: the upload is {_mb(src.stat().st_size)}, over the limit of "
                                  f"{_mb(MAX_UPLOAD_BYTES)} ({README})")
        elif name.endswith(".zip"):
            _from_zip(src, dest, notes, budget)
        elif name.endswith((".tar.gz", ".tgz", ".tar", ".tar.xz", ".tar.bz2")):
            _from_tar(src, dest, notes, budget)
        else:
            with open(src, "rb") as fh:  # one loose file, e.g. a single-file lab
                _write_capped(fh, dest, PurePosixPath(src.name), budget, notes)
    except SubmissionError:
        raise
    except Exception as e:  # noqa: BLE001 - a damaged, encrypted or oddly compressed archive, whatever breaks
        reason = " ".join(str(e).split())  # tarfile's reasons span lines: one line for the CSV and the report
        raise SubmissionError(f"cannot open {_printable(src.name)}: {type(e).__name__}: {reason}") from e
    return _cap_notes(notes)


MAX_DEPTH = 6  # folder levels searched for a lab's files, the top one included


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

    Looks for starter/<lab>/ or <lab>/ up to MAX_DEPTH levels deep (a checkout beside a
    README, in folders of folders); with allow_flat (one lab graded), any folder holding the
    lab's files counts too. The folder with the most of the lab's files wins, then the shallowest.
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
    """A cheap identity of a submission as handed in (for resuming a class run). Names are
    hashed as the bytes they are on disk: one that is not UTF-8 must not stop a class run."""
    src = Path(src)
    h = hashlib.sha256()
    if src.is_dir():
        for p in sorted(src.rglob("*")):
            if p.is_file() and not p.is_symlink():
                st = p.stat()
                h.update(os.fsencode(f"{p.relative_to(src)}\0{st.st_size}\0{st.st_mtime_ns}\0"))
    elif src.exists():
        st = src.stat()
        h.update(os.fsencode(f"{src.name}\0{st.st_size}\0{st.st_mtime_ns}"))
    return h.hexdigest()


def clear(path):
    shutil.rmtree(path, ignore_errors=True)
