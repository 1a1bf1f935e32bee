#!/usr/bin/env bash
# A cluster node's layout, simulated: GoogleTest and OpenCL copied into a prefix of their own,
# the system copies hidden (a mount namespace: an empty folder over /usr/include/gtest and
# /usr/include/CL, an overlay over the library folder with the libraries and .pc files
# deleted), then the kit must
#   - when nothing points at the prefix: build the rest, skip the tests with the reason, and
#     stop the test targets with a message naming GTEST_ROOT;
#   - compile and link a test binary from the prefix with GTEST_ROOT and OPENCL_ROOT (the
#     compile and link lines use it, the binary runs without LD_LIBRARY_PATH, OpenCL loaded
#     from the prefix), and find the prefix through pkg-config and through CPATH/LIBRARY_PATH.
# Run as root by jobs/ci/run-ci-checks.sh (which sources checks.sh for ok/bad/skip):
#   jobs/ci/prefix_build.sh BUILD WORK   BUILD: a built folder (its objects are copied, so only
#   the files that include the moved headers compile again; NVCC and SM in the environment as
#   that build had them); WORK: a temporary folder.
# Prints "ok ...", "FAIL ..." or "skip ..." lines, one a check.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=$1 work=$2
say() { echo "$1 $2"; [ -z "${3:-}" ] || sed 's/^/          /' <<<"$3" | tail -15; }

if [ "${KIT_PREFIX_INNER:-}" != 1 ]; then
  [ "$(id -u)" = 0 ] || { say skip "prefix build: needs root (a mount namespace)"; exit 0; }
  command -v unshare >/dev/null || { say skip "prefix build: unshare (util-linux) is missing"; exit 0; }
  info=$(make --no-print-directory -s deps-info BUILD="$build" 2>&1)
  gtest_inc=$(sed -n 's/^GTEST: found .*gtest\/gtest.h in \([^,]*\), libgtest in \([^;]*\);.*/\1/p' <<<"$info")
  gtest_lib=$(sed -n 's/^GTEST: found .*gtest\/gtest.h in \([^,]*\), libgtest in \([^;]*\);.*/\2/p' <<<"$info")
  cl_inc=$(sed -n 's/^OPENCL: found .*CL\/cl.h in \([^,]*\), libOpenCL in \([^;]*\);.*/\1/p' <<<"$info")
  cl_lib=$(sed -n 's/^OPENCL: found .*CL\/cl.h in \([^,]*\), libOpenCL in \([^;]*\);.*/\2/p' <<<"$info")
  [ -n "$gtest_inc" ] && [ -n "$cl_inc" ] || { say skip "prefix build: GoogleTest or OpenCL not installed here" "$info"; exit 0; }
  prefix=$work/prefix
  mkdir -p "$prefix/include" "$prefix/lib64/pkgconfig"
  cp -r "$gtest_inc/gtest" "$cl_inc/CL" "$prefix/include/"
  cp -a "$gtest_lib"/libgtest* "$cl_lib"/libOpenCL.so* "$prefix/lib64/"
  cat >"$prefix/lib64/pkgconfig/gtest.pc" <<PC
