#!/usr/bin/env python3
"""Runs every shell command of the handouts as printed, and fails on any that errors.

    check_handout_commands.py KIT_DIR [--handout NN-name|README] [--timeout S] [--list] [--gpu]
                              [--gpu-only] [--jobs N]

KIT_DIR is a copy of the kit: the student edition (`make dist-student`, unpacked) or the
full kit. Each ```sh block of handouts/*.md (and of the README, in the student edition: the
one without reference/) is split into commands (a `for ... done` loop or a line ending in a
backslash stays one command) and each runs in a fresh `bash -o pipefail -c` in KIT_DIR, in
order, so a command may use the files an earlier one generated (the handouts write them
under /tmp).

A command *errors* when it exits with 2 or more (bad input, a usage error, a failed build,
a crash, command not found), or prints a sign of a broken tool ("No rule to make target",
"undefined reference", "unknown option", "is not a lab"). Exit status 1 is allowed: it is
how the kit says "your code is wrong or still TODO", which is what the starter gives; so
is `make test` failing after its summary line (make exits 2 when tests fail), and a run of
a CUDA variant that says SKIPPED because no GPU is there (or that the kit was built without
nvcc); such a command must say so where it is printed, by `--backend cuda` or by a comment on
one of its lines that says it needs a GPU (`# needs a GPU`), or it errors. A pipe must not
hide what its first command printed: a pipe that printed nothing errors, and so does a grep
that filters out the SKIPPED line (the command runs again without its grep to see).
Commands that need a GPU tool (compute-sanitizer, ncu, nvidia-smi), a cluster or the GPU's
time are not run here; the summary lists them with the reason. With --gpu (on a GPU
machine) the GPU ones run too and must not say SKIPPED. Exit status 1 if any command errors.

--gpu-only (implies --gpu) leaves out the `make` commands that no comment marks as needing a
GPU (builds, `make test`: `make test` on the GPU node runs those tests), so the GPU check runs
the commands that need the GPU, and the quick ones beside them that they may depend on.

--jobs N checks N documents at once, each in a process of its own (its commands still in
order), and prints each one's report when it ends: on a GPU node, where the tuning commands
take minutes, the whole check takes the longest handout's time instead of the sum. The
documents share the build, so build it first (`make all`, and in the full kit also
`make all IMPL=starter` for the commands that run the starter): `./spmv-kit` builds what is
missing one build at a time, so the documents would otherwise queue behind each other's builds.
"""
import os
import re
import subprocess
import sys
import time

# (pattern, why it is not run here)
NOT_HERE = [
    (r"\b(sbatch|qsub|squeue|qstat)\b|\bmake submit\b", "submits to a cluster scheduler"),
    (r"--cuda\b|\bnvidia-smi\b|\bcompute-sanitizer\b|\bncu\b", "needs an NVIDIA GPU"),
    (r"\btune_check\b|tune-profile|\bgemv_tune\b", "times the GPU (minutes)"),
    (r"\bmake bench", "the benchmark suite (GPU)"),
    (r"opencl_env\.sh", "registers NVIDIA's OpenCL on a GPU node"),
]
BROKEN = re.compile(r"No rule to make target|undefined reference|unknown option|is not a lab|command not found"
                    r"|no variant named|No such file or directory")
SKIP_LINE = re.compile(r"SKIPPED: |cuda backend unavailable: ")  # no GPU; or a kit built without nvcc
# "| grep -E 'a|b'", a stage of a pipe, with its quoted arguments
GREP_STAGE = re.compile(r"""\|\s*\n?\s*grep\b(?:[ \t]+(?:'[^']*'|"[^"]*"|[^\s|'"]+))*""")
PLAIN_MAKE = re.compile(r"^\s*make\b")  # left out by --gpu-only unless marked as needing a GPU
GPU_MARK = re.compile(r"#.*\b(GPU|GPUs)\b")  # a comment on one of a command's lines: "# needs a GPU"


def fenced_blocks(markdown):
    """(language, line of the opening fence, [(line, text)...]) for every ``` block; language is
    what follows the opening ``` ("sh", or "" for a plain block)."""
    out, block = [], None
    for number, line in enumerate(markdown.splitlines(), 1):
        fence = line.strip()
        if block is None:
            if fence.startswith("```"):
                block = (fence[3:].strip(), number, [])
        elif fence == "```":
            out.append(block)
            block = None
        else:
            block[2].append((number, line))
    return out


