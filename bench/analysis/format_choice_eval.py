#!/usr/bin/env python3
"""Lab 08's model on real matrices (issue 39): predicted against measured for every CUDA kernel.

    format_choice_eval.py SUMMARY_CSV PREDICT_DIR --out DIR [--plot FILE.png]
    format_choice_eval.py SUMMARY_CSV --from-summary --out DIR [--plot FILE.png]

SUMMARY_CSV is spmv-bench's summary.csv of a run with --suitesparse-dir (the measured cold
times, matrices named ss_<file>); PREDICT_DIR holds `spmv-kit info FILE --precision P
--predict-csv PREDICT_DIR/<file>.<P>.csv` for each file and precision, made with the same
device parameters ($KIT_DEVICE_PARAMS from that run's `spmv-kit calibrate`). Writes
DIR/format_choice_eval.csv, one row per kernel (pairs where it ran and was predicted, median
|predicted/measured - 1|, median predicted/measured) and the rows "pick", "always-csr-vector"
and "cusparse-csr" (pairs, share within 10% of the fastest kit CUDA kernel, geomean and worst
time over that kernel's), "pick-fastest-above-10us" (the pick on the pairs whose fastest kit
kernel takes more than 10 us, where launch latency alone does not decide);
DIR/real_times.csv, the measured cold times it used (microseconds); and DIR/misses.csv, every
pair whose pick is more than 10% slower than the fastest, with both kernels' predicted and
measured times and the model's next three candidates (where to look for a missing term).
--plot draws predicted against measured, every kernel on every pair, log-log (needs matplotlib;
make deps installs it). --from-summary takes the predictions from SUMMARY_CSV itself (its
predicted_ms, and its model_pick for the pick): a run of the bench suite with
$KIT_DEVICE_PARAMS set, whose matrices are generated, not files.
"""
import argparse
import csv
import glob
import math
import os
import statistics
from collections import defaultdict

from script_errors import run

SLACK = 1.10
LAUNCH_BOUND_MS = 0.010  # fastest kit kernel at or below this: launch latency decides
MISS_FIELDS = ["matrix", "precision", "pick", "pick_us", "pick_predicted_us", "best", "best_us",
               "best_predicted_us", "pick_over_best", "next_predicted"]


def cuda_rows(path):
    """((matrix, precision), row) for each single-GPU CUDA row of a summary that ran."""
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["status"] == "ok" and r["backend"] == "cuda" and r["kernel"] != "dist-nccl":
                yield (r["matrix"].removeprefix("ss_"), r["precision"]), r


def measured(path):
    """(matrix, precision) -> kernel -> cold ms, CUDA rows that ran, cuSPARSE's too."""
    out = defaultdict(dict)
    for key, r in cuda_rows(path):
        out[key][r["kernel"]] = float(r["ms"])
    return out


def predicted(folder):
    """(matrix, precision) -> kernel -> predicted ms, feasible predictions only."""
    out = defaultdict(dict)
    for path in glob.glob(os.path.join(folder, "*.csv")):
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if r["feasible"] == "1":
                    out[(r["matrix"], r["precision"])][r["kernel"]] = float(r["predicted_ms"])
    return out


def predicted_in_summary(path):
    """(predictions, picks) from a summary made with $KIT_DEVICE_PARAMS: (matrix, precision) ->
    kernel -> predicted ms (CUDA rows that ran and were predicted), and -> the model's pick."""
    pred, picks = defaultdict(dict), {}
    for key, r in cuda_rows(path):
        if r.get("predicted_ms") and float(r["predicted_ms"]) > 0:
            pred[key][r["kernel"]] = float(r["predicted_ms"])
        if r.get("model_pick") == "1":
            picks[key] = r["kernel"]
    return pred, picks


def rule_row(name, ratios):
    return {"kernel": name, "pairs": len(ratios),
            "within_10pct": sum(q <= SLACK for q in ratios),
            "share_within_10pct": f"{sum(q <= SLACK for q in ratios) / len(ratios):.3f}" if ratios else "",
            "geomean_over_best": f"{math.exp(sum(map(math.log, ratios)) / len(ratios)):.3f}" if ratios else "",
            "worst_over_best": f"{max(ratios):.2f}" if ratios else ""}


