#!/usr/bin/env bash
# Runs test binaries one after another and sums them up:
#   run_tests.sh LOG_DIR BINARY...
# A lab whose manifest has "mpi_ranks" runs under mpirun at each of its rank counts
# (mpi_launch.sh), each run with its own log, <binary>.npN.log.
# Each binary's output goes to the terminal and to LOG_DIR/<binary>.log. Then the skipped
# tests with their reasons, the points per lab and step (points_summary.py: from the
# manifests and these logs), and last the line
#   N passed, N failed, N skipped
# Exit status 1 if anything failed.
set -u
. "$(dirname "$0")/kit_summary.sh"
. "$(dirname "$0")/mpi_launch.sh"
logdir=$1; shift
mkdir -p "$logdir"
passed=0; failed=0; skipped=0; broken=(); logs=()
# stopped_reason LOG: why a run that `timeout` stopped (exit status 124) is broken.
stopped_reason() {
  echo "stopped after ${KIT_MPI_TIMEOUT} s: its ranks most likely wait for each other, a deadlock such as a blocking receive posted before the matching send, or a rank that never reaches MPI_Finalize; the last test it started is at the end of $1"
}
# run_one LABEL LOG COMMAND...: one run of a test program, summed up.
run_one() {
  local name=$1 log=$2; shift 2
  logs+=("$log")
  "$@" --gtest_color=no >"$log" 2>&1
  status=$?
  if ! kit_summary "$log"; then
    if [ "$status" = 124 ]; then
      broken+=("$name ($(stopped_reason "$log"))")
    else
      broken+=("$name (exit status $status, no summary: it crashed or was killed; see $log)")
    fi
    failed=$((failed + 1))
    return
  fi
  p=$summary_passed f=$summary_failed s=$summary_skipped
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
  # a lab's kit tests check the code the kit gives, so they pass on an untouched starter
  case "$name" in *_kit*) note="   (the kit's own checks: no points)" ;; *) note="" ;; esac
  printf '%-28s %4s passed %4s failed %4s skipped%s\n' "$name" "$p" "$f" "$s" "$note"
  # show each failure with its message (file:line and the step-named explanation)
  [ "$f" = 0 ] || grep -B1 -A8 -E '^.*(Failure|error:)' "$log" | sed 's/^/    /'
  if [ "$status" = 124 ]; then broken+=("$name ($(stopped_reason "$log"))"); failed=$((failed + 1))
  elif [ "$status" != 0 ] && [ "$f" = 0 ]; then broken+=("$name (exit status $status with no failed test)"); failed=$((failed + 1)); fi
}
for bin in "$@"; do kit_each_launch run_one "$logdir" "$bin"; done
echo
for b in "${broken[@]+"${broken[@]}"}"; do echo "BROKEN $b"; done
if [ "$skipped" -gt 0 ]; then
  # One line per reason, then the tests it skipped: the same missing GPU is said once, and a test
  # skipped at several rank counts (an MPI lab) is named once.
  echo "Skipped tests and why:"
  # Only this run's logs: the folder also holds other labs' logs from earlier runs.
  # Each line as "PROGRAM<TAB>TEST: REASON", PROGRAM the log's name less its .npN rank count.
  grep -H '^  SKIPPED ' "${logs[@]}" | sed -E 's/^(.*\/)?([^/]*)\.log:  SKIPPED /\2\t/; s/\.np[0-9]+\t/\t/' |
    awk -F': ' '{ split($1, pt, "\t"); t=pt[2]; sub(/^[^:]*: /, ""); if (!($0 in seen)) { order[++n]=$0; seen[$0]=1 }
                 if (!(($0, pt[1], t) in named)) { named[$0, pt[1], t]=1; list[$0]=list[$0] "\n    " t } }
                END { for (i=1;i<=n;i++) printf "  %s%s\n", order[i], list[order[i]] }'
fi
# Points per lab and step, beside the counts (a lab's tests only; the kit's own carry none).
python3 "$(dirname "$0")/points_summary.py" "${logs[@]+"${logs[@]}"}" || echo "(points: the summary could not be computed)"
# The summary comes last, so the README's "ends with N passed, N failed, N skipped" holds.
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
