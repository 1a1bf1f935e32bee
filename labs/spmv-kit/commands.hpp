/// @file commands.hpp
/// @brief The spmv-kit subcommands. Each returns the process exit code and throws kit::Error on bad input.
#pragma once

#include <string>
#include <vector>

#include "coo.hpp"
#include "variants.hpp"

namespace kit::cli {

int cmd_info(const std::vector<std::string>& args);   ///< `spmv-kit info FILE`
int cmd_run(const std::vector<std::string>& args);    ///< `spmv-kit run FILE --format F ...`
int cmd_table(const std::vector<std::string>& args);  ///< `spmv-kit table FILE...`
int cmd_gen(const std::vector<std::string>& args);    ///< `spmv-kit gen KIND ...`
int cmd_list(const std::vector<std::string>& args);   ///< `spmv-kit list`
int cmd_tune_profile(const std::vector<std::string>& args);  ///< `spmv-kit tune-profile --out FILE`

/// @brief One checked run of one variant, as run and table print it.
struct Outcome {
    RunResult result;          ///< what the variant produced
    std::string status;        ///< "ok", "WRONG", "TODO", "REFUSED", "SKIPPED" or "ERROR"
    std::string message;       ///< why, when status is not ok
    double max_error = 0;      ///< max |y - oracle|
    double gflops = 0;         ///< 2 nnz / median time
    double gbytes = 0;         ///< bytes model / median time
};

/// @brief The default vectors: x = y = [1, 2, ..., n] for matrices of at most 16 rows (the
/// 4x4 exercise), x = y = 1 otherwise (the rdb450 exercise).
/// @param A [in] matrix  @param kind [in] "auto", "ones", "ramp" or "random"
/// @param x [out] input vector  @param y [out] initial y
void make_vectors(const CooMatrix& A, const std::string& kind, std::vector<double>& x, std::vector<double>& y);

/// @brief Runs a variant, checks it against the oracle, and derives the rates.
/// @param v [in] variant  @param A [in] matrix  @param x [in] input  @param y [in] initial y
/// @param opt [in] precision and repeats
Outcome execute(const Variant& v, const CooMatrix& A, const std::vector<double>& x, const std::vector<double>& y,
                const RunOptions& opt);

/// @brief Applies --cl-platform/--cl-device by setting KIT_CL_PLATFORM/KIT_CL_DEVICE.
/// @param platform [in] index or name substring ("" leaves it)  @param device [in] likewise
void select_opencl(const std::string& platform, const std::string& device);

}  // namespace kit::cli
