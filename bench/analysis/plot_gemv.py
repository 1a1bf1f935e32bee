#!/usr/bin/env python3
"""Plot GB/s against n from gemv_sweep.csv (spmv-bench --gemv-sweep): one panel per
precision and transpose, lab 09's gemv-tuned against cuBLAS, with the measured read ceiling
(from the CSV's pct_read_ceiling) as a dashed line.

    plot_gemv.py gemv_sweep.csv OUT_DIR     writes OUT_DIR/gemv_gbs.png
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_ceiling(rows):
    """The read ceiling in GB/s the sweep measured: gbs / pct_read_ceiling of any row, or None."""
    for r in rows:
        pct = float(r["pct_read_ceiling"] or 0)
        if pct > 0:
            return float(r["gbs"]) * 100 / pct
    return None


def main():
    if len(sys.argv) != 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help") else 2)
    rows = [r for r in csv.DictReader(open(sys.argv[1], encoding="utf-8")) if r["status"] == "ok"
            and not r["kernel"].startswith("best-sparse")]
    panels = sorted({(r["precision"], r["op"]) for r in rows})
    ceiling = read_ceiling(rows)
    fig, axes = plt.subplots(1, max(1, len(panels)), figsize=(5 * max(1, len(panels)), 4), squeeze=False)
    for ax, (prec, op) in zip(axes[0], panels):
        for kernel in sorted({r["kernel"] for r in rows}):
            pts = sorted((int(r["n"]), float(r["gbs"])) for r in rows
                         if r["precision"] == prec and r["op"] == op and r["kernel"] == kernel)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=kernel)
        if ceiling:
            ax.axhline(ceiling, linestyle="--", color="gray", label=f"read ceiling {ceiling:.0f} GB/s")
        ax.set_xscale("log", base=2)
        ax.set_title(f"{prec}, op {op}")
        ax.set_xlabel("n (square)")
        ax.set_ylabel("GB/s (cold, dense bytes model)")
        ax.legend()
    fig.tight_layout()
    os.makedirs(sys.argv[2], exist_ok=True)
    out = os.path.join(sys.argv[2], "gemv_gbs.png")
    fig.savefig(out, dpi=120)
    print(f"bench-gemv: wrote {out}")


if __name__ == "__main__":
    main()
