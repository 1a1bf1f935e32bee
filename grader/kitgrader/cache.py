"""The prebuilt instructor tree, so that only a student's own files compile per submission.

  CACHE/tree/       the instructor's Makefile, labs/, tests/, scripts/, matrices/ and starter/,
                    synced from the kit and built there with IMPL=starter (make rebuilds only
                    what changed). After the build, hidden test sources are replaced by stubs
                    dated 1970: their objects stay, so make never needs the sources again.
  CACHE/public-matrices/  a copy of matrices/, the only part of the cache that student code
                    needs: the tests read their matrices from here (built with
                    MATRICES_DIR=CACHE/public-matrices), so it is world-readable while the
                    rest of the cache is the instructor's alone (CACHE 711, everything else
                    in it 700 or 600: it can be passed through, not listed)
  CACHE/stamp.json  what was built: source fingerprint, make variables, labs, file snapshot

Each submission gets a fresh copy of tree/ (cp -a keeps the dates, so make sees every kit
and test object up to date). The test objects hold the absolute path of public-matrices/,
so the cache must stay where it was built.
"""
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

from . import VERSION

TREE_PARTS = ("Makefile", "labs", "tests", "scripts", "matrices", "starter")
SKIP_PARTS = ("tests/grader",)  # the grader's own fixtures hold reference code
STUB = "// Withheld from grading trees: the object file was built by the instructor.\n"


class CacheError(Exception):
    """The instructor side cannot be prepared (a kit problem, not the student's)."""


def _kit_files(kit_root):
    """Relative paths of every kit file a grading tree needs."""
    out = []
    for part in TREE_PARTS:
        top = Path(kit_root, part)
        if top.is_file():
            out.append(part)
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            rel_dir = Path(dirpath).relative_to(kit_root).as_posix()
            # matrices/ subfolders hold downloads for the benchmark (matrices/download, collect-real)
            dirnames[:] = sorted(d for d in dirnames if f"{rel_dir}/{d}" not in SKIP_PARTS and d != "__pycache__"
                                 and rel_dir != "matrices")
            out.extend(f"{rel_dir}/{f}" for f in sorted(filenames))
    return out


