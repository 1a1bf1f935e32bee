# SpMV GPU Lab Kit: the one entry point. `make help` lists the targets.
#
# Layout of the build (everything under $(BUILD)):
#   obj-<features>/<source path>.o   one object per source; kit, lab host code and tests
#                           are compiled once and shared by both implementations. The folder
#                           is named after the feature set (CUDA, OpenCL, SM): a feature change
#                           builds beside the old objects instead of deleting them
#   gen/                    generated sources (lab registration lists, embedded .cl files)
#   <impl>/bin/             test binaries, spmv-kit and lab drivers linked against
#                           reference/ or starter/ (IMPL=reference|starter)
#   test-logs/<impl>/       output of the last `make test`

SHELL       := /bin/bash
# A bare `make` builds everything (the first rule of the file would otherwise be a generated source).
.DEFAULT_GOAL := all
BUILD       ?= build
IMPL        ?= reference
LAB         ?= all
SM          ?=
CXX         ?= g++
NVCC        ?= $(firstword $(shell command -v nvcc 2>/dev/null) $(wildcard /usr/local/cuda/bin/nvcc))
CUDA_HOME   ?= $(if $(NVCC),$(abspath $(dir $(NVCC))/..),/usr/local/cuda)

ifneq ($(filter $(IMPL),reference starter),$(IMPL))
$(error IMPL must be reference or starter, not '$(IMPL)')
endif
ifeq ($(IMPL)$(wildcard reference),reference)
$(error IMPL=reference: this is the student edition, which has no reference/; your code is IMPL=starter, the default here)
endif

# A lab is a folder labs/NN-name; its name's pattern, shared with the scripts, is in scripts/labs/.
LAB_NAME_ERE := $(shell cat scripts/labs/lab_name.ere)
LABS := $(sort $(shell ls labs | grep -xE '$(LAB_NAME_ERE)'))
comma := ,
ifeq ($(LAB),all)
SEL_LABS := $(LABS)
else
# LAB=02-csr, or a list: LAB=00-basics,02-csr
SEL_LABS := $(subst $(comma), ,$(LAB))
ifneq ($(filter-out $(LABS),$(SEL_LABS)),)
$(error LAB=$(LAB): $(filter-out $(LABS),$(SEL_LABS)) is not a lab; choose all, or one or more (comma-separated) of: $(LABS))
endif
endif

# ---------------------------------------------------------------- dependencies
# GoogleTest, Google Benchmark, OpenCL, zlib and bzip2, looked for where clusters keep them
# (NAME_ROOT, pkg-config, the compiler's path, conda, Spack): see scripts/setup/find_deps.mk.
include scripts/setup/find_deps.mk

# ---------------------------------------------------------------- features
HAVE_CUDA   := $(if $(NVCC),1,0)
# HAVE_OPENCL, HAVE_GTEST, HAVE_ZLIB and HAVE_BZIP2 (compressed Matrix Market input, .mtx.gz and
# .mtx.bz2; without the library the reader says what to install) come from the dependencies' search above.

# GPU architecture: SM= (one, or a list for a fat binary: SM="80 90"), else the local GPU,
# else one architecture (sm_90 + PTX): a machine without a GPU only needs the code to
# compile, and one architecture builds five times faster than a fat binary.
SM_DEFAULT  := 90
ifeq ($(SM),)
SM_DETECTED := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d '.[:space:]')
SM_LIST     := $(if $(SM_DETECTED),$(SM_DETECTED),$(SM_DEFAULT))
else
SM_LIST     := $(SM)
endif
GENCODE := $(foreach s,$(SM_LIST),-gencode arch=compute_$(s),code=sm_$(s)) \
           -gencode arch=compute_$(lastword $(SM_LIST)),code=compute_$(lastword $(SM_LIST))