def commands_of(markdown):
    """(line, command, marked) for every command of the ```sh blocks; marked: a comment on one
    of its lines says it needs a GPU."""
    out, start = [], 0
    for language, _, block in fenced_blocks(markdown):
        if language != "sh":
            continue
        pending, depth, marked = [], 0, False
        for n, text in block:
            code = re.sub(r"(^|\s)#.*$", "", text).rstrip()
            if not code and not pending:
                continue
            if not pending:
                start = n
            pending.append(code)
            marked |= bool(GPU_MARK.search(text)) or "--backend cuda" in code
            depth += len(re.findall(r"\b(do|then)\b", code)) - len(re.findall(r"\b(done|fi)\b", code))
            if depth > 0 or code.endswith("\\"):
                continue
            out.append((start, "\n".join(pending), marked))
            pending, depth, marked = [], 0, False
    return out


COMMAND_START = re.compile(r"^\s*(make|\./|build/|mpirun|srun|sbatch|qsub|python3|spmv-kit|[A-Z_]+=\S+ (mpirun|make|\./))")


def unmarked_command_blocks(markdown):
    """Lines of the plain ``` blocks (no language) that begin with a command: commands_of never
    sees them, so they would go unchecked; a block of commands is fenced ```sh."""
    found = []
    for language, opening, block in fenced_blocks(markdown):
        body = [text for _, text in block if text.strip()]
        if not language and body and COMMAND_START.match(body[0]):
            found.append(opening)
    return found


def documents(kit, only):
    """(name as printed, path) of the handouts, and of the README in the student edition."""
    docs = [(f"handouts/{f}", os.path.join(kit, "handouts", f)) for f in sorted(os.listdir(os.path.join(kit, "handouts")))
            if f.endswith(".md") and (not only or f.startswith(only))]
    readme = os.path.join(kit, "README.md")
    if (not only or "README.md".startswith(only)) and not os.path.isdir(os.path.join(kit, "reference")) \
            and os.path.isfile(readme):
        docs.insert(0, ("README.md", readme))
    return docs


def run(kit, cmd, env, timeout):
    """(exit status, output) of cmd in a fresh bash with pipefail."""
    try:
        done = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=kit, env=env, capture_output=True, text=True,
                              timeout=timeout)
        return done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired:
        return 124, f"timed out after {timeout} s"


def judge(cmd, marked, status, output, gpu):
    """None when the command did what a student should see, "skipped" for an expected SKIPPED
    without a GPU, else why it is an error."""
    skipped = SKIP_LINE.search(output)
    # exit 2 (SKIPPED); 1 when a grep after it found nothing to keep on stdout (the kit built
    # without nvcc says so on stderr)
    if status in (1, 2) and skipped and "spmv-kit run" in cmd and not gpu:
        return "skipped" if marked else "says SKIPPED without a GPU, but its line is not marked '# needs a GPU'"
    if gpu and skipped:
        return "says SKIPPED on the GPU machine"
    if "|" in cmd.replace("||", "") and not output.strip():
        return "the pipe printed nothing (it filtered out every line)"
    # make exits 2 whenever a recipe fails: `make test` on TODOs, and `make run` on kernels
    # still wrong, end that way after their verdict line, which is the expected answer.
    tests_ran = cmd.lstrip().startswith("make") and re.search(
        r"^\d+ passed, \d+ failed, \d+ skipped|^Some variants gave wrong results", output, re.M)
    if status >= 2 and not tests_ran:
        return f"exit status {status}" + (" (a pipe hid the SKIPPED line?)" if status == 2 and "|" in cmd else "")
    if BROKEN.search(output):
        return "prints a sign of a broken tool: " + BROKEN.search(output).group(0)
    return None


