# Benchmarks: every registered kernel and the cuSPARSE baselines on the matrix suite.
# Included by the top-level Makefile; bench/README.md explains the method and the outputs.
#
#   make bench                      SIZE=auto: large with a CUDA device, else the quick host run below
#   make bench SIZE=tiny OUT=dir    choose the matrix sizes and where the results go
#   make bench BENCH_ARGS='--benchmark_filter=stencil --repeats=50'
#   make bench-info                 what `make bench` would run here, and what it leaves out; runs nothing
#   make bench-plot OUT=dir         redraw the plots from dir/bench.json (else dir/summary.csv)
#   make bench-plot                 the same from build/bench, else the newest bench/results/ run that has one
#
# Without a CUDA device (no nvcc, or no GPU on this machine), BENCH_QUICK=auto makes `make bench`
# a quick host run of a few minutes: SIZE=tiny (unless SIZE is given), BENCH_QUICK_REPEATS cold
# repeats, OpenCL only on the two launch-bound matrices (on a CPU, PoCL evicts a 256 MB cache
# buffer before every repeat: 8.6 s a run at 20 repeats), and the reader benchmark at 1M entries.
# BENCH_QUICK=0 runs the whole suite anyway (on 2 cores, over 20 minutes); BENCH_QUICK=1 forces
# the quick run on a GPU machine. Nothing here runs under `make -n bench` but the build's dry run:
# no recipe line below calls $(MAKE), which make would run even under -n.

BENCH_BIN   := $(BUILD)/$(IMPL)/bin/spmv-bench
ifeq ($(origin OUT),command line)
BENCH_OUT   ?= $(OUT)
endif
BENCH_OUT   ?= $(BUILD)/bench
SIZE        ?= auto
PRECISION   ?= double,float
BENCH_ARGS  ?=
BENCH_OBJ    = $(call obj,$(filter-out bench/reader_bench.cpp,$(call sources_in,bench)))
# The Matrix Market reader on a generated file, written to a temporary folder that is removed
# afterwards (50M entries make about 1.7 GB): its size follows SIZE, 1M entries in the quick run.
READER_BENCH_BIN := $(BUILD)/bin/reader-bench
READER_BENCH_NNZ ?=
BENCH_QUICK ?= auto
BENCH_QUICK_REPEATS ?= 5
# The smallest matrices of every suite: the only ones OpenCL runs on in the quick host run.
BENCH_QUICK_OPENCL ?= rdb450|stencil2d_64x64
BENCH_QUICK_FILTER = ^ceiling/|^spmv/[^/]+/[^/]+/cpu/|^spmv/($(BENCH_QUICK_OPENCL))/[^/]+/opencl/
# The run's plan, in shell, shared by bench and bench-info: sets quick (1/0), why, size, repeats,
# filter, nnz (the reader benchmark's entries) and left (what the quick run leaves out).
define bench_plan
quick=0; why=; \
if [ "$(BENCH_QUICK)" = 1 ]; then quick=1; why="BENCH_QUICK=1"; \
elif [ "$(BENCH_QUICK)" = auto ]; then \
  if [ "$(HAVE_CUDA)" != 1 ]; then quick=1; why="built without CUDA: nvcc not found"; \
  elif ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then quick=1; why="no CUDA GPU here: nvidia-smi lists none"; fi; \
fi; \
size=$(SIZE); repeats=; filter=; left=; \
if [ $$quick = 1 ]; then \
  [ "$$size" = auto ] && size=tiny; repeats=$(BENCH_QUICK_REPEATS); filter='$(BENCH_QUICK_FILTER)'; \
  left="OpenCL on every matrix but $(subst |, and ,$(BENCH_QUICK_OPENCL)) (PoCL on a CPU takes about 9 s a run at 20 repeats); repeats cut from 20 to $$repeats; the reader benchmark at 1M entries, not 50M"; \
  [ "$(HAVE_CUDA)" = 1 ] && left="CUDA kernels and cuSPARSE (no GPU); $$left" || left="CUDA kernels and cuSPARSE (built without CUDA); $$left"; \
fi; \
case $$size in tiny) nnz=1000000;; small) nnz=5000000;; medium) nnz=20000000;; *) nnz=50000000;; esac; \
[ $$quick = 1 ] && nnz=1000000; \
[ -n "$(READER_BENCH_NNZ)" ] && nnz=$(READER_BENCH_NNZ)
endef
# Says the plan (the bench-info lines).
define bench_say_plan
if [ $$quick = 1 ]; then \
  echo "bench: quick host run ($$why): SIZE=$$size, $$repeats cold repeats, OpenCL only on $(subst |, and ,$(BENCH_QUICK_OPENCL)), reader benchmark at $$nnz entries; a few minutes"; \
  echo "bench: left out: $$left"; \
  echo "bench: BENCH_QUICK=0 runs the whole suite without a GPU (over 20 minutes on 2 cores)"; \
