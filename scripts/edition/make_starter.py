#!/usr/bin/env python3
"""Generate starter/ from reference/: every solution region becomes a TODO.

In a reference file, a solution region is written as

    // BEGIN SOLUTION(step 2: one-line hint for the student)
    // STARTER: kit::todo("02-csr", 2, "csr_vector_spmv");
    ... the solution ...
    // END SOLUTION

and the starter gets, at the same indentation,

    // TODO(02-csr step 2): one-line hint for the student
    kit::todo("02-csr", 2, "csr_vector_spmv");

`// STARTER:` lines are optional; they make a stub fail loudly (throw a TodoError naming
the step) instead of silently returning an unchanged y.

Usage: make_starter.py REFERENCE_DIR STARTER_DIR [--check]
With --check nothing is written; the exit status is 1 if STARTER_DIR is out of date.
"""
import argparse
import filecmp
import os
import re
import shutil
import sys
import tempfile

BEGIN = re.compile(r"^(\s*)//\s*BEGIN SOLUTION\((?:step (\d+):\s*)?(.*)\)\s*$")
END = re.compile(r"^\s*//\s*END SOLUTION\s*$")
STARTER = re.compile(r"^\s*//\s*STARTER:\s?(.*)$")


def convert(text, lab, path):
    out, region, line_no = [], None, 0
    for line in text.splitlines(keepends=True):
        line_no += 1
        begin = BEGIN.match(line)
        if begin:
            if region is not None:
                sys.exit(f"{path}:{line_no}: BEGIN SOLUTION inside another solution region")
            indent, step, hint = begin.groups()
            label = f"{lab} step {step}" if step else lab
            out.append(f"{indent}// TODO({label}): {hint}\n")
            region = indent
            continue
        if END.match(line):
            if region is None:
                sys.exit(f"{path}:{line_no}: END SOLUTION without BEGIN SOLUTION")
            region = None
            continue
        if region is not None:
            starter = STARTER.match(line)
            if starter:
                out.append(f"{region}{starter.group(1)}\n")
            continue
        out.append(line)
    if region is not None:
        sys.exit(f"{path}: unterminated solution region")
    return "".join(out)


def generate(reference, target):
    for lab in sorted(os.listdir(reference)):
        src_dir = os.path.join(reference, lab)
        if not os.path.isdir(src_dir):
            continue
        for name in sorted(os.listdir(src_dir)):
            src = os.path.join(src_dir, name)
            with open(src, encoding="utf-8") as f:
                text = f.read()
            os.makedirs(os.path.join(target, lab), exist_ok=True)
            with open(os.path.join(target, lab, name), "w", encoding="utf-8") as f:
                f.write(convert(text, lab, src))


def differences(expected, actual):
    cmp = filecmp.dircmp(expected, actual)
    found = []

    def walk(c, prefix):
        found.extend(f"missing in starter/: {prefix}{n}" for n in c.left_only)
        found.extend(f"not in reference/: {prefix}{n}" for n in c.right_only)
        found.extend(f"out of date: {prefix}{n}" for n in c.diff_files)
        for name, sub in c.subdirs.items():
            walk(sub, f"{prefix}{name}/")

    walk(cmp, "")
    # dircmp compares shallowly by os.stat; confirm byte by byte
    return [d for d in found if not d.startswith("out of date") or not filecmp.cmp(
        os.path.join(expected, d.split(": ", 1)[1]), os.path.join(actual, d.split(": ", 1)[1]), shallow=False)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reference")
    ap.add_argument("starter")
    ap.add_argument("--check", action="store_true", help="only report whether starter/ is up to date")
    args = ap.parse_args()
    if not os.path.isdir(args.reference):
        # The student edition has no reference/: its starter/ is the student's work, never rewritten.
        print(f"starter: there is no {args.reference}/ here (the student edition has none), so there is nothing "
              f"to generate {args.starter}/ from; your files in {args.starter}/ are left as they are", file=sys.stderr)
        return 2
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            generate(args.reference, tmp)
            diff = differences(tmp, args.starter) if os.path.isdir(args.starter) else ["starter/ is missing"]
        if diff:
            print("check-starter: starter/ is out of date with reference/; run 'make starter'.")
            for d in diff:
                print("  " + d)
            return 1
        print("check-starter: starter/ matches reference/")
        return 0
    # Generated beside it first: a generation that fails leaves the old starter/ whole.
    fresh = tempfile.mkdtemp(prefix=".starter-new-", dir=os.path.dirname(os.path.abspath(args.starter)))
    try:
        generate(args.reference, fresh)
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    if os.path.isdir(args.starter):
        shutil.rmtree(args.starter)
    os.rename(fresh, args.starter)
    os.chmod(args.starter, 0o755)
    print(f"starter: wrote {args.starter}/ from {args.reference}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