def detect_sm():
    """Compute capability of the local GPU ('90'), or None."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30).stdout.split()
        return out[0].replace(".", "") if out else None
    except (OSError, subprocess.SubprocessError):
        return None


def make_vars(sm=None, cuda=True):
    """The make variables every build of a grading tree uses (one GPU architecture)."""
    v = {"BUILD": "build", "IMPL": "starter", "SM": sm or detect_sm() or "90"}
    if not cuda:
        v["NVCC"] = ""
    return v


def lab_targets(tree, lab):
    bins = [f"build/starter/bin/test_{lab}"]
    if list(Path(tree, "tests", "hidden", lab).glob("*.cpp")):
        bins.append(f"build/starter/bin/test_{lab}_hidden")
    return bins


PUBLIC_BCSR_PROFILE = "bcsr_profile_default.txt"  # in public-matrices/, see _sync_public_matrices


class Cache:
    def __init__(self, kit_root, cache_dir, mvars, jobs=2, log=print):
        self.kit = Path(kit_root).resolve()
        self.dir = Path(cache_dir).resolve()
        self.tree, self.stamp_path = self.dir / "tree", self.dir / "stamp.json"
        self.public_matrices = self.dir / "public-matrices"
        # The tests open the matrices by a path compiled in: one outside the private tree.
        self.vars = {**mvars, "MATRICES_DIR": str(self.public_matrices),
                     "BCSR_DEFAULT_PROFILE": str(self.public_matrices / PUBLIC_BCSR_PROFILE)}
        self.jobs, self.log = jobs, log

    # ------------------------------------------------------------ state
    def stamp(self):
        try:
            return json.loads(self.stamp_path.read_text())
        except (OSError, ValueError):
            return None

    def features(self):
        """What make detects on this machine (CUDA, OpenCL): a change means another build."""
        probe = "kitgrade-features: ; @echo cuda=$(HAVE_CUDA) opencl=$(HAVE_OPENCL) gtest=$(HAVE_GTEST)"
        try:
            return subprocess.run(["make", "-s", "-C", str(self.kit), f"--eval={probe}",
                                   *[f"{k}={v}" for k, v in self.vars.items()], "kitgrade-features"],
                                  capture_output=True, text=True, timeout=60).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    def fingerprint(self):
        h = hashlib.sha256(f"{VERSION}\0{sorted(self.vars.items())}\0{os.environ.get('CXX', '')}\0"
                           f"{self.features()}".encode())
        for rel in _kit_files(self.kit):
            h.update(rel.encode() + b"\0" + Path(self.kit, rel).read_bytes() + b"\0")
        return h.hexdigest()

    def snapshot(self):
        return self._snapshot_of(self.tree)

    @staticmethod
    def _snapshot_of(tree):
        """sha256 and mtime of every file of the template, to notice anything that wrote to it
        (a rewritten object whose size and date were put back included)."""
        snap = {}
        for dirpath, _, filenames in os.walk(tree):
            for f in filenames:
                p = os.path.join(dirpath, f)
                st = os.lstat(p)
                digest = hashlib.sha256(open(p, "rb").read()).hexdigest() if os.path.isfile(p) else "-"
                snap[os.path.relpath(p, tree)] = [digest, st.st_mtime_ns]
        return snap

    def intact(self):
        s = self.stamp()
        return (bool(s) and self.tree.is_dir() and s.get("snapshot") == self.snapshot()
                and s.get("public_matrices", {}) == self._snapshot_of(self.public_matrices))

    # ------------------------------------------------------------ who may read what
    def _protect(self):
        """CACHE can be passed through but not listed; only public-matrices/ is readable by
        others (the test programs, run as --run-as, open their matrices there)."""
        os.chmod(self.dir, 0o711)
        for e in os.scandir(self.dir):
            if e.name == self.public_matrices.name or e.is_symlink():
                continue
            os.chmod(e.path, 0o700 if e.is_dir() else 0o600)
        if self.public_matrices.is_dir():
            for dirpath, _, filenames in os.walk(self.public_matrices):
                os.chmod(dirpath, 0o755)
                for f in filenames:
                    os.chmod(os.path.join(dirpath, f), 0o644)

    def _sync_public_matrices(self):
        """public-matrices/ made of the kit's matrices/*.mtx (the files the tests read; not the
        subfolders, where matrices/download and matrices/collect-real put gigabytes for the
        benchmark), plus lab 05's shipped BCSR profile, the one other file the tests read at run time."""
        src = self.kit / "matrices"
        tmp = self.dir / ".public-matrices.new"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        for f in sorted(src.glob("*.mtx")):
            if f.is_file() and not f.is_symlink():
                shutil.copyfile(f, tmp / f.name)
        profile = self.kit / "labs" / "05-bcsr" / "profile_default.txt"
        if profile.is_file():
            shutil.copyfile(profile, tmp / PUBLIC_BCSR_PROFILE)
        shutil.rmtree(self.public_matrices, ignore_errors=True)
        os.rename(tmp, self.public_matrices)

    def lab_status(self, lab):
        return ((self.stamp() or {}).get("labs") or {}).get(lab)

    # ------------------------------------------------------------ building
    def ensure(self, labs, frozen=False):
        """Makes sure the template holds every lab in labs, up to date with the kit."""
        self.dir.mkdir(parents=True, exist_ok=True)
        with open(self.dir / ".lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            s = self.stamp()
            if frozen:
                if not s or not self.tree.is_dir():
                    raise CacheError(f"no prebuilt grading tree in {self.dir}: run 'grade.py prebuild' first")
                if s.get("snapshot") != self.snapshot():
                    raise CacheError(f"the grading tree in {self.dir} was modified after it was built")
                if s.get("public_matrices", {}) != self._snapshot_of(self.public_matrices):
                    raise CacheError(f"the public matrices in {self.public_matrices} were modified after the build")
                self._protect()
                return
            self._protect()
            fp = self.fingerprint()
            now = self.snapshot()
            if s and s.get("snapshot") and s["snapshot"] != now:
                # Build outputs changed after the build (by student code?): remove them, make redoes them.
                for rel, entry in now.items():
                    if rel.startswith("build" + os.sep) and s["snapshot"].get(rel) != entry:
                        (self.tree / rel).unlink(missing_ok=True)
            same = (bool(s) and s.get("fingerprint") == fp and s.get("snapshot") == now
                    and s.get("public_matrices") == self._snapshot_of(self.public_matrices))
            # A lab whose instructor build failed is tried again (the failure may be passing).
            if not (same and all(s.get("labs", {}).get(l) == "ok" for l in labs)):
                known = list(s.get("labs", {})) if s else []
                # Stubs stand in only for objects built with the same make variables.
                stubbed = s.get("hidden_sources", {}) if s and s.get("vars") == self.vars else {}
                self._build(sorted(set(labs) | set(known)), fp, stubbed)

    def _sync(self, stubbed):
        """Brings tree/ up to date with the kit. A file whose content changed is written anew,
        dated now, so make rebuilds exactly what depends on it. A hidden source whose kit copy
        has not changed since it was stubbed stays a stub while its object exists."""
        wanted = set(_kit_files(self.kit))
        for rel in sorted(wanted):
            src, dst = self.kit / rel, self.tree / rel
            sst = src.stat()
            if stubbed.get(rel) == [sst.st_size, sst.st_mtime_ns] and self._object_of(rel).exists():
                continue
            data = src.read_bytes()
            if dst.is_file() and dst.stat().st_size == len(data) and dst.read_bytes() == data:
                continue
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.unlink(missing_ok=True)
            dst.write_bytes(data)
            shutil.copymode(src, dst)
        for dirpath, _, filenames in os.walk(self.tree):
            for f in filenames:
                rel = os.path.relpath(os.path.join(dirpath, f), self.tree)
                if not rel.startswith("build" + os.sep) and rel not in wanted:
                    os.unlink(os.path.join(dirpath, f))

    def _build(self, labs, fp, stubbed):
        t0 = time.monotonic()
        self.log(f"grader: preparing the instructor build in {self.dir} (labs: {', '.join(labs)})")
        self.stamp_path.unlink(missing_ok=True)  # an interrupted build must not look finished
        self._sync(stubbed)
        self._sync_public_matrices()
        self._protect()
        status = {}
        for lab in labs:
            cmd = ["make", "-C", str(self.tree), f"-j{self.jobs}", *[f"{k}={v}" for k, v in self.vars.items()],
                   *lab_targets(self.tree, lab)]
            log_path = self.dir / f"prebuild-{lab}.log"
            with open(log_path, "w") as logf:
                rc = subprocess.run(cmd, stdout=logf, stderr=subprocess.STDOUT).returncode
            status[lab] = "ok" if rc == 0 else f"the instructor build of this lab failed (make exit {rc}; see {log_path})"
            if rc == 0:
                status[lab] = self._check_tests(lab)
            self.log(f"grader:   {lab}: {status[lab]}")
        if stubbed and any(v.startswith("the instructor build lacks") for v in status.values()):
            self.log("grader: some tests are missing: building again from every hidden test source")
            return self._build(labs, fp, {})
        judges = self._keep_judges()
        shutil.rmtree(self.tree / "build" / "starter", ignore_errors=True)  # the starter's own test binaries
        # Hidden sources leave the template: a stub where the object was built, nothing otherwise.
        hidden = {}
        for p in sorted((self.tree / "tests" / "hidden").rglob("*")):
            if p.is_file():
                rel = p.relative_to(self.tree).as_posix()
                if self._object_of(rel).exists():
                    kst = (self.kit / rel).stat()
                    hidden[rel] = [kst.st_size, kst.st_mtime_ns]
                    p.write_text(STUB)
                    os.utime(p, (0, 0))
                else:
                    p.unlink()
        stamp = {"fingerprint": fp, "vars": self.vars, "labs": status, "built": time.strftime("%Y-%m-%d %H:%M:%S"),
                 "grader_version": VERSION, "hidden_sources": hidden, "snapshot": self.snapshot(), "judges": judges,
                 "public_matrices": self._snapshot_of(self.public_matrices)}
        self.stamp_path.write_text(json.dumps(stamp))
        self._protect()
        self.log(f"grader: instructor build ready in {time.monotonic() - t0:.0f} s")

    def _keep_judges(self):
        """The test programs linked with the starter, kept in CACHE/judges/ before the template
        loses them: the judge of each grading (the same tests, which replay what the student's
        build recorded and decide). Returns {binary: sha256}, checked before each use."""
        judges = self.dir / "judges"
        shutil.rmtree(judges, ignore_errors=True)
        judges.mkdir()
        sums = {}
        for p in sorted((self.tree / "build" / "starter" / "bin").glob("test_*")):
            shutil.copyfile(p, judges / p.name)
            os.chmod(judges / p.name, 0o500)
            sums[p.name] = hashlib.sha256((judges / p.name).read_bytes()).hexdigest()
        return sums

    def judge(self, binary):
        """(path, sha256) of the judge for a test binary, or (None, None) when it was not built."""
        digest = ((self.stamp() or {}).get("judges") or {}).get(binary)
        path = self.dir / "judges" / binary
        return (path, digest) if digest and path.is_file() else (None, None)

    def _object_of(self, rel):
        from .symbols import object_dir
        return self.tree / object_dir(self.tree) / (rel + ".o")

    def _check_tests(self, lab):
        """'ok' when the built binaries hold every test of the lab's manifest."""
        from .labs import listed_tests, load_lab, manifest_path
        want = load_lab(manifest_path(self.kit, lab)).binaries()
        missing = []
        for binary, tests in want.items():
            path = self.tree / "build" / "starter" / "bin" / binary
            try:
                listed = subprocess.run([str(path), "--gtest_list_tests"], capture_output=True, text=True,
                                        timeout=60).stdout
            except (OSError, subprocess.SubprocessError):
                listed = ""
            have = listed_tests(listed)
            missing += [t.name for t in tests if t.name not in have]
        if missing:
            return f"the instructor build lacks manifest tests: {', '.join(missing[:5])}"
        return "ok"

    def copy_tree(self, dest):
        """A fresh grading tree at dest; never a half-rebuilt one (grade tasks may run in parallel)."""
        with open(self.dir / ".lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_SH)
            subprocess.run(["cp", "-a", str(self.tree), str(dest)], check=True)
            stamp = self.stamp() or {}
            want = stamp.get("snapshot")
            if stamp.get("public_matrices", {}) != self._snapshot_of(self.public_matrices):
                want = None  # the matrices every test reads were changed: no grading from them
        # The copy is checked, not only the template: a template changed by an earlier
        # submission's code must never reach the next student's build.
        if want is None or self._snapshot_of(dest) != want:
            raise CacheError(f"the prebuilt grading tree in {self.dir} does not match what was built: "
                             "it was modified (run 'grade.py prebuild' again)")
