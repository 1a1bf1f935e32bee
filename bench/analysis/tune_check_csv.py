#!/usr/bin/env python3
"""Turns tune_check logs (lab 05) into the tables the handouts cite.

    tune_check_csv.py OUT_DIR RUN=LOG [RUN=LOG ...]

For each RUN (a name such as "before" or "after") and its log, writes to OUT_DIR:
  tune_check.csv         run, matrix, precision, kernel, pick, percent_of_best, prediction_error_percent
                         (one row per line of the log's summary; matrix names with '_' for blanks;
                         a joint row has kernel "joint" and no prediction error)
  tune_check_totals.csv  run, kernel_picks_within_5, kernel_picks, joint_picks_within_5, joint_picks,
                         median_pick_error_percent, median_shape_error_percent
"""
import csv
import os
import re
import sys

SUMMARY = re.compile(r"^  (.+?)\s+(float|double)\s+(bcsr-\S+|joint)\s+pick (.+?)\s+([\d.]+)% of best"
                     r"(?:, prediction error\s+([-+\d.]+)%)?")
KERNEL = re.compile(r"tune_check: (\d+) of (\d+) kernel picks")
JOINT = re.compile(r"tune_check: (\d+) of (\d+) joint picks")
MEDIAN = re.compile(r"median \|prediction error\| ([\d.]+)% over the \d+ picks .*?; ([\d.]+)% over all")


def slug(name):
    return re.sub(r"[^A-Za-z0-9.-]+", "_", name.replace("=", "").replace("/", " per ")).strip("_")


def parse(run, path):
    rows, totals = [], {"run": run}
    for line in open(path, encoding="utf-8"):
        if m := SUMMARY.match(line):
            matrix, precision, kernel, pick, percent, error = m.groups()
            rows.append({"run": run, "matrix": slug(matrix), "precision": precision, "kernel": kernel,
                         "pick": pick.strip(), "percent_of_best": percent, "prediction_error_percent": error or ""})
        elif m := KERNEL.search(line):
            totals["kernel_picks_within_5"], totals["kernel_picks"] = m.groups()
        elif m := JOINT.search(line):
            totals["joint_picks_within_5"], totals["joint_picks"] = m.groups()
        elif m := MEDIAN.search(line):
            totals["median_pick_error_percent"], totals["median_shape_error_percent"] = m.groups()
    if not rows or len(totals) != 7:
        sys.exit(f"tune_check_csv: {path} holds no complete tune_check summary")
    return rows, totals


def write(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(sys.argv) > 1 else 2
    rows, totals = [], []
    for arg in sys.argv[2:]:
        run, _, log = arg.partition("=")
        r, t = parse(run, log)
        rows += r
        totals.append(t)
    write(os.path.join(sys.argv[1], "tune_check.csv"), rows)
    write(os.path.join(sys.argv[1], "tune_check_totals.csv"), totals)
    print(f"tune_check_csv: {len(rows)} picks of {len(totals)} run(s) written to {sys.argv[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
