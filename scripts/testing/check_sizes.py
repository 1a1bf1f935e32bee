#!/usr/bin/env python3
"""Checks that every piece of the kit stays small enough to read in one sitting.

    check_sizes.py [ROOT]

Fails, naming the folder, or the file and line, on:

  - a folder of library code holding more than 20 source files (labs/common/ROLE/, cli/,
    bench/, labs/NN-x/, reference/NN-x/, grader/kitgrader/, scripts/ROLE/);
  - a source file (.cpp .hpp .cu .cl .py .sh) over 500 lines;
  - a C++, CUDA or OpenCL function (a GoogleTest TEST body included) over 60 lines, from its
    name's line to its closing brace; lambdas and local classes count toward the function
    around them;
  - a Python function over 60 lines, from its `def` to its last line.

starter/ is left out (make starter generates it from reference/), and so are the grader's
test submissions (tests/grader/submissions/: fixtures, not kit code). Only the standard
library is used: C++ is read by a small tokenizer that blanks comments, strings, character
literals and preprocessor lines, then matches braces; a `{` at namespace or class scope that
follows `)` (then optionally const, noexcept, override, `-> type` or a constructor's
initializer list) opens a function body. Exit status 1 on any violation.
"""
import ast
import bisect
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "labs"))
from lab_manifests import LAB_NAME_ERE  # noqa: E402

MAX_FOLDER_FILES = 20
MAX_FILE_LINES = 500
MAX_FUNCTION_LINES = 60
CPP_SUFFIXES = (".cpp", ".hpp", ".cu", ".cl", ".h", ".cuh")
SOURCE_SUFFIXES = CPP_SUFFIXES + (".py", ".sh")
LEFT_OUT = re.compile(r"^(starter|tests/grader/submissions|build[^/]*|\.git)(/|$)|(^|/)__pycache__/")
# Folders of library code.
LIBRARY_FOLDERS = re.compile(rf"^(labs/common/[^/]+|cli|bench|labs/{LAB_NAME_ERE}|reference/{LAB_NAME_ERE}|"
                             r"grader/kitgrader|scripts/[^/]+)$")


# ---------------------------------------------------------------- the files

def source_files(root):
    """Relative paths of the tree's source files: git's view (tracked and new, not ignored)
    where there is one, else every file under root."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard"],
                             capture_output=True, text=True, check=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        out = []
        for d, dirs, files in os.walk(root):
            rel = os.path.relpath(d, root)
            dirs[:] = [x for x in dirs if not LEFT_OUT.search(os.path.normpath(os.path.join(rel, x)) + "/")]
            out += [os.path.normpath(os.path.join(rel, f)) for f in files]
    return sorted(p for p in set(out) if p.endswith(SOURCE_SUFFIXES) and not LEFT_OUT.search(p)
                  and os.path.isfile(os.path.join(root, p)))


def folder_violations(paths):
    counts = {}
    for p in paths:
        folder = os.path.dirname(p)
        if LIBRARY_FOLDERS.match(folder):
            counts[folder] = counts.get(folder, 0) + 1
    return [f"{folder}/: {n} source files (limit {MAX_FOLDER_FILES})"
            for folder, n in sorted(counts.items()) if n > MAX_FOLDER_FILES]


# ---------------------------------------------------------------- C++: blanking what is not code

def _blank(chars, start, end):
    for i in range(start, end):
        if chars[i] != "\n":
            chars[i] = " "


def _end_of_comment(text, i):
    if text.startswith("//", i):
        end = text.find("\n", i)
        return len(text) if end < 0 else end
    end = text.find("*/", i + 2)
    return len(text) if end < 0 else end + 2


def _end_of_directive(text, i):
    """A preprocessor line, with its backslash continuations and any comment in it."""
    while i < len(text) and text[i] != "\n":
        if text.startswith("/*", i):
            i = _end_of_comment(text, i)
            continue
        if text[i] == "\\" and text.startswith("\n", i + 1):
            i += 2
            continue
        i += 1
    return i


def _end_of_quoted(text, i):
    """A string or character literal starting at text[i] (a quote); a raw string too."""
    quote = text[i]
    if quote == '"' and i > 0 and text[i - 1] == "R":
        open_paren = text.find("(", i)
        if 0 < open_paren - i <= 17:
            ending = ")" + text[i + 1:open_paren] + '"'
            close = text.find(ending, open_paren)
            return len(text) if close < 0 else close + len(ending)
    j = i + 1
    while j < len(text) and text[j] not in (quote, "\n"):
        j += 2 if text[j] == "\\" else 1
    return min(j + 1, len(text))


def _is_digit_separator(text, i):
    """A quote inside a number (1'000'000) is no character literal."""
    j = i
    while j > 0 and (text[j - 1].isalnum() or text[j - 1] in "_.'"):
        j -= 1
    return j < i and text[j].isdigit()


def code_only(text):
    """text with comments, literals and preprocessor lines blanked; newlines kept, so a
    position's line number is unchanged."""
    chars, i, line_start = list(text), 0, True
    while i < len(text):
        c = text[i]
        if c == "\n":
            line_start, i = True, i + 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if c == "#" and line_start:
            end = _end_of_directive(text, i)
        elif text.startswith("//", i) or text.startswith("/*", i):
            end = _end_of_comment(text, i)
        elif c == '"' or (c == "'" and not _is_digit_separator(text, i)):
            end = _end_of_quoted(text, i)
        else:
            line_start, i = False, i + 1
            continue
        _blank(chars, i, end)
        line_start, i = False, end
    return "".join(chars)


