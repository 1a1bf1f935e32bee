#!/usr/bin/env bash
# CI check of the numbered build lines, "[n/N] CXX file" (scripts/build/progress.sh), on a few
# small objects of lab 00 built without CUDA in temporary build folders (starter/, so that it
# runs in the student edition too):
#  - two parallel builds at once, in two folders: each prints N lines, N being the number of
#    steps it ran, and numbers 1..N, each once (the counters are not shared);
#  - a build with nothing to do prints nothing; one object to redo prints [1/1];
#  - V=1 prints the command lines and no numbers;
#  - the job count: no -j gives -j$(nproc), a -j of the user's (-j1 too) is left alone.
# The goal runs through the Makefile's build_goals, as all, run and test do.
set -uo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() { echo "progress check: FAIL: $*"; status=1; }

sources=(labs/common/core/types.cpp labs/common/formats/csr.cpp labs/00-basics/register.cpp starter/00-basics/csr_cpu.cpp)
vars=(NVCC= LAB=00-basics)
objdir() {  # BUILD: the object folder of this feature set
  make -s --no-print-directory "${vars[@]}" BUILD="$1" --eval='objdir-probe: ; @echo $(OBJ)' objdir-probe
}
goals() {  # BUILD: the objects of the sources, and one of a generated source
  local o s; o=$(objdir "$1")
  for s in "${sources[@]}"; do printf '%s ' "$o/$s.o"; done
  printf '%s\n' "$o/gen/labs-00-basics.cpp.o"
}
build() {  # BUILD MAKE-ARGS...: build the goals through build_goals; prints what make prints
  local b=$1 rc; shift
  make --no-print-directory "${vars[@]}" BUILD="$b" "$@" \
       --eval="progress-check: ; \$(call build_goals,$(goals "$b"))" progress-check >"$b.out" 2>&1
  rc=$?
  grep -v '^note: ' "$b.out"  # the feature notes (CUDA skipped) are not build steps
  return $rc
}
check_numbering() {  # LOG STEPS: the numbered lines are exactly [1/STEPS]..[STEPS/STEPS]
  local log=$1 steps=$2 lines totals numbers
  lines=$(grep -cE '^\[ *[0-9]+/[0-9]+\] ' "$log")
  totals=$(sed -nE 's/^\[ *[0-9]+\/([0-9]+)\] .*/\1/p' "$log" | sort -u | tr '\n' ' ')
  numbers=$(sed -nE 's/^\[ *([0-9]+)\/[0-9]+\] .*/\1/p' "$log" | sort -n | tr '\n' ' ')
  [ "$lines" = "$steps" ] || fail "$log: $lines numbered lines for $steps steps"
  [ "$totals" = "$steps " ] || fail "$log: totals '$totals', expected $steps"
  [ "$numbers" = "$(seq -s ' ' 1 "$steps") " ] || fail "$log: numbers '$numbers', expected 1..$steps once each"
}

steps=$((${#sources[@]} + 1))
echo "== numbered steps: two clean make -j2 builds at once, $steps steps each"
build "$tmp/b1" -j2 >"$tmp/log1" & pid1=$!
build "$tmp/b2" -j2 >"$tmp/log2" & pid2=$!
wait $pid1 || fail "build 1 failed: $(tail -3 "$tmp/log1")"
wait $pid2 || fail "build 2 failed: $(tail -3 "$tmp/log2")"
for i in 1 2; do
  check_numbering "$tmp/log$i" "$steps"
  built=$(find "$tmp/b$i" -name '*.o' | wc -l)
  [ "$built" = "$steps" ] || fail "build $i made $built objects, expected $steps"
  leftover=$(find "$tmp/b$i" -name '.progress.*' | head -1)
  [ -z "$leftover" ] || fail "build $i left its counter behind: $leftover"
done
sed 's/^/  /' "$tmp/log1"

echo "== nothing to do: no output"
build "$tmp/b1" -j2 >"$tmp/log3" || fail "the no-op build failed"
[ ! -s "$tmp/log3" ] || fail "a build with nothing to do printed: $(head -3 "$tmp/log3")"

echo "== one object to redo: [1/1]"
o=$(objdir "$tmp/b1")
rm -f "$o/labs/common/formats/csr.cpp.o"
build "$tmp/b1" -j2 >"$tmp/log4" || fail "the rebuild failed"
[ "$(cat "$tmp/log4")" = "[1/1] CXX  labs/common/formats/csr.cpp" ] || fail "rebuild of one object printed: $(cat "$tmp/log4")"

echo "== V=1: command lines, no numbers"
rm -f "$o/labs/common/formats/csr.cpp.o"
build "$tmp/b1" V=1 >"$tmp/log5" || fail "the V=1 build failed"
grep -q -- '-c labs/common/formats/csr.cpp -o ' "$tmp/log5" || fail "V=1 printed no command line: $(cat "$tmp/log5")"
! grep -qE '^\[ *[0-9]+/' "$tmp/log5" || fail "V=1 printed numbered lines"

echo "== job count"
jobs_of() { make -s --no-print-directory "${vars[@]}" BUILD="$tmp/b1" "$@" --eval='jobs-probe: ; @echo "$(build_jobs)"' jobs-probe; }
[ "$(jobs_of)" = "-j$(nproc)" ] || fail "without -j the sub-make gets '$(jobs_of)', expected -j$(nproc)"
for j in -j1 -j3 -j; do
  [ -z "$(jobs_of $j)" ] || fail "make $j: the sub-make gets '$(jobs_of $j)' on top of the user's $j"
done

[ $status = 0 ] && echo "progress check: numbering, no-op, rebuild, V=1 and job count all correct"
exit $status
