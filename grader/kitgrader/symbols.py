"""What a student's object files may define and call, checked with nm before any test runs.

The verdicts do not depend on this check: they are decided by a judge that never links or
runs student code (see gtest.py). The check keeps student code away from what SpMV code never
needs (files, processes, signals, the environment, dynamic loading, threads) and from the
kit's own answers (the oracle, the registry, the checked run), and it is deterministic: it
looks at names only, never at sizes, inlining, file order or build flags. For each object
compiled from a student file (the .cl files included: they are embedded into generated C++)
the grader checks that:

  - no symbol, defined or called, belongs to GoogleTest (`testing::`) or to the kit's test
    support (`kit::testing::`);
  - every call (a strong or weak undefined symbol) goes to the kit itself (a function the
    instructor's objects define), except the kit's oracle, registry, checked run and file
    readers and writers; to the C++ runtime and standard library (file streams, threads and
    filesystem excepted); to the compiler's runtime helpers (`__popcountdi2`, ...); to maths,
    memory and printing functions of the C library; or to the CUDA and OpenCL APIs; and, in a
    lab whose tests run under mpirun (its manifest's "mpi_ranks": lab 10), to MPI's
    communication (Open MPI's predefined handles included) and to NCCL, but not to MPI's
    files, process spawning, ports, start, end or abort;
  - every definition is a C++ name outside the standard library and the test namespaces
    (or one that nvcc or the kit's .cl embedding generates), and none replaces a strong
    definition's weak partner: a strong definition of a name the instructor's objects hold
    only as weak copies (an inline function of the kit) is refused. Weak copies of the kit's
    inline functions are what any compiler makes of the kit's headers: they are allowed,
    and the link puts the student's objects last, so the kit's own copies are the ones kept.

A submission that breaks a rule is not run at all: the lab scores 0, and the reason (the
symbol and the rule) goes to the student and, as a review flag, to the instructor.
"""
import os
import re
import subprocess
from pathlib import Path

TEST_NAMESPACES = re.compile(r"(^|[^A-Za-z0-9_])(kit::)?testing::|\bgtest|\bGTEST")

# C library and runtime functions lab code may call (unmangled names).
C_CALLS = re.compile(r"""^(
    (sqrt|cbrt|fabs|fma|exp|exp2|expm1|log|log2|log10|log1p|pow|sin|cos|tan|floor|ceil|round|lround|llround
     |trunc|fmin|fmax|hypot|nextafter|ldexp|frexp|copysign|nan|fmod|modf|rint|lrint|ilogb|scalbn)[fl]?
    |abs|labs|llabs|div|ldiv
    |mem(cpy|move|set|cmp|chr)|__mem(cpy|move|set)_chk|str(len|cmp|ncmp|chr|rchr|nlen|tod|tol|toul|toull)
    |malloc|calloc|realloc|free|aligned_alloc|posix_memalign|qsort|bsearch|rand|srand|rand_r
    |printf|puts|putchar|fprintf|fputs|fputc|fwrite|fflush|vprintf|vfprintf|snprintf|vsnprintf|sprintf
    |__printf_chk|__fprintf_chk|__sprintf_chk|__snprintf_chk|__vsnprintf_chk|__vfprintf_chk|__vprintf_chk
    |stdout|stderr|__errno_location|clock|clock_gettime|time|__assert_fail|__stack_chk_fail
    |__cxa_[a-z_]+|__gxx_personality_v0|_Unwind_Resume|__dso_handle|atexit|__tls_get_addr|_GLOBAL_OFFSET_TABLE_
    |cuda[A-Z][A-Za-z0-9_]*|__cuda[A-Za-z0-9_]*|__nv[A-Za-z0-9_]*|__fatbinwrap[A-Za-z0-9_]*
    |cl[A-Z][A-Za-z0-9_]*
)$""", re.X)

# MPI and NCCL, for the labs whose tests run under mpirun (comm=True): messages, collectives,
# communicators, requests and datatypes; Open MPI's predefined handles are data symbols
# (ompi_mpi_double, ompi_mpi_comm_world, ompi_request_null). MPICH's handles are constants.
COMM_CALLS = re.compile(r"^(P?MPI_[A-Z][A-Za-z0-9_]*|ompi_mpi_[a-z0-9_]+|ompi_request_null|ompi_message_null"
                        r"|nccl[A-Z][A-Za-z0-9_]*)$")
