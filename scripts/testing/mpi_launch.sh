# How a lab's test program is started: alone, or under mpirun at each rank count of its
# manifest's "mpi_ranks" (lab 10). Sourced by run_tests.sh, verify_starter.sh and check_judge.sh.
#   kit_rank_counts BINARY   prints the rank counts for BINARY (test_NN-name[_hidden]), one a
#                            line; nothing: the program runs alone (so also in a build
#                            without MPI, mpi=0 in its .features, where its MPI tests skip)
#   kit_launch_counts BINARY the same, but nothing when the launcher is not installed here
#   kit_mpirun N             prints the mpirun command line for N ranks (as root it adds
#                            --allow-run-as-root; --oversubscribe lets 4 ranks share 2 cores)
#   kit_each_launch          runs a program each of those ways (below)
# KIT_MPIRUN overrides the launcher (e.g. "srun --mpi=pmix -n"): it is then given N and the program.
# NCCL's NVLink multicast (NVLS) stays off unless the caller says otherwise: the halo exchange
# is point to point and never needs it, and the machines this kit is tested on ask for it off.
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}
kit_rank_counts() {
  local name lab
  name=$(basename "$1"); lab=${name#test_}; lab=${lab%_hidden}
  [ -f "$(dirname "${BASH_SOURCE[0]}")/../../labs/$lab/manifest.json" ] || return 0
  ! grep -qs 'mpi=0' "$(dirname "$1")/../../.features" || return 0
  python3 "$(dirname "${BASH_SOURCE[0]}")/../labs/lab_manifests.py" mpi-ranks "$lab" 2>/dev/null
}
kit_launch_counts() {
  local launcher=${KIT_MPIRUN:-mpirun}
  launcher=${launcher%% *}  # KIT_MPIRUN is a command line ("srun --mpi=pmix --ntasks"): its program
  command -v "$launcher" >/dev/null || return 0
  kit_rank_counts "$1"
}
kit_mpirun() {
  # Under AddressSanitizer (make sanitize), Open MPI's components, unloaded at MPI_Finalize, leave
  # allocations that LeakSanitizer reports from an "<unknown module>" that no suppression can
  # name: leak checking is off for the ranks only, the memory-error checks stay on.
  local env="env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
  if [ -n "${KIT_MPIRUN:-}" ]; then echo "$env $KIT_MPIRUN $1"; return; fi
  local root= agent=
  [ "$(id -u)" = 0 ] && root=--allow-run-as-root
  # Open MPI 4 stops (exit 243) where no ssh or rsh is installed and the site named no launcher,
  # even with every rank on this host: it gets `false`, never called here (the grader's gtest.py
  # local_launch_args does the same).
  if [ -z "${OMPI_MCA_plm:-}${OMPI_MCA_plm_rsh_agent:-}" ] && ! command -v ssh >/dev/null &&
     ! command -v rsh >/dev/null; then agent="--mca plm_rsh_agent $(type -P false || echo /bin/false)"; fi
  echo "$env mpirun -np $1 --oversubscribe $root $agent"
}
# kit_each_launch FN LOGDIR BINARY: calls FN NAME LOG COMMAND... once per way BINARY runs: alone,
# or under the launcher at each of kit_launch_counts, each bounded in time. run_tests.sh and
# verify_starter.sh share it.
# Seconds one MPI run of a test program may take (a lab's tests take well under a minute on 2
# oversubscribed cores); past it the run is stopped: its ranks are most likely deadlocked.
KIT_MPI_TIMEOUT=${KIT_MPI_TIMEOUT:-300}
kit_each_launch() {
  local fn=$1 logdir=$2 bin=$3 name ranks n
  name=$(basename "$bin")
  ranks=$(kit_launch_counts "$bin")
  if [ -z "$ranks" ]; then
    "$fn" "$name" "$logdir/$name.log" "$bin"
    return
  fi
  for n in $ranks; do
    "$fn" "$name ($n ranks)" "$logdir/$name.np$n.log" timeout "$KIT_MPI_TIMEOUT" $(kit_mpirun "$n") "$bin"
  done
}
