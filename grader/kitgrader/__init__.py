"""The kit's autograder: grade submissions against the instructor's tests.

Modules, in the order a grading run uses them:
  labs        the lab manifests (student files, steps, tests and points), read by scripts/labs/
  submission  a submission folder or archive, opened safely, and its files per lab
  cache       the prebuilt instructor tree, copied fresh for each submission
  sandbox     running untrusted programs with a timeout, a memory limit and a clean environment;
    isolation   its view of the machine: limits, private /tmp, hidden folders, no network, another user
    processes   its processes found, measured and killed; one program per --run-as user at a time
    diskuse     its scratch folder, what it leaves behind, the disk it uses
  gtest       running the student's test binary (it records its calls), then the judge (it replays them and decides)
  scoring     test outcomes -> points per test, per step and per lab
  results     results.json (Gradescope), the readable report, merging runs, grades.csv
  schema      a small JSON-schema checker for results.json
  classroom   grading a folder of submissions, resumably
  gradescope  the autograder zip
"""

VERSION = "2.0"
