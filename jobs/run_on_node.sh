# What every job script in jobs/slurm and jobs/sge runs on the node, Slurm and SGE alike.
# Sourced with KIT_ROOT set; the script then calls one of
#   kit_job lab NN-name      build, run the lab's tests, judge the summary
#   kit_job bench            build and run `make bench`
#   kit_job grade            grade one submission per array task (no array: all, then merge)
#   kit_job grade-merge      merge the graded results into grades.csv
#
# Per-run variables, from the environment (Slurm passes yours on; SGE: qsub -v NAME=value):
#   IMPL=reference|starter  the code under test (default: reference; starter when the kit has
#                           no reference/, as in the student edition)
#   BUILD=folder            build folder, relative to the kit (default: build). Jobs share it:
#                           builds take turns through a lock file in it
#   SM=90                   GPU architecture to build (default: KIT_SM in site.env, else the
#                           node's GPU)
#   KIT_ALLOW_NO_GPU=1      accept a node without a usable GPU (CI with a fake GPU resource):
#                           CUDA tests skip and are listed, the job passes on the tests that
#                           ran and says so. Without it, a job fails when its GPU tests cannot
#                           run: before building on a node with no GPU, and after the tests
#                           when any GPU test was skipped
#   KIT_MAKE_JOBS=N         make -j (default: the cores the scheduler gave: Slurm's
#                           cpus-per-task, SGE's slots; all of them outside a scheduler)
#   KIT_BENCH_ARGS          further `make bench` variables (NAME=value ...)
#   SUBS, GRADE_OUT, GRADE_LAB, KIT_GRADER: grading, see kit_grade_setup
# The last line is "spmv-job: OK: ..." or "spmv-job: FAILED: ...". Exit status: 0 OK,
# 1 tests failed or did not run, 2 the job could not start (no GPU, no kit part, bad input).

kit_say() { printf 'spmv-job: %s\n' "$*"; }
kit_verdict() {  # OK|FAILED message...: the job's last line; returns the exit status
  local word=$1; shift
  kit_say "$word: $*"
  [ "$word" = OK ]
}

kit_job() {
  # Relative SUBS/GRADE_OUT name folders seen from where the job was submitted.
  KIT_SUBMIT_DIR=$PWD
  cd "$KIT_ROOT" || exit 2
  KIT_STARTED=$(mktemp "${TMPDIR:-/tmp}/spmv-job.XXXXXX") || exit 2
  trap 'rm -f "$KIT_STARTED" "$KIT_STARTED".*' EXIT
  kit_scheduler
  kit_site_init
  kit_say "$* | job $KIT_JOB_ID ($KIT_SCHED) on $(hostname) | $(date '+%Y-%m-%d %H:%M:%S')"
  case $1 in
    lab|bench) kit_say "kit $KIT_ROOT | IMPL=$IMPL BUILD=$BUILD SM=${SM:-<detected from the GPU>}" ;;
    *) kit_say "kit $KIT_ROOT" ;;
  esac
  kit_select_gpus
  local status
  case $1 in
    lab) kit_job_lab "$2" ;;
    bench) kit_job_bench ;;
    grade) kit_job_grade ;;
    grade-merge) kit_job_grade_merge ;;
    *) kit_verdict FAILED "unknown job kind '$1'" ;;
  esac
  status=$?
  exit "$status"
}

kit_scheduler() {
  if [ -n "${SLURM_JOB_ID:-}" ]; then
    KIT_SCHED=slurm KIT_JOB_ID=$SLURM_JOB_ID
  elif [ -n "${JOB_ID:-}" ] && [ -n "${SGE_O_WORKDIR:-}" ]; then
    KIT_SCHED=sge KIT_JOB_ID=$JOB_ID
  else
    KIT_SCHED="no scheduler" KIT_JOB_ID=local
  fi
}

# ---------------------------------------------------------------- node setup
kit_site_init() {
  # shellcheck source=jobs/site.env
  . "$KIT_ROOT/jobs/site.env" || { kit_verdict FAILED "jobs/site.env did not load"; exit 2; }
  if declare -F kit_site_setup >/dev/null; then kit_say "site setup: kit_site_setup"; kit_site_setup; fi
  kit_load_modules
  . scripts/setup/opencl_env.sh
  IMPL=${IMPL:-$( [ -d reference ] && echo reference || echo starter)}
  BUILD=${BUILD:-build}
  SM=${SM:-$KIT_SM}
  export SM
  case $IMPL in reference|starter) ;; *) kit_verdict FAILED "IMPL must be reference or starter, not '$IMPL'"; exit 2 ;; esac
}

