#!/usr/bin/env python3
"""Plot GB/s against n from gemv_sweep.csv (spmv-bench --gemv-sweep): one panel per
precision and transpose, lab 09's gemv-tuned against cuBLAS.

    plot_gemv.py gemv_sweep.csv OUT_DIR     writes OUT_DIR/gemv_gbs.png
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    rows = [r for r in csv.DictReader(open(sys.argv[1], encoding="utf-8")) if r["status"] == "ok"
            and not r["kernel"].startswith("best-sparse")]
    panels = sorted({(r["precision"], r["op"]) for r in rows})
    fig, axes = plt.subplots(1, max(1, len(panels)), figsize=(5 * max(1, len(panels)), 4), squeeze=False)
    for ax, (prec, op) in zip(axes[0], panels):
        for kernel in sorted({r["kernel"] for r in rows}):
            pts = sorted((int(r["n"]), float(r["gbs"])) for r in rows
                         if r["precision"] == prec and r["op"] == op and r["kernel"] == kernel)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=kernel)
        ax.set_xscale("log", base=2)
        ax.set_title(f"{prec}, op {op}")
        ax.set_xlabel("n (square)")
        ax.set_ylabel("GB/s (cold, dense bytes model)")
        ax.legend()
    fig.tight_layout()
    out = os.path.join(sys.argv[2], "gemv_gbs.png")
    fig.savefig(out, dpi=120)
    print(f"bench-gemv: wrote {out}")


if __name__ == "__main__":
    main()
