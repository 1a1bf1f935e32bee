#!/usr/bin/env python3
"""results.json against the documented schema (grader/results.schema.json).

  test_results_schema.py DIR...

Validates every results.json under the given folders (for example the adversarial suite's
output), checks what a schema cannot say (the score is the sum of the tests, a test never
earns more than its maximum, a test not run earns nothing and never reads 'passed', hidden
tests show only after publishing), then checks that the checker rejects broken copies.
Exit status 0 when all holds.
"""
import copy
import json
import sys
from pathlib import Path

KIT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(KIT / "grader"))
from kitgrader import labs, schema  # noqa: E402

SCHEMA = json.loads((KIT / "grader" / "results.schema.json").read_text())


def invariants(r):
    problems = []
    total = sum(t["score"] for t in r["tests"])
    if abs(total - r["score"]) > 1e-9:
        problems.append(f"score {r['score']} is not the sum of the tests ({total})")
    for t in r["tests"]:
        kit = t["extra_data"]["kit_status"]
        if not 0 <= t["score"] <= t["max_score"]:
            problems.append(f"{t['name']}: score {t['score']} outside 0..{t['max_score']}")
        if (t["status"] == "passed") != (kit == "passed"):
            problems.append(f"{t['name']}: status {t['status']} but kit_status {kit}")
        if kit != "passed" and t["score"] != 0:
            problems.append(f"{t['name']}: {kit} yet scores {t['score']}")
        if kit == "review" and (t["visibility"] != "hidden" or t["max_score"] != 0):
            problems.append(f"{t['name']}: review flags must be hidden from students and worth nothing")
        if kit == "not_run" and "NOT RUN" not in t["output"]:
            problems.append(f"{t['name']}: not run, but its output does not say so")
    labs = r["extra_data"]["labs"]
    if abs(sum(l["score"] for l in labs.values()) - r["score"]) > 1e-9:
        problems.append("extra_data.labs scores do not add up to score")
    not_run = sum(t["extra_data"]["kit_status"] == "not_run" for t in r["tests"])
    if not_run != r["extra_data"]["not_run"] or r["extra_data"]["incomplete"] != (not_run > 0 or any(
            t["extra_data"]["kit_status"] == "error" for t in r["tests"])):
        problems.append("extra_data.not_run / incomplete disagree with the tests")
    return problems


def broken_copies(r):
    """(what, results.json made invalid in one way): each must be rejected."""
    out = []
    for what, change in [
        ("no tests", lambda x: x.pop("tests")),
        ("score as text", lambda x: x.__setitem__("score", "10")),
        ("negative execution_time", lambda x: x.__setitem__("execution_time", -1)),
        ("unknown top-level key", lambda x: x.__setitem__("points", 3)),
        ("test status 'skipped'", lambda x: x["tests"][0].__setitem__("status", "skipped")),
        ("bad visibility", lambda x: x["tests"][0].__setitem__("visibility", "students")),
        ("test without max_score", lambda x: x["tests"][0].pop("max_score")),
        ("test name without its lab and step", lambda x: x["tests"][0].__setitem__("name", "Example4x4")),
        ("incomplete as text", lambda x: x["extra_data"].__setitem__("incomplete", "no")),
    ]:
        bad = copy.deepcopy(r)
        change(bad)
        out.append((what, bad))
    return out


def main(dirs):
    files = sorted(p for d in dirs for p in Path(d).rglob("results.json"))
    if not files:
        print("test_results_schema: no results.json under", " ".join(dirs))
        return 1
    bad = 0
    for f in files:
        r = json.loads(f.read_text())
        problems = schema.validate(r, SCHEMA) or invariants(r)
        for p in problems:
            print(f"FAIL {f}: {p}")
        bad += bool(problems)
    # The schema cannot read scripts/labs/lab_name.ere: its test name starts with the same pattern.
    name_pattern = SCHEMA["definitions"]["test"]["properties"]["name"]["pattern"]
    if not name_pattern.startswith(f"^({labs.LAB_NAME_ERE} step "):
        print(f"FAIL the schema's test name pattern {name_pattern} does not start with the lab name "
              f"{labs.LAB_NAME_ERE}")
        bad += 1
    sample = json.loads(files[0].read_text())
    for what, broken in broken_copies(sample):
        if not schema.validate(broken, SCHEMA):
            print(f"FAIL the schema accepts a results.json with {what}")
            bad += 1
    print(f"test_results_schema: {len(files)} results.json file(s) checked, {bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["."]))
