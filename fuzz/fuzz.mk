# Fuzzing the Matrix Market reader and the format conversions with libFuzzer (clang, with
# AddressSanitizer and UBSan). Included by the top-level Makefile.
#
#   make fuzz                       run for FUZZ_SECONDS (60) from the seed corpus in fuzz/corpus/
#   make fuzz FUZZ_SECONDS=1800     a longer session; findings land in $(BUILD)/fuzz/findings/
#
# The working corpus grows under $(BUILD)/fuzz/corpus/ (never committed); fuzz/corpus/ holds
# only the hand-written seeds.

FUZZ_CXX      ?= clang++
FUZZ_SECONDS  ?= 60
FUZZ_DIR      := $(BUILD)/fuzz
FUZZ_BIN      := $(FUZZ_DIR)/mtx-fuzz
# The kit's host code, every lab's CPU registration and the reference CPU kernels: what
# a build without CUDA, OpenCL and MPI holds (the registration list is generated as the
# Makefile does it).
FUZZ_HOST_SRC  = $(filter-out %_opencl.cpp %_mpi.cpp %_main.cpp,$(wildcard $(1)/*.cpp))
FUZZ_SRC      := fuzz/mtx_fuzz.cpp $(foreach d,$(KIT_DIRS),$(call FUZZ_HOST_SRC,$(d:/=))) \
                 $(foreach l,$(LABS),$(call FUZZ_HOST_SRC,labs/$(l)) $(call FUZZ_HOST_SRC,reference/$(l))) \
                 $(FUZZ_DIR)/gen/labs-all.cpp
FUZZ_OBJ      := $(patsubst %,$(FUZZ_DIR)/obj/%.o,$(patsubst $(FUZZ_DIR)/%,%,$(FUZZ_SRC)))
FUZZ_SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CXXFLAGS  = -std=c++17 -g -O1 -fno-omit-frame-pointer -MMD -MP $(FUZZ_SANITIZE) -fsanitize=fuzzer-no-link \
                 $(INCLUDES) $(FUZZ_LAB_INCLUDES) -DKIT_HAVE_CUDA=0 -DKIT_HAVE_OPENCL=0 -DKIT_HAVE_MPI=0 \
                 -DKIT_HAVE_NCCL=0 $(filter-out -DKIT_HAVE_CUDA=% -DKIT_HAVE_OPENCL=% -DKIT_HAVE_MPI=% -DKIT_HAVE_NCCL=%,$(DEFINES))
# a lab's files see their own lab, as in the main build
$(foreach l,$(LABS),$(foreach d,labs reference,$(eval $(FUZZ_DIR)/obj/$(d)/$(l)/%: FUZZ_LAB_INCLUDES := -Ilabs/$(l))))

$(FUZZ_DIR)/gen/labs-all.cpp: $(BUILD)/.labs
	@mkdir -p $(@D)
	@scripts/codegen/gen_registration.sh $@ $(LABS)
$(FUZZ_DIR)/obj/gen/%.cpp.o: $(FUZZ_DIR)/gen/%.cpp
	@mkdir -p $(@D)
	$(call say,FUZZCXX,$<)
	$(Q)$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -c $< -o $@

$(FUZZ_DIR)/obj/%.cpp.o: %.cpp
	@mkdir -p $(@D)
	$(call say,FUZZCXX,$<)
	$(Q)$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -c $< -o $@

# header dependencies, so a changed header rebuilds what includes it
-include $(FUZZ_OBJ:.o=.d)

$(FUZZ_BIN): $(FUZZ_OBJ)
	$(call say,LINK,$@)
	$(Q)$(FUZZ_CXX) $(FUZZ_SANITIZE) -fsanitize=fuzzer -o $@ $^ $(filter -lz -lbz2 -lpthread,$(LDLIBS))

.PHONY: fuzz fuzz-build
fuzz-build:
	@if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' | \
	   $(FUZZ_CXX) -x c++ -fsanitize=fuzzer,address - -o /dev/null 2>/dev/null; then \
	   echo "fuzz: $(FUZZ_CXX) cannot build a libFuzzer target: install clang and libclang-rt-dev (make deps)" >&2; exit 3; fi
	$(call build_goals,$(FUZZ_BIN))

## fuzz           libFuzzer on the Matrix Market reader and every from_coo, ASan+UBSan (FUZZ_SECONDS=60)
fuzz: fuzz-build
	@mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/findings
	@# compressed seeds are made here, not committed (the repository holds text only)
	@for f in example4x4 symmetric-both-triangles array-general; do \
	   command -v gzip >/dev/null && gzip -c fuzz/corpus/$$f.mtx > $(FUZZ_DIR)/corpus/$$f.mtx.gz; \
	   command -v bzip2 >/dev/null && bzip2 -c fuzz/corpus/$$f.mtx > $(FUZZ_DIR)/corpus/$$f.mtx.bz2; true; done
	@echo "fuzz: $(FUZZ_SECONDS) s from the seeds in fuzz/corpus/; findings go to $(FUZZ_DIR)/findings/"
	@ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
	  -artifact_prefix=$(FUZZ_DIR)/findings/ $(FUZZ_DIR)/corpus fuzz/corpus
