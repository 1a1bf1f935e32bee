#include "formats/dia.hpp"

#include <sstream>

#include "core/kit_error.hpp"

namespace kit {

template <class T>
Dia<T> Dia<T>::from_coo(const CooMatrix& A, const DiaLimits& limits) {
    if (limits.pitch_multiple < 1) throw Error("Dia::from_coo: pitch_multiple must be at least 1");
    // Diagonal offsets range over [-(rows-1), cols-1]: index them by offset + rows.
    std::vector<index_t> slot_of(static_cast<std::size_t>(A.rows) + A.cols, -1);
    for (std::size_t k = 0; k < A.vals.size(); ++k)
        slot_of[static_cast<std::size_t>(A.col_idx[k]) - A.row_idx[k] + A.rows] = 0;
    Dia<T> out;
    out.rows = A.rows;
    out.cols = A.cols;
    out.nnz_ = A.nnz();
    for (std::size_t i = 0; i < slot_of.size(); ++i)
        if (slot_of[i] == 0) {
            slot_of[i] = static_cast<index_t>(out.offsets.size());
            out.offsets.push_back(static_cast<index_t>(static_cast<count_t>(i) - A.rows));
        }
    const count_t m = limits.pitch_multiple;
    const count_t pitch = (static_cast<count_t>(A.rows) + m - 1) / m * m;
    const count_t slots = pitch * static_cast<count_t>(out.offsets.size());
    const double limit = limits.max_fill * static_cast<double>(A.nnz()) + static_cast<double>(limits.floor_slots);
    if (static_cast<double>(slots) > limit) {
        std::ostringstream msg;
        msg << "DIA conversion refused: " << out.offsets.size() << " diagonals x pitch " << pitch << " = " << slots
            << " slots for " << A.nnz() << " nonzeros (fill " << static_cast<double>(slots) / (A.nnz() ? A.nnz() : 1)
            << "), above the limit " << limits.max_fill << " x nnz + " << limits.floor_slots << " = "
            << static_cast<count_t>(limit) << ". DIA suits banded matrices; use CSR, ELL or HYB for this one.";
        throw ConversionRefused(msg.str());
    }
    check_index_range("DIA pitch", pitch);
    out.pitch = static_cast<index_t>(pitch);
    out.vals.assign(static_cast<std::size_t>(slots), T(0));
    for (std::size_t k = 0; k < A.vals.size(); ++k) {
        const index_t d = slot_of[static_cast<std::size_t>(A.col_idx[k]) - A.row_idx[k] + A.rows];
        out.vals[static_cast<std::size_t>(d) * out.pitch + A.row_idx[k]] += static_cast<T>(A.vals[k]);
    }
    return out;
}

template <class T>
CooMatrix Dia<T>::to_coo() const {
    // Explicit zeros on a diagonal cannot be told from fill; DIA drops them (documented loss).
    CooMatrix A;
    A.rows = rows;
    A.cols = cols;
    for (index_t d = 0; d < diagonals(); ++d)
        for (index_t r = 0; r < rows; ++r)
            if (!is_padding(d, r) && vals[static_cast<std::size_t>(d) * pitch + r] != T(0))
                A.add(r, r + offsets[d], static_cast<double>(vals[static_cast<std::size_t>(d) * pitch + r]));
    A.normalize();
    return A;
}

template struct Dia<float>;
template struct Dia<double>;

}  // namespace kit