# A module that does not load stops the job here, with the module's own message: going on
# would only fail later (no nvcc, a wrong compiler) and less clearly.
kit_load_modules() {
  [ -n "${KIT_MODULES:-}" ] || return 0
  if ! type module >/dev/null 2>&1; then
    local init
    for init in /etc/profile.d/modules.sh /etc/profile.d/lmod.sh /usr/share/lmod/lmod/init/bash \
                /usr/share/Modules/init/bash; do
      [ -r "$init" ] && . "$init" && break
    done
  fi
  if ! type module >/dev/null 2>&1; then
    kit_verdict FAILED "KIT_MODULES in jobs/site.env asks for '$KIT_MODULES', but this node has no 'module' command (neither Environment Modules nor Lmod found)"
    exit 2
  fi
  local m status err=$KIT_STARTED.module
  for m in $KIT_MODULES; do
    # In this shell, not a subshell: loading a module changes the environment. Some versions
    # of Environment Modules report an unknown module on stderr but exit 0: check both.
    module load "$m" 2>"$err"
    status=$?
    cat "$err" >&2
    if [ "$status" != 0 ] || grep -Eqi '(^|[^a-z])error' "$err"; then
      local why; why=$(grep -m1 -i 'error' "$err" | cut -c1-200)
      kit_verdict FAILED "'module load $m' failed (exit status $status${why:+: $why}); check KIT_MODULES in jobs/site.env against 'module avail'"
      exit 2
    fi
    kit_say "module loaded: $m"
  done
}

# CUDA_VISIBLE_DEVICES is left alone when the scheduler (Slurm with gres) or the submitter set
# it. SGE sets nothing by itself; sites publish the granted GPUs in SGE_HGR_<resource> (Univa/
# Altair Grid Engine RSMAP), in SGE_GPU (a common prolog convention), or by a site hook.
kit_select_gpus() {
  local hgr="SGE_HGR_${KIT_GPU_NAME:-gpu}" from=""
  if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
    from="set by the scheduler or the submitter"
  elif declare -F kit_site_gpus >/dev/null; then
    CUDA_VISIBLE_DEVICES=$(kit_site_gpus) from="kit_site_gpus in jobs/site.env"
  elif [ "$KIT_SCHED" = sge ] && [[ $hgr =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] && [ -n "${!hgr:-}" ]; then
    CUDA_VISIBLE_DEVICES=${!hgr} from="$hgr"
  elif [ "$KIT_SCHED" = sge ] && [ -n "${SGE_GPU:-}" ]; then
    CUDA_VISIBLE_DEVICES=$SGE_GPU from="SGE_GPU"
  fi
  if [ -z "$from" ]; then
    kit_say "GPUs: CUDA_VISIBLE_DEVICES unset: every GPU of the node is visible$( [ "$KIT_SCHED" = sge ] && echo " (SGE named none: fine on whole-node sites like DAS-4; see kit_site_gpus in jobs/site.env)")"
  else
    CUDA_VISIBLE_DEVICES=$(printf '%s' "$CUDA_VISIBLE_DEVICES" | tr -s ' \t\n' ',')
    export CUDA_VISIBLE_DEVICES
    kit_say "GPUs: CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES ($from)"
  fi
  command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | sed 's/^/  /'
}

kit_gpu_count() {  # GPUs this job can use, as far as the node tells
  case ${CUDA_VISIBLE_DEVICES-all} in ""|NoDevFiles|-1) echo 0; return ;; esac
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi -L 2>/dev/null | grep -c '^GPU '
  else
    find /dev -maxdepth 1 -name 'nvidia[0-9]*' 2>/dev/null | wc -l
  fi
}

kit_require_gpu() {  # why: say so and return 2 on a node without a usable GPU
  [ "$(kit_gpu_count)" -gt 0 ] && return 0
  if [ "${KIT_ALLOW_NO_GPU:-0}" = 1 ]; then
    kit_say "no usable GPU on this node; KIT_ALLOW_NO_GPU=1: going on, GPU tests will skip and be listed"
    return 0
  fi
  kit_say "ERROR: $1, but this node has no usable GPU (nvidia-smi lists none, CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-<unset>})."
  kit_say "  Submit to GPU nodes: check the GPU request and partition/queue in jobs/site.env, then make jobs."
  kit_say "  Or set KIT_ALLOW_NO_GPU=1 to run only the CPU and OpenCL tests (the job then says so)."
  kit_verdict FAILED "no GPU on $(hostname); nothing was run"
  return 2
}

