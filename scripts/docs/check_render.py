#!/usr/bin/env python3
"""Check the built handouts as a reader would see them.

  check_render.py DOCS_DIR [--handouts DIR] [--png DIR]

For every handouts/NN-name.md, in DOCS_DIR/handouts/:
  HTML  NN-name.html exists, shows the title once (no second heading repeating it) and has
        a contents list with links;
  PDF   NN-name.pdf has pages; every page, rendered to an image (pdftoppm), has ink in its
        text area (not blank) and is not mostly dark (a broken render); no word lies past
        the paper's edge (cut off); every line of every figure (a ``` block with no
        language) comes out of the PDF whole, on one line, so no figure was wrapped.
Page 1 of each PDF is also written as NN-name-page1.png to --png (default DOCS_DIR/render/)
for a person to look at. Prints one line per problem and a summary; exit status 1 on any.
Needs pdfinfo, pdftoppm and pdftotext (poppler-utils).
"""
import argparse
import glob
import html
import os
import re
import subprocess
import sys
import tempfile

DPI = 40                 # enough to tell text from blank paper, quick for ~60 pages
MARGIN_MM = 18           # top and bottom page margins of handout.css: running header/footer
MIN_INK = 0.0005         # share of dark pixels in the text area below which a page is blank
MAX_INK = 0.60           # above this the page is mostly dark: a broken render
DARK = 200               # gray level (0-255) counted as ink


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def read_pgm(path):
    """(width, height, bytes) of a binary 8-bit PGM as pdftoppm -gray writes it."""
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:  # magic, width, height, maxval, separated by whitespace/comments
        m = re.compile(rb"\s*(#[^\n]*\n\s*)*(\S+)").match(data, pos)
        fields.append(m.group(2))
        pos = m.end()
    if fields[0] != b"P5" or fields[3] != b"255":
        raise ValueError(f"{path}: not an 8-bit binary PGM")
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[pos + 1:pos + 1 + w * h]


def ink_share(path):
    """Share of dark pixels between the top and bottom margins (header and footer excluded)."""
    w, h, px = read_pgm(path)
    margin = int(MARGIN_MM / 25.4 * DPI)
    body = px[margin * w:(h - margin) * w]
    if not body:
        return 0.0
    return sum(1 for b in body if b < DARK) / len(body)


def figure_lines(md_path):
    """Lines of the ``` blocks without a language: drawings and program output."""
    lines, inside, plain = [], False, False
    with open(md_path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("```"):
                if not inside:
                    inside, plain = True, line.strip() == "```"
                else:
                    inside = False
                continue
            if inside and plain and line.strip():
                lines.append(line)
    return lines


def squash(s):
    return " ".join(s.split())


def check_html(path, title, problems):
    text = open(path, encoding="utf-8").read()
    titles = re.findall(r'<h1 class="title">(.*?)</h1>', text, re.S)
    if len(titles) != 1:
        problems.append(f"{path}: {len(titles)} title headings, expected 1")
    heads = [squash(html.unescape(re.sub(r"<[^>]+>", "", h)))
             for h in re.findall(r"<h[1-6][^>]*>(.*?)</h[1-6]>", text, re.S)]
    if heads.count(squash(title)) != 1:
        problems.append(f"{path}: the title '{title}' appears as {heads.count(squash(title))} headings, expected 1")
    nav = re.search(r'<nav id="contents".*?</nav>', text, re.S)
    if not nav or len(re.findall(r"<a href=", nav.group(0))) < 1:
        problems.append(f"{path}: no contents list with links")


def check_pdf(path, md, png_dir, problems):
    info = run(["pdfinfo", path])
    m = re.search(r"^Pages:\s+(\d+)", info.stdout, re.M)
    pages = int(m.group(1)) if m else 0
    if info.returncode != 0 or pages < 1:
        problems.append(f"{path}: no pages (pdfinfo: {info.stderr.strip() or 'no page count'})")
        return 0
    size = re.search(r"^Page size:\s+([\d.]+) x ([\d.]+)", info.stdout, re.M)
    page_w = float(size.group(1)) if size else 595.0
    with tempfile.TemporaryDirectory() as tmp:
        r = run(["pdftoppm", "-gray", "-r", str(DPI), path, os.path.join(tmp, "p")])
        images = sorted(glob.glob(os.path.join(tmp, "p-*.pgm")))
        if r.returncode != 0 or len(images) != pages:
            problems.append(f"{path}: {len(images)} of {pages} pages rendered ({r.stderr.strip()})")
        for i, img in enumerate(images, 1):
            share = ink_share(img)
            if share < MIN_INK:
                problems.append(f"{path}: page {i} is blank (ink {share:.4%} of its text area)")
            elif share > MAX_INK:
                problems.append(f"{path}: page {i} is mostly dark (ink {share:.1%}): a broken render")
    name = os.path.splitext(os.path.basename(path))[0]
    r = run(["pdftoppm", "-png", "-r", "70", "-f", "1", "-l", "1", "-singlefile", path,
             os.path.join(png_dir, f"{name}-page1")])
    if r.returncode != 0 or not os.path.getsize(os.path.join(png_dir, f"{name}-page1.png")):
        problems.append(f"{path}: page 1 did not render to PNG ({r.stderr.strip()})")

    # Cut off: a word whose box ends past the paper's right edge.
    bbox = run(["pdftotext", "-bbox", path, "-"]).stdout
    over = [html.unescape(w) for x, w in re.findall(r'<word xMin="[\d.-]+" yMin="[\d.-]+" xMax="([\d.-]+)"[^>]*>(.*?)</word>', bbox)
            if float(x) > page_w + 0.5]
    if over:
        problems.append(f"{path}: {len(over)} words run past the paper's edge, e.g. {over[:3]}")
    # Figures keep their shape: each figure line is found whole on one line of the PDF.
    text_lines = {squash(l) for l in run(["pdftotext", "-layout", path, "-"]).stdout.splitlines()}
    joined = "\n".join(text_lines)
    broken = [l for l in figure_lines(md) if squash(l) not in joined]
    if broken:
        problems.append(f"{path}: {len(broken)} figure lines are not whole on one PDF line (wrapped?), "
                        f"e.g. '{broken[0].strip()}'")
    return pages


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("docs")
    ap.add_argument("--handouts", default="handouts")
    ap.add_argument("--png")
    args = ap.parse_args()
    png_dir = args.png or os.path.join(args.docs, "render")
    os.makedirs(png_dir, exist_ok=True)
    problems, counts = [], []
    sources = sorted(glob.glob(os.path.join(args.handouts, "*.md")))
    if not sources:
        problems.append(f"no handouts in {args.handouts}/")
    for md in sources:
        name = os.path.splitext(os.path.basename(md))[0]
        with open(md, encoding="utf-8") as f:
            title = f.readline().strip().lstrip("#").strip()
        out = os.path.join(args.docs, "handouts", name)
        if os.path.isfile(out + ".html"):
            check_html(out + ".html", title, problems)
        else:
            problems.append(f"{out}.html is missing")
        if os.path.isfile(out + ".pdf"):
            counts.append(f"{name} {check_pdf(out + '.pdf', md, png_dir, problems)}")
        else:
            problems.append(f"{out}.pdf is missing")
    for p in problems:
        print(f"  FAIL  {p}")
    print(f"render: {len(sources)} handouts; PDF pages: {', '.join(counts) or 'none'}; "
          f"page 1 of each in {png_dir}/")
    print(f"render: {'OK' if not problems else f'{len(problems)} problems'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
