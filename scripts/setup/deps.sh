#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages the kit needs when run as root; otherwise prints the
# exact command. Never fails the build because apt cannot reach a mirror: it warns with the
# real cause, and the parts needing a missing tool are skipped with their own message.
#
# As root it says what it is about to install before it starts, waits for the package lock
# when another apt or dpkg holds it (at most KIT_DEPS_LOCK_WAIT seconds, default 300), and
# writes each run's apt output to its own log, $BUILD/deps-logs/deps-<date>-<pid>.log
# (BUILD defaults to build, as in the Makefile).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# package : file that proves it is installed : what is skipped without it
need=(
  "g++:/usr/bin/g++:the whole build"
  "make:/usr/bin/make:the whole build"
  "python3:/usr/bin/python3:the test summary, the starter generator and the grader"
  "googletest:/usr/src/googletest:the tests"
  "libgtest-dev:/usr/include/gtest/gtest.h:the tests"
  "libbenchmark-dev:/usr/include/benchmark/benchmark.h:the benchmarks"
  "ocl-icd-opencl-dev:/usr/include/CL/cl.h:the OpenCL parts"
  "opencl-headers:/usr/include/CL/cl_platform.h:the OpenCL parts"
  "opencl-clhpp-headers:/usr/include/CL/opencl.hpp:the OpenCL parts"
  "pocl-opencl-icd:/etc/OpenCL/vendors/pocl.icd:OpenCL on the CPU (machines without an OpenCL GPU)"
  "clinfo:/usr/bin/clinfo:listing the OpenCL platforms"
  "doxygen:/usr/bin/doxygen:the API reference (make docs)"
  "graphviz:/usr/bin/dot:the API reference's graphs (make docs)"
  "pandoc:/usr/bin/pandoc:the handouts (make docs)"
  "weasyprint:/usr/bin/weasyprint:the handouts as PDF (make docs)"
  "fonts-dejavu-core:/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf:the handouts' fonts (PDFs fall back to other fonts)"
  "poppler-utils:/usr/bin/pdftoppm:the docs render check (scripts/docs/ci/run-ci-checks.sh)"
  "python3-matplotlib:/usr/lib/python3/dist-packages/matplotlib:the benchmark plots"
  "zlib1g-dev:/usr/include/zlib.h:reading gzip-compressed matrices (.mtx.gz)"
  "libbz2-dev:/usr/include/bzlib.h:reading bzip2-compressed matrices (.mtx.bz2)"
  "clang:/usr/bin/clang++:the fuzz target (make fuzz)"
  "libclang-rt-dev:/usr/share/doc/libclang-rt-dev:the fuzz target's libFuzzer runtime (make fuzz)"
)