# Where the test programs read their matrices (the grader points it at a world-readable copy).
MATRICES_DIR ?= $(CURDIR)/matrices
# The BCSR tuner's shipped profile, read at run time like the matrices (the grader points both
# at world-readable copies outside its private tree).
BCSR_DEFAULT_PROFILE ?= $(CURDIR)/labs/05-bcsr/profile_default.txt
# Objects built with other data paths (the grader's public copies) go to their own folder.
DATA_TAG := $(if $(and $(filter $(CURDIR)/matrices,$(MATRICES_DIR)),$(filter $(CURDIR)/labs/05-bcsr/profile_default.txt,$(BCSR_DEFAULT_PROFILE))),,-data$(shell printf '%s %s' '$(MATRICES_DIR)' '$(BCSR_DEFAULT_PROFILE)' | cksum | cut -d' ' -f1))
# NCCL (lab 10's GPU step) needs CUDA and MPI beside it: it is bootstrapped through MPI.
HAVE_NCCL_BUILD := $(if $(and $(filter 1,$(HAVE_CUDA)),$(filter 1,$(HAVE_MPI)),$(filter 1,$(HAVE_NCCL))),1,0)
FEATURES := cuda$(HAVE_CUDA)-opencl$(HAVE_OPENCL)-mpi$(HAVE_MPI)-nccl$(HAVE_NCCL_BUILD)$(if $(filter 1,$(HAVE_CUDA)),-sm$(subst $() ,_,$(strip $(SM_LIST))))-zlib$(HAVE_ZLIB)-bzip2$(HAVE_BZIP2)$(DATA_TAG)
OBJ      := $(BUILD)/obj-$(FEATURES)

# ---------------------------------------------------------------- flags
# Each target sees labs/common (its headers are named by role: "formats/csr.hpp") and nothing else of the kit, plus, per folder: a lab's own
# files see their lab (labs/NN, reference/NN, starter/NN), its tests also tests/NN, and every
# test tests/support. So a file that reaches into another lab does not compile, and
# scripts/testing/check_includes.py says which line did it.
INCLUDES  := -Ilabs/common
DEFINES   := -DKIT_HAVE_CUDA=$(HAVE_CUDA) -DKIT_HAVE_OPENCL=$(HAVE_OPENCL) -DKIT_MATRICES_DIR=\"$(MATRICES_DIR)\" -DKIT_BCSR_DEFAULT_PROFILE=\"$(BCSR_DEFAULT_PROFILE)\" \
             -DKIT_HAVE_ZLIB=$(HAVE_ZLIB) -DKIT_HAVE_BZIP2=$(HAVE_BZIP2) -DKIT_HAVE_MPI=$(HAVE_MPI) -DKIT_HAVE_NCCL=$(HAVE_NCCL_BUILD)
# CXXFLAGS and NVCCFLAGS are the user's (optimisation, sanitizers); the kit's own flags are
# added separately so that `make CXXFLAGS=...` never drops include paths or defines.
CXXFLAGS  ?= -O2 -g
NVCCFLAGS ?= -O3 -lineinfo
KIT_CXXFLAGS  = $(CXXFLAGS) -std=c++17 -Wall -Wextra -MMD -MP $(INCLUDES) $(LAB_INCLUDES) $(TEST_INCLUDES) $(DEFINES) $(DEP_CFLAGS) $(EXTRA_CXXFLAGS)
KIT_NVCCFLAGS = $(NVCCFLAGS) -std=c++17 $(GENCODE) -Xcompiler -Wall -MMD -MP $(INCLUDES) $(LAB_INCLUDES) $(TEST_INCLUDES) $(DEFINES) $(DEP_CFLAGS) $(EXTRA_NVCCFLAGS)
# The dependencies' folders outside the compiler's search path (empty where they are in /usr).
DEP_CFLAGS    = $(OPENCL_CFLAGS) $(ZLIB_CFLAGS) $(BZIP2_CFLAGS) $(GTEST_CFLAGS) $(if $(filter 1,$(HAVE_MPI)),$(MPI_CFLAGS)) \
                $(if $(filter 1,$(HAVE_NCCL_BUILD)),$(NCCL_CFLAGS))
