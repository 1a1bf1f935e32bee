/// @file report.hpp
/// @brief What each benchmark measured, the summary table, and the target checks.
///
/// Targets (issue "Benchmark suite"; lab 07's DIA path targets too), checked on GPU results:
/// 1. For each matrix and precision, the best kit kernel reaches >= 1.0x cuSPARSE CSR;
///    over the suite, the geometric mean of those best ratios is >= 1.1x.
/// 2. On large matrices (>= 10M nonzeros) of its own structure, each format reaches >= 80%
///    of the measured copy ceiling in its own bytes model (dia, ell, bcsr, csr5, and the CSR
///    kernel its lab declares the default choice).
/// 3. CSR5 is at least as fast as cuSPARSE CSR on the power-law matrix.
/// 4. Lab 07's DIA path on the radius-5 matrix with >= 20M nonzeros, as measured today: each
///    buffer step (1-4) >= 70% of the bandwidth ceiling in the kit's bytes model, and the
///    slowest of them within 10% of the fastest. The case study's per-step bounds (12/8/4
///    bytes per 2 flops) stay in the table as history: today's caches absorb the x and offset
///    traffic they charged (bench/results/*/validation.md measures it).
/// 5. Lab 08's format choice (format_choice_report.cpp): the model's pick within 10% of the best
///    kit kernel on >= 90% of the predicted matrices per precision; better on average than
///    "always csr-vector" and "cuSPARSE CSR"; median |predicted/measured - 1| <= 20% per
///    covered kernel on matrices above 1M nonzeros.
/// "cuSPARSE CSR" is the faster of its two CSR algorithms on that matrix and precision.
/// Every target is checked on the cold figures (caches evicted before each call, so bytes come
/// from DRAM); a figure above 100% of its ceiling is served from cache and never counts as PASS.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "registry/variants.hpp"

namespace bench {

/// @brief One benchmark's outcome.
struct Record {
    std::string matrix;                    ///< suite name
    std::string family;                    ///< suite family
    std::vector<std::string> own_formats;  ///< formats whose own structure the matrix is
    std::int64_t nnz = 0;                  ///< entries
    std::string precision;                 ///< "double" or "float"
    std::string backend;                   ///< "cpu", "cuda" or "opencl"
    std::string kernel;                    ///< variant name
    std::string lab;                       ///< lab folder, or "cusparse"
    int step = 0;                          ///< handout step
    bool gpu = false;                      ///< ran on a GPU
    std::string status = "ok";             ///< ok, WRONG, ERROR, SKIPPED, TODO
    std::string message;                   ///< why it is not ok
    std::string device;                    ///< where it ran
    std::string note;                      ///< format facts (fill, block size, ...)
    double ms = 0;                         ///< cold: median time of one SpMV, caches evicted before each
    double steady_ms = 0;                  ///< steady: time per call, calls back to back (0: not measured)
    double steady_gflops = 0;              ///< 2 nnz / steady time
    double steady_pct_ceiling = 0;         ///< steady bytes-model GB/s / ceiling, in %
    double gflops = 0;                     ///< 2 nnz / time
    double gbs = 0;                        ///< bytes model / time, decimal
    double pct_ceiling = 0;                ///< gbs / bandwidth ceiling of the backend, in % (cold)
    double ratio = 0;                      ///< cuSPARSE CSR time / this time (0: no baseline)
    double bound_gflops = 0;               ///< GFLOP/s if the bytes moved at the copy ceiling
    double step_bound_gflops = 0;          ///< lab 07: the step's own bound (case-study model; 0: none)
    double error = 0;                      ///< ||y - y_oracle||_2 / ||y_oracle||_2
    double predicted_ms = 0;               ///< lab 08's predicted time (0: not a kernel the model covers)
    bool model_pick = false;               ///< lab 08's model picked this kernel for the matrix
    /// @brief True for the kit's own kernels (not a cuSPARSE baseline).
    bool is_kit() const { return lab != "cusparse"; }
    /// @brief The format of the kernel, from its name (see format_of).
    std::string format() const;
};

/// @brief Format of a variant from its name, by the kit's naming convention "<format>-<how>":
/// the part before the first '-', except that CSR kernels keep their full name (each is a
/// format of its own in the tables) and cuSPARSE baselines read "cusparse-<format>"
/// ("cusparse-csr-<algorithm>" -> "cusparse-csr"). A forced block size ("<name>@2x3") is not
/// part of the format.
/// @param kernel [in] variant name
std::string format_of(const std::string& kernel);

/// @brief True if kernel `v` is one of a matrix's own entries (MatrixSpec::own_formats): an
/// entry names a format (format_of) or a role the kernel's lab declared for it (kit::role), so
/// the suite never names a lab's kernel. @param v [in] variant  @param own [in] the entry
bool is_own_kernel(const kit::Variant& v, const std::string& own);

/// @brief Counts of the target checks.
struct TargetTally {
    int pass = 0;     ///< targets met
    int miss = 0;     ///< targets measured and missed
    int not_run = 0;  ///< targets with nothing to measure (no GPU, lab missing, filtered out)
};

/// @brief Prints the summary table: one block per matrix and precision, fastest first.
/// @param out     [in] stream
/// @param records [in] results in run order
void print_table(std::ostream& out, const std::vector<Record>& records);

/// @brief Prints every target check as PASS, MISS or NOT RUN, with the figures.
/// @param out     [in] stream
/// @param records [in] results
/// @param have_gpu [in] a CUDA device was used (without one every target is NOT RUN)
/// @return the tally
TargetTally print_targets(std::ostream& out, const std::vector<Record>& records, bool have_gpu);

/// @brief Writes every record as one CSV row with a header line.
/// @param path    [in] file to write
/// @param records [in] results
void write_csv(const std::string& path, const std::vector<Record>& records);

}  // namespace bench
