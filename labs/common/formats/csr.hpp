/// @file csr.hpp
/// @brief Compressed Sparse Row format and its conversions from and to the COO hub.
///
/// Worked example, the kit's 4x4 matrix:
/// @code
///     A = | 1 7 0 0 |     row_ptr = [0 2 4 7 9]
///         | 0 2 8 0 |     col_idx = [0 1 1 2 0 2 3 1 3]
///         | 5 0 3 9 |     vals    = [1 7 2 8 5 3 9 6 4]
///         | 0 6 0 4 |
/// @endcode
/// Row i owns entries row_ptr[i] .. row_ptr[i+1]-1; an empty row has row_ptr[i] == row_ptr[i+1].
#pragma once

#include <vector>

#include "formats/coo.hpp"

namespace kit {

/// @brief Non-owning view of a CSR matrix, as kernels take it.
template <class T>
struct CsrView {
    index_t rows;            ///< number of rows
    index_t cols;            ///< number of columns
    index_t nnz;             ///< number of entries (row_ptr[rows])
    const index_t* row_ptr;  ///< rows+1 offsets into col_idx/vals
    const index_t* col_idx;  ///< column of each entry
    const T* vals;           ///< value of each entry
};

/// @brief Owning host CSR container. Data only: the kernels live in the labs.
template <class T>
struct Csr {
    index_t rows = 0;              ///< number of rows
    index_t cols = 0;              ///< number of columns
    std::vector<index_t> row_ptr;  ///< rows+1 offsets
    std::vector<index_t> col_idx;  ///< column of each entry
    std::vector<T> vals;           ///< value of each entry

    /// @brief Builds CSR from the hub (which must be normalized, so rows are sorted).
    /// @param A [in] hub matrix
    static Csr from_coo(const CooMatrix& A);
    /// @brief Converts back to the hub.
    CooMatrix to_coo() const;
    /// @brief Number of entries.
    index_t nnz() const { return static_cast<index_t>(vals.size()); }
    /// @brief Host view of the arrays.
    CsrView<T> view() const { return {rows, cols, nnz(), row_ptr.data(), col_idx.data(), vals.data()}; }
};

}  // namespace kit
