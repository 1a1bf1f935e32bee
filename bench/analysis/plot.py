#!/usr/bin/env python3
"""Draws the benchmark plots from spmv-bench's Google Benchmark JSON.

    plot.py BENCH_JSON OUT_DIR

Writes, in OUT_DIR:
  gflops_<precision>.png   GFLOP/s of the best kernel of each format on each matrix, the
                           cuSPARSE CSR baseline beside them, and each bar's bound (the copy
                           ceiling turned into GFLOP/s through that kernel's bytes model) as a
                           black tick
  dia_path.png             the DIA optimisation path step by step on the radius-5 matrices,
                           each step against its own bound
  vs_cusparse.png          the best kit kernel's speed-up over cuSPARSE CSR per matrix
                           (only when the run had cuSPARSE)
  winners_<precision>.png  a heatmap of % of the bandwidth ceiling (cold), kernels by matrices:
                           the fastest kernel of each matrix boxed, figures above 100% (served
                           from cache) hatched and starred, refused or failed runs left blank
  format_model_<precision>.png  lab 08's predicted time against the measured one (cold), one
                           point per covered CUDA kernel and matrix, the model's pick ringed,
                           the +-20% band shaded (from summary.csv beside BENCH_JSON)
Only GPU results are drawn when the run had a GPU; otherwise the host (CPU, PoCL) ones.
"""
import csv
import json
import math
import sys
from collections import OrderedDict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def format_of(kernel):
    """Same rule as bench/report.cpp format_of: the name's first '-' part, but CSR kernels keep
    their full name; "@RxC" (a forced block size) is not part of the format."""
    kernel = kernel.split("@")[0]
    if kernel.startswith("cusparse-"):
        return "cusparse-" + kernel.split("-")[1]
    head = kernel.split("-")[0]
    return kernel if head == "csr" and "-" in kernel else head


def load(path):
    """Successful spmv benchmarks as dicts, and the run's context."""
    with open(path) as f:
        data = json.load(f)
    rows = []
    for b in data.get("benchmarks", []):
        parts = b["name"].split("/")
        if parts[0] != "spmv" or b.get("error_occurred") or b.get("skipped") or "GFLOPs" not in b:
            continue
        rows.append({
            "matrix": parts[1], "precision": parts[2], "backend": parts[3], "kernel": parts[4],
            "format": format_of(parts[4]), "gflops": b["GFLOPs"], "bound": b.get("bound_GFLOPs", 0.0),
            "step_bound": b.get("step_bound_GFLOPs", 0.0), "ratio": b.get("vs_cusparse", 0.0),
            "pct": b.get("pct_ceiling", 0.0), "lab": int(b.get("lab", -1)), "step": int(b.get("step", 0)),
            "nnz": b.get("nnz", 0),
        })
    return rows, data.get("context", {})


def drawn_rows(rows, context):
    gpu = [x for x in context.get("gpu_backends", "").split(",") if x]
    if gpu:
        picked = [r for r in rows if r["backend"] in gpu]
        if picked:
            return picked, "GPU"
    return rows, "host"


def title_device(context, where):
    if where == "GPU":
        name = context.get("device_cuda") or context.get("device_opencl", "")
        ceiling = context.get("ceiling_cuda_GBs") or context.get("ceiling_opencl_GBs", "0")
    else:
        name = "host: " + ", ".join(context.get(k, "") for k in ("device_cpu", "device_opencl") if context.get(k))
        ceiling = context.get("ceiling_cpu_GBs", "0")
    return f"{name} (bandwidth ceiling {float(ceiling):.0f} GB/s)"


def save(fig, path):
    """Lays the figure out, writes it as a 120-dpi PNG, frees it; returns the path."""
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def best_by(rows, key):
    """Fastest row for each value of key(row), in first-seen order."""
    best = OrderedDict()
    for r in rows:
        k = key(r)
        if k not in best or r["gflops"] > best[k]["gflops"]:
            best[k] = r
    return best


