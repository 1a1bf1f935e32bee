#!/usr/bin/env python3
"""Checks that every measured figure a handout quotes is a committed result, as printed.

    check_citations.py [ROOT]

A handout quotes a figure as a Markdown link to the results file it comes from, with the row
and the column in the link's title:

    [498](../bench/results/h100-2026-11-23/summary.csv "stencil3d7_n128 double cuda:dia-naive gflops")
    [1.004](../bench/results/h100-2026-11-23/validation.csv "stencil2d_1000x1000 dia-naive time_ratio")
    [4.13](../bench/results/h100-2026-11-23/dia_path_bytes.csv "dia-naive dram_bytes_per_2flops")

The row key is the values of the file's key columns (summary.csv: matrix, precision,
backend:kernel; validation.csv: matrix, kernel; dia_path_bytes.csv: kernel;
csr5_vs_original.csv: matrix, precision, code; gemv_sweep.csv: n, precision, op, kernel;
tune_check.csv: run, matrix, precision, kernel; tune_check_totals.csv: run; gemv_finish_ab.csv:
n, precision, op, kernel; gemv_ncu.csv: n, precision, op, code; random32_l2.csv: matrix,
precision, kernel; merge_shape_ab.csv: build, matrix, precision; merge_shape_geomean.csv: build,
precision; sell_targets.csv: matrix, precision; sell_threads.csv: matrix, precision, threads; sell_pick.csv: sweep, matrix, precision;
sell_threads_sweep.csv: matrix, precision, variant, threads; sell_threads_real.csv: matrix;
sell_threads_idle.csv: matrix, precision, threads; sell_auto_threads_real.csv: matrix;
bcsr_warp_shapes.csv: matrix, precision, shape;
sell_kernel_ab.csv, sell_hoist_ab.csv, sell_stream_ab.csv, sell_split_ab.csv: build, matrix, precision, kernel; format_choice_eval.csv: kernel; real_times.csv,
atomic_small_y.csv: matrix, precision, kernel; bench_multi.csv: matrix, ranks, local_kernel (given where the column is absent); nccl_settings.csv: setting, ranks;
remote_rows_ab.csv: build, run; stream_penalty.csv: variant, run;
timeline_*.csv: rank, iteration, phase; device_params.txt, written by `spmv-kit calibrate`:
no key, the title is the parameter's name, as in "merge_gbs"). The link text
must equal the value rounded to the digits shown ("1.71x" and "93.9%" keep their unit). So
no figure is copied by hand: a re-run that changes a result fails this check until the
handout is updated, and the reader can click through to the source. Also fails on a
"Measured on" section that quotes no result at all.

It also fails on a results folder or file that nothing cites, so bench/results keeps only
what is read. The citers are the handouts, every README.md, the Makefiles, and the files
under scripts/, jobs/, bench/ and labs/ (a lab's data file names the run it came from). A
folder is cited where its name appears; a file where its path under bench/results appears
(a * in the path matches as in a shell), or where its name (or a pattern like
`ncu_*_csr-merge.csv`) appears in the same Markdown section as its folder's name. Each cited
folder keeps its command.txt, which says how every file beside it was made. Exit status 1
on any problem.
"""
import csv
import fnmatch
import os
import re
import sys

