/// @file ell.hpp
/// @brief ELL (ELLPACK) format, with the conversions from and to the COO hub.
///
/// Every row keeps `width` slots (width = the longest row), and the slots are stored
/// column-major: slot k of row r lives at col_idx[k * pitch + r] and vals[k * pitch + r].
/// One thread per row then reads consecutive addresses across a warp at every k.
/// Worked example, the kit's 4x4 matrix (Bell and Garland's figure), with pitch 4 for
/// the drawing (the kit rounds the pitch up to a multiple of 32):
/// @code
///     A = | 1 7 0 0 |     vals (row r, slot k):  | 1 7 * |   col_idx:  | 0 1 * |
///         | 0 2 8 0 |                            | 2 8 * |             | 1 2 * |
///         | 5 0 3 9 |                            | 5 3 9 |             | 0 2 3 |
///         | 0 6 0 4 |                            | 6 4 * |             | 1 3 * |
///
///     stored column by column:  vals    = [1 2 5 6 | 7 8 3 4 | * * 9 *]
///                               col_idx = [0 1 0 1 | 1 2 2 3 | * * 3 *]
/// @endcode
/// `*` marks padding: value 0 and column Ell::kPadding (-1). Rows past the end (r >= rows,
/// up to the pitch) are padding in every slot. A kernel must skip padding by its column,
/// never read x[-1].
#pragma once

#include <string>
#include <vector>

#include "formats/coo.hpp"

namespace kit {

/// @brief Non-owning view of an ELL matrix, as kernels take it.
template <class T>
struct EllView {
    index_t rows;            ///< number of rows
    index_t cols;            ///< number of columns
    index_t width;           ///< slots per row (the longest row)
    index_t pitch;           ///< distance between slot k and slot k+1 of a row (>= rows)
    const index_t* col_idx;  ///< col_idx[k * pitch + row]; -1 marks padding
    const T* vals;           ///< vals[k * pitch + row]; 0 in padding
};

/// @brief Limits that stop an ELL conversion before it exhausts memory.
struct EllLimits {
    index_t pitch_multiple = 32;    ///< pitch is rounded up to this many elements (1: pitch = rows)
    double max_fill = 3.0;          ///< refuse if width * pitch > max_fill * nnz + floor_slots
    count_t floor_slots = 1 << 16;  ///< so that tiny matrices are never refused
};

/// @brief Owning host ELL container.
template <class T>
struct Ell {
    /// Column index stored in a padding slot.
    static constexpr index_t kPadding = -1;

    index_t rows = 0;              ///< number of rows
    index_t cols = 0;              ///< number of columns
    index_t width = 0;             ///< slots per row
    index_t pitch = 0;             ///< slots per ELL column (rows rounded up)
    std::vector<index_t> col_idx;  ///< width * pitch columns, kPadding in padding
    std::vector<T> vals;           ///< width * pitch values, 0 in padding

    /// @brief Builds ELL with width = the longest row; throws ConversionRefused, with the
    /// figures (longest row, slots, nnz, limit), when the padded size would exceed the limits.
    /// @param A [in] normalized hub matrix  @param limits [in] pitch alignment and fill limit
    static Ell from_coo(const CooMatrix& A, const EllLimits& limits = {});

    /// @brief Builds ELL from the first `width` entries of each row, with no fill limit
    /// (the caller chose the width, as HYB does). Entries past `width` are not stored.
    /// @param A [in] normalized hub matrix  @param width [in] slots per row
    /// @param pitch_multiple [in] pitch alignment
    /// @param left_out [out] if not null, receives the positions in A of the entries not stored
    static Ell first_entries_of_rows(const CooMatrix& A, index_t width, index_t pitch_multiple = 32,
                                     std::vector<count_t>* left_out = nullptr);

    /// @brief Converts back to the hub; padding is dropped, explicit zeros are kept.
    CooMatrix to_coo() const;
    /// @brief True if slot k of `row` is padding. @param k [in] slot (0 .. width-1)
    /// @param row [in] row (0 .. pitch-1)
    bool is_padding(index_t k, index_t row) const {
        return col_idx[static_cast<std::size_t>(k) * pitch + row] == kPadding;
    }
    /// @brief Entries stored (not counting padding).
    count_t nnz() const { return nnz_; }
    /// @brief Stored slots / nnz (1.0 means no padding at all).
    double fill() const { return nnz_ ? static_cast<double>(vals.size()) / nnz_ : 1.0; }
    /// @brief Host view of the arrays.
    EllView<T> view() const { return {rows, cols, width, pitch, col_idx.data(), vals.data()}; }

private:
    count_t nnz_ = 0;  // entries stored, counted by the conversion (so nnz() need not scan col_idx)
};

/// @brief The run note of an ELL matrix: "ELL: width 3, pitch 4, fill 1.33 (stored slots / nonzeros)".
/// @param m [in] matrix
template <class T>
std::string describe_layout(const Ell<T>& m) {
    return "ELL: width " + std::to_string(m.width) + ", pitch " + std::to_string(m.pitch) + ", fill " +
           format_fill(m.fill()) + " (stored slots / nonzeros)";
}

}  // namespace kit