# What SpMV's messages never need: MPI's files, spawned processes, ports and name service (a way
# out of the sandbox's ranks), and the start, end and abort of MPI, which the kit owns.
COMM_DENIED = re.compile(r"^P?MPI_(File_|Comm_spawn|Open_port|Close_port|Comm_connect|Comm_accept|Comm_join"
                         r"|Publish_name|Unpublish_name|Lookup_name|Register_datarep|Init|Finalize|Abort"
                         r"|Session_)")

# The compiler's runtime helpers (libgcc, and the C library's flag that libstdc++'s inline code
# reads): honest code reaches them through builtins (__builtin_popcount), 128-bit or complex
# arithmetic, or a std::shared_ptr copy.
RUNTIME_HELPERS = re.compile(r"""^(
    __(popcount|parity|clz|ctz|ffs|bswap|clrsb)[sdt]i2
    |__(u?div|u?mod|udivmod|mul|ashl|ashr|lshr|neg|u?cmp|abs|addv|subv|mulv|negv)[sdt]i[234]
    |__(mul|div)[sdxt]c3|__powi[sdxt]f2
    |__fix(uns)?[hsdxt]f[sdt]i|__float(un|uns)?[sdt]i[hsdxt]f|__(extend|trunc)[hsdxt]f[hsdxt]f2
    |__libc_single_threaded|__cpu_model|__cpu_features2|__cpu_indicators_init
    |pthread_(once|mutex_lock|mutex_unlock|mutex_trylock|key_create|getspecific|setspecific)
    |__pthread_key_create|__gthrw_[a-z_]+
)$""", re.X)

# Kit functions student code never needs, and which would hand it the kit's answers or the
# file system: the oracle, the registry, the checked run and the format model's hook, and any
# reader or writer (read_*, write_*, load_*, save_*, and methods named read, write, ...).
KIT_DENIED = re.compile(r"^kit::(.*::)?(oracle_spmv|compare_with_oracle|registry|Registry::|Reference::|run_checked"
                        r"|set_format_model|(read|write|load|save)(_[A-Za-z0-9_]*)?)\b")

# Standard-library names that touch files or start threads (demangled).
STD_DENIED = re.compile(r"std::(__cxx11::)?basic_(o|i|)fstream|std::basic_filebuf|std::__basic_file|std::filesystem"
                        r"|std::thread|std::__fs|std::system_error|std::random_device")

# Definitions that nvcc and the .cl embedding write, which are not C++ names.
GENERATED_DEFS = re.compile(r"^(kit_cl_[A-Za-z0-9_]+|__cuda[A-Za-z0-9_]*|__nv[A-Za-z0-9_]*|__fatbinwrap[A-Za-z0-9_]*"
                            r"|DW\.ref\.__gxx_personality_v0)$")
OPERATOR_NEW_DELETE = re.compile(r"^_Z(nw|na|dl|da)")
STD_MANGLED = re.compile(r"^_Z(N|NK|T[ISV])?(St|Sa|Sb|Ss|Si|So|Sd|N10__cxxabiv1|N9__gnu_cxx)")


def object_dir(tree):
    """build/obj-<features>, the object folder of the tree's last build (named in build/.features)."""
    try:
        feats = dict(kv.split("=", 1) for kv in (Path(tree) / "build" / ".features").read_text().split() if "=" in kv)
    except OSError:
        feats = {}
    return Path("build") / feats.get("objdir", "obj")


def student_objects(tree, lab):
    """The objects compiled from the student's files of lab."""
    objs = []
    base = object_dir(tree)
    for sub in (base / "starter" / lab, base / "gen" / "starter" / lab):
        objs += sorted((Path(tree) / sub).glob("*.o"))
    return objs


def trusted_objects(tree, lab):
    """Every other object of the tree: the kit, the labs' host code, the tests."""
    mine = {p.resolve() for p in student_objects(tree, lab)}
    out = []
    base = Path(tree) / object_dir(tree)
    for dirpath, _, filenames in os.walk(base):
        rel = Path(dirpath).relative_to(base).as_posix()
        if rel.startswith(("starter", "gen/starter")):
            continue
        out += [Path(dirpath, f) for f in filenames if f.endswith(".o") and Path(dirpath, f).resolve() not in mine]
    return sorted(out)


