#!/usr/bin/env bash
# CI check of the docs as a reader sees them (.ci/run calls this after `make docs`):
#   - every handout exists as HTML and PDF, and scripts/docs/check_render.py passes on them:
#     one title, a contents list, every PDF page rendered to an image and not blank or
#     broken, nothing past the paper's edge, every figure line whole;
#   - the check itself fails where it must: on a blank page, a missing PDF, a duplicated
#     title and wrapped figures (the handouts as the old pandoc command rendered them), and
#     code cut off at the paper's edge.
# Builds the docs first when $BUILD/docs has no handout PDFs. Ends with
# "N passed, N failed, N skipped"; exit status 1 if a check failed.
#   BUILD (default: build): where `make docs` wrote build/docs.
set -uo pipefail
cd "$(dirname "$0")/../../.."
BUILD=${BUILD:-build}
docs=$BUILD/docs
check=scripts/docs/check_render.py
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-docs-ci.XXXXXX")
trap 'rm -rf "$work"' EXIT

n_ok=0 n_bad=0 n_skip=0
ok() { n_ok=$((n_ok + 1)); echo "  ok    $1"; }
bad() { n_bad=$((n_bad + 1)); echo "  FAIL  $1"; [ -z "${2:-}" ] || sed 's/^/          /' <<<"$2"; }
summary() { echo; echo "$n_ok passed, $n_bad failed, $n_skip skipped"; [ "$n_bad" = 0 ]; }

echo "== docs: tools"
missing=()
for t in doxygen dot pandoc weasyprint pdfinfo pdftoppm pdftotext; do command -v "$t" >/dev/null || missing+=("$t"); done
if [ ${#missing[@]} -gt 0 ]; then
  bad "missing: ${missing[*]} (make deps installs them: graphviz, weasyprint, poppler-utils)"
  summary; exit 1
fi
ok "doxygen, dot, pandoc, weasyprint and poppler-utils are installed"

echo "== docs: the handouts as built by make docs"
if ! ls "$docs"/handouts/*.pdf >/dev/null 2>&1; then
  start=$(date +%s)
  out=$(make --no-print-directory docs BUILD="$BUILD" 2>&1) && ok "make docs ($(($(date +%s) - start)) s)" ||
    { bad "make docs failed" "$(tail -20 <<<"$out")"; summary; exit 1; }
fi
out=$(python3 "$check" "$docs" 2>&1) && ok "$(grep '^render: [0-9]' <<<"$out")" || bad "the handouts do not render well" "$out"

echo "== docs: the check fails where it must"
first=$(ls handouts/*.md | head -1)
name=$(basename "${first%.md}")
title=$(head -1 "$first" | sed 's/^# *//')
mkdir -p "$work/md"
cp "$first" "$work/md/"
# expect_fail NAME DOCS_DIR REGEX: the check exits 1 and names the problem.
expect_fail() {
  local out rc
  out=$(python3 "$check" "$2" --handouts "$work/md" --png "$work/png" 2>&1); rc=$?
  [ $rc = 1 ] && grep -Eq -- "$3" <<<"$out" && ok "$1" || bad "$1: exit status $rc, expected 1 and /$3/" "$out"
}
# The real HTML, and a PDF whose page 2 is blank.
mkdir -p "$work/blank/handouts"
cp "$docs/handouts/$name.html" "$work/blank/handouts/"
printf '<h1>%s</h1><p>page one</p><div style="break-before: page"></div><p style="break-before: page">page three</p>\n' \
  "$title" > "$work/blank.html"
weasyprint -q "$work/blank.html" "$work/blank/handouts/$name.pdf"
expect_fail "a blank page fails" "$work/blank" "page 2 is blank"
rm "$work/blank/handouts/$name.pdf"
expect_fail "a missing PDF fails" "$work/blank" "$name.pdf is missing"
# The old route: pandoc's default page with its own title and wrapping code.
mkdir -p "$work/old/handouts"
pandoc --standalone --toc --metadata title="$title" -o "$work/old/handouts/$name.html" "$first"
weasyprint -q "$work/old/handouts/$name.html" "$work/old/handouts/$name.pdf"
expect_fail "a title shown twice fails" "$work/old" "appears as 2 headings"
expect_fail "wrapped figures fail" "$work/old" "figure lines are not whole"
# Code that does not fit the paper and is not allowed to wrap.
mkdir -p "$work/cut/handouts"
cp "$docs/handouts/$name.html" "$work/cut/handouts/"
printf '@media print { pre, pre > code.sourceCode { font-size: 14pt !important; white-space: pre !important; } }\n' > "$work/cut.css"
weasyprint -q -s "$work/cut.css" "$work/cut/handouts/$name.html" "$work/cut/handouts/$name.pdf"
expect_fail "code past the paper's edge fails" "$work/cut" "run past the paper's edge"

summary
