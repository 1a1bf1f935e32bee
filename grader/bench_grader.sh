#!/usr/bin/env bash
# The grader's speed targets (a benchmark, not a test):
#   grader/bench_grader.sh [N] [LAB]          defaults: N=50, LAB=02-csr
#   1. one lab of one submission in under 30 s of CPU-side work on 2 cores (GPU time excluded):
#      the reference solution of each lab in LAB, so every student file compiles
#   2. N dummy submissions of LAB graded as a class in under 25 minutes on 2 cores: each one
#      the reference with a comment of its own, so nothing is reused between students
# Variables: SM (default 90), GRADE_CACHE (default build/grader-cache), PARALLEL (class
# --parallel, default 1; every build uses make -j2). Prints the figures and PASS/FAIL.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-50}
lab=${2:-02-csr}
cache=${GRADE_CACHE:-build/grader-cache}
sm=${SM:-90}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
TIMEFORMAT='%R %U %S'
verdict() { if awk "BEGIN{exit !($1 < $2)}"; then echo PASS; else echo FAIL; fi; }

python3 grader/grade.py prebuild --lab "$lab" --cache "$cache" --sm "$sm" >/dev/null
echo "bench: prebuilt tree ready ($cache); $(nproc) cores here"

for l in ${lab//,/ }; do
  { time python3 grader/grade.py grade --sub reference --lab "$l" --out "$work/one-$l" --cache "$cache" \
      --frozen-cache --quiet >/dev/null; } 2>"$work/time"
  read -r wall user sys <"$work/time"
  cpu=$(awk "BEGIN{print $user + $sys}")
  echo "bench: one submission, $l: ${wall} s wall, ${cpu} s CPU (target < 30 s CPU): $(verdict "$cpu" 30)"
done

mkdir -p "$work/class"
for i in $(seq -w 1 "$n"); do
  for l in ${lab//,/ }; do
    d="$work/class/student-$i/starter/$l"
    mkdir -p "$d"
    for f in reference/"$l"/*; do
      { cat "$f"; printf '\n// dummy submission %s\n' "$i"; } >"$d/$(basename "$f")"
    done
  done
done
{ time python3 grader/grade.py class --subs "$work/class" --out "$work/class-out" --lab "$lab" --cache "$cache" \
    --frozen-cache --parallel "${PARALLEL:-1}" >"$work/class.log"; } 2>"$work/time"
read -r wall user sys <"$work/time"
graded=$(($(wc -l <"$work/class-out/grades.csv") - 1))
echo "bench: $n dummy submissions of $lab: $graded graded in ${wall} s wall" \
     "($(awk "BEGIN{printf \"%.1f\", $wall / 60}") min, $(awk "BEGIN{printf \"%.1f\", $wall / $n}") s each;" \
     "CPU $(awk "BEGIN{print $user + $sys}") s) (target < 25 min): $(verdict "$wall" 1500)"
