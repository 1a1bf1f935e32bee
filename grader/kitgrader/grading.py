"""Grading one submission: open it, copy the prebuilt tree, drop in the student's files
(only those the manifest names), build each lab, run its test binaries, score, write.
"""
import fcntl
import os
import shutil
import socket
import stat
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import cache as cachemod, gtest, labs as labsmod, results, sandbox, scoring, submission, symbols


@dataclass
class Options:
    kit: Path
    cache_dir: Path
    lab: str = "all"
    sm: str = None
    cuda: bool = True
    frozen_cache: bool = False
    limits: sandbox.Limits = field(default_factory=sandbox.Limits)
    build_timeout_s: float = 600.0
    build_memory_mb: int = 8192
    jobs: int = 2
    retry: bool = True
    symbol_check: bool = True
    work_root: str = None
    keep_work: bool = False
    student: str = None
    quiet: bool = False


SHARED_TMP_NOTE = ("WARNING: no private /tmp, /var/tmp and /dev/shm here (this machine allows no mount namespace): "
                   "the student's code shared them with the machine, so it could have seen or left files there, "
                   "nothing was hidden from it and it had the network; "
                   "check the submission by hand or grade it where namespaces work")


WORK_PREFIX = "kitgrade-"
WORK_LOCK = ".grading.lock"