def plot_formats(rows, context, where, out):
    written = []
    for precision in sorted({r["precision"] for r in rows}):
        sel = [r for r in rows if r["precision"] == precision]
        matrices = list(OrderedDict.fromkeys(r["matrix"] for r in sel))
        formats = sorted({r["format"] for r in sel}, key=lambda f: (f.startswith("cusparse"), f))
        if not matrices or not formats:
            continue
        best = best_by(sel, lambda r: (r["matrix"], r["format"]))
        width = 0.8 / len(formats)
        fig, ax = plt.subplots(figsize=(max(10, 1.2 * len(matrices)), 6))
        colors = plt.get_cmap("tab20")
        for i, f in enumerate(formats):
            xs, ys, bounds = [], [], []
            for j, m in enumerate(matrices):
                r = best.get((m, f))
                if r:
                    xs.append(j - 0.4 + (i + 0.5) * width)
                    ys.append(r["gflops"])
                    bounds.append(r["bound"])
            hatch = "//" if f.startswith("cusparse") else None
            ax.bar(xs, ys, width, label=f, color=colors(i % 20), hatch=hatch, edgecolor="black", linewidth=0.3)
            ticks = [(x, b) for x, b in zip(xs, bounds) if b > 0]
            ax.hlines([b for _, b in ticks], [x - width / 2 for x, _ in ticks], [x + width / 2 for x, _ in ticks],
                      colors="black", linewidth=1.5, label="bound (bandwidth ceiling)" if i == 0 else None)
        ax.set_yscale("log")
        ax.set_xticks(range(len(matrices)))
        ax.set_xticklabels(matrices, rotation=35, ha="right", fontsize=8)
        ax.set_ylabel("GFLOP/s (2 nnz / median time)")
        ax.set_title(f"SpMV {precision}: best kernel of each format; {title_device(context, where)}", fontsize=10)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        ax.grid(axis="y", which="both", alpha=0.3)
        path = save(fig, out / f"gflops_{precision}.png")
        written.append(path)
    return written


def plot_dia_path(rows, context, where, out):
    dia = [r for r in rows if r["format"] == "dia"]
    lab07 = [r for r in dia if r["lab"] == 7 and r["step"] >= 1]
    path_rows = lab07 or dia
    panels = list(OrderedDict.fromkeys((r["matrix"], r["precision"]) for r in path_rows if r["matrix"].startswith("radius")))
    if not panels:
        panels = list(OrderedDict.fromkeys((r["matrix"], r["precision"]) for r in path_rows))[:4]
    if not panels:
        return []
    fig, axes = plt.subplots(len(panels), 1, figsize=(10, 3.2 * len(panels)), squeeze=False)
    for ax, (m, p) in zip(axes[:, 0], panels):
        steps = sorted((r for r in path_rows if r["matrix"] == m and r["precision"] == p),
                       key=lambda r: (r["backend"], r["lab"], r["step"]))
        names = [f"{r['backend']}\nstep {r['step']} {r['kernel']}" for r in steps]
        ys = [r["gflops"] for r in steps]
        bounds = [r["step_bound"] or r["bound"] for r in steps]
        xs = range(len(steps))
        ax.bar(xs, ys, 0.6, color=["tab:blue" if r["backend"] == "opencl" else "tab:green" for r in steps])
        ax.hlines(bounds, [x - 0.3 for x in xs], [x + 0.3 for x in xs], colors="black", linewidth=2, label="step's bound")
        for x, y, b in zip(xs, ys, bounds):
            if b > 0:
                ax.annotate(f"{100 * y / b:.0f}%", (x, y), ha="center", va="bottom", fontsize=7)
        ax.set_xticks(list(xs))
        ax.set_xticklabels(names, fontsize=7)
        ax.set_ylabel("GFLOP/s")
        nnz = steps[0]["nnz"] / 1e6 if steps else 0
        ax.set_title(f"DIA path on {m} ({nnz:.1f}M nnz, {p}); % = of the step's bound", fontsize=9)
        ax.legend(fontsize=7)
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle(title_device(context, where), fontsize=9)
    path = save(fig, out / "dia_path.png")
    return [path]


