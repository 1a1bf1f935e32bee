/// @file bcsr.hpp
/// @brief BCSR (blocked CSR) with r x c blocks, r and c in 1..4, and its conversions from and to the COO hub.
///
/// The matrix is cut by a fixed grid into r x c tiles; every tile that holds at least one
/// entry is stored as a dense block of r*c values, row-major inside the block, and blocks
/// follow one another in block-row order. `col_idx` holds the first column of each block
/// (always a multiple of c, since the grid is fixed), and `row_ptr` indexes block rows the
/// way CSR's row_ptr indexes rows. Block row ib owns blocks row_ptr[ib] .. row_ptr[ib+1]-1,
/// which cover the rows ib*r .. ib*r + r-1.
///
/// Worked example, the kit's 4x4 matrix with 2x2 blocks (16 stored values for 9 entries:
/// fill 16/9 = 1.78; `0` in a block is fill):
/// @code
///     A = | 1 7 | 0 0 |     row_ptr = [0 2 4]
///         | 0 2 | 8 0 |     col_idx = [0 2 0 2]
///         |-----+-----|     vals    = [1 7 0 2 | 0 0 8 0 | 5 0 0 6 | 3 9 0 4]
///         | 5 0 | 3 9 |                block 0   block 1   block 2   block 3
///         | 0 6 | 0 4 |
/// @endcode
/// With 3x3 blocks the grid does not divide 4, so the last block row and block column are
/// partial: their slots outside the matrix (`*`) are stored as 0 too, and a kernel must
/// neither read x nor write y past the end for them. 4 blocks x 9 = 36 values for 9 entries
/// (fill 4.0):
/// @code
///     A = | 1 7 0 | 0 * * |     row_ptr = [0 2 4]
///         | 0 2 8 | 0 * * |     col_idx = [0 3 0 3]
///         | 5 0 3 | 9 * * |     vals    = [1 7 0 0 2 8 5 0 3 | 0 * * 0 * * 9 * * |
///         |-------+-------|                0 6 0 * * * * * * | 4 * * * * * * * *]
///         | 0 6 0 | 4 * * |
///         | * * * | * * * |
///         | * * * | * * * |
/// @endcode
#pragma once

#include <vector>

#include "formats/coo.hpp"

namespace kit {

/// @brief Row offsets of a normalized hub: the entries of rows i0..i1-1 are row_ptr[i0] ..
/// row_ptr[i1]-1, so a block row's entries are found without scanning the matrix.
/// @param A [in] normalized hub matrix
std::vector<count_t> hub_row_ptr(const CooMatrix& A);

/// @brief Non-owning view of a BCSR matrix, as kernels take it.
template <class T>
struct BcsrView {
    index_t rows;            ///< number of rows
    index_t cols;            ///< number of columns
    int r;                   ///< rows per block (1..4)
    int c;                   ///< columns per block (1..4)
    index_t block_rows;      ///< ceil(rows / r)
    index_t blocks;          ///< stored blocks (row_ptr[block_rows])
    const index_t* row_ptr;  ///< block_rows+1 offsets into col_idx (block index)
    const index_t* col_idx;  ///< first column of each block, a multiple of c
    const T* vals;           ///< blocks * r * c values; block k starts at vals[k*r*c], row-major inside
};

/// @brief Limits that stop a BCSR conversion before it wastes memory on fill.
///
/// Fill can never pass r*c (16 at most), so BCSR cannot blow up the way DIA can; but a
/// 4x4 split of a scattered matrix still stores about 16 values per entry, which is
/// worse than CSR in every respect. The floor lets small matrices through whatever their
/// fill, so every shape can be tried on the test gallery.
struct BcsrLimits {
    double max_fill = 8.0;           ///< refuse if stored values > max_fill * nnz + floor_values
    count_t floor_values = 1 << 20;  ///< stored values always allowed (8 MB in double)
};

/// @brief Owning host BCSR container.
template <class T>
struct Bcsr {
    index_t rows = 0;              ///< number of rows
    index_t cols = 0;              ///< number of columns
    int r = 1;                     ///< rows per block
    int c = 1;                     ///< columns per block
    std::vector<index_t> row_ptr;  ///< block_rows()+1 offsets into col_idx
    std::vector<index_t> col_idx;  ///< first column of each block
    std::vector<T> vals;           ///< r*c values per block, fill = 0

    /// @brief Builds BCSR with r x c blocks from the hub. Throws kit::Error for r or c
    /// outside 1..4 or an unnormalized hub, and ConversionRefused, with the figures, when
    /// the fill would exceed the limits.
    /// @param A [in] normalized hub matrix  @param r [in] rows per block (1..4)
    /// @param c [in] columns per block (1..4)  @param limits [in] fill limit
    static Bcsr from_coo(const CooMatrix& A, int r, int c, const BcsrLimits& limits = {});
    /// @brief Converts back to the hub. Fill is dropped; so are explicit zeros, which BCSR
    /// cannot tell from fill.
    CooMatrix to_coo() const;
    /// @brief Number of block rows, ceil(rows / r).
    index_t block_rows() const { return static_cast<index_t>(row_ptr.empty() ? 0 : row_ptr.size() - 1); }
    /// @brief Number of stored blocks.
    index_t blocks() const { return static_cast<index_t>(col_idx.size()); }
    /// @brief Entries of the matrix (fill not counted).
    count_t nnz() const { return nnz_; }
    /// @brief Stored values / nnz (1.0 means no fill at all): the f(r,c) of the autotuner.
    double fill() const { return nnz_ ? static_cast<double>(vals.size()) / static_cast<double>(nnz_) : 1.0; }
    /// @brief Host view of the arrays.
    BcsrView<T> view() const {
        return {rows, cols, r, c, block_rows(), blocks(), row_ptr.data(), col_idx.data(), vals.data()};
    }

private:
    count_t nnz_ = 0;  // entries of the hub, set by from_coo: fill and explicit zeros look alike in vals
};

}  // namespace kit
