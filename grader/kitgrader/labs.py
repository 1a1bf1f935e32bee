"""The labs as their manifests describe them: student files, steps, tests and points.

Labs are discovered from labs/NN-name/manifest.json, never listed by hand, so a new lab is
graded as soon as its manifest lands.
"""
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

# The kit's one reader of lab names and manifests (scripts/labs/), shared with the scripts
# that the student edition keeps without the grader.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts" / "labs"))
from lab_manifests import (LAB_NAME, LAB_NAME_ERE, LAB_STEP, ManifestError, lab_names,  # noqa: E402,F401
                           listed_tests, manifest_path, mpi_ranks, points_allowed, read_manifest)

# A student file is a plain name inside the lab folder: no folders, no "..", no hidden files.
SAFE_FILE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+-]*$")


@dataclass
class TestSpec:
    """One GoogleTest test and what it is worth."""
    name: str      # Suite.Name, e.g. Step2_CsrScalarOpenCL.Rdb450
    step: int
    tier: int
    points: float
    gpu: bool
    hidden: bool
    gates: bool = False  # a CUDA step's GPU floor: the other tests of its suite earn nothing unless it passes

    @property
    def binary_suffix(self):
        return "_hidden" if self.hidden else ""


@dataclass
class Step:
    step: int
    title: str
    backend: str


@dataclass
class Lab:
    name: str
    title: str
    student_files: list
    steps: dict = field(default_factory=dict)  # step number -> Step
    tests: list = field(default_factory=list)  # TestSpec, in manifest order
    mpi_ranks: list = field(default_factory=list)  # rank counts its programs run at under mpirun; []: alone

    @property
    def max_points(self):
        return sum(t.points for t in self.tests)

    def binaries(self):
        """Test binary names and the tests each should hold."""
        out = {}
        for t in self.tests:
            out.setdefault(f"test_{self.name}{t.binary_suffix}", []).append(t)
        return out

    def step_max(self, step):
        return sum(t.points for t in self.tests if t.step == step)


def load_lab(path):
    """Reads and checks one manifest. Raises ManifestError naming the problem."""
    path = Path(path)
    m = read_manifest(path)
    name = path.parent.name
    if m.get("lab") != name or not LAB_NAME.match(name):
        raise ManifestError(f"{path}: 'lab' is {m.get('lab')!r}, expected the folder name {name!r}")
    files = m.get("student_files") or []
    for f in files:
        if not isinstance(f, str) or not SAFE_FILE_NAME.match(f):
            raise ManifestError(f"{path}: student file {f!r} is not a plain file name")
    steps = {}
    for s in m.get("steps", []):
        steps[int(s["step"])] = Step(int(s["step"]), str(s.get("title", "")), str(s.get("backend", "")))
    tests, seen = [], set()
    for t in m.get("tests", []):
        points = float(t["points"])
        spec = TestSpec(str(t["name"]), int(t["step"]), int(t.get("tier", 0)), int(points) if points.is_integer() else points,
                        bool(t.get("gpu", False)), bool(t.get("hidden", False)), bool(t.get("gates", False)))
        if spec.name in seen or spec.step not in steps or "." not in spec.name or \
                not points_allowed(spec.points, spec.gates):
            raise ManifestError(f"{path}: bad test entry {spec.name!r} (duplicate, unknown step, or no points)")
        seen.add(spec.name)
        tests.append(spec)
    try:
        ranks = mpi_ranks(m)
    except ManifestError as e:
        raise ManifestError(f"{path}: {e}") from e
    return Lab(name, str(m.get("title", "")), list(files), steps, tests, ranks)


def discover(kit_root):
    """All labs of the kit at kit_root, by name, in order."""
    labs = {}
    for name in lab_names(kit_root):
        if manifest_path(kit_root, name).is_file():
            labs[name] = load_lab(manifest_path(kit_root, name))
    return labs


def select(labs, spec):
    """spec is 'all', one lab name or a comma-separated list. Raises ValueError if unknown."""
    if spec in ("all", "", None):
        return list(labs.values())
    chosen = []
    for name in spec.split(","):
        name = name.strip()
        if name not in labs:
            raise ValueError(f"unknown lab {name!r}; labs with a manifest: {', '.join(labs) or 'none'}")
        chosen.append(labs[name])
    return chosen
