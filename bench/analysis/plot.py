#!/usr/bin/env python3
"""Draws the benchmark plots of one run; each plot asks one question and names its winner.

    plot.py [--out DIR] SOURCE...

SOURCE is a bench.json, a summary.csv, a run folder (its bench.json, else its summary.csv) or
a folder of run folders such as bench/results (its runs, newest first). The first SOURCE with
data is drawn; the ones skipped before it are named with the reason. The plots go to DIR,
by default the folder the data came from:

  gflops_<precision>.png   which kernel is fastest on each matrix: one panel per matrix, the
                           best kernel of each family (CSR kernels are one family) and the
                           baselines, fastest first, the winner in the panel's title; on a GPU
                           each bar's bound (the ceiling through its bytes model) as a tick
  vs_cusparse.png          does the best kit kernel beat cuSPARSE CSR: the speed-up per matrix
                           and its geomean, launch-bound pairs drawn apart and left out of it
  winners_<precision>.png  which family wins where: each family's best kernel as % of the
                           fastest kernel on the matrix; the box is on the fastest (100%)
  dia_path.png             lab 07's DIA path step by step against the kit's bound and the case
                           study's 2010 step bound (why steps beat the latter: see the note)
  format_model_<precision>.png  lab 08's predicted time against the measured one (summary.csv)
Only GPU results are drawn when the run had a GPU; otherwise the host (CPU, PoCL) ones, which
are not shown as % of the host's ceiling (one memcpy thread on a shared machine: noisy).
"""
import csv
import math
import sys
from collections import OrderedDict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import patheffects  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

import plot_data as pd  # noqa: E402

FOOT = 7  # font size of the notes under a plot
# One colour per kit family (pd.KIT_FAMILIES order); greys are kept for the baselines.
KIT_COLORS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown", "tab:pink", "tab:olive")


def title_device(context, where):
    if where == "GPU":
        name = context.get("device_cuda") or context.get("device_opencl", "")
        ceiling = context.get("ceiling_cuda_GBs") or context.get("ceiling_opencl_GBs", "0")
        return f"{name} (bandwidth ceiling {float(ceiling):.0f} GB/s)"
    devices = ", ".join(context.get(k, "") for k in ("device_cpu", "device_opencl") if context.get(k))
    return f"host: {devices} (no GPU in this run)"


def drawn_rows(rows, context):
    gpu = [x for x in context.get("gpu_backends", "").split(",") if x]
    picked = [r for r in rows if r["backend"] in gpu]
    return (picked, "GPU") if picked else (rows, "host")


def save(fig, path):
    """Writes the figure as a 120-dpi PNG and frees it; returns the path."""
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path


def family_color(family):
    """One colour per family, the same in every plot: kit families in KIT_COLORS, baselines grey."""
    if family in pd.KIT_FAMILIES:
        return KIT_COLORS[pd.KIT_FAMILIES.index(family)]
    greys = {"cusparse-csr": "0.25", "cusparse-coo": "0.5", "cusparse-bsr": "0.72"}
    return greys.get(family, "0.6")


def row_label(r):
    return f"{r['kernel']} ({r['backend']})" if r["backend"] != "cuda" else r["kernel"]


def draw_panel(ax, m, bars, where, launch):
    """One matrix: the family bests as horizontal bars, fastest on top, with their bounds."""
    ys = range(len(bars))[::-1]
    top = max(r["gflops"] for r in bars)
    ax.barh(list(ys), [r["gflops"] for r in bars], color=[family_color(r["family"]) for r in bars],
            hatch=None, edgecolor="black", linewidth=0.4)
    for y, r in zip(ys, bars):
        if pd.is_baseline(r):
            ax.barh(y, r["gflops"], color="none", hatch="///", edgecolor="white", linewidth=0)
        ax.text(top * 0.02, y, row_label(r), va="center", fontsize=6.5, color="white",
                path_effects=[patheffects.withStroke(linewidth=1.6, foreground="black")])
        if where == "GPU" and 0 < r["bound"] <= 1.6 * top:
            ax.vlines(r["bound"], y - 0.4, y + 0.4, colors="black", linewidth=1.6)
    bounds = [r["bound"] for r in bars if where == "GPU" and 0 < r["bound"] <= 1.6 * top]
    ax.set_xlim(0, max([top] + bounds) * 1.08)
    ax.set_yticks([])
    ax.tick_params(axis="x", labelsize=7)
    ax.grid(axis="x", alpha=0.3)
    win = bars[0]
    note = " [launch-bound]" if launch else ""
    ax.set_title(f"{m}{note}\nwinner: {row_label(win)} {win['gflops']:.4g} GFLOP/s", fontsize=8,
                 color="0.45" if launch else "black")


