#!/usr/bin/env python3
"""Lab 08: put the model's predicted times next to the benchmark's measured ones.

usage: compare_predictions.py SUMMARY_CSV PREDICTIONS_CSV [--out OUT.csv]

SUMMARY_CSV is a benchmark summary (bench/results/<run>/summary.csv: matrix, precision,
backend, kernel, status, ms, ...). PREDICTIONS_CSV holds the rows of
`spmv-kit info FILE --predict-csv` for each matrix, concatenated (one header kept).
Writes one row per (matrix, precision, kernel) found in both: predicted and measured cold
ms, their ratio, and whether the model's pick was the measured fastest of the covered kernels.
"""
import csv
import sys


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--out"):
        sys.exit(__doc__)
    measured = {}
    with open(argv[0], newline="") as f:
        for r in csv.DictReader(f):
            if r["backend"] == "cuda" and r["status"] == "ok" and float(r["ms"]) > 0:
                measured[(r["matrix"], r["precision"], r["kernel"])] = float(r["ms"])
    rows = []
    with open(argv[1], newline="") as f:
        for r in csv.DictReader(f):
            if r["matrix"] == "matrix":
                continue  # a repeated header from concatenated files
            key = (r["matrix"], r["precision"], r["kernel"])
            if key in measured:
                rows.append({"matrix": key[0], "precision": key[1], "kernel": key[2],
                             "predicted_ms": float(r["predicted_ms"]), "measured_ms": measured[key],
                             "picked": r["picked"]})
    fastest = {}
    for r in rows:
        k = (r["matrix"], r["precision"])
        if k not in fastest or r["measured_ms"] < fastest[k]:
            fastest[k] = r["measured_ms"]
    out = open(argv[3], "w", newline="") if len(argv) == 4 else sys.stdout
    w = csv.writer(out)
    w.writerow(["matrix", "precision", "kernel", "predicted_ms", "measured_ms", "predicted_over_measured",
                "picked", "measured_fastest"])
    hits = picks = 0
    for r in rows:
        best = r["measured_ms"] == fastest[(r["matrix"], r["precision"])]
        if r["picked"] == "1":
            picks += 1
            hits += best
        w.writerow([r["matrix"], r["precision"], r["kernel"], f"{r['predicted_ms']:.6g}", f"{r['measured_ms']:.6g}",
                    f"{r['predicted_ms'] / r['measured_ms']:.3f}", r["picked"], int(best)])
    print(f"# {len(rows)} kernel rows; the pick was the measured fastest for {hits} of {picks} (matrix, precision)",
          file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
