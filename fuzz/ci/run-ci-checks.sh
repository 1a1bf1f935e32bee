#!/usr/bin/env bash
# CI check of the Matrix Market reader: a short libFuzzer run (FUZZ_SECONDS, 60 by default)
# under AddressSanitizer and UBSan, from the hand-written seeds in fuzz/corpus/. Fails on any
# crash, sanitizer report, leak or broken invariant (the target aborts and libFuzzer saves
# the input under $BUILD/fuzz/findings/). Skips, saying why, where clang cannot build a
# libFuzzer target.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
seconds=${FUZZ_SECONDS:-60}
log=$build/fuzz-ci.log
mkdir -p "$build"
status=0
make --no-print-directory BUILD="$build" SM="${SM:-90}" fuzz-build > "$log" 2>&1 || status=$?
if [ "$status" = 3 ]; then
  grep '^fuzz:' "$log"; echo "fuzz ci: SKIPPED (no libFuzzer here)"; exit 0
elif [ "$status" != 0 ]; then
  tail -30 "$log"; echo "fuzz ci: the fuzz target did not build (see $log)"; exit 1
fi
if ! make --no-print-directory BUILD="$build" SM="${SM:-90}" fuzz FUZZ_SECONDS="$seconds" >> "$log" 2>&1; then
  grep -E 'ERROR|SUMMARY|mtx-fuzz:|runtime error|Test unit written' "$log" | head -20
  echo "fuzz ci: FAILED: the reproducer is in $build/fuzz/findings/ (run it: $build/fuzz/mtx-fuzz FILE)"; exit 1
fi
grep -E '^stat::number_of_executed_units|^Done' "$log" | head -2
echo "fuzz ci: passed ($seconds s, no crash, no sanitizer report)"
