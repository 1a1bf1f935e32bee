# Lab 10's strong scaling (included by the top-level Makefile): the bench_multi driver under
# mpirun at each rank count of BENCH_MULTI_RANKS, one GPU per rank, with NCCL_NVLS_ENABLE=0
# unless set (scripts/testing/mpi_launch.sh). labs/10-multi-gpu/bench_multi.hpp says what it measures.
#
#   make bench-multi                                   stencil27 on 160^3 at 1, 2 and 4 GPUs
#   make bench-multi BENCH_MULTI_ARGS='--matrix random --n 4000000' BENCH_MULTI_RANKS='1 2'
#   make bench-multi BENCH_MULTI_ARGS='--timeline build/bench-multi/timeline.csv'
#                                                      also when each phase ran: timeline-<P>ranks.csv
#                                                      per rank count (bench/analysis/multi_timeline.py)
#
# Results: $(BENCH_MULTI_OUT)/bench_multi.csv (one row per matrix and rank count, appended) and
# topology.txt (nvidia-smi topo -m and the GPUs' names). KIT_MPIRUN picks another launcher
# ("srun --mpi=pmix -n", see scripts/testing/mpi_launch.sh). Without CUDA, MPI and NCCL in the
# build, or without a GPU here, it says so and runs nothing.
BENCH_MULTI_RANKS ?= 1 2 4
BENCH_MULTI_ARGS  ?=
BENCH_MULTI_OUT   ?= $(BUILD)/bench-multi
BENCH_MULTI_BIN   := $(BUILD)/$(IMPL)/bin/bench_multi

.PHONY: bench-multi

## bench-multi    lab 10: per-iteration SpMV with its halo exchange on 1, 2, 4 GPUs (BENCH_MULTI_RANKS), halo bytes, link GB/s
bench-multi: deps
	@if [ "$(HAVE_NCCL_BUILD)" != 1 ]; then echo "bench-multi: needs CUDA, MPI and NCCL at build time (cuda=$(HAVE_CUDA) mpi=$(HAVE_MPI) nccl=$(HAVE_NCCL)); make features says what is missing" >&2; exit 2; fi
	$(call build_goals,features $(BENCH_MULTI_BIN))
	@gpus=$$(nvidia-smi -L 2>/dev/null | grep -c '^GPU'); \
	  if [ "$$gpus" = 0 ]; then echo "bench-multi: no GPU here (nvidia-smi lists none): run it on a node with 4 GPUs (see jobs/)" >&2; exit 2; fi; \
	  mkdir -p $(BENCH_MULTI_OUT) || exit 1; \
	  { nvidia-smi -L; echo; nvidia-smi topo -m; } > $(BENCH_MULTI_OUT)/topology.txt 2>&1; \
	  . scripts/testing/mpi_launch.sh; \
	  for n in $(BENCH_MULTI_RANKS); do \
	    if [ "$$n" -gt "$$gpus" ]; then echo "bench-multi: $$n ranks left out: $$gpus GPU(s) here"; continue; fi; \
	    echo "bench-multi: $$n rank(s): $$(kit_mpirun $$n) $(BENCH_MULTI_BIN) --csv $(BENCH_MULTI_OUT)/bench_multi.csv $(BENCH_MULTI_ARGS)"; \
	    $$(kit_mpirun $$n) $(BENCH_MULTI_BIN) --csv $(BENCH_MULTI_OUT)/bench_multi.csv $(BENCH_MULTI_ARGS) || exit 1; \
	  done; \
	  echo "bench-multi: results in $(BENCH_MULTI_OUT)/bench_multi.csv, topology in $(BENCH_MULTI_OUT)/topology.txt"
