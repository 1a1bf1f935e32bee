#!/usr/bin/env python3
"""Submissions as the real world hands them in: archive writers' quirks, names that are not
UTF-8, archives built to waste time, links (hard and symbolic) inside and out, and lab files
in unexpected folders. Each must get an honest reading (the files taken, or a clear refusal
that names the limit) and never crash the grader; every limit is in grader/README.md.

  test_submission.py        exit status 0 when every check holds (no build needed: seconds)
"""
import io
import json
import os
import re
import stat
import struct
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

KIT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(KIT / "grader"))
from kitgrader import labs, results, submission  # noqa: E402

LAB = labs.load_lab(KIT / "labs" / "00-basics" / "manifest.json")
failures = []


def expect(cond, what):
    print(("PASS  " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


def unpack(src, work):
    dest = work / f"staged-{len(list(work.iterdir()))}"
    return submission.unpack(src, dest), dest


def writestr_zip(work):
    """Python's writestr: mode 0o600 with no file-type bits is a plain file."""
    z = work / "writestr.zip"
    with zipfile.ZipFile(z, "w") as f:
        f.writestr("csr_cpu.cpp", "// mine\n")
    _, dest = unpack(z, work)
    files, _ = submission.find_lab_files(dest, LAB, True)
    expect(list(files) == ["csr_cpu.cpp"], "a zip written by zipfile.writestr (mode 0o600, no type bits) is read")


def bad_utf8_zip(work):
    """A name that is not UTF-8 under the UTF-8 flag loses that entry only."""
    z = work / "latin1.zip"
    with zipfile.ZipFile(z, "w") as f:
        f.writestr("csr_cpu.cpp", "// mine\n")
        f.writestr("r\u00e9sum\u00e9.txt", "cv\n")
    data = bytearray(z.read_bytes())
    wrong = "r\u00e9sum\u00e9.txt".encode("utf-8")
    # Same length in Latin-1 padded with two spaces, so offsets stay valid; flag 0x800 stays set.
    latin = "r\u00e9sum\u00e9.txt".encode("latin-1") + b"  "
    data = bytearray(bytes(data).replace(wrong, latin))
    z.write_bytes(bytes(data))
    try:
        notes, dest = unpack(z, work)
        files, _ = submission.find_lab_files(dest, LAB, True)
        ok = list(files) == ["csr_cpu.cpp"] and any("not valid UTF-8" in n for n in notes)
    except Exception as e:  # noqa: BLE001 - any exception here is the bug
        ok, notes = False, [repr(e)]
    expect(ok, f"a zip entry whose name is not UTF-8 under the UTF-8 flag is skipped alone ({notes[-1:]})")


def latin1_folder(work):
    """A folder with a Latin-1 file name: graded, and the report can be written."""
    src = work / "latin1-folder"
    (src / "starter" / "00-basics").mkdir(parents=True)
    (src / "starter" / "00-basics" / "csr_cpu.cpp").write_text("// mine\n")
    (src / os.fsdecode("r\u00e9sum\u00e9.txt".encode("latin-1"))).write_text("cv\n")
    notes, dest = unpack(src, work)
    files, _ = submission.find_lab_files(dest, LAB, False)
    grading = {"student": os.fsdecode(b"caf\xe9"), "notes": notes + submission.all_files(dest)}
    try:
        text = json.dumps(results.printable(grading))
        text.encode("utf-8")
        ok = list(files) == ["csr_cpu.cpp"]
    except UnicodeError as e:
        ok = False
        print(f"      {e}")
    expect(ok, "a file name that is not UTF-8 in a folder is graded and written out")


def overlapping_zip(work):
    """5000 entries that all point at one 4 MB member: refused quickly, with few notes."""
    z = work / "overlap.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as f:
        f.writestr("a/csr_cpu.cpp", b"\0" * (4 << 20))
    data = z.read_bytes()
    end = data.rfind(b"PK\x05\x06")
    cd_size, cd_off = struct.unpack_from("<II", data, end + 12)
    entry = data[cd_off:cd_off + cd_size]
    copies = 5000
    tail = bytearray(data[end:])
    struct.pack_into("<HHII", tail, 8, copies, copies, cd_size * copies, cd_off)
    z.write_bytes(data[:cd_off] + entry * copies + bytes(tail))
    t0 = time.monotonic()
    try:
        notes, _ = unpack(z, work)
        verdict = f"opened with {len(notes)} notes"
        ok = len(notes) < 50
    except submission.SubmissionError as e:
        verdict, ok = str(e), "too large" in str(e) and "read budget of 64 MB" in str(e) and "68 MB" in str(e)
    secs = time.monotonic() - t0
    expect(ok and secs < 20, f"5000 overlapping 4 MB entries: {verdict} in {secs:.1f} s")


def nested_layouts(work):
    """A checkout beside a README, and one nested two folders deep, are both found."""
    for name, inner in (("beside-readme", "my-checkout/starter/00-basics"), ("two-deep", "course/spmv-kit/00-basics")):
        src = work / name
        (src / inner).mkdir(parents=True)
        (src / inner / "csr_cpu.cpp").write_text("// mine\n")
        (src / "README.md").write_text("my notes\n")
        _, dest = unpack(src, work)
        files, where = submission.find_lab_files(dest, LAB, False)
        expect(list(files) == ["csr_cpu.cpp"] and where == inner, f"lab files in {inner} beside a README: {where}")


MINE = b"// mine\n"


def add(t, name, data=None, kind=tarfile.REGTYPE, link=""):
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, link
    info.size = len(data) if data is not None else 0
    t.addfile(info, io.BytesIO(data) if data is not None else None)


def staged_file(dest, rel):
    f = dest / rel
    return f.read_bytes() if f.is_file() and not f.is_symlink() else None


def tar_links(work):
    """Links to another member are given its content; links out or to nothing are refused."""
    z = work / "links.tar.gz"
    with tarfile.open(z, "w:gz") as t:
        add(t, "me/backup/csr_cpu.cpp", MINE)
        add(t, "me/starter/00-basics/csr_cpu.cpp", kind=tarfile.LNKTYPE, link="me/backup/csr_cpu.cpp")
        add(t, "me/starter/00-basics/sym.txt", kind=tarfile.SYMTYPE, link="../../backup/csr_cpu.cpp")
        add(t, "me/chain.txt", kind=tarfile.SYMTYPE, link="starter/00-basics/sym.txt")  # a link to a link
        add(t, "me/out-abs", kind=tarfile.SYMTYPE, link="/etc/passwd")
        add(t, "me/out-up", kind=tarfile.SYMTYPE, link="../../outside.cpp")
        add(t, "me/hard-out", kind=tarfile.LNKTYPE, link="../x.cpp")
        add(t, "me/missing", kind=tarfile.LNKTYPE, link="me/nothing.cpp")
        add(t, "me/loop-a", kind=tarfile.SYMTYPE, link="loop-b")
        add(t, "me/loop-b", kind=tarfile.SYMTYPE, link="loop-a")
    notes, dest = unpack(z, work)
    files, where = submission.find_lab_files(dest, LAB, False)
    expect(list(files) == ["csr_cpu.cpp"] and files["csr_cpu.cpp"].read_bytes() == MINE
           and any(n.startswith("me/starter/00-basics/csr_cpu.cpp -> ") and "content" in n for n in notes),
           f"a tar whose student file is a hard link to another member: that member's content is graded ({where})")
    expect(staged_file(dest, "me/starter/00-basics/sym.txt") == MINE and staged_file(dest, "me/chain.txt") == MINE,
           "symbolic links to a member, and to a link to it, get its content")
    refused = {n.split(" -> ")[0]: n for n in notes if "refused" in n}
    outside = all("pointing outside the submission" in refused.get(f"me/{n}", "")
                  for n in ("out-abs", "out-up", "hard-out"))
    missing = "link to no file of the submission" in refused.get("me/missing", "")
    loop = all("link in a loop" in refused.get(f"me/loop-{n}", "") for n in "ab")
    nothing_out = not any((dest / "me" / n).exists() for n in ("out-abs", "out-up", "hard-out", "missing", "loop-a"))
    expect(outside and missing and loop and nothing_out,
           f"links out of the archive, to a missing member or round a loop are refused with a note ({sorted(refused)})")


def zip_and_folder_links(work):
    """A symbolic link stored in a zip, and one in a folder, inside: resolved; outside: refused."""
    z = work / "zlink.zip"
    with zipfile.ZipFile(z, "w") as f:
        f.writestr("src/csr_cpu.cpp", MINE)
        for name, target in (("00-basics/csr_cpu.cpp", "../src/csr_cpu.cpp"), ("escape", "../../etc/passwd")):
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            f.writestr(info, target)
    notes, dest = unpack(z, work)
    files, _ = submission.find_lab_files(dest, LAB, False)
    expect(list(files) == ["csr_cpu.cpp"] and files["csr_cpu.cpp"].read_bytes() == MINE
           and any(n.startswith("escape -> ") and "outside" in n for n in notes),
           "a zip's symbolic link to a member is resolved, one out of the zip refused")
    src = work / "linked-folder"
    (src / "mine").mkdir(parents=True)
    (src / "00-basics").mkdir()
    (src / "mine" / "csr_cpu.cpp").write_bytes(MINE)
    os.symlink("../mine/csr_cpu.cpp", src / "00-basics" / "csr_cpu.cpp")
    os.symlink("/etc/passwd", src / "secret")
    notes, dest = unpack(src, work)
    files, _ = submission.find_lab_files(dest, LAB, False)
    expect(list(files) == ["csr_cpu.cpp"] and files["csr_cpu.cpp"].read_bytes() == MINE
           and not (dest / "secret").exists() and any(n.startswith("secret -> ") for n in notes),
           "a folder's symbolic link inside it is resolved, one to /etc/passwd refused")


def refusal(src, work):
    try:
        unpack(src, work)
        return "(opened)"
    except submission.SubmissionError as e:
        return str(e)


def limits(work):
    """Each limit: the refusal (or note) names it and the figure reached."""
    z = work / "many-files.zip"
    with zipfile.ZipFile(z, "w") as f:
        for i in range(2001):
            f.writestr(f"f{i}.txt", "x")
    why = refusal(z, work)
    expect(why.startswith("submission refused: too large: over 2000 files read"), f"2001 files: {why}")
    t = work / "many-entries.tar"
    with tarfile.open(t, "w") as f:
        for i in range(10001):
            add(f, f"d{i}", kind=tarfile.DIRTYPE)
    why = refusal(t, work)
    expect("over 10000 entries" in why, f"10001 folders in a tar: {why}")
    old, submission.MAX_UPLOAD_BYTES = submission.MAX_UPLOAD_BYTES, 1000
    try:
        big = work / "big.zip"
        big.write_bytes(b"\0" * 2048)
        why = refusal(big, work)
    finally:
        submission.MAX_UPLOAD_BYTES = old
    expect("the upload is 0 MB, over the limit of 0 MB" in why, f"an upload over the size limit (lowered): {why}")
    z = work / "names.zip"
    with zipfile.ZipFile(z, "w") as f:
        f.writestr("csr_cpu.cpp", MINE)
        f.writestr("a" * 300 + ".cpp", "x")
        f.writestr("big.bin", b"\0" * ((4 << 20) + 1))
        f.writestr("clash", "x")
        f.writestr("clash/inside.txt", "x")
    notes, dest = unpack(z, work)
    expect(staged_file(dest, "csr_cpu.cpp") == MINE and any("name longer than 1000 characters or with a part over "
                                                             "255 bytes" in n for n in notes)
           and any(n.startswith("big.bin: larger than 4 MB") for n in notes)
           and any(n.startswith("clash/inside.txt: cannot be written") for n in notes),
           f"a name too long, a file over 4 MB, a file where a folder must be: noted alone ({len(notes)} notes)")


def damaged(work):
    """A damaged archive is refused (SubmissionError), whatever breaks inside the reader."""
    z = work / "damaged.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as f:
        f.writestr("csr_cpu.cpp", os.urandom(3000))
    data = bytearray(z.read_bytes())
    data[41] = 0x07  # the deflate stream (after the 30-byte header and the name) opens with an invalid block
    z.write_bytes(bytes(data))
    t = work / "damaged.tar.gz"
    t.write_bytes(b"\x1f\x8b\x08\x00" + os.urandom(500))
    whys = [refusal(x, work) for x in (z, t)]
    expect(all(w.startswith("submission refused: cannot open") for w in whys), f"damaged archives: {whys}")
    name = work / os.fsdecode(b"caf\xe9.zip")
    name.write_bytes(b"x")
    (work / "latin-dir").mkdir()
    (work / "latin-dir" / os.fsdecode(b"r\xe9sum\xe9.txt")).write_text("x")
    expect(len(submission.fingerprint(name) + submission.fingerprint(work / "latin-dir")) == 128,
           "the fingerprint of a name that is not UTF-8 (an upload, a file in a folder)")


def readme_limits(work):
    """grader/README.md's "What a submission is" states every limit, with the figure the code uses."""
    text = (KIT / "grader" / "README.md").read_text()
    section = text.split("## What a submission is", 1)[1].split("\n## ", 1)[0]
    figures = {"MAX_UPLOAD_BYTES": f"{submission.MAX_UPLOAD_BYTES >> 20} MB",
               "MAX_ENTRIES": f"{submission.MAX_ENTRIES}", "MAX_FILES": f"{submission.MAX_FILES}",
               "MAX_FILE_BYTES": f"{submission.MAX_FILE_BYTES >> 20} MB",
               "MAX_TOTAL_BYTES": f"{submission.MAX_TOTAL_BYTES >> 20} MB",
               "MAX_SCAN_BYTES": f"{submission.MAX_SCAN_BYTES >> 30} GB",
               "MAX_PATH_CHARS": f"{submission.MAX_PATH_CHARS}", "MAX_PART_BYTES": f"{submission.MAX_PART_BYTES}",
               "MAX_LINK_BYTES": f"{submission.MAX_LINK_BYTES}", "MAX_DEPTH": f"{submission.MAX_DEPTH}",
               "MAX_NOTES": f"{submission.MAX_NOTES}"}
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(MAX_\w+)` \| ([^|]+) \|", section, re.M)}
    code = set(re.findall(r"^(MAX_\w+) =", (KIT / "grader" / "kitgrader" / "submission.py").read_text(), re.M))
    wrong = [k for k, v in figures.items() if v not in rows.get(k, "")] + sorted(code - set(figures))
    expect(not wrong, f"README's limits table names every limit with its figure (missing or wrong: {wrong})")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for check in (writestr_zip, bad_utf8_zip, latin1_folder, overlapping_zip, nested_layouts, tar_links,
                      zip_and_folder_links, limits, damaged, readme_limits):
            check(work)
    print(f"test_submission: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
