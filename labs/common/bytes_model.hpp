/// @file bytes_model.hpp
/// @brief How many bytes an SpMV y <- y + A x must move, per format. One place for every format.
///
/// All models count, in decimal bytes (GB = 1e9 B):
/// - the matrix arrays exactly as the format stores them (padding included, since the
///   kernel reads it),
/// - x once per column (the ideal: every x value read from DRAM once, later reuses hit cache),
/// - y read once and written once.
///
/// GB/s = bytes / time. A kernel above the copy-bandwidth ceiling in this model is
/// reusing cache for the matrix too (small matrices), or the model is wrong.
#pragma once

#include "types.hpp"

namespace kit {

/// @brief Bytes of the vectors: x read once per column, y read and written once.
/// @param rows        [in] rows of A
/// @param cols        [in] columns of A
/// @param value_bytes [in] sizeof(T)
inline count_t vector_bytes(count_t rows, count_t cols, count_t value_bytes) {
    return cols * value_bytes + 2 * rows * value_bytes;
}

/// @brief COO: row, column (4 B each) and value per entry, plus the vectors.
/// @param rows [in] rows  @param cols [in] columns  @param nnz [in] entries
/// @param value_bytes [in] sizeof(T)
inline count_t coo_bytes(count_t rows, count_t cols, count_t nnz, count_t value_bytes) {
    return nnz * (4 + 4 + value_bytes) + vector_bytes(rows, cols, value_bytes);
}

/// @brief CSR: row_ptr (rows+1 x 4 B), column (4 B) and value per entry, plus the vectors.
/// @param rows [in] rows  @param cols [in] columns  @param nnz [in] entries
/// @param value_bytes [in] sizeof(T)
inline count_t csr_bytes(count_t rows, count_t cols, count_t nnz, count_t value_bytes) {
    return (rows + 1) * 4 + nnz * (4 + value_bytes) + vector_bytes(rows, cols, value_bytes);
}

/// @brief CSR bytes of a CSR container (anything with rows, cols and nnz()). @param m [in] matrix
/// @param value_bytes [in] sizeof(T)
template <class Matrix>
count_t csr_bytes_of(const Matrix& m, count_t value_bytes) {
    return csr_bytes(m.rows, m.cols, m.nnz(), value_bytes);
}

/// @brief COO bytes of a COO container. @param m [in] matrix  @param value_bytes [in] sizeof(T)
template <class Matrix>
count_t coo_bytes_of(const Matrix& m, count_t value_bytes) {
    return coo_bytes(m.rows, m.cols, static_cast<count_t>(m.vals.size()), value_bytes);
}

/// @brief Floating-point operations of one SpMV: a multiply and an add per entry.
/// @param nnz [in] entries of A (padding not counted: it is wasted work, not useful flops)
inline count_t spmv_flops(count_t nnz) { return 2 * nnz; }

}  // namespace kit
