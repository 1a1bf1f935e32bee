#!/usr/bin/env bash
# Builds the student edition of the kit (make dist-student):
#   dist_student.sh OUT_DIR
# OUT_DIR/spmv-kit-student.tar.gz holds one folder, spmv-kit-student/, with what a student
# needs: the Makefile, labs/, starter/, the public tests, matrices/, handouts/, jobs/ and the
# scripts. It leaves out everything that gives answers or grading away: reference/,
# tests/hidden/, the grader (grader/, and tests/grader/ whose fixtures hold solutions), CI
# folders and build folders (the grading job scripts stay: without grader/ they say so).
# There being no reference/, the Makefile's default IMPL becomes starter. The README is the
# students' (scripts/edition/README.student.md), not the instructor's.
# OUT_DIR/spmv-kit-student.files lists the contents.
set -euo pipefail
out=${1:?usage: dist_student.sh OUT_DIR}
cd "$(dirname "$0")/../.."
if [ ! -d reference ]; then
  echo "dist-student: this is the student edition (it has no reference/); the edition is made from the" \
       "instructor's kit. To hand in your work, pack the files of starter/NN-name/ as your instructor asks." >&2
  exit 2
fi
name=spmv-kit-student
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# Paths (relative, without a leading ./) that never go to students.
leave_out='^(scripts/edition/README\.student\.md$|reference|tests/hidden|tests/grader|grader|build[^/]*|\.ci|\.helper|\.git)(/|$)|(^|/)ci/|(^|/)__pycache__/|\.pyc$'
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files --cached --others --exclude-standard   # tracked, plus new files not ignored
else
  find . -type f | sed 's|^\./||'
fi | LC_ALL=C sort -u | grep -Ev "$leave_out" | while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done \
  > "$stage/files"

mkdir -p "$stage/$name"
tar -cf - -T "$stage/files" | tar -xf - -C "$stage/$name"

# The students' README: what to edit, how to test a lab and a step, points, what needs a GPU.
cp scripts/edition/README.student.md "$stage/$name/README.md"

# Students build their own starter code: make test must not look for reference/.
sed -i -E 's/^IMPL([[:space:]]*)\?=([[:space:]]*)reference[[:space:]]*$/IMPL\1?=\2starter/' "$stage/$name/Makefile"
grep -Eq '^IMPL[[:space:]]*\?=[[:space:]]*starter$' "$stage/$name/Makefile" ||
  { echo "dist-student: could not set IMPL ?= starter in the Makefile" >&2; exit 1; }

tar -C "$stage" -czf "$out/$name.tar.gz" "$name"
(cd "$stage" && find "$name" -type f | LC_ALL=C sort) > "$out/$name.files"
echo "dist-student: $out/$name.tar.gz ($(wc -l < "$out/$name.files") files; no reference/, tests/hidden/ or grader)"