def plot_ratios(rows, out):
    kit = [r for r in rows if r["lab"] >= 0 and r["ratio"] > 0]
    if not kit:
        return []
    best = OrderedDict()
    for r in kit:
        k = f"{r['matrix']}/{r['precision']}"
        if k not in best or r["ratio"] > best[k]["ratio"]:
            best[k] = r
    keys = list(best)
    ratios = [best[k]["ratio"] for k in keys]
    geomean = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
    fig, ax = plt.subplots(figsize=(max(10, 0.6 * len(keys)), 5))
    ax.bar(range(len(keys)), ratios, color=["tab:green" if x >= 1.0 else "tab:red" for x in ratios])
    for i, k in enumerate(keys):
        ax.annotate(f"{best[k]['backend']}:{best[k]['kernel']}", (i, ratios[i]), ha="center", va="bottom", fontsize=6,
                    rotation=90)
    ax.set_ylim(0, max(ratios + [1.1]) * 1.35)  # room for the names
    ax.axhline(1.0, color="black", linewidth=1, label="cuSPARSE CSR (1.0x)")
    ax.axhline(1.1, color="black", linestyle="--", linewidth=1, label="geomean target 1.1x")
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels(keys, rotation=40, ha="right", fontsize=7)
    ax.set_ylabel("best kit kernel: cuSPARSE CSR time / kernel time")
    ax.set_title(f"Best kit kernel vs cuSPARSE CSR (geomean {geomean:.2f}x)", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    path = save(fig, out / "vs_cusparse.png")
    return [path]


def plot_winners(rows, context, where, out):
    """Heatmap of % of ceiling, one per precision: which kernel wins where, at a glance."""
    written = []
    for precision in sorted({r["precision"] for r in rows}):
        sel = [r for r in rows if r["precision"] == precision]
        matrices = list(OrderedDict.fromkeys(r["matrix"] for r in sel))
        kernels = sorted({f"{r['backend']}:{r['kernel']}" for r in sel})
        cell = {(f"{r['backend']}:{r['kernel']}", r["matrix"]): r for r in sel}
        fig, ax = plt.subplots(figsize=(1.1 * len(matrices) + 3, 0.32 * len(kernels) + 2.2))
        grid = [[cell[(k, m)]["pct"] if (k, m) in cell else float("nan") for m in matrices] for k in kernels]
        image = ax.imshow(grid, cmap="viridis", vmin=0, vmax=100, aspect="auto")
        for j, m in enumerate(matrices):
            best = max((r for (k, mm), r in cell.items() if mm == m), key=lambda r: r["gflops"], default=None)
            for i, k in enumerate(kernels):
                r = cell.get((k, m))
                if not r:
                    continue
                text = f"{r['pct']:.0f}" + ("*" if r["pct"] > 100 else "")
                ax.text(j, i, text, ha="center", va="center", fontsize=6,
                        color="black" if r["pct"] > 60 else "white")
                if r["pct"] > 100:
                    ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///", edgecolor="white",
                                               linewidth=0))
                if best is r:
                    ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="red", linewidth=2))
        ax.set_xticks(range(len(matrices)))
        ax.set_xticklabels(matrices, rotation=35, ha="right", fontsize=8)
        ax.set_yticks(range(len(kernels)))
        ax.set_yticklabels(kernels, fontsize=8)
        fig.colorbar(image, ax=ax, label="% of the bandwidth ceiling (cold)")
        ax.set_title(f"Which kernel wins ({precision}, {where}): red box = fastest on the matrix; "
                     f"* = above the ceiling (cache)\n{title_device(context, where)}", fontsize=9)
        path = save(fig, out / f"winners_{precision}.png")
        written.append(path)
    return written


def plot_format_model(summary_csv, context, out):
    """Lab 08: predicted against measured cold time, log-log; on the diagonal the model is exact."""
    if not summary_csv.exists():
        return []
    with open(summary_csv, newline="") as f:
        rows = [r for r in csv.DictReader(f)
                if r.get("status") == "ok" and r["backend"] == "cuda" and float(r.get("predicted_ms") or 0) > 0
                and float(r["ms"]) > 0]
    written = []
    for precision in sorted({r["precision"] for r in rows}):
        sel = [r for r in rows if r["precision"] == precision]
        kernels = sorted({r["kernel"] for r in sel})
        fig, ax = plt.subplots(figsize=(7.5, 6))
        lo = min(min(float(r["ms"]), float(r["predicted_ms"])) for r in sel) / 1.5
        hi = max(max(float(r["ms"]), float(r["predicted_ms"])) for r in sel) * 1.5
        ax.plot([lo, hi], [lo, hi], color="black", linewidth=1, label="predicted = measured")
        ax.fill_between([lo, hi], [lo * 0.8, hi * 0.8], [lo * 1.2, hi * 1.2], color="grey", alpha=0.2,
                        label="within 20%")
        markers = "osD^v<>ph*"
        for i, k in enumerate(kernels):
            pts = [r for r in sel if r["kernel"] == k]
            ax.scatter([float(r["ms"]) for r in pts], [float(r["predicted_ms"]) for r in pts], s=28,
                       marker=markers[i % len(markers)], label=k)
        picks = [r for r in sel if r.get("model_pick") == "1"]
        ax.scatter([float(r["ms"]) for r in picks], [float(r["predicted_ms"]) for r in picks], s=140,
                   facecolors="none", edgecolors="red", linewidths=1.5, label="the model's pick")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
        ax.set_xlabel("measured ms (cold)")
        ax.set_ylabel("predicted ms (lab 08's model)")
        ax.legend(fontsize=7, loc="upper left")
        name = context.get("device_cuda", "")
        ax.set_title(f"Lab 08: predicted against measured, {precision}\n{name}", fontsize=9)
        written.append(save(fig, out / f"format_model_{precision}.png"))
    return written


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    src, out = Path(argv[1]), Path(argv[2])
    if not src.exists():
        print(f"plot: {src} not found (run make bench first)", file=sys.stderr)
        return 1
    rows, context = load(src)
    if not rows:
        print(f"plot: no successful spmv benchmark in {src}; nothing to draw")
        return 0
    out.mkdir(parents=True, exist_ok=True)
    picked, where = drawn_rows(rows, context)
    written = (plot_formats(picked, context, where, out) + plot_dia_path(picked, context, where, out)
               + plot_ratios(picked, out) + plot_winners(picked, context, where, out)
               + plot_format_model(src.parent / "summary.csv", context, out))
    for p in written:
        print(f"plot: wrote {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