# ---------------------------------------------------------------- C++: functions from braces

TOKEN = re.compile(r"[A-Za-z_]\w*|\d[\w'.]*|->|::|&&|\S")
QUALIFIERS = {"const", "volatile", "noexcept", "override", "final", "mutable", "&", "&&", "throw"}
CLASS_KEYS = {"class", "struct", "union", "enum"}


def tokens(code):
    """(token, line) pairs of blanked C++ code."""
    newlines = [m.start() for m in re.finditer("\n", code)]
    return [(m.group(), bisect.bisect_left(newlines, m.start()) + 1) for m in TOKEN.finditer(code)]


def _top_level(toks, start):
    """(index, token) of the tokens outside any parentheses or brackets, from start on."""
    depth = 0
    for k in range(start, len(toks)):
        if toks[k] in ")]":
            depth -= 1
        if depth == 0:
            yield k, toks[k]
        if toks[k] in "([":
            depth += 1


def _parameters_close(toks):
    """Index of the `)` closing a function's parameters when the statement's last tokens are
    `) qualifiers`, `) -> type` or a constructor's `) : member(x), member{y}` (what precedes a
    function body), else None."""
    top = list(_top_level(toks, 0))
    closes = [k for k, t in top if t == ")"]
    if not closes:
        return None
    # A trailing return type, or an initializer list after the parameters (`:` at top level).
    for k, t in top:
        if t in ("->", ":") and any(c < k for c in closes):
            close = max(c for c in closes if c < k)
            # After an initializer list the body follows `member(x)` or `member{y}`; a `{`
            # after a member's name opens its brace initializer instead.
            if all(u in QUALIFIERS for j, u in top if close < j < k) and (t == "->" or toks[-1] in (")", "{}")):
                return close
    if all(t in QUALIFIERS for k, t in top if k > closes[-1]):
        return closes[-1]
    return None


def _opening(toks, close):
    depth = 0
    for k in range(close, -1, -1):
        depth += {")": 1, "(": -1}.get(toks[k], 0)
        if depth == 0:
            return k
    return 0


def _opens_namespace(toks):
    """`namespace`, `namespace a::b`, `inline namespace v1` or `extern "C"` (its string blanked)."""
    if toks[-1] == "extern":
        return True
    if "namespace" not in toks:
        return False
    last = len(toks) - 1 - toks[::-1].index("namespace")
    return all(t == "::" or t.isidentifier() for t in toks[last + 1:])


