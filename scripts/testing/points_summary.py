#!/usr/bin/env python3
"""The points of a `make test` run, per lab and step, from the manifests and the test logs:

    points_summary.py LOG...

Each LOG is the output of a lab's test binary (test_NN-name.log, or test_NN-name_hidden.log
for the instructor's hidden tests); other logs (test_common, test_cli, a lab's _kit tests)
carry no points and are passed over. A test earns its manifest points when its log says
`[       OK ]`; a failed, skipped (no GPU) or missing test earns nothing. A failed hidden gate
(`gates` in the manifest: `GpuDidTheWork`) takes the points of its suite away, as the grader
does. Public points are those of the tests a student has; hidden points are counted as
"not run here" unless the hidden binary's log is given. This is a preview of the grade:
the grader (make grade) decides, with the hidden tests and the GPU gate.
Prints one line per step and one total per lab; nothing when no LOG is a lab's.
"""
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "labs"))
from lab_manifests import KIT, ManifestError, lab_names, manifest_path, read_manifest  # noqa: E402

RESULT = re.compile(r"^\[ +(OK|FAILED|SKIPPED) +\] (\S+)")


def results_of(log):
    """{test name: OK | FAILED | SKIPPED} from a gtest log (the first verdict of each test)."""
    found = {}
    for line in Path(log).read_text(encoding="utf-8", errors="replace").splitlines():
        m = RESULT.match(line)
        if m:  # a typed test's line reads "Suite/float.Name, where TypeParam = float"
            found.setdefault(m.group(2).rstrip(","), m.group(1))
    return found


def merged(runs):
    """One verdict per test over the runs of one test program at several rank counts: it passes
    only if it passes at every one; a test missing from one run (the run hung or crashed before
    it) fails."""
    out = {}
    for name in set().union(*runs):
        verdicts = [run.get(name, "FAILED") for run in runs]
        out[name] = "FAILED" if "FAILED" in verdicts else "SKIPPED" if "SKIPPED" in verdicts else "OK"
    return out


def suite(name):
    """Step2_CooAtomicCuda for Step2_CooAtomicCuda/float.Rdb450 and Step2_CooAtomicCuda.HostileGallery."""
    return re.split(r"[/.]", name, 1)[0]


def fmt(x):
    return f"{x:g}"


def step_points(manifest, results, hidden_ran):
    """{step: dict(public, public_max, gpu_not_run, hidden, hidden_max)} for one lab."""
    steps = {s["step"]: dict(title=s.get("title", ""), backend=s.get("backend", ""), public=0.0, public_max=0.0,
                             gpu_not_run=0.0, hidden=0.0, hidden_max=0.0) for s in manifest.get("steps", [])}
    tests = manifest.get("tests", [])
    failed_gates = {suite(t["name"]) for t in tests if t.get("gates") and results.get(t["name"]) == "FAILED"}
    for t in tests:
        s = steps.setdefault(t["step"], dict(title="", backend="", public=0.0, public_max=0.0, gpu_not_run=0.0,
                                             hidden=0.0, hidden_max=0.0))
        points, verdict = float(t.get("points", 0)), results.get(t["name"])
        earned = points if verdict == "OK" and suite(t["name"]) not in failed_gates else 0.0
        if t.get("hidden"):
            s["hidden_max"] += points
            s["hidden"] += earned if hidden_ran else 0.0
            continue
        s["public_max"] += points
        s["public"] += earned
        if verdict in (None, "SKIPPED") and t.get("gpu"):
            s["gpu_not_run"] += points
    return steps


def lab_lines(lab, steps, hidden_ran):
    """The lines for one lab: a line per step, then the lab's total."""
    lines = []
    total = {k: sum(s[k] for s in steps.values()) for k in ("public", "public_max", "gpu_not_run", "hidden", "hidden_max")}
    for number, s in sorted(steps.items()):
        line = f"  {lab} step {number}: {fmt(s['public'])} of {fmt(s['public_max'])} public"
        if s["gpu_not_run"]:
            line += f" ({fmt(s['gpu_not_run'])} not run: needs a GPU)"
        if s["hidden_max"]:
            line += (f", {fmt(s['hidden'])} of {fmt(s['hidden_max'])} hidden" if hidden_ran
                     else f", +{fmt(s['hidden_max'])} hidden")
        lines.append(f"{line}   {s['title']}")
    line = f"  {lab} total: {fmt(total['public'])} of {fmt(total['public_max'])} public points"
    if hidden_ran:
        line += f", {fmt(total['hidden'])} of {fmt(total['hidden_max'])} hidden"
    elif total["hidden_max"]:
        line += (f"; {fmt(total['hidden_max'])} more in hidden tests your instructor runs"
                 f" ({fmt(total['public_max'] + total['hidden_max'])} in all)")
    lines.append(line)
    return lines


def main(logs):
    labs = set(lab_names(KIT))
    runs = {}  # (lab, hidden) -> the results of each run of that test program
    for log in logs:
        # test_NN-name.log, or test_NN-name.npN.log: one run of an MPI lab at N ranks
        m = re.fullmatch(r"test_(.+?)(_hidden)?(\.np[0-9]+)?\.log", Path(log).name)
        if not m or m.group(1) not in labs or not Path(log).is_file():
            continue
        runs.setdefault((m.group(1), bool(m.group(2))), []).append(results_of(log))
    by_lab = {}
    for (lab, hidden), results in runs.items():
        entry = by_lab.setdefault(lab, {"results": {}, "hidden": False})
        entry["results"].update(merged(results))
        entry["hidden"] |= hidden
    if not by_lab:
        return 0
    print("Points (from labs/NN-name/manifest.json; a skipped or failed test earns none;"
          " the grader decides, with the hidden tests):")
    earned = possible = 0.0
    for lab in sorted(by_lab):
        try:
            manifest = read_manifest(manifest_path(KIT, lab))
        except ManifestError as e:
            print(f"  {lab}: {e}")
            continue
        steps = step_points(manifest, by_lab[lab]["results"], by_lab[lab]["hidden"])
        only = os.environ.get("KIT_STEP", "")
        if only:  # make test STEP=N ran that step's tests alone: the other steps' lines would read 0
            steps = {n: s for n, s in steps.items() if str(n) == only}
            print(f"  (STEP={only}: only step {only}'s tests ran)")
        print("\n".join(lab_lines(lab, steps, by_lab[lab]["hidden"])))
        earned += sum(s["public"] for s in steps.values())
        possible += sum(s["public_max"] for s in steps.values())
    if len(by_lab) > 1:
        print(f"  {len(by_lab)} labs: {fmt(earned)} of {fmt(possible)} public points")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
