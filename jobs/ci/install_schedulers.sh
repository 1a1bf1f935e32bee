#!/usr/bin/env bash
# Installs Debian's Slurm (slurm-wlm, munge) and Grid Engine (gridengine-master/-exec/-client)
# for the scheduler tests, without starting any of their services: the tests start their own
# one-node clusters with state in a temporary folder.
#   install_schedulers.sh        exit 0 when both are usable; otherwise prints "skip: <reason>"
#                                lines and exits 0 all the same (the tests then skip)
set -u
have_slurm() { command -v sbatch >/dev/null && command -v slurmctld >/dev/null && command -v munged >/dev/null; }
have_sge() { command -v qsub >/dev/null && [ -x /usr/sbin/sge_qmaster ] && [ -x /usr/sbin/sge_execd ]; }
have_slurm && have_sge && exit 0

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "skip: scheduler packages missing and cannot install them (needs root and apt-get)"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
# Keep the packages from configuring a cluster or starting daemons: the tests own them.
debconf-set-selections <<'SEL'
gridengine-common shared/gridengineconfig boolean false
gridengine-master shared/gridengineconfig boolean false
gridengine-exec shared/gridengineconfig boolean false
gridengine-client shared/gridengineconfig boolean false
SEL
policy=/usr/sbin/policy-rc.d
made_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy"; chmod +x "$policy"; made_policy=1
fi
log=${TMPDIR:-/tmp}/kit-jobs-apt.log
{ timeout 120 apt-get update -qq
  timeout 900 apt-get install -y -qq --no-install-recommends slurm-wlm munge \
      gridengine-master gridengine-exec gridengine-client; } >"$log" 2>&1 ||
  echo "note: apt-get reported an error (see $log)"
[ "$made_policy" = 1 ] && rm -f "$policy"
have_slurm || echo "skip: Slurm not installable (slurm-wlm/munge; see $log)"
have_sge || echo "skip: Grid Engine not installable (gridengine-*; see $log)"
exit 0
