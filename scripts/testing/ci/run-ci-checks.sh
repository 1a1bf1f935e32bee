#!/usr/bin/env bash
# CI checks of the student's loop (after `make test`):
#  1. every handout command, as printed, in a fresh student edition and in the full kit
#     (scripts/testing/check_handout_commands.py; GPU and cluster commands listed, not run);
#  2. the build race: 20 clean parallel builds of a few objects, with the feature stamp
#     written in the same run, must all succeed (objects live in a folder named after the
#     feature set, so nothing deletes them under a running build);
#  3. the numbered build lines, [n/N]: N the steps run, each n once, also with two builds at
#     once (scripts/testing/check_progress.sh).
set -uo pipefail
cd "$(dirname "$0")/../../.."
build=${BUILD:-build}
export SM=${SM:-90}
status=0

echo "== handout commands, student edition"
rm -rf "$build/ci-student" && mkdir -p "$build/ci-student"
make --no-print-directory dist-student >/dev/null || { echo "make dist-student failed"; exit 1; }
tar -xzf "$build/dist/spmv-kit-student.tar.gz" -C "$build/ci-student"
python3 scripts/testing/check_handout_commands.py "$build/ci-student/spmv-kit-student" > "$build/ci-handouts-student.log" 2>&1 ||
  status=1
grep -E '^handout commands|^ERROR|^  not run' "$build/ci-handouts-student.log"
[ $status = 0 ] || sed -n '/^ERROR handouts/,$p' "$build/ci-handouts-student.log" | head -40

echo "== handout commands, full kit"
python3 scripts/testing/check_handout_commands.py . > "$build/ci-handouts-kit.log" 2>&1 || status=1
grep -E '^handout commands|^ERROR' "$build/ci-handouts-kit.log"

echo "== build race: 20 clean make -j2 builds of mixed targets"
objdir=$(sed -n 's/.*objdir=\([^ ]*\).*/\1/p' "$build/.features")
race=$(mktemp -d)
fails=0
for i in $(seq 1 20); do
  b="$race/b$i"
  make --no-print-directory -s -j2 BUILD="$b" features "$b/gen/labs-none.cpp" "$b/$objdir/labs/common/core/types.cpp.o" \
       "$b/$objdir/cli/problem_setup.cpp.o" "$b/$objdir/gen/labs-none.cpp.o" > "$race/log$i" 2>&1 || { fails=$((fails + 1)); tail -5 "$race/log$i"; }
  rm -rf "$b"
done
rm -rf "$race"
echo "build race: $((20 - fails)) of 20 clean parallel builds succeeded"
[ $fails = 0 ] || status=1

echo "== numbered build steps"
scripts/testing/check_progress.sh || status=1
exit $status
