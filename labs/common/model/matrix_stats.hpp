/// @file matrix_stats.hpp
/// @brief Structure figures of a matrix: row lengths, diagonals, and the fill each format would need.
#pragma once

#include "formats/coo.hpp"

namespace kit {

/// @brief What `spmv-kit info` prints.
struct MatrixStats {
    index_t rows = 0;             ///< number of rows
    index_t cols = 0;             ///< number of columns
    count_t nnz = 0;              ///< entries
    index_t min_row = 0;          ///< shortest row length
    index_t max_row = 0;          ///< longest row length
    double mean_row = 0;          ///< mean row length
    double stddev_row = 0;        ///< standard deviation of row lengths
    index_t empty_rows = 0;       ///< rows with no entries
    index_t diagonals = 0;        ///< occupied diagonals (distinct col - row)
    double ell_fill = 0;          ///< ELL slots / nnz = rows * max_row / nnz
    double dia_fill = 0;          ///< DIA slots / nnz = diagonals * rows / nnz
    double bcsr_fill[4][4] = {};  ///< [r-1][c-1]: stored block entries / nnz for r x c blocks
};

/// @brief Computes the figures in O(nnz log nnz) time and O(nnz) memory, whatever rows and cols are.
/// @param A [in] hub matrix (normalized)
MatrixStats compute_stats(const CooMatrix& A);

/// @brief Exact number of nonempty r x c blocks of A (aligned to multiples of r and c), counted
///        one block row at a time over the sorted columns: no hash set, memory of one block row
///        (plus a normalized copy if A is not normalized). Throws kit::Error if r or c is below 1.
/// @param A [in] hub matrix  @param r [in] block rows  @param c [in] block columns
count_t nonempty_blocks(const CooMatrix& A, int r, int c);

/// @brief Occupied diagonals of A (distinct col - row), in memory of at most 8 bytes per entry
///        whatever rows and cols are. @param A [in] hub matrix (any order)
index_t occupied_diagonals(const CooMatrix& A);

/// @brief Stored entries / nnz if A were split into r x c blocks (aligned to multiples of r, c).
///
/// Memory is proportional to nnz (a normalized copy if A is not normalized).
/// @param A [in] hub matrix  @param r [in] block rows  @param c [in] block columns
double bcsr_fill_ratio(const CooMatrix& A, int r, int c);

}  // namespace kit
