#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages the kit needs when run as root; otherwise prints the
# exact command. Never fails the build because apt cannot reach a mirror: it warns, and the
# parts needing a missing tool are skipped with their own message.
set -u
# package : file that proves it is installed
need=(
  "g++:/usr/bin/g++"
  "make:/usr/bin/make"
  "python3:/usr/bin/python3"
  "googletest:/usr/src/googletest"
  "libgtest-dev:/usr/include/gtest/gtest.h"
  "libbenchmark-dev:/usr/include/benchmark/benchmark.h"
  "ocl-icd-opencl-dev:/usr/include/CL/cl.h"
  "opencl-headers:/usr/include/CL/cl_platform.h"
  "opencl-clhpp-headers:/usr/include/CL/opencl.hpp"
  "pocl-opencl-icd:/etc/OpenCL/vendors/pocl.icd"
  "clinfo:/usr/bin/clinfo"
  "doxygen:/usr/bin/doxygen"
  "pandoc:/usr/bin/pandoc"
  "python3-matplotlib:/usr/lib/python3/dist-packages/matplotlib"
)
missing=()
for entry in "${need[@]}"; do
  pkg=${entry%%:*}; file=${entry#*:}
  [ -e "$file" ] || missing+=("$pkg")
done
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
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! { timeout 60 apt-get update -qq && timeout 600 $cmd -qq; } >/tmp/kit-deps.log 2>&1; then
  # Try the packages one by one, so one missing mirror entry does not block the rest.
  for p in "${missing[@]}"; do apt-get install -y -qq --no-install-recommends "$p" >>/tmp/kit-deps.log 2>&1 || echo "deps: warning: could not install $p (offline?); parts that need it are skipped"; done
fi
exit 0
