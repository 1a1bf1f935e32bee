#!/usr/bin/env bash
# make docs: Doxygen on the kit's headers (any warning fails), then the handouts as HTML.
#   make_docs.sh OUT_DIR
set -euo pipefail
out=$1
mkdir -p "$out/handouts"
if command -v doxygen >/dev/null; then
  KIT_DOCS_DIR="$out" KIT_DOCS_EXTRA="$(ls -d labs/[0-9][0-9]-*/ | tr '\n' ' ')" doxygen Doxyfile
  echo "docs: API reference in $out/html/index.html"
else
  echo "docs: doxygen not found, API reference skipped (make deps installs it)"
fi
if command -v pandoc >/dev/null; then
  for h in handouts/*.md; do
    [ -e "$h" ] || continue
    pandoc --standalone --toc --metadata title="$(head -1 "$h" | sed 's/^# *//')" -o "$out/handouts/$(basename "${h%.md}").html" "$h"
  done
  echo "docs: handouts in $out/handouts/"
else
  echo "docs: pandoc not found, handouts not rendered (read the Markdown in handouts/)"
fi
