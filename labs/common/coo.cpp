#include "coo.hpp"

#include <algorithm>
#include <numeric>

#include "kit_error.hpp"

namespace kit {

count_t CooMatrix::normalize() {
    const std::size_t n = val.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    // stable, so summed duplicates add in file order and results are reproducible
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return row[a] != row[b] ? row[a] < row[b] : col[a] < col[b];
    });
    std::vector<index_t> r, c;
    std::vector<double> v;
    r.reserve(n);
    c.reserve(n);
    v.reserve(n);
    for (std::size_t k : order) {
        if (!r.empty() && r.back() == row[k] && c.back() == col[k]) {
            v.back() += val[k];
        } else {
            r.push_back(row[k]);
            c.push_back(col[k]);
            v.push_back(val[k]);
        }
    }
    const count_t merged = static_cast<count_t>(n - v.size());
    row.swap(r);
    col.swap(c);
    val.swap(v);
    return merged;
}

bool CooMatrix::is_normalized() const {
    for (std::size_t k = 1; k < val.size(); ++k) {
        if (row[k - 1] > row[k] || (row[k - 1] == row[k] && col[k - 1] >= col[k])) return false;
    }
    return true;
}

template <class T>
Coo<T> Coo<T>::from_coo(const CooMatrix& A) {
    if (!A.is_normalized()) throw Error("Coo::from_coo: hub matrix is not normalized (call normalize())");
    Coo<T> out;
    out.rows = A.rows;
    out.cols = A.cols;
    out.row_idx = A.row;
    out.col_idx = A.col;
    out.vals.assign(A.val.begin(), A.val.end());
    return out;
}

template <class T>
CooMatrix Coo<T>::to_coo() const {
    CooMatrix A;
    A.rows = rows;
    A.cols = cols;
    A.row = row_idx;
    A.col = col_idx;
    A.val.assign(vals.begin(), vals.end());
    return A;
}

template struct Coo<float>;
template struct Coo<double>;

}  // namespace kit
