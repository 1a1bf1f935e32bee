#!/usr/bin/env bash
# The developers' one-call check on a GPU machine: build, test (0 skipped GPU tests
# expected), verify the starter, and print the run table. Logs go to $OUT when set.
set -uo pipefail
out=${OUT:-build/gpu-check}
mkdir -p "$out"
. scripts/opencl_env.sh
nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader | tee "$out/gpu.txt"
make deps >/dev/null 2>&1
jobs=$(nproc)
make -j"$jobs" all >"$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
make test 2>&1 | tee "$out/test.log" | grep -vE '^(g\+\+|nvcc) ' | tail -60
status=${PIPESTATUS[0]}
make -j"$jobs" verify-starter > "$out/starter.log" 2>&1; echo "verify-starter exit $?: $(tail -1 "$out/starter.log")"
make run 2>&1 | tee "$out/run.log" | tail -60
exit "$status"
