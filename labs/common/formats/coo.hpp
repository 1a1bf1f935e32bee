/// @file coo.hpp
/// @brief The COO hub: every format converts from and to this matrix.
///
/// Worked example, the kit's 4x4 matrix (row-major order after normalize()):
/// @code
///     A = | 1 7 0 0 |     row_idx = [0 0 1 1 2 2 2 3 3]
///         | 0 2 8 0 |     col_idx = [0 1 1 2 0 2 3 1 3]
///         | 5 0 3 9 |     vals    = [1 7 2 8 5 3 9 6 4]
///         | 0 6 0 4 |
/// @endcode
#pragma once

#include <vector>

#include "core/types.hpp"

namespace kit {

/// @brief Coordinate-format matrix in double precision, the kit's conversion hub.
///
/// Values are double so that the hub never loses information; formats convert to
/// float or double when they are built.
struct CooMatrix {
    index_t rows = 0;              ///< number of rows
    index_t cols = 0;              ///< number of columns
    std::vector<index_t> row_idx;  ///< 0-based row of each entry
    std::vector<index_t> col_idx;  ///< 0-based column of each entry
    std::vector<double> vals;      ///< value of each entry

    /// @brief Number of stored entries.
    count_t nnz() const { return static_cast<count_t>(vals.size()); }

    /// @brief Appends one entry (no checks; call normalize() afterwards).
    /// @param r [in] 0-based row
    /// @param c [in] 0-based column
    /// @param v [in] value
    void add(index_t r, index_t c, double v) {
        row_idx.push_back(r);
        col_idx.push_back(c);
        vals.push_back(v);
    }

    /// @brief Sorts entries row-major and sums duplicates.
    ///
    /// Duplicates are summed, as Matrix Market readers conventionally do (and as
    /// finite-element assembly expects). Explicit zeros are kept: they are part of
    /// the sparsity pattern.
    /// @return the number of entries removed by summing duplicates
    count_t normalize();

    /// @brief True if entries are sorted row-major with no duplicates.
    bool is_normalized() const;
};

/// @brief Non-owning view of a COO matrix, as kernels take it.
template <class T>
struct CooView {
    index_t rows;            ///< number of rows
    index_t cols;            ///< number of columns
    index_t nnz;             ///< number of entries
    const index_t* row_idx;  ///< row of each entry, sorted ascending
    const index_t* col_idx;  ///< column of each entry
    const T* vals;           ///< value of each entry
};

/// @brief COO in a working precision, with the hub's row-major order.
template <class T>
struct Coo {
    index_t rows = 0;              ///< number of rows
    index_t cols = 0;              ///< number of columns
    std::vector<index_t> row_idx;  ///< row of each entry
    std::vector<index_t> col_idx;  ///< column of each entry
    std::vector<T> vals;           ///< value of each entry

    /// @brief Converts from the hub (which must be normalized).
    /// @param A [in] hub matrix
    static Coo from_coo(const CooMatrix& A);
    /// @brief Converts back to the hub.
    CooMatrix to_coo() const;
    /// @brief Number of stored entries.
    index_t nnz() const { return static_cast<index_t>(vals.size()); }
    /// @brief Host view of the arrays.
    CooView<T> view() const { return {rows, cols, nnz(), row_idx.data(), col_idx.data(), vals.data()}; }
};

}  // namespace kit