def evaluate(meas, pred, picks=None):
    """The rules' time-over-best ratios, each kernel's predicted/measured ratios, and the misses.
    The pick is the least predicted kernel, or picks[(matrix, precision)] where given."""
    rules, errors, misses = defaultdict(list), defaultdict(list), []
    for key, times in sorted(meas.items()):
        kit = {k: v for k, v in times.items() if not k.startswith("cusparse")}
        p = pred.get(key)
        if not kit or not p:
            continue
        best = min(kit, key=kit.get)
        pick = picks[key] if picks and key in picks else min(p, key=p.get)
        if pick in kit:
            rules["pick"].append(kit[pick] / kit[best])
            if kit[best] > LAUNCH_BOUND_MS:
                rules["pick-fastest-above-10us"].append(kit[pick] / kit[best])
            if kit[pick] > SLACK * kit[best]:
                misses.append(miss_row(key, kit, p, pick, best))
        if "csr-vector" in kit:
            rules["always-csr-vector"].append(kit["csr-vector"] / kit[best])
        if "cusparse-csr" in times:
            rules["cusparse-csr"].append(times["cusparse-csr"] / kit[best])
        for k, v in p.items():
            if k in kit:
                errors[k].append(v / kit[k])
    return rules, errors, misses


def us(ms):
    """Milliseconds as microseconds, 3 decimals; blank when absent."""
    return f"{ms * 1e3:.3f}" if ms is not None else ""


def miss_row(key, kit, p, pick, best):
    """One pair whose pick is more than 10% slower than the fastest kit kernel (MISS_FIELDS)."""
    return {"matrix": key[0], "precision": key[1], "pick": pick, "pick_us": us(kit[pick]),
            "pick_predicted_us": us(p[pick]), "best": best, "best_us": us(kit[best]),
            "best_predicted_us": us(p.get(best)), "pick_over_best": f"{kit[pick] / kit[best]:.3f}",
            "next_predicted": " ".join(f"{k}={us(p[k])}" for k in sorted(p, key=p.get)[1:4])}


def write_csv(path, fields, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("summary")
    ap.add_argument("predict_dir", nargs="?")
    ap.add_argument("--from-summary", action="store_true", help="predictions from SUMMARY_CSV itself")
    ap.add_argument("--out", required=True)
    ap.add_argument("--plot", help="draw predicted against measured into this PNG")
    a = ap.parse_args()
    if (a.predict_dir is None) != a.from_summary:
        ap.error("give PREDICT_DIR or --from-summary (one of the two)")
    meas = measured(a.summary)
    pred, picks = predicted_in_summary(a.summary) if a.from_summary else (predicted(a.predict_dir), None)
    rules, errors, misses = evaluate(meas, pred, picks)
    os.makedirs(a.out, exist_ok=True)
    fields = ["kernel", "pairs", "median_abs_error", "median_predicted_over_measured", "within_10pct",
              "share_within_10pct", "geomean_over_best", "worst_over_best"]
    rows = []
    for name in ("pick", "pick-fastest-above-10us", "always-csr-vector", "cusparse-csr"):
        rows.append(rule_row(name, rules[name]))
        print(f"{name}: {rows[-1]}")
    for k, q in sorted(errors.items()):
        rows.append({"kernel": k, "pairs": len(q),
                     "median_abs_error": f"{statistics.median(abs(x - 1) for x in q):.3f}",
                     "median_predicted_over_measured": f"{statistics.median(q):.3f}"})
    write_csv(os.path.join(a.out, "format_choice_eval.csv"), fields, rows)
    times = [{"matrix": m, "precision": prec, "kernel": k, "us": f"{v * 1e3:.6g}"}
             for (m, prec), t in sorted(meas.items()) for k, v in sorted(t.items())]
    write_csv(os.path.join(a.out, "real_times.csv"), ["matrix", "precision", "kernel", "us"], times)
    write_csv(os.path.join(a.out, "misses.csv"), MISS_FIELDS, misses)
    print(f"format_choice_eval: wrote {a.out}/format_choice_eval.csv, real_times.csv and misses.csv "
          f"({len(misses)} misses)")
    if a.plot:
        plot(meas, pred, a.plot)


def plot(meas, pred, path):
    """Predicted against measured, one colour per format family, with the y = x line."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("format_choice_eval: --plot skipped: matplotlib not found (make deps installs python3-matplotlib)")
        return
    points = defaultdict(list)
    for key, times in meas.items():
        for k, v in pred.get(key, {}).items():
            if k in times and not k.startswith("cusparse"):
                points[k.split("-")[0]].append((times[k] * 1e3, v * 1e3))
    fig, ax = plt.subplots(figsize=(7, 6))
    for family, xy in sorted(points.items()):
        ax.scatter([p[0] for p in xy], [p[1] for p in xy], s=6, alpha=0.5, label=family)
    lo = min(min(p) for xy in points.values() for p in xy)
    hi = max(max(p) for xy in points.values() for p in xy)
    ax.plot([lo, hi], [lo, hi], "k--", linewidth=1)
    ax.set(xscale="log", yscale="log", xlabel="measured cold time (us)", ylabel="predicted (us)",
           title="Does lab 08's model predict each kernel? (y = x: exact)")
    ax.legend(fontsize=8, markerscale=2)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    print(f"format_choice_eval: drew {path}")


if __name__ == "__main__":
    run("format_choice_eval", main)
