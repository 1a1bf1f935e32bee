#!/usr/bin/env python3
"""The kit's autograder. Standard library only.

  grade.py [grade] --sub PATH [--lab all|NN-name[,..]] --out DIR     one submission
  grade.py class --subs DIR [--lab ..] --out DIR [--csv FILE]        a folder of submissions
  grade.py merge OUTDIR... --csv grades.csv                          runs -> grades.csv
  grade.py prebuild [--lab ..]                                       build the instructor tree now
  grade.py validate results.json...                                  check against the schema
  grade.py gradescope --lab NN-name --zip FILE                       the Gradescope autograder zip
  grade.py labs                                                      labs, steps and points

A submission is a folder, a .zip or a .tar.gz holding starter/NN-name/<files> (or
NN-name/<files>, or, for one lab, the files themselves). See grader/README.md.
"""
import argparse
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from kitgrader import VERSION, cache as cachemod, labs as labsmod, sandbox  # noqa: E402

COMMANDS = ("grade", "class", "merge", "prebuild", "validate", "gradescope", "labs")
RUN_AS_ENV = "KIT_GRADER_RUN_AS"  # the default of --run-as (a class run's per-student processes inherit it)
# As root, the first of these that exists serves as --run-as by default: the kit's dedicated
# user (Gradescope's setup.sh makes it), else nobody (whose every process is killed after each program).
DEFAULT_STUDENT_USERS = ("kitstudent", "nobody")


def run_as_arg(text):
    """--run-as's value: user names, or '' for none (student code then runs as the grader's user)."""
    text = text.strip()
    return "" if text.lower() in ("", "none", "off") else text


