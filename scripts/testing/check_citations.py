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
precision). The link text
must equal the value rounded to the digits shown ("1.71x" and "93.9%" keep their unit). So
no figure is copied by hand: a re-run that changes a result fails this check until the
handout is updated, and the reader can click through to the source. Also fails on a
"Measured on" section that quotes no result at all. Exit status 1 on any mismatch.
"""
import csv
import os
import re
import sys

# gemv_sweep.csv and gemv_finish_ab.csv: one row per size, precision, transpose and kernel
GEMV_KEY = lambda r: [r["n"], r["precision"], r["op"], r["kernel"]]  # noqa: E731
LINK = re.compile(r'\[([^\]]+)\]\((\.\./bench/results/[^ )]+\.csv) "([^"]+)"\)')
KEYS = {
    "summary.csv": lambda r: [r["matrix"], r["precision"], r["backend"] + ":" + r["kernel"]],
    "validation.csv": lambda r: [r["matrix"], r["kernel"]],
    "dia_path_bytes.csv": lambda r: [r["kernel"]],
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
}


def load(path, cache={}):
    if path not in cache:
        with open(path, newline="") as f:
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
        kind = os.path.basename(source)
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


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    folder = os.path.join(root, "handouts")
    problems, cited = [], 0
    for name in sorted(os.listdir(folder)):
        if name.endswith(".md"):
            p, n = check_handout(root, os.path.join(folder, name))
            problems += p
            cited += n
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"check-citations: {len(problems)} problem(s) in the handouts' measured figures", file=sys.stderr)
        return 1
    print(f"check-citations: {cited} measured figures in the handouts match the committed results")
    return 0


if __name__ == "__main__":
    sys.exit(main())