def classify(statement):
    """What a `{` at namespace or class scope opens: ('ns' | 'class' | 'block', None) or
    ('func', index of the `(` opening its parameters)."""
    toks = [t for t, _ in statement]
    if not toks:
        return "block", None
    if _opens_namespace(toks):
        return "ns", None
    close = _parameters_close(toks)
    if close is not None:
        return "func", _opening(toks, close)
    return ("class" if CLASS_KEYS & set(toks) else "block"), None


def function_name(statement, open_paren):
    """(name, line) of a function: the token before its parameters; a macro (TEST) with its
    arguments."""
    if open_paren == 0:
        return statement[0]
    name, line = statement[open_paren - 1]
    toks = [t for t, _ in statement]
    if "operator" in toks[max(0, open_paren - 4):open_paren]:
        at = open_paren - 1 - toks[open_paren - 1::-1].index("operator")
        return "".join(toks[at:open_paren]).replace("operator", "operator "), statement[at][1]
    if re.match(r"^[A-Z][A-Z0-9_]{2,}$", name):  # a macro such as TEST(Suite, Name)
        close = open_paren + 1
        depth = 1
        while close < len(toks) and depth:
            depth += {"(": 1, ")": -1}.get(toks[close], 0)
            close += 1
        args = " ".join(toks[open_paren + 1:close - 1]).replace(" ,", ",").replace(" :: ", "::")
        name = f"{name}({args})"
    return name, line


class Scope:
    def __init__(self, kind, outer_statement, name=None, line=0):
        self.kind, self.outer_statement, self.name, self.line = kind, outer_statement, name, line


def cpp_functions(code):
    """(name, first line, last line) of every function body in blanked C++ code."""
    found, stack, statement = [], [], []
    for tok, line in tokens(code):
        at_declarations = not stack or stack[-1].kind in ("ns", "class")
        if tok == "{":
            if not at_declarations:
                stack.append(Scope("inner", None))
                continue
            kind, open_paren = classify(statement)
            name, first = function_name(statement, open_paren) if kind == "func" else (None, line)
            stack.append(Scope(kind, statement, name, first))
            statement = []
        elif tok == "}":
            if not stack:
                continue
            scope = stack.pop()
            if scope.kind == "func":
                found.append((scope.name, scope.line, line))
            if scope.kind in ("func", "ns"):
                statement = []
            elif scope.kind in ("class", "block"):
                statement = scope.outer_statement + [("{}", line)]
        elif at_declarations:
            if tok == ";":
                statement = []
            elif tok == ":" and [t for t, _ in statement] in (["public"], ["private"], ["protected"]):
                statement = []
            else:
                statement.append((tok, line))
    return found


# ---------------------------------------------------------------- the checks per file

def python_functions(text, path):
    tree = ast.parse(text, filename=path)
    return [(n.name, n.lineno, n.end_lineno) for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def file_violations(root, path):
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        text = f.read()
    out = []
    n_lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if n_lines > MAX_FILE_LINES:
        out.append(f"{path}:{MAX_FILE_LINES + 1}: file has {n_lines} lines (limit {MAX_FILE_LINES})")
    if path.endswith(CPP_SUFFIXES):
        functions = cpp_functions(code_only(text))
    elif path.endswith(".py"):
        try:
            functions = python_functions(text, path)
        except SyntaxError as e:
            return out + [f"{path}:{e.lineno}: cannot parse: {e.msg}"]
    else:
        functions = []
    for name, first, last in sorted(functions, key=lambda f: f[1]):
        if last - first + 1 > MAX_FUNCTION_LINES:
            out.append(f"{path}:{first}: function {name} is {last - first + 1} lines (limit {MAX_FUNCTION_LINES})")
    return out


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    paths = source_files(root)
    problems = folder_violations(paths)
    for p in paths:
        problems += file_violations(root, p)
    for p in problems:
        print(p)
    if problems:
        print(f"check-sizes: {len(problems)} violation(s): folders over {MAX_FOLDER_FILES} source files, files over "
              f"{MAX_FILE_LINES} lines, functions over {MAX_FUNCTION_LINES} lines")
        return 1
    print(f"check-sizes: OK, {len(paths)} source files within the limits")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
