#!/usr/bin/env python3
"""Lab 10's overlap timeline: when each rank's exchange and products ran, one lane per rank and stream.

    multi_timeline.py TIMELINE_CSV [TIMELINE_CSV ...] [--out FILE.png] [--all]

Each TIMELINE_CSV is a file bench_multi --timeline FILE writes (FILE with -<P>ranks before its
extension: ranks,rank,iteration,stream,phase,start_us,end_us), e.g. the 1, 2 and 4 rank files of
one `make bench-multi`; each gets a panel. Each rank's times come from its own GPU's clock, since
its own first iteration's start (the ranks start right after one MPI_Barrier, so their lanes
line up within microseconds, not exactly). Draws the last iteration, shifted to start at 0, or
with --all every iteration; prints, per rank, how many microseconds of the last iteration's
exchange ran while its local product did. The PNG goes to --out, by default beside the first
input (timeline-2ranks.csv: timeline-2ranks.png; several inputs: timeline.png). Needs
matplotlib (make deps installs it).
"""
import argparse
import csv
import os
import re
from collections import defaultdict

from script_errors import run

PHASES = ("gather", "exchange", "remote", "local", "add")
COLOURS = {"gather": "tab:orange", "exchange": "tab:red", "remote": "tab:green", "local": "tab:blue",
           "add": "tab:purple"}
STREAMS = ("comm", "local")  # top to bottom within a rank


def read_timeline(path):
    """(ranks, rows): the CSV's rank count and its rows with numbers as numbers."""
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            rows.append({"ranks": int(r["ranks"]), "rank": int(r["rank"]), "iteration": int(r["iteration"]),
                         "stream": r["stream"], "phase": r["phase"],
                         "start": float(r["start_us"]), "end": float(r["end_us"])})
    if not rows:
        raise SystemExit(f"multi_timeline: {path} has no rows (bench_multi --timeline writes them)")
    return rows[0]["ranks"], rows


def shown(rows, every):
    """The rows to draw: all of them, or the last iteration's shifted so its earliest start is 0."""
    if every:
        return rows
    last = max(r["iteration"] for r in rows)
    kept = [r for r in rows if r["iteration"] == last]
    t0 = min(r["start"] for r in kept)
    return [dict(r, start=r["start"] - t0, end=r["end"] - t0) for r in kept]


def overlaps(rows):
    """rank -> (exchange us that ran while the local product did, exchange us), last iteration."""
    last = max(r["iteration"] for r in rows)
    spans = defaultdict(dict)
    for r in rows:
        if r["iteration"] == last:
            spans[r["rank"]][r["phase"]] = (r["start"], r["end"])
    out = {}
    for rank, s in sorted(spans.items()):
        (a, b), (c, d) = s.get("exchange", (0.0, 0.0)), s.get("local", (0.0, 0.0))
        out[rank] = (max(0.0, min(b, d) - max(a, c)), b - a)
    return out


def draw_panel(ax, name, ranks, rows, every):
    """One lane per rank and stream, a bar per phase and iteration, coloured by phase."""
    lanes = [(rank, stream) for rank in range(ranks) for stream in STREAMS]
    y_of = {lane: len(lanes) - 1 - i for i, lane in enumerate(lanes)}
    for r in shown(rows, every):
        y = y_of[(r["rank"], r["stream"])]
        # a phase with nothing to do (one rank's exchange) still gets a sliver, so it shows
        ax.barh(y, max(r["end"] - r["start"], 0.05), left=r["start"], height=0.7, color=COLOURS[r["phase"]],
                edgecolor="black", linewidth=0.3)
    ax.set_xlim(left=0)
    ax.set_yticks([y_of[lane] for lane in lanes], [f"rank {rank} {stream}" for rank, stream in lanes])
    which = "all iterations" if every else "last iteration"
    ax.set_title(f"{name}: {ranks} rank(s), {which}", fontsize=10)


def default_out(paths):
    """Beside the first input, .png; several inputs drop its -<P>ranks."""
    stem = os.path.splitext(paths[0])[0]
    return (re.sub(r"-\d+ranks$", "", stem) if len(paths) > 1 else stem) + ".png"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="The CSVs are bench_multi --timeline's (labs/10-multi-gpu/bench_multi.hpp).")
    ap.add_argument("timelines", nargs="+", metavar="TIMELINE_CSV")
    ap.add_argument("--out", help="the PNG to write (default: beside the first input, .png)")
    ap.add_argument("--all", action="store_true", help="draw every iteration, not only the last")
    a = ap.parse_args()
    panels = sorted((read_timeline(p) + (os.path.basename(p),) for p in a.timelines), key=lambda t: t[0])
    for ranks, rows, name in panels:
        for rank, (both, exchange) in overlaps(rows).items():
            print(f"multi_timeline: {name}, {ranks} rank(s), rank {rank}: overlap {both:.1f} us of the exchange's "
                  f"{exchange:.1f} us (last iteration)")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch
    except ImportError:
        raise SystemExit("multi_timeline: needs matplotlib (make deps installs python3-matplotlib)")
    heights = [1 + 0.45 * 2 * ranks for ranks, _, _ in panels]
    fig, axes = plt.subplots(len(panels), 1, figsize=(10, sum(heights) + 0.8), squeeze=False,
                             gridspec_kw={"height_ratios": heights})
    for ax, (ranks, rows, name) in zip(axes[:, 0], panels):
        draw_panel(ax, name, ranks, rows, a.all)
    axes[-1, 0].set_xlabel("us since " + ("each rank's first iteration's start" if a.all
                                          else "the last iteration's earliest start"))
    fig.legend(handles=[Patch(color=COLOURS[p], label=p) for p in PHASES], loc="lower center", ncol=len(PHASES),
               fontsize=8, frameon=False)
    fig.suptitle("Does the halo exchange (comm stream) run beside the local product? (bench_multi --timeline)",
                 fontsize=10)
    fig.tight_layout(rect=(0, 0.3 / fig.get_figheight(), 1, 1 - 0.3 / fig.get_figheight()))
    out = a.out or default_out(a.timelines)
    fig.savefig(out, dpi=120)
    print(f"multi_timeline: drew {out}")


if __name__ == "__main__":
    run("multi_timeline", main)
