/// @file spmv_bench_run.hpp
/// @brief The state of one spmv-bench run, as one object that every benchmark is given.
///
/// main() builds a BenchRun (options, suite, kernels, ceilings), registers one Google
/// Benchmark per kernel, matrix and precision with a lambda that captures the run, and
/// reads the records back at the end. Nothing lives in a global: a test or a second run
/// can make its own BenchRun.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "check/checked_run.hpp"
#include "measure/bandwidth_ceiling.hpp"
#include "model/format_model.hpp"
#include "registry/variants.hpp"
#include "report.hpp"
#include "suite.hpp"

namespace bench {

/// @brief spmv-bench's own options (bench_usage() lists them); Google Benchmark's are removed first.
struct BenchOptions {
    std::string size = "auto";  ///< auto|tiny|small|medium|large
    std::vector<kit::Precision> precisions = {kit::Precision::f64, kit::Precision::f32};  ///< in run order
    int repeats = 20;               ///< cold repeats per kernel (median)
    int steady = 100;               ///< GPU calls back to back, steady figure
    int warmup = 3;                 ///< untimed runs before the repeats
    std::string out_dir;            ///< where the JSON and summaries go
    std::int64_t cpu_max_nnz = -1;  ///< -1: 4M with a GPU, unlimited without
    bool bcsr_sweep = false;        ///< also every block size 1..4 x 1..4
    bool gemv_sweep = false;        ///< run lab 09's GEMV sweep instead
    int gemv_max_n = 0;             ///< the sweep's largest size; 0: every size
    bool list = false;              ///< print the suite and kernels only
    std::string suitesparse_dir = std::string(KIT_MATRICES_DIR) + "/suitesparse";  ///< downloaded .mtx files
};

/// @brief The usage text of spmv-bench (printed by --help and on an unknown option).
const char* bench_usage();

/// @brief Reads spmv-bench's options. @throws kit::Error on an unknown option, with the usage.
/// @param argc [in] argument count, Google Benchmark's flags already removed
/// @param argv [in] arguments
BenchOptions parse_bench_options(int argc, char** argv);

/// @brief Seconds since the program started.
double elapsed_s();

/// @brief printf to stderr with the elapsed time in front: the run's progress lines.
void progress(const char* format, ...);

/// @brief A count as "12.3k" or "4.56M", for progress lines.
std::string millions(std::int64_t n);

/// @brief The matrix the benchmarks currently use, with its vectors and the oracle's answer.
///
/// Only one is held at a time: benchmarks run in registration order, matrix by matrix.
struct LoadedMatrix {
    int index = -1;                       ///< suite index, -1 before the first
    std::unique_ptr<kit::Reference> ref;  ///< null until made, and when making it failed
    std::string error;                    ///< the matrix could not be made or read
};

/// @brief One benchmark: a kernel on a matrix in a precision, maybe with forced tunables (a block size).
struct BenchJob {
    int matrix = 0;                                  ///< suite index
    kit::Precision precision = kit::Precision::f64;  ///< precision of the run
    const kit::Variant* variant = nullptr;           ///< points into BenchRun::variants
    std::map<std::string, int> tunables;             ///< forced tunables (--bcsr-sweep); empty: the variant picks
    std::string kernel;                              ///< variant name, with "@2x3" (the forced values) if any
};

/// @brief Everything the benchmarks of one run share, and what they leave for the summary.
struct BenchRun {
    BenchOptions opt;                                        ///< the command line
    std::vector<MatrixSpec> suite;                           ///< matrices, in run order
    std::vector<kit::Variant> variants;                      ///< the registry's, then cuSPARSE's
    std::map<kit::Backend, kit::BandwidthCeiling> ceilings;  ///< measured at the start
    std::map<kit::Backend, bool> on_gpu;                     ///< whether a backend's device is a GPU
    bool have_cuda = false;                                  ///< a CUDA device is there
    std::int64_t cpu_max_nnz = 0;                            ///< host-side runs above this are skipped; < 0: none
    LoadedMatrix loaded;                                     ///< the matrix in memory
    std::vector<Record> records;                             ///< one per benchmark that ran
    std::map<std::string, double> csr_baseline_ms;           ///< "matrix/precision" -> fastest cuSPARSE CSR
    std::set<std::string> baseline_runs;                     ///< "matrix/precision/kernel" already attempted
    std::vector<std::string> skipped_parts;                  ///< lines for the start and the end of the run
    /// Lab 08's model: its device parameters, and per "matrix/precision" each covered kernel's
    /// predicted ms and the pick (empty when the model is not built in or the matrix is limited).
    kit::model::DeviceParams model_params;
    std::string model_source;                                    ///< where model_params came from
    std::map<std::string, kit::model::ModelReport> predictions;  ///< "matrix/precision" -> report

    /// @brief "matrix/precision", the key of the baselines and the predictions.
    std::string key_of(int matrix, kit::Precision p) const;
    /// @brief Whether backend `b` runs on a GPU in this run.
    bool runs_on_gpu(kit::Backend b) const;
    /// @brief Makes matrix `index` the loaded one (freeing the previous), with its oracle answer.
    const LoadedMatrix& load(int index);
    /// @brief The options of one checked run: repeats cut down for host kernels on big matrices.
    kit::RunOptions run_options(const BenchJob& job, std::int64_t nnz) const;
    /// @brief Keeps `ms` as the CSR baseline of `key` if it is the fastest so far.
    void note_baseline(const std::string& key, double ms);
    /// @brief Fastest cuSPARSE CSR time on the job's matrix and precision, running the baselines
    /// (unreported) if their own benchmarks were filtered out; 0 if there is none.
    double csr_baseline(const BenchJob& job, const LoadedMatrix& m);

private:
    void predict_formats(int index, const kit::CooMatrix& A);
};

/// @brief Whether `v` is one of cuSPARSE's CSR baselines (both algorithms).
bool is_csr_baseline(const kit::Variant& v);

/// @brief Registers the ceiling benchmarks and one benchmark per job, each capturing `run`.
/// @param run [in,out] the run; it must outlive benchmark::RunSpecifiedBenchmarks
void register_benchmarks(BenchRun& run);

}  // namespace bench
