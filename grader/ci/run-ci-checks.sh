#!/usr/bin/env bash
# The grader's CI checks (.ci/run calls this when it is executable). No GPU is needed: CUDA
# tests are reported as not run. Fails on the first check that fails.
#   1. the adversarial suite: every bad submission gets its exact score (tests/grader/cases.json)
#   2. every results.json it wrote validates against grader/results.schema.json
#   3. merging runs into grades.csv
#   4. the student edition holds no reference/, tests/hidden/ or grader, and builds a lab
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "== grader: archives and names"
python3 tests/grader/test_submission.py
python3 tests/grader/test_class_robustness.py
echo "== grader: processes that outlive their test program; grades kept as graded"
python3 tests/grader/test_sandbox.py
python3 tests/grader/test_class_ledger.py
echo "== grader: adversarial suite"
python3 tests/grader/run_adversarial.py --cache "${BUILD:-build}/grader-test-cache" --out "$out/adversarial" --sm "${SM:-90}"
echo "== grader: the reference at full marks (every point that can run here), two SM builds"
python3 grader/ci/check_reference_marks.py --sm "${SM:-90}" --cache "${BUILD:-build}/grader-ref-cache"
python3 grader/ci/check_reference_marks.py --sm "${SM:-90}" --cache "${BUILD:-build}/grader-ref-cache" --cpu-only
python3 grader/ci/check_reference_marks.py --sm "80 90" --cache "${BUILD:-build}/grader-ref-cache-80-90"
echo "== grader: results.json schema"
python3 tests/grader/test_results_schema.py "$out/adversarial"
echo "== grader: merge into grades.csv"
python3 tests/grader/test_merge.py
echo "== grader: student edition"
python3 tests/grader/test_dist_student.py --build
python3 grader/grade.py --help >/dev/null
echo "grader: all CI checks passed"
