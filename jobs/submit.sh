#!/usr/bin/env bash
# Submits a job script to the scheduler found here and says how to follow it (`make submit`).
#   submit.sh lab NN-name...   one job per lab
#   submit.sh bench            the benchmark suite
#   submit.sh grade            grading array over $SUBS (one task per submission), then the
#                              merge into grades.csv once every task has ended
# Environment: SCHED=slurm|sge (default: sbatch if present, else qsub); JOB_OUTDIR=folder for
# the jobs' output files (default: the kit folder); WAIT=1 waits for the jobs and exits with
# their status (CI). The per-run variables of jobs/run_on_node.sh (IMPL, BUILD, SM,
# KIT_ALLOW_NO_GPU, SUBS, GRADE_OUT, ...) are passed on to the job when set.
set -uo pipefail
# Called from make: its own settings must not reach the jobs' make runs (Slurm passes the
# environment on); the variables given to make are in the environment by themselves.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
cd "$(dirname "$0")/.."
KIT_ROOT=$PWD
. jobs/run_on_node.sh   # for kit_list_submissions

pass_vars=(IMPL BUILD SM KIT_ALLOW_NO_GPU KIT_MAKE_JOBS SUBS GRADE_OUT GRADE_LAB KIT_GRADER KIT_GRADER_ARGS KIT_BENCH_ARGS GTEST_FILTER)

if [ -z "${SCHED:-}" ]; then
  if command -v sbatch >/dev/null; then SCHED=slurm
  elif command -v qsub >/dev/null; then SCHED=sge
  else
    echo "submit: neither sbatch (Slurm) nor qsub (SGE) is on this machine." >&2
    echo "submit: on a GPU machine without a scheduler, run a script directly: bash jobs/slurm/<job>.sbatch" >&2
    exit 2
  fi
fi
# Folders are handed over absolute, so the job finds them from any working folder.
JOB_OUTDIR=${JOB_OUTDIR:-.}
mkdir -p "$JOB_OUTDIR" && JOB_OUTDIR=$(cd "$JOB_OUTDIR" && pwd) || exit 2
[ -n "${SUBS:-}" ] && export GRADE_OUT=${GRADE_OUT:-$JOB_OUTDIR/grade-out}
for v in SUBS GRADE_OUT; do
  [ -n "${!v:-}" ] && case ${!v} in /*) ;; *) export "$v=$PWD/${!v}" ;; esac
done

# submit SCRIPT [scheduler options...]: prints the job id
submit() {
  local script=$1; shift
  local args=() out status
  if [ "$SCHED" = slurm ]; then
    args=(--parsable --export=ALL,KIT_ROOT="$KIT_ROOT" --chdir="$JOB_OUTDIR")
    [ "${WAIT:-0}" = 1 ] && args+=(--wait)
    out=$(sbatch "${args[@]}" "$@" "jobs/slurm/$script.sbatch")
  else
    local v env="KIT_ROOT=$KIT_ROOT"
    for v in "${pass_vars[@]}"; do [ -n "${!v+set}" ] && env+=",$v=${!v}"; done
    args=(-terse -v "$env" -wd "$JOB_OUTDIR")
    [ "${WAIT:-0}" = 1 ] && args+=(-sync y)
    out=$(qsub "${args[@]}" "$@" "jobs/sge/$script.job")
  fi
  status=$?
  # sbatch --parsable: "ID" or "ID;cluster"; qsub -terse: "ID" or "ID.1-3:1" for arrays.
  out=$(head -1 <<<"$out")
  echo "${out%%[.;]*}"
  return "$status"
}

follow() {  # JOB_ID OUTPUT_NAME
  if [ "$SCHED" = slurm ]; then
    echo "  follow: squeue -j $1    output: tail -f $JOB_OUTDIR/$2    afterwards: sacct -j $1 (with accounting)"
  else
    echo "  follow: qstat -j $1    output: tail -f $JOB_OUTDIR/$2    afterwards: qacct -j $1"
  fi
}

kind=${1:-}; shift || true
status=0
case $kind in
  lab)
    for lab in "$@"; do
      id=$(submit "$lab"); s=$?
      [ -n "$id" ] || { echo "submit: $lab was not submitted" >&2; exit 2; }
      echo "submitted $lab as $SCHED job $id"
      follow "$id" "spmv-$lab-$id.out"
      [ "$s" = 0 ] || status=$s
    done ;;
  bench)
    id=$(submit bench); status=$?
    [ -n "$id" ] || exit 2
    echo "submitted the benchmarks as $SCHED job $id"
    follow "$id" "spmv-bench-$id.out" ;;
  grade)
    [ -n "${SUBS:-}" ] && [ -d "$SUBS" ] || { echo "submit: set SUBS to the folder of submissions" >&2; exit 2; }
    n=$(kit_list_submissions "$SUBS" | grep -c .)
    [ "$n" -gt 0 ] || { echo "submit: no submissions in $SUBS" >&2; exit 2; }
    if [ "$SCHED" = slurm ]; then
      id=$(submit grade-array --array=1-"$n"); status=$?
      [ -n "$id" ] || exit 2
      mid=$(submit grade-merge --dependency=afterany:"$id") || status=1
    else
      id=$(submit grade-array -t 1-"$n"); status=$?
      [ -n "$id" ] || exit 2
      mid=$(submit grade-merge -hold_jid "$id") || status=1
    fi
    echo "submitted grading of $n submissions as $SCHED array job $id (tasks 1-$n), merge job $mid after it"
    follow "$id" "spmv-grade-$id-<task>.out"
    follow "$mid" "spmv-grade-merge-$mid.out"
    echo "  results: $GRADE_OUT/<submission>/, then $GRADE_OUT/grades.csv" ;;
  *)
    echo "usage: make submit LAB=NN-name|all   or   make submit JOB=bench   or   make submit JOB=grade SUBS=folder" >&2
    exit 2 ;;
esac
exit "$status"