def _nm(paths):
    """{path: [(name, demangled, type)]} for the non-local symbols of each object."""
    result = {str(p): [] for p in paths}
    if not paths:
        return result
    raw = subprocess.run(["nm", "-A", "-P", *map(str, paths)], capture_output=True, text=True,
                         errors="replace").stdout.splitlines()
    names = sorted({line.split(": ", 1)[1].split(" ", 1)[0] for line in raw if ": " in line})
    plain = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True,
                           errors="replace").stdout.splitlines()
    demangled = dict(zip(names, plain)) if len(plain) == len(names) else {n: n for n in names}
    for line in raw:
        if ": " not in line:
            continue
        path, rest = line.split(": ", 1)
        fields = rest.split()
        if len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        if kind.islower() and kind not in "uvwi":  # local symbols cannot reach other objects
            continue
        if kind in "vw":  # weak undefined: a call all the same, resolved where a definition exists
            kind = "U"
        result.setdefault(path, []).append((name, demangled.get(name, name), kind))
    return result


class TrustedSymbols:
    """What the instructor's objects of one lab define: {name: nm kind}, a strong kind where any is strong."""

    def __init__(self, tree, lab):
        self.defs = {}
        for syms in _nm(trusted_objects(tree, lab)).values():
            for name, _, kind in syms:
                if kind != "U":
                    prev = self.defs.get(name)
                    # A strong definition anywhere is what a student copy would have to beat.
                    if prev is None or (kind in "TDBRGS" and prev not in "TDBRGS"):
                        self.defs[name] = kind


def _call_refusal(name, plain, trusted, comm=False):
    """The rule a call breaks, in words, or None when lab code may make it. comm: the lab's
    tests run under mpirun, so MPI's communication and NCCL are its tools."""
    if KIT_DENIED.match(plain):
        return "the kit's oracle, registry, checked run and file readers and writers are the grader's"
    if comm and COMM_DENIED.match(name):
        return "MPI's messages and collectives only: no files, spawned processes, ports, start, end or abort"
    if comm and COMM_CALLS.match(name):
        return None
    if name in trusted.defs or C_CALLS.match(name) or RUNTIME_HELPERS.match(name):
        return None
    if OPERATOR_NEW_DELETE.match(name) or STD_MANGLED.match(name):
        return "no files, threads or system errors from the standard library" if STD_DENIED.search(plain) else None
    if name.startswith(("_ZN2cl", "_ZNK2cl")):  # the OpenCL C++ bindings
        return None
    return "only the kit, the C++ and C runtime, maths, memory, printing, CUDA and OpenCL" + (", MPI and NCCL" if comm else "")


def _shortened(plain, limit=160):
    """A demangled name cut to a readable length (a long signature must not hide the rule)."""
    return plain if len(plain) <= limit else plain[:limit - 5] + "(...)"


def _definition_problem(name, plain, kind, trusted):
    weak = kind in "WVui"
    if not name.startswith("_Z"):
        return None if GENERATED_DEFS.match(name) else f"defines the C-level name {_shortened(plain)}"
    if OPERATOR_NEW_DELETE.match(name):
        return f"replaces {_shortened(plain)}"
    if STD_MANGLED.match(name) and not weak:
        return f"defines the standard library's {_shortened(plain)}"
    their_kind = trusted.defs.get(name)
    if their_kind is None:
        return None
    if not weak and their_kind not in "TDBRGS":
        return f"replaces the kit's or GoogleTest's {_shortened(plain)}"
    return None


def check(tree, lab, trusted=None, comm=False):
    """Problems of the student's objects of lab: [(object file name, problem)]; [] when clean.
    comm: the lab's tests run under mpirun (its manifest's "mpi_ranks"): MPI and NCCL allowed."""
    trusted = trusted or TrustedSymbols(tree, lab)
    objects = _nm(student_objects(tree, lab))
    # The student's files may call each other (a .cu calling a helper of a .cpp).
    own = {name for syms in objects.values() for name, _, kind in syms if kind != "U"}
    problems = []
    for path, syms in objects.items():
        obj = Path(path).name
        seen = set()
        for name, plain, kind in syms:
            if TEST_NAMESPACES.search(plain) or TEST_NAMESPACES.search(name):
                why = f"uses GoogleTest or the kit's test support: {_shortened(plain)}"
            elif kind == "U":
                rule = None if name in own else _call_refusal(name, plain, trusted, comm)
                why = rule and f"calls {_shortened(plain)}, which lab code may not use ({rule})"
            else:
                why = _definition_problem(name, plain, kind, trusted)
            if why and why not in seen:
                seen.add(why)
                problems.append((obj, why))
    return problems