$(foreach l,$(LABS),$(foreach d,labs reference starter,$(eval $(OBJ)/$(d)/$(l)/%: LAB_INCLUDES := -Ilabs/$(l))))
$(foreach l,$(LABS),$(foreach d,tests tests/hidden,$(eval $(OBJ)/$(d)/$(l)/%: LAB_INCLUDES := -Ilabs/$(l) -Itests/$(l))))
$(OBJ)/tests/%: TEST_INCLUDES := -Itests/support
# The tests are the kit's specification: a warning in them is an error.
$(OBJ)/tests/%: EXTRA_CXXFLAGS += -Werror
$(OBJ)/tests/%: EXTRA_NVCCFLAGS += -Xcompiler -Werror
LDLIBS    := -lpthread $(ZLIB_LDLIBS) $(BZIP2_LDLIBS)
ifeq ($(HAVE_CUDA),1)
EXTRA_CXXFLAGS += -isystem $(CUDA_HOME)/include
LDLIBS    += -L$(CUDA_HOME)/lib64 -lcudart_static -ldl -lrt
endif
LDLIBS    += $(OPENCL_LDLIBS)
# MPI (and NCCL) for the binaries that hold lab 10: every one that links all labs (spmv-kit) too.
ifeq ($(HAVE_MPI),1)
LDLIBS    += $(MPI_LDLIBS)
endif
ifeq ($(HAVE_NCCL_BUILD),1)
LDLIBS    += $(NCCL_LDLIBS)
endif
GTEST_LIBS := $(GTEST_LDLIBS) -lpthread

