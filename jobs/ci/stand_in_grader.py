#!/usr/bin/env python3
"""A stand-in for grader/grade.py, for testing the grading job array before the grader exists
(never used by the job scripts unless KIT_GRADER names it). Same interface:

  stand_in_grader.py --sub PATH --lab LAB --out DIR [other grader options, ignored]
      writes DIR/results.json with score = number of files in the submission
  stand_in_grader.py merge OUTDIR... --csv FILE
      writes FILE: one row per OUTDIR (student = folder name, score)
"""
import argparse
import csv
import json
import os
import sys


def grade(argv):
    p = argparse.ArgumentParser()
    p.add_argument("--sub", required=True)
    p.add_argument("--lab", default="all")
    p.add_argument("--out", required=True)
    args, _ = p.parse_known_args(argv)
    files = [f for _, _, fs in os.walk(args.sub) for f in fs]
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "results.json"), "w", encoding="utf-8") as f:
        json.dump({"score": len(files), "lab": args.lab, "stand_in": True}, f)
    print(f"stand-in grader: {args.sub}: {len(files)} files -> score {len(files)}")


def merge(argv):
    p = argparse.ArgumentParser()
    p.add_argument("outdirs", nargs="+")
    p.add_argument("--csv", required=True)
    args = p.parse_args(argv)
    with open(args.csv, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["student", "total"])
        for d in args.outdirs:
            with open(os.path.join(d, "results.json"), encoding="utf-8") as r:
                w.writerow([os.path.basename(os.path.normpath(d)), json.load(r)["score"]])
    print(f"stand-in grader: {len(args.outdirs)} rows -> {args.csv}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["merge"]:
        merge(sys.argv[2:])
    else:
        grade(sys.argv[1:])
