#!/usr/bin/env bash
# Numbers the compile and link steps of a build: "[ 12/73] NVCC reference/02-csr/csr_cuda.cu".
#
#   progress.sh build BUILD_DIR MAKE ARGS...  count the steps that MAKE ARGS will run, then
#                                             run it (the Makefile's build_goals: all, run, test, ...)
#   progress.sh step TAG FILE                 print one step's numbered line (the Makefile's say)
#
# Why a script and not a line of the Makefile: the total has to be known before the first
# step, and only a dry run of the same goals (make -n) tells which steps make will really run;
# under make -j the steps run in separate processes at once, so the running number is a
# counter that they share in a file and increment under a lock (flock), printing inside the
# lock so that the lines come out in order. Each build gets its own counter file (mktemp), so
# two makes at once, in one build folder or in two, never share a count.
#
# The counter file and the total reach the steps through the environment (KIT_PROGRESS,
# KIT_PROGRESS_TOTAL); without them, a step prints its line unnumbered.
set -u

dry_run_flag() {  # true when MAKEFLAGS asks for a dry run (make -n, --just-print, ...)
  local first=${MAKEFLAGS%% *} word
  [[ -n $first && $first != -* && $first != *=* && $first == *n* ]] && return 0
  for word in $MAKEFLAGS; do
    [ "$word" = -- ] && break  # variable assignments follow
    case $word in -n|--just-print|--dry-run|--recon) return 0 ;; esac
  done
  return 1
}

case ${1:-} in
build)
  build_dir=$2; shift 2
  # Inside a dry run (make -n test, or the count below reaching a nested build) or inside a
  # build that is counted already, the outer count covers these steps.
  if dry_run_flag || [ -n "${KIT_PROGRESS:-}" ]; then exec "$@"; fi
  # The dry run is the same make, goals and variables; each step it would run shows as the
  # command text of the say macro, and those lines are counted.
  total=$(KIT_PROGRESS=dry-run "$@" -n 2>/dev/null | grep -c '^scripts/build/progress\.sh step ')
  # Nothing to build: no counter and no numbered line (make still runs, for its notes).
  [ "${total:-0}" -gt 0 ] || exec "$@"
  mkdir -p "$build_dir" 2>/dev/null
  counter=$(mktemp "$build_dir/.progress.XXXXXX" 2>/dev/null || mktemp "${TMPDIR:-/tmp}/kit-progress.XXXXXX") || exec "$@"
  trap 'rm -f "$counter"' EXIT
  echo 0 >"$counter"
  KIT_PROGRESS=$counter KIT_PROGRESS_TOTAL=$total "$@"
  exit $?
  ;;
step)
  tag=$2 file=$3
  counter=${KIT_PROGRESS:-} total=${KIT_PROGRESS_TOTAL:-}
  if [ -f "$counter" ] && [ -n "$total" ] && exec {lock}>>"$counter" 2>/dev/null && flock "$lock" 2>/dev/null; then
    read -r n <"$counter"
    n=$((${n:-0} + 1))
    echo "$n" >"$counter"
    printf '[%*d/%d] %-4s %s\n' "${#total}" "$n" "$total" "$tag" "$file"
    exec {lock}>&-
  else
    printf '  %s\t%s\n' "$tag" "$file"
  fi
  ;;
*)
  echo "usage: progress.sh build BUILD_DIR MAKE ARGS... | progress.sh step TAG FILE" >&2
  exit 2
  ;;
esac
