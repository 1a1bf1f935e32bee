"""What plot.py draws from: the rows of a run (bench.json or summary.csv), the folder it came
from, the kernel families and the launch-bound matrices. Standard library only, so a missing
file is reported before matplotlib is needed.

A run's rows come from `bench.json` (Google Benchmark's JSON, with the devices and ceilings in
its context) or, where only the table was kept (the committed folders under bench/results/),
from `summary.csv`: the ceiling of each backend is then gbs / pct_ceiling of its rows, and a
backend counts as a GPU one when it is CUDA, or OpenCL on a device that is not a CPU.
"""
import csv
import json
import re
import statistics
from collections import Counter, OrderedDict
from pathlib import Path

SOURCE_FILES = ("bench.json", "summary.csv")
# A pair (matrix, precision) is launch-bound when every GPU kernel on it moves its bytes at
# less than this % of the bandwidth ceiling: its time is the launch, not the memory traffic.
LAUNCH_BOUND_PCT = 10.0
LAUNCH_BOUND_RULE = f"launch-bound: every GPU kernel below {LAUNCH_BOUND_PCT:.0f}% of the bandwidth ceiling"
# Kit families in a fixed order (their colours in plot.py); the CSR kernels of labs 00 and 02
# are one family, as are the two cuSPARSE CSR algorithms.
KIT_FAMILIES = ("csr", "coo", "dia", "ell", "hyb", "bcsr", "csr5", "gemv")
BASELINE_PREFIXES = ("cusparse-", "cublas-")
HOST_DEVICE = re.compile(r"cpu|pthread|portable computing|pocl|host", re.IGNORECASE)


def format_of(kernel):
    """Same rule as bench/report.cpp format_of: the name's first '-' part, but CSR kernels keep
    their full name; "@RxC" (a forced block size) is not part of the format."""
    kernel = kernel.split("@")[0]
    if kernel.startswith("cusparse-"):
        return "cusparse-" + kernel.split("-")[1]
    head = kernel.split("-")[0]
    return kernel if head == "csr" and "-" in kernel else head


def family_of(kernel):
    """The family a kernel competes in: csr for every CSR kernel, the format otherwise;
    baselines keep their library's name and format (cusparse-csr, cusparse-coo, ...)."""
    fmt = format_of(kernel)
    if kernel.startswith(BASELINE_PREFIXES):
        return fmt if kernel.startswith("cusparse-") else kernel.split("-")[0] + "-" + fmt
    return "csr" if fmt.startswith("csr-") else fmt


def is_baseline(row):
    return row["kernel"].startswith(BASELINE_PREFIXES)


def lab_number(text):
    """07-dia-opencl -> 7; cusparse or empty -> -1."""
    m = re.match(r"\d+", str(text))
    return int(m.group()) if m else -1


def make_row(matrix, precision, backend, kernel, counters):
    """One successful benchmark as plot.py reads it."""
    num = lambda k: float(counters.get(k) or 0)  # noqa: E731
    return {"matrix": matrix, "precision": precision, "backend": backend, "kernel": kernel,
            "format": format_of(kernel), "family": family_of(kernel), "gflops": num("gflops"),
            "bound": num("bound"), "step_bound": num("step_bound"), "ratio": num("ratio"),
            "pct": num("pct"), "lab": lab_number(counters.get("lab", -1)), "step": int(num("step")),
            "nnz": num("nnz")}


def load_json(path):
    with open(path) as f:
        data = json.load(f)
    rows = []
    for b in data.get("benchmarks", []):
        parts = b["name"].split("/")
        if parts[0] != "spmv" or b.get("error_occurred") or b.get("skipped") or "GFLOPs" not in b:
            continue
        counters = {"gflops": b["GFLOPs"], "bound": b.get("bound_GFLOPs"), "step_bound": b.get("step_bound_GFLOPs"),
                    "ratio": b.get("vs_cusparse"), "pct": b.get("pct_ceiling"), "lab": int(b.get("lab", -1)),
                    "step": b.get("step"), "nnz": b.get("nnz")}
        rows.append(make_row(parts[1], parts[2], parts[3], parts[4], counters))
    return rows, data.get("context", {})