def plot_formats(rows, context, where, out):
    written = []
    launch = pd.launch_bound(rows) if where == "GPU" else set()
    for precision in sorted({r["precision"] for r in rows}):
        sel = [r for r in rows if r["precision"] == precision]
        matrices = list(OrderedDict.fromkeys(r["matrix"] for r in sel))
        best = pd.best_by(sel, lambda r: (r["matrix"], r["family"]))
        cols = min(4, len(matrices))
        nrows = math.ceil(len(matrices) / cols)
        fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols, 0.28 * 12 * nrows + 1.5), squeeze=False)
        for ax, m in zip(axes.flat, matrices):
            bars = sorted((r for (mm, _), r in best.items() if mm == m), key=lambda r: -r["gflops"])
            draw_panel(ax, m, bars, where, (m, precision) in launch)
        for ax in list(axes.flat)[len(matrices):]:
            ax.axis("off")
        families = list(OrderedDict.fromkeys(r["family"] for r in sorted(sel, key=lambda r: pd.is_baseline(r))))
        handles = [Patch(facecolor=family_color(f), edgecolor="black", hatch="///" if f.startswith("cu") else None,
                         label=f) for f in families]
        bound = ("black tick = the bar's bound: the bandwidth ceiling through the kernel's bytes model"
                 if where == "GPU" else "no bounds: the host ceiling (one memcpy thread, shared machine) is too noisy")
        fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=7, bbox_to_anchor=(0.5, -0.02))
        fig.suptitle(f"Which kernel is fastest on each matrix? SpMV {precision}, GFLOP/s (2 nnz / median cold "
                     f"time) of the best kernel of each family and the baselines, fastest first\n"
                     f"{title_device(context, where)}; {bound}", fontsize=9)
        fig.tight_layout(rect=(0, 0.03, 1, 0.97))
        written.append(save(fig, out / f"gflops_{precision}.png"))
    return written


def dia_note(where):
    """Why lab 07's steps run above the case study's step bound (and what the kit's bound is)."""
    lines = ["Black tick: the step's bound in the 2010 case study's model (dia_path.hpp, bytes_per_2_flops): every "
             "multiply-add pays DRAM bytes for the matrix value, its x value (steps 1-4) and its diagonal's offset "
             "(4 B, steps 1-2),",
             "that is 12, 8 or 4 B in float. Grey dashed tick: the kit's bound, the ceiling through bytes_model.hpp's "
             "dia_bytes (every stored slot once, x once, y once: about 4.2 B per multiply-add in float here)."]
    if where == "GPU":
        lines += ["On a GPU the offsets and x come from L1/L2 (every diagonal reuses x), so each step moves about the "
                  "kit's bytes, not the 2010 model's, and runs above its 2010 bound: a % above 100 is that cached",
                  "traffic, not a measuring error (Nsight Compute on an H100: 4.1 DRAM B per multiply-add in "
                  "each profiled float step; bench/results/h100-2026-11-23/dia_path_bytes.csv). "
                  "In brackets: % of the kit's bound."]
    else:
        lines = ["Host run: no bounds drawn. The ceiling behind them would be one memcpy thread on a shared "
                 "machine (noisy), and the CPU caches serve x and the offsets;",
                 "the 2010 model (dia_path.hpp, bytes_per_2_flops) charges them to DRAM, so a step would beat its "
                 "bound for the same reason as on a GPU (bench/README.md)."]
    return "\n".join(lines)


