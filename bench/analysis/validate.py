#!/usr/bin/env python3
"""Checks the benchmark's figures against Nsight Compute (make bench-validate).

    validate.py SPMV_BENCH OUT_DIR [--size=large] [--precision=double]

For a fixed subset (one CUDA kernel per format and the cuSPARSE CSR baseline, on a stencil, a
random and a power-law matrix) it compares, per SpMV call:

  time   the benchmark's cold event time (one run of spmv-bench without the profiler)
         against ncu's gpu__time_duration.sum (ncu flushes the caches before each kernel, as
         the cold mode evicts L2: the two should agree within 10%);
  bytes  the kit's bytes model against ncu's dram__bytes_read.sum + dram__bytes_write.sum;
         write bytes near y's size show that the eviction left no dirty lines behind.

Where the model is off by more than 15%, the table also gives the % of the ceiling computed
from the measured bytes. It writes OUT_DIR/validation.csv and OUT_DIR/validation.md, and a
check that the OpenCL and CUDA twins of the same DIA algorithm agree (ncu cannot profile
OpenCL, so the twins are compared with each other instead). Needs ncu on PATH.
"""
import csv
import json
import os
import re
import shutil
import subprocess
import sys

KERNELS = ["coo-segmented", "csr-vector", "csr-merge", "dia-naive", "ell", "hyb", "bcsr-warp", "csr5", "cusparse-csr"]
FAMILIES = ["stencil", "random", "power-law"]   # one matrix of each, the first the suite lists
METRICS = "gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum"
CALLS = 2  # the checked run and one cold repeat (--warmup=0 --repeats=1 --steady=0)


def log(msg):
    print(f"validate: {msg}", flush=True)


def suite_matrices(bench, size):
    """First matrix of each family in FAMILIES with at least 1M nonzeros, from spmv-bench --list."""
    out = subprocess.run([bench, "--list", f"--size={size}"], capture_output=True, text=True, check=True).stdout
    chosen = {}
    for line in out.splitlines():
        m = re.match(r"\s+(\S+)\s+family=(\S+)\s+~([\d.]+)([kM]) nnz", line)
        if not m:
            continue
        nnz = float(m.group(3)) * (1e3 if m.group(4) == "k" else 1e6)
        if m.group(2) in FAMILIES and m.group(2) not in chosen and nnz >= 1e6:
            chosen[m.group(2)] = m.group(1)
    return [chosen[f] for f in FAMILIES if f in chosen]


def posix_escape(text):
    """Escapes text for Google Benchmark's POSIX regular expressions (Python's re.escape also
    escapes '-', which POSIX rejects)."""
    return re.sub(r"([.+*?()\[\]{}|^$\\])", r"\\\1", text)


def bench_filter(matrix, precision, kernel):
    # Google Benchmark appends "/iterations:1/manual_time" to every name: match up to the slash.
    return f"--benchmark_filter=^spmv/{posix_escape(matrix)}/{precision}/cuda/{posix_escape(kernel)}/"


def event_figures(bench, matrices, precision, size, out_dir):
    """One profiler-free run of the subset: cold ms, bytes model, status per (matrix, kernel)."""
    names = "|".join(posix_escape(m) for m in matrices)
    kernels = "|".join(posix_escape(k) for k in KERNELS)
    json_path = os.path.join(out_dir, "validation-bench.json")
    cmd = [bench, f"--size={size}", f"--precision={precision}", "--repeats=20", "--steady=0",
           f"--benchmark_filter=^spmv/({names})/{precision}/cuda/({kernels})/",
           f"--benchmark_out={json_path}", "--benchmark_out_format=json"]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0 or not os.path.getsize(json_path):
        raise SystemExit(f"validate: spmv-bench failed (exit {run.returncode}):\n{(run.stderr or run.stdout)[-1500:]}")
    figures = {}
    for b in json.load(open(json_path))["benchmarks"]:
        parts = b["name"].split("/")
        if len(parts) < 5 or parts[0] != "spmv":
            continue
        key = (parts[1], parts[4])
        if "GFLOPs" in b:
            figures[key] = {"ms": b["real_time"] if b.get("time_unit") == "ms" else b["real_time"] / 1e6,
                            "bytes": b["bytes"], "nnz": b["nnz"], "status": "ok"}
        else:
            figures[key] = {"status": b.get("error_message", "skipped")[:80]}
    return figures