else \
  echo "bench: full run: SIZE=$$size (auto: large with a CUDA device), $(PRECISION), reader benchmark at $$nnz entries$(if $(BENCH_ARGS), BENCH_ARGS=$(BENCH_ARGS))"; \
fi
endef
# Draws the plots from the first of $(1) that holds a run (its bench.json, else its summary.csv; a
# folder of runs such as bench/results: its newest run that has one), with the first python3 that
# has matplotlib; plot.py names the folders it skipped and why. The status is plot.py's.
define bench_plot
plotted=; for py in python3 /usr/bin/python3; do \
  if $$py -c 'import matplotlib' 2>/dev/null; then $$py bench/analysis/plot.py $(1); plotted=$$?; break; fi; \
done; \
[ -n "$$plotted" ] || echo "bench: plots skipped: matplotlib not found (make deps installs python3-matplotlib); later: make bench-plot OUT=$(firstword $(1))"; \
[ "$${plotted:-0}" = 0 ]
endef
# Google Benchmark from where the Makefile found it (make deps-info). cuSPARSE and cuBLAS only
# where CUDA is built; the rpath finds their .so files at run time without LD_LIBRARY_PATH.
bench_comma := ,
$(OBJ)/bench/%: EXTRA_CXXFLAGS += $(BENCHMARK_CFLAGS)
BENCH_LIBS  := $(BENCHMARK_LDLIBS) -lpthread $(if $(filter 1,$(HAVE_CUDA)),-L$(CUDA_HOME)/lib64 -lcusparse -lcublas -Wl$(bench_comma)-rpath$(bench_comma)$(CUDA_HOME)/lib64)

$(BENCH_BIN): $(BENCH_OBJ) $(call reg_obj,all) $(call ALL_LAB_OBJ,$(IMPL)) $(KIT_OBJ) $(BUILD)/.features
	@mkdir -p $(@D)
	$(call say,LINK,$@)
	$(Q)$(CXX) $(LDFLAGS) -o $@ $(filter-out %.features,$^) $(LDLIBS) $(BENCH_LIBS)

$(READER_BENCH_BIN): $(call obj,bench/reader_bench.cpp) $(KIT_OBJ) $(call reg_obj,none)
	@mkdir -p $(@D)
	$(LINK)

.PHONY: bench bench-info bench-plot bench-validate

## bench          every kernel vs cuSPARSE and the copy ceiling: JSON, table, plots (SIZE=tiny|small|medium|large OUT=dir); without a GPU a quick host run
bench: deps
	@if [ "$(HAVE_BENCHMARK)" != 1 ]; then echo "bench: Google Benchmark $(BENCHMARK_WHY). To get it without root: $(dep_hint_BENCHMARK)" >&2; exit 1; fi
	$(call build_goals,features $(BENCH_BIN) $(READER_BENCH_BIN) $(KIT_BIN))
	@$(bench_plan); $(bench_say_plan); \
	  mkdir -p $(BENCH_OUT) || exit 1; \
	  tmp=$$(mktemp -d "$${TMPDIR:-/tmp}/spmv-reader.XXXXXX") || exit 1; trap 'rm -rf "$$tmp"' EXIT; \
	  echo "bench: reader benchmark: $$nnz generated entries in $$tmp (removed afterwards)"; \
	  $(READER_BENCH_BIN) --file "$$tmp/reader.mtx" --nnz $$nnz --info $(KIT_BIN) --out $(BENCH_OUT)/reader.txt; status=$$?; \
	  rm -rf "$$tmp"; \
	  . scripts/setup/opencl_env.sh; \
	  $(BENCH_BIN) --size=$$size --precision=$(PRECISION) --out=$(BENCH_OUT) $${repeats:+--repeats=$$repeats} \
	    $${filter:+"--benchmark_filter=$$filter"} $(BENCH_ARGS) || status=$$?; \
	  [ $$quick = 1 ] && echo "bench: this was the quick host run; left out: $$left"; \
	  $(call bench_plot,$(BENCH_OUT)); exit $$status

## bench-info     what make bench would run here (quick host run or full) and what it leaves out; runs nothing
bench-info:
	@$(bench_plan); $(bench_say_plan); \
	  if [ "$(HAVE_BENCHMARK)" != 1 ]; then echo "bench: Google Benchmark $(BENCHMARK_WHY)"; fi

## bench-plot     draw the PNG plots from OUT=dir/bench.json or summary.csv; no OUT: build/bench, else the newest bench/results/ run (needs python3-matplotlib)
bench-plot:
	@$(call bench_plot,$(BENCH_OUT) $(if $(filter command line,$(origin OUT)),,bench/results))

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