def draw_dia_steps(ax, m, p, steps, where):
    """One matrix and precision: each step's GFLOP/s; on a GPU with its two bounds."""
    xs = range(len(steps))
    ax.bar(xs, [r["gflops"] for r in steps], 0.6,
           color=["tab:blue" if r["backend"] == "opencl" else "tab:green" for r in steps])
    step_bounds = [r["step_bound"] or r["bound"] for r in steps] if where == "GPU" else []
    if step_bounds:
        ax.hlines(step_bounds, [x - 0.3 for x in xs], [x + 0.3 for x in xs], colors="black", linewidth=2,
                  label="the step's bound, 2010 case-study model")
        ax.hlines([r["bound"] for r in steps], [x - 0.3 for x in xs], [x + 0.3 for x in xs], colors="0.5",
                  linewidth=1.5, linestyles="--", label="the kit's bound (bytes_model.hpp)")
        ax.legend(fontsize=7, loc="upper left", ncol=2)
    for x, r in enumerate(steps):
        if step_bounds:
            kit = f" ({100 * r['gflops'] / r['bound']:.0f}%)" if r["bound"] > 0 else ""
            text = f"{100 * r['gflops'] / step_bounds[x]:.0f}%{kit}" if step_bounds[x] > 0 else ""
        else:
            text = f"{r['gflops']:.3g}"
        ax.annotate(text, (x, r["gflops"]), ha="center", va="bottom", fontsize=7)
    ax.set_xticks(list(xs))
    ax.set_xticklabels([f"{r['backend']}\nstep {r['step']} {r['kernel']}" for r in steps], fontsize=7)
    bounds = step_bounds + ([r["bound"] for r in steps] if step_bounds else [])
    ax.set_ylim(0, max([r["gflops"] for r in steps] + bounds + [1e-9]) * (1.4 if step_bounds else 1.15))
    ax.set_ylabel("GFLOP/s")
    nnz = steps[0]["nnz"]
    size = f"{nnz / 1e6:.1f}M" if nnz >= 1e5 else f"{nnz:,.0f}"
    fast = max(steps, key=lambda r: r["gflops"])
    what = "% = of the step's 2010 bound" if step_bounds else "GFLOP/s above the bars, no bounds (host)"
    ax.set_title(f"{m} ({size} nnz, {p}): fastest step {fast['step']} {fast['backend']}:{fast['kernel']} "
                 f"{fast['gflops']:.4g} GFLOP/s; {what}", fontsize=8)
    ax.grid(axis="y", alpha=0.3)


def plot_dia_path(rows, context, where, out):
    dia = [r for r in rows if r["format"] == "dia"]
    path_rows = [r for r in dia if r["lab"] == 7 and r["step"] >= 1] or dia
    pairs = list(OrderedDict.fromkeys((r["matrix"], r["precision"]) for r in path_rows))
    panels = [(m, p) for m, p in pairs if m.startswith("radius")] or pairs[:4]
    if not panels:
        return []
    fig, axes = plt.subplots(len(panels), 1, figsize=(11, 3.0 * len(panels) + 1.2), squeeze=False)
    for ax, (m, p) in zip(axes[:, 0], panels):
        steps = sorted((r for r in path_rows if r["matrix"] == m and r["precision"] == p),
                       key=lambda r: (r["backend"] != "opencl", r["backend"], r["step"], r["lab"]))
        draw_dia_steps(ax, m, p, steps, where)
    fig.suptitle(f"Does each step of lab 07's DIA path run faster than the last? {title_device(context, where)}",
                 fontsize=9)
    fig.tight_layout()
    fig.text(0.01, 0.0, dia_note(where), fontsize=FOOT, va="top")
    return [save(fig, out / "dia_path.png")]


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def plot_ratios(rows, out):
    kit = [r for r in rows if r["lab"] >= 0 and r["ratio"] > 0]
    if not kit:
        return []
    best = pd.best_by(kit, lambda r: (r["matrix"], r["precision"]), lambda r: r["ratio"])
    launch = pd.launch_bound(rows)
    keys = [k for k in best if k not in launch] + [k for k in best if k in launch]
    head = [best[k]["ratio"] for k in keys if k not in launch]
    ratios = [best[k]["ratio"] for k in keys]
    xs = [i + (1 if k in launch else 0) for i, k in enumerate(keys)]  # a gap before the launch-bound pairs
    colors = ["0.7" if k in launch else ("tab:green" if best[k]["ratio"] >= 1.0 else "tab:red") for k in keys]
    fig, ax = plt.subplots(figsize=(max(10, 0.6 * len(keys)), 5.5))
    ax.bar(xs, ratios, color=colors, edgecolor="black", linewidth=0.4)
    for x, k in zip(xs, keys):
        ax.annotate(f"{row_label(best[k])} {best[k]['ratio']:.2f}x", (x, best[k]["ratio"]), ha="center",
                    va="bottom", fontsize=6, rotation=90)
    ax.set_ylim(0, max(ratios + [1.1]) * 1.45)  # room for the names
    if launch & set(keys):
        split = len(head) + 0.0
        ax.axvline(split, color="0.4", linestyle=":", linewidth=1)
        ax.text(split + 0.15, ax.get_ylim()[1] * 0.97, "launch-bound:\nleft out of\nthe geomean",
                fontsize=7, va="top", color="0.3")
    ax.axhline(1.0, color="black", linewidth=1, label="cuSPARSE CSR (1.0x)")
    ax.axhline(1.1, color="black", linestyle="--", linewidth=1, label="geomean target 1.1x")
    if head:
        ax.axhline(geomean(head), color="tab:blue", linewidth=1.2, label=f"geomean {geomean(head):.2f}x")
    ax.set_xticks(xs)
    ax.set_xticklabels([f"{m}/{p}" for m, p in keys], rotation=40, ha="right", fontsize=7)
    ax.set_ylabel("best kit kernel: cuSPARSE CSR time / kernel time")
    wins = sum(1 for x in head if x >= 1.0)
    left = len(keys) - len(head)
    everything = f"; with the {left} launch-bound pairs {geomean(ratios):.2f}x" if left else ""
    ax.set_title(f"Does the best kit kernel beat cuSPARSE CSR? geomean {geomean(head):.2f}x over {len(head)} "
                 f"matrix/precision pairs, ahead on {wins} of them\n(grey, left out: {pd.LAUNCH_BOUND_RULE}, "
                 f"the launch's time, not memory traffic{everything})",
                 fontsize=10)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return [save(fig, out / "vs_cusparse.png")]