# ---------------------------------------------------------------- sources
# A file's suffix picks its compiler and the feature it needs:
#   *.cu -> nvcc (CUDA builds only); *_opencl.cpp and *.cl -> OpenCL builds only;
#   *_mpi.cpp -> MPI builds only; *_nccl.cu -> builds with CUDA, MPI and NCCL only;
#   *_main.cpp -> a lab's driver program.
define sources_in
$(filter-out $(if $(filter 1,$(HAVE_OPENCL)),,%_opencl.cpp) $(if $(filter 1,$(HAVE_MPI)),,%_mpi.cpp) %_main.cpp,$(wildcard $(1)/*.cpp)) \
$(if $(filter 1,$(HAVE_CUDA)),$(filter-out $(if $(filter 1,$(HAVE_NCCL_BUILD)),,%_nccl.cu),$(wildcard $(1)/*.cu))) \
$(if $(filter 1,$(HAVE_OPENCL)),$(patsubst %,$(BUILD)/gen/%.cpp,$(wildcard $(1)/*.cl)))
endef
obj = $(patsubst %,$(OBJ)/%.o,$(patsubst $(BUILD)/%,%,$(1)))

# The kit library: one folder per role under labs/common (core, formats, io, gpu, measure,
# registry, check, model).
KIT_DIRS       := $(sort $(dir $(wildcard labs/common/*/)))
KIT_SRC        := $(foreach d,$(KIT_DIRS),$(call sources_in,$(d:/=)))
KIT_OBJ        := $(call obj,$(KIT_SRC))
TEST_MAIN_OBJ  := $(call obj,$(wildcard tests/support/*.cpp))
lab_obj         = $(call obj,$(call sources_in,labs/$(1)))
reg_obj         = $(call obj,$(BUILD)/gen/labs-$(1).cpp)
student_obj     = $(call obj,$(call sources_in,$(2)/$(1)))
ALL_LAB_OBJ     = $(foreach l,$(LABS),$(call lab_obj,$(l)) $(call student_obj,$(l),$(1)))
# A lab driver links its own lab's variants; the drivers of ALL_LAB_DRIVERS run any registered
# kernel (lab 10's bench_multi multiplies each rank's block with one) and link every lab's.
ALL_LAB_DRIVERS = bench_multi
# (the kit's objects among them, in the order spmv-kit and the tests link them).
driver_labs_obj = $(if $(filter $(patsubst %_main.cpp,%,$(notdir $(2))),$(ALL_LAB_DRIVERS)),$(call reg_obj,all) \
                  $(call ALL_LAB_OBJ,$(3)) $(KIT_OBJ),$(call reg_obj,$(1)) $(call lab_obj,$(1)) $(KIT_OBJ) \
                  $(call student_obj,$(1),$(3)))

# ---------------------------------------------------------------- compile rules
# V=1 shows the full compiler command lines. Otherwise each compile and link step says one
# line; in a build started by build_goals (all, run, test, ...) it is numbered, [n/N], by
# scripts/build/progress.sh (KIT_PROGRESS names that build's counter).
V ?= 0
Q := $(if $(filter 1,$(V)),,@)
say = $(if $(filter 1,$(V)),,$(if $(KIT_PROGRESS),@scripts/build/progress.sh step $(1) $(2),@echo "  $(1)	$(2)"))

# $(call build_goals,GOALS [VAR=value ...]): a sub-make that builds GOALS on every core, unless
# the user chose the number of jobs (make -j1 test stays serial: -jN is then in MAKEFLAGS),
# with numbered steps (progress.sh counts them first with a dry run of the same sub-make).
# The + marks the line as a sub-make, as a literal $(MAKE) in the recipe would: it then gets
# the user's -j job slots, and runs under make -n as well. -s (V=0 only: its recipes are
# silent anyway) keeps make's "is up to date" out, so a build with nothing to do prints nothing.
# A goal that builds through build_goals, named beside other goals (make -j16 all spmv-bench),
# would build the same objects in two makes at once, and one could link what the other is
# still writing: this make then takes its goals one after another (each sub-make keeps -j).
ifneq ($(filter all kit run test verify-starter bench bench-gemv bench-validate,$(MAKECMDGOALS)),)
ifneq ($(words $(MAKECMDGOALS)),1)
.NOTPARALLEL:
endif
endif
NPROC = $(shell nproc 2>/dev/null || echo 1)
build_jobs = $(if $(filter -j% --jobserver%,$(MAKEFLAGS)),,-j$(NPROC))
build_goals = +@$(if $(filter 1,$(V)),,scripts/build/progress.sh build $(BUILD)) $(MAKE) --no-print-directory $(if $(filter 1,$(V)),,-s) $(build_jobs) $(1)

$(OBJ)/%.cpp.o: %.cpp | $(BUILD)/.features
	@mkdir -p $(@D)
	$(call say,CXX,$<)
	$(Q)$(CXX) $(KIT_CXXFLAGS) -c $< -o $@
$(OBJ)/%.cu.o: %.cu | $(BUILD)/.features
	@mkdir -p $(@D)
	$(call say,NVCC,$<)
	$(Q)$(NVCC) $(KIT_NVCCFLAGS) -c $< -o $@
$(OBJ)/gen/%.cpp.o: $(BUILD)/gen/%.cpp
	@mkdir -p $(@D)
	$(call say,CXX,$<)
	$(Q)$(CXX) $(KIT_CXXFLAGS) -c $< -o $@

# Starter stubs leave parameters unused until the student fills them in: no warnings for that.
$(OBJ)/starter/%: EXTRA_CXXFLAGS += -Wno-unused-parameter -Wno-unused-variable
$(OBJ)/starter/%: EXTRA_NVCCFLAGS += -Xcompiler -Wno-unused-parameter -diag-suppress 177,550

# OpenCL C sources are embedded as strings, so a binary never looks for .cl files at run time.
$(BUILD)/gen/%.cl.cpp: %.cl
	@mkdir -p $(@D)
	@{ printf 'extern const char kit_cl_%s[];\nconst char kit_cl_%s[] = R"KITCL(' $(basename $(notdir $<)) $(basename $(notdir $<)); \
	   cat $<; printf ')KITCL";\n'; } > $@

# Registration lists: which labs' variants a binary holds. Regenerated when the lab set or the
# generator changes (a build folder from before a change of layout must not keep an old list).
$(BUILD)/gen/labs-%.cpp: scripts/codegen/gen_registration.sh | $(BUILD)/.features
	@mkdir -p $(@D)
	@scripts/codegen/gen_registration.sh $@ $*
$(BUILD)/gen/labs-all.cpp: $(BUILD)/.labs scripts/codegen/gen_registration.sh
	@mkdir -p $(@D)
	@scripts/codegen/gen_registration.sh $@ $(LABS)
# The stamps' recipes (.labs, .features) start with +, so that a dry run (make -n, and the
# step count of scripts/build/progress.sh) updates them as the build would: otherwise make -n
# takes a FORCE target as changed and counts every binary as relinked.
$(BUILD)/.labs: FORCE
	+@mkdir -p $(@D); echo "$(LABS)" | cmp -s - $@ || echo "$(LABS)" > $@

# The feature set of the last build. Rewritten only when it changes; every binary depends on
# it, so a change relinks them from the objects of the new set (obj-<features>/), and no
# object is ever deleted under a running build.
FEATURES_LINE = cuda=$(HAVE_CUDA) opencl=$(HAVE_OPENCL) mpi=$(HAVE_MPI) nccl=$(HAVE_NCCL_BUILD) sm=$(subst $() ,_,$(strip $(SM_LIST))) zlib=$(HAVE_ZLIB) bzip2=$(HAVE_BZIP2) objdir=obj-$(FEATURES)
$(BUILD)/.features: FORCE
	+@mkdir -p $(@D)
	+@echo "$(FEATURES_LINE)" | cmp -s - $@ || echo "$(FEATURES_LINE)" > $@
FORCE:
# Generated sources are kept (not deleted as intermediates), so rebuilds stay incremental.
.SECONDARY:

# ---------------------------------------------------------------- link rules
LDFLAGS ?=
define LINK
$(call say,LINK,$@)
$(Q)$(CXX) $(LDFLAGS) -o $@ $(filter-out %.features,$^) $(LDLIBS)
endef

# Student objects come last on every link line: where a student file and the kit both hold a
# copy of an inline function (a weak, COMDAT symbol), the linker keeps the first it meets, so
# the kit's own copy is used whatever the student's compiler made of it.
define impl_rules
$(BUILD)/$(1)/bin/spmv-kit: $(call obj,$(wildcard cli/*.cpp)) $(call reg_obj,all) \
                            $(call ALL_LAB_OBJ,$(1)) $(KIT_OBJ)
	@mkdir -p $$(@D)
	$$(LINK)
$(foreach l,$(LABS),
$(BUILD)/$(1)/bin/test_$(l): $(call obj,$(wildcard tests/$(l)/*.cpp)) $(call reg_obj,$(l)) $(call lab_obj,$(l)) $(TEST_MAIN_OBJ) $(KIT_OBJ) $(call student_obj,$(l),$(1))
	@mkdir -p $$(@D)
	$$(LINK) $(GTEST_LIBS)
$(BUILD)/$(1)/bin/test_$(l)_hidden: $(call obj,$(wildcard tests/hidden/$(l)/*.cpp)) $(call reg_obj,$(l)) $(call lab_obj,$(l)) $(TEST_MAIN_OBJ) $(KIT_OBJ) $(call student_obj,$(l),$(1))
	@mkdir -p $$(@D)
	$$(LINK) $(GTEST_LIBS)
$(foreach d,$(wildcard labs/$(l)/*_main.cpp),
$(BUILD)/$(1)/bin/$(patsubst %_main.cpp,%,$(notdir $(d))): $(call obj,$(d)) $(call driver_labs_obj,$(l),$(d),$(1))
	@mkdir -p $$(@D)
	$$(LINK)
))
endef
$(eval $(call impl_rules,reference))
$(eval $(call impl_rules,starter))

$(BUILD)/bin/test_common: $(call obj,$(wildcard tests/common/*.cpp)) $(TEST_MAIN_OBJ) $(KIT_OBJ) $(call reg_obj,none)
	@mkdir -p $(@D)
	$(LINK) $(GTEST_LIBS)

# The CLI tests drive the reference spmv-kit binary as a user would.
$(OBJ)/tests/cli/%: EXTRA_CXXFLAGS += -DKIT_SPMV_KIT_BIN=\"$(abspath $(BUILD))/reference/bin/spmv-kit\"
$(BUILD)/bin/test_cli: $(call obj,$(wildcard tests/cli/*.cpp)) $(TEST_MAIN_OBJ) $(KIT_OBJ) $(call reg_obj,none) | $(BUILD)/reference/bin/spmv-kit
	@mkdir -p $(@D)
	$(LINK) $(GTEST_LIBS)

# Tests of a lab's given tools and data (lab 05's profile reader, lab 06's example matrix) are not
# graded: they live in tests/NN-name/kit/, outside the lab's graded binaries, and link the
# reference (the starter in the student edition).
KIT_IMPL = $(if $(wildcard reference),reference,starter)
LAB_KIT_TESTS = $(foreach l,$(LABS),$(if $(wildcard tests/$(l)/kit/*.cpp),$(BUILD)/bin/test_$(l)_kit))
define lab_kit_rule
$(BUILD)/bin/test_$(1)_kit: $(call obj,$(wildcard tests/$(1)/kit/*.cpp)) $(call reg_obj,$(1)) $(call lab_obj,$(1)) $(TEST_MAIN_OBJ) $(KIT_OBJ) $(call student_obj,$(1),$(KIT_IMPL))
	@mkdir -p $$(@D)
	$$(LINK) $(GTEST_LIBS)
endef
$(foreach l,$(LABS),$(if $(wildcard tests/$(l)/kit/*.cpp),$(eval $(call lab_kit_rule,$(l)))))

# Every binary relinks when the feature set changes (its objects then come from another folder).
ALL_BINS = $(foreach i,reference starter,$(BUILD)/$(i)/bin/spmv-kit $(foreach l,$(LABS),$(BUILD)/$(i)/bin/test_$(l) \
             $(BUILD)/$(i)/bin/test_$(l)_hidden $(patsubst labs/$(l)/%_main.cpp,$(BUILD)/$(i)/bin/%,$(wildcard labs/$(l)/*_main.cpp)))) \
           $(BUILD)/bin/test_common $(BUILD)/bin/test_cli $(LAB_KIT_TESTS)
$(ALL_BINS): $(BUILD)/.features

# ---------------------------------------------------------------- what gets built
has_hidden   = $(wildcard tests/hidden/$(1)/*.cpp)
TEST_BINS    = $(foreach l,$(SEL_LABS),$(BUILD)/$(IMPL)/bin/test_$(l) $(if $(call has_hidden,$(l)),$(BUILD)/$(IMPL)/bin/test_$(l)_hidden))
DRIVER_BINS  = $(foreach l,$(SEL_LABS),$(patsubst labs/$(l)/%_main.cpp,$(BUILD)/$(IMPL)/bin/%,$(wildcard labs/$(l)/*_main.cpp)))
KIT_BIN      = $(BUILD)/$(IMPL)/bin/spmv-kit
KIT_GOALS    = features $(KIT_BIN)

.PHONY: all binaries kit deps deps-info run test sanitize docs starter check-starter verify-starter check-judge dist-student clean help features FORCE

## all            build spmv-kit, the lab drivers and every test binary (IMPL=reference|starter)
all:
	$(call build_goals,binaries)
# What all builds, in its sub-make. The CLI tests drive the reference spmv-kit, so the student
# edition (no reference/) has none.
KIT_TEST_BINS = $(BUILD)/bin/test_common $(if $(wildcard reference),$(BUILD)/bin/test_cli) $(LAB_KIT_TESTS)
# Without GoogleTest the rest still builds (features says the tests were skipped, and why);
# the targets that run tests stop first, naming what to set (need_gtest).
binaries: features $(KIT_BIN) $(DRIVER_BINS) $(if $(filter 1,$(HAVE_GTEST)),$(TEST_BINS) $(KIT_TEST_BINS))
need_gtest = @if [ "$(HAVE_GTEST)" = 0 ]; then echo "error: GoogleTest $(GTEST_WHY). To get it without root: $(dep_hint_GTEST). 'make deps-info' shows where each dependency was looked for" >&2; exit 1; fi

features:
	@if [ "$(HAVE_CUDA)" = 0 ]; then echo "note: CUDA skipped: nvcc not found (install the CUDA Toolkit, or set NVCC=/path/to/nvcc); building the CPU and OpenCL parts only"; fi
	@if [ "$(HAVE_CUDA)" = 1 ] && [ -z "$(SM)" ] && [ -z "$(SM_DETECTED)" ]; then echo "note: no GPU found: CUDA code built for sm_$(SM_DEFAULT) only (set SM=<arch> for your cluster's GPUs, e.g. SM=80)"; fi
	@if [ "$(HAVE_OPENCL)" = 0 ]; then echo "note: OpenCL skipped: $(OPENCL_WHY). To get it: $(dep_hint_OPENCL)"; fi
	@if [ "$(HAVE_ZLIB)" = 0 ]; then echo "note: gzip input (.mtx.gz) unsupported: zlib $(ZLIB_WHY). To get it: $(dep_hint_ZLIB)"; fi
	@if [ "$(HAVE_BZIP2)" = 0 ]; then echo "note: bzip2 input (.mtx.bz2) unsupported: bzip2 $(BZIP2_WHY). To get it: $(dep_hint_BZIP2)"; fi
	@if [ "$(HAVE_MPI)" = 0 ]; then echo "note: MPI skipped: $(MPI_WHY). To get it: $(dep_hint_MPI); lab 10's MPI tests are reported SKIPPED"; fi
	@if [ "$(HAVE_CUDA)" = 1 ] && [ "$(HAVE_MPI)" = 1 ] && [ "$(HAVE_NCCL)" = 0 ]; then echo "note: NCCL skipped: $(NCCL_WHY). To get it: $(dep_hint_NCCL); lab 10's GPU step is reported SKIPPED"; fi
	@if [ "$(HAVE_GTEST)" = 0 ]; then echo "note: tests skipped: GoogleTest $(GTEST_WHY). To get it without root: $(dep_hint_GTEST)"; fi

## kit            build spmv-kit only (the ./spmv-kit front end does, when its binary is out of date)
kit:
	$(call build_goals,$(KIT_GOALS))

## deps           install missing Debian/Ubuntu packages (as root), or print what to install and how to point the build at it
deps:
	@KIT_DEPS_SAY_OK=$(if $(filter deps,$(MAKECMDGOALS)),1,0) KIT_DEP_GTEST=$(HAVE_GTEST) KIT_DEP_OPENCL=$(HAVE_OPENCL) KIT_DEP_ZLIB=$(HAVE_ZLIB) KIT_DEP_BZIP2=$(HAVE_BZIP2) \
	  KIT_DEP_BENCHMARK=$(HAVE_BENCHMARK) KIT_DEP_MPI=$(HAVE_MPI) scripts/setup/deps.sh

## deps-info      where GoogleTest, Google Benchmark, OpenCL, zlib, bzip2, MPI and NCCL were found, and the flags they add
deps-info:
	@$(foreach d,GTEST BENCHMARK OPENCL ZLIB BZIP2 MPI NCCL,echo '$(d): $(if $(filter 1,$(HAVE_$(d))),found by $($(d)_FROM); flags: $(strip $($(d)_CFLAGS) $($(d)_LDLIBS)),$($(d)_WHY))';)

## run            every format and backend on the 4x4 example and rdb450, as one table
run: deps
	$(call build_goals,$(KIT_GOALS))
	@$(KIT_BIN) table matrices/example4x4.mtx matrices/rdb450.mtx

## test           build and run the tests (LAB=all|NN-name, STEP=N: one step's tests, IMPL=reference|starter); ends with one summary line
test: deps
	$(need_gtest)
	@if [ -n "$(STEP)" ] && { [ "$(LAB)" = all ] || [ "$(words $(SEL_LABS))" != 1 ]; }; then \
	  echo "error: STEP=$(STEP) needs one lab: make test LAB=NN-name STEP=$(STEP)" >&2; exit 2; fi
	@if [ -n "$(STEP)" ]; then steps=$$(python3 scripts/labs/lab_manifests.py steps $(SEL_LABS) | tr '\n' ' '); \
	  case " $$steps" in *" $(STEP) "*) ;; *) echo "error: $(SEL_LABS) has no step $(STEP); its steps: $$steps" >&2; exit 2;; esac; fi
	$(call build_goals,binaries)
	@python3 scripts/testing/check_includes.py
	@python3 scripts/testing/check_citations.py
	@python3 scripts/testing/check_sizes.py
	@# The tests run even when a check before them fails, and their summary line comes last.
	@status=0; \
	  python3 scripts/testing/check_manifests.py $(BUILD)/$(IMPL)/bin $(SEL_LABS) || status=1; \
	  if [ "$(LAB)" = all ] && [ "$(IMPL)" = reference ]; then $(MAKE) --no-print-directory check-starter || status=1; fi; \
	  $(MAKE) --no-print-directory check-cuda-catalogue || status=1; \
	  $(if $(STEP),GTEST_FILTER='Step$(STEP)_*' KIT_STEP=$(STEP)) scripts/testing/run_tests.sh $(BUILD)/test-logs/$(IMPL) $(if $(STEP),,$(if $(filter all,$(LAB)),$(KIT_TEST_BINS),$(foreach l,$(SEL_LABS),$(filter %/test_$(l)_kit,$(LAB_KIT_TESTS))))) $(TEST_BINS) || status=1; \
	  exit $$status

##! verify-starter build the starter and check that every lab test fails (no test passes on TODOs)
verify-starter:
	$(need_gtest)
	$(call build_goals,binaries IMPL=starter)
	@scripts/testing/verify_starter.sh $(BUILD)/test-logs/starter-check $(foreach l,$(SEL_LABS),$(BUILD)/starter/bin/test_$(l) $(if $(call has_hidden,$(l)),$(BUILD)/starter/bin/test_$(l)_hidden))

##! check-judge    the grader's judge (tests linked with the starter) replays the reference's recorded calls: all pass
check-judge:
ifeq ($(wildcard reference),)
	@echo "check-judge: this edition has no reference/ (the student edition): nothing to check"
else
	$(need_gtest)
	$(call build_goals,binaries IMPL=reference)
	$(call build_goals,binaries IMPL=starter)
	@scripts/testing/check_judge.sh $(BUILD) $(BUILD)/test-logs/judge-check $(SEL_LABS)
endif

## sanitize       CPU and OpenCL tests under AddressSanitizer and UBSan (build-asan/, no CUDA)
sanitize:
	@$(MAKE) --no-print-directory test BUILD=build-asan NVCC= V=$(V) \
	  CXXFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined" LDFLAGS="-fsanitize=address,undefined"

##! starter        regenerate starter/ from reference/ (solution regions become TODOs)
starter:
	@python3 scripts/edition/make_starter.py reference starter

##! check-starter  fail if starter/ is out of date with reference/
check-starter:
	@python3 scripts/edition/make_starter.py reference starter --check

##! cuda-catalogue rewrite cli/cuda_catalogue.cpp from this CUDA build: the labs' CUDA kernels by name, for builds without nvcc
.PHONY: cuda-catalogue check-cuda-catalogue
cuda-catalogue:
	$(call build_goals,$(KIT_GOALS))
	@$(KIT_BIN) list --cuda-catalogue > cli/cuda_catalogue.cpp.tmp && mv cli/cuda_catalogue.cpp.tmp cli/cuda_catalogue.cpp
	@echo "wrote cli/cuda_catalogue.cpp"
	$(call build_goals,$(KIT_GOALS))

# A build without CUDA cannot check the catalogue: it has no CUDA registrations to compare with.
check-cuda-catalogue:
	@if [ "$(HAVE_CUDA)" = 1 ]; then $(KIT_BIN) list --check-cuda-catalogue || \
	  { echo "error: cli/cuda_catalogue.cpp is behind the labs' CUDA registrations: run 'make cuda-catalogue'" >&2; exit 1; }; fi

## check-sizes    fail on a library folder over 20 source files, a file over 500 lines, a function over 60
.PHONY: check-sizes
check-sizes:
	@python3 scripts/testing/check_sizes.py

## docs           Doxygen (no warnings allowed) and the handouts as HTML
docs:
	@scripts/docs/make_docs.sh $(BUILD)/docs

##! dist-student   the student edition: no reference/, no tests/hidden/
dist-student:
	@scripts/edition/dist_student.sh $(BUILD)/dist

## clean          remove the build folders (build/, and build-asan/ of make sanitize); your files stay
clean:
	rm -rf $(BUILD) build-asan

## help           this list
help:
	@echo "SpMV GPU Lab Kit. Start with: make run; make test"
	@echo "Variables: LAB=all|$(subst $() ,|,$(LABS))  IMPL=reference|starter  SM=<arch, e.g. 90>  BUILD=<dir>  V=1 (command lines)"
	@echo "Builds use every core unless you give -jN (make -j1 test: one step at a time)"
	@grep -hE '^## ' $(MAKEFILE_LIST) | sed 's/^## /  make /'
	@# Targets that work on reference/ (marked ##!) exist only in the instructor's kit.
	@if [ -d reference ]; then echo "Instructor targets (reference/ and the student edition):"; \
	  grep -hE '^##! ' $(MAKEFILE_LIST) | sed 's/^##! /  make /'; fi

# Feature areas keep their own targets beside their code (grading, benchmarks, cluster jobs).
include $(wildcard grader/*.mk bench/*.mk jobs/*.mk fuzz/*.mk)

-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)