# ---------------------------------------------------------------- building
# make -j: what the scheduler granted, so a job never runs more compilers than it has cores.
kit_make_jobs() {
  if [ -n "${KIT_MAKE_JOBS:-}" ]; then echo "$KIT_MAKE_JOBS"
  elif [ -n "${SLURM_CPUS_PER_TASK:-}" ]; then echo "$SLURM_CPUS_PER_TASK"
  elif [ "$KIT_SCHED" = sge ]; then echo "${NSLOTS:-1}"
  else nproc; fi
}

# Jobs sharing a build folder take turns to build in it. Some cluster file systems have no
# flock (Lustre mounted without it): then build without the lock rather than fail.
kit_locked() {
  mkdir -p "$BUILD"
  local lock=$BUILD/.job-build.lock
  if command -v flock >/dev/null; then
    flock -E 75 -n "$lock" true 2>/dev/null
    case $? in
      0) flock "$lock" "$@"; return ;;
      75) kit_say "waiting for another job building in $BUILD"; flock "$lock" "$@"; return ;;
    esac
    kit_say "note: cannot lock $lock on this file system; building without the lock"
  fi
  "$@"
}

kit_make() {  # make TARGET... with the job's IMPL, BUILD and SM
  make --no-print-directory "$@" IMPL="$IMPL" BUILD="$BUILD" SM="$SM"
}

kit_build() {  # make -jN TARGET... under the build lock
  local n; n=$(kit_make_jobs)
  kit_say "build: make -j$n $* (IMPL=$IMPL BUILD=$BUILD)"
  kit_make deps >/dev/null
  kit_locked make --no-print-directory -j"$n" "$@" IMPL="$IMPL" BUILD="$BUILD" SM="$SM"
}

# ---------------------------------------------------------------- a lab's tests
kit_gpu_tests() {  # names of the lab's tests that need a GPU, one a line
  python3 scripts/labs/lab_manifests.py gpu-tests "$1" .
}

kit_job_lab() {
  local lab=$1 out=$KIT_STARTED.tests gpu_tests status
  [ -f "labs/$lab/manifest.json" ] || { kit_verdict FAILED "labs/$lab/manifest.json not found: $lab is not a lab of this kit"; return 2; }
  gpu_tests=$(kit_gpu_tests "$lab") || { kit_verdict FAILED "labs/$lab/manifest.json cannot be read"; return 2; }
  if [ -n "$gpu_tests" ]; then
    kit_require_gpu "lab $lab has $(grep -c . <<<"$gpu_tests") GPU tests" || return 2
  fi
  kit_build all LAB="$lab" || { kit_verdict FAILED "lab $lab: the build failed (errors above)"; return 1; }
  # An MPI lab's tests start their ranks with srun inside a Slurm job (site.env: KIT_SLURM_MPIRUN).
  if [ -n "$(python3 scripts/labs/lab_manifests.py mpi-ranks "$lab" 2>/dev/null)" ]; then
    [ -n "${SLURM_JOB_ID:-}" ] && [ -n "${KIT_SLURM_MPIRUN:-}" ] && export KIT_MPIRUN=${KIT_MPIRUN:-$KIT_SLURM_MPIRUN}
    kit_say "MPI: ranks started by ${KIT_MPIRUN:-mpirun -np N}"
  fi
  kit_say "tests: make test LAB=$lab"
  kit_make test LAB="$lab" 2>&1 | tee "$out"
  status=${PIPESTATUS[0]}
  kit_judge_tests "$lab" "$status" "$out" "$gpu_tests"
}

