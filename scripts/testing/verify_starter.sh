#!/usr/bin/env bash
# Checks that the starter code earns nothing: every lab test must fail (or skip for lack
# of a device), and every failure message must name the lab and step.
#   verify_starter.sh LOG_DIR BINARY...
# A test that passes on the untouched starter cannot tell a solution from a TODO: that is
# a defect in the test, reported here. A lab with "mpi_ranks" in its manifest (lab 10) runs
# under mpirun at each of its rank counts, as make test runs it (mpi_launch.sh).
set -u
here=$(dirname "$0")
. "$here/kit_summary.sh"
. "$here/mpi_launch.sh"
lab_name=$(cat "$here/../labs/lab_name.ere")
logdir=$1; shift
mkdir -p "$logdir"
bad=0
# check_one LABEL LOG COMMAND...: one run of a starter test program, judged.
check_one() {
  local name=$1 log=$2; shift 2
  "$@" --gtest_color=no >"$log" 2>&1
  if ! kit_summary "$log"; then echo "verify-starter: $name crashed on the starter (see $log)"; bad=1; return; fi
  p=$summary_passed f=$summary_failed
  if [ "$p" != 0 ]; then
    echo "verify-starter: $name: $p test(s) PASS on the starter:"; grep '^\[       OK \]' "$log" | sed 's/^/    /'; bad=1
  fi
  named=$(grep -cE "$lab_name step [0-9]+" "$log")
  if [ "$f" -gt 0 ] && [ "$named" -eq 0 ]; then echo "verify-starter: $name: failures do not name a lab step"; bad=1; fi
  echo "verify-starter: $name: $p passed, $f failed (step-named messages: $named)"
}
for bin in "$@"; do kit_each_launch check_one "$logdir" "$bin"; done
[ "$bad" = 0 ] && echo "verify-starter: OK, the starter earns no test"
exit $bad
