#!/usr/bin/env python3
"""Write the cluster job scripts, Slurm and SGE, from one description.

  gen_jobs.py            write jobs/slurm/*.sbatch and jobs/sge/*.job (`make jobs`)
  gen_jobs.py --check    exit 1 if a written script differs from what would be written now,
                         is missing (a new lab) or is left over (a lab that went away)

Every job is one entry of job_list(): what it runs on the node, its time limit and whether
it needs a GPU. A script is the scheduler's request lines, made from jobs/site.env, followed
by the same few lines for both schedulers, which hand over to jobs/run_on_node.sh. So the
two flavours can only differ in how they ask for resources.
"""
import glob
import os
import subprocess
import sys
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "labs"))
from lab_manifests import ManifestError, gpu_tests, lab_names, manifest_path, mpi_ranks, read_manifest  # noqa: E402

# site.env settings the request lines use; arrays hold one option each.
SITE_SCALARS = ["KIT_SLURM_GPU_REQUEST", "KIT_SGE_GPU_REQUEST", "KIT_SLURM_PARTITION",
                "KIT_SLURM_CPU_PARTITION", "KIT_SLURM_ACCOUNT", "KIT_SGE_QUEUE", "KIT_SGE_CPU_QUEUE",
                "KIT_SGE_PROJECT", "KIT_CPUS", "KIT_SGE_PE", "KIT_MEM", "KIT_MEM_MERGE",
                "KIT_TIME_LAB", "KIT_TIME_BENCH", "KIT_TIME_GRADE", "KIT_TIME_MERGE",
                "KIT_SLURM_TASK_GPU_REQUEST", "KIT_SGE_MPI_PE", "KIT_SGE_MPI_GPU_REQUEST"]
SITE_ARRAYS = ["KIT_SLURM_EXTRA", "KIT_SGE_EXTRA"]


@dataclass
class Job:
    name: str         # file stem: jobs/slurm/<name>.sbatch, jobs/sge/<name>.job
    title: str        # first comment line
    run: str          # arguments of kit_job in jobs/run_on_node.sh
    time: str         # site.env variable with the time limit
    gpu: bool         # ask the scheduler for a GPU
    builds: bool      # compiles, so asks for KIT_CPUS cores and KIT_MEM
    array: bool = False
    submit_hint: str = ""
    tasks: int = 0    # MPI ranks to ask for (a lab with "mpi_ranks"): one GPU each; 0: one process


def read_site(path):
    """Source site.env in a clean bash and return its settings (the caller's environment
    must not leak into generated files)."""
    script = 'set -e; . "$1"\n'
    script += "".join(f'printf "%s\\0%s\\0" {v} "${{{v}-}}"\n' for v in SITE_SCALARS)
    script += "".join(f'printf "%s\\0" {v}; printf "%s\\x1f" "${{{v}[@]}}"; printf "\\0"\n'
                      for v in SITE_ARRAYS)
    out = subprocess.run(["env", "-i", "PATH=/usr/bin:/bin", "bash", "-c", script, "_", path],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"gen_jobs: cannot read {path}: {out.stderr.strip()}")
    fields = out.stdout.split("\0")
    site = dict(zip(fields[0::2], fields[1::2]))
    for v in SITE_ARRAYS:
        site[v] = [x for x in site.get(v, "").split("\x1f") if x]
    return site


def lab_needs_gpu(lab):
    """A lab asks for a GPU when its manifest has a GPU test; a lab without a readable
    manifest yet is assumed to need one."""
    try:
        return bool(gpu_tests(read_manifest(manifest_path(ROOT, lab))))
    except ManifestError:
        return True


def lab_tasks(lab):
    """The most ranks a lab's tests run at (its manifest's "mpi_ranks"); 0 for a one-process lab."""
    try:
        return max(mpi_ranks(read_manifest(manifest_path(ROOT, lab))), default=0)
    except ManifestError:
        return 0


def job_list():
    labs = lab_names(ROOT)
    jobs = [Job(lab, f"Lab {lab}: build the kit on the node, run the lab's tests, print the summary.",
                f"lab {lab}", "KIT_TIME_LAB", lab_needs_gpu(lab), True, submit_hint=f"make submit LAB={lab}",
                tasks=lab_tasks(lab))
            for lab in labs]
    jobs.append(Job("bench", "Benchmark suite: build the kit on a GPU node and run `make bench`.",
                    "bench", "KIT_TIME_BENCH", True, True, submit_hint="make submit JOB=bench"))
    jobs.append(Job("grade-array", "Grading: one array task per submission in $SUBS (without an array: all of them, then the merge).",
                    "grade", "KIT_TIME_GRADE", True, True, array=True,
                    submit_hint="make submit JOB=grade SUBS=<folder>  (array + merge)"))
    jobs.append(Job("grade-merge", "Grading: merge the results of the grading array into grades.csv.",
                    "grade-merge", "KIT_TIME_MERGE", False, False,
                    submit_hint="submitted by make submit JOB=grade after the array"))
    return jobs


