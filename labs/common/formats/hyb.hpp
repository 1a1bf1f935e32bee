/// @file hyb.hpp
/// @brief HYB (hybrid ELL + COO) format, with the conversions from and to the COO hub.
///
/// The first K entries of every row go to an ELL part of width K; the entries past K
/// (only the long rows have any) go to a COO part. ELL is fast when rows are about equally
/// long, COO does not care about row lengths: HYB keeps ELL's speed for the typical row
/// and pays COO's price only for the excess of the long ones. Worked example, the kit's
/// 4x4 matrix, where hyb_ell_width() picks K = 2 (drawn with pitch 4):
/// @code
///     A = | 1 7 0 0 |     ELL part, width 2:  vals = | 1 7 |   col_idx = | 0 1 |
///         | 0 2 8 0 |                               | 2 8 |             | 1 2 |
///         | 5 0 3 9 |                               | 5 3 |             | 0 2 |
///         | 0 6 0 4 |                               | 6 4 |             | 1 3 |
///
///     COO part (row 2's third entry):  row_idx = [2]  col_idx = [3]  vals = [9]
/// @endcode
#pragma once

#include <string>
#include <vector>

#include "formats/coo.hpp"
#include "formats/ell.hpp"

namespace kit {

/// @brief Non-owning view of a HYB matrix: its two parts, as kernels take them.
template <class T>
struct HybView {
    EllView<T> ell;  ///< the first K entries of each row
    CooView<T> coo;  ///< the entries past K, sorted by row
};

/// @brief The knobs of the ELL width heuristic (see hyb_ell_width).
struct HybOptions {
    /// How many times faster an ELL slot is than a COO entry: ELL column k is worth
    /// storing while at least rows / relative_speed rows fill it (Bell and Garland use 3).
    double relative_speed = 3.0;
    /// Below this many rows that reach K, ELL is not worth a kernel launch. Bell and
    /// Garland's library uses 4096; the kit uses 0 so that its small teaching matrices
    /// still exercise both parts.
    count_t breakeven_rows = 0;
    /// Pitch alignment of the ELL part.
    index_t pitch_multiple = 32;
};

/// @brief The ELL width K of HYB, chosen from the row-length histogram.
///
/// K is the largest k such that at least max(breakeven_rows, rows / relative_speed) rows
/// have k or more entries (0 if none qualifies, e.g. an empty matrix). Why: slot column k
/// of the ELL part holds one real entry for each row of length >= k and padding for the
/// rest. With relative_speed = 3, an ELL column is kept only while at least a third of
/// its slots are real: an ELL slot (column + value, read coalesced, no atomics) costs
/// about a third of a COO entry (row + column + value, plus an atomic or a segmented
/// reduction), so a column that is a third full costs what its entries would cost in
/// COO. It also bounds the ELL padding: every kept column
/// is at least a third full, so the ELL part stores at most 3x its entries (plus pitch
/// rounding), and HYB never needs a refusal.
/// @param lengths [in] entries of each row  @param options [in] relative speed and break-even
/// @return K, between 0 and the longest row
index_t hyb_ell_width(const std::vector<index_t>& lengths, const HybOptions& options = {});

/// @brief Owning host HYB container.
template <class T>
struct Hyb {
    index_t rows = 0;  ///< number of rows
    index_t cols = 0;  ///< number of columns
    Ell<T> ell;        ///< first K = ell.width entries of each row
    Coo<T> coo;        ///< entries past K, in row-major order

    /// @brief Builds HYB with K = hyb_ell_width(row lengths of A). Never refuses.
    /// @param A [in] normalized hub matrix  @param options [in] heuristic knobs and pitch alignment
    static Hyb from_coo(const CooMatrix& A, const HybOptions& options = {});
    /// @brief Converts back to the hub (both parts merged, padding dropped).
    CooMatrix to_coo() const;
    /// @brief Entries of the matrix (ELL part + COO part).
    count_t nnz() const { return ell.nnz() + coo.nnz(); }
    /// @brief Stored slots / nnz: ELL slots (padding included) plus COO entries.
    double fill() const {
        return nnz() ? static_cast<double>(ell.vals.size() + coo.vals.size()) / static_cast<double>(nnz()) : 1.0;
    }
    /// @brief Host view of both parts.
    HybView<T> view() const { return {ell.view(), coo.view()}; }
};

/// @brief The run note of a HYB matrix: its K, what each part holds, and the fill.
/// @param m [in] matrix
template <class T>
std::string describe_layout(const Hyb<T>& m) {
    return "HYB: K = " + std::to_string(m.ell.width) + " (ELL part " + std::to_string(m.ell.nnz()) + " entries in " +
           std::to_string(m.ell.vals.size()) + " slots), COO part " + std::to_string(m.coo.vals.size()) +
           " entries, fill " + format_fill(m.fill());
}

}  // namespace kit
