/// @file suite.hpp
/// @brief The benchmark's matrix suite: generated families at a chosen size, plus the
/// SuiteSparse matrices that `matrices/download` fetched, when they are present.
///
/// Every family is there for a reason: it is the "own structure" of one format (the
/// shape that format was designed for), or it is a known hard case.
/// | family      | own structure of        | why it is in the suite                          |
/// |-------------|-------------------------|-------------------------------------------------|
/// | stencil     | dia, ell                | few full diagonals, constant row length          |
/// | radius      | dia                     | the AMD case study's image matrix: 81 diagonals  |
/// | rdb         | dia                     | rdb450 scaled up (Brusselator, 7 diagonals)      |
/// | fem-block   | bcsr                    | dense 3x3 blocks (lab 05's Q1 FEM generator)    |
/// | random      | default-choice CSR      | moderate rows (mean 32), no structure            |
/// | power-law   | csr5                    | Zipf row lengths: one row holds 5% of the entries|
/// | dense-rows  | hyb                     | a few full rows: ELL refuses, HYB and CSR5 cope  |
/// | dense       | (none)                  | the Williams set's 2000 x 2000 dense matrix      |
/// | suitesparse | (none)                  | real matrices (GOSpMV eight, Williams set)       |
/// The 2-D stencil of 64 x 64 and rdb450 stay at every size: they show the launch-bound end.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "formats/coo.hpp"

namespace bench {

/// @brief How large the generated matrices are.
enum class Size {
    tiny,    ///< CI: every family, each well under 0.1M nonzeros (seconds in all)
    small,   ///< laptop: 0.2M to 1M nonzeros
    medium,  ///< 1M to 12M nonzeros
    large    ///< the device run: 4M to 25M nonzeros, plus one of 110M (double only, own formats only)
};

/// @brief Parses "tiny", "small", "medium" or "large"; throws kit::Error otherwise.
/// @param text [in] the value of --size
Size parse_size(const std::string& text);

/// @brief Name of a size, as parse_size reads it. @param s [in] size
std::string to_string(Size s);

/// @brief One matrix of the suite, generated (or read) only when a benchmark needs it.
struct MatrixSpec {
    std::string name;    ///< unique, no '/', e.g. "stencil2d_1600x1600"
    std::string family;  ///< see the table in this file's comment
    /// formats for which this is the own structure, or kit::role names for kernels that a
    /// format alone does not single out (bench::is_own_kernel matches both)
    std::vector<std::string> own_formats;
    std::int64_t nnz_estimate = 0;         ///< about how many entries (for progress lines; 0: unknown)
    bool double_only = false;              ///< too large to run twice within the time budget
    bool own_formats_only = false;         ///< too large for every kernel: run only the CUDA kernels of
                                           ///< its own formats and the cuSPARSE CSR baselines
    std::function<kit::CooMatrix()> make;  ///< generator or file reader (returns a normalized matrix)
};

/// @brief The suite at one size, followed by every `*.mtx` (or `.mtx.gz`, `.mtx.bz2`) found in suitesparse_dir.
/// @param size            [in] generated sizes
/// @param suitesparse_dir [in] folder that matrices/download fills (missing: no real matrices)
std::vector<MatrixSpec> build_suite(Size size, const std::string& suitesparse_dir);

}  // namespace bench
