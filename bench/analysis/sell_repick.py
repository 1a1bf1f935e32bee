#!/usr/bin/env python3
"""Lab 11's (C, sigma) pick re-scored on a committed GPU sweep, after the rule changed (issue 41).

    sell_repick.py --gpu SWEEP_CSV... --picks PICK_CSV... --out DIR

Each SWEEP_CSV is `spmv-kit sell-sweep --csv` from the GPU machine: the grid's cold times.
Each PICK_CSV is `spmv-kit sell-sweep --csv` of the same files run anywhere (the CPU is
enough: only its "pick" rows are read, the (C, sigma) the current rule picks, which depends on
the matrix alone). Writes DIR/sell_pick.csv in sell_report.py's format: per matrix and
precision, the GPU grid's time at the current pick over the grid's best. A pick outside the
grid is reported and left out. Prints the share within 5% per sweep file.
"""
import argparse
import os

from script_errors import run
from sell_report import sweep_rows, write

SLACK = 1.05


def cold_times(path):
    """(matrix, precision) -> (C, sigma) -> cold ms over the grid's rows that ran."""
    return {key: {(r["C"], r["sigma"]): float(r["cold_ms"]) for r in rows if r["kind"] == "sweep"}
            for key, rows in sweep_rows([path]).items()}


def current_picks(paths):
    """(matrix, precision) -> (C, sigma) the current rule picks."""
    return {key: (r["C"], r["sigma"]) for key, rows in sweep_rows(paths).items() for r in rows if r["kind"] == "pick"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gpu", nargs="+", required=True)
    ap.add_argument("--picks", nargs="+", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    picks = current_picks(a.picks)
    rows = []
    for sweep in a.gpu:
        hits = total = 0
        for key, grid in sorted(cold_times(sweep).items()):
            if key not in picks:
                continue
            if picks[key] not in grid:
                print(f"sell_repick: {key[0]} {key[1]}: pick C={picks[key][0]} sigma={picks[key][1]} is not in the grid")
                continue
            ms, best = grid[picks[key]], min(grid.values())
            total += 1
            hits += ms <= SLACK * best
            rows.append({"matrix": key[0], "precision": key[1], "C": picks[key][0], "sigma": picks[key][1],
                         "pick_ms": f"{ms:.5f}", "best_ms": f"{best:.5f}", "ratio": f"{ms / best:.3f}",
                         "sweep": os.path.basename(sweep)})
        print(f"sell_repick: {os.path.basename(sweep)}: the pick within 5% of the best on {hits} of {total}")
    os.makedirs(a.out, exist_ok=True)
    write(os.path.join(a.out, "sell_pick.csv"), rows)
    print(f"sell_repick: wrote {a.out}/sell_pick.csv")


if __name__ == "__main__":
    run("sell_repick", main)
