#include "formats/hyb.hpp"

#include <algorithm>

#include "core/kit_error.hpp"

namespace kit {

index_t hyb_ell_width(const std::vector<index_t>& lengths, const HybOptions& options) {
    if (options.relative_speed <= 0) throw Error("hyb_ell_width: relative_speed must be positive");
    const index_t longest = lengths.empty() ? 0 : *std::max_element(lengths.begin(), lengths.end());
    // histogram[k] = rows with exactly k entries; walking it from the top gives the
    // number of rows with at least k entries.
    std::vector<count_t> histogram(static_cast<std::size_t>(longest) + 1, 0);
    for (index_t len : lengths) ++histogram[len];
    const double needed = std::max(static_cast<double>(options.breakeven_rows),
                                   static_cast<double>(lengths.size()) / options.relative_speed);
    count_t at_least = 0;
    for (index_t k = longest; k > 0; --k) {
        at_least += histogram[k];
        if (static_cast<double>(at_least) >= needed) return k;
    }
    return 0;
}

template <class T>
Hyb<T> Hyb<T>::from_coo(const CooMatrix& A, const HybOptions& options) {
    if (!A.is_normalized()) throw Error("Hyb::from_coo: hub matrix is not normalized (call normalize())");
    std::vector<index_t> lengths(static_cast<std::size_t>(A.rows), 0);
    for (index_t r : A.row_idx) ++lengths[r];
    Hyb<T> out;
    out.rows = A.rows;
    out.cols = A.cols;
    std::vector<count_t> rest;
    out.ell = Ell<T>::first_entries_of_rows(A, hyb_ell_width(lengths, options), options.pitch_multiple, &rest);
    out.coo.rows = A.rows;
    out.coo.cols = A.cols;
    out.coo.row_idx.reserve(rest.size());
    out.coo.col_idx.reserve(rest.size());
    out.coo.vals.reserve(rest.size());
    for (count_t k : rest) {  // positions come in hub order, so the COO part stays sorted by row
        out.coo.row_idx.push_back(A.row_idx[k]);
        out.coo.col_idx.push_back(A.col_idx[k]);
        out.coo.vals.push_back(static_cast<T>(A.vals[k]));
    }
    return out;
}

template <class T>
CooMatrix Hyb<T>::to_coo() const {
    CooMatrix A = ell.to_coo();
    const CooMatrix B = coo.to_coo();
    A.row_idx.insert(A.row_idx.end(), B.row_idx.begin(), B.row_idx.end());
    A.col_idx.insert(A.col_idx.end(), B.col_idx.begin(), B.col_idx.end());
    A.vals.insert(A.vals.end(), B.vals.begin(), B.vals.end());
    A.normalize();
    return A;
}

template struct Hyb<float>;
template struct Hyb<double>;

}  // namespace kit
