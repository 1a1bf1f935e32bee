#!/usr/bin/env bash
# Checks the grader's judge on the kit's own solutions: each lab's tests run against the
# reference with --kit-record (the student's side), then the same tests linked with the
# starter replay that record (--kit-replay, the judge's side, which never runs a solution).
# Every test the judge runs must pass: a test that fails here calls into student code
# without kit::testing::observe (tests/support/observe.hpp), so the judge ran the starter.
#   check_judge.sh BUILD_DIR LOG_DIR LAB...
set -u
. "$(dirname "$0")/kit_summary.sh"
. "$(dirname "$0")/mpi_launch.sh"
build=$1 logdir=$2; shift 2
mkdir -p "$logdir"
bad=0
for lab in "$@"; do
  for kind in "" _hidden; do
    name=test_${lab}${kind}
    ref=$build/reference/bin/$name judge=$build/starter/bin/$name
    [ -x "$ref" ] || continue
    if [ ! -x "$judge" ]; then echo "check-judge: $judge is missing (build IMPL=starter too)"; bad=1; continue; fi
    # an MPI lab: recorded (by rank 0) and judged at each rank count of its manifest
    counts=$(kit_launch_counts "$ref")
    for n in ${counts:-0}; do
      tag=$name; launch=()
      [ "$n" = 0 ] || { tag=$name.np$n; read -ra launch <<<"$(kit_mpirun "$n")"; }
      rec=$logdir/$tag.rec
      "${launch[@]}" "$ref" --gtest_color=no --kit-record="$rec" >"$logdir/$tag.record.log" 2>&1
      "$judge" --gtest_color=no --kit-replay="$rec" >"$logdir/$tag.judge.log" 2>&1
      if ! kit_summary "$logdir/$tag.judge.log"; then
        echo "check-judge: the judge $tag crashed (see $logdir/$tag.judge.log)"; bad=1; continue
      fi
      f=$summary_failed
      if [ "$f" != 0 ]; then
        echo "check-judge: $tag: $f test(s) fail in the judge on the reference's record:"
        grep -E '^\[  FAILED  \]' "$logdir/$tag.judge.log" | sort -u | sed 's/^/    /'; bad=1
      fi
      echo "check-judge: $tag: $summary"
    done
  done
done
[ "$bad" = 0 ] && echo "check-judge: OK, the judge gives the reference every test it runs"
exit $bad