def make_work_dir(root=None):
    """A fresh per-submission folder, with a lock held for as long as this process lives (the
    kernel drops it when the process dies, however it dies). Returns (folder, open lock file).
    The lock file is locked before it takes its name, so no sweep can see it unlocked."""
    work = Path(tempfile.mkdtemp(prefix=WORK_PREFIX, dir=root))
    fd = os.open(work / (WORK_LOCK + ".new"), os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.rename(work / (WORK_LOCK + ".new"), work / WORK_LOCK)
    return work, fd


def sweep_stale_work(root=None):
    """Removes the per-submission folders of gradings that were killed (a class run stopped
    with kill -9, a node lost): those whose lock nobody holds. A folder without a lock file
    (another tool's, or one being made) is left alone. Returns the folders removed."""
    root = Path(root or tempfile.gettempdir())
    removed = []
    try:
        entries = [e for e in os.scandir(root) if e.name.startswith(WORK_PREFIX)]
    except OSError:
        return removed
    for e in entries:
        try:
            if not e.is_dir(follow_symlinks=False) or e.stat(follow_symlinks=False).st_uid != os.geteuid():
                continue
            fd = os.open(os.path.join(e.path, WORK_LOCK), os.O_RDWR | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue  # a live grading holds it
        try:
            sandbox.remove_tree(e.path)
            removed.append(e.path)
        finally:
            os.close(fd)
    return removed


def student_name(sub):
    name = Path(sub).name
    for ext in (".tar.gz", ".tgz", ".tar", ".zip"):
        if name.lower().endswith(ext):
            return name[: -len(ext)]
    return name or "submission"


class Grader:
    def __init__(self, opts):
        self.o = opts
        self.log = (lambda *_: None) if opts.quiet else (lambda m: print(m, flush=True))
        self.all_labs = labsmod.discover(opts.kit)
        self.labs = labsmod.select(self.all_labs, opts.lab)
        self.cache = cachemod.Cache(opts.kit, opts.cache_dir, cachemod.make_vars(opts.sm, opts.cuda), opts.jobs,
                                    self.log)
        self.vars = self.cache.vars
        stamp = self.cache.stamp()
        if opts.frozen_cache and stamp:
            # Build exactly as the prebuilt tree was built, or make would rebuild all of it.
            self.vars = self.cache.vars = stamp["vars"]
        self.gpu = sandbox.has_gpu_device()
        self._trusted = {}  # lab -> symbols.TrustedSymbols of the instructor's objects
        # Folders student code must never read, covered in the mount namespace of each of its
        # builds and test programs (sandbox.Limits.hidden_paths): the solutions and the objects
        # built from them, the hidden tests, and every grading's kitgrade-* folder in the work
        # root (this one's too: the folders a program needs are bound back on top).
        kit = Path(opts.kit).resolve()
        work_root = Path(opts.work_root or tempfile.gettempdir()).resolve()
        hidden = (kit / "reference", kit / "tests" / "hidden", kit / "build" / "reference",
                  kit / "build" / "obj-*" / "reference", work_root / (WORK_PREFIX + "*"))
        opts.limits.hidden_paths = tuple(dict.fromkeys([*opts.limits.hidden_paths, *map(str, hidden)]))

    def prepare(self):
        self.cache.ensure([l.name for l in self.labs], frozen=self.o.frozen_cache)
        limits = self.o.limits
        missing = sandbox.missing_isolation(limits)
        if missing:
            print("grader: warning: isolation not available here: " + "; ".join(missing), file=sys.stderr)
        masked = limits.private_tmp and sandbox.private_tmp_available(limits)
        hidden = Path(self.o.kit) / "tests" / "hidden"
        if limits.run_as and not masked and hidden.is_dir() and all(
                os.stat(p).st_mode & stat.S_IXOTH for p in [hidden, *hidden.parents] if p != Path("/")):
            print(f"grader: warning: {hidden} is readable by other users, so by student code running as "
                  "--run-as too, if it finds the path (chmod 700 that folder alone: the tests read matrices from the "
                  "prebuilt tree, which must stay reachable)", file=sys.stderr)

        def can_enter(path, uid, gid):
            try:
                st = os.stat(path)
            except OSError:
                return False
            bit = stat.S_IXUSR if st.st_uid == uid else stat.S_IXGRP if st.st_gid == gid else stat.S_IXOTH
            return bool(st.st_mode & bit)
        matrices = Path(self.cache.public_matrices)
        if limits.run_as and matrices.is_dir():
            shut = [p for p in [matrices, *matrices.parents] if not can_enter(p, *limits.run_as)]
            if shut:
                print(f"grader: warning: the --run-as user (uid {limits.run_as[0]}) cannot reach {matrices} "
                      f"({shut[-1]} is closed to it), so tests that read matrices will fail: put --cache in a folder "
                      "others may pass through (chmod o+x), or pass --run-as none", file=sys.stderr)

    # ------------------------------------------------------------ one submission
    def grade(self, sub, out_dir):
        t0 = time.monotonic()
        for stale in sweep_stale_work(self.o.work_root):
            self.log(f"grader: removed {stale}, left behind by a grading that was killed")
        work, work_lock = make_work_dir(self.o.work_root)
        notes, lab_results, cpu = [], [], 0.0
        try:
            staging = work / "submission"
            try:
                notes += submission.unpack(sub, staging)
                bad = None
            except submission.SubmissionError as e:
                bad = str(e)
                notes.append(bad)
            (work / "logs").mkdir()
            if self.o.limits.run_as:
                os.chmod(work, 0o711)  # the student user may pass through, not list
            used = set()
            for lab in self.labs:
                res, lab_cpu = self._grade_lab(lab, None if bad else staging, work, notes, used)
                lab_results.append(res)
                cpu += lab_cpu
            if not bad:
                notes += self._ignored_note(staging, used)
            out = Path(out_dir)
            out.mkdir(parents=True, exist_ok=True)
            shutil.rmtree(out / "logs", ignore_errors=True)
            shutil.copytree(work / "logs", out / "logs")
        finally:
            if self.o.keep_work:
                self.log(f"grader: work folder kept: {work}")
                (work / WORK_LOCK).unlink(missing_ok=True)  # kept means kept: no sweep removes it
            else:
                sandbox.remove_tree(work)
            os.close(work_lock)
        tampered = not self.cache.intact()
        if tampered:
            notes.append("WARNING: the prebuilt instructor tree changed while this submission was graded; "
                         "it will be rebuilt. Check this submission by hand.")
            self.log("grader: " + notes[-1])
        score = sum(l["score"] for l in lab_results)
        grading = {
            "student": self.o.student or student_name(sub), "submission": str(sub), "graded_at": results.now(),
            "machine": {"host": socket.gethostname(), "gpu": self.gpu, "make": self.vars},
            "score": score, "max_score": sum(l["max_score"] for l in lab_results),
            "incomplete": any(l["incomplete"] for l in lab_results),
            "not_run": sum(l["not_run"] for l in lab_results), "tampered_with_cache": tampered,
            "execution_time": time.monotonic() - t0, "cpu_time": cpu, "notes": notes, "labs": lab_results,
        }
        grading = results.printable(grading)  # file names need not be UTF-8
        results.write(out_dir, grading)
        return grading

    def _ignored_note(self, staging, used):
        """Files that are no student file of any lab (files of labs not graded now are not listed)."""
        known = set(used)
        for lab in self.all_labs.values():
            files, _ = submission.find_lab_files(staging, lab, False)
            known.update(submission._printable(p.relative_to(staging).as_posix()) for p in files.values())
        extra = [f for f in submission.all_files(staging) if f not in known]
        if not extra:
            return []
        shown = ", ".join(extra[:8]) + (f" and {len(extra) - 8} more" if len(extra) > 8 else "")
        return [f"ignored (not a student file of any lab): {shown}"]

    def _lab_space(self, work, lab):
        """A fresh tree for this lab (code run for one lab cannot touch the next lab's build),
        with home and results folders owned by the student user under --run-as."""
        space = work / lab.name
        space.mkdir()
        self.cache.copy_tree(space / "tree")
        for d in ("home", "results"):
            (space / d).mkdir()
        if self.o.limits.run_as:
            os.chmod(space, 0o711)
            uid, gid = self.o.limits.run_as
            for top in ("tree", "home", "results"):
                for dirpath, dirnames, filenames in os.walk(space / top):
                    for n in [dirpath] + [os.path.join(dirpath, x) for x in dirnames + filenames]:
                        os.lchown(n, uid, gid)
        return space

    def _lab_files(self, lab, staging, notes, used):
        """The lab's files in the submission ({name: path}, and the folder they came from);
        a note when some or all are missing (the starter's are graded in their place)."""
        files, where = ({}, None) if staging is None else submission.find_lab_files(staging, lab, len(self.labs) == 1)
        for path in files.values():
            used.add(submission._printable(path.relative_to(staging).as_posix()))
        missing = [f for f in lab.student_files if f not in files]
        if missing and files:
            notes.append(f"{lab.name}: {', '.join(missing)} not in the submission: the starter version was used")
        elif not files:
            notes.append(f"{lab.name}: no files of this lab found in the submission (looked for "
                         f"{', '.join(lab.student_files)} in a folder starter/{lab.name}/ or {lab.name}/"
                         + (", or anywhere" if len(self.labs) == 1 else "") + "): the starter was graded")
        return files, where

    def _symbol_rejection(self, lab, tree):
        """Why the student's objects are refused (calls the symbol check forbids), or None."""
        if lab.name not in self._trusted:
            self._trusted[lab.name] = symbols.TrustedSymbols(tree, lab.name)
        found = symbols.check(tree, lab.name, self._trusted[lab.name], comm=bool(lab.mpi_ranks))
        return "\n".join(f"{obj}: {why}" for obj, why in found[:12]) if found else None

    def _run_tests(self, lab, space, tree, work):
        """Runs each test binary of the lab, then its judge: (the runner, outcomes by test)."""
        bins = self._seal_binaries(tree, space / "bin", lab)
        # an MPI lab's ranks keep NCCL's NVLink multicast off, as make test does (mpi_launch.sh)
        env = sandbox.clean_env(space / "home", {"NCCL_NVLS_ENABLE": "0"} if lab.mpi_ranks else None)
        judge_dir = space / "judge"  # the grader's alone: the judge's records and results
        judge_dir.mkdir(mode=0o700)
        runner = gtest.Runner(space / "results", work / "logs", tree, env, self._test_limits(), self.o.retry,
                              scratch=space / "home", visible=[self.cache.public_matrices], judge_dir=judge_dir)
        outcomes = {}
        for binary, tests in lab.binaries().items():
            self.log(f"grader: {lab.name}: running {binary}, then its judge")
            outcomes.update(runner.run_binary(space / "bin" / binary, tests, bins.get(binary),
                                              *self.cache.judge(binary), ranks=self._mpi_ranks(lab, tree)))
        return runner, outcomes

    def _grade_lab(self, lab, staging, work, notes, used):
        t0 = time.monotonic()
        status = self.cache.lab_status(lab.name)
        if status != "ok":
            return scoring.score_lab(lab, kit_error=status or "the lab is missing from the prebuilt tree"), 0.0
        files, where = self._lab_files(lab, staging, notes, used)
        try:
            space = self._lab_space(work, lab)
        except cachemod.CacheError as e:  # the template was tampered with: never build from it
            notes.append(f"WARNING: {e}")
            return scoring.score_lab(lab, kit_error=str(e)), 0.0
        tree = space / "tree"
        self._place_files(lab, files, tree)
        self.log(f"grader: {lab.name}: building ({len(files)} student file(s))")
        build_error, cpu, shared_tmp = self._build(lab, tree, work)
        timing = {"build": time.monotonic() - t0}
        outcomes = None
        rejected = self._symbol_rejection(lab, tree) if build_error is None and self.o.symbol_check else None
        if build_error is None and rejected is None:
            t1 = time.monotonic()
            runner, outcomes = self._run_tests(lab, space, tree, work)
            cpu += runner.cpu_s
            timing["tests"] = time.monotonic() - t1
            shared_tmp |= runner.shared_tmp
        res = scoring.score_lab(lab, outcomes, build_error, rejected=rejected,
                                absent=self._absent_backends(tree, lab))
        res["files_from"] = where
        res["files"] = sorted(files)
        res["review_flags"] = scoring.review_flags(files)
        if rejected:
            res["review_flags"]["(objects)"] = ["refused to run: " + l for l in rejected.splitlines()]
        if shared_tmp:
            res["review_flags"]["(sandbox)"] = [SHARED_TMP_NOTE]
            if SHARED_TMP_NOTE not in notes:
                notes.append(SHARED_TMP_NOTE)
        res["timing"] = timing
        self.log(f"grader: {lab.name}: {res['score']:g}/{res['max_score']:g}"
                 + (f" ({res['not_run']} not run here)" if res["not_run"] else ""))
        return res, cpu

    @staticmethod
    def _features(tree):
        """The tree's build features (build/.features: cuda=1 opencl=0 mpi=1 ...)."""
        try:
            return dict(kv.split("=", 1) for kv in (tree / "build" / ".features").read_text().split() if "=" in kv)
        except OSError:
            return {}

    def _mpi_ranks(self, lab, tree):
        """The rank counts the lab's programs run at: its manifest's, where MPI was built in and
        mpirun is here; else none (one plain process, whose MPI tests skip saying why)."""
        mpi = self._features(tree).get("mpi") == "1" and shutil.which("mpirun")
        return lab.mpi_ranks if mpi else []

    def _absent_backends(self, tree, lab):
        """Backends the grader itself knows cannot run here: only their skipped tests are 'not run'.
        An MPI lab's CPU steps count as absent where MPI is missing (their skips say so)."""
        feats = self._features(tree)
        absent = {"cpu": bool(lab.mpi_ranks) and not self._mpi_ranks(lab, tree),
                  "cuda": feats.get("cuda") != "1" or not self.gpu,
                  "opencl": feats.get("opencl") != "1" or not sandbox.has_opencl_platform()}
        return {b for b, gone in absent.items() if gone}

    @staticmethod
    def _seal_binaries(tree, bin_dir, lab):
        """Copies the built test binaries where the student's code cannot replace them (a
        folder of the grader's), and returns their sha256, checked again before each run."""
        bin_dir.mkdir()
        sums = {}
        for binary in lab.binaries():
            src = tree / "build" / "starter" / "bin" / binary
            if src.exists():
                dst = bin_dir / binary
                shutil.copyfile(src, dst)
                os.chmod(dst, 0o555)
                sums[binary] = gtest.sha256(dst)
        return sums

    def _test_limits(self):
        limits = self.o.limits
        # CUDA reserves a large address space: beside a GPU only the resident-memory watchdog applies.
        return sandbox.Limits(**{**limits.__dict__, "address_space_limit": limits.address_space_limit and not self.gpu})

    def _place_files(self, lab, files, tree):
        """Student files replace the starter's; their stale objects go so that make compiles them."""
        dest = tree / "starter" / lab.name
        uid_gid = self.o.limits.run_as
        for name, src in files.items():
            target = dest / name
            data = src.read_bytes()
            if target.is_file() and target.read_bytes() == data:
                continue  # the starter's own file: its prebuilt object stands (no nvcc for an untouched .cu)
            target.unlink(missing_ok=True)
            target.write_bytes(data)
            if uid_gid:
                os.chown(target, *uid_gid)
            else:
                os.chmod(target, 0o644)
            objdir = tree / symbols.object_dir(tree)
            for obj in (objdir / "starter" / lab.name / f"{name}.o",
                        objdir / "gen" / "starter" / lab.name / f"{name}.cpp.o"):
                obj.unlink(missing_ok=True)
                obj.with_suffix(".d").unlink(missing_ok=True)
        shutil.rmtree(tree / "build" / "starter", ignore_errors=True)

    def _build(self, lab, tree, work):
        """Builds the lab's test binaries. Returns (None or the first compiler errors, cpu seconds)."""
        targets = cachemod.lab_targets(tree, lab.name)
        cmd = ["make", f"-j{self.o.jobs}", *[f"{k}={v}" for k, v in self.vars.items()], *targets]
        limits = sandbox.Limits(timeout_s=self.o.build_timeout_s, memory_mb=self.o.build_memory_mb,
                                address_space_limit=False, run_as=self.o.limits.run_as,
                                hidden_paths=self.o.limits.hidden_paths)
        log_path = work / "logs" / f"{lab.name}-build.log"
        env = sandbox.clean_env(tree.parent / "home")
        out = sandbox.run(cmd, tree, env, limits, log_path, scratch=tree.parent / "home",
                          visible=[tree.parent, self.cache.public_matrices])
        shared = limits.private_tmp and not out.private_tmp
        text = log_path.read_text(errors="replace").replace(str(tree) + "/", "")
        log_path.write_text(text)
        why = out.describe(limits)
        if why:
            return f"the build {why}\n" + scoring.first_errors(text), out.cpu_s, shared
        if out.returncode != 0 or not all((tree / t).exists() for t in targets):
            return scoring.first_errors(text) or f"make exited with status {out.returncode}", out.cpu_s, shared
        return None, out.cpu_s, shared
