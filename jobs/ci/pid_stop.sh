#!/usr/bin/env bash
# Sourced by the CI cluster scripts: stop a daemon by PID and tell whether it still runs.

# pid_running PID: true while the process exists and is not a zombie. A daemon reparented to
# a PID 1 that does not reap (a container's shell) stays a zombie after it exits; it runs no
# code and holds no port, so it counts as stopped.
pid_running() {
  local state
  state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

# stop_pid PID: SIGTERM, up to 10 s for a clean exit, then SIGKILL and up to 5 s more
# (a killed process is torn down asynchronously, so the caller's check must not race it).
stop_pid() {
  local pid=$1
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 50); do pid_running "$pid" || return 0; sleep 0.2; done
  kill -9 "$pid" 2>/dev/null || true
  for _ in $(seq 25); do pid_running "$pid" || return 0; sleep 0.2; done
}
