/// @file bench_multi.hpp
/// @brief Lab 10's strong-scaling benchmark (`make bench-multi`, the bench_multi driver started by
/// mpirun at 1, 2 and 4 ranks, one GPU each): the per-iteration time of the distributed multiply
/// with its exchange, in steady state as a solver calls it (each iteration's exchange waits for the
/// previous product, no host synchronisation between iterations), beside the local product, the
/// exchange and the remote product timed alone; the halo bytes per rank and the link bandwidth
/// they achieved, against a model of the exchange: its latency (the same exchange with one value
/// a message) plus the bytes at the link bandwidth measured with large NCCL messages, and the
/// same model with the gather's own time (packing the send lists) beside it. With
/// --timeline, also when each rank's exchange and products ran, to see whether they overlap.
#pragma once
#include <string>

namespace kit::dist {

/// @brief What bench_multi runs.
struct BenchMultiOptions {
    std::string matrix = "stencil27";  ///< stencil27 (n^3 rows), random or power-law (n rows)
    int n = 160;                       ///< grid side (stencil27) or rows (random, power-law)
    int iters = 100;                   ///< timed iterations per measure
    int warmup = 10;                   ///< untimed iterations before each measure
    std::string csv;                   ///< a file rank 0 appends its result row to ("": none)
    /// The registered CUDA kernel each rank multiplies its local block with ("given": the lab's
    /// scalar CSR kernel, the one halo_spmv_nccl's tests use).
    std::string local = "ell";
    /// The same for the remote block (owned rows x halo): "given" by default; a random matrix's
    /// remote block is most of its entries, and a kernel such as csr-vector suits it better.
    std::string remote = "given";
    /// A CSV for the overlap timeline ("": none): after the timed runs, 5 iterations with CUDA
    /// events at each phase's begin and end (gather, NCCL exchange, local and remote product),
    /// every rank's written by rank 0 to this name with `-<ranks>ranks` before its extension
    /// (timeline.csv: timeline-2ranks.csv at 2 ranks); bench/analysis/multi_timeline.py draws it.
    std::string timeline;
};

/// @brief Runs the benchmark on MPI_COMM_WORLD, one GPU per rank (double precision); rank 0
/// prints the result. Built only with CUDA, MPI and NCCL (bench_multi_nccl.cu).
/// @param o [in] options  @return the process exit status (0: measured; 2: no GPU for a rank)
int run_bench_multi(const BenchMultiOptions& o);

}  // namespace kit::dist
