#!/usr/bin/env bash
# The developers' batched check on a GPU machine. Logs and results go to $OUT when set.
#   gpu_check.sh tests   build, make test (0 skipped expected), verify-starter, compute-sanitizer, make run
#   gpu_check.sh perf    the lab drivers' performance runs (DIA path, BCSR tuner, CSR vs CSR5)
#   gpu_check.sh all     both
set -uo pipefail
what=${1:-all}
out=${OUT:-build/gpu-check}
mkdir -p "$out"
. scripts/setup/opencl_env.sh
nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
make deps >/dev/null 2>&1
jobs=$(nproc)
make -j"$jobs" all >"$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
status=0
if [ "$what" = tests ] || [ "$what" = all ]; then
  make test > "$out/test.log" 2>&1 || status=1
  grep -E '^test_|passed,|BROKEN|^manifest|check-starter' "$out/test.log"
  grep -A3 -E 'Failure' "$out/test.log" | head -40
  make -j"$jobs" verify-starter > "$out/starter.log" 2>&1 || status=1
  tail -1 "$out/starter.log"
  for t in build/reference/bin/test_*_hidden; do
    compute-sanitizer --error-exitcode 9 --print-limit 5 "$t" --gtest_filter='*Cuda*' > "$out/sanitizer-$(basename "$t").log" 2>&1
    echo "compute-sanitizer memcheck $(basename "$t"): exit $? $(grep -m1 'ERROR SUMMARY' "$out/sanitizer-$(basename "$t").log")"
  done
  compute-sanitizer --tool racecheck --error-exitcode 9 build/reference/bin/test_06-csr5 --gtest_filter='Step4_*' > "$out/racecheck.log" 2>&1
  echo "racecheck csr5: exit $? $(grep -m1 'ERROR SUMMARY' "$out/racecheck.log")"
  make run > "$out/run.log" 2>&1 || status=1
  tail -3 "$out/run.log"
fi
if [ "$what" = perf ] || [ "$what" = all ]; then
  kit=build/reference/bin/spmv-kit
  timeout 480 $kit tune-profile --backends cuda --out "$out/bcsr_profile.txt" > "$out/tune-profile.log" 2>&1; echo "tune-profile exit $?"
  KIT_BCSR_PROFILE="$out/bcsr_profile.txt" timeout 300 build/reference/bin/tune_check > "$out/tune_check.log" 2>&1; echo "tune_check exit $?"; tail -25 "$out/tune_check.log"
  timeout 200 build/reference/bin/dia_path --large --cuda > "$out/dia_path_large.log" 2>&1; echo "dia_path exit $?"; cat "$out/dia_path_large.log" | tail -30
  timeout 120 build/reference/bin/dia_path --cuda > "$out/dia_path_article.log" 2>&1; tail -14 "$out/dia_path_article.log"
  $kit gen rdb --m 1000 -o /tmp/rdb-m1000.mtx 2>/dev/null
  $kit gen powerlaw --n 1000000 --max-len 100000 -o /tmp/powerlaw.mtx 2>/dev/null
  timeout 300 $kit table /tmp/rdb-m1000.mtx /tmp/powerlaw.mtx --precision double > "$out/table-large.log" 2>&1; echo "table exit $?"; grep -E 'cuda|opencl' "$out/table-large.log" | head -60
fi
exit "$status"