def winners_grid(sel):
    """Families (rows), matrices (columns), each family's best row per matrix and its % of the
    fastest kernel on that matrix; the fastest is the row of the highest GFLOP/s, once."""
    matrices = list(OrderedDict.fromkeys(r["matrix"] for r in sel))
    fastest = pd.best_by(sel, lambda r: r["matrix"])
    best = pd.best_by(sel, lambda r: (r["family"], r["matrix"]))
    order = {f: i for i, f in enumerate(pd.KIT_FAMILIES)}
    families = sorted({f for f, _ in best}, key=lambda f: (f.startswith(("cusparse", "cublas")), order.get(f, 99), f))
    pct = {k: 100.0 * r["gflops"] / fastest[k[1]]["gflops"] for k, r in best.items()}
    return matrices, families, fastest, best, pct


def draw_winner_cell(ax, i, j, r, value, is_fastest, where):
    star = "*" if where == "GPU" and r["pct"] > 100 else ""
    shown = "100" if is_fastest else f"{min(math.floor(value), 99)}"  # only the fastest reads 100
    ax.text(j, i - 0.12, f"{shown}{star}", ha="center", va="center", fontsize=7,
            color="black" if value > 55 else "white", weight="bold" if is_fastest else None)
    ax.text(j, i + 0.25, row_label(r), ha="center", va="center", fontsize=4.8,
            color="black" if value > 55 else "white")
    if is_fastest:  # two-tone outline: visible on light and dark cells alike
        ax.add_patch(plt.Rectangle((j - 0.47, i - 0.47), 0.94, 0.94, fill=False, edgecolor="red", linewidth=2.2,
                                   path_effects=[patheffects.withStroke(linewidth=4.5, foreground="white")]))


