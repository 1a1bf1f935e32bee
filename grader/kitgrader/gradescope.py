"""The Gradescope autograder zip: setup.sh and run_autograder at its root, the kit under kit/.

The zip is for the instructor to upload; it holds the hidden tests (setup.sh builds them,
then deletes their sources inside the image). It leaves out reference/, the grader's own
fixtures and every build folder.
"""
import os
import stat
import zipfile
from pathlib import Path

from . import labs as labsmod

KIT_PARTS = ("Makefile", "labs", "tests", "scripts", "matrices", "starter", "grader")
LEAVE_OUT = ("tests/grader", "grader/ci")
TEMPLATES = Path(__file__).resolve().parent.parent / "gradescope"


def _kit_files(kit):
    for part in KIT_PARTS:
        top = kit / part
        if top.is_file():
            yield part
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            rel = Path(dirpath).relative_to(kit).as_posix()
            dirnames[:] = sorted(d for d in dirnames if f"{rel}/{d}" not in LEAVE_OUT and d != "__pycache__")
            for f in sorted(filenames):
                if not f.endswith(".pyc"):
                    yield f"{rel}/{f}"


def _add(z, arcname, data, executable=False):
    info = zipfile.ZipInfo(arcname, date_time=(2024, 1, 1, 0, 0, 0))
    info.external_attr = ((0o755 if executable else 0o644) | stat.S_IFREG) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    z.writestr(info, data)


def build_zip(kit, lab, zip_path, args=None):
    """Writes the autograder zip for lab ('all' or NN-name[,..])."""
    labsmod.select(labsmod.discover(kit), lab)  # an unknown lab fails here, before any zip exists
    zip_path = Path(zip_path)
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = zip_path.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w") as z:
        for name in ("setup.sh", "run_autograder"):
            text = (TEMPLATES / name).read_text().replace("@LAB@", lab)
            _add(z, name, text, executable=True)
        for rel in _kit_files(kit):
            mode = (kit / rel).stat().st_mode
            _add(z, f"kit/{rel}", (kit / rel).read_bytes(), executable=bool(mode & 0o111))
    tmp.replace(zip_path)
    print(f"gradescope: {zip_path} (lab {lab}): upload it as the autograder; "
          "setup.sh and run_autograder are at its root")
    return zip_path