def profile(bench, matrix, precision, size, kernel):
    """ncu over one benchmark: per-call time and DRAM bytes of the kernels of that SpMV."""
    cmd = ["ncu", "--csv", "--page", "raw", "--metrics", METRICS, "--clock-control", "none",
           "--cache-control", "all", "--print-kernel-base", "demangled",
           bench, f"--size={size}", f"--precision={precision}", "--repeats=1", "--warmup=0", "--steady=0",
           bench_filter(matrix, precision, kernel)]
    run = subprocess.run(cmd, capture_output=True, text=True)
    rows = [r for r in csv.reader(l for l in run.stdout.splitlines() if l.startswith('"'))]
    if len(rows) < 2:
        return None, (run.stderr or run.stdout)[-300:]
    head, units, data = rows[0], rows[1], rows[2:]
    col = {name: i for i, name in enumerate(head)}
    per_name = {}
    for r in data:
        name = r[col["Kernel Name"]]
        if "read_stream" in name or "copy_stream" in name:
            continue  # the kit's cache eviction, outside the timed region
        is_kit = "kit::" in name
        if is_kit != (not kernel.startswith("cusparse")):
            continue  # a kit job also times the cuSPARSE baseline for its ratio, and vice versa
        scale_t = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0,
                   "s": 1e3, "second": 1e3}[units[col["gpu__time_duration.sum"]]]
        scale_b = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9}
        def value(metric, scale):
            return float(r[col[metric]].replace(",", "")) * scale
        per_name.setdefault(name, []).append((
            value("gpu__time_duration.sum", scale_t),
            value("dram__bytes_read.sum", scale_b[units[col["dram__bytes_read.sum"]]]),
            value("dram__bytes_write.sum", scale_b[units[col["dram__bytes_write.sum"]]])))
    # Kernels launched once per call add up to the call; one launched fewer times is set-up.
    call = [0.0, 0.0, 0.0]
    for launches in per_name.values():
        per_call = round(len(launches) / CALLS)
        if per_call < 1:
            continue
        for i in range(3):
            vals = sorted(l[i] for l in launches)
            call[i] += vals[len(vals) // 2] * per_call
    return call, ""


# Lab 07: the DIA path's CUDA kernels, by the step of the case study whose algorithm they run,
# and the case study's 2010 DRAM bytes per 2 flops in float (dia_path::bytes_per_2_flops).
DIA_PATH = [("dia-naive", 1, 12), ("dia-shared", 3, 8), ("dia-vec4", 4, 8), ("dia-ldg", 5, 4), ("dia-texture", 5, 4)]


def dia_path_bytes(bench, size, out_dir):
    """Measured DRAM bytes per 2 flops of each DIA step on the radius-5 matrix, float."""
    out = subprocess.run([bench, "--list", f"--size={size}"], capture_output=True, text=True).stdout
    names = [m.group(1) for m in re.finditer(r"^\s+(radius5_\S+)\s", out, re.M)]
    if not names:
        return ["(no radius-5 matrix in this suite size)"]
    matrix = names[-1]  # the largest
    events = {}
    path = os.path.join(out_dir, "validation-dia.json")
    kernels = "|".join(posix_escape(k) for k, _, _ in DIA_PATH)
    subprocess.run([bench, f"--size={size}", "--precision=float", "--repeats=20", "--steady=100",
                    f"--benchmark_filter=^spmv/{posix_escape(matrix)}/float/cuda/({kernels})/",
                    f"--benchmark_out={path}", "--benchmark_out_format=json"], capture_output=True, text=True)
    for b in json.load(open(path))["benchmarks"]:
        p = b["name"].split("/")
        if len(p) >= 5 and p[0] == "spmv" and "GFLOPs" in b:
            events[p[4]] = b
    lines = [f"Matrix {matrix}, float. DRAM B/2flop: ncu's DRAM read + write per nonzero (each nonzero is one",
             "multiply-add). The 2010 model charged offset, value and x from DRAM; today's caches hold x and the",
             "offsets, so every step moves about the same bytes and runs at about the same speed.", "",
             "| kernel | step | 2010 model B/2flop | kit model B/2flop | DRAM B/2flop (ncu) | cold GFLOP/s | steady GFLOP/s |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    rows = []
    for kernel, step, model in DIA_PATH:
        b = events.get(kernel)
        if not b:
            lines.append(f"| {kernel} | {step} | {model} | not run | | | |")
            continue
        try:
            call, err = profile(bench, matrix, "float", size, kernel)
        except (KeyError, ValueError, IndexError) as e:
            call, err = None, str(e)
        measured = f"{(call[1] + call[2]) / b['nnz']:.2f}" if call else "ncu failed"
        log(f"dia path {kernel}: DRAM {measured} B/2flop")
        lines.append(f"| {kernel} | {step} | {model} | {b['bytes'] / b['nnz']:.2f} | {measured} | {b['GFLOPs']:.1f} | "
                     f"{b.get('steady_GFLOPs', 0):.1f} |")
        rows.append({"matrix": matrix, "kernel": kernel, "step": step, "model_2010": model,
                     "kit_model": b["bytes"] / b["nnz"], "dram_bytes_per_2flops": (call[1] + call[2]) / b["nnz"] if call else "",
                     "cold_gflops": b["GFLOPs"], "steady_gflops": b.get("steady_GFLOPs", 0)})
    with open(os.path.join(out_dir, "dia_path_bytes.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["matrix", "kernel", "step", "model_2010", "kit_model",
                                          "dram_bytes_per_2flops", "cold_gflops", "steady_gflops"])
        w.writeheader()
        w.writerows(rows)
    return lines


def twins(bench_json):
    """OpenCL and CUDA twins of the same DIA algorithm (dia-naive), cold, above 4M nonzeros."""
    if not os.path.exists(bench_json):
        return ["(no bench.json from make bench beside: twins not compared)"]
    rows = {}
    for b in json.load(open(bench_json))["benchmarks"]:
        p = b["name"].split("/")
        if len(p) >= 5 and p[0] == "spmv" and p[4] == "dia-naive" and "GFLOPs" in b and b.get("nnz", 0) > 4e6:
            rows.setdefault((p[1], p[2]), {})[p[3]] = b["GFLOPs"]
    lines = []
    for (m, prec), by in sorted(rows.items()):
        if "cuda" in by and "opencl" in by:
            r = by["opencl"] / by["cuda"]
            lines.append(f"| {m} | {prec} | {by['cuda']:.1f} | {by['opencl']:.1f} | {r:.3f} | "
                         f"{'within 10%' if abs(r - 1) <= 0.10 else 'OFF by more than 10%'} |")
    return lines


def validation_row(bench, m, k, ev, precision, size, ceiling):
    """One kernel on one matrix: the benchmark's event figures against ncu's."""
    row = {"matrix": m, "kernel": k, "status": ev["status"]}
    if ev["status"] != "ok":
        log(f"{m} {k}: {ev['status']}")
        return row
    try:
        call, err = profile(bench, m, precision, size, k)
    except (KeyError, ValueError, IndexError) as e:  # an ncu output this script does not know
        call, err = None, f"{type(e).__name__}: {e}"
    if call is None:
        row["status"] = "ncu failed: " + err.replace("\n", " ")
        log(f"{m} {k}: {row['status']}")
        return row
    ncu_ms, rd, wr = call
    row.update(event_ms=ev["ms"], ncu_ms=ncu_ms, time_ratio=ev["ms"] / ncu_ms if ncu_ms else 0,
               model_bytes=ev["bytes"], dram_read=rd, dram_write=wr,
               bytes_ratio=(rd + wr) / ev["bytes"] if ev["bytes"] else 0)
    row["pct_ceiling_model"] = 100 * ev["bytes"] / (ev["ms"] * 1e6) / ceiling if ceiling else 0
    row["pct_ceiling_measured"] = 100 * (rd + wr) / (ev["ms"] * 1e6) / ceiling if ceiling else 0
    log(f"{m} {k}: event {ev['ms']:.4f} ms, ncu {ncu_ms:.4f} ms; model {ev['bytes']/1e6:.1f} MB, "
        f"DRAM {rd/1e6:.1f} + {wr/1e6:.1f} MB")
    return row


def write_validation_csv(table, out_dir):
    fields = ["matrix", "kernel", "status", "event_ms", "ncu_ms", "time_ratio", "model_bytes", "dram_read",
              "dram_write", "bytes_ratio", "pct_ceiling_model", "pct_ceiling_measured"]
    with open(os.path.join(out_dir, "validation.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for row in table:
            w.writerow({k: row.get(k, "") for k in fields})


def validation_markdown(table, precision, ceiling):
    """validation.md's first table: every row of table."""
    md = [f"# Benchmark figures against Nsight Compute ({precision}, ceiling {ceiling:.0f} GB/s)", "",
          "Per SpMV call. Time: the benchmark's cold event time against ncu's gpu__time_duration.sum.",
          "Bytes: the kit's bytes model against ncu's DRAM read + write. `% ceil (DRAM)` is given where the",
          "model is off by more than 15%: the same time, counting the bytes the profiler saw.", "",
          "| matrix | kernel | event ms | ncu ms | event/ncu | model MB | DRAM read MB | DRAM write MB | DRAM/model | % ceil (model) | % ceil (DRAM) |",
          "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in table:
        if r["status"] != "ok":
            md.append(f"| {r['matrix']} | {r['kernel']} | {r['status']} | | | | | | | | |")
            continue
        off = abs(r["bytes_ratio"] - 1) > 0.15
        md.append(f"| {r['matrix']} | {r['kernel']} | {r['event_ms']:.4f} | {r['ncu_ms']:.4f} | {r['time_ratio']:.3f} | "
                  f"{r['model_bytes']/1e6:.1f} | {r['dram_read']/1e6:.1f} | {r['dram_write']/1e6:.1f} | {r['bytes_ratio']:.3f} | "
                  f"{r['pct_ceiling_model']:.1f} | {r['pct_ceiling_measured']:.1f}{'' if off else ' (model within 15%)'} |")
    return md


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
    if len(args) != 2 or "--help" in sys.argv:
        print(__doc__)
        return 0 if "--help" in sys.argv else 2
    bench, out_dir = args
    size, precision = opts.get("size", "large"), opts.get("precision", "double")
    if not shutil.which("ncu"):
        log("ncu not found: install Nsight Compute, or run this on the GPU machine")
        return 2
    os.makedirs(out_dir, exist_ok=True)
    matrices = suite_matrices(bench, size)
    log(f"matrices {', '.join(matrices)}; kernels {', '.join(KERNELS)}; {precision}")
    events = event_figures(bench, matrices, precision, size, out_dir)
    ctx = json.load(open(os.path.join(out_dir, "validation-bench.json")))["context"]
    ceiling = float(ctx.get("ceiling_cuda_GBs", "0"))
    table = [validation_row(bench, m, k, events.get((m, k), {"status": "not run"}), precision, size, ceiling)
             for m in matrices for k in KERNELS]
    write_validation_csv(table, out_dir)
    md = validation_markdown(table, precision, ceiling)
    md += ["", "## OpenCL and CUDA twins (dia-naive, cold, from bench.json beside)", "",
           "| matrix | precision | cuda GFLOP/s | opencl GFLOP/s | opencl/cuda | |", "| --- | --- | ---: | ---: | ---: | --- |"]
    md += twins(os.path.join(out_dir, "bench.json"))
    md += ["", "## Lab 07: the DIA path on measured bytes (CUDA kernels of each step's algorithm)", ""]
    md += dia_path_bytes(bench, size, out_dir)
    with open(os.path.join(out_dir, "validation.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    log(f"wrote {out_dir}/validation.md and validation.csv")
    return 0


if __name__ == "__main__":
    sys.exit(main())
