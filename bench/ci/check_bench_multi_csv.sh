#!/usr/bin/env bash
# bench_multi (lab 10) never appends its rows to a CSV of other columns: given an older
# bench_multi.csv it stops before any work (no MPI, no GPU needed), says what to do, and leaves
# the file byte for byte as it was; given a CSV in a folder that does not exist, it stops before
# any work too, rather than after the whole run. A build without CUDA, MPI or NCCL must say that
# instead.
# usage: bench/ci/check_bench_multi_csv.sh [BUILD]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
make --no-print-directory BUILD="$build" SM="${SM:-90}" "$build/reference/bin/bench_multi" > /dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'matrix,n,rows,nnz,ranks,iter_ms\nstencil27,160,4096000,109215352,1,0.2308\n' > "$work/old.csv"
cp "$work/old.csv" "$work/kept.csv"
rc=0
"$build/reference/bin/bench_multi" --csv "$work/old.csv" > "$work/out.txt" 2>&1 || rc=$?
if grep -q 'not built with CUDA, MPI and NCCL' "$work/out.txt"; then
  [ "$rc" = 2 ] || { echo "bench ci: bench_multi without NCCL exited $rc, not 2"; exit 1; }
  echo "bench ci: bench_multi built without NCCL here, and says so (exit 2)"
  exit 0
fi
[ "$rc" = 1 ] || { cat "$work/out.txt"; echo "bench ci: bench_multi on an older CSV exited $rc, not 1"; exit 1; }
grep -q "holds another version's columns" "$work/out.txt" || { cat "$work/out.txt"; echo "bench ci: no reason given"; exit 1; }
cmp -s "$work/old.csv" "$work/kept.csv" || { echo "bench ci: bench_multi changed an older CSV"; exit 1; }
echo "bench ci: bench_multi refuses an older CSV and leaves it as it was"
rc=0
"$build/reference/bin/bench_multi" --csv "$work/missing/multi.csv" > "$work/out.txt" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$work/out.txt"; echo "bench ci: bench_multi with --csv in a missing folder exited $rc, not 1"; exit 1; }
grep -q "no folder .*mkdir -p" "$work/out.txt" || { cat "$work/out.txt"; echo "bench ci: no advice for a missing folder"; exit 1; }
[ ! -e "$work/missing" ] || { echo "bench ci: bench_multi created the missing folder"; exit 1; }
echo "bench ci: bench_multi refuses --csv in a missing folder before any work"
