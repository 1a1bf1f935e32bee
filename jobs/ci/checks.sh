# Helpers for jobs/ci/run-ci-checks.sh (sourced): result counting, submitting a job script to
# a running scheduler and checking what the job left behind.
# Needs: root (the kit folder), work (a temporary folder), BUILD and SM.

n_ok=0 n_bad=0 n_skip=0 skipped=()
ok() { n_ok=$((n_ok + 1)); echo "  ok    $1"; }
bad() {  # NAME [DETAILS]
  n_bad=$((n_bad + 1)); echo "  FAIL  $1"
  [ -z "${2:-}" ] || sed 's/^/          /' <<<"$2"
}
skip() { n_skip=$((n_skip + 1)); skipped+=("$1: $2"); echo "  skip  $1 ($2)"; }
summary() {
  echo
  echo "$n_ok passed, $n_bad failed, $n_skip skipped"
  if [ "$n_skip" -gt 0 ]; then
    echo "Skipped checks and why:"
    printf '  %s\n' "${skipped[@]}"
  fi
  [ "$n_bad" = 0 ]
}

# submit_job SCHED SCRIPT [NAME=value...]: submit jobs/SCHED/SCRIPT, wait for its end, with the
# variables given (plus BUILD and SM). Sets JOB_RC (the job's exit status as the scheduler
# reports it), JOB_ID, JOB_OUT (the output file the script's directives name) and SUBMIT_LOG.
submit_job() {
  local sched=$1 script=$2; shift 2
  local dir=$work/$sched
  mkdir -p "$dir"
  if [ "$sched" = slurm ]; then
    SUBMIT_LOG=$(cd "$dir" && env KIT_ROOT="$root" BUILD="$BUILD" SM="$SM" "$@" \
      timeout 1800 sbatch --wait "$root/jobs/slurm/$script.sbatch" 2>&1)
    JOB_RC=$?
    JOB_ID=$(sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' <<<"$SUBMIT_LOG")
  else
    local vars="KIT_ROOT=$root,BUILD=$BUILD,SM=$SM" a
    for a in "$@"; do vars+=",$a"; done
    SUBMIT_LOG=$(cd "$dir" && timeout 1800 qsub -sync y -v "$vars" "$root/jobs/sge/$script.job" 2>&1)
    JOB_RC=$?
    JOB_ID=$(sed -n 's/^Your job \([0-9]*\) .*/\1/p' <<<"$SUBMIT_LOG")
  fi
  JOB_OUT=$dir/spmv-$script-$JOB_ID.out
  submitted+=("$sched/$script")
}

# expect_job NAME ok|fail REGEX...: the last job ended as expected, wrote its output file
# under the expected name, and that file matches every REGEX (extended, per line).
expect_job() {
  local name=$1 want=$2 re; shift 2
  if [ -z "$JOB_ID" ]; then bad "$name: not submitted" "$SUBMIT_LOG"; return 1; fi
  if [ ! -f "$JOB_OUT" ]; then
    bad "$name: job $JOB_ID wrote no $(basename "$JOB_OUT")" "$(ls "$(dirname "$JOB_OUT")")"; return 1
  fi
  if { [ "$want" = ok ] && [ "$JOB_RC" != 0 ]; } || { [ "$want" = fail ] && [ "$JOB_RC" = 0 ]; }; then
    bad "$name: job $JOB_ID exit status $JOB_RC, expected $want" "$(tail -15 "$JOB_OUT")"; return 1
  fi
  for re in "$@"; do
    grep -Eq -- "$re" "$JOB_OUT" || { bad "$name: $(basename "$JOB_OUT") lacks /$re/" "$(tail -15 "$JOB_OUT")"; return 1; }
  done
  ok "$name (job $JOB_ID, exit status $JOB_RC, $(basename "$JOB_OUT"))"
}

SUMMARY_RE='^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$'

# Every script of one scheduler, and the ways a job must fail.
scheduler_suite() {
  local sched=$1 script name kind
  submitted=()
  for script in "$root"/jobs/"$sched"/*; do
    name=$(basename "${script%.*}")
    # A lab's job is named after the lab (scripts/labs/lab_name.ere); the others by their role.
    grep -qxE "$(cat "$root/scripts/labs/lab_name.ere")" <<<"$name" && kind=lab || kind=$name
    # An MPI lab's job (manifest "mpi_ranks": lab 10) asks for a GPU per rank and starts its
    # ranks with the site's launcher (srun --mpi=pmix; mpirun in the "mpi" parallel environment).
    if [ "$kind" = lab ] && [ -n "$(python3 "$root/scripts/labs/lab_manifests.py" mpi-ranks "$name" 2>/dev/null)" ]; then
      kind=mpi-lab
    fi
    case $kind in
      mpi-lab) mpi_lab_check "$sched" "$name" ;;
      lab)
        submit_job "$sched" "$name" KIT_ALLOW_NO_GPU=1 IMPL=reference
        # make -j is what the scheduler granted: KIT_CPUS (Slurm's cpus-per-task, SGE's slots).
        expect_job "$sched: $name" ok "$SUMMARY_RE" "^spmv-job: OK: lab $name: [0-9]+ passed, 0 failed" \
          "^spmv-job: build: make -j$(site_value KIT_CPUS) "
        [ "$name" = 00-basics ] && [ "$sched" = slurm ] && slurm_request_check "$JOB_ID" ;;
      bench) bench_check "$sched" ;;
    esac
  done
  grade_check "$sched"

  # A starter that nobody filled in fails its tests: the job must end as failed.
  submit_job "$sched" 02-csr KIT_ALLOW_NO_GPU=1 IMPL=starter
  expect_job "$sched: untouched starter fails the job" fail "$SUMMARY_RE" '^spmv-job: FAILED: lab 02-csr: 0 passed, [1-9][0-9]* failed'
  # GPU tests that cannot run must not pass as a success.
  submit_job "$sched" 00-basics
  expect_job "$sched: no GPU and no KIT_ALLOW_NO_GPU fails before building" fail 'no usable GPU' '^spmv-job: FAILED: no GPU'
  # A filter that selects nothing runs no test: that is no success either.
  submit_job "$sched" 01-coo KIT_ALLOW_NO_GPU=1 'GTEST_FILTER=NoSuchTest.*'
  expect_job "$sched: a run without tests fails" fail '^spmv-job: FAILED: lab 01-coo: no test ran'

  local missing
  missing=$(comm -23 <(cd "$root/jobs/$sched" && ls | sed 's/\.[a-z]*$//' | sort) \
                     <(printf '%s\n' "${submitted[@]}" | sed "s|^$sched/||" | sort -u))
  [ -z "$missing" ] && ok "$sched: every script in jobs/$sched was submitted" ||
    bad "$sched: scripts never submitted: $(echo $missing)"
}

# An MPI lab's job: its test programs ran at every rank count of the manifest, each through
# the scheduler's launcher, and passed (the GPU ones skip on this cluster's fake GPUs).
mpi_lab_check() {
  local sched=$1 name=$2 n res=() launcher
  [ "$sched" = slurm ] && launcher=$(site_value KIT_SLURM_MPIRUN) || launcher='mpirun -np N'
  res+=("^spmv-job: MPI: ranks started by $launcher")
  submit_job "$sched" "$name" KIT_ALLOW_NO_GPU=1 IMPL=reference
  for n in $(python3 "$root/scripts/labs/lab_manifests.py" mpi-ranks "$name"); do
    res+=("^test_$name \\($n ranks\\) +[1-9][0-9]* passed +0 failed")
  done
  expect_job "$sched: $name (an MPI lab, ranks started by $launcher)" \
    ok "$SUMMARY_RE" "^spmv-job: OK: lab $name: [0-9]+ passed, 0 failed" "${res[@]}"
}

site_value() { (. "$root/jobs/site.env" && eval "echo \"\${$1}\""); }

# The scheduler's record of a GPU job: the partition and memory from jobs/site.env.
slurm_request_check() {
  local rec want_part want_mem
  rec=$(scontrol show job "$1" 2>&1)
  want_part=$(site_value KIT_SLURM_PARTITION) want_mem=$(site_value KIT_MEM)
  grep -q "Partition=$want_part " <<<"$rec" && grep -q "MinMemoryNode=$want_mem " <<<"$rec" &&
    ok "slurm: job $1 ran in partition $want_part with --mem=$want_mem (jobs/site.env)" ||
    bad "slurm: job $1 did not get partition $want_part and --mem=$want_mem" "$(grep -Eo '(Partition|MinMemoryNode|NumCPUs)=[^ ]*' <<<"$rec")"
}

bench_check() {
  local sched=$1
  # bench-info builds and runs nothing (make -n bench still runs the build's sub-make: make
  # runs a recipe line holding $(MAKE) even under -n).
  local info
  info=$(cd "$root" && make --no-print-directory -s bench-info BUILD="$BUILD" SM="$SM" 2>&1)
  if grep -q "No rule to make target 'bench-info'" <<<"$info"; then
    submit_job "$sched" bench KIT_ALLOW_NO_GPU=1
    expect_job "$sched: bench says clearly that make bench is missing" fail '^spmv-job: FAILED: make bench is not defined'
    skip "$sched: bench run" "make bench is not defined yet (bench/ has no .mk)"
  else
    # The CI node has no GPU: make bench is the quick host run (tiny matrices, OpenCL on the two
    # smallest, 1M-entry reader benchmark), under a minute once built; the CPU and OpenCL kernels are timed.
    submit_job "$sched" bench KIT_ALLOW_NO_GPU=1 "KIT_BENCH_ARGS=${KIT_CI_BENCH_ARGS:-SIZE=tiny}"
    expect_job "$sched: bench" ok '^bench: [0-9]+ runs' '^spmv-job: OK: make bench finished' &&
      { [ -s "$work/$sched/spmv-bench-$JOB_ID/bench.json" ] && ok "$sched: bench wrote spmv-bench-$JOB_ID/bench.json" ||
        bad "$sched: bench left no spmv-bench-$JOB_ID/bench.json" "$(ls -R "$work/$sched/spmv-bench-$JOB_ID" 2>&1 | head)"; }
  fi
}

# Three dummy submissions of lab 00-basics (the reference files, the untouched starter, an
# empty folder) graded as an array through `make submit`, then merged into grades.csv.
grade_check() {
  local sched=$1 dir=$work/$sched subs=$work/subs grader=() log id mid t
  if [ ! -d "$subs" ]; then
    mkdir -p "$subs/alice" "$subs/bob" "$subs/carol"
    cp "$root"/reference/00-basics/* "$subs/alice/"
    cp "$root"/starter/00-basics/* "$subs/bob/"
  fi
  if [ -f "$root/grader/grade.py" ]; then
    # The grader's prebuilt instructor tree goes into the build folder the jobs share.
    grader=("KIT_GRADER_ARGS=--cache $(cd "$root" && realpath -m "$BUILD")/grader-cache")
  else
    grader=("KIT_GRADER=python3 $root/jobs/ci/stand_in_grader.py")
    skip "$sched: grading with the real grader" "grader/grade.py is missing; the array ran with jobs/ci/stand_in_grader.py"
  fi
  log=$(cd "$root" && env "${grader[@]}" SCHED="$sched" WAIT=1 JOB_OUTDIR="$dir" SUBS="$subs" \
        GRADE_OUT="$dir/grades" GRADE_LAB=00-basics KIT_ALLOW_NO_GPU=1 \
        timeout 3600 make --no-print-directory submit JOB=grade BUILD="$BUILD" SM="$SM" 2>&1)
  local rc=$?
  submitted+=("$sched/grade-array" "$sched/grade-merge")
  id=$(sed -n 's/.* array job \([0-9]*\) .*/\1/p' <<<"$log")
  mid=$(sed -n 's/.* merge job \([0-9]*\) .*/\1/p' <<<"$log")
  [ "$rc" = 0 ] && [ -n "$id" ] && [ -n "$mid" ] || { bad "$sched: grading array (make submit exit status $rc)" "$log"; return; }
  for t in 1 2 3; do
    JOB_ID=$id JOB_RC=0 JOB_OUT=$dir/spmv-grade-$id-$t.out SUBMIT_LOG=$log
    expect_job "$sched: grading task $t" ok "^spmv-job: OK: task $t graded"
  done
  JOB_ID=$mid JOB_RC=0 JOB_OUT=$dir/spmv-grade-merge-$mid.out
  expect_job "$sched: grading merge" ok '^spmv-job: OK: grades.csv: 3 students'
  local rows
  rows=$(tail -n +2 "$dir/grades/grades.csv" 2>/dev/null | cut -d, -f1 | sort | tr '\n' ' ')
  [ "$rows" = "alice bob carol " ] && ok "$sched: grades.csv has one row per submission ($rows)" ||
    bad "$sched: grades.csv rows are '$rows'" "$(cat "$dir/grades/grades.csv" 2>&1)"
  [ ${#grader[@]} = 1 ] && [[ ${grader[0]} == KIT_GRADER_ARGS=* ]] || return 0
  # The real grader: the reference files earn points, the untouched starter and the empty
  # folder none (the CPU and OpenCL tests decide here; GPU tests are not run).
  local totals
  totals=$(python3 -c 'import csv,sys
rows = list(csv.DictReader(open(sys.argv[1])))
col = next(c for c in rows[0] if c.startswith("total"))
print(" ".join(r["student"] + "=" + r[col] for r in rows))' "$dir/grades/grades.csv" 2>&1)
  [[ $totals =~ ^alice=([0-9.]+)\ bob=0(\.0*)?\ carol=0(\.0*)?$ ]] && [ "${BASH_REMATCH[1]%%.*}" -gt 0 ] &&
    ok "$sched: reference scores above zero, starter and empty at zero ($totals)" ||
    bad "$sched: grades.csv totals are wrong: $totals" "$(cat "$dir/grades/grades.csv" 2>&1)"
}