# gemv_sweep.csv and gemv_finish_ab.csv: one row per size, precision, transpose and kernel
GEMV_KEY = lambda r: [r["n"], r["precision"], r["op"], r["kernel"]]  # noqa: E731
LINK = re.compile(r'\[([^\]]+)\]\((\.\./bench/results/[^ )]+(?:\.csv|/device_params\.txt)) "([^"]+)"\)')
KEYS = {
    "summary.csv": lambda r: [r["matrix"], r["precision"], r["backend"] + ":" + r["kernel"]],
    "validation.csv": lambda r: [r["matrix"], r["kernel"]],
    "dia_path_bytes.csv": lambda r: [r["kernel"]],
    "format_choice_eval.csv": lambda r: [r["kernel"]],
    "real_times.csv": lambda r: [r["matrix"], r["precision"], r["kernel"]],
    "atomic_small_y.csv": lambda r: [r["matrix"], r["precision"], r["kernel"]],
    "csr5_vs_original.csv": lambda r: [r["matrix"], r["precision"], r["code"]],
    "gemv_sweep.csv": GEMV_KEY,
    "tune_check.csv": lambda r: [r["run"], r["matrix"], r["precision"], r["kernel"]],
    "tune_check_totals.csv": lambda r: [r["run"]],
    "gemv_finish_ab.csv": GEMV_KEY,
    "gemv_ncu.csv": lambda r: [r["n"], r["precision"], r["op"], r["code"]],
    "random32_l2.csv": lambda r: [r["matrix"], r["precision"], r["kernel"]],
    "merge_shape_ab.csv": lambda r: [r["build"], r["matrix"], r["precision"]],
    "merge_shape_geomean.csv": lambda r: [r["build"], r["precision"]],
    "csr5_ncu.csv": lambda r: [r["code"], r["precision"]],
    "merge_l1_ncu.csv": lambda r: [r["call"], r["build"], r["precision"]],
    "sell_threads.csv": lambda r: [r["matrix"], r["precision"], r["threads"]],
    "sell_targets.csv": lambda r: [r["matrix"], r["precision"]],
    "sell_pick.csv": lambda r: [r["sweep"], r["matrix"], r["precision"]],
    "sell_kernel_ab.csv": lambda r: [r["build"], r["matrix"], r["precision"], r["kernel"]],
    "sell_hoist_ab.csv": lambda r: [r["build"], r["matrix"], r["precision"], r["kernel"]],
    "sell_stream_ab.csv": lambda r: [r["build"], r["matrix"], r["precision"], r["kernel"]],
    "sell_split_ab.csv": lambda r: [r["build"], r["matrix"], r["precision"], r["kernel"]],
    "sell_threads_sweep.csv": lambda r: [r["matrix"], r["precision"], r["variant"], r["threads"]],
    "sell_threads_real.csv": lambda r: [r["matrix"]],
    "sell_threads_idle.csv": lambda r: [r["matrix"], r["precision"], r["threads"]],
    "sell_auto_threads_real.csv": lambda r: [r["matrix"]],
    "bcsr_warp_shapes.csv": lambda r: [r["matrix"], r["precision"], r["shape"]],
    "bench_multi.csv": lambda r: [r["matrix"], r["ranks"], r.get("local_kernel") or "given"],
    "nccl_settings.csv": lambda r: [r["setting"], r["ranks"]],
    "remote_rows_ab.csv": lambda r: [r["build"], r["run"]],
    "stream_penalty.csv": lambda r: [r["variant"], r["run"]],
    "timeline_*.csv": lambda r: [r["rank"], r["iteration"], r["phase"]],
    "suite_picks.csv": lambda r: [r["matrix"], r["precision"]],
    "sell_wide.csv": lambda r: [r["set"], r["matrix"], r["precision"], r["kernel"]],
    "ncu_sell.csv": lambda r: [r["matrix"], r["kernel"], r["metric"]],
    "device_params.txt": lambda r: [],  # one row: the file's "key value" lines
}


def table_kind(path):
    """The KEYS entry of a results file: its name; every `bench_multi --timeline` file
    (timeline_<matrix>-<P>ranks.csv) shares one."""
    name = os.path.basename(path)
    return "timeline_*.csv" if name.startswith("timeline_") else name


def load(path, cache={}):
    if path not in cache:
        with open(path, newline="") as f:
            if path.endswith(".txt"):  # device_params.txt: "# comment" and "key value" lines
                pairs = (line.split(None, 1) for line in f if line.strip() and not line.startswith("#"))
                cache[path] = [{p[0]: p[1].strip() for p in pairs if len(p) == 2}]
            else:
                cache[path] = list(csv.DictReader(f))
    return cache[path]


def number(text):
    """The figure in a link text ("1.71x", "93.9%", "2,868") and its decimals, or None."""
    m = re.fullmatch(r"\s*(-?[\d,]*\.?\d+)\s*(x|%)?\s*", text)
    if not m:
        return None
    digits = m.group(1).replace(",", "")
    return float(digits), len(digits.split(".")[1]) if "." in digits else 0


def check_handout(root, path):
    problems = []
    rel = os.path.relpath(path, root)
    text = open(path, encoding="utf-8").read()
    for m in LINK.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        shown, target, title = m.groups()
        source = os.path.normpath(os.path.join(os.path.dirname(path), target))
        kind = table_kind(source)
        where = f"{rel}:{line}: [{shown}] ({title})"
        if kind not in KEYS:
            problems.append(f"{where}: cites {target}, which is not a results table this check knows")
            continue
        if not os.path.isfile(source):
            problems.append(f"{where}: {target} is not committed")
            continue
        *key, field = title.split()
        rows = [r for r in load(source) if KEYS[kind](r) == key]
        if len(rows) != 1:
            problems.append(f"{where}: {len(rows)} rows of {target} match {' '.join(key)}")
            continue
        if field not in rows[0]:
            problems.append(f"{where}: {target} has no column '{field}'")
            continue
        parsed = number(shown)
        try:
            value = float(rows[0][field])
        except ValueError:
            problems.append(f"{where}: column '{field}' holds '{rows[0][field]}', not a number")
            continue
        if parsed is None:
            problems.append(f"{where}: the link text is not a number")
            continue
        figure, decimals = parsed
        if round(value, decimals) != figure:
            problems.append(f"{where}: the result is {value:.{decimals}f} (from {value}); update the handout")
    # A section headed "Measured on ..." must quote its figures through links.
    for m in re.finditer(r"^#+ Measured on[^\n]*\n(.*?)(?=^#+ |\Z)", text, re.M | re.S):
        if not LINK.search(m.group(1)):
            line = text.count("\n", 0, m.start()) + 1
            problems.append(f"{rel}:{line}: a 'Measured on' section quotes no committed result as a link")
    return problems, len(LINK.findall(text))


