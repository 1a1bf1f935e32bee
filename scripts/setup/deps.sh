#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages the kit needs when run as root; otherwise prints the
# exact command. Without apt (RHEL, Rocky, a cluster node) it prints what to install and how
# to point the build at it (a module, Spack, conda, and the NAME_ROOT variables of the Makefile).
# The libraries count as present when the Makefile found them anywhere (it passes
# KIT_DEP_GTEST=1 and the like, see `make deps-info`), not only at Debian's paths. Never fails the build because apt cannot reach a mirror: it warns with the
# real cause, and the parts needing a missing tool are skipped with their own message.
#
# As root it says what it is about to install before it starts, waits for the package lock
# when another apt or dpkg holds it (at most KIT_DEPS_LOCK_WAIT seconds, default 300), and
# writes each run's apt output to its own log, $BUILD/deps-logs/deps-<date>-<pid>.log
# (BUILD defaults to build, as in the Makefile).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
# package : file that proves it is installed, or @NAME: the Makefile's finding KIT_DEP_NAME
# (the file stands in when the variable is not set) : what is skipped without it
need=(
  "g++:/usr/bin/g++:the whole build"
  "make:/usr/bin/make:the whole build"
  "python3:/usr/bin/python3:the test summary, the starter generator and the grader"
  "googletest:@GTEST/usr/src/googletest:the tests"
  "libgtest-dev:@GTEST/usr/include/gtest/gtest.h:the tests"
  "libbenchmark-dev:@BENCHMARK/usr/include/benchmark/benchmark.h:the benchmarks"
  "ocl-icd-opencl-dev:@OPENCL/usr/include/CL/cl.h:the OpenCL parts"
  "opencl-headers:@OPENCL/usr/include/CL/cl_platform.h:the OpenCL parts"
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
  "zlib1g-dev:@ZLIB/usr/include/zlib.h:reading gzip-compressed matrices (.mtx.gz)"
  "libbz2-dev:@BZIP2/usr/include/bzlib.h:reading bzip2-compressed matrices (.mtx.bz2)"
  "libopenmpi-dev:@MPI/usr/bin/mpicxx:lab 10 (SpMV across ranks with MPI)"
  "openmpi-bin:/usr/bin/mpirun:running lab 10's tests (mpirun)"
  "clang:/usr/bin/clang++:the fuzz target (make fuzz)"
  "libclang-rt-dev:/usr/share/doc/libclang-rt-dev:the fuzz target's libFuzzer runtime (make fuzz)"
)

