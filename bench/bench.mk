# Benchmarks: every registered kernel and the cuSPARSE baselines on the matrix suite.
# Included by the top-level Makefile; bench/README.md explains the method and the outputs.
#
#   make bench                      SIZE=auto: large with a CUDA device, else small
#   make bench SIZE=tiny OUT=dir    choose the matrix sizes and where the results go
#   make bench BENCH_ARGS='--benchmark_filter=stencil --repeats=50'
#   make bench-plot OUT=dir         redraw the plots from dir/bench.json

BENCH_BIN   := $(BUILD)/$(IMPL)/bin/spmv-bench
ifeq ($(origin OUT),command line)
BENCH_OUT   ?= $(OUT)
endif
BENCH_OUT   ?= $(BUILD)/bench
SIZE        ?= auto
PRECISION   ?= double,float
BENCH_ARGS  ?=
BENCH_OBJ    = $(call obj,$(filter-out bench/reader_bench.cpp,$(call sources_in,bench)))
# The Matrix Market reader on a generated file (kept under the build folder, never committed).
READER_BENCH_BIN := $(BUILD)/bin/reader-bench
READER_BENCH_NNZ ?= $(if $(filter tiny,$(SIZE)),1000000,50000000)
# cuSPARSE and cuBLAS only where CUDA is built; the rpath finds their .so files at run time without LD_LIBRARY_PATH.
bench_comma := ,
BENCH_LIBS  := -lbenchmark -lpthread $(if $(filter 1,$(HAVE_CUDA)),-L$(CUDA_HOME)/lib64 -lcusparse -lcublas -Wl$(bench_comma)-rpath$(bench_comma)$(CUDA_HOME)/lib64)

$(BENCH_BIN): $(BENCH_OBJ) $(call reg_obj,all) $(call ALL_LAB_OBJ,$(IMPL)) $(KIT_OBJ) $(BUILD)/.features
	@mkdir -p $(@D)
	$(call say,LINK,$@)
	$(Q)$(CXX) $(LDFLAGS) -o $@ $(filter-out %.features,$^) $(LDLIBS) $(BENCH_LIBS)

$(READER_BENCH_BIN): $(call obj,bench/reader_bench.cpp) $(KIT_OBJ) $(call reg_obj,none)
	@mkdir -p $(@D)
	$(LINK)

.PHONY: bench bench-plot bench-validate

## bench          every kernel vs cuSPARSE and the copy ceiling: JSON, table, plots (SIZE=tiny|small|medium|large OUT=dir)
bench: deps
	@if [ ! -e /usr/include/benchmark/benchmark.h ]; then echo "bench: Google Benchmark missing: run 'make deps' (libbenchmark-dev)" >&2; exit 1; fi
	$(call build_goals,features $(BENCH_BIN) $(READER_BENCH_BIN))
	@mkdir -p $(BENCH_OUT) $(BUILD)/bench-data
	@$(READER_BENCH_BIN) --file $(BUILD)/bench-data/reader-$(READER_BENCH_NNZ).mtx --nnz $(READER_BENCH_NNZ) --out $(BENCH_OUT)/reader.txt
	@. scripts/setup/opencl_env.sh; $(BENCH_BIN) --size=$(SIZE) --precision=$(PRECISION) --out=$(BENCH_OUT) $(BENCH_ARGS); \
	  status=$$?; $(MAKE) --no-print-directory bench-plot BENCH_OUT=$(BENCH_OUT); exit $$status

## bench-plot     draw the PNG plots from OUT=dir/bench.json (needs python3-matplotlib)
bench-plot:
	@for py in python3 /usr/bin/python3; do \
	   if $$py -c 'import matplotlib' 2>/dev/null; then exec $$py bench/analysis/plot.py $(BENCH_OUT)/bench.json $(BENCH_OUT); fi; \
	 done; \
	 echo "bench: plots skipped: matplotlib not found (make deps installs python3-matplotlib); later: make bench-plot OUT=$(BENCH_OUT)"

## bench-validate  event times and bytes models against Nsight Compute on a fixed subset (GPU, ncu): OUT=dir
bench-validate:
	@command -v ncu >/dev/null || { echo "bench-validate: ncu (Nsight Compute) not found; run it on a GPU node with the CUDA Toolkit" >&2; exit 2; }
	$(call build_goals,features $(BENCH_BIN))
	@mkdir -p $(BENCH_OUT)
	@python3 bench/analysis/validate.py $(BENCH_BIN) $(BENCH_OUT) --size=$(if $(filter auto,$(SIZE)),large,$(SIZE))

.PHONY: bench-gemv
## bench-gemv     lab 09: GEMV vs cuBLAS on dense sizes, read ceiling, best sparse kernel (GPU): OUT=dir
bench-gemv: deps
	$(call build_goals,features $(BENCH_BIN))
	@mkdir -p $(BENCH_OUT)
	@$(BENCH_BIN) --gemv-sweep --precision=$(PRECISION) --out=$(BENCH_OUT) $(BENCH_ARGS) | tee $(BENCH_OUT)/gemv_sweep.txt; \
	  status=$${PIPESTATUS[0]}; \
	  for py in python3 /usr/bin/python3; do \
	    if $$py -c 'import matplotlib' 2>/dev/null; then $$py bench/analysis/plot_gemv.py $(BENCH_OUT)/gemv_sweep.csv $(BENCH_OUT); break; fi; \
	  done; exit $$status
