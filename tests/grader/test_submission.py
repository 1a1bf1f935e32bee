#!/usr/bin/env python3
"""Submissions as the real world hands them in: archive writers' quirks, names that are not
UTF-8, archives built to waste time, and lab files in unexpected folders. Each must get an
honest reading (the files taken, or a clear refusal) and never crash the grader.

  test_submission.py        exit status 0 when every check holds (no build needed: seconds)
"""
import io
import json
import os
import struct
import sys
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
        verdict, ok = str(e), "too large" in str(e)
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


def main():
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for check in (writestr_zip, bad_utf8_zip, latin1_folder, overlapping_zip, nested_layouts):
            check(work)
    print(f"test_submission: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
