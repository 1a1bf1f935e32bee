#!/usr/bin/env python3
"""Runs every shell command of the handouts as printed, and fails on any that errors.

    check_handout_commands.py KIT_DIR [--handout NN-name] [--timeout S] [--list]

KIT_DIR is a copy of the kit: the student edition (`make dist-student`, unpacked) or the
full kit. Each ```sh block of handouts/*.md is split into commands (a `for ... done` loop or
a line ending in a backslash stays one command) and each runs in a fresh `bash -c` in
KIT_DIR, in order, so a command may use the files an earlier one generated (the handouts
write them under /tmp).

A command *errors* when it exits with 2 or more (bad input, a usage error, a failed build,
a crash, command not found), or prints a sign of a broken tool ("No rule to make target",
"undefined reference", "unknown option", "is not a lab"). Exit status 1 is allowed: it is
how the kit says "your code is wrong or still TODO", which is what the starter gives; so
is `make test` failing after its summary line (make exits 2 when tests fail), and a run of
a CUDA-only variant that says SKIPPED because no GPU is there.
Commands that need a GPU, a cluster or the profiler are not run here; the summary lists
them with the reason. Exit status 1 if any command errors.
"""
import os
import re
import subprocess
import sys
import time

# (pattern, why it is not run here)
NOT_HERE = [
    (r"\b(sbatch|qsub|squeue|qstat)\b", "submits to a cluster scheduler"),
    (r"--backend cuda|--cuda\b|\bnvidia-smi\b|\bcompute-sanitizer\b|\bncu\b", "needs an NVIDIA GPU"),
    (r"\btune_check\b|tune-profile", "times the GPU (minutes)"),
    (r"\bmake bench", "the benchmark suite (GPU)"),
    (r"opencl_env\.sh", "registers NVIDIA's OpenCL on a GPU node"),
]
BROKEN = re.compile(r"No rule to make target|undefined reference|unknown option|is not a lab|command not found"
                    r"|No such file or directory")


def commands_of(markdown):
    """(line, command) for every command of the ```sh blocks."""
    out, block, start = [], None, 0
    for number, line in enumerate(markdown.splitlines(), 1):
        if block is None:
            if line.strip() == "```sh":
                block = []
            continue
        if line.strip() == "```":
            pending, depth = [], 0
            for n, text in block:
                code = re.sub(r"(^|\s)#.*$", "", text).rstrip()
                if not code and not pending:
                    continue
                if not pending:
                    start = n
                pending.append(code)
                depth += len(re.findall(r"\b(do|then)\b", code)) - len(re.findall(r"\b(done|fi)\b", code))
                if depth > 0 or code.endswith("\\"):
                    continue
                out.append((start, "\n".join(pending)))
                pending, depth = [], 0
            block = None
            continue
        block.append((number, line))
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) if "=" in a else (a[2:], "1") for a in sys.argv[1:] if a.startswith("--"))
    if len(args) != 1 or "help" in opts:
        print(__doc__)
        return 0 if "help" in opts else 2
    kit = os.path.abspath(args[0])
    timeout = int(opts.get("timeout", "600"))
    handouts = sorted(f for f in os.listdir(os.path.join(kit, "handouts")) if f.endswith(".md")
                      and (not opts.get("handout") or f.startswith(opts["handout"])))
    errors, skipped, ran = [], {}, 0
    env = dict(os.environ, KIT_ALLOW_NO_GPU="1")
    for name in handouts:
        for line, cmd in commands_of(open(os.path.join(kit, "handouts", name), encoding="utf-8").read()):
            where = f"handouts/{name}:{line}"
            why = next((w for pattern, w in NOT_HERE if re.search(pattern, cmd)), None)
            if why:
                skipped.setdefault(why, []).append(where)
                continue
            if "list" in opts:
                print(f"{where}: {cmd}")
                continue
            t0 = time.monotonic()
            try:
                run = subprocess.run(["bash", "-c", cmd], cwd=kit, env=env, capture_output=True, text=True,
                                     timeout=timeout)
                status, output = run.returncode, run.stdout + run.stderr
            except subprocess.TimeoutExpired as e:
                status, output = 124, f"timed out after {timeout} s"
            if status == 2 and re.search(r"SKIPPED: .*no CUDA device found", output):
                skipped.setdefault("runs a CUDA-only variant: SKIPPED without a GPU, as it should", []).append(where)
                continue
            ran += 1
            # make exits 2 whenever a recipe fails: `make test` on TODOs, and `make run` on
            # kernels still wrong, end that way after their verdict line, which is the
            # expected answer, not a broken command.
            tests_ran = cmd.startswith("make") and re.search(
                r"^\d+ passed, \d+ failed, \d+ skipped|^Some variants gave wrong results", output, re.M)
            bad = (status >= 2 and not tests_ran) or BROKEN.search(output)
            print(f"{'ERROR' if bad else 'ok   '} {where} (exit {status}, {time.monotonic() - t0:.0f} s): "
                  f"{cmd.splitlines()[0][:90]}", flush=True)
            if bad:
                tail = "\n".join(output.strip().splitlines()[-8:])
                errors.append(f"{where}: exit {status}: {cmd}\n    " + tail.replace("\n", "\n    "))
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
