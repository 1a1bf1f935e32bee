/// @file gemv_sweep.hpp
/// @brief `spmv-bench --gemv-sweep`: lab 09's GEMV against cuBLAS on square dense matrices,
/// both precisions and both transposes, with the read ceiling and the best sparse kernel of
/// the kit on the same matrices. Every result is checked (kit::run_checked) before its time
/// counts; every time comes from the kit's protocol (cold with L2 evicted, and steady).
#pragma once

#include <string>
#include <vector>

#include "core/types.hpp"

namespace bench {

/// @brief What the sweep runs.
struct GemvSweepOptions {
    std::vector<kit::Precision> precisions;  ///< precisions to run
    int repeats = 20;                        ///< cold repeats (median reported)
    int steady = 100;                        ///< calls back to back for the steady figure
    int warmup = 3;                          ///< untimed calls first
    std::string out_dir;                     ///< where gemv_sweep.csv goes ("" : nowhere)
    int max_n = 0;                           ///< sizes above it are skipped (0: none); the tuning sizes stay
};

/// @brief Runs the sweep, prints its tables and targets, writes gemv_sweep.csv.
/// @param o [in] options  @return 0, 1 if a result was wrong, 2 without a CUDA device
int run_gemv_sweep(const GemvSweepOptions& o);

}  // namespace bench
