/// @file dense.hpp
/// @brief A dense matrix stored column-major (the BLAS layout), for lab 09's GEMV and its
/// cuBLAS baseline.
///
/// Worked example: the 4x4 matrix of the kit with lda = 5 (one slot of padding per column,
/// marked `.`; no kernel reads it):
///
///     A = [1 7 0 0]      vals = [1 0 5 0 . | 7 2 0 6 . | 0 8 3 0 . | 0 0 9 4 .]
///         [0 2 8 0]               column 0    column 1    column 2    column 3
///         [5 0 3 9]
///         [0 6 0 4]      A(i, j) = vals[i + j * lda]
///
/// A sparse hub matrix becomes dense only while that stays sensible: the conversion refuses
/// (kit::ConversionRefused, with the figures) above kMaxDenseEntries stored values, or when
/// it would store more than kMaxDenseFill values per nonzero (see dense_refusal).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "formats/coo.hpp"
#include "core/types.hpp"

namespace kit {

/// @brief Non-owning view of a column-major dense matrix: A(i, j) = vals[i + j * lda].
template <class T>
struct DenseView {
    index_t rows = 0;         ///< m
    index_t cols = 0;         ///< n
    index_t lda = 0;          ///< leading dimension, >= max(1, rows)
    const T* vals = nullptr;  ///< lda * cols values (host or device pointer)
};

/// @brief Largest dense matrix the conversion builds: 2^27 values (1 GiB in double, the
/// size of the GPU's read-ceiling buffer), enough for the 8192 x 8192 bandwidth point.
constexpr count_t kMaxDenseEntries = count_t{1} << 27;
/// @brief Most stored values per nonzero: at 20 the dense matrix moves more than 13 times
/// the bytes of CSR (value + 4-byte index per nonzero, double), so no dense kernel can win
/// and the comparison stops being one.
constexpr double kMaxDenseFill = 20.0;
/// @brief Below this many stored values the fill limit does not apply (small test matrices
/// with empty rows stay convertible; they cost nothing).
constexpr count_t kDenseFillFloor = 65536;

/// @brief Why a rows x cols dense copy of a matrix with nnz entries is refused, or nothing.
/// @param rows [in] m  @param cols [in] n  @param lda [in] leading dimension  @param nnz [in] stored entries of the sparse matrix
std::optional<std::string> dense_refusal(count_t rows, count_t cols, count_t lda, count_t nnz);

/// @brief Dense column-major matrix (host data only).
template <class T>
struct Dense {
    index_t rows = 0;     ///< m
    index_t cols = 0;     ///< n
    index_t lda = 0;      ///< leading dimension (>= max(1, rows))
    std::vector<T> vals;  ///< lda * cols values, padding rows zero

    /// @brief Dense copy of the hub matrix (duplicates summed). Throws ConversionRefused (see
    /// dense_refusal) and kit::Error when lda < rows.
    /// @param A [in] hub matrix  @param lda [in] leading dimension (0: max(1, A.rows))
    static Dense from_coo(const CooMatrix& A, index_t lda = 0);
    /// @brief Dense copy of the transpose A^T (an A.cols x A.rows matrix): column j of the
    /// result is row j of A, so it is A stored row-major.
    /// @param A [in] hub matrix
    static Dense transposed_from_coo(const CooMatrix& A);
    /// @brief The nonzero values as a hub matrix (explicit zeros are dropped).
    CooMatrix to_coo() const;
    /// @brief Non-owning view of the data.
    DenseView<T> view() const { return {rows, cols, lda, vals.data()}; }
};

}  // namespace kit