# A job passes only when tests ran and passed: no summary, no test at all, or skipped tests
# (GPU ones unless KIT_ALLOW_NO_GPU=1) fail it, whatever make's exit status was.
kit_judge_tests() {
  local lab=$1 status=$2 out=$3 gpu_tests=$4 line passed failed skipped logs skipped_names
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$out" | tail -1)
  [ -n "$line" ] || { kit_verdict FAILED "lab $lab: no test summary, so the tests did not run (make test exit status $status)"; return 1; }
  read -r passed _ failed _ skipped _ <<<"${line//,/}"
  logs=$(find "$BUILD/test-logs/$IMPL" -maxdepth 1 -name "test_${lab}*.log" -newer "$KIT_STARTED" 2>/dev/null)
  skipped_names=$( [ -n "$logs" ] && grep -h '^  SKIPPED ' $logs | sed 's/^  SKIPPED //; s/: .*//' | sort -u)
  # The lab's kit tests (tests/NN-name/kit/, in no manifest) that skip for want of a device count
  # as GPU tests too.
  local kit_logs device_skips
  kit_logs=$(grep '_kit\.log$' <<<"$logs")
  device_skips=$( [ -n "$kit_logs" ] && grep -h '^  SKIPPED ' $kit_logs | grep -E ': .*(device|GPU|CUDA|OpenCL|NCCL)' |
                  sed 's/^  SKIPPED //; s/: .*//')
  gpu_tests=$(printf '%s\n%s\n' "$gpu_tests" "$device_skips" | grep . | sort -u)
  local gpu_skipped other_skipped
  gpu_skipped=$(comm -12 <(echo "$skipped_names" | grep .) <(echo "$gpu_tests" | grep . | sort -u))
  other_skipped=$(comm -23 <(echo "$skipped_names" | grep .) <(echo "$gpu_tests" | grep . | sort -u))
  local n_gpu n_other
  n_gpu=$(grep -c . <<<"$gpu_skipped"); n_other=$(grep -c . <<<"$other_skipped")
  if [ $((passed + failed + skipped)) = 0 ]; then
    kit_verdict FAILED "lab $lab: no test ran ($line)"; return 1
  elif [ "$status" != 0 ]; then
    kit_verdict FAILED "lab $lab: $line (make test exit status $status)"; return 1
  elif [ "$n_other" -gt 0 ]; then
    kit_verdict FAILED "lab $lab: $line; $n_other tests that need no GPU were skipped, so they did not run: $(echo $other_skipped)"; return 1
  elif [ "$n_gpu" -gt 0 ] && [ "${KIT_ALLOW_NO_GPU:-0}" != 1 ]; then
    kit_verdict FAILED "lab $lab: $line; $n_gpu GPU tests were skipped, so they did not run (KIT_ALLOW_NO_GPU=1 accepts that)"; return 1
  elif [ "$passed" = 0 ]; then
    kit_verdict FAILED "lab $lab: no test passed ($line)"; return 1
  fi
  kit_verdict OK "lab $lab: $line$( [ "$n_gpu" -gt 0 ] && echo "; the $n_gpu skipped GPU tests did NOT run (accepted: KIT_ALLOW_NO_GPU=1)")"
}

# ---------------------------------------------------------------- benchmarks
kit_job_bench() {
  kit_require_gpu "the benchmarks time GPU kernels" || return 2
  # The probe is bench-info, which builds and runs nothing (make -n bench still runs the
  # build's sub-make: make runs a recipe line holding $(MAKE) even under -n).
  local info line
  info=$(kit_make -s bench-info 2>&1)
  if grep -q "No rule to make target 'bench-info'" <<<"$info"; then
    kit_verdict FAILED "make bench is not defined: this kit has no benchmark suite (bench/) yet"
    return 2
  fi
  while IFS= read -r line; do kit_say "$line"; done <<<"$info"
  # Under the lock: a benchmark should not share the node with a build in the same tree.
  local n; n=$(kit_make_jobs)
  # Results go next to the job's output file, named alike: spmv-bench-<jobid>/.
  local results=$KIT_SUBMIT_DIR/spmv-bench-$KIT_JOB_ID
  kit_say "bench: make -j$n bench OUT=$results ${KIT_BENCH_ARGS:-}"
  kit_make deps >/dev/null
  # KIT_BENCH_ARGS holds make variables (NAME=value ...): split into words on purpose.
  kit_locked make --no-print-directory -j"$n" bench IMPL="$IMPL" BUILD="$BUILD" SM="$SM" OUT="$results" ${KIT_BENCH_ARGS:-}
  local status=$?
  [ "$status" = 0 ] && kit_verdict OK "make bench finished: results in $results" || kit_verdict FAILED "make bench exit status $status"
}