def default_jobs():
    """make -j for builds: the cores this process may run on (not the host's, in a container
    pinned to a few), at most 16: each nvcc job takes about a gigabyte."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 2
    return max(1, min(cores, 16))


def common(p):
    g = p.add_argument_group("kit and build")
    g.add_argument("--kit", type=Path, default=HERE.parent, help="the instructor's kit (default: this checkout)")
    g.add_argument("--cache", type=Path, help="prebuilt instructor tree (default: KIT/build/grader-cache)")
    g.add_argument("--lab", default="all", help="all, NN-name or a comma-separated list (default: all)")
    g.add_argument("--sm", help="GPU architecture for nvcc, e.g. 90 (default: the local GPU, else 90)")
    g.add_argument("--no-cuda", action="store_true", help="build without nvcc (CUDA tests then report not run)")
    g.add_argument("--frozen-cache", action="store_true",
                   help="use the prebuilt tree as it is; never rebuild it (Gradescope, cluster arrays)")
    g.add_argument("--jobs", type=int, default=default_jobs(),
                   help="make -j for builds (default: the cores this process may use, at most 16)")
    g = p.add_argument_group("limits for student code")
    g.add_argument("--timeout", type=float, default=60, help="wall-clock seconds per test binary (default: 60)")
    g.add_argument("--memory-mb", type=int, default=4096, help="memory limit of a test binary (default: 4096)")
    g.add_argument("--build-timeout", type=float, default=600, help="seconds per lab build (default: 600)")
    g.add_argument("--no-address-limit", action="store_true",
                   help="memory limit by the resident-memory watchdog only, no RLIMIT_AS (always so beside a GPU)")
    g.add_argument("--no-retry", action="store_true",
                   help="when a test binary crashes, fail all its tests instead of re-running each alone")
    g.add_argument("--no-symbol-check", action="store_true",
                   help="run student objects that reach outside the lab's interface (only to test the other "
                        "defences; verdicts can then be forged)")
    g.add_argument("--run-as", metavar="USER|none", type=run_as_arg, default=os.environ.get(RUN_AS_ENV),
                   help="build and run student code as this user (comma-separated, one per --parallel student; "
                        "the grader must start as root). Default as root: 'kitstudent' if it exists, else "
                        f"'nobody'; 'none' runs it as the grader's own user. ${RUN_AS_ENV} sets the default")
    g.add_argument("--work-dir", help="where per-submission trees go (default: $TMPDIR)")
    g.add_argument("--keep-work", action="store_true", help="keep the per-submission tree (debugging)")
    g.add_argument("--quiet", action="store_true")


_announced = set()


def student_user(a):
    """The --run-as user name(s) of this run ('' for none). Not given, as root: an unprivileged
    user of DEFAULT_STUDENT_USERS, never root; not root: none (the grader says what it lacks)."""
    if a.run_as == "":
        os.environ[RUN_AS_ENV] = "none"  # so a class run's per-student processes run without one too
        return ""
    if a.run_as is not None or os.geteuid() != 0:
        return a.run_as or ""
    import pwd
    if getattr(a, "parallel", 1) > 1:
        raise ValueError(f"--parallel {a.parallel} as root: student code runs as another user by default, and "
                         f"students graded at once need one user each: give {a.parallel} with --run-as u1,u2,... "
                         "(or --run-as none to run it as root)")
    for name in DEFAULT_STUDENT_USERS:
        try:
            pw = pwd.getpwnam(name)
        except KeyError:
            continue
        if name not in _announced and a.command in ("grade", "class") and not a.quiet:
            print(f"grader: student code builds and runs as '{name}' (uid {pw.pw_uid}), the default as root "
                  "(--run-as USER picks another user, --run-as none runs it as root)", flush=True)
        _announced.add(name)
        return name
    raise ValueError(f"as root, student code runs as an unprivileged user, and there is no user "
                     f"{' or '.join(repr(u) for u in DEFAULT_STUDENT_USERS)} here: create one "
                     "(useradd --system --no-create-home kitstudent: it is then the default), pass "
                     "--run-as USER, or pass --run-as none to run it as root")


def options(a, **over):
    from kitgrader import grading
    limits = sandbox.Limits(timeout_s=a.timeout, memory_mb=a.memory_mb, address_space_limit=not a.no_address_limit,
                            run_as=sandbox.resolve_user(student_user(a).split(",")[0]))
    o = grading.Options(kit=a.kit.resolve(), cache_dir=(a.cache or a.kit / "build" / "grader-cache").resolve(),
                        lab=a.lab, sm=a.sm, cuda=not a.no_cuda, frozen_cache=a.frozen_cache, limits=limits,
                        build_timeout_s=a.build_timeout, jobs=a.jobs, retry=not a.no_retry,
                        symbol_check=not a.no_symbol_check,
                        work_root=a.work_dir, keep_work=a.keep_work, quiet=a.quiet)
    for k, v in over.items():
        setattr(o, k, v)
    return o


def cmd_grade(a):
    from kitgrader import grading
    g = grading.Grader(options(a, student=a.student))
    g.prepare()
    res = g.grade(a.sub, a.out)
    print(f"{res['student']}: {res['score']:g}/{res['max_score']:g}"
          + (f"  INCOMPLETE ({res['not_run']} not run here)" if res["incomplete"] else "")
          + f"  [{res['execution_time']:.1f} s]  -> {Path(a.out) / 'results.json'}")
    if not a.quiet:
        print((Path(a.out) / "report.txt").read_text().split("\nSubmission:")[0])
    return 3 if any(l["build"] == "kit-error" for l in res["labs"]) else 0


def passthrough(a):
    """The common options again, for the per-student processes of a class run."""
    args = ["--kit", str(a.kit), "--cache", str(options(a).cache_dir), "--lab", a.lab, "--frozen-cache",
            "--jobs", str(a.jobs), "--timeout", str(a.timeout), "--memory-mb", str(a.memory_mb),
            "--build-timeout", str(a.build_timeout), "--quiet"]
    for flag, on in (("--no-cuda", a.no_cuda), ("--no-retry", a.no_retry), ("--keep-work", a.keep_work),
                     ("--no-address-limit", a.no_address_limit), ("--no-symbol-check", a.no_symbol_check)):
        if on:
            args.append(flag)
    for flag, val in (("--sm", a.sm), ("--work-dir", a.work_dir)):
        if val:
            args += [flag, str(val)]
    return args


def cmd_class(a):
    from kitgrader import classroom
    extra = passthrough(a)
    # After each test program every process of the --run-as user is killed, so students graded
    # at the same time need users of their own: --run-as u1,u2 with --parallel 2.
    users = a.run_as.split(",") if a.run_as else []
    if users and len(users) < a.parallel:
        raise ValueError(f"--parallel {a.parallel} with --run-as needs {a.parallel} users (--run-as u1,u2,...)")
    free = __import__("queue").Queue()
    for u in users or [None]:
        free.put(u)

    def grade_argv(student, sub, out):
        # NAME=VALUE: a value that starts with '-' (an upload named "-x.zip") is no option.
        return [sys.executable, str(Path(__file__).resolve()), "grade", f"--sub={sub}", f"--out={out}",
                f"--student={student}", *extra]
    return classroom.grade_folder(options(a), a.subs, a.out, a.csv or a.out / "grades.csv", a.parallel, a.redo, grade_argv, free)


def cmd_merge(a):
    from kitgrader import results
    runs = results.load_runs(a.outdirs)
    n = results.write_csv(runs, a.csv)
    print(f"merge: {n} student(s) -> {a.csv}")
    return 0 if n else 1


def cmd_prebuild(a):
    from kitgrader import grading
    g = grading.Grader(options(a))
    g.prepare()
    bad = {l: s for l, s in g.cache.stamp()["labs"].items() if s != "ok"}
    for lab, why in bad.items():
        print(f"prebuild: {lab}: {why}")
    print(f"prebuild: {g.cache.tree} ready ({', '.join(g.cache.stamp()['labs'])})")
    return 1 if bad else 0


def cmd_validate(a):
    from kitgrader import schema
    spec = json.loads(Path(a.schema).read_text())
    bad = 0
    for f in a.files:
        problems = schema.validate(json.loads(Path(f).read_text()), spec)
        for p in problems:
            print(f"{f}: {p}")
        bad += bool(problems)
        if not problems:
            print(f"{f}: valid")
    return 1 if bad else 0


def cmd_gradescope(a):
    from kitgrader import gradescope
    gradescope.build_zip(a.kit.resolve(), a.lab, a.zip, a)
    return 0


def cmd_labs(a):
    for lab in labsmod.discover(a.kit).values():
        print(f"{lab.name}: {lab.title} ({lab.max_points:g} points; student files: {', '.join(lab.student_files)})")
        for n, s in lab.steps.items():
            ts = [t for t in lab.tests if t.step == n]
            gpu = sum(t.points for t in ts if t.gpu)
            print(f"  step {n} [{s.backend}] {s.title}: {sum(t.points for t in ts):g} points"
                  + (f" ({gpu:g} on a GPU)" if gpu else ""))
    return 0


def parser():
    p = argparse.ArgumentParser(prog="grade.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--version", action="version", version=f"kit grader {VERSION}")
    sub = p.add_subparsers(dest="command")
    g = sub.add_parser("grade", help="grade one submission")
    g.add_argument("--sub", required=True, help="submission folder, .zip or .tar.gz")
    g.add_argument("--out", required=True, type=Path, help="output folder (results.json, report.txt, ...)")
    g.add_argument("--student", help="name in grades.csv (default: the submission's name)")
    common(g)
    c = sub.add_parser("class", help="grade every submission in a folder; resumable; writes grades.csv")
    c.add_argument("--subs", required=True, type=Path, help="folder of submissions (one folder/.zip/.tar.gz each)")
    c.add_argument("--out", required=True, type=Path, help="output folder, one sub-folder per student")
    c.add_argument("--csv", type=Path, help="grades.csv path (default: OUT/grades.csv)")
    c.add_argument("--parallel", type=int, default=1, help="submissions graded at once (default: 1)")
    c.add_argument("--redo", action="store_true", help="regrade students that are already done")
    common(c)
    m = sub.add_parser("merge", help="merge output folders (of students, or holding students) into grades.csv")
    m.add_argument("outdirs", nargs="+", type=Path)
    m.add_argument("--csv", required=True, type=Path)
    b = sub.add_parser("prebuild", help="build the instructor tree (kit, tests) that grading copies")
    common(b)
    v = sub.add_parser("validate", help="check results.json files against the schema")
    v.add_argument("files", nargs="+")
    v.add_argument("--schema", default=str(HERE / "results.schema.json"))
    z = sub.add_parser("gradescope", help="build the Gradescope autograder zip for one lab (or 'all')")
    z.add_argument("--zip", required=True, type=Path)
    common(z)
    sub.add_parser("labs", help="list labs, steps and points").add_argument("--kit", type=Path, default=HERE.parent)
    return p


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] not in COMMANDS and argv[0] not in ("-h", "--help", "--version"):
        argv.insert(0, "grade")
    a = parser().parse_args(argv)
    if not a.command:
        parser().print_help()
        return 2
    try:
        return {"grade": cmd_grade, "class": cmd_class, "merge": cmd_merge, "prebuild": cmd_prebuild,
                "validate": cmd_validate, "gradescope": cmd_gradescope, "labs": cmd_labs}[a.command](a)
    except (cachemod.CacheError, labsmod.ManifestError, ValueError, PermissionError, KeyError) as e:
        print(f"grade.py: error: {e}", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