def check_in_parallel(kit, opts):
    """Exit status of checking every document, opts["jobs"] at a time, each by this script on its
    own with the other options."""
    from concurrent.futures import ThreadPoolExecutor
    passed_on = [f"--{k}={v}" for k, v in opts.items() if k not in ("jobs", "handout")]
    names = [os.path.basename(path)[:-3] for _, path in documents(kit, None)]

    def check(name):
        done = subprocess.run([sys.executable, os.path.abspath(__file__), kit, f"--handout={name}", *passed_on],
                              capture_output=True, text=True)
        return name, done.returncode, done.stdout + done.stderr

    failed = []
    with ThreadPoolExecutor(max_workers=int(opts["jobs"])) as pool:
        for name, status, report in pool.map(check, names):
            print(f"== {name}\n{report}", flush=True)
            if status != 0:
                failed.append(name)
    print(f"handout documents: {len(names)} checked, {len(failed)} with errors{': ' if failed else ''}"
          f"{', '.join(failed)}")
    return 1 if failed else 0


VALUED = ("handout", "timeout", "jobs")  # options that take a value: --jobs 4 or --jobs=4


def parse_args(argv):
    """(positional arguments, {option: value}); a flag's value is "1"."""
    args, opts, i = [], {}, 0
    while i < len(argv):
        a = argv[i]
        if not a.startswith("--"):
            args.append(a)
        elif "=" in a:
            key, value = a[2:].split("=", 1)
            opts[key] = value
        elif a[2:] in VALUED and i + 1 < len(argv):
            opts[a[2:]] = argv[i + 1]
            i += 1
        else:
            opts[a[2:]] = "1"
        i += 1
    return args, opts


def main():
    args, opts = parse_args(sys.argv[1:])
    if len(args) != 1 or "help" in opts:
        print(__doc__)
        return 0 if "help" in opts else 2
    if int(opts.get("jobs", "1")) > 1 and "handout" not in opts and "list" not in opts:
        return check_in_parallel(os.path.abspath(args[0]), opts)
    kit, timeout = os.path.abspath(args[0]), int(opts.get("timeout", "600"))
    gpu, gpu_only = "gpu" in opts or "gpu-only" in opts, "gpu-only" in opts
    errors, skipped, ran = [], {}, 0
    env = dict(os.environ, KIT_ALLOW_NO_GPU="1")
    if os.geteuid() == 0:  # a student is not root: mpirun as printed must start here as for them
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    for name, path in documents(kit, opts.get("handout")):
        text = open(path, encoding="utf-8").read()
        for line in unmarked_command_blocks(text):
            errors.append(f"{name}:{line}: a block of commands fenced as a plain ``` (fence it ```sh, so they run here)")
        for line, cmd, marked in commands_of(text):
            where = f"{name}:{line}"
            why = next((w for pattern, w in NOT_HERE if re.search(pattern, cmd)), None)
            if why and not (gpu and why.startswith(("needs an NVIDIA GPU", "times the GPU"))):
                skipped.setdefault(why, []).append(where)
                continue
            if gpu_only and not why and not marked and PLAIN_MAKE.match(cmd):
                skipped.setdefault("a make command without a GPU mark (--gpu-only)", []).append(where)
                continue
            if "list" in opts:
                print(f"{where}: {cmd}")
                continue
            t0 = time.monotonic()
            status, output = run(kit, cmd, env, timeout)
            bad = judge(cmd, marked, status, output, gpu)
            if not bad and GREP_STAGE.search(cmd) and not SKIP_LINE.search(output):
                # what the grep left out: a SKIPPED line must come through it
                unfiltered = run(kit, GREP_STAGE.sub("", cmd), env, timeout)[1]
                if SKIP_LINE.search(unfiltered):
                    bad = "its grep filters out the SKIPPED line: " + SKIP_LINE.search(unfiltered).group(0)
            if bad == "skipped":
                skipped.setdefault("runs a CUDA variant: SKIPPED without a GPU, as it should", []).append(where)
                continue
            ran += 1
            print(f"{'ERROR' if bad else 'ok   '} {where} (exit {status}, {time.monotonic() - t0:.0f} s): "
                  f"{cmd.splitlines()[0][:90]}", flush=True)
            if bad:
                tail = "\n".join(output.strip().splitlines()[-8:])
                errors.append(f"{where}: {bad}: {cmd}\n    " + tail.replace("\n", "\n    "))
    if "list" in opts:
        return 0
    print(f"\nhandout commands: {ran} run, {len(errors)} errored, "
          f"{sum(len(v) for v in skipped.values())} not run here")
    for why, wheres in skipped.items():
        print(f"  not run ({why}): {', '.join(wheres)}")
    for e in errors:
        print("ERROR " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