RESULTS = os.path.join("bench", "results")
RUN_NAME = r"[a-z]+\d*-\d{4}-\d\d-\d\d[a-z]?"  # <gpu>-<date>, a letter for a later run that day
CITED_PATH = re.compile(r"results/(" + RUN_NAME + r")(?:/([\w./*-]*[\w*]))?")
FILE_NAME = re.compile(r"(?<![\w/.*-])([\w*-][\w.*-]*\.(?:csv|txt|md|log|json))")
CITER_DIRS = ["handouts", "jobs", "scripts", "bench", "labs"]
CITER_NAMES = ("README.md", "Makefile")
KEPT_WITHOUT_CITE = {"command.txt"}  # every run's provenance: the command, the commit, the GPU


def results_files(root):
    """{run: [path relative to the run folder]} for every folder under bench/results."""
    base = os.path.join(root, RESULTS)
    runs = {}
    for run in sorted(os.listdir(base)) if os.path.isdir(base) else []:
        if os.path.isdir(os.path.join(base, run)):
            runs[run] = sorted(
                os.path.relpath(os.path.join(d, f), os.path.join(base, run))
                for d, _, names in os.walk(os.path.join(base, run)) for f in names
                if not f.endswith(".png"))  # make bench-plot's output, ignored by git
    return runs


def citers(root):
    """The files whose text may cite a result: see the module's docstring."""
    skip = {os.path.normpath(os.path.join(root, RESULTS)), os.path.normpath(os.path.abspath(__file__))}
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(n for n in dirs if not n.startswith((".", "build"))
                         and os.path.normpath(os.path.join(d, n)) not in skip)
        top = os.path.relpath(d, root).split(os.sep)[0]
        for n in sorted(names):
            p = os.path.join(d, n)
            if os.path.normpath(os.path.abspath(p)) in skip:
                continue
            if top in CITER_DIRS or n in CITER_NAMES or n.endswith(".mk"):
                yield p


def sections(path, text):
    """A Markdown file's sections (a name cites a file of the runs its section names); else the whole text."""
    return re.split(r"^(?=#+ )", text, flags=re.M) if path.endswith(".md") else [text]


def cites_in(text, runs, cited_runs, cited_files):
    for m in CITED_PATH.finditer(text):
        run, pattern = m.groups()
        if run in runs:
            cited_runs.add(run)
            if pattern:
                cited_files.update((run, f) for f in runs[run]
                                   if fnmatch.fnmatch(f, pattern) or f.startswith(pattern.rstrip("/") + "/"))
    named_runs = [r for r in runs if re.search(r"(?<![\w-])" + re.escape(r) + r"(?![\w-])", text)]
    names = set(FILE_NAME.findall(text))
    for run in named_runs:
        cited_runs.add(run)
        cited_files.update((run, f) for f in runs[run] if any(fnmatch.fnmatch(os.path.basename(f), n) for n in names))


def check_results(root):
    """Problems for every results folder and file that nothing cites."""
    runs = results_files(root)
    cited_runs, cited_files = set(), set()
    for path in citers(root):
        try:
            text = open(path, encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue  # not text: cites nothing
        for section in sections(path, text):
            cites_in(section, runs, cited_runs, cited_files)
    problems = []
    for run, files in runs.items():
        where = f"{RESULTS}/{run}"
        if run not in cited_runs:
            problems.append(f"{where}/: no handout, README, script, Makefile or job cites this run; "
                            f"delete the folder, or cite it where its figures are used")
            continue
        for f in files:
            if (run, f) not in cited_files and f not in KEPT_WITHOUT_CITE:
                problems.append(f"{where}/{f}: nothing cites this file; delete it, or cite it "
                                f"(as results/{run}/{f}, or by name beside '{run}') where its figures are used")
    return problems, sum(len(f) for f in runs.values())


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    folder = os.path.join(root, "handouts")
    problems, cited = [], 0
    for name in sorted(os.listdir(folder)):
        if name.endswith(".md"):
            p, n = check_handout(root, os.path.join(folder, name))
            problems += p
            cited += n
    uncited, kept = check_results(root)
    for p in problems + uncited:
        print(p, file=sys.stderr)
    if problems:
        print(f"check-citations: {len(problems)} problem(s) in the handouts' measured figures", file=sys.stderr)
    if uncited:
        print(f"check-citations: {len(uncited)} results folder(s) or file(s) nothing cites", file=sys.stderr)
    if problems or uncited:
        return 1
    print(f"check-citations: {cited} measured figures in the handouts match the committed results; "
          f"all {kept} files under {RESULTS} are cited")
    return 0


if __name__ == "__main__":
    sys.exit(main())
