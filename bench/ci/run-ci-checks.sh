#!/usr/bin/env bash
# CI check of the benchmark pipeline, on the CPU and OpenCL (PoCL) parts a CI machine has:
# build spmv-bench, run it on the tiny suite, and check that every kernel's result was
# verified (no WRONG, no ERROR), that the JSON, the table and the CSV came out, and the
# plots too where matplotlib is installed. A minute or less after `make test`.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
out=$build/bench-ci
python3 bench/analysis/test_format_choice_eval.py  # lab 08's evaluation script, on pairs made up there
rm -rf "$out"
make --no-print-directory BUILD="$build" SM="${SM:-90}" bench SIZE=tiny OUT="$out" \
  BENCH_ARGS="--repeats=3 --warmup=1" > "$build/bench-ci.log" 2>&1 || {
  tail -40 "$build/bench-ci.log"; echo "bench ci: make bench failed (see $build/bench-ci.log)"; exit 1; }
grep '^bench: ' "$build/bench-ci.log"

python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
data = json.load(open(f"{out}/bench.json"))
runs = [b for b in data["benchmarks"] if b["name"].startswith("spmv/")]
ok = [b for b in runs if "GFLOPs" in b]
bad = [b for b in runs if b.get("error_message", "").startswith(("WRONG", "ERROR"))]
assert not bad, "results that failed verification or crashed: " + "; ".join(b["name"] + ": " + b["error_message"] for b in bad)
assert len(ok) >= 20, f"only {len(ok)} verified runs in the tiny suite"
assert all(b["GFLOPs"] > 0 and b["GBs"] > 0 and b["error"] < 1e-3 for b in ok), "a verified run has no speed or a large error"
assert any(b["name"].startswith("ceiling/") for b in data["benchmarks"]), "no bandwidth ceiling in the JSON"
summary = open(f"{out}/summary.txt").read()
for needed in ("== Target checks", "bench: ", "GFLOP/s"):
    assert needed in summary, f"summary.txt lacks '{needed}'"
print(f"bench ci: {len(ok)} verified runs, {len(runs) - len(ok)} skipped, JSON and summary complete")
PY
test -s "$out/summary.csv"
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null || python3 -c 'import matplotlib' 2>/dev/null; then
  pngs="gflops_double.png gflops_float.png"
  if grep -q '"spmv/[^"]*/dia' "$out/bench.json"; then pngs="$pngs dia_path.png"; fi
  for png in $pngs; do
    test -s "$out/$png" || { echo "bench ci: $png missing"; exit 1; }
  done
  echo "bench ci: plots drawn"
else
  echo "bench ci: matplotlib missing, plots not checked"
fi
matrices/download --list > /dev/null
bench/ci/check_bench_multi_csv.sh "$build"
echo "bench ci: passed"