def csv_context(records):
    """bench.json's context, rebuilt from summary.csv: device and ceiling of each backend."""
    context, gpu = {}, []
    for backend in OrderedDict.fromkeys(r["backend"] for r in records):
        mine = [r for r in records if r["backend"] == backend]
        devices = Counter(r["device"] for r in mine if r.get("device"))
        device = devices.most_common(1)[0][0] if devices else ""
        ceilings = [float(r["gbs"]) * 100 / float(r["pct_ceiling"]) for r in mine if float(r["pct_ceiling"] or 0) > 0]
        context[f"device_{backend}"] = device
        if ceilings:
            context[f"ceiling_{backend}_GBs"] = str(statistics.median(ceilings))
        if backend == "cuda" or (backend == "opencl" and device and not HOST_DEVICE.search(device)):
            gpu.append(backend)
    context["gpu_backends"] = ",".join(gpu)
    return context


def load_csv(path):
    with open(path, newline="") as f:
        records = [r for r in csv.DictReader(f) if r.get("status") == "ok"]
    rows = [make_row(r["matrix"], r["precision"], r["backend"], r["kernel"], {
        "gflops": r["gflops"], "bound": r["bound_gflops"], "step_bound": r["step_bound_gflops"],
        "ratio": r["vs_cusparse"], "pct": r["pct_ceiling"], "lab": r["lab"], "step": r["step"], "nnz": r["nnz"]})
        for r in records]
    return rows, csv_context(records)


def load(path):
    """Successful spmv benchmarks as dicts, and the run's context, from bench.json or summary.csv."""
    return load_csv(path) if Path(path).suffix == ".csv" else load_json(path)


def folder_age(folder):
    """Sort key of a results folder, newest last: its date (<machine>-YYYY-MM-DD), then the
    letter of a later run that day (h100-2026-11-23b after h100-2026-11-23)."""
    m = re.search(r"(\d{4}-\d{2}-\d{2})([a-z]*)$", folder.name)
    return (m.group(1), len(m.group(2)), m.group(2)) if m else ("", 0, folder.name)


def candidates(sources):
    """Each SOURCE as the folders or files to try, in order: a file as itself, a run folder
    as itself, a folder of run folders (bench/results) as its runs, newest first."""
    for s in map(Path, sources):
        if s.is_dir() and not any((s / name).exists() for name in SOURCE_FILES) and any(
                (c / "command.txt").exists() for c in s.iterdir() if c.is_dir()):
            yield from sorted((c for c in s.iterdir() if c.is_dir()), key=folder_age, reverse=True)
        else:
            yield s


def pick_source(sources):
    """The first candidate holding bench.json (else summary.csv): (file, the skipped ones with
    why); file is None when none has either."""
    skipped = []
    for c in candidates(sources):
        if c.is_file():
            return c, skipped
        found = [c / name for name in SOURCE_FILES if (c / name).is_file() and (c / name).stat().st_size > 0]
        if found:
            return found[0], skipped
        why = "not found" if not c.exists() else "no bench.json or summary.csv"
        held = sorted(p.name for p in c.iterdir()) if c.is_dir() else []
        if held:
            why += f" (holds {', '.join(held[:4])}{', ...' if len(held) > 4 else ''})"
        if "gemv_sweep.csv" in held:
            why += f"; its gemv sweep: python3 bench/analysis/plot_gemv.py {c / 'gemv_sweep.csv'} DIR"
        skipped.append((c, why))
    return None, skipped


def launch_bound(rows):
    """The (matrix, precision) pairs where every row is below LAUNCH_BOUND_PCT of the ceiling."""
    best = {}
    for r in rows:
        key = (r["matrix"], r["precision"])
        best[key] = max(best.get(key, 0.0), r["pct"])
    return {k for k, pct in best.items() if pct < LAUNCH_BOUND_PCT}


def best_by(rows, key, value=lambda r: r["gflops"]):
    """Row of the highest value for each key(row), in first-seen order."""
    best = OrderedDict()
    for r in rows:
        k = key(r)
        if k not in best or value(r) > value(best[k]):
            best[k] = r
    return best