prefix=$prefix
includedir=\${prefix}/include
libdir=\${prefix}/lib64
Name: gtest
Description: GoogleTest, moved
Version: 0
Libs: -L\${libdir} -lgtest
Cflags: -I\${includedir}
PC
  # The build's objects, less those that include gtest or CL/cl.h the test needs: they compile
  # again from the prefix.
  obj=$build/$(sed -n 's/.*objdir=\([^ ]*\).*/\1/p' "$build/.features" 2>/dev/null)
  [ -d "$obj" ] || { say skip "prefix build: $build is not built (no objects of its .features)"; exit 0; }
  mkdir -p "$work/build"
  cp -a "$obj" "$build/gen" "$build/.labs" "$build/.features" "$work/build/" 2>/dev/null
  rm -f "$work/build/$(basename "$obj")"/tests/00-basics/*.o "$work/build/$(basename "$obj")"/tests/support/*.o \
        "$work/build/$(basename "$obj")"/labs/common/gpu/opencl_runtime_opencl.cpp.o
  exec env KIT_PREFIX_INNER=1 PREFIX="$prefix" GTEST_LIB="$gtest_lib" CL_LIB="$cl_lib" GTEST_INC="$gtest_inc" CL_INC="$cl_inc" \
    unshare -m bash "$0" "$build" "$work"
fi

# ---------------------------------------------------------------- inside the namespace
mkdir -p "$work/empty" "$work/ov-up" "$work/ov-work"
hide_libs() {  # DIR: an overlay with the moved libraries and .pc files deleted
  local d=$1
  mount -t overlay overlay -o "lowerdir=$d,upperdir=$work/ov-up,workdir=$work/ov-work" "$d" || return 1
  rm -f "$d"/libgtest* "$d"/libOpenCL.so* "$d"/pkgconfig/gtest*.pc "$d"/pkgconfig/OpenCL*.pc
}
if ! { hide_libs "$GTEST_LIB" && { [ "$CL_LIB" = "$GTEST_LIB" ] || hide_libs "$CL_LIB"; } &&
       mount --bind "$work/empty" "$GTEST_INC/gtest" && mount --bind "$work/empty" "$CL_INC/CL"; }; then
  say skip "prefix build: cannot hide the system copies (overlay or bind mount refused in this container)"
  exit 0
fi
if [ -e "$GTEST_INC/gtest/gtest.h" ] || ls "$GTEST_LIB"/libgtest* >/dev/null 2>&1; then
  say FAIL "prefix build: the system GoogleTest is still visible"; exit 0
fi
bld=$work/build
mk() { make --no-print-directory BUILD="$bld" "$@"; }  # NVCC and SM as the caller's (the copied build's)

out=$(OPENCL_ROOT=$PREFIX mk -s verify-starter LAB=00-basics 2>&1); rc=$?
[ $rc != 0 ] && grep -q 'error: GoogleTest not found.*set GTEST_ROOT=<prefix>' <<<"$out" &&
  say ok "system GoogleTest hidden: the test targets stop and name GTEST_ROOT" || say FAIL "system GoogleTest hidden: make verify-starter exit $rc" "$out"
out=$(OPENCL_ROOT=$PREFIX mk -s binaries LAB=00-basics 2>&1); rc=$?  # OpenCL found: the same objects
[ $rc = 0 ] && grep -q '^note: tests skipped: GoogleTest not found' <<<"$out" && [ -x "$bld/reference/bin/spmv-kit" ] &&
  say ok "system GoogleTest hidden: the rest still builds (spmv-kit, the drivers), the tests skipped with the reason" ||
  say FAIL "system GoogleTest hidden: make binaries exit $rc" "$out"

out=$(PKG_CONFIG_PATH=$PREFIX/lib64/pkgconfig mk -s deps-info 2>&1)
grep -q "^GTEST: found by pkg-config gtest: gtest/gtest.h in $PREFIX/include, libgtest in $PREFIX/lib64" <<<"$out" &&
  say ok "PKG_CONFIG_PATH=<prefix>/lib64/pkgconfig finds the moved GoogleTest" || say FAIL "pkg-config route" "$out"
out=$(CPATH=$PREFIX/include LIBRARY_PATH=$PREFIX/lib64 mk -s deps-info 2>&1)
grep -q "^GTEST: found by search path: gtest/gtest.h in $PREFIX/include, libgtest in $PREFIX/lib64" <<<"$out" &&
  grep -q "^OPENCL: found by search path: CL/cl.h in $PREFIX/include, libOpenCL in $PREFIX/lib64" <<<"$out" &&
  say ok "CPATH and LIBRARY_PATH (module load) find the moved GoogleTest and OpenCL" || say FAIL "CPATH/LIBRARY_PATH route" "$out"

bin=$bld/reference/bin/test_00-basics
out=$(GTEST_ROOT=$PREFIX OPENCL_ROOT=$PREFIX mk V=1 features "$bin" 2>&1); rc=$?
if [ $rc = 0 ] && grep -q -- "-isystem $PREFIX/include .*-c tests/support/gtest_main.cpp" <<<"$out" &&
   grep -q -- "-o $bin .*-L$PREFIX/lib64 -Wl,-rpath,$PREFIX/lib64 -lOpenCL.*-lgtest" <<<"$out"; then
  say ok "GTEST_ROOT and OPENCL_ROOT: test_00-basics compiled and linked from the prefix"
else
  say FAIL "GTEST_ROOT/OPENCL_ROOT build: exit $rc" "$(grep -E 'error|gtest_main|-o '"$bin" <<<"$out" | cut -c1-400)"
fi
if [ -x "$bin" ]; then
  out=$(env -u LD_LIBRARY_PATH "$bin" --gtest_brief=1 2>&1); rc=$?
  lib=$(ldd "$bin" 2>/dev/null | awk '/libOpenCL/{print $3}')
  [ $rc = 0 ] && [ "$lib" = "$PREFIX/lib64/libOpenCL.so.1" ] &&
    say ok "the binary runs without LD_LIBRARY_PATH, libOpenCL from the prefix (rpath)" ||
    say FAIL "running $bin: exit $rc, libOpenCL from '$lib'" "$out"
fi
