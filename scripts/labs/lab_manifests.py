#!/usr/bin/env python3
"""The labs as every script of the kit sees them: their names and their manifests.

    lab_manifests.py names [KIT]           the labs, one a line
    lab_manifests.py gpu-tests LAB [KIT]   the names of the lab's tests that need a GPU, one a line
    lab_manifests.py mpi-ranks LAB [KIT]   the rank counts its test programs run at under mpirun
                                           (the manifest's "mpi_ranks"), one a line; none: run alone
    lab_manifests.py steps LAB [KIT]       the lab's step numbers, one a line (make test STEP=N)

KIT is the kit's folder, by default the one holding this script.

A lab is a folder labs/NN-name whose name matches the pattern in lab_name.ere (an extended
regular expression, read as it is by this module, the Makefile and the shell scripts). Its
labs/NN-name/manifest.json lists its student files, steps, and tests with their points.
Everything that reads a manifest, or the list of tests a binary holds to compare with it,
reads it here: the grader (grader/kitgrader/labs.py, which checks it strictly), the manifest
check of `make test` (scripts/testing/check_manifests.py), the job generator
(jobs/gen_jobs.py), the lab job (jobs/run_on_node.sh, through `gpu-tests`), the docs
(scripts/docs/make_docs.sh, through `names`) and the grader's tests.
"""
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
KIT = HERE.parent.parent
LAB_NAME_ERE = (HERE / "lab_name.ere").read_text(encoding="utf-8").strip()
LAB_NAME = re.compile(f"^{LAB_NAME_ERE}$")
# A failure message naming its lab step ("02-csr step 3: ..."), as every kit test writes it.
LAB_STEP = re.compile(rf"\b{LAB_NAME_ERE} step [0-9]+")


class ManifestError(Exception):
    """A lab manifest that cannot be read or trusted (an instructor-side problem)."""


def lab_names(kit=KIT):
    """The labs of the kit at kit, in order: the folders of labs/ named like a lab."""
    labs = Path(kit, "labs")
    if not labs.is_dir():
        return []
    return sorted(p.name for p in labs.iterdir() if p.is_dir() and LAB_NAME.match(p.name))


def manifest_path(kit, lab):
    return Path(kit, "labs", lab, "manifest.json")


def read_manifest(path):
    """The manifest at path as a dict. Raises ManifestError naming the file."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ManifestError(f"{path}: unreadable manifest: {e}") from e


def gpu_tests(manifest):
    """Names of the manifest's tests that need a GPU."""
    return [t.get("name") for t in manifest.get("tests", []) if t.get("gpu")]


def mpi_ranks(manifest):
    """The rank counts at which the lab's test programs run under mpirun ("mpi_ranks": [1, 2, 4]);
    [] for a lab whose programs run as one plain process. Raises ManifestError on a bad entry."""
    ranks = manifest.get("mpi_ranks", [])
    if not isinstance(ranks, list) or not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 64
                                              for n in ranks):
        raise ManifestError(f"'mpi_ranks' must be a list of rank counts 1..64, not {ranks!r}")
    return ranks


def listed_tests(gtest_list_output):
    """Suite.Name of every test in a test binary's --gtest_list_tests output, as a manifest
    names it: a typed test's suite is Suite/float (its `# TypeParam = float` comment dropped)."""
    tests, suite = set(), ""
    for line in gtest_list_output.splitlines():
        head = line.split("#")[0].rstrip()
        if head and not line.startswith(" ") and head.endswith("."):
            suite = head
        elif line.startswith("  ") and head.strip():
            tests.add(suite + head.strip())
    return tests


def points_allowed(points, gates):
    """A test earns positive points; only a gate (a floor the other tests need) earns 0."""
    return points > 0 or (points == 0 and bool(gates))


def main(argv):
    if len(argv) >= 2 and argv[1] == "names" and len(argv) <= 3:
        print("\n".join(lab_names(argv[2] if len(argv) == 3 else KIT)))
        return 0
    # The per-lab queries: LAB [KIT] -> the lines to print
    queries = {
        "gpu-tests": lambda m: [t["name"] for t in m["tests"] if t.get("gpu")],
        "mpi-ranks": mpi_ranks,
        "steps": lambda m: sorted({s["step"] for s in m["steps"]}),
    }
    if len(argv) >= 3 and argv[1] in queries and len(argv) <= 4:
        kit = argv[3] if len(argv) == 4 else KIT
        try:
            lines = queries[argv[1]](read_manifest(manifest_path(kit, argv[2])))
        except (ManifestError, KeyError, TypeError, AttributeError) as e:
            print(f"lab_manifests: {e}", file=sys.stderr)
            return 1
        for line in lines:
            print(line)
        return 0
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
