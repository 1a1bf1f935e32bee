#!/usr/bin/env bash
# make docs: the API reference (Doxygen; any warning fails), then every handout as HTML and
# as PDF.
#   make_docs.sh OUT_DIR
# Writes OUT_DIR/html/ (API reference), OUT_DIR/handouts/NN-name.html and .pdf.
# The HTML handouts use scripts/docs/handout.html and handout.css (one title, a styled
# contents list, figures that keep their shape, code that scrolls). The PDFs are printed from
# the same HTML by weasyprint, with the stylesheet's print rules (A4, page numbers).
# A missing tool skips only what needs it, with a line saying so; `make deps` installs them.
set -euo pipefail
out=$1
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/handouts"
jobs=$(nproc 2>/dev/null || echo 1)

if command -v doxygen >/dev/null; then
  have_dot=NO
  if command -v dot >/dev/null; then have_dot=YES
  else echo "docs: graphviz (dot) not found: the API reference has no include or class graphs (make deps installs it)"; fi
  # The lab folders hold the signature headers; the Doxyfile names the rest.
  lab_folders=$(python3 scripts/labs/lab_manifests.py names | sed 's|.*|labs/&/|' | tr '\n' ' ')
  # The reference kernels, where they exist: the student edition has none (its starter stubs are
  # the students' to document).
  [ -d reference ] && lab_folders="reference $lab_folders"
  KIT_DOCS_DIR="$out" KIT_DOCS_EXTRA="$lab_folders" \
    KIT_DOCS_HAVE_DOT=$have_dot KIT_DOCS_JOBS=$jobs doxygen Doxyfile
  echo "docs: API reference in $out/html/index.html"
else
  echo "docs: doxygen not found, API reference skipped (make deps installs it)"
fi

if ! command -v pandoc >/dev/null; then
  echo "docs: pandoc not found, handouts not rendered (read the Markdown in handouts/)"
  exit 0
fi
pdf=yes
if ! command -v weasyprint >/dev/null; then
  pdf=no
  echo "docs: weasyprint not found, handouts as HTML only, no PDF (make deps installs it)"
fi

# One handout: Markdown -> HTML (the handout's '# ' line becomes the page title, and the
# '## ' sections become the top level of the body and of the contents), then HTML -> PDF.
render() {
  local md=$1 name html
  name=$(basename "${md%.md}")
  html=$out/handouts/$name.html
  # --columns: pipe tables get no fixed column widths, so each column takes what it needs.
  pandoc --standalone --toc --toc-depth=2 --shift-heading-level-by=-1 --columns=200 \
    --template "$here/handout.html" -o "$html" "$md" || return 1
  if [ "$pdf" = yes ]; then
    local log=$out/handouts/$name.pdf.log
    weasyprint "$html" "$out/handouts/$name.pdf" 2>"$log" ||
      { echo "docs: error: weasyprint failed on $html:" >&2; cat "$log" >&2; return 1; }
    # Screen-only properties (sideways scrolling, pandoc's user-select) mean nothing on
    # paper; any other warning (a CSS value it cannot use, a missing font) is shown.
    grep -v -e 'Ignored `overflow-x: auto`' -e 'Ignored `user-select: none`' "$log" >"$log.rest" || true
    if [ -s "$log.rest" ]; then
      echo "docs: warning: weasyprint on $name:" >&2; sed 's/^/  /' "$log.rest" >&2
    fi
    rm -f "$log" "$log.rest"
  fi
}
export -f render
export out here pdf

status=0
handouts=(handouts/*.md)
[ -e "${handouts[0]}" ] || { echo "docs: no handouts/*.md"; exit 0; }
# weasyprint takes a few seconds a handout: run them side by side, one per core.
printf '%s\0' "${handouts[@]}" | xargs -0 -n1 -P"$jobs" bash -c 'render "$1"' _ || status=1
[ "$status" = 0 ] || { echo "docs: error: a handout did not render (above)" >&2; exit 1; }
if [ "$pdf" = yes ]; then
  echo "docs: ${#handouts[@]} handouts as HTML and PDF in $out/handouts/"
else
  echo "docs: ${#handouts[@]} handouts as HTML in $out/handouts/"
fi
