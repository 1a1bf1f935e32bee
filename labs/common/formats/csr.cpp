#include "formats/csr.hpp"

#include "core/kit_error.hpp"

namespace kit {

template <class T>
Csr<T> Csr<T>::from_coo(const CooMatrix& A) {
    if (!A.is_normalized()) throw Error("Csr::from_coo: hub matrix is not normalized (call normalize())");
    check_index_range("nnz", A.nnz());
    Csr<T> out;
    out.rows = A.rows;
    out.cols = A.cols;
    out.row_ptr.assign(static_cast<std::size_t>(A.rows) + 1, 0);
    for (index_t r : A.row_idx) ++out.row_ptr[static_cast<std::size_t>(r) + 1];
    for (index_t i = 0; i < A.rows; ++i) out.row_ptr[i + 1] += out.row_ptr[i];
    out.col_idx = A.col_idx;  // row-major order already matches CSR order
    out.vals.assign(A.vals.begin(), A.vals.end());
    return out;
}

template <class T>
CooMatrix Csr<T>::to_coo() const {
    CooMatrix A;
    A.rows = rows;
    A.cols = cols;
    A.row_idx.reserve(vals.size());
    for (index_t i = 0; i < rows; ++i)
        for (index_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) A.row_idx.push_back(i);
    A.col_idx = col_idx;
    A.vals.assign(vals.begin(), vals.end());
    return A;
}

template struct Csr<float>;
template struct Csr<double>;

}  // namespace kit
