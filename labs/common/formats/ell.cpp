#include "formats/ell.hpp"

#include <sstream>

#include "core/kit_error.hpp"

namespace kit {
namespace {

count_t round_up(count_t n, count_t multiple) { return (n + multiple - 1) / multiple * multiple; }

void require_normalized(const CooMatrix& A, const char* who) {
    if (!A.is_normalized()) throw Error(std::string(who) + ": hub matrix is not normalized (call normalize())");
}

}  // namespace

template <class T>
Ell<T> Ell<T>::from_coo(const CooMatrix& A, const EllLimits& limits) {
    require_normalized(A, "Ell::from_coo");
    if (limits.pitch_multiple < 1) throw Error("Ell::from_coo: pitch_multiple must be at least 1");
    // Longest row and where it is, from the sorted hub: the figures the refusal reports.
    index_t width = 0, longest = 0;
    for (std::size_t k = 0, start = 0; k < A.vals.size(); ++k) {
        if (k > 0 && A.row_idx[k] != A.row_idx[k - 1]) start = k;
        const auto len = static_cast<index_t>(k - start + 1);
        if (len > width) {
            width = len;
            longest = A.row_idx[k];
        }
    }
    const count_t pitch = round_up(A.rows, limits.pitch_multiple);
    const count_t slots = pitch * width;
    const double limit = limits.max_fill * static_cast<double>(A.nnz()) + static_cast<double>(limits.floor_slots);
    if (static_cast<double>(slots) > limit) {
        std::ostringstream msg;
        msg << "ELL conversion refused: the longest row (row " << longest << ") has " << width << " entries, so width "
            << width << " x pitch " << pitch << " = " << slots << " slots for " << A.nnz() << " nonzeros (fill "
            << static_cast<double>(slots) / (A.nnz() ? A.nnz() : 1) << "), above the limit " << limits.max_fill
            << " x nnz + " << limits.floor_slots << " = " << static_cast<count_t>(limit)
            << ". ELL pads every row to the longest one; use HYB (ELL plus COO for the long rows) or CSR.";
        throw ConversionRefused(msg.str());
    }
    return first_entries_of_rows(A, width, limits.pitch_multiple);
}

template <class T>
Ell<T> Ell<T>::first_entries_of_rows(const CooMatrix& A, index_t width, index_t pitch_multiple,
                                     std::vector<count_t>* left_out) {
    require_normalized(A, "Ell::first_entries_of_rows");
    if (pitch_multiple < 1 || width < 0)
        throw Error("Ell::first_entries_of_rows: needs width >= 0 and pitch_multiple >= 1");
    const count_t pitch = round_up(A.rows, pitch_multiple);
    check_index_range("ELL pitch", pitch);
    Ell<T> out;
    out.rows = A.rows;
    out.cols = A.cols;
    out.width = width;
    out.pitch = static_cast<index_t>(pitch);
    const auto slots = static_cast<std::size_t>(pitch * width);
    out.col_idx.assign(slots, kPadding);
    out.vals.assign(slots, T(0));
    if (left_out) left_out->clear();
    index_t slot = 0;  // position of entry k inside its row
    for (std::size_t k = 0; k < A.vals.size(); ++k) {
        slot = (k > 0 && A.row_idx[k] == A.row_idx[k - 1]) ? slot + 1 : 0;
        if (slot >= width) {
            if (left_out) left_out->push_back(static_cast<count_t>(k));
            continue;
        }
        const std::size_t at = static_cast<std::size_t>(slot) * out.pitch + A.row_idx[k];
        out.col_idx[at] = A.col_idx[k];
        out.vals[at] = static_cast<T>(A.vals[k]);
        ++out.nnz_;
    }
    return out;
}

template <class T>
CooMatrix Ell<T>::to_coo() const {
    CooMatrix A;
    A.rows = rows;
    A.cols = cols;
    for (index_t r = 0; r < rows; ++r)
        for (index_t k = 0; k < width; ++k)
            if (!is_padding(k, r)) {
                const std::size_t at = static_cast<std::size_t>(k) * pitch + r;
                A.add(r, col_idx[at], static_cast<double>(vals[at]));
            }
    A.normalize();
    return A;
}

template struct Ell<float>;
template struct Ell<double>;

}  // namespace kit