# ---------------------------------------------------------------- grading
# SUBS       folder of submissions: one folder, .zip or .tar.gz per student (required)
# GRADE_OUT  results folder (default: grade-out in the submit folder); a student's results go
#            to GRADE_OUT/<name>, the merged table to GRADE_OUT/grades.csv
# GRADE_LAB  lab to grade (default: all)
# KIT_GRADER grader command (default: python3 grader/grade.py; another only for testing)
# KIT_GRADER_ARGS further grader options, e.g. "--timeout 120"
# The grader builds its instructor tree once (under its own lock) and every task reuses it.
kit_grade_setup() {
  [ -n "${SUBS:-}" ] || { kit_verdict FAILED "set SUBS to the folder of submissions (Slurm: sbatch --export=ALL,SUBS=dir; SGE: qsub -v SUBS=dir)"; return 2; }
  case $SUBS in /*) ;; *) SUBS=$KIT_SUBMIT_DIR/$SUBS ;; esac
  GRADE_OUT=${GRADE_OUT:-grade-out}
  case $GRADE_OUT in /*) ;; *) GRADE_OUT=$KIT_SUBMIT_DIR/$GRADE_OUT ;; esac
  [ -d "$SUBS" ] || { kit_verdict FAILED "SUBS=$SUBS is not a folder"; return 2; }
  if [ -z "${KIT_GRADER:-}" ]; then
    [ -f grader/grade.py ] || { kit_verdict FAILED "grader/grade.py is missing: grading needs the kit's autograder (grader/)"; return 2; }
    KIT_GRADER="python3 grader/grade.py"
  fi
  mapfile -t KIT_SUBMISSIONS < <(kit_list_submissions "$SUBS")
  [ ${#KIT_SUBMISSIONS[@]} -gt 0 ] || { kit_verdict FAILED "no submissions in $SUBS"; return 2; }
  mkdir -p "$GRADE_OUT"
  kit_say "grading: ${#KIT_SUBMISSIONS[@]} submissions in $SUBS -> $GRADE_OUT (grader: $KIT_GRADER)"
}

# One submission per entry: a folder, a .zip or a .tar.gz; task N grades the Nth in this order.
kit_list_submissions() {
  find "$1" -mindepth 1 -maxdepth 1 ! -name '.*' \( -type d -o -name '*.zip' -o -name '*.tar.gz' \) -print |
    LC_ALL=C sort
}

kit_submission_name() { local n; n=$(basename "$1"); n=${n%.zip}; echo "${n%.tar.gz}"; }

kit_grade_one() {  # INDEX (1-based): grade that submission into GRADE_OUT/<name>
  local entry=${KIT_SUBMISSIONS[$(($1 - 1))]} name status
  name=$(kit_submission_name "$entry")
  kit_say "grading $1 of ${#KIT_SUBMISSIONS[@]}: $name"
  # KIT_GRADER is a command line: split into words on purpose.
  $KIT_GRADER --sub "$entry" --lab "${GRADE_LAB:-all}" --out "$GRADE_OUT/$name" \
    --jobs "$(kit_make_jobs)" ${SM:+--sm "$SM"} ${KIT_GRADER_ARGS:-}
  status=$?
  kit_say "graded $name: grader exit status $status"
  return "$status"
}

kit_job_grade() {
  kit_grade_setup || return 2
  kit_require_gpu "grading runs the labs' GPU tests" || return 2
  local task=${SLURM_ARRAY_TASK_ID:-${SGE_TASK_ID:-}} n=${#KIT_SUBMISSIONS[@]}
  [ "$task" = undefined ] && task=""
  if [ -n "$task" ]; then
    [ "$task" -ge 1 ] && [ "$task" -le "$n" ] 2>/dev/null ||
      { kit_verdict FAILED "array task $task has no submission: $SUBS holds $n (submit with tasks 1-$n)"; return 2; }
    kit_grade_one "$task" && kit_verdict OK "task $task graded" || kit_verdict FAILED "task $task: the grader failed"
    return
  fi
  kit_say "no array task id: grading all $n submissions here, then merging"
  local i bad=0
  for ((i = 1; i <= n; i++)); do kit_grade_one "$i" || bad=$((bad + 1)); done
  kit_merge
  local merged=$?
  [ "$bad" = 0 ] || { kit_verdict FAILED "the grader failed on $bad of $n submissions"; return 1; }
  return "$merged"
}

kit_job_grade_merge() {
  kit_grade_setup || return 2
  kit_merge
}

kit_merge() {  # merge every GRADE_OUT/<name> of the submissions; missing ones fail the job
  local entry name dirs=() missing=()
  for entry in "${KIT_SUBMISSIONS[@]}"; do
    name=$(kit_submission_name "$entry")
    if [ -d "$GRADE_OUT/$name" ]; then dirs+=("$GRADE_OUT/$name"); else missing+=("$name"); fi
  done
  [ ${#dirs[@]} -gt 0 ] || { kit_verdict FAILED "no graded results in $GRADE_OUT"; return 1; }
  kit_say "merge: ${#dirs[@]} results -> $GRADE_OUT/grades.csv"
  $KIT_GRADER merge "${dirs[@]}" --csv "$GRADE_OUT/grades.csv" ||
    { kit_verdict FAILED "the grader's merge failed"; return 1; }
  local rows=$(($(wc -l <"$GRADE_OUT/grades.csv") - 1))
  if [ ${#missing[@]} -gt 0 ]; then
    kit_verdict FAILED "grades.csv has $rows rows; no results for ${#missing[@]}: ${missing[*]}"
    return 1
  fi
  kit_verdict OK "grades.csv: $rows students in $GRADE_OUT/grades.csv"
}
