#!/usr/bin/env bash
# A one-node Slurm cluster for the CI tests, with all state under one folder.
#   slurm_cluster.sh start STATE_DIR   prints "export ..." lines to eval
#   slurm_cluster.sh stop STATE_DIR    stops slurmd, slurmctld and munged by their PIDs
#   slurm_cluster.sh pids STATE_DIR    prints those PIDs
# The node offers four GPUs through gres, each backed by a harmless character device (Slurm
# counts GPUs by their files): jobs can ask for --gres=gpu:1 or a GPU per task (lab 10's
# ranks) and are scheduled as on a GPU node, but CUDA finds no device there.
# Ports come from SLURMCTLD_PORT/SLURMD_PORT when set, so two CI runs can coexist.
set -euo pipefail
cmd=$1 state=$(realpath -m "$2")
host=$(hostname)
. "$(dirname "$0")/pid_stop.sh"

stop() {
  local name pid
  # Jobs still running (a CI timeout) would outlive the daemons: cancel them first.
  if [ -f "$state/slurmctld.pid" ]; then
    SLURM_CONF=$state/slurm.conf timeout 20 scancel --full --user="$(id -un)" 2>/dev/null || true
    for _ in $(seq 20); do
      [ -z "$(SLURM_CONF=$state/slurm.conf timeout 5 squeue -h 2>/dev/null)" ] && break; sleep 0.5
    done
  fi
  for name in slurmd slurmctld munged; do
    [ -f "$state/$name.pid" ] || continue
    pid=$(cat "$state/$name.pid")
    stop_pid "$pid"
  done
}

start() {
  mkdir -p "$state"/{munge,ctld,spool}
  chmod 700 "$state/munge"
  # munged insists on a private key and refuses sockets in world-writable folders.
  dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$state/munge/munge.key"
  local sock=$state/munge/munge.socket
  munged --force --socket="$sock" --key-file="$state/munge/munge.key" \
    --pid-file="$state/munged.pid" --log-file="$state/munged.log" --seed-file="$state/munge/seed"
  # The node claims KIT_CI_NODE_CPUS cores (default 8) and 64 GB whatever it has, so that
  # the job scripts' --cpus-per-task and --mem are scheduled unchanged, one building job
  # (KIT_CPUS=8) at a time; the jobs find the kit prebuilt. Two partitions over the one
  # node, as on a site: "cpu" (the default) and "gpu", which the GPU jobs must name
  # (jobs/site.env: KIT_SLURM_PARTITION). MPI steps start through srun --mpi=pmix.
  local cpus=${KIT_CI_NODE_CPUS:-8}
  cat > "$state/slurm.conf" <<CONF
ClusterName=kitci
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=${SLURMCTLD_PORT:-6817}
SlurmdPort=${SLURMD_PORT:-6818}
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MinJobAge=600
SlurmdParameters=config_overrides
NodeName=$host CPUs=$cpus RealMemory=65536 Gres=gpu:4 State=UNKNOWN
PartitionName=cpu Nodes=$host Default=YES MaxTime=INFINITE State=UP
PartitionName=gpu Nodes=$host MaxTime=INFINITE State=UP
CONF
  echo "NodeName=$host Name=gpu File=/dev/null,/dev/zero,/dev/full,/dev/urandom" > "$state/gres.conf"
  export SLURM_CONF=$state/slurm.conf
  slurmctld
  slurmd
  for _ in $(seq 60); do
    sinfo -h -o '%t' 2>/dev/null | grep -qx idle && break; sleep 0.5
  done
  echo "export SLURM_CONF=$SLURM_CONF" | tee "$state/env.sh"
}

case $cmd in
  start) start ;;
  stop) stop ;;
  pids) cat "$state"/{slurmd,slurmctld,munged}.pid 2>/dev/null || true ;;
  *) echo "usage: $0 start|stop|pids STATE_DIR" >&2; exit 2 ;;
esac
