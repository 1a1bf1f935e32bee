#!/usr/bin/env bash
# CI checks of the cluster job scripts (.ci/run calls this). In order:
#   - the scripts in jobs/ are current (a new lab or a site.env change needs `make jobs`),
#     and a new lab makes the check fail
#   - the build finds GoogleTest and OpenCL in a prefix of their own, with the system copies
#     hidden (jobs/ci/prefix_build.sh: GTEST_ROOT, pkg-config, CPATH/LIBRARY_PATH), and says
#     what to set when nothing points there
#   - a lab script runs outside a scheduler, and refuses a node without a GPU
#   - every script runs as a job under a real one-node Slurm and a real one-node Grid Engine
#     (Debian packages, installed here when missing), with the fake GPU of each: exit status,
#     output file name and summary line; an untouched starter, a node without a GPU and a run
#     without tests end as failed jobs; a grading array of 3 submissions gives grades.csv.
# Daemons run as root with all state in a temporary folder and are stopped by PID at the end.
# Without the packages, the scheduler checks skip with the reason. Ends with
# "N passed, N failed, N skipped"; exit status 1 if a check failed.
#   BUILD (default: build) and SM (default: 90) name the build folder the jobs share; it is
#   built once here before any job starts.
#   KIT_CI_ONLY=slurm|sge runs one scheduler only; KIT_CI_KEEP=1 keeps the jobs' output files.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
export BUILD=${BUILD:-build} SM=${SM:-90}
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-jobs-ci.XXXXXX")
. jobs/ci/checks.sh
. jobs/ci/pid_stop.sh