def slurm_lines(job, site):
    out = "spmv-%s-%%A-%%a.out" % job.name.split("-")[0] if job.array else f"spmv-{job.name}-%j.out"
    opts = [f"--job-name=spmv-{job.name}", f"--output={out}", f"--time={site[job.time]}"]
    if job.tasks:  # MPI ranks on one node, one GPU each (the tests start them with srun, site.env)
        opts += [f"--ntasks={job.tasks}", "--nodes=1"]
    if job.gpu:
        opts.append(site["KIT_SLURM_TASK_GPU_REQUEST"] if job.tasks else site["KIT_SLURM_GPU_REQUEST"])
    opts.append(f"--cpus-per-task={site['KIT_CPUS'] if job.builds and not job.tasks else 2 if job.tasks else 1}")
    mem = site["KIT_MEM"] if job.builds else site["KIT_MEM_MERGE"]
    if mem:
        opts.append(f"--mem={mem}")
    partition = site["KIT_SLURM_PARTITION"] if job.gpu else site["KIT_SLURM_CPU_PARTITION"]
    if partition:
        opts.append(f"--partition={partition}")
    if site["KIT_SLURM_ACCOUNT"]:
        opts.append(f"--account={site['KIT_SLURM_ACCOUNT']}")
    opts += site["KIT_SLURM_EXTRA"]
    return [f"#SBATCH {o}" for o in opts]


def sge_lines(job, site):
    out = "spmv-%s-$JOB_ID-$TASK_ID.out" % job.name.split("-")[0] if job.array else f"spmv-{job.name}-$JOB_ID.out"
    opts = ["-S /bin/bash", "-cwd", f"-N spmv-{job.name}", f"-o {out}", "-j y", f"-l h_rt={site[job.time]}"]
    if job.gpu:
        opts.append(site["KIT_SGE_MPI_GPU_REQUEST"] if job.tasks else site["KIT_SGE_GPU_REQUEST"])
    # The slots granted are the cores the build may use: the job runs make -j$NSLOTS. An MPI
    # lab asks for its ranks' slots in the site's MPI parallel environment (mpirun reads them).
    if job.tasks and site["KIT_SGE_MPI_PE"]:
        opts.append(f"-pe {site['KIT_SGE_MPI_PE']} {2 * job.tasks}")
    elif job.builds and site["KIT_SGE_PE"]:
        opts.append(f"-pe {site['KIT_SGE_PE']} {site['KIT_CPUS']}")
    queue = site["KIT_SGE_QUEUE"] if job.gpu else site["KIT_SGE_CPU_QUEUE"]
    if queue:
        opts.append(f"-q {queue}")
    if site["KIT_SGE_PROJECT"]:
        opts.append(f"-P {site['KIT_SGE_PROJECT']}")
    opts += site["KIT_SGE_EXTRA"]
    return [f"#$ {o}" for o in opts]


# The part after the request lines, the same for both schedulers. The job finds the kit
# folder itself because schedulers run a spooled copy of the script, far from the kit.
BODY = r'''
# Generated by `make jobs` from jobs/gen_jobs.py and jobs/site.env: edit those, not this.
#   submit:  {submit}
#       or:  {hint}
#   here:    bash {path}   (no scheduler: runs on this machine)
# Per-run settings (IMPL, BUILD, SM, KIT_ALLOW_NO_GPU, ...): see jobs/README.md.

kit_find_root() {{  # the kit folder: $KIT_ROOT, else above the submit folder or this script
  local d
  for d in "${{KIT_ROOT:-}}" "$PWD" "${{SLURM_SUBMIT_DIR:-}}" "${{SGE_O_WORKDIR:-}}" "$(dirname "$0")"; do
    d=$(cd "${{d:-/nonexistent}}" 2>/dev/null && pwd) || continue
    while [ "$d" != / ]; do
      [ -f "$d/jobs/run_on_node.sh" ] && {{ echo "$d"; return 0; }}
      d=$(dirname "$d")
    done
  done
  return 1
}}
KIT_ROOT=$(kit_find_root) || {{ echo "error: cannot find the kit: submit from inside the kit folder or set KIT_ROOT" >&2; exit 2; }}
. "$KIT_ROOT/jobs/run_on_node.sh"
kit_job {run}
'''


def render(job, flavour, site):
    if flavour == "slurm":
        lines, path, submit = slurm_lines(job, site), f"jobs/slurm/{job.name}.sbatch", "sbatch"
    else:
        lines, path, submit = sge_lines(job, site), f"jobs/sge/{job.name}.job", "qsub"
    if job.array:
        submit += " --array=1-N" if flavour == "slurm" else " -t 1-N"
        submit += " " + ("--export=ALL,SUBS=<folder>" if flavour == "slurm" else "-v SUBS=<folder>")
    submit += f" {path}"
    head = ["#!/bin/bash", f"# {job.title}"] + lines
    return path, "\n".join(head) + BODY.format(submit=submit, hint=job.submit_hint, path=path, run=job.run)


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] not in ([], ["--check"]):
        sys.exit(__doc__)
    site = read_site(os.path.join(ROOT, "jobs", "site.env"))
    wanted = {}
    for job in job_list():
        for flavour in ("slurm", "sge"):
            path, text = render(job, flavour, site)
            wanted[path] = text
    present = {os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "jobs", "slurm", "*.sbatch"))
               + glob.glob(os.path.join(ROOT, "jobs", "sge", "*.job"))}
    stale = []  # (path, what is wrong with it)
    for path, text in sorted(wanted.items()):
        full = os.path.join(ROOT, path)
        try:
            with open(full, encoding="utf-8") as f:
                if f.read() == text:
                    continue
        except OSError:
            pass
        stale.append((path, "out of date" if path in present else "missing"))
        if not check:
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
            os.chmod(full, 0o755)
    for path in sorted(present - set(wanted)):
        stale.append((path, "left over (its lab is gone)"))
        if not check:
            os.remove(os.path.join(ROOT, path))
    for path, why in stale:
        print(f"jobs: {path} is {why}: " + ("run `make jobs`" if check else "fixed"))
    sys.exit(1 if check and stale else 0)


if __name__ == "__main__":
    main()
