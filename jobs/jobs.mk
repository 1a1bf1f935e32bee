# Cluster job scripts (jobs/README.md): regenerate, check, submit.
.PHONY: jobs check-jobs submit

## jobs           regenerate jobs/slurm/ and jobs/sge/ from jobs/site.env and the labs
jobs:
	@python3 jobs/gen_jobs.py

## check-jobs     fail if the scripts in jobs/ are out of date (a new lab, a site.env change)
check-jobs:
	@python3 jobs/gen_jobs.py --check

## submit         submit LAB=NN-name|all, JOB=bench or JOB=grade SUBS=dir to sbatch or qsub
submit: jobs
	@if [ -n "$(JOB)" ]; then jobs/submit.sh $(JOB); \
	 elif [ "$(origin LAB)" = "command line" ] || [ "$(origin LAB)" = environment ]; then jobs/submit.sh lab $(SEL_LABS); \
	 else jobs/submit.sh; fi
