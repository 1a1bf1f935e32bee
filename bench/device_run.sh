#!/usr/bin/env bash
# The benchmark run on a GPU machine, in one or two calls:
#   bench/device_run.sh build     build spmv-bench (make -j$(nproc)); a few minutes
#   bench/device_run.sh run       run the suite; results in $OUT/<gpu>-<date>/ (or $BUILD/bench-results/)
#   bench/device_run.sh           both
# SIZE=, PRECISION= and BENCH_ARGS= pass through to make bench. The run writes command.txt
# (command, commit, GPU) beside the results, and prints the target checks last. Copy the
# folder into bench/results/ to commit it; draw the plots there with make bench-plot if the
# GPU machine had no matplotlib.
set -uo pipefail
cd "$(dirname "$0")/.."
step=${1:-all}
jobs=$(nproc)
export BUILD=${BUILD:-build}
. scripts/setup/opencl_env.sh

if [ "$step" = build ] || [ "$step" = all ]; then
  mkdir -p "$BUILD" && make --no-print-directory deps >/dev/null 2>&1
  make --no-print-directory -j"$jobs" features "$BUILD/reference/bin/spmv-bench" > "$BUILD/bench-build.log" 2>&1 ||
    { tail -40 "$BUILD/bench-build.log"; echo "device_run: build failed"; exit 1; }
  echo "device_run: spmv-bench built"
fi
[ "$step" = build ] && exit 0

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | awk '{print tolower($2)}')
dest=${OUT:-$BUILD/bench-results}/${gpu:-nogpu}-$(date +%Y-%m-%d)
mkdir -p "$dest"
{
  echo "command: make bench SIZE=${SIZE:-auto} PRECISION=${PRECISION:-double,float} BENCH_ARGS='${BENCH_ARGS:-}'"
  echo "commit:  $(git rev-parse HEAD 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv 2>/dev/null
} > "$dest/command.txt"
make --no-print-directory bench OUT="$dest" SIZE="${SIZE:-auto}" PRECISION="${PRECISION:-double,float}" \
  BENCH_ARGS="${BENCH_ARGS:-}" > "$dest/run.log" 2>&1
status=$?
grep -E '^\[ *[0-9.]+s\] (ceiling|matrix .*: [0-9]+ x)' "$dest/run.log" | tail -20
sed -n '/^== Target checks/,$p' "$dest/summary.txt" 2>/dev/null || tail -40 "$dest/run.log"
echo "device_run: results in $dest (exit $status)"
exit $status