clusters=()
cleanup() {
  local c
  for c in "${clusters[@]+"${clusters[@]}"}"; do "$root/jobs/ci/${c}_cluster.sh" stop "$work/$c-state"; done
  if [ "${KIT_CI_KEEP:-0}" = 1 ]; then echo "jobs: outputs kept in $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

echo "== jobs: scripts are current"
python3 jobs/gen_jobs.py --check && ok "jobs/slurm and jobs/sge match jobs/site.env and the labs" ||
  bad "scripts in jobs/ are stale: run make jobs"
for f in jobs/slurm/* jobs/sge/* jobs/run_on_node.sh jobs/submit.sh jobs/site.env; do
  bash -n "$f" 2>"$work/syntax" || bad "$f does not parse" "$(cat "$work/syntax")"
done
ok "every script parses (bash -n)"
# A lab that lands without its scripts must make the check fail.
mkdir -p "$work/newlab/labs/99-new" && cp -r jobs "$work/newlab/" && mkdir -p "$work/newlab/scripts" &&
  cp -r scripts/labs "$work/newlab/scripts/" &&
  cp -r $(python3 scripts/labs/lab_manifests.py names | sed 's|^|labs/|') "$work/newlab/labs/"
echo '{"tests": [{"name": "Step1_X.Y", "gpu": true}]}' > "$work/newlab/labs/99-new/manifest.json"
out=$(python3 "$work/newlab/jobs/gen_jobs.py" --check)
[ $? != 0 ] && grep -q '99-new.sbatch is missing' <<<"$out" && ok "a new lab without scripts fails the check" ||
  bad "a new lab without scripts passed the check" "$out"
python3 "$work/newlab/jobs/gen_jobs.py" >/dev/null && python3 "$work/newlab/jobs/gen_jobs.py" --check >/dev/null &&
  grep -q -- '--gres=gpu:1' "$work/newlab/jobs/slurm/99-new.sbatch" && ok "make jobs writes the new lab's scripts" ||
  bad "make jobs did not write the new lab's scripts"

echo "== jobs: build once ($BUILD, SM=$SM) for every job"
if make -j"$(nproc)" all BUILD="$BUILD" SM="$SM" >"$work/build.log" 2>&1 &&
   make -j"$(nproc)" all IMPL=starter BUILD="$BUILD" SM="$SM" >>"$work/build.log" 2>&1; then
  ok "prebuilt reference and starter in $BUILD"
else
  bad "the kit does not build; the job checks cannot mean anything" "$(tail -20 "$work/build.log")"
  summary; exit 1
fi

echo "== jobs: a cluster's layout: GoogleTest and OpenCL in a prefix, the system copies hidden"
while IFS= read -r line; do
  case $line in
    "ok "*) ok "${line#ok }" ;;
    "FAIL "*) bad "${line#FAIL }" ;;
    "skip "*) line=${line#skip }; skip "${line%%: *}" "${line#*: }" ;;
    *) echo "$line" ;;
  esac
done < <(jobs/ci/prefix_build.sh "$BUILD" "$work/prefix-build" 2>&1)

echo "== jobs: outside a scheduler"
out=$(KIT_ALLOW_NO_GPU=1 bash jobs/slurm/00-basics.sbatch 2>&1); rc=$?
[ $rc = 0 ] && grep -Eq "$SUMMARY_RE" <<<"$out" && grep -q '^spmv-job: OK: lab 00-basics' <<<"$out" &&
  ok "bash jobs/slurm/00-basics.sbatch (KIT_ALLOW_NO_GPU=1)" || bad "bash jobs/slurm/00-basics.sbatch: exit status $rc" "$(tail -15 <<<"$out")"
out=$(env -u KIT_ALLOW_NO_GPU bash jobs/sge/00-basics.job 2>&1); rc=$?
[ $rc = 2 ] && grep -q 'no usable GPU' <<<"$out" && ok "bash jobs/sge/00-basics.job without a GPU fails with the reason" ||
  bad "bash jobs/sge/00-basics.job without a GPU: exit status $rc" "$(tail -15 <<<"$out")"

# Grading without the grader stops at once and says so (a kit copy without grader/).
mkdir -p "$work/nograder/scripts/setup" "$work/subs-one/ann"
cp -r jobs "$work/nograder/" && cp scripts/setup/opencl_env.sh "$work/nograder/scripts/setup/"
out=$(cd "$work" && KIT_ROOT=$work/nograder SUBS=$work/subs-one KIT_ALLOW_NO_GPU=1 \
      bash "$work/nograder/jobs/slurm/grade-array.sbatch" 2>&1); rc=$?
[ $rc = 2 ] && grep -q '^spmv-job: FAILED: grader/grade.py is missing' <<<"$out" &&
  ok "grading without grader/grade.py fails with the reason" || bad "grading without the grader: exit status $rc" "$out"
# A module that does not load stops the job with the reason (a kit copy whose site.env asks
# for a module that the node's stand-in `module` command does not have).
mkdir -p "$work/badmodule/scripts/setup"
cp -r jobs "$work/badmodule/" && cp scripts/setup/opencl_env.sh "$work/badmodule/scripts/setup/"
cat >>"$work/badmodule/jobs/site.env" <<'SITE'
KIT_MODULES="cuda/0.1"
module() { echo "ERROR: Unable to locate a modulefile for '$2'" >&2; return 1; }
SITE
out=$(cd "$work" && KIT_ROOT=$work/badmodule KIT_ALLOW_NO_GPU=1 bash "$work/badmodule/jobs/slurm/00-basics.sbatch" 2>&1); rc=$?
[ $rc = 2 ] && grep -q "^spmv-job: FAILED: 'module load cuda/0.1' failed .*Unable to locate a modulefile" <<<"$out" &&
  ! grep -q '^spmv-job: build' <<<"$out" && ok "a module that does not load stops the job with the reason" ||
  bad "a failed module load: exit status $rc" "$out"
# A merge where a submission has no results fails and names it, after merging the others.
mkdir -p "$work/subs-two/ann" "$work/subs-two/ben" && touch "$work/subs-two/ann/a.cpp"
python3 jobs/ci/stand_in_grader.py --sub "$work/subs-two/ann" --out "$work/merge-out/ann" >/dev/null
out=$(cd "$work" && SUBS=subs-two GRADE_OUT=merge-out KIT_GRADER="python3 $root/jobs/ci/stand_in_grader.py" \
      KIT_ROOT=$root bash "$root/jobs/sge/grade-merge.job" 2>&1); rc=$?
[ $rc = 1 ] && grep -q '^spmv-job: FAILED: grades.csv has 1 rows; no results for 1: ben' <<<"$out" &&
  grep -q '^ann,1$' "$work/merge-out/grades.csv" && ok "a merge with a missing result fails and names it" ||
  bad "merge with a missing result: exit status $rc" "$out"

echo "== jobs: installing Slurm and Grid Engine (Debian packages)"
reasons=$(jobs/ci/install_schedulers.sh)
for sched in ${KIT_CI_ONLY:-slurm sge}; do
  echo "== jobs: $sched"
  why=$(grep -i "^skip: .*$( [ $sched = slurm ] && echo Slurm || echo 'Grid Engine')" <<<"$reasons")
  why=${why:-$(grep '^skip: ' <<<"$reasons" | grep -v -e Slurm -e 'Grid Engine' | head -1)}
  if [ -n "$why" ]; then skip "$sched: every job check" "${why#skip: }"; continue; fi
  if [ $sched = slurm ]; then
    export SLURMCTLD_PORT=$(free_port) SLURMD_PORT=$(free_port)
  else
    export SGE_QMASTER_PORT=$(free_port) SGE_EXECD_PORT=$(free_port)
  fi
  clusters+=("$sched")
  if ! env_lines=$("jobs/ci/${sched}_cluster.sh" start "$work/$sched-state" 2>&1); then
    bad "$sched: the one-node cluster did not start" "$env_lines"
    continue
  fi
  eval "$(grep '^export ' <<<"$env_lines")"
  scheduler_suite "$sched"
done

for c in "${clusters[@]+"${clusters[@]}"}"; do
  pids=$("jobs/ci/${c}_cluster.sh" pids "$work/$c-state")
  "jobs/ci/${c}_cluster.sh" stop "$work/$c-state"
  alive=$(for p in $pids; do pid_running "$p" && echo "$p"; done)
  [ -n "$pids" ] && [ -z "$alive" ] && ok "$c: daemons stopped by PID ($(echo $pids))" ||
    bad "$c: daemons still running after stop: '$(echo $alive)' (PIDs '$(echo $pids)')"
done
clusters=()

summary
