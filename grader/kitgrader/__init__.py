"""The kit's autograder: grade submissions against the instructor's tests.

Modules, in the order a grading run uses them:
  labs        the lab manifests (student files, steps, tests and points)
  submission  a submission folder or archive, opened safely, and its files per lab
  cache       the prebuilt instructor tree, copied fresh for each submission
  sandbox     running untrusted programs with a timeout, a memory limit and a clean environment
  gtest       running the student's test binary (it records its calls), then the judge (it replays them and decides)
  scoring     test outcomes -> points per test, per step and per lab
  results     results.json (Gradescope), the readable report, merging runs, grades.csv
  schema      a small JSON-schema checker for results.json
  classroom   grading a folder of submissions, resumably
  gradescope  the autograder zip
"""

VERSION = "2.0"
