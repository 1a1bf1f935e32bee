#!/usr/bin/env bash
# A one-node Grid Engine cluster for the CI tests, with all state under one folder.
#   sge_cluster.sh start STATE_DIR   prints "export ..." lines to eval; daemons run as root
#   sge_cluster.sh stop STATE_DIR    stops qmaster and execd by the PIDs they wrote
#   sge_cluster.sh pids STATE_DIR    prints those PIDs
# Ports come from SGE_QMASTER_PORT/SGE_EXECD_PORT when set, so two CI runs can coexist.
set -euo pipefail
cmd=$1 state=$(realpath -m "$2")
host=$(hostname)
. "$(dirname "$0")/pid_stop.sh"
env_file=$state/env.sh

pidfiles() { ls "$state"/execd/*/execd.pid "$state"/qmaster/qmaster.pid 2>/dev/null; }

stop() {
  local pidfile
  # Jobs still running (a CI timeout) would outlive the daemons: delete them first.
  if [ -f "$env_file" ]; then
    ( . "$env_file"; timeout 20 qdel -u "$(id -un)" >/dev/null 2>&1
      for _ in $(seq 20); do [ -z "$(timeout 5 qstat 2>/dev/null)" ] && break; sleep 0.5; done ) || true
  fi
  for pidfile in $(pidfiles); do
    local pid; pid=$(cat "$pidfile")
    stop_pid "$pid"
  done
}

write_conf() {  # the global configuration: spool in $state, root may run jobs, quick reports
  sed -e "s|^execd_spool_dir .*|execd_spool_dir        $state/execd|" \
      -e 's|^min_uid .*|min_uid                0|' -e 's|^min_gid .*|min_gid                0|' \
      -e 's|^load_report_time .*|load_report_time       00:00:05|' \
      -e 's|^shell_start_mode .*|shell_start_mode       unix_behavior|' \
      /usr/share/gridengine/default-configuration > "$state/global.conf"
}

add_pe() {  # NAME ALLOCATION_RULE CONTROL_SLAVES JOB_IS_FIRST_TASK: a parallel environment
  printf 'pe_name %s\nslots 999\nuser_lists NONE\nxuser_lists NONE\nstart_proc_args NONE\nstop_proc_args NONE\nallocation_rule %s\ncontrol_slaves %s\njob_is_first_task %s\nurgency_slots min\naccounting_summary FALSE\nqsort_args NONE\n' \
    "$@" > "$state/pe-$1"
  qconf -Ap "$state/pe-$1" >/dev/null
}

start() {
  mkdir -p "$state"/{root,qmaster,execd,spooldb}
  export SGE_ROOT=$state/root SGE_CELL=kitci
  export SGE_QMASTER_PORT=${SGE_QMASTER_PORT:-6444} SGE_EXECD_PORT=${SGE_EXECD_PORT:-6445}
  local common=$SGE_ROOT/$SGE_CELL/common
  mkdir -p "$common"
  for d in bin lib util utilbin; do ln -sfn /var/lib/gridengine/$d "$SGE_ROOT/$d"; done
  cat > "$common/bootstrap" <<CONF
admin_user              none
default_domain          none
ignore_fqdn             true
spooling_method         berkeleydb
spooling_lib            libspoolb
spooling_params         $state/spooldb
binary_path             /usr/sbin
qmaster_spool_dir       $state/qmaster
security_mode           none
listener_threads        2
worker_threads          2
scheduler_threads       1
CONF
  echo "$host" > "$common/act_qmaster"
  # The host name resolves to 127.0.0.1, whose name is "localhost": without this alias the
  # qmaster takes its own clients for an unknown host and refuses them.
  echo "$host localhost" > "$common/host_aliases"
  cp -r /usr/share/gridengine/util/resources/centry "$state/centry"
  # Consumable per job, not per slot: a job with -pe smp 8 and -l gpu=1 wants one GPU, not 8.
  printf 'name gpu\nshortcut gpu\ntype INT\nrelop <=\nrequestable YES\nconsumable JOB\ndefault 0\nurgency 0\n' \
    > "$state/centry/gpu"
  write_conf
  /usr/lib/gridengine/spoolinit berkeleydb libspoolb "$state/spooldb" init >/dev/null
  /usr/lib/gridengine/spooldefaults configuration "$state/global.conf" >/dev/null
  /usr/lib/gridengine/spooldefaults complexes "$state/centry" >/dev/null
  /usr/lib/gridengine/spooldefaults usersets /usr/share/gridengine/util/resources/usersets >/dev/null
  /usr/lib/gridengine/spooldefaults managers root >/dev/null
  /usr/lib/gridengine/spooldefaults adminhosts "$host" >/dev/null 2>&1 || true
  /usr/sbin/sge_qmaster
  for _ in $(seq 60); do qstat >/dev/null 2>&1 && break; sleep 0.5; done
  qconf -sh | grep -qx "$host" || qconf -ah "$host" >/dev/null
  qconf -as "$host" >/dev/null
  printf 'hostname %s\nload_scaling NONE\ncomplex_values gpu=4\nuser_lists NONE\nxuser_lists NONE\nprojects NONE\nxprojects NONE\nusage_scaling NONE\nreport_variables NONE\n' \
    "$host" > "$state/exechost"
  qconf -Ae "$state/exechost" >/dev/null
  cat > "$state/queue" <<CONF
qname                 all.q
hostlist              $host
seq_no                0
load_thresholds       NONE
suspend_thresholds    NONE
nsuspend              1
suspend_interval      00:05:00
priority              0
min_cpu_interval      00:05:00
processors            UNDEFINED
qtype                 BATCH INTERACTIVE
ckpt_list             NONE
pe_list               smp mpi
rerun                 FALSE
slots                 8
tmpdir                /tmp
shell                 /bin/bash
prolog                NONE
epilog                NONE
shell_start_mode      unix_behavior
starter_method        NONE
suspend_method        NONE
resume_method         NONE
terminate_method      NONE
notify                00:00:60
owner_list            NONE
user_lists            NONE
xuser_lists           NONE
subordinate_list      NONE
complex_values        NONE
projects              NONE
xprojects             NONE
calendar              NONE
initial_state         default
s_rt                  INFINITY
h_rt                  INFINITY
s_cpu                 INFINITY
h_cpu                 INFINITY
s_fsize               INFINITY
h_fsize               INFINITY
s_data                INFINITY
h_data                INFINITY
s_stack               INFINITY
h_stack               INFINITY
s_core                INFINITY
h_core                INFINITY
s_rss                 INFINITY
h_rss                 INFINITY
s_vmem                INFINITY
h_vmem                INFINITY
CONF
  # A one-node parallel environment, as sites name it most often: the jobs that build ask
  # for -pe smp KIT_CPUS and run make -j$NSLOTS (jobs/site.env: KIT_SGE_PE).
  add_pe smp '$pe_slots' FALSE TRUE
  # The MPI one (jobs/site.env: KIT_SGE_MPI_PE): Open MPI's mpirun reads the granted slots
  # from $PE_HOSTFILE and starts its ranks under the execd's control (qrsh -inherit).
  add_pe mpi '$fill_up' TRUE FALSE
  qconf -Aq "$state/queue" >/dev/null
  # Schedule at once instead of every 15 s.
  qconf -ssconf | sed -e 's/^schedule_interval .*/schedule_interval 0:0:1/' \
    -e 's/^flush_submit_sec .*/flush_submit_sec 1/' -e 's/^flush_finish_sec .*/flush_finish_sec 1/' > "$state/sched"
  qconf -Msconf "$state/sched" >/dev/null
  /usr/sbin/sge_execd
  for _ in $(seq 60); do
    qstat -f 2>/dev/null | grep -q "all.q@$host .* [0-9.]* *lx-amd64 *$" && break; sleep 0.5
  done
  cat > "$env_file" <<ENV
export SGE_ROOT=$SGE_ROOT SGE_CELL=$SGE_CELL SGE_QMASTER_PORT=$SGE_QMASTER_PORT SGE_EXECD_PORT=$SGE_EXECD_PORT
ENV
  cat "$env_file"
}

case $cmd in
  start) start ;;
  stop) stop ;;
  pids) for f in $(pidfiles); do cat "$f"; done ;;
  *) echo "usage: $0 start|stop|pids STATE_DIR" >&2; exit 2 ;;
esac
