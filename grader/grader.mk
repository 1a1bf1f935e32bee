# Grading targets (included by the top-level Makefile). The grader is grader/grade.py;
# grader/README.md documents it. The prebuilt instructor tree lives in $(GRADE_CACHE).
GRADER       := python3 grader/grade.py
GRADE_CACHE  ?= $(BUILD)/grader-cache
GRADE_OUT    ?= $(BUILD)/grades
GRADER_ARGS  ?=
# OUT= on make's command line picks the output folder, as for make bench. An OUT exported in
# the environment (a job script's or a CI's, meant for something else) is not taken for it:
# two gradings would write over each other there.
ifeq ($(origin OUT),command line)
GRADE_TO    := $(OUT)
endif
grader_opts   = --cache $(GRADE_CACHE) --lab $(LAB) $(if $(SM),--sm $(SM)) $(GRADER_ARGS)

.PHONY: grade grade-all gradescope grade-prebuild

## grade          grade one submission: SUB=folder|.zip|.tar.gz [LAB=all|NN-name] [OUT=dir]
grade:
	@if [ -z "$(SUB)" ]; then echo "usage: make grade SUB=<folder, .zip or .tar.gz> [LAB=all|NN-name] [OUT=dir]" >&2; exit 2; fi
	@$(GRADER) grade --sub "$(SUB)" --out "$(or $(GRADE_TO),$(GRADE_OUT)/$(notdir $(patsubst %/,%,$(SUB))))" $(grader_opts)

## grade-all      grade a folder of submissions into grades.csv (resumable): SUBS=dir [LAB=..] [OUT=dir]
grade-all:
	@if [ -z "$(SUBS)" ]; then echo "usage: make grade-all SUBS=<folder of submissions> [LAB=all|NN-name] [OUT=dir]" >&2; exit 2; fi
	@$(GRADER) class --subs "$(SUBS)" --out "$(or $(GRADE_TO),$(GRADE_OUT)/class)" $(grader_opts)

## gradescope     the Gradescope autograder zip for LAB (grades the CPU and OpenCL parts) in build/gradescope/
gradescope:
	@$(GRADER) gradescope --lab $(LAB) --zip $(BUILD)/gradescope/autograder-$(LAB).zip

## grade-prebuild build the instructor tree that grading copies (grade does it when needed)
grade-prebuild:
	@$(GRADER) prebuild $(grader_opts)