def plot_winners(rows, context, where, out):
    """Heatmap per precision: which family wins on which matrix, and by how much."""
    written = []
    launch = pd.launch_bound(rows) if where == "GPU" else set()
    for precision in sorted({r["precision"] for r in rows}):
        sel = [r for r in rows if r["precision"] == precision]
        matrices, families, fastest, best, pct = winners_grid(sel)
        fig, ax = plt.subplots(figsize=(1.15 * len(matrices) + 3, 0.5 * len(families) + 3))
        grid = [[pct.get((f, m), float("nan")) for m in matrices] for f in families]
        image = ax.imshow(grid, cmap="viridis", vmin=0, vmax=100, aspect="auto")
        for i, f in enumerate(families):
            for j, m in enumerate(matrices):
                if (f, m) in best:
                    draw_winner_cell(ax, i, j, best[(f, m)], pct[(f, m)], best[(f, m)] is fastest[m], where)
        labels = [m + (" [launch-bound]" if (m, precision) in launch else "")
                  + (f"\nbest {fastest[m]['pct']:.0f}% of ceiling" if where == "GPU" else "") for m in matrices]
        ax.set_xticks(range(len(matrices)))
        ax.set_xticklabels(labels, rotation=35, ha="right", fontsize=7)
        ax.set_yticks(range(len(families)))
        ax.set_yticklabels(families, fontsize=8)
        fig.colorbar(image, ax=ax, label="% of the fastest kernel's GFLOP/s on the matrix")
        winners = sorted({fastest[m]["family"] for m in matrices if (m, precision) not in launch})
        ax.set_title(f"Which family wins where? SpMV {precision}, {where}: each cell the family's best kernel as % "
                     f"of the fastest on the matrix; boxed = the fastest (100)\nwinning families"
                     f"{' (launch-bound columns aside)' if launch else ''}: {', '.join(winners)}; "
                     f"{title_device(context, where)}", fontsize=9)
        note = ("* = above the bandwidth ceiling in the kernel's own bytes model: the caches served traffic the "
                f"model counts (x reuse, small matrices). Blank = refused or not run. {pd.LAUNCH_BOUND_RULE}."
                if where == "GPU" else "Host run: cells compare kernels with each other, not with the host ceiling "
                "(one memcpy thread on a shared machine: too noisy to rank against). Blank = refused or not run.")
        ax.set_xlabel(note, fontsize=FOOT, loc="left")
        written.append(save(fig, out / f"winners_{precision}.png"))
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
        fig, ax = plt.subplots(figsize=(7.5, 6))
        lo = min(min(float(r["ms"]), float(r["predicted_ms"])) for r in sel) / 1.5
        hi = max(max(float(r["ms"]), float(r["predicted_ms"])) for r in sel) * 1.5
        ax.plot([lo, hi], [lo, hi], color="black", linewidth=1, label="predicted = measured")
        ax.fill_between([lo, hi], [lo * 0.8, hi * 0.8], [lo * 1.2, hi * 1.2], color="grey", alpha=0.2,
                        label="within 20%")
        for i, k in enumerate(sorted({r["kernel"] for r in sel})):
            pts = [r for r in sel if r["kernel"] == k]
            ax.scatter([float(r["ms"]) for r in pts], [float(r["predicted_ms"]) for r in pts], s=28,
                       marker="osD^v<>ph*"[i % 10], label=k)
        picks = [r for r in sel if r.get("model_pick") == "1"]
        ax.scatter([float(r["ms"]) for r in picks], [float(r["predicted_ms"]) for r in picks], s=140,
                   facecolors="none", edgecolors="red", linewidths=1.5, label="the model's pick")
        within = sum(1 for r in sel if abs(float(r["predicted_ms"]) / float(r["ms"]) - 1) <= 0.2)
        ax.set(xscale="log", yscale="log", xlim=(lo, hi), ylim=(lo, hi), xlabel="measured ms (cold)",
               ylabel="predicted ms (lab 08's model)")
        ax.legend(fontsize=7, loc="upper left")
        ax.set_title(f"Lab 08: does the model predict the time? {precision}: {within} of {len(sel)} points "
                     f"within 20%\n{context.get('device_cuda', '')}", fontsize=9)
        written.append(save(fig, out / f"format_model_{precision}.png"))
    return written


def parse_args(argv):
    args, out = list(argv[1:]), None
    if "--out" in args:
        i = args.index("--out")
        out = Path(args[i + 1]) if i + 1 < len(args) else None
        del args[i:i + 2]
    return args, out


def main(argv):
    sources, out = parse_args(argv)
    if not sources or any(a.startswith("-") for a in sources):
        print(__doc__, file=sys.stderr)
        return 2
    src, skipped = pd.pick_source(sources)
    for folder, why in skipped:
        print(f"plot: skipped {folder}: {why}", file=sys.stderr)
    if src is None:
        print("plot: nothing to draw: the plots need a bench.json (or the summary.csv beside it), which "
              "`make bench OUT=dir` writes; then `make bench-plot OUT=dir`. `make bench-plot` without OUT draws "
              "the newest bench/results/ run that has one.", file=sys.stderr)
        return 2
    rows, context = pd.load(src)
    print(f"plot: drawing from {src}" + (" (no bench.json there: ceilings read back from its % of ceiling)"
                                         if src.suffix == ".csv" else ""))
    if not rows:
        print(f"plot: no successful spmv benchmark in {src}; nothing to draw")
        return 0
    out = out or src.parent
    out.mkdir(parents=True, exist_ok=True)
    picked, where = drawn_rows(rows, context)
    written = (plot_formats(picked, context, where, out) + plot_dia_path(picked, context, where, out)
               + (plot_ratios(picked, out) if where == "GPU" else []) + plot_winners(picked, context, where, out)
               + plot_format_model(src.parent / "summary.csv", context, out))
    for p in written:
        print(f"plot: wrote {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