missing_now() {  # the packages whose proof file is absent, one a line
  local entry rest
  for entry in "${need[@]}"; do
    rest=${entry#*:}
    [ -e "${rest%%:*}" ] || echo "${entry%%:*}"
  done
}
what_needs() {  # PACKAGE: what is skipped without it
  local entry
  for entry in "${need[@]}"; do
    [ "${entry%%:*}" = "$1" ] && { echo "${entry##*:}"; return; }
  done
}

mapfile -t missing < <(missing_now)
[ ${#missing[@]} -eq 0 ] && exit 0
cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
  echo "deps: missing packages: ${missing[*]}"
  echo "deps: install them with:  sudo apt-get update && sudo $cmd"
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "deps: missing ${missing[*]} and no apt-get here; install them with your package manager"
  exit 0
fi

build=${BUILD:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
logdir=$build/deps-logs
if mkdir -p "$logdir" 2>/dev/null && [ -w "$logdir" ]; then
  log=$logdir/deps-$(date +%Y%m%d-%H%M%S)-$$.log
else
  log=$(mktemp "${TMPDIR:-/tmp}/kit-deps.XXXXXX.log")
fi
: >"$log"
lock_wait=${KIT_DEPS_LOCK_WAIT:-300}
export DEBIAN_FRONTEND=noninteractive

# Who holds the package lock, as "PID (command)", when that can be told.
lock_holder() {
  local f pid
  for f in /var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock; do
    [ -e "$f" ] || continue
    if command -v fuser >/dev/null; then
      pid=$(fuser "$f" 2>/dev/null | tr -s ' ' '\n' | grep -m1 '[0-9]')
    else  # /proc/locks: "... POSIX ADVISORY WRITE <pid> <maj:min:inode> ..."
      local ino; ino=$(stat -c %i "$f" 2>/dev/null) || continue
      pid=$(awk -v ino="$ino" '$6 ~ ":" ino "$" {print $5; exit}' /proc/locks 2>/dev/null)
    fi
    [ -n "$pid" ] && { echo "$pid ($(tr '\0\n' '  ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-60 | sed 's/ *$//'))"; return; }
  done
  echo "another apt or dpkg"
}

# apt_run TIMEOUT ARGS...: apt-get ARGS, retried while another process holds the package lock,
# for at most lock_wait seconds in all. Output goes to the log; the last attempt's output is
# kept in $attempt for the caller to explain a failure.
attempt=$(mktemp "${TMPDIR:-/tmp}/kit-deps-attempt.XXXXXX")
trap 'rm -f "$attempt"' EXIT
apt_run() {
  local limit=$1; shift
  local deadline=$((SECONDS + lock_wait)) said=0 rc
  while :; do
    echo "+ apt-get $*" >>"$log"
    # apt fails at once on a held lock; the waiting is done here, so it can be announced.
    timeout "$limit" apt-get "$@" >"$attempt" 2>&1
    rc=$?
    cat "$attempt" >>"$log"
    [ $rc = 0 ] && return 0
    grep -Eq 'Could not get lock|Unable to acquire the dpkg frontend lock|Unable to lock directory' "$attempt" || return $rc
    if [ $said = 0 ]; then
      echo "deps: waiting for the package lock, held by $(lock_holder) (up to ${lock_wait} s)"
      said=1
    fi
    [ $SECONDS -lt $deadline ] || return $rc
    sleep 3
  done
}

# Why the last apt-get failed, in one line.
cause() {  # EXIT_STATUS
  local first
  first=$(grep -m1 -E '^(E|Err|W):' "$attempt" | cut -c1-200)
  if [ "$1" = 124 ]; then echo "apt-get did not finish in time (no answer from the mirror?)"
  elif grep -Eq 'Could not get lock|Unable to acquire the dpkg frontend lock|Unable to lock directory' "$attempt"; then
    echo "the package lock is still held by $(lock_holder) after ${lock_wait} s (KIT_DEPS_LOCK_WAIT sets the wait): $first"
  elif grep -Eq 'Temporary failure resolving|Could not resolve|Failed to fetch|Unable to connect|Network is unreachable|Connection (failed|timed out)|No route to host' "$attempt"; then
    echo "apt cannot reach the package mirrors (offline?): $(grep -m1 -E 'Temporary failure resolving|Could not resolve|Failed to fetch|Unable to connect|unreachable|Connection|No route' "$attempt" | cut -c1-160)"
  elif grep -Eq 'Unable to locate package|has no installation candidate' "$attempt"; then
    echo "apt does not know the package here (apt-get update failed, or another distribution): $first"
  elif grep -q 'No space left on device' "$attempt"; then
    echo "no space left on the disk"
  else
    echo "${first:-apt-get exit status $1}"
  fi
}

echo "deps: installing ${#missing[@]} packages: ${missing[*]}"
echo "deps: this can take a few minutes on a fresh machine; apt's output: $log"
if apt_run 120 update -qq; then
  # apt-get update succeeds with only warnings when a mirror cannot be reached.
  grep -q '^W: .*Failed to fetch\|^W: Some index files failed' "$attempt" &&
    echo "deps: warning: apt-get update could not refresh every package list: $(cause 100); trying with the lists already here"
else
  echo "deps: warning: apt-get update failed: $(cause $?); trying with the package lists already here"
fi
apt_run 900 install -y -qq --no-install-recommends "${missing[@]}"
rc=$?
if [ $rc != 0 ]; then
  why=$(cause $rc)
  echo "deps: warning: installing them together failed: $why"
  # One by one, so one package apt cannot get does not block the rest, unless the lock
  # or a timeout is the cause: then every attempt would fail the same way.
  if [[ $why != "the package lock"* ]] && [ "$rc" != 124 ]; then
    for p in "${missing[@]}"; do
      apt_run 600 install -y -qq --no-install-recommends "$p" ||
        echo "deps: warning: could not install $p: $(cause $?)"
    done
  fi
fi

mapfile -t still < <(missing_now)
if [ ${#still[@]} -eq 0 ]; then
  echo "deps: all ${#missing[@]} installed"
else
  echo "deps: warning: still missing ${#still[@]} of ${#missing[@]}; these parts are skipped (apt's output: $log):"
  for p in "${still[@]}"; do echo "deps:   $p: $(what_needs "$p")"; done
fi
exit 0