present() {  # PROOF: @NAME/file or file
  local proof=$1 name var
  if [[ $proof == @* ]]; then
    name=${proof%%/*}; name=${name#@}; proof=/${proof#*/}
    var=KIT_DEP_$name
    [ -n "${!var:-}" ] && { [ "${!var}" = 1 ]; return; }
  fi
  [ -e "$proof" ]
}
missing_now() {  # the packages whose proof is absent, one a line
  local entry rest
  for entry in "${need[@]}"; do
    rest=${entry#*:}
    present "${rest%%:*}" || echo "${entry%%:*}"
  done
}

# Debian package : what it is elsewhere (RHEL/Rocky/Fedora package; without root; the build's variable)
other_systems=(
  "g++|gcc-c++|module load gcc (C++17: GCC 8 or newer)|CXX=/path/to/g++"
  "python3|python3|module load python|"
  "googletest|gtest-devel (EPEL)|module load googletest; spack install googletest; conda install -c conda-forge gtest|GTEST_ROOT=<prefix>"
  "libgtest-dev|gtest-devel (EPEL)|module load googletest; spack install googletest; conda install -c conda-forge gtest|GTEST_ROOT=<prefix>"
  "libbenchmark-dev|google-benchmark-devel (EPEL)|module load benchmark; spack install benchmark; conda install -c conda-forge benchmark|BENCHMARK_ROOT=<prefix>"
  "ocl-icd-opencl-dev|ocl-icd-devel|a full CUDA Toolkit's own (cuda-opencl component; OPENCL_ROOT=\$CUDA_HOME); spack install ocl-icd opencl-c-headers; conda install -c conda-forge ocl-icd opencl-headers|OPENCL_ROOT=<prefix>"
  "opencl-headers|opencl-headers|as ocl-icd-opencl-dev|OPENCL_ROOT=<prefix>"
  "opencl-clhpp-headers|opencl-headers|not needed to build|"
  "pocl-opencl-icd|pocl (EPEL)|spack install pocl; conda install -c conda-forge pocl|OCL_ICD_VENDORS=<folder of .icd files>"
  "zlib1g-dev|zlib-devel|module load zlib; spack install zlib; conda install -c conda-forge zlib|ZLIB_ROOT=<prefix>"
  "libbz2-dev|bzip2-devel|module load bzip2; spack install bzip2; conda install -c conda-forge bzip2|BZIP2_ROOT=<prefix>"
  "libopenmpi-dev|openmpi-devel|module load openmpi; spack install openmpi; conda install -c conda-forge openmpi|MPICXX=/path/to/mpicxx"
  "openmpi-bin|openmpi|as libopenmpi-dev|"
  "python3-matplotlib|python3-matplotlib|pip install --user matplotlib|"
  "doxygen|doxygen|module load doxygen; conda install -c conda-forge doxygen|"
  "pandoc|pandoc|conda install -c conda-forge pandoc|"
  "weasyprint|weasyprint|pip install --user weasyprint|"
)
# How to get the missing packages on a system without apt, and how to point the build at them.
print_other_systems() {
  local p e rhel=() how noroot var
  echo "deps: no apt-get here; what each missing part is elsewhere (package as root | without root | then build with):"
  for p in "${missing[@]}"; do
    how=; for e in "${other_systems[@]}"; do [ "${e%%|*}" = "$p" ] && how=${e#*|}; done
    if [ -z "$how" ]; then echo "deps:   $p ($(what_needs "$p")): your distribution's package of that name"; continue; fi
    IFS='|' read -r rhelpkg noroot var <<<"$how"
    rhel+=("${rhelpkg%% (*}")
    echo "deps:   $p ($(what_needs "$p")): $rhelpkg | $noroot${var:+ | make ... $var}"
  done
  [ ${#rhel[@]} -gt 0 ] && echo "deps: as root on RHEL/Rocky/Fedora:  dnf install $(printf '%s\n' "${rhel[@]}" | sort -u | tr '\n' ' ')(EPEL for some: dnf install epel-release)"
  echo "deps: the build also finds libraries through pkg-config (PKG_CONFIG_PATH), CPATH/LIBRARY_PATH (module load),"
  echo "deps: \$CONDA_PREFIX, a Spack view and /usr/lib64; 'make deps-info' shows what it found where (jobs/README.md: building on a cluster)"
}
what_needs() {  # PACKAGE: what is skipped without it
  local entry
  for entry in "${need[@]}"; do
    [ "${entry%%:*}" = "$1" ] && { echo "${entry##*:}"; return; }
  done
}

mapfile -t missing < <(missing_now)
if [ ${#missing[@]} -eq 0 ]; then
  # Said only to `make deps` itself: make run and make test call it on every start.
  [ "${KIT_DEPS_SAY_OK:-0}" = 1 ] && echo "deps: nothing missing ('make deps-info' shows where each dependency was found)"
  exit 0
fi
cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if ! command -v apt-get >/dev/null; then
  print_other_systems
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "deps: missing packages: ${missing[*]}"
  echo "deps: install them with:  sudo apt-get update && sudo $cmd"
  echo "deps: without root: point the build at a module, Spack or conda copy (GTEST_ROOT=<prefix> and the like; jobs/README.md: building on a cluster)"
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
