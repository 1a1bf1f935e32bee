/// @file dia.hpp
/// @brief DIA (diagonal) format, with the conversions from and to the COO hub.
///
/// Each occupied diagonal d (offset = col - row) is stored as a column of `pitch` slots:
/// the entry (row, row + offsets[d]) lives at vals[d * pitch + row]. Worked example, the
/// kit's 4x4 matrix (Bell and Garland's figure), with pitch 4 for the drawing (the kit
/// rounds the pitch up to a multiple of 32, so in memory each column has 28 more `*`):
/// @code
///     A = | 1 7 0 0 |     offsets = [-2  0  1]
///         | 0 2 8 0 |
///         | 5 0 3 9 |     vals (one column per diagonal):   | *  1  7 |
///         | 0 6 0 4 |                                       | *  2  8 |
///                                                           | 5  3  9 |
///                                                           | 6  4  * |
///     stored as vals = [* * 5 6 | 1 2 3 4 | 7 8 9 *]
/// @endcode
/// `*` marks padding: a slot whose column row + offset falls outside the matrix, or a row
/// past the end (row >= rows, up to the pitch). Padding slots hold 0, so a kernel may
/// multiply them safely as long as it never reads x out of range.
#pragma once

#include <string>
#include <vector>

#include "formats/coo.hpp"

namespace kit {

/// @brief Diagonal offsets a GPU thread block (or OpenCL work-group) stages in shared
/// (local) memory at a time; matrices with more diagonals loop over chunks of this many.
/// 256 offsets are 1 KiB: small beside the 48 KiB a block may always take, and more than
/// any stencil in the labs has, so those run in a single chunk.
constexpr int kDiaOffsetChunk = 256;

/// @brief Non-owning view of a DIA matrix, as kernels take it.
template <class T>
struct DiaView {
    index_t rows;            ///< number of rows
    index_t cols;            ///< number of columns
    index_t diagonals;       ///< number of stored diagonals
    index_t pitch;           ///< slots per diagonal (>= rows)
    const index_t* offsets;  ///< offset (col - row) of each diagonal, ascending
    const T* vals;           ///< vals[d * pitch + row]
};

/// @brief Limits that stop a DIA conversion before it exhausts memory.
struct DiaLimits {
    index_t pitch_multiple = 32;    ///< pitch is rounded up to this many elements (1: pitch = rows)
    double max_fill = 3.0;          ///< refuse if stored slots > max_fill * nnz + floor_slots
    count_t floor_slots = 1 << 16;  ///< so that tiny matrices are never refused
};

/// @brief Owning host DIA container.
template <class T>
struct Dia {
    index_t rows = 0;              ///< number of rows
    index_t cols = 0;              ///< number of columns
    index_t pitch = 0;             ///< slots per diagonal
    std::vector<index_t> offsets;  ///< offset of each stored diagonal, ascending
    std::vector<T> vals;           ///< offsets.size() * pitch slots, padding = 0

    /// @brief Builds DIA from the hub; throws ConversionRefused, with the figures, when the
    /// padded size would exceed the limits.
    /// @param A [in] normalized hub matrix  @param limits [in] pitch alignment and fill limit
    static Dia from_coo(const CooMatrix& A, const DiaLimits& limits = {});
    /// @brief Converts back to the hub. Padding is dropped; so are explicit zeros, which DIA
    /// cannot tell from fill.
    CooMatrix to_coo() const;
    /// @brief Number of stored diagonals.
    index_t diagonals() const { return static_cast<index_t>(offsets.size()); }
    /// @brief True if slot (d, row) is padding: row past the end or column outside the matrix.
    /// @param d [in] diagonal index  @param row [in] row (0 .. pitch-1)
    bool is_padding(index_t d, index_t row) const {
        const count_t col = static_cast<count_t>(row) + offsets[d];
        return row >= rows || col < 0 || col >= cols;
    }
    /// @brief Entries of the matrix (not counting padding).
    count_t nnz() const { return nnz_; }
    /// @brief Stored slots / nnz (1.0 means no padding at all).
    double fill() const { return nnz_ ? static_cast<double>(vals.size()) / nnz_ : 1.0; }
    /// @brief Host view of the arrays.
    DiaView<T> view() const { return {rows, cols, diagonals(), pitch, offsets.data(), vals.data()}; }

private:
    count_t nnz_ = 0;  // entries of the hub, set by from_coo: padding and explicit zeros look alike in vals
};

/// @brief The run note of a DIA matrix: "DIA: 5 diagonals, pitch 4, fill 2.22 (stored slots / nonzeros)".
/// @param m [in] matrix
template <class T>
std::string describe_layout(const Dia<T>& m) {
    return "DIA: " + std::to_string(m.diagonals()) + " diagonals, pitch " + std::to_string(m.pitch) + ", fill " +
           format_fill(m.fill()) + " (stored slots / nonzeros)";
}

}  // namespace kit
